/* test-audio-codecs.c — decoders against reference values and encoder round trips,
 * the resampler and the lock-free ring */
#include <bcg729/encoder.h>
#include <opus.h>
#include <stddef.h>
#include <stdint.h>
#include <spandsp/telephony.h>

#include <spandsp/g722.h>

#include "../gen/gen-audio.h"
#include "cs-audio-decoder.h"
#include "cs-audio-error.h"
#include "cs-audio-resample.h"
#include "cs-audio-ring.h"
#include "cs-g711.h"
#include "test-audio-common.h"

static void
test_g711_reference_values (void)
{
  /* G.711 Table 2a/2b end points and zero codes, scaled to 16 bits. */
  g_assert_cmpint (cs_g711_ulaw_to_linear (0x00), ==, -32124);
  g_assert_cmpint (cs_g711_ulaw_to_linear (0x80), ==, 32124);
  g_assert_cmpint (cs_g711_ulaw_to_linear (0xFF), ==, 0);
  g_assert_cmpint (cs_g711_ulaw_to_linear (0x7F), ==, 0);
  g_assert_cmpint (cs_g711_ulaw_to_linear (0xFE), ==, 8);
  g_assert_cmpint (cs_g711_ulaw_to_linear (0xEF), ==, 132);
  g_assert_cmpint (cs_g711_alaw_to_linear (0xD5), ==, 8);
  g_assert_cmpint (cs_g711_alaw_to_linear (0x55), ==, -8);
  g_assert_cmpint (cs_g711_alaw_to_linear (0xAA), ==, 32256);
  g_assert_cmpint (cs_g711_alaw_to_linear (0x2A), ==, -32256);
  g_assert_cmpint (cs_g711_alaw_to_linear (0xD4), ==, 24);
}

static void
test_g711_round_trip (void)
{
  /* Every code decodes to a value the encoder maps back to the same code
   * (µ-law has two zeros, 0x7F and 0xFF; the encoder gives 0xFF). */
  for (guint code = 0; code < 256; code++)
    {
      guint8 u = gen_g711_ulaw_encode (cs_g711_ulaw_to_linear ((guint8) code));
      guint8 a = gen_g711_alaw_encode (cs_g711_alaw_to_linear ((guint8) code));

      g_assert_cmpuint (u, ==, code == 0x7F ? 0xFF : code);
      g_assert_cmpuint (a, ==, code);
    }
  /* Monotonic within each sign: the table has no swapped entries. */
  for (guint code = 0x80; code < 0xFF; code++)
    g_assert_cmpint (cs_g711_ulaw_to_linear ((guint8) code), >,
                     cs_g711_ulaw_to_linear ((guint8) (code + 1)));
}

static void
test_g711_decoder_tone (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (CsAudioDecoder) pcmu = cs_audio_decoder_new ("pcmu", 8000, 1, &error);
  g_autoptr (CsAudioDecoder) pcma = cs_audio_decoder_new ("PCMA", 8000, 1, &error);
  g_autoptr (GArray) out = g_array_new (FALSE, FALSE, sizeof (gint16));
  gint16 pcm[1600];
  guint8 codes[1600];

  g_assert_no_error (error);
  test_audio_tone (pcm, G_N_ELEMENTS (pcm), 8000, 1000.0, 10000.0);
  for (guint i = 0; i < G_N_ELEMENTS (pcm); i++)
    codes[i] = gen_g711_ulaw_encode (pcm[i]);
  g_assert_cmpuint (cs_audio_decoder_decode (pcmu, codes, sizeof codes, out), ==, 1600);
  g_assert_cmpuint (cs_audio_decoder_get_sample_rate (pcmu), ==, 8000);
  g_assert_cmpfloat_with_epsilon (
      test_audio_peak_hz ((gint16 *) (gpointer) out->data, out->len, 1, 8000, 200, 3800), 1000.0,
      2.0);
  for (guint i = 0; i < G_N_ELEMENTS (pcm); i++)
    codes[i] = gen_g711_alaw_encode (pcm[i]);
  g_array_set_size (out, 0);
  g_assert_cmpuint (cs_audio_decoder_decode (pcma, codes, sizeof codes, out), ==, 1600);
  /* Companding error stays under 3% of the amplitude. */
  for (guint i = 0; i < G_N_ELEMENTS (pcm); i++)
    g_assert_cmpint (ABS (g_array_index (out, gint16, i) - pcm[i]), <=, 300);
}

