/* cs-ladder-render.c — paints a ladder layout with cairo, on screen and into PNG/SVG/PDF files */
#include "cs-ladder-render.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <gio/gio.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#include "cs-ladder-text.h"

/* Offsets inside a row, from its top */
#define LABEL_TOP 5.0
#define ARROW_Y CS_LADDER_ARROW_Y
#define DETAIL_TOP 28.0
#define ARROW_HEAD 8.0
#define LEG_STRIPE 4.0

static CsLadderColor
rgb (guint32 hex, double alpha)
{
  CsLadderColor c
      = { ((hex >> 16) & 0xff) / 255.0, ((hex >> 8) & 0xff) / 255.0, (hex & 0xff) / 255.0, alpha };
  return c;
}

void
cs_ladder_palette_init_light (CsLadderPalette *p)
{
  /* GNOME palette, darkened where it is text on white. */
  static const guint32 legs[CS_LADDER_N_LEG_COLORS]
      = { 0x1c71d8, 0x9141ac, 0xc64600, 0x26a269, 0xa51d2d, 0x865e3c };

  p->background = rgb (0xffffff, 1);
  p->foreground = rgb (0x241f31, 1);
  p->secondary = rgb (0x5e5c64, 1);
  p->lifeline = rgb (0xc0bfbc, 1);
  p->header_background = rgb (0xf6f5f4, 1);
  p->selection = rgb (0x3584e4, 0.18);
  p->request = rgb (0x1a5fb4, 1);
  p->provisional = rgb (0x5e5c64, 1);
  p->success = rgb (0x26a269, 1);
  p->redirect = rgb (0x613583, 1);
  p->client_error = rgb (0xc64600, 1);
  p->server_error = rgb (0xc01c28, 1);
  p->good = rgb (0x2ec27e, 1);
  p->degraded = rgb (0xe5a50a, 1);
  p->bad = rgb (0xe01b24, 1);
  p->unknown = rgb (0x9a9996, 1);
  for (guint i = 0; i < CS_LADDER_N_LEG_COLORS; i++)
    p->legs[i] = rgb (legs[i], 1);
}

void
cs_ladder_palette_init_dark (CsLadderPalette *p)
{
  static const guint32 legs[CS_LADDER_N_LEG_COLORS]
      = { 0x62a0ea, 0xc061cb, 0xff7800, 0x57e389, 0xf66151, 0xcdab8f };

  cs_ladder_palette_init_light (p);
  p->background = rgb (0x1e1e1e, 1);
  p->foreground = rgb (0xffffff, 1);
  p->secondary = rgb (0xc0bfbc, 1);
  p->lifeline = rgb (0x5e5c64, 1);
  p->header_background = rgb (0x303030, 1);
  p->selection = rgb (0x3584e4, 0.35);
  p->request = rgb (0x99c1f1, 1);
  p->provisional = rgb (0xc0bfbc, 1);
  p->success = rgb (0x8ff0a4, 1);
  p->redirect = rgb (0xdc8add, 1);
  p->client_error = rgb (0xffa348, 1);
  p->server_error = rgb (0xff7b63, 1);
  for (guint i = 0; i < CS_LADDER_N_LEG_COLORS; i++)
    p->legs[i] = rgb (legs[i], 1);
}

const CsLadderColor *
cs_ladder_palette_row_color (const CsLadderPalette *p, const CsLadderLayout *layout,
                             const CsLadderRow *row)
{
  if (row->kind == CS_LADDER_ROW_STREAM)
    switch (row->quality)
      {
      case CS_LADDER_QUALITY_GOOD:
        return &p->good;
      case CS_LADDER_QUALITY_DEGRADED:
        return &p->degraded;
      case CS_LADDER_QUALITY_BAD:
        return &p->bad;
      default:
        return &p->unknown;
      }
  if (row->is_request)
    return layout->calls->len > 1 ? &p->legs[row->leg % CS_LADDER_N_LEG_COLORS] : &p->request;
  if (row->status < 200)
    return &p->provisional;
  if (row->status < 300)
    return &p->success;
  if (row->status < 400)
    return &p->redirect;
  if (row->status < 500)
    return &p->client_error;
  return &p->server_error;
}

