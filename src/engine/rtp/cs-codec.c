/* cs-codec.c — payload format table.
 *
 * Ie (equipment impairment) and Bpl (packet-loss robustness) sources:
 *   ITU-T G.113 (11/2007) Appendix I, Table I.1 (Ie) and Table I.3 (Ie, Bpl for
 *   codecs with packet loss concealment):
 *     G.711 with PLC (G.711 Appendix I)   Ie 0   Bpl 25.1
 *     G.711 without PLC                   Ie 0   Bpl 4.3
 *     G.723.1 6.3 kbit/s + VAD            Ie 15  Bpl 16.1
 *     G.729A + VAD                        Ie 11  Bpl 19.0
 *     GSM-EFR                             Ie 5   Bpl 10.0
 *     GSM-FR (Table I.1)                  Ie 20
 *     G.726 40/32/24/16 kbit/s (Table I.1) Ie 2/7/25/50, G.728 Ie 7
 * Codecs G.113 gives no narrowband Bpl for are marked "assumption" in .source
 * and in docs/metrics.md; change them there and here together. */
#include "cs-codec.h"

#include <string.h>

#define G113 "G.113 App. I"
#define G113_IE "G.113 App. I (Ie); Bpl assumption"

static const CsCodecInfo static_codecs[] = {
  /* 0 */ { "g711U", "PCMU", 8000, 0, 25.1, TRUE, G113 },
  /* 1 */ { "fs-1016", "1016", 8000, 0, 0, TRUE, "assumption: no value" },
  /* 2 */ { "g721", "G721", 8000, 7, 4.3, TRUE, G113_IE },
  /* 3 */ { "GSM", "GSM", 8000, 20, 10.0, TRUE, G113_IE },
  /* 4 */ { "g723", "G723", 8000, 15, 16.1, TRUE, G113 },
  /* 5 */ { "DVI4 8k", "DVI4", 8000, 0, 4.3, TRUE, "assumption: as G.711 without PLC" },
  /* 6 */ { "DVI4 16k", "DVI4", 16000, 0, 4.3, TRUE, "assumption: as G.711 without PLC" },
  /* 7 */ { "Exp. from Xerox PARC", "LPC", 8000, 0, 0, TRUE, "assumption: no value" },
  /* 8 */ { "g711A", "PCMA", 8000, 0, 25.1, TRUE, G113 },
  /* 9: RFC 3551 keeps G.722's RTP clock at 8000 although it samples at 16 kHz */
  /* 9 */ { "g722", "G722", 8000, 0, 25.1, TRUE, "assumption: as G.711 with PLC" },
  /* 10 */
  { "16-bit audio, stereo", "L16", 44100, 0, 4.3, TRUE, "assumption: as G.711 without PLC" },
  /* 11 */
  { "16-bit audio, monaural", "L16", 44100, 0, 4.3, TRUE, "assumption: as G.711 without PLC" },
  /* 12 */ { "Qualcomm", "QCELP", 8000, 0, 0, TRUE, "assumption: no value" },
  /* 13 */ { "CN", "CN", 8000, 0, 0, FALSE, "" },
  /* 14 */ { "MPEG-I/II Audio", "MPA", 90000, 0, 0, FALSE, "" },
  /* 15 */ { "g728", "G728", 8000, 7, 4.3, TRUE, G113_IE },
  /* 16 */ { "DVI4 11k", "DVI4", 11025, 0, 4.3, TRUE, "assumption: as G.711 without PLC" },
  /* 17 */ { "DVI4 22k", "DVI4", 22050, 0, 4.3, TRUE, "assumption: as G.711 without PLC" },
  /* 18 */ { "g729", "G729", 8000, 11, 19.0, TRUE, G113 },
  /* 19 */ { "CN(old)", "CN", 8000, 0, 0, FALSE, "" },
};

/* Video static types 25..34, sparse. */
static const struct
{
  guint pt;
  CsCodecInfo info;
} static_video[] = {
  { 25, { "CellB", "CelB", 90000, 0, 0, FALSE, "" } },
  { 26, { "JPEG", "JPEG", 90000, 0, 0, FALSE, "" } },
  { 28, { "NV", "nv", 90000, 0, 0, FALSE, "" } },
  { 31, { "h261", "H261", 90000, 0, 0, FALSE, "" } },
  { 32, { "MPEG-I/II Video", "MPV", 90000, 0, 0, FALSE, "" } },
  { 33, { "MPEG-II streams", "MP2T", 90000, 0, 0, FALSE, "" } },
  { 34, { "h263", "H263", 90000, 0, 0, FALSE, "" } },
};

/* Dynamic payload formats by rtpmap name. Several rows per name where the
 * clock rate varies; the first row of a name is the default. */