static void
test_g729_round_trip (void)
{
  g_autoptr (CsAudioDecoder) decoder = cs_audio_decoder_new ("G729", 8000, 1, NULL);
  g_autoptr (GArray) out = g_array_new (FALSE, FALSE, sizeof (gint16));
  bcg729EncoderChannelContextStruct *encoder = initBcg729EncoderChannel (0);
  gint16 pcm[8000];
  guint8 payload[20];
  guint8 sid[2] = { 0x10, 0x20 };
  guint8 odd[7] = { 0 };

  test_audio_tone (pcm, G_N_ELEMENTS (pcm), 8000, 700.0, 8000.0);
  /* Two 10 ms frames per 20 ms packet, as RTP carries them. */
  for (guint p = 0; p < G_N_ELEMENTS (pcm) / 160; p++)
    {
      guint8 len0 = 0, len1 = 0;

      bcg729Encoder (encoder, pcm + p * 160, payload, &len0);
      bcg729Encoder (encoder, pcm + p * 160 + 80, payload + 10, &len1);
      g_assert_cmpuint (len0, ==, 10);
      g_assert_cmpuint (len1, ==, 10);
      g_assert_cmpuint (cs_audio_decoder_decode (decoder, payload, 20, out), ==, 160);
    }
  closeBcg729EncoderChannel (encoder);
  g_assert_cmpuint (out->len, ==, 8000);
  /* Skip the codec's start-up, then the tone is there. */
  g_assert_cmpfloat_with_epsilon (
      test_audio_peak_hz ((gint16 *) (gpointer) out->data + 2000, 4000, 1, 8000, 200, 3800), 700.0,
      5.0);
  g_assert_cmpfloat (test_audio_rms ((gint16 *) (gpointer) out->data + 2000, 4000, 1), >, 2000.0);
  /* Annex B SID frame: 80 samples of comfort noise; a length that is not G.729 gives nothing. */
  g_assert_cmpuint (cs_audio_decoder_decode (decoder, sid, sizeof sid, out), ==, 80);
  g_assert_cmpuint (cs_audio_decoder_decode (decoder, odd, sizeof odd, out), ==, 0);
  g_assert_cmpuint (out->len, ==, 8080);
}

static void
test_opus_round_trip (void)
{
  g_autoptr (CsAudioDecoder) decoder = cs_audio_decoder_new ("opus", 48000, 2, NULL);
  g_autoptr (GArray) out = g_array_new (FALSE, FALSE, sizeof (gint16));
  int err = 0;
  OpusEncoder *encoder = opus_encoder_create (48000, 1, OPUS_APPLICATION_VOIP, &err);
  gint16 pcm[48000];
  guint8 packet[1500];
  guint8 junk[3] = { 0x7b, 0x42, 0xff }; /* code-3 packet whose padding runs past its end */

  g_assert_cmpint (err, ==, OPUS_OK);
  g_assert_cmpuint (cs_audio_decoder_get_sample_rate (decoder), ==, 48000);
  test_audio_tone (pcm, G_N_ELEMENTS (pcm), 48000, 1000.0, 8000.0);
  for (guint f = 0; f < G_N_ELEMENTS (pcm) / 960; f++)
    {
      opus_int32 len = opus_encode (encoder, pcm + f * 960, 960, packet, sizeof packet);

      g_assert_cmpint (len, >, 0);
      g_assert_cmpuint (cs_audio_decoder_decode (decoder, packet, (gsize) len, out), ==, 960);
    }
  opus_encoder_destroy (encoder);
  g_assert_cmpuint (out->len, ==, 48000);
  g_assert_cmpfloat_with_epsilon (
      test_audio_peak_hz ((gint16 *) (gpointer) out->data + 9600, 9600, 1, 48000, 200, 5000),
      1000.0, 3.0);
  g_assert_cmpuint (cs_audio_decoder_decode (decoder, junk, sizeof junk, out), ==, 0);
  g_assert_cmpuint (out->len, ==, 48000);
}

