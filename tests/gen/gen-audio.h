/* gen-audio.h — test tones and a G.711 encoder for generated RTP */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  GEN_TONE_DUAL,     /* 440 Hz and 660 Hz, alternating every 500 ms */
  GEN_TONE_RINGBACK, /* 440 + 480 Hz, 1 s on, 0.5 s off */
  GEN_TONE_SWEEP,    /* 300 -> 3000 Hz over 4 s, repeating */
} GenTone;

/* n samples at 8 kHz starting at absolute sample position pos. */
void gen_tone_fill (GenTone tone, guint64 pos, gint16 *out, guint n);

guint8 gen_g711_ulaw_encode (gint16 pcm);
guint8 gen_g711_alaw_encode (gint16 pcm);

G_END_DECLS
