/* cs-hex-view.h — a hex dump of frame bytes, 16 per line, with one range highlighted */
#pragma once

#include <gtk/gtk.h>

#include "callscope-engine.h" /* cs_hex_format */

G_BEGIN_DECLS

#define CS_TYPE_HEX_VIEW (cs_hex_view_get_type ())
G_DECLARE_FINAL_TYPE (CsHexView, cs_hex_view, CS, HEX_VIEW, GtkWidget)

/* Signal "byte-clicked" (guint index): a click on a byte's hex digits or its character. */

GtkWidget *cs_hex_view_new (void);
/* Copies nothing: formats the bytes now. highlight_len 0 highlights nothing. */
void cs_hex_view_set_data (CsHexView *self, const guint8 *data, gsize len, gsize highlight_start,
                           gsize highlight_len);
/* The text shown: "0000  47 45 54 20 …  GET …" lines. */
char *cs_hex_view_dup_text (CsHexView *self);

G_END_DECLS
