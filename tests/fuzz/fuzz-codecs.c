/* fuzz-codecs.c — every audio decoder (G.711 µ/A, G.722, G.729, Opus, L16, GSM, G.726 in
 * both packings, AMR/AMR-WB in both payload formats, Speex) on
 * hostile payloads. Input: a byte choosing the decoder, then records
 * (fuzz-common.h), each one RTP payload, decoded in order (decoder state
 * carries across packets as in a stream). */
#include "fuzz-common.h"

#include "cs-audio-decoder.h"

static const struct
{
  const char *encoding;
  guint clock_rate, channels;
  const char *fmtp;
} formats[] = {
  { "PCMU", 8000, 1, NULL },
  { "PCMA", 8000, 1, NULL },
  { "G722", 8000, 1, NULL },
  { "G729", 8000, 1, NULL },
  { "opus", 48000, 2, NULL },
  { "L16", 44100, 2, NULL },
  { "L16", 8000, 1, NULL },
  { "GSM", 8000, 1, NULL },
  { "G726-16", 8000, 1, NULL },
  { "G726-40", 8000, 1, NULL },
  { "AAL2-G726-24", 8000, 1, NULL },
  { "AAL2-G726-32", 8000, 1, NULL },
  { "AMR", 8000, 1, "octet-align=1" },
  { "AMR", 8000, 1, NULL },
  { "AMR-WB", 16000, 1, "octet-align=1" },
  { "AMR-WB", 16000, 1, NULL },
  { "speex", 8000, 1, NULL },
  { "speex", 16000, 1, NULL },
  { "speex", 32000, 1, NULL },
};

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  CsFuzzRecords records;
  const uint8_t *payload;
  size_t len;
  guint which;
  CsAudioDecoder *decoder;
  g_autoptr (GArray) samples = g_array_new (FALSE, FALSE, sizeof (gint16));

  cs_fuzz_init_once ();
  cs_fuzz_records_init (&records, data, size);
  which = cs_fuzz_records_byte (&records) % G_N_ELEMENTS (formats);
  decoder = cs_audio_decoder_new_with_fmtp (formats[which].encoding, formats[which].clock_rate,
                                            formats[which].channels, formats[which].fmtp, NULL);
  g_assert (decoder != NULL);
  while (cs_fuzz_records_next (&records, &payload, &len))
    {
      guint before = samples->len;
      gsize added = cs_audio_decoder_decode (decoder, payload, len, samples);

      g_assert (samples->len == before + added);
      /* A payload of at most 64 KiB never decodes to more than a few seconds. */
      g_assert (added <= 48000u * 8);
      if (samples->len > 1000000)
        g_array_set_size (samples, 0);
    }
  cs_audio_decoder_get_sample_rate (decoder);
  cs_audio_decoder_free (decoder);
  return 0;
}
