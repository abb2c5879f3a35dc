/* test-golden-codecs.c — every codec callscope decodes, heard in the WAV callscope-cli exports:
 * the generator's codec scenarios (a tone encoded by the reference encoders) come back at the
 * tone's frequency, and the real GSM and G.726 samples decode to audio (the eight G.726
 * variants of one recording to the same waveform); iLBC says it has no decoder. */
#include "golden-common.h"

#include "../gen/gen-codecs.h"

#include <glib/gstdio.h>
#include <math.h>
#include <sndfile.h>
#include <string.h>

static char *work_dir;

/* How close the decoded tone must be (Hz): what the analysis resolves on a 2 s window, for
 * every codec here (none shifts a steady tone measurably). */
#define TONE_TOLERANCE_HZ 0.3

static gint16 *
read_wav (const char *path, guint *rate, gsize *n)
{
  SF_INFO info = { 0 };
  SNDFILE *f = sf_open (path, SFM_READ, &info);
  gint16 *samples;

  g_assert_nonnull (f);
  g_assert_cmpint (info.channels, ==, 1);
  samples = g_new (gint16, info.frames);
  *n = (gsize) sf_readf_short (f, samples, info.frames);
  *rate = (guint) info.samplerate;
  sf_close (f);
  return samples;
}

/* Hann-windowed DFT magnitude at f. */
static double
magnitude (const gint16 *x, gsize n, guint rate, double f)
{
  double re = 0, im = 0;

  for (gsize i = 0; i < n; i++)
    {
      double w = 0.5 - 0.5 * cos (2 * G_PI * (double) i / (double) (n - 1));

      re += w * x[i] * cos (2 * G_PI * f * (double) i / rate);
      im -= w * x[i] * sin (2 * G_PI * f * (double) i / rate);
    }
  return hypot (re, im);
}

/* The strongest frequency: a coarse scan on 100 ms (wide main lobe: nothing is missed), then
 * 0.01 Hz steps on the whole window around it. */
static double
peak_hz (const gint16 *x, gsize n, guint rate)
{
  gsize short_n = rate / 10;
  double best = -1, best_f = 0, lo, hi;

  for (double f = 100; f < rate / 2.0 - 100; f += 5)
    {
      double m = magnitude (x, short_n, rate, f);

      if (m > best)
        best = m, best_f = f;
    }
  lo = best_f - 15;
  hi = best_f + 15;
  best = -1;
  for (double f = lo; f <= hi; f += 0.5)
    {
      double m = magnitude (x, n, rate, f);

      if (m > best)
        best = m, best_f = f;
    }
  lo = best_f - 0.5;
  hi = best_f + 0.5;
  for (double f = lo; f <= hi; f += 0.01)
    {
      double m = magnitude (x, n, rate, f);

      if (m > best)
        best = m, best_f = f;
    }
  return best_f;
}

static char *
export_wav (const char *capture, const char *stream, const char *name, int *status, char **err)
{
  char *wav = g_strdup_printf ("%s/%s.wav", work_dir, name);
  const char *args[] = { "audio", capture, "--stream", stream, "-o", wav, NULL };

  g_free (golden_run_cli (args, status, err));
  return wav;
}

static void
test_codec_tone (gconstpointer data)
{
  const GenCodec *codec = data;
  g_autofree char *capture = g_strdup_printf ("%s/%s.pcapng", work_dir, codec->name);
  const char *gen_argv[] = { g_getenv ("CS_GEN"), "scenario", codec->name, "-o", capture, NULL };
  g_autofree char *err = NULL, *wav = NULL;
  g_autofree gint16 *x = NULL;
  int status;
  guint rate;
  gsize n;
  double f;

  g_assert_true (g_spawn_sync (NULL, (char **) gen_argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL,
                               NULL, NULL, NULL, &status, NULL));
  g_assert_cmpint (status, ==, 0);
  wav = export_wav (capture, "1", codec->name, &status, &err);
  g_assert_cmpint (status, ==, 0);
  x = read_wav (wav, &rate, &n);
  g_assert_cmpuint (rate, ==, codec->clock);
  g_assert_cmpuint (n, >=, 3 * rate - rate / 10);
  /* seconds 1..3 (the first has the decoder settling) */
  f = peak_hz (x + rate, 2 * rate, rate);
  g_test_message ("%s: tone %.2f Hz, decoded peak %.2f Hz", codec->name, codec->tone_hz, f);
  g_assert_cmpfloat_with_epsilon (f, codec->tone_hz, TONE_TOLERANCE_HZ);
}

static double
rms (const gint16 *x, gsize n)
{
  double s = 0;

  for (gsize i = 0; i < n; i++)
    s += (double) x[i] * x[i];
  return n > 0 ? sqrt (s / n) : 0;
}

