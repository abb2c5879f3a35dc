/* test-audio-common.h — signal measurements shared by the audio tests */
#pragma once

#include <glib.h>
#include <math.h>

/* Magnitude of the DFT of a Hann-windowed signal at frequency f. */
static inline double
test_audio_magnitude (const gint16 *samples, gsize n, gsize stride, guint rate, double f)
{
  double re = 0.0, im = 0.0;

  for (gsize i = 0; i < n; i++)
    {
      double w = 0.5 - 0.5 * cos (2.0 * G_PI * (double) i / (double) (n - 1));
      double phase = 2.0 * G_PI * f * (double) i / rate;

      re += w * samples[i * stride] * cos (phase);
      im -= w * samples[i * stride] * sin (phase);
    }
  return sqrt (re * re + im * im);
}

/* Frequency of the strongest component between lo and hi: a 10 Hz scan, then 1 Hz around it. */
static inline double
test_audio_peak_hz (const gint16 *samples, gsize n, gsize stride, guint rate, double lo, double hi)
{
  double best_f = lo, best = -1.0, coarse;

  for (double f = lo; f <= hi; f += 10.0)
    {
      double m = test_audio_magnitude (samples, n, stride, rate, f);

      if (m > best)
        {
          best = m;
          best_f = f;
        }
    }
  coarse = best_f;
  for (double f = coarse - 10.0; f <= coarse + 10.0; f += 1.0)
    {
      double m = test_audio_magnitude (samples, n, stride, rate, f);

      if (m > best)
        {
          best = m;
          best_f = f;
        }
    }
  return best_f;
}

static inline double
test_audio_rms (const gint16 *samples, gsize n, gsize stride)
{
  double sum = 0.0;

  for (gsize i = 0; i < n; i++)
    sum += (double) samples[i * stride] * samples[i * stride];
  return n > 0 ? sqrt (sum / n) : 0.0;
}

static inline void
test_audio_tone (gint16 *out, gsize n, guint rate, double f, double amplitude)
{
  for (gsize i = 0; i < n; i++)
    out[i] = (gint16) lrint (amplitude * sin (2.0 * G_PI * f * (double) i / rate));
}