static void
set_color (cairo_t *cr, const CsLadderColor *c)
{
  cairo_set_source_rgba (cr, c->red, c->green, c->blue, c->alpha);
}

static void
set_color_alpha (cairo_t *cr, const CsLadderColor *c, double alpha)
{
  cairo_set_source_rgba (cr, c->red, c->green, c->blue, c->alpha * alpha);
}

/* Text */

typedef enum
{
  ALIGN_LEFT,
  ALIGN_CENTER,
  ALIGN_RIGHT,
} Align;

typedef struct
{
  PangoLayout *layout;
  PangoFontDescription *regular, *bold, *small;
} Text;

static void
text_init (Text *t, cairo_t *cr)
{
  PangoAttrList *attrs = pango_attr_list_new ();

  t->layout = pango_cairo_create_layout (cr);
  pango_cairo_context_set_resolution (pango_layout_get_context (t->layout), 96.0);
  pango_layout_context_changed (t->layout);
  /* Tabular figures keep times and counts aligned digit under digit. */
  pango_attr_list_insert (attrs, pango_attr_font_features_new ("tnum=1"));
  pango_layout_set_attributes (t->layout, attrs);
  pango_attr_list_unref (attrs);
  t->regular = pango_font_description_from_string (CS_LADDER_FONT);
  pango_font_description_set_size (t->regular, (int) (CS_LADDER_FONT_SIZE * PANGO_SCALE));
  t->bold = pango_font_description_copy (t->regular);
  pango_font_description_set_weight (t->bold, PANGO_WEIGHT_BOLD);
  t->small = pango_font_description_copy (t->regular);
  pango_font_description_set_size (t->small, (int) ((CS_LADDER_FONT_SIZE - 1) * PANGO_SCALE));
}

static void
text_clear (Text *t)
{
  g_clear_object (&t->layout);
  pango_font_description_free (t->regular);
  pango_font_description_free (t->bold);
  pango_font_description_free (t->small);
}

/* Draws text with its top at y; max_width > 0 ellipsizes. Returns the drawn width. */
static double
draw_text (cairo_t *cr, Text *t, const PangoFontDescription *font, const char *text, double x,
           double y, double max_width, Align align, const CsLadderColor *color,
           const CsLadderColor *backdrop)
{
  int w = 0, h = 0;
  double left;

  if (text == NULL || *text == '\0')
    return 0;
  pango_layout_set_font_description (t->layout, font);
  pango_layout_set_text (t->layout, text, -1);
  pango_layout_set_ellipsize (t->layout,
                              max_width > 0 ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);
  pango_layout_set_width (t->layout, max_width > 0 ? (int) (max_width * PANGO_SCALE) : -1);
  pango_layout_get_pixel_size (t->layout, &w, &h);
  left = align == ALIGN_LEFT ? x : align == ALIGN_CENTER ? x - w / 2.0 : x - w;
  if (backdrop != NULL)
    {
      set_color_alpha (cr, backdrop, 0.88);
      cairo_rectangle (cr, left - 3, y, w + 6, h);
      cairo_fill (cr);
    }
  set_color (cr, color);
  cairo_move_to (cr, left, y);
  pango_cairo_show_layout (cr, t->layout);
  return w;
}

/* Header */

