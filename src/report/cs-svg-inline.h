/* cs-svg-inline.h — cairo drawings as <svg> elements to paste into an HTML page */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

typedef void (*CsSvgPaintFunc) (cairo_t *cr, gpointer user_data);

/* Paints into an in-memory SVG surface of width × height (pt = CSS px) and returns the
 * <svg> element for inline HTML: no XML prolog, class="cs-figure", every id (glyphs,
 * clips, patterns) prefixed with id_prefix so that several drawings can share one page. */
char *cs_svg_inline_render (double width, double height, const char *id_prefix,
                            CsSvgPaintFunc paint, gpointer user_data);

/* The rewriting cs_svg_inline_render applies to cairo's SVG text (exposed for tests). */
char *cs_svg_inline_fixup (const char *svg, gsize len, const char *id_prefix);

G_END_DECLS