static void
test_g722_round_trip (void)
{
  g_autoptr (CsAudioDecoder) decoder = cs_audio_decoder_new ("G722", 8000, 1, NULL);
  g_autoptr (GArray) out = g_array_new (FALSE, FALSE, sizeof (gint16));
  g722_encode_state_t *encoder = g722_encode_init (NULL, 64000, 0);
  gint16 pcm[16000];
  guint8 codes[8000];
  int n;

  /* 5 kHz: only a wideband codec carries it. */
  g_assert_cmpuint (cs_audio_decoder_get_sample_rate (decoder), ==, 16000);
  test_audio_tone (pcm, G_N_ELEMENTS (pcm), 16000, 5000.0, 8000.0);
  n = g722_encode (encoder, codes, pcm, G_N_ELEMENTS (pcm));
  g722_encode_free (encoder);
  g_assert_cmpint (n, ==, 8000);
  g_assert_cmpuint (cs_audio_decoder_decode (decoder, codes, sizeof codes, out), ==, 16000);
  g_assert_cmpfloat_with_epsilon (
      test_audio_peak_hz ((gint16 *) (gpointer) out->data + 4000, 4000, 1, 16000, 200, 7800),
      5000.0, 5.0);
}

static void
test_l16 (void)
{
  g_autoptr (CsAudioDecoder) mono = cs_audio_decoder_new ("L16", 16000, 1, NULL);
  g_autoptr (CsAudioDecoder) stereo = cs_audio_decoder_new ("l16", 44100, 2, NULL);
  g_autoptr (GArray) out = g_array_new (FALSE, FALSE, sizeof (gint16));
  const guint8 bytes[] = { 0x12, 0x34, 0xff, 0xfe, 0x80, 0x00, 0x7f, 0xff, 0x01 };

  g_assert_cmpuint (cs_audio_decoder_get_sample_rate (mono), ==, 16000);
  g_assert_cmpuint (cs_audio_decoder_decode (mono, bytes, sizeof bytes, out), ==, 4);
  g_assert_cmpint (g_array_index (out, gint16, 0), ==, 0x1234);
  g_assert_cmpint (g_array_index (out, gint16, 1), ==, -2);
  g_assert_cmpint (g_array_index (out, gint16, 2), ==, -32768);
  g_assert_cmpint (g_array_index (out, gint16, 3), ==, 32767);
  g_array_set_size (out, 0);
  /* Stereo frames are averaged: (0x1234 + −2) / 2 and (−32768 + 32767) / 2. */
  g_assert_cmpuint (cs_audio_decoder_decode (stereo, bytes, sizeof bytes, out), ==, 2);
  g_assert_cmpint (g_array_index (out, gint16, 0), ==, (0x1234 - 2) / 2);
  g_assert_cmpint (g_array_index (out, gint16, 1), ==, 0);
}

static void
test_unsupported (void)
{
  g_autoptr (GError) error = NULL;
  CsAudioDecoder *decoder = cs_audio_decoder_new ("iLBC", 8000, 1, &error);

  /* iLBC: known, but no decoder is packaged for Debian, and the message says so */
  g_assert_null (decoder);
  g_assert_error (error, CS_AUDIO_ERROR, CS_AUDIO_ERROR_UNSUPPORTED);
  g_assert_nonnull (strstr (error->message, "iLBC"));
  g_assert_false (cs_audio_encoding_is_supported ("iLBC"));
  g_clear_error (&error);
  decoder = cs_audio_decoder_new ("EVS", 16000, 1, &error);
  g_assert_null (decoder);
  g_assert_nonnull (strstr (error->message, "EVS"));
  g_assert_true (cs_audio_encoding_is_supported ("GSM"));
  g_assert_true (cs_audio_encoding_is_supported ("AAL2-G726-24"));
  g_assert_true (cs_audio_encoding_is_supported ("AMR-WB"));
  g_assert_false (cs_audio_encoding_is_supported ("telephone-event"));
  g_assert_true (cs_audio_encoding_is_supported ("G729A"));
  g_assert_true (cs_audio_encoding_is_supported ("OPUS"));
}