void
cs_ladder_paint_header (const CsLadderLayout *layout, const CsLadderPalette *p, cairo_t *cr)
{
  Text t;

  cairo_save (cr);
  text_init (&t, cr);
  set_color (cr, &p->header_background);
  cairo_rectangle (cr, 0, 0, layout->width, CS_LADDER_HEADER_HEIGHT);
  cairo_fill (cr);
  set_color (cr, &p->lifeline);
  cairo_rectangle (cr, 0, CS_LADDER_HEADER_HEIGHT - 1, layout->width, 1);
  cairo_fill (cr);
  draw_text (cr, &t, t.bold, "Time", 10, 10, 0, ALIGN_LEFT, &p->secondary, NULL);
  /* Several legs: one colour swatch each, under "Time". */
  for (guint leg = 0; layout->calls->len > 1 && leg < layout->calls->len && leg < 12; leg++)
    {
      set_color (cr, &p->legs[leg % CS_LADDER_N_LEG_COLORS]);
      cairo_rectangle (cr, 10 + leg * 12, 32, 9, 9);
      cairo_fill (cr);
    }
  for (guint i = 0; i < layout->columns->len; i++)
    {
      const CsLadderColumn *c = &g_array_index (layout->columns, CsLadderColumn, i);
      double room = CS_LADDER_MIN_GAP - 12;

      if (i + 1 < layout->columns->len)
        room = g_array_index (layout->columns, CsLadderColumn, i + 1).x - c->x - 12;
      if (i > 0)
        room = MIN (room, c->x - g_array_index (layout->columns, CsLadderColumn, i - 1).x - 12);
      draw_text (cr, &t, t.bold, c->title, c->x, 9, room, ALIGN_CENTER, &p->foreground, NULL);
      draw_text (cr, &t, t.regular,
                 c->subtitle != NULL ? c->subtitle : (c->endpoint.port == 0 ? "media" : ""), c->x,
                 28, room, ALIGN_CENTER, &p->secondary, NULL);
    }
  text_clear (&t);
  cairo_restore (cr);
}

/* Rows */

static void
arrow_head (cairo_t *cr, double x, double y, int direction, double size)
{
  cairo_move_to (cr, x, y);
  cairo_line_to (cr, x - direction * size, y - size / 2);
  cairo_line_to (cr, x - direction * size, y + size / 2);
  cairo_close_path (cr);
  cairo_fill (cr);
}

static double
column_x (const CsLadderLayout *layout, guint col)
{
  return g_array_index (layout->columns, CsLadderColumn, col).x;
}

static void
paint_lanes (const CsLadderLayout *layout, const CsLadderPalette *p, cairo_t *cr, double y0,
             double y1)
{
  for (guint i = 0; i < layout->lanes->len; i++)
    {
      const CsLadderLane *lane = &g_array_index (layout->lanes, CsLadderLane, i);
      double left, right;
      double top = MAX (lane->y_start, y0), bottom = MIN (lane->y_end, y1);
      const CsLadderRow *row = &g_array_index (layout->rows, CsLadderRow, lane->row);

      if (bottom <= top)
        continue;
      cs_ladder_layout_lane_span (layout, lane, &left, &right);
      set_color_alpha (cr, cs_ladder_palette_row_color (p, layout, row), 0.55);
      cairo_rectangle (cr, left, top, right - left, bottom - top);
      cairo_fill (cr);
    }
}

static void
paint_message_arrow (const CsLadderLayout *layout, const CsLadderRow *r, cairo_t *cr,
                     const CsLadderColor *color)
{
  double x1 = column_x (layout, r->from_col), x2 = column_x (layout, r->to_col);
  double y = r->y + ARROW_Y;
  static const double dashed[] = { 6, 3 };
  static const double dotted[] = { 2, 3 };

  set_color (cr, color);
  cairo_set_line_width (cr, r->kind == CS_LADDER_ROW_STREAM ? 5.0 : 1.5);
  if (r->retransmission)
    cairo_set_dash (cr, dotted, 2, 0);
  else if (r->kind == CS_LADDER_ROW_MESSAGE && !r->is_request)
    cairo_set_dash (cr, dashed, 2, 0);
  if (r->from_col == r->to_col)
    {
      /* A message to itself: a small loop to the right. */
      cairo_move_to (cr, x1, y - 8);
      cairo_line_to (cr, x1 + 28, y - 8);
      cairo_line_to (cr, x1 + 28, y + 2);
      cairo_line_to (cr, x1 + ARROW_HEAD, y + 2);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      arrow_head (cr, x1, y + 2, -1, ARROW_HEAD);
      return;
    }
  {
    int direction = x2 > x1 ? 1 : -1;
    double head = r->kind == CS_LADDER_ROW_STREAM ? ARROW_HEAD + 4 : ARROW_HEAD;

    cairo_move_to (cr, x1, y);
    cairo_line_to (cr, x2 - direction * head, y);
    cairo_stroke (cr);
    cairo_set_dash (cr, NULL, 0, 0);
    arrow_head (cr, x2, y, direction, head);
  }
}

