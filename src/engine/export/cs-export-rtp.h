/* cs-export-rtp.h — voice in exported RTP: kept, replaced by silence, or cut from the frame
 * (voice is personal data); telephone-events and comfort noise are never voice */
#pragma once

#include <glib.h>

#include "calls/cs-stream.h"

G_BEGIN_DECLS

typedef enum
{
  CS_EXPORT_VOICE_KEEP,
  CS_EXPORT_VOICE_SILENCE, /* the codec's silence where it has one (G.711), zero bytes else */
  CS_EXPORT_VOICE_DROP,    /* the frame ends after the RTP header (as with a short snaplen) */
} CsExportVoice;

/* The frame (an RTP packet of stream) with its voice payload treated as mode says. */
void cs_export_rtp_scrub (CsStream *stream, CsExportVoice mode, guint linktype, GByteArray *frame);

G_END_DECLS
