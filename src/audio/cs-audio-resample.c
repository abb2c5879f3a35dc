/* cs-audio-resample.c — windowed-sinc interpolation from a precomputed kernel
 * table: each output sample is a weighted sum of the input samples within
 * HALF_TAPS periods of the lower rate around its position. */
#include "cs-audio-resample.h"

#include <math.h>

#define HALF_TAPS 8     /* zero crossings of the sinc on each side */
#define TABLE_STEPS 512 /* kernel values per input sample period */
#define MAX_CHANNELS 8

struct _CsAudioResampler
{
  guint in_rate, out_rate;
  double step;      /* input frames per output frame */
  double cutoff;    /* of the input band: 1 when upsampling, out/in when downsampling */
  double half_span; /* kernel reach in input frames */
  float *kernel;    /* kernel at x = i / TABLE_STEPS input frames, i = 0..n_kernel-1 */
  gsize n_kernel;
};

static double
sinc (double x)
{
  return x == 0.0 ? 1.0 : sin (G_PI * x) / (G_PI * x);
}

CsAudioResampler *
cs_audio_resampler_new (guint in_rate, guint out_rate)
{
  CsAudioResampler *r = g_new0 (CsAudioResampler, 1);

  r->in_rate = MAX (in_rate, 1);
  r->out_rate = MAX (out_rate, 1);
  r->step = (double) r->in_rate / r->out_rate;
  r->cutoff = MIN (1.0, (double) r->out_rate / r->in_rate);
  r->half_span = HALF_TAPS / r->cutoff;
  r->n_kernel = (gsize) ceil (r->half_span * TABLE_STEPS) + 2;
  r->kernel = g_new (float, r->n_kernel);
  for (gsize i = 0; i < r->n_kernel; i++)
    {
      double x = (double) i / TABLE_STEPS;
      double w = x < r->half_span ? 0.5 + 0.5 * cos (G_PI * x / r->half_span) : 0.0; /* Hann */

      r->kernel[i] = (float) (r->cutoff * sinc (r->cutoff * x) * w);
    }
  return r;
}

void
cs_audio_resampler_free (CsAudioResampler *resampler)
{
  if (resampler == NULL)
    return;
  g_free (resampler->kernel);
  g_free (resampler);
}

gsize
cs_audio_resampler_output_frames (CsAudioResampler *resampler, gsize n_in)
{
  return (gsize) ((guint64) n_in * resampler->out_rate / resampler->in_rate);
}

static float
kernel_at (const CsAudioResampler *r, double distance)
{
  double pos = fabs (distance) * TABLE_STEPS;
  gsize i = (gsize) pos;
  double frac = pos - (double) i;

  if (i + 1 >= r->n_kernel)
    return 0.0f;
  return (float) (r->kernel[i] + frac * (r->kernel[i + 1] - r->kernel[i]));
}

void
cs_audio_resampler_process_float (CsAudioResampler *r, const gint16 *in, gsize n_in, guint channels,
                                  gsize first_out, float *out, gsize n_out)
{
  channels = CLAMP (channels, 1, MAX_CHANNELS);
  for (gsize j = 0; j < n_out; j++)
    {
      float *frame = out + j * channels;
      double pos = (double) (first_out + j) * r->step;
      gint64 lo, hi;
      float acc[MAX_CHANNELS] = { 0 };

      if (r->in_rate == r->out_rate)
        {
          gsize k = first_out + j;

          for (guint c = 0; c < channels; c++)
            frame[c] = k < n_in ? in[k * channels + c] / 32768.0f : 0.0f;
          continue;
        }
      lo = (gint64) ceil (pos - r->half_span);
      hi = (gint64) floor (pos + r->half_span);
      lo = MAX (lo, 0);
      hi = MIN (hi, (gint64) n_in - 1);
      for (gint64 k = lo; k <= hi; k++)
        {
          float w = kernel_at (r, pos - (double) k);

          for (guint c = 0; c < channels; c++)
            acc[c] += w * in[k * channels + c];
        }
      for (guint c = 0; c < channels; c++)
        frame[c] = acc[c] / 32768.0f;
    }
}

void
cs_audio_resampler_process (CsAudioResampler *r, const gint16 *in, gsize n_in, guint channels,
                            gsize first_out, gint16 *out, gsize n_out)
{
  enum
  {
    BLOCK = 1024
  };
  float block[BLOCK * MAX_CHANNELS];

  channels = CLAMP (channels, 1, MAX_CHANNELS);
  for (gsize done = 0; done < n_out; done += BLOCK)
    {
      gsize n = MIN ((gsize) BLOCK, n_out - done);

      cs_audio_resampler_process_float (r, in, n_in, channels, first_out + done, block, n);
      for (gsize i = 0; i < n * channels; i++)
        out[done * channels + i] = (gint16) CLAMP (lrintf (block[i] * 32768.0f), -32768, 32767);
    }
}

GArray *
cs_audio_resample_array (const GArray *in, guint channels, guint in_rate, guint out_rate)
{
  g_autoptr (CsAudioResampler) r = cs_audio_resampler_new (in_rate, out_rate);
  gsize n_in = in->len / MAX (channels, 1);
  gsize n_out = cs_audio_resampler_output_frames (r, n_in);
  GArray *out = g_array_sized_new (FALSE, TRUE, sizeof (gint16), (guint) (n_out * channels));

  g_array_set_size (out, (guint) (n_out * channels));
  cs_audio_resampler_process (r, (const gint16 *) (gconstpointer) in->data, n_in, channels, 0,
                              (gint16 *) (gpointer) out->data, n_out);
  return out;
}
