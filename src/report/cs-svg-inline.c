/* cs-svg-inline.c — cairo → SVG in memory → an <svg> element that can live inside HTML */
#include "cs-svg-inline.h"

#include <cairo-svg.h>
#include <string.h>

static cairo_status_t
cs_svg_append (void *closure, const unsigned char *data, unsigned int length)
{
  g_string_append_len (closure, (const char *) data, length);
  return CAIRO_STATUS_SUCCESS;
}

char *
cs_svg_inline_fixup (const char *svg, gsize len, const char *id_prefix)
{
  /* Cairo names its glyphs and clips the same way in every document: on one page the
   * first definition would win, so each drawing's ids get their own prefix. */
  static const char *const refs[] = { "id=\"", "href=\"#", "url(#" };
  GString *out = g_string_sized_new (len + len / 16);
  const char *p = svg, *end = svg + len;
  const char *root = g_strstr_len (svg, (gssize) len, "<svg");

  if (root != NULL)
    p = root; /* drop the <?xml …?> prolog */
  while (p < end)
    {
      gboolean matched = FALSE;

      if (*p == '<' && p + 4 <= end && memcmp (p, "<svg", 4) == 0 && p == root)
        {
          g_string_append (out, "<svg class=\"cs-figure\"");
          p += 4;
          continue;
        }
      for (guint i = 0; i < G_N_ELEMENTS (refs) && !matched; i++)
        {
          gsize n = strlen (refs[i]);

          if ((gsize) (end - p) >= n && memcmp (p, refs[i], n) == 0)
            {
              g_string_append_len (out, p, (gssize) n);
              g_string_append (out, id_prefix);
              p += n;
              matched = TRUE;
            }
        }
      if (!matched)
        g_string_append_c (out, *p++);
    }
  return g_string_free (out, FALSE);
}

char *
cs_svg_inline_render (double width, double height, const char *id_prefix, CsSvgPaintFunc paint,
                      gpointer user_data)
{
  g_autoptr (GString) text = g_string_new (NULL);
  cairo_surface_t *surface;
  cairo_t *cr;
  cairo_status_t status;

  surface = cairo_svg_surface_create_for_stream (cs_svg_append, text, width, height);
  cr = cairo_create (surface);
  paint (cr, user_data);
  status = cairo_status (cr);
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS || text->len == 0)
    return NULL;
  return cs_svg_inline_fixup (text->str, text->len, id_prefix);
}