static const CsCodecInfo dynamic_codecs[] = {
  { "g711U", "PCMU", 8000, 0, 25.1, TRUE, G113 },
  { "g711A", "PCMA", 8000, 0, 25.1, TRUE, G113 },
  { "g722", "G722", 8000, 0, 25.1, TRUE, "assumption: as G.711 with PLC" },
  { "g729", "G729", 8000, 11, 19.0, TRUE, G113 },
  { "g729", "G729A", 8000, 11, 19.0, TRUE, G113 },
  { "g729D", "G729D", 8000, 11, 19.0, TRUE, "assumption: as G.729A" },
  { "g729E", "G729E", 8000, 11, 19.0, TRUE, "assumption: as G.729A" },
  { "g723", "G723", 8000, 15, 16.1, TRUE, G113 },
  { "g728", "G728", 8000, 7, 4.3, TRUE, G113_IE },
  { "g726-16", "G726-16", 8000, 50, 4.3, TRUE, G113_IE },
  { "g726-24", "G726-24", 8000, 25, 4.3, TRUE, G113_IE },
  { "g726-32", "G726-32", 8000, 7, 4.3, TRUE, G113_IE },
  { "g726-40", "G726-40", 8000, 2, 4.3, TRUE, G113_IE },
  /* the same codec with ATM AAL2's bit packing (ITU-T I.366.2): the same impairment */
  { "AAL2-G726-16", "AAL2-G726-16", 8000, 50, 4.3, TRUE, G113_IE },
  { "AAL2-G726-24", "AAL2-G726-24", 8000, 25, 4.3, TRUE, G113_IE },
  { "AAL2-G726-32", "AAL2-G726-32", 8000, 7, 4.3, TRUE, G113_IE },
  { "AAL2-G726-40", "AAL2-G726-40", 8000, 2, 4.3, TRUE, G113_IE },
  { "GSM", "GSM", 8000, 20, 10.0, TRUE, G113_IE },
  { "GSM-EFR", "GSM-EFR", 8000, 5, 10.0, TRUE, G113 },
  /* AMR at its 12.2 kbit/s mode is GSM-EFR, so it borrows EFR's values. */
  { "AMR", "AMR", 8000, 5, 10.0, TRUE, "assumption: as GSM-EFR (AMR 12.2)" },
  /* Wideband codecs on the narrowband R scale: no worse than G.711. */
  { "AMR-WB", "AMR-WB", 16000, 0, 10.0, TRUE, "assumption: Ie as G.711, Bpl as GSM-EFR" },
  { "EVS", "EVS", 16000, 0, 10.0, TRUE, "assumption: Ie as G.711, Bpl as GSM-EFR" },
  { "iLBC", "iLBC", 8000, 11, 25.1, TRUE, "assumption: Ie as G.729A, Bpl as G.711 with PLC" },
  { "opus", "opus", 48000, 0, 25.1, TRUE, "assumption: as G.711 with PLC" },
  { "speex", "speex", 8000, 11, 19.0, TRUE, "assumption: as G.729A" },
  { "speex", "speex", 16000, 11, 19.0, TRUE, "assumption: as G.729A" },
  { "speex", "speex", 32000, 11, 19.0, TRUE, "assumption: as G.729A" },
  { "g7221", "G7221", 16000, 0, 25.1, TRUE, "assumption: as G.711 with PLC" },
  { "SILK", "SILK", 16000, 0, 25.1, TRUE, "assumption: as G.711 with PLC" },
  { "SILK", "SILK", 8000, 0, 25.1, TRUE, "assumption: as G.711 with PLC" },
  { "L16", "L16", 8000, 0, 4.3, TRUE, "assumption: as G.711 without PLC" },
  { "L16", "L16", 16000, 0, 4.3, TRUE, "assumption: as G.711 without PLC" },
  { "L16", "L16", 44100, 0, 4.3, TRUE, "assumption: as G.711 without PLC" },
  { "L16", "L16", 48000, 0, 4.3, TRUE, "assumption: as G.711 without PLC" },
  { "telephone-event", "telephone-event", 8000, 0, 0, FALSE, "" },
  { "telephone-event", "telephone-event", 16000, 0, 0, FALSE, "" },
  { "telephone-event", "telephone-event", 48000, 0, 0, FALSE, "" },
  { "CN", "CN", 8000, 0, 0, FALSE, "" },
  { "CN", "CN", 16000, 0, 0, FALSE, "" },
  { "CN", "CN", 32000, 0, 0, FALSE, "" },
  { "CN", "CN", 48000, 0, 0, FALSE, "" },
  { "red", "red", 8000, 0, 0, FALSE, "" },
  { "t140", "t140", 1000, 0, 0, FALSE, "" },
  { "H263", "H263", 90000, 0, 0, FALSE, "" },
  { "H263-1998", "H263-1998", 90000, 0, 0, FALSE, "" },
  { "H263-2000", "H263-2000", 90000, 0, 0, FALSE, "" },
  { "H264", "H264", 90000, 0, 0, FALSE, "" },
  { "H265", "H265", 90000, 0, 0, FALSE, "" },
  { "VP8", "VP8", 90000, 0, 0, FALSE, "" },
  { "VP9", "VP9", 90000, 0, 0, FALSE, "" },
  { "MP4V-ES", "MP4V-ES", 90000, 0, 0, FALSE, "" },
};

const CsCodecInfo *
cs_codec_lookup_static (guint payload_type)
{
  if (payload_type < G_N_ELEMENTS (static_codecs))
    return &static_codecs[payload_type];
  for (gsize i = 0; i < G_N_ELEMENTS (static_video); i++)
    if (static_video[i].pt == payload_type)
      return &static_video[i].info;
  return NULL;
}

const CsCodecInfo *
cs_codec_lookup_encoding (const char *encoding, guint clock_rate)
{
  const CsCodecInfo *first = NULL;

  if (encoding == NULL)
    return NULL;
  for (gsize i = 0; i < G_N_ELEMENTS (dynamic_codecs); i++)
    {
      const CsCodecInfo *info = &dynamic_codecs[i];

      if (g_ascii_strcasecmp (info->encoding, encoding) != 0)
        continue;
      if (clock_rate == 0 || info->clock_rate == clock_rate)
        return info;
      if (first == NULL)
        first = info;
    }
  return first;
}

gboolean
cs_codec_is_telephone_event (const char *encoding)
{
  return encoding != NULL && g_ascii_strcasecmp (encoding, "telephone-event") == 0;
}

gboolean
cs_codec_is_comfort_noise (const char *encoding)
{
  return encoding != NULL && g_ascii_strcasecmp (encoding, "CN") == 0;
}
