/* cs-audio-decoder.h — one RTP payload format decoded to 16-bit mono PCM */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CsAudioDecoder CsAudioDecoder;

/* TRUE when a decoder exists for the rtpmap encoding name (case-insensitive):
 * PCMU, PCMA, G722, G729 (also G729A), opus, L16, GSM, G726-16/24/32/40 and
 * AAL2-G726-16/24/32/40 (G721 = G726-32), AMR, AMR-WB, speex. (iLBC is known but has no
 * decoder: cs_audio_decoder_new says so.) */
gboolean cs_audio_encoding_is_supported (const char *encoding);

/* A decoder for an rtpmap encoding. clock_rate is the RTP clock (L16's sample
 * rate; 0 = the format's usual one); channels the rtpmap's (L16 interleaves
 * them; they are mixed down to mono). CS_AUDIO_ERROR_UNSUPPORTED names the
 * encoding when there is no decoder for it. */
CsAudioDecoder *cs_audio_decoder_new (const char *encoding, guint clock_rate, guint channels,
                                      GError **error);
/* The same with the format's a=fmtp parameters (AMR/AMR-WB: octet-align=1 selects the
 * octet-aligned payload, else bandwidth-efficient; NULL = none). */
CsAudioDecoder *cs_audio_decoder_new_with_fmtp (const char *encoding, guint clock_rate,
                                                guint channels, const char *fmtp, GError **error);
void cs_audio_decoder_free (CsAudioDecoder *decoder);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsAudioDecoder, cs_audio_decoder_free)

/* Output sample rate: 8000 for G.711/G.729/GSM/G.726/AMR, 16000 for G.722 and AMR-WB,
 * 48000 for Opus, the clock rate for L16 and Speex. */
guint cs_audio_decoder_get_sample_rate (CsAudioDecoder *decoder);
/* Canonical name: "PCMU", "PCMA", "G722", "G729", "opus", "L16". */
const char *cs_audio_decoder_get_name (CsAudioDecoder *decoder);

/* Decodes one RTP payload and appends its samples to out (GArray of gint16).
 * Returns the number appended; 0 when the payload is not valid for the format
 * (nothing is appended then). Never reads past len. */
gsize cs_audio_decoder_decode (CsAudioDecoder *decoder, const guint8 *payload, gsize len,
                               GArray *out);

G_END_DECLS