static void
test_hostile_payloads (void)
{
  const char *names[] = { "PCMU", "PCMA", "G722", "G729", "opus", "L16" };
  g_autoptr (GArray) out = g_array_new (FALSE, FALSE, sizeof (gint16));
  GRand *rand = g_rand_new_with_seed (7);
  guint8 payload[1500];

  for (guint d = 0; d < G_N_ELEMENTS (names); d++)
    {
      g_autoptr (CsAudioDecoder) decoder = cs_audio_decoder_new (names[d], 0, 2, NULL);

      for (guint i = 0; i < 300; i++)
        {
          gsize len = (gsize) g_rand_int_range (rand, 0, sizeof payload);

          for (gsize j = 0; j < len; j++)
            payload[j] = (guint8) g_rand_int (rand);
          g_array_set_size (out, 0);
          /* At most 8 samples per byte plus one SID frame (G.729), or 120 ms of Opus. */
          g_assert_cmpuint (cs_audio_decoder_decode (decoder, payload, len, out), <=,
                            MAX (len * 8 + 80, 5760));
          g_assert_cmpuint (out->len, <=, MAX (len * 8 + 80, 5760));
        }
    }
  g_rand_free (rand);
}

static void
test_resample_up_and_down (void)
{
  g_autoptr (GArray) tone = g_array_new (FALSE, FALSE, sizeof (gint16));
  g_autoptr (GArray) up = NULL;
  g_autoptr (GArray) down = NULL;
  g_autoptr (GArray) mix = g_array_new (FALSE, FALSE, sizeof (gint16));
  double in_rms, up_rms;

  g_array_set_size (tone, 8000);
  test_audio_tone ((gint16 *) (gpointer) tone->data, 8000, 8000, 1000.0, 10000.0);
  up = cs_audio_resample_array (tone, 1, 8000, 48000);
  g_assert_cmpuint (up->len, ==, 48000);
  g_assert_cmpfloat_with_epsilon (
      test_audio_peak_hz ((gint16 *) (gpointer) up->data + 9600, 9600, 1, 48000, 200, 20000),
      1000.0, 2.0);
  in_rms = test_audio_rms ((gint16 *) (gpointer) tone->data + 1600, 4800, 1);
  up_rms = test_audio_rms ((gint16 *) (gpointer) up->data + 9600, 28800, 1);
  g_assert_cmpfloat (fabs (up_rms / in_rms - 1.0), <, 0.02);

  /* 48 kHz → 8 kHz: 1 kHz stays, 6 kHz (above the new Nyquist) is filtered out. */
  g_array_set_size (mix, 48000);
  for (guint i = 0; i < 48000; i++)
    g_array_index (mix, gint16, i)
        = (gint16) lrint (6000.0 * sin (2 * G_PI * 1000.0 * i / 48000.0)
                          + 6000.0 * sin (2 * G_PI * 6000.0 * i / 48000.0));
  down = cs_audio_resample_array (mix, 1, 48000, 8000);
  g_assert_cmpuint (down->len, ==, 8000);
  g_assert_cmpfloat_with_epsilon (test_audio_rms ((gint16 *) (gpointer) down->data + 1600, 4800, 1),
                                  6000.0 / sqrt (2.0), 100.0);
  /* Stereo keeps channels apart. */
  {
    gint16 st[2 * 800];
    g_autoptr (GArray) in = g_array_new (FALSE, FALSE, sizeof (gint16));
    g_autoptr (GArray) conv = NULL;

    for (guint i = 0; i < 800; i++)
      {
        st[2 * i] = (gint16) lrint (8000.0 * sin (2 * G_PI * 440.0 * i / 8000.0));
        st[2 * i + 1] = 0;
      }
    g_array_append_vals (in, st, G_N_ELEMENTS (st));
    conv = cs_audio_resample_array (in, 2, 8000, 16000);
    g_assert_cmpuint (conv->len, ==, 2 * 1600);
    g_assert_cmpfloat (test_audio_rms ((gint16 *) (gpointer) conv->data + 1, 1600, 2), <, 1.0);
    g_assert_cmpfloat (test_audio_rms ((gint16 *) (gpointer) conv->data, 1600, 2), >, 5000.0);
  }
}

