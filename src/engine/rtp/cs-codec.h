/* cs-codec.h — what callscope knows about an RTP payload format: name, clock, E-model factors */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  const char *name;     /* display name, Wireshark's where it has one: "g711U", "g729", "opus" */
  const char *encoding; /* canonical rtpmap encoding name: "PCMU", "G729", "opus" */
  guint clock_rate;     /* RTP clock rate in Hz */
  double ie, bpl;       /* E-model equipment impairment and packet-loss robustness */
  gboolean is_audio;    /* speech codec a MOS makes sense for (not CN, events or video) */
  const char *source;   /* where ie/bpl come from: "G.113 App. I" or "assumption: …" */
} CsCodecInfo;

/* RFC 3551 static payload types (0..34); NULL for dynamic or unassigned ones. */
const CsCodecInfo *cs_codec_lookup_static (guint payload_type);

/* From an rtpmap encoding name, case-insensitive ("PCMU" → g711U, "opus" …).
 * clock_rate 0 = any; when no entry has that exact clock the first entry with
 * the name is returned. NULL when the name is unknown. */
const CsCodecInfo *cs_codec_lookup_encoding (const char *encoding, guint clock_rate);

/* RFC 4733 "telephone-event" (case-insensitive). */
gboolean cs_codec_is_telephone_event (const char *encoding);
/* RFC 3389 "CN" comfort noise (case-insensitive). */
gboolean cs_codec_is_comfort_noise (const char *encoding);

G_END_DECLS