/* Normalised correlation of two signals over n samples, at the best lag within ±4 samples
 * (the ADPCM rates delay differently by a sample or two). */
static double
similarity (const gint16 *a, const gint16 *b, gsize n)
{
  double best = -1;

  for (int lag = -4; lag <= 4; lag++)
    {
      double ab = 0, aa = 0, bb = 0;

      for (gsize i = 8; i + 8 < n; i++)
        {
          double x = a[i], y = b[(gssize) i + lag];

          ab += x * y;
          aa += x * x;
          bb += y * y;
        }
      best = MAX (best, ab / sqrt (aa * bb + 1));
    }
  return best;
}

static void
test_sample_g726 (void)
{
  g_autofree char *capture
      = g_build_filename (golden_samples_dir (), "sip-rtp-g726-8calls.pcap", NULL);
  g_autofree gint16 *reference = NULL;
  gsize ref_n = 0;
  guint rate;

  if (!g_file_test (capture, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("sample sip-rtp-g726-8calls.pcap missing");
      return;
    }
  /* stream 4 is G726-40, the finest; streams 1-4 RFC 3551 packing, 5-8 AAL2 packing */
  static const guint order[] = { 4, 1, 2, 3, 5, 6, 7, 8 };

  for (guint k = 0; k < G_N_ELEMENTS (order); k++)
    {
      guint s = order[k];
      g_autofree char *id = g_strdup_printf ("%u", s);
      g_autofree char *name = g_strdup_printf ("g726-sample-%u", s);
      g_autofree char *err = NULL;
      int status;
      g_autofree char *wav = export_wav (capture, id, name, &status, &err);
      gsize n;
      g_autofree gint16 *x = NULL;

      g_assert_cmpint (status, ==, 0);
      x = read_wav (wav, &rate, &n);
      g_assert_cmpuint (rate, ==, 8000);
      g_assert_cmpfloat (rms (x, n), >, 300.0);
      if (reference == NULL)
        {
          reference = g_steal_pointer (&x);
          ref_n = n;
          continue;
        }
      g_test_message ("G.726 stream %u vs G726-40: similarity %.3f", s,
                      similarity (reference, x, MIN (n, ref_n)));
      /* a wrong bit rate or packing decodes to noise (similarity near 0) */
      g_assert_cmpfloat (similarity (reference, x, MIN (n, ref_n)), >, 0.8);
    }
}

static void
test_sample_gsm (void)
{
  g_autofree char *capture = g_build_filename (golden_samples_dir (), "sip-rtp-gsm.pcap", NULL);
  g_autofree char *err = NULL, *wav = NULL;
  g_autofree gint16 *x = NULL;
  int status;
  guint rate;
  gsize n;

  if (!g_file_test (capture, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("sample sip-rtp-gsm.pcap missing");
      return;
    }
  wav = export_wav (capture, "1", "gsm-sample", &status, &err);
  g_assert_cmpint (status, ==, 0);
  x = read_wav (wav, &rate, &n);
  g_assert_cmpuint (rate, ==, 8000);
  /* 425 packets of 20 ms: 8.5 s of audio that is not silence */
  g_assert_cmpuint (n, ==, 68000);
  g_assert_cmpfloat (rms (x, n), >, 300.0);
}

static void
test_sample_ilbc (void)
{
  g_autofree char *capture = g_build_filename (golden_samples_dir (), "sip-rtp-ilbc.pcap", NULL);
  g_autofree char *err = NULL, *wav = NULL;
  int status;

  if (!g_file_test (capture, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("sample sip-rtp-ilbc.pcap missing");
      return;
    }
  wav = export_wav (capture, "1", "ilbc-sample", &status, &err);
  g_assert_cmpint (status, !=, 0);
  g_assert_nonnull (strstr (err, "No decoder for iLBC"));
  g_assert_false (g_file_test (wav, G_FILE_TEST_EXISTS));
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  guint n;
  const GenCodec *codecs = gen_codec_list (&n);
  int status;

  g_test_init (&argc, &argv, NULL);
  if (g_getenv ("CS_GEN") == NULL)
    {
      g_print ("1..0 # SKIP CS_GEN (the generator) is not set\n");
      return 0;
    }
  work_dir = g_dir_make_tmp ("callscope-codecs-XXXXXX", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *path = g_strdup_printf ("/golden/codecs/tone/%s", codecs[i].name);

      g_test_add_data_func (path, &codecs[i], test_codec_tone);
    }
  g_test_add_func ("/golden/codecs/sample/g726-8-variants", test_sample_g726);
  g_test_add_func ("/golden/codecs/sample/gsm", test_sample_gsm);
  g_test_add_func ("/golden/codecs/sample/ilbc-no-decoder", test_sample_ilbc);
  status = g_test_run ();
  golden_remove_dir (work_dir);
  return status;
}