static void
paint_row (const CsLadderLayout *layout, const CsLadderPalette *p, cairo_t *cr, Text *t, guint i,
           CsLadderTimeMode mode, gboolean selected)
{
  const CsLadderRow *r = &g_array_index (layout->rows, CsLadderRow, i);
  const CsLadderColor *color = cs_ladder_palette_row_color (p, layout, r);
  double x1 = column_x (layout, r->from_col), x2 = column_x (layout, r->to_col);
  double mid = r->from_col == r->to_col ? x1 + 34 : (x1 + x2) / 2;
  Align align = r->from_col == r->to_col ? ALIGN_LEFT : ALIGN_CENTER;
  double room = r->from_col == r->to_col ? CS_LADDER_MIN_GAP - 40 : fabs (x2 - x1) - 24;
  g_autofree char *time = cs_ladder_layout_format_time (layout, i, mode);
  g_autofree char *label = NULL;
  CsLadderColor backdrop;

  if (selected)
    {
      set_color (cr, &p->selection);
      cairo_rectangle (cr, 0, r->y, layout->width, r->height);
      cairo_fill (cr);
    }
  if (layout->calls->len > 1)
    {
      set_color (cr, &p->legs[r->leg % CS_LADDER_N_LEG_COLORS]);
      cairo_rectangle (cr, 0, r->y + 2, LEG_STRIPE, r->height - 4);
      cairo_fill (cr);
    }
  draw_text (cr, t, t->regular, time, CS_LADDER_TIME_WIDTH - 12, r->y + ARROW_Y - 8,
             CS_LADDER_TIME_WIDTH - 16, ALIGN_RIGHT, &p->secondary, NULL);
  paint_message_arrow (layout, r, cr, color);
  /* Labels sit on an opaque patch of the row's own colour so lifelines do not cross them. */
  backdrop = p->background;
  if (selected)
    {
      double a = p->selection.alpha;
      backdrop.red = backdrop.red * (1 - a) + p->selection.red * a;
      backdrop.green = backdrop.green * (1 - a) + p->selection.green * a;
      backdrop.blue = backdrop.blue * (1 - a) + p->selection.blue * a;
    }
  label = r->retransmission ? g_strdup_printf ("%s ↻", r->label)
          : r->sighting     ? g_strdup_printf ("%s (seen again)", r->label)
                            : g_strdup (r->label);
  draw_text (cr, t, r->is_request || r->kind == CS_LADDER_ROW_STREAM ? t->bold : t->regular, label,
             mid, r->y + LABEL_TOP, room, align, color, &backdrop);
  if (r->detail != NULL)
    draw_text (cr, t, t->small, r->detail, mid, r->y + DETAIL_TOP, room, align, &p->secondary,
               &backdrop);
}

void
cs_ladder_paint_rows (const CsLadderLayout *layout, const CsLadderPalette *p, cairo_t *cr,
                      guint first_row, guint end_row, CsLadderTimeMode mode, int selected_row)
{
  double y0, y1;
  Text t;

  end_row = MIN (end_row, layout->rows->len);
  if (first_row >= end_row)
    return;
  y0 = g_array_index (layout->rows, CsLadderRow, first_row).y;
  y1 = g_array_index (layout->rows, CsLadderRow, end_row - 1).y
       + g_array_index (layout->rows, CsLadderRow, end_row - 1).height;
  cairo_save (cr);
  text_init (&t, cr);
  set_color (cr, &p->background);
  cairo_rectangle (cr, 0, y0, layout->width, y1 - y0);
  cairo_fill (cr);
  /* Lifelines, then the lanes beside them, then the arrows on top. */
  set_color (cr, &p->lifeline);
  for (guint c = 0; c < layout->columns->len; c++)
    {
      cairo_rectangle (cr, round (column_x (layout, c)) - 0.5, y0, 1, y1 - y0);
      cairo_fill (cr);
    }
  paint_lanes (layout, p, cr, y0, y1);
  for (guint i = first_row; i < end_row; i++)
    paint_row (layout, p, cr, &t, i, mode, (int) i == selected_row);
  text_clear (&t);
  cairo_restore (cr);
}

/* Files */

