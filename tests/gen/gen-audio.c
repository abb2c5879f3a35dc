/* gen-audio.c — test tones and a G.711 encoder for generated RTP */
#include "gen-audio.h"

#include <math.h>

#define RATE 8000.0
#define AMPLITUDE 8000.0
#define TWO_PI 6.283185307179586

void
gen_tone_fill (GenTone tone, guint64 pos, gint16 *out, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      double t = (double) (pos + i) / RATE;
      double v = 0.0;

      switch (tone)
        {
        case GEN_TONE_DUAL:
          v = sin (TWO_PI * (fmod (t, 1.0) < 0.5 ? 440.0 : 660.0) * t);
          break;
        case GEN_TONE_RINGBACK:
          if (fmod (t, 1.5) < 1.0)
            v = 0.5 * (sin (TWO_PI * 440.0 * t) + sin (TWO_PI * 480.0 * t));
          break;
        case GEN_TONE_SWEEP:
          {
            double period = 4.0, f0 = 300.0, f1 = 3000.0;
            double u = fmod (t, period);
            v = sin (TWO_PI * (f0 * u + (f1 - f0) * u * u / (2.0 * period)));
          }
          break;
        }
      out[i] = (gint16) lround (v * AMPLITUDE);
    }
}

/* Segment of a magnitude: the position of its highest set bit above the
 * first-segment range (G.711's piecewise-linear companding). */
static int
segment_of (int magnitude, int first_segment_limit)
{
  int seg = 0;

  for (int limit = first_segment_limit; seg < 8 && magnitude > limit; limit = limit * 2 + 1)
    seg++;
  return seg;
}

guint8
gen_g711_ulaw_encode (gint16 pcm)
{
  int value = pcm;
  int sign = 0;
  int seg, mantissa;

  if (value < 0)
    {
      value = -value;
      sign = 0x80;
    }
  if (value > 32635)
    value = 32635;
  value += 0x84; /* bias: makes the segment boundaries powers of two */
  seg = segment_of (value, 0xFF);
  if (seg > 7)
    seg = 7;
  mantissa = (value >> (seg + 3)) & 0x0F;
  return (guint8) ~(sign | (seg << 4) | mantissa);
}

guint8
gen_g711_alaw_encode (gint16 pcm)
{
  int value = pcm >> 3; /* A-law works on 13 bits */
  int mask, seg, aval;

  if (value >= 0)
    mask = 0xD5;
  else
    {
      mask = 0x55;
      value = -value - 1;
    }
  seg = segment_of (value, 0x1F);
  if (seg >= 8)
    return (guint8) (0x7F ^ mask);
  aval = seg << 4;
  aval |= seg < 2 ? (value >> 1) & 0x0F : (value >> seg) & 0x0F;
  return (guint8) (aval ^ mask);
}
