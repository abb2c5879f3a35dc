/* cs-audio-formats.h — which payload format each RTP payload type carries,
 * from the static table and the rtpmaps of a call's SDP */
#pragma once

#include "callscope-engine.h"

G_BEGIN_DECLS

typedef struct
{
  char *encoding[128]; /* rtpmap encoding name; NULL when unknown */
  guint clock_rate[128];
  guint channels[128];
  char *fmtp[128]; /* the a=fmtp parameters of that payload type, or NULL */
} CsAudioFormatMap;

/* RFC 3551 static payload types only. */
void cs_audio_format_map_init (CsAudioFormatMap *map);
void cs_audio_format_map_clear (CsAudioFormatMap *map);
/* Adds every a=rtpmap of the SDP; a payload type keeps the first mapping seen. */
void cs_audio_format_map_add_sdp (CsAudioFormatMap *map, const CsSdp *sdp);
/* Adds the SDP of every message of the call, in order. */
void cs_audio_format_map_add_call (CsAudioFormatMap *map, CsCall *call);

G_END_DECLS