gboolean
cs_ladder_format_from_path (const char *path, CsLadderFormat *format)
{
  const char *dot = path != NULL ? strrchr (path, '.') : NULL;

  if (dot == NULL)
    return FALSE;
  if (g_ascii_strcasecmp (dot, ".png") == 0)
    *format = CS_LADDER_FORMAT_PNG;
  else if (g_ascii_strcasecmp (dot, ".svg") == 0)
    *format = CS_LADDER_FORMAT_SVG;
  else if (g_ascii_strcasecmp (dot, ".pdf") == 0)
    *format = CS_LADDER_FORMAT_PDF;
  else if (g_ascii_strcasecmp (dot, ".txt") == 0)
    *format = CS_LADDER_FORMAT_TEXT;
  else
    return FALSE;
  return TRUE;
}

static double
pdf_scale (const CsLadderLayout *layout)
{
  return MIN (1.0, (CS_LADDER_PDF_PAGE_WIDTH - 2 * CS_LADDER_PDF_MARGIN) / MAX (layout->width, 1));
}

/* Rows that fit on a page, in layout units (the header repeats on every page). */
static double
pdf_rows_room (const CsLadderLayout *layout)
{
  return (CS_LADDER_PDF_PAGE_HEIGHT - 2 * CS_LADDER_PDF_MARGIN - 14) / pdf_scale (layout)
         - CS_LADDER_HEADER_HEIGHT;
}

/* First row of the next page after the page starting at `first`. */
static guint
pdf_page_end (const CsLadderLayout *layout, guint first)
{
  double room = pdf_rows_room (layout);
  double top = g_array_index (layout->rows, CsLadderRow, first).y;
  guint end = first;

  while (end < layout->rows->len)
    {
      const CsLadderRow *r = &g_array_index (layout->rows, CsLadderRow, end);
      if (r->y + r->height - top > room && end > first)
        break;
      end++;
    }
  return end;
}

guint
cs_ladder_pdf_page_count (const CsLadderLayout *layout)
{
  guint pages = 0;

  for (guint first = 0; first < layout->rows->len; first = pdf_page_end (layout, first))
    pages++;
  return MAX (pages, 1);
}

static void
paint_note (cairo_t *cr, const CsLadderPalette *p, const char *note, double x, double y,
            Align align)
{
  Text t;

  text_init (&t, cr);
  draw_text (cr, &t, t.small, note, x, y, 0, align, &p->secondary, NULL);
  text_clear (&t);
}

static void
paint_empty_note (const CsLadderLayout *layout, const CsLadderPalette *p, cairo_t *cr)
{
  if (layout->rows->len == 0)
    paint_note (cr, p, "No messages", CS_LADDER_TIME_WIDTH, CS_LADDER_HEADER_HEIGHT + 12,
                ALIGN_LEFT);
}

static void
paint_pdf (const CsLadderLayout *layout, const CsLadderPalette *p, CsLadderTimeMode mode,
           cairo_surface_t *surface)
{
  cairo_t *cr = cairo_create (surface);
  double scale = pdf_scale (layout);
  guint pages = cs_ladder_pdf_page_count (layout);
  guint page = 0;
  guint first = 0;

  do
    {
      guint end = layout->rows->len > 0 ? pdf_page_end (layout, first) : 0;
      double top = end > first ? g_array_index (layout->rows, CsLadderRow, first).y : 0;
      g_autofree char *footer = g_strdup_printf ("Page %u of %u", ++page, pages);

      cairo_save (cr);
      cairo_translate (cr, CS_LADDER_PDF_MARGIN, CS_LADDER_PDF_MARGIN);
      cairo_scale (cr, scale, scale);
      cs_ladder_paint_header (layout, p, cr);
      paint_empty_note (layout, p, cr);
      cairo_rectangle (cr, 0, CS_LADDER_HEADER_HEIGHT, layout->width, pdf_rows_room (layout));
      cairo_clip (cr);
      cairo_translate (cr, 0, CS_LADDER_HEADER_HEIGHT - top);
      cs_ladder_paint_rows (layout, p, cr, first, end, mode, -1);
      cairo_restore (cr);
      paint_note (cr, p, footer, CS_LADDER_PDF_PAGE_WIDTH - CS_LADDER_PDF_MARGIN,
                  CS_LADDER_PDF_PAGE_HEIGHT - CS_LADDER_PDF_MARGIN - 10, ALIGN_RIGHT);
      cairo_show_page (cr);
      first = end;
    }
  while (first < layout->rows->len);
  cairo_destroy (cr);
}