static void
test_ring_wraps (void)
{
  CsAudioRing *ring = cs_audio_ring_new (100);
  gint16 in[96], out[96];

  g_assert_cmpuint (cs_audio_ring_capacity (ring), ==, 128);
  for (guint round = 0; round < 10; round++)
    {
      for (guint i = 0; i < 96; i++)
        in[i] = (gint16) (round * 1000 + i);
      g_assert_cmpuint (cs_audio_ring_write (ring, in, 96), ==, 96);
      g_assert_cmpuint (cs_audio_ring_write (ring, in, 96), ==, 32); /* only 32 fit */
      g_assert_cmpuint (cs_audio_ring_read (ring, out, 96), ==, 96);
      for (guint i = 0; i < 96; i++)
        g_assert_cmpint (out[i], ==, in[i]);
      g_assert_cmpuint (cs_audio_ring_read (ring, out, 96), ==, 32);
      g_assert_cmpuint (cs_audio_ring_readable (ring), ==, 0);
    }
  cs_audio_ring_free (ring);
}

#define RING_TOTAL 2000000

static gpointer
ring_producer (gpointer data)
{
  CsAudioRing *ring = data;
  gint16 block[333];
  guint next = 0;

  while (next < RING_TOTAL)
    {
      gsize n = MIN ((gsize) G_N_ELEMENTS (block), (gsize) (RING_TOTAL - next));
      gsize put;

      for (gsize i = 0; i < n; i++)
        block[i] = (gint16) (next + i);
      put = cs_audio_ring_write (ring, block, n);
      next += (guint) put;
      if (put == 0)
        g_thread_yield ();
    }
  return NULL;
}

static void
test_ring_threads (void)
{
  CsAudioRing *ring = cs_audio_ring_new (4096);
  GThread *producer = g_thread_new ("producer", ring_producer, ring);
  gint16 block[257];
  guint expected = 0;

  /* Every sample arrives once, in order, across wraps and concurrent writes. */
  while (expected < RING_TOTAL)
    {
      gsize got = cs_audio_ring_read (ring, block, G_N_ELEMENTS (block));

      for (gsize i = 0; i < got; i++)
        g_assert_cmpint (block[i], ==, (gint16) (expected + i));
      expected += (guint) got;
      if (got == 0)
        g_thread_yield ();
    }
  g_thread_join (producer);
  cs_audio_ring_free (ring);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/audio/g711/reference-values", test_g711_reference_values);
  g_test_add_func ("/audio/g711/round-trip", test_g711_round_trip);
  g_test_add_func ("/audio/g711/decoder-tone", test_g711_decoder_tone);
  g_test_add_func ("/audio/g729/round-trip", test_g729_round_trip);
  g_test_add_func ("/audio/opus/round-trip", test_opus_round_trip);
  g_test_add_func ("/audio/g722/round-trip", test_g722_round_trip);
  g_test_add_func ("/audio/l16", test_l16);
  g_test_add_func ("/audio/unsupported", test_unsupported);
  g_test_add_func ("/audio/hostile-payloads", test_hostile_payloads);
  g_test_add_func ("/audio/resample", test_resample_up_and_down);
  g_test_add_func ("/audio/ring/wraps", test_ring_wraps);
  g_test_add_func ("/audio/ring/threads", test_ring_threads);
  return g_test_run ();
}
