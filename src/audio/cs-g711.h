/* cs-g711.h — ITU-T G.711 µ-law and A-law expansion by table */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gint16 cs_g711_ulaw_to_linear (guint8 code);
gint16 cs_g711_alaw_to_linear (guint8 code);

/* Expands n codes into out (n samples). */
void cs_g711_ulaw_decode (const guint8 *codes, gsize n, gint16 *out);
void cs_g711_alaw_decode (const guint8 *codes, gsize n, gint16 *out);

G_END_DECLS