static double
full_height (const CsLadderLayout *layout)
{
  return CS_LADDER_HEADER_HEIGHT + MAX (layout->rows_height, 40) + 12;
}

/* The whole ladder (or its first max_height px) at the surface's origin. */
static void
paint_all (const CsLadderLayout *layout, const CsLadderPalette *p, cairo_t *cr,
           CsLadderTimeMode mode, double max_height)
{
  guint end = max_height >= full_height (layout)
                  ? layout->rows->len
                  : cs_ladder_layout_row_at (layout, max_height - CS_LADDER_HEADER_HEIGHT - 24);

  set_color (cr, &p->background);
  cairo_paint (cr);
  cs_ladder_paint_header (layout, p, cr);
  paint_empty_note (layout, p, cr);
  cairo_save (cr);
  cairo_translate (cr, 0, CS_LADDER_HEADER_HEIGHT);
  cs_ladder_paint_rows (layout, p, cr, 0, end, mode, -1);
  cairo_restore (cr);
  if (end < layout->rows->len)
    {
      g_autofree char *note
          = g_strdup_printf ("… %u more rows not shown: export as PDF or SVG for the whole ladder",
                             layout->rows->len - end);
      paint_note (cr, p, note, CS_LADDER_TIME_WIDTH, max_height - 18, ALIGN_LEFT);
    }
}

static gboolean
surface_error (cairo_surface_t *surface, const char *path, GError **error)
{
  cairo_status_t status = cairo_surface_status (surface);

  if (status == CAIRO_STATUS_SUCCESS)
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot write %s: %s", path,
               cairo_status_to_string (status));
  return FALSE;
}

gboolean
cs_ladder_export (const CsLadderLayout *layout, CsLadderTimeMode mode, const char *path,
                  CsLadderFormat format, GError **error)
{
  CsLadderPalette palette;
  cairo_surface_t *surface = NULL;
  gboolean ok;

  cs_ladder_palette_init_light (&palette);
  switch (format)
    {
    case CS_LADDER_FORMAT_TEXT:
      {
        g_autofree char *text = cs_ladder_text_render (layout, mode);
        return g_file_set_contents (path, text, -1, error);
      }
    case CS_LADDER_FORMAT_PNG:
      {
        double height = MIN (full_height (layout), CS_LADDER_PNG_MAX_HEIGHT);
        cairo_t *cr;
        cairo_status_t status;

        surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) ceil (layout->width),
                                              (int) ceil (height));
        if (!surface_error (surface, path, error))
          break;
        cr = cairo_create (surface);
        paint_all (layout, &palette, cr, mode, height);
        cairo_destroy (cr);
        status = cairo_surface_write_to_png (surface, path);
        cairo_surface_destroy (surface);
        if (status != CAIRO_STATUS_SUCCESS)
          {
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot write %s: %s", path,
                         cairo_status_to_string (status));
            return FALSE;
          }
        return TRUE;
      }
    case CS_LADDER_FORMAT_SVG:
      {
        double height = full_height (layout);
        cairo_t *cr;

        surface = cairo_svg_surface_create (path, layout->width, height);
        if (!surface_error (surface, path, error))
          break;
        cr = cairo_create (surface);
        paint_all (layout, &palette, cr, mode, G_MAXDOUBLE);
        cairo_destroy (cr);
        break;
      }
    case CS_LADDER_FORMAT_PDF:
      surface
          = cairo_pdf_surface_create (path, CS_LADDER_PDF_PAGE_WIDTH, CS_LADDER_PDF_PAGE_HEIGHT);
      if (!surface_error (surface, path, error))
        break;
      cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "callscope");
      paint_pdf (layout, &palette, mode, surface);
      break;
    default:
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "unknown ladder format");
      return FALSE;
    }
  if (surface == NULL)
    return FALSE;
  cairo_surface_finish (surface);
  ok = surface_error (surface, path, error);
  cairo_surface_destroy (surface);
  return ok;
}
