/* cs-graph-render.c — paints a CsGraph with cairo: the same code for the window and for files */
#include "cs-graph-render.h"

#include "cs-graph-legend.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <gio/gio.h>
#include <math.h>
#include <string.h>

#define MARGIN_LEFT 56.0
#define MARGIN_RIGHT 16.0
#define MARGIN_TOP 30.0
#define MARGIN_BOTTOM 26.0
#define MARKER_SIZE 5.0
#define HEADER_ROW_HEIGHT 16.0
#define TITLE_LEGEND_GAP 24.0
#define VALUE_UNIT_X 11.0 /* centre of the turned unit label */

static void
set_color (cairo_t *cr, const CsGraphColor *c)
{
  cairo_set_source_rgba (cr, c->r, c->g, c->b, c->a);
}

static void
set_color_alpha (cairo_t *cr, const CsGraphColor *c, double alpha)
{
  cairo_set_source_rgba (cr, c->r, c->g, c->b, c->a * alpha);
}

/* A marker's solid triangle standing on base at x, size wide on each side. */
static void
fill_axis_triangle (cairo_t *cr, double x, double base, double size)
{
  cairo_move_to (cr, x, base - size * 1.6);
  cairo_line_to (cr, x - size, base);
  cairo_line_to (cr, x + size, base);
  cairo_close_path (cr);
  cairo_fill (cr);
}

static CsGraphColor
rgb (guint32 hex)
{
  CsGraphColor c
      = { ((hex >> 16) & 0xff) / 255.0, ((hex >> 8) & 0xff) / 255.0, (hex & 0xff) / 255.0, 1.0 };
  return c;
}

void
cs_graph_palette_init_light (CsGraphPalette *palette)
{
  memset (palette, 0, sizeof *palette);
  /* GNOME palette: blue and orange tell the two directions apart, also for
   * colour-blind readers; red/amber/green are the status colours. */
  palette->background = rgb (0xffffff);
  palette->text = rgb (0x241f31);
  palette->grid = rgb (0xdeddda);
  palette->axis = rgb (0x9a9996);
  palette->series[0] = rgb (0x1c71d8);
  palette->series[1] = rgb (0xe66100);
  palette->series[2] = rgb (0x813d9c);
  palette->series[3] = rgb (0x26a269);
  palette->loss = rgb (0xc01c28);
  palette->seq_error = rgb (0xe5a50a);
  palette->finding = rgb (0xc01c28);
  palette->cursor = rgb (0x5e5c64);
  palette->marker_bit = rgb (0x3d3846);
  palette->dtmf = rgb (0x9141ac);
  palette->good = rgb (0x2ec27e);
  palette->degraded = rgb (0xf5c211);
  palette->bad = rgb (0xe01b24);
  g_strlcpy (palette->font_family, "Sans", sizeof palette->font_family);
  palette->font_size = 11.0;
}

void
cs_graph_render_options_init (CsGraphRenderOptions *options, const CsGraph *graph, double width,
                              double height)
{
  memset (options, 0, sizeof *options);
  options->width = width;
  options->height = height;
  cs_graph_get_extent (graph, &options->viewport);
  options->cursor_t = NAN;
  options->legend = TRUE;
}

void
cs_graph_render_plot_area (double width, double height, CsGraphRect *out)
{
  cs_graph_render_plot_area_rows (width, height, 1, out);
}

void
cs_graph_render_plot_area_rows (double width, double height, guint header_rows, CsGraphRect *out)
{
  double top = MARGIN_TOP + (MAX (header_rows, 1u) - 1) * HEADER_ROW_HEIGHT;

  out->x = MARGIN_LEFT;
  out->y = top;
  out->width = MAX (width - MARGIN_LEFT - MARGIN_RIGHT, 1.0);
  out->height = MAX (height - top - MARGIN_BOTTOM, 1.0);
}

static double
plot_x (const CsGraphRect *area, double x01)
{
  return area->x + x01 * area->width;
}

static double
plot_y (const CsGraphRect *area, double y01)
{
  return area->y + (1.0 - y01) * area->height;
}

/* Decimals enough to tell ticks `step` apart. */
static int
decimals_for_step (double step)
{
  if (step >= 1.0)
    return 0;
  return MIN ((int) ceil (-log10 (step) - 1e-9), 6);
}

static void
show_text (cairo_t *cr, double x, double y, const char *text, double align_x, double align_y)
{
  cairo_text_extents_t ext;
  g_autofree char *owned = NULL;

  text = cs_text_inert (text, &owned);
  cairo_text_extents (cr, text, &ext);
  cairo_move_to (cr, x - ext.x_advance * align_x - ext.x_bearing * (1 - align_x),
                 y - ext.y_bearing - ext.height * align_y);
  cairo_show_text (cr, text);
}

static void
draw_mos_bands (cairo_t *cr, const CsGraphRect *area, const CsGraphViewport *vp,
                const CsGraphPalette *palette)
{
  /* G.107 user-satisfaction classes: >= 4.03 satisfied, 3.6..4.03 some
   * dissatisfied, below 3.6 many dissatisfied. */
  const struct
  {
    double lo, hi;
    const CsGraphColor *color;
  } bands[] = { { 4.03, 4.5, &palette->good },
                { 3.6, 4.03, &palette->degraded },
                { 1.0, 3.6, &palette->bad } };

  for (guint i = 0; i < G_N_ELEMENTS (bands); i++)
    {
      double y0 = plot_y (area, CLAMP (cs_graph_viewport_y (vp, bands[i].hi), 0, 1));
      double y1 = plot_y (area, CLAMP (cs_graph_viewport_y (vp, bands[i].lo), 0, 1));

      set_color_alpha (cr, bands[i].color, 0.10);
      cairo_rectangle (cr, area->x, y0, area->width, y1 - y0);
      cairo_fill (cr);
    }
}

static void
draw_axes (cairo_t *cr, const CsGraph *graph, const CsGraphRect *area, const CsGraphViewport *vp,
           const CsGraphPalette *palette)
{
  double y_step = cs_graph_nice_step (vp->v1 - vp->v0, MAX ((guint) (area->height / 32), 2));
  double x_step = cs_graph_nice_step (vp->t1 - vp->t0, MAX ((guint) (area->width / 90), 2));
  int y_decimals = decimals_for_step (y_step);
  int x_decimals = decimals_for_step (x_step);
  char text[64];

  cairo_set_line_width (cr, 1.0);
  for (double v = ceil (vp->v0 / y_step - 1e-9) * y_step; v <= vp->v1 + y_step * 1e-6; v += y_step)
    {
      double y = round (plot_y (area, cs_graph_viewport_y (vp, v))) + 0.5;

      set_color (cr, &palette->grid);
      cairo_move_to (cr, area->x, y);
      cairo_line_to (cr, area->x + area->width, y);
      cairo_stroke (cr);
      set_color (cr, &palette->text);
      g_snprintf (text, sizeof text, "%.*f", y_decimals, fabs (v) < y_step * 1e-6 ? 0.0 : v);
      show_text (cr, area->x - 6, y, text, 1.0, 0.5);
    }
  for (double t = ceil (vp->t0 / x_step - 1e-9) * x_step; t <= vp->t1 + x_step * 1e-6; t += x_step)
    {
      double x = round (plot_x (area, cs_graph_viewport_x (vp, t))) + 0.5;

      set_color (cr, &palette->grid);
      cairo_move_to (cr, x, area->y);
      cairo_line_to (cr, x, area->y + area->height);
      cairo_stroke (cr);
      set_color (cr, &palette->text);
      g_snprintf (text, sizeof text, "%.*f s", x_decimals, fabs (t) < x_step * 1e-6 ? 0.0 : t);
      show_text (cr, x, area->y + area->height + 5, text, 0.5, 0.0);
    }
  set_color (cr, &palette->axis);
  cairo_rectangle (cr, area->x + 0.5, area->y + 0.5, area->width - 1, area->height - 1);
  cairo_stroke (cr);
  (void) graph;
}

/* Does scaled point i follow a pause longer than gap_s (no line across it)? */
static gboolean
starts_after_gap (const CsGraphSeries *series, const GArray *scaled, guint i, double gap_s)
{
  guint a = g_array_index (scaled, CsGraphScaledPoint, i - 1).index;
  guint b = g_array_index (scaled, CsGraphScaledPoint, i).index;

  if (gap_s <= 0 || a >= series->points->len || b >= series->points->len)
    return FALSE;
  return g_array_index (series->points, CsGraphPoint, b).t_s
             - g_array_index (series->points, CsGraphPoint, a).t_s
         > gap_s;
}

static void
draw_series_line (cairo_t *cr, const CsGraphSeries *series, const GArray *scaled,
                  const CsGraphRect *area, const CsGraphViewport *vp)
{
  double step01 = series->step_s / (vp->t1 - vp->t0);
  double gap_s = cs_graph_series_gap_s (series);

  for (guint i = 0; i < scaled->len; i++)
    {
      const CsGraphScaledPoint *p = &g_array_index (scaled, CsGraphScaledPoint, i);
      double x = plot_x (area, p->x), y = plot_y (area, p->y);

      if (step01 > 0)
        {
          /* A window's value holds over the window; gaps between windows stay open. */
          double x_end = plot_x (area, p->x + step01);
          gboolean joined
              = i > 0 && g_array_index (scaled, CsGraphScaledPoint, i - 1).index + 1 == p->index
                && fabs (g_array_index (scaled, CsGraphScaledPoint, i - 1).x + step01 - p->x)
                       < step01 * 0.01;
          if (joined)
            cairo_line_to (cr, x, y);
          else
            cairo_move_to (cr, x, y);
          cairo_line_to (cr, x_end, y);
        }
      else if (i == 0 || starts_after_gap (series, scaled, i, gap_s))
        cairo_move_to (cr, x, y);
      else
        cairo_line_to (cr, x, y);
    }
  cairo_stroke (cr);
}

/* Marker bit: a ring under the plot's top edge; DTMF: a dashed line through the plot and the
 * digit in a box at the top. */
static void
draw_event_marker (cairo_t *cr, const CsGraphMarker *m, double x, const CsGraphRect *area,
                   const CsGraphPalette *palette)
{
  if (m->kind == CS_GRAPH_MARKER_DTMF)
    {
      const double dash[] = { 3.0, 3.0 };

      cairo_save (cr);
      set_color_alpha (cr, &palette->dtmf, 0.6);
      cairo_set_dash (cr, dash, 2, 0);
      cairo_move_to (cr, x, area->y);
      cairo_line_to (cr, x, area->y + area->height);
      cairo_stroke (cr);
      cairo_restore (cr);
      cs_graph_marker_symbol (cr, m->kind, x, area->y + 1 + MARKER_SIZE + 1, palette, m->digit);
    }
  else
    cs_graph_marker_symbol (cr, m->kind, x, area->y + 2 * MARKER_SIZE + 8, palette, 0);
}

static void
draw_markers (cairo_t *cr, const CsGraphSeries *series, const CsGraphRect *area,
              const CsGraphViewport *vp, const CsGraphPalette *palette, guint series_index)
{
  double bottom = area->y + area->height;

  for (guint i = 0; i < series->markers->len; i++)
    {
      const CsGraphMarker *m = &g_array_index (series->markers, CsGraphMarker, i);
      double x01 = cs_graph_viewport_x (vp, m->t_s);
      double x;

      if (x01 < 0 || x01 > 1)
        continue;
      x = round (plot_x (area, x01)) + 0.5;
      switch (m->kind)
        {
        case CS_GRAPH_MARKER_LOSS:
          /* A faint line through the plot, a solid triangle on the time axis;
           * the second direction's triangles sit one row higher. */
          set_color_alpha (cr, &palette->loss, 0.35);
          cairo_move_to (cr, x, area->y);
          cairo_line_to (cr, x, bottom);
          cairo_stroke (cr);
          set_color (cr, &palette->loss);
          fill_axis_triangle (cr, x, bottom - 1 - series_index % 2 * (MARKER_SIZE + 2),
                              MARKER_SIZE + MIN (m->count, 5u) * 0.6);
          break;
        case CS_GRAPH_MARKER_SEQ_ERROR:
          set_color (cr, &palette->seq_error);
          fill_axis_triangle (cr, x, bottom - 1 - series_index % 2 * (MARKER_SIZE + 2),
                              MARKER_SIZE);
          break;
        case CS_GRAPH_MARKER_MARKER_BIT:
        case CS_GRAPH_MARKER_DTMF:
          draw_event_marker (cr, m, x, area, palette);
          break;
        case CS_GRAPH_MARKER_FINDING:
        default:
          set_color (cr, &palette->finding);
          cairo_move_to (cr, x, area->y + 1);
          cairo_line_to (cr, x + MARKER_SIZE, area->y + 1 + MARKER_SIZE);
          cairo_line_to (cr, x, area->y + 1 + 2 * MARKER_SIZE);
          cairo_line_to (cr, x - MARKER_SIZE, area->y + 1 + MARKER_SIZE);
          cairo_close_path (cr);
          cairo_fill (cr);
          break;
        }
    }
}

static char *
graph_title (const CsGraph *graph, const CsGraphRenderOptions *options)
{
  static const char *const names[CS_GRAPH_N_KINDS]
      = { "Jitter", "Delta", "Skew", "MOS (5 s windows)", "Bitrate" };
  CsGraphKind kind = MIN (graph->kind, CS_GRAPH_N_KINDS - 1);

  if (options->title != NULL)
    return g_strdup (options->title);
  if (kind == CS_GRAPH_KIND_MOS)
    return g_strdup (names[kind]);
  return g_strdup_printf ("%s (%s)", names[kind], cs_graph_kind_unit (kind));
}

/* The legend's items laid out after the title (NULL without a legend); returns the rows the
 * header takes. Leaves cr's font normal at the palette's size. */
static guint
layout_header (cairo_t *cr, const CsGraph *graph, const CsGraphRenderOptions *options,
               const CsGraphPalette *palette, const char *title, GArray **items_out)
{
  cairo_text_extents_t ext;
  g_autofree char *owned = NULL;
  GArray *items;
  guint rows;

  cairo_set_font_size (cr, palette->font_size);
  cairo_select_font_face (cr, palette->font_family, CAIRO_FONT_SLANT_NORMAL,
                          CAIRO_FONT_WEIGHT_BOLD);
  cairo_text_extents (cr, cs_text_inert (title, &owned), &ext);
  cairo_select_font_face (cr, palette->font_family, CAIRO_FONT_SLANT_NORMAL,
                          CAIRO_FONT_WEIGHT_NORMAL);
  *items_out = NULL;
  if (!options->legend)
    return 1;
  items = cs_graph_legend_items (graph);
  rows = cs_graph_legend_layout (cr, items, MARGIN_LEFT + ext.x_advance + TITLE_LEGEND_GAP,
                                 MARGIN_LEFT, options->width - MARGIN_RIGHT, MARGIN_TOP / 2,
                                 HEADER_ROW_HEIGHT);
  *items_out = items;
  return rows;
}

guint
cs_graph_render_header_rows (cairo_t *cr, const CsGraph *graph, const CsGraphRenderOptions *options,
                             const CsGraphPalette *palette, GArray **legend_out)
{
  g_autofree char *title = graph_title (graph, options);
  g_autoptr (GArray) items = NULL;
  guint rows;

  cairo_save (cr);
  rows = layout_header (cr, graph, options, palette, title, &items);
  cairo_restore (cr);
  if (legend_out != NULL)
    *legend_out = g_steal_pointer (&items);
  return rows;
}

/* Title top left, the legend after it (flowing onto more rows when it does not fit);
 * returns the rows used. */
static guint
draw_title_and_legend (cairo_t *cr, const CsGraph *graph, const CsGraphRenderOptions *options,
                       const CsGraphPalette *palette)
{
  g_autofree char *title = graph_title (graph, options);
  g_autoptr (GArray) items = NULL;
  guint rows = layout_header (cr, graph, options, palette, title, &items);

  cairo_select_font_face (cr, palette->font_family, CAIRO_FONT_SLANT_NORMAL,
                          CAIRO_FONT_WEIGHT_BOLD);
  set_color (cr, &palette->text);
  show_text (cr, MARGIN_LEFT, MARGIN_TOP / 2, title, 0.0, 0.5);
  cairo_select_font_face (cr, palette->font_family, CAIRO_FONT_SLANT_NORMAL,
                          CAIRO_FONT_WEIGHT_NORMAL);
  if (items != NULL)
    cs_graph_legend_draw (cr, items, palette);
  return rows;
}

/* The value axis' unit ("ms", "MOS", "kbit/s"), turned up along the axis left of its tick
 * labels, centred on the plot's height. */
static void
draw_value_unit (cairo_t *cr, const CsGraph *graph, const CsGraphRect *area,
                 const CsGraphPalette *palette)
{
  cairo_save (cr);
  cairo_translate (cr, VALUE_UNIT_X, area->y + area->height / 2);
  cairo_rotate (cr, -G_PI / 2);
  set_color (cr, &palette->text);
  show_text (cr, 0, 0, cs_graph_kind_unit (graph->kind), 0.5, 0.5);
  cairo_restore (cr);
}

void
cs_graph_render (cairo_t *cr, const CsGraph *graph, const CsGraphRenderOptions *options,
                 const CsGraphPalette *palette)
{
  const CsGraphViewport *vp = &options->viewport;
  guint columns, header_rows;
  CsGraphRect area;

  g_return_if_fail (cr != NULL && graph != NULL && options != NULL && palette != NULL);

  cairo_save (cr);
  set_color (cr, &palette->background);
  cairo_paint (cr);
  cairo_select_font_face (cr, palette->font_family, CAIRO_FONT_SLANT_NORMAL,
                          CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, palette->font_size);
  header_rows = draw_title_and_legend (cr, graph, options, palette);
  cs_graph_render_plot_area_rows (options->width, options->height, header_rows, &area);
  columns = (guint) MAX (area.width, 1);
  if (graph->kind == CS_GRAPH_KIND_MOS)
    draw_mos_bands (cr, &area, vp, palette);
  draw_axes (cr, graph, &area, vp, palette);
  draw_value_unit (cr, graph, &area, palette);

  cairo_save (cr);
  cairo_rectangle (cr, area.x, area.y, area.width, area.height);
  cairo_clip (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  for (guint s = 0; s < graph->series->len; s++)
    {
      const CsGraphSeries *series = g_ptr_array_index (graph->series, s);
      g_autoptr (GArray) own = NULL;
      const GArray *scaled;

      if (options->scaled != NULL && s < options->scaled->len)
        scaled = g_ptr_array_index (options->scaled, s);
      else
        scaled = own = cs_graph_series_scale (series, vp, columns);

      cairo_set_line_width (cr, series->step_s > 0 ? 2.0 : 1.25);
      set_color (cr, &palette->series[s % CS_GRAPH_N_SERIES_COLORS]);
      draw_series_line (cr, series, scaled, &area, vp);
    }
  cairo_set_line_width (cr, 1.0);
  for (guint s = 0; s < graph->series->len; s++)
    draw_markers (cr, g_ptr_array_index (graph->series, s), &area, vp, palette, s);
  if (!isnan (options->cursor_t))
    {
      double x01 = cs_graph_viewport_x (vp, options->cursor_t);

      if (x01 >= 0 && x01 <= 1)
        {
          double x = round (plot_x (&area, x01)) + 0.5;
          set_color (cr, &palette->cursor);
          cairo_set_line_width (cr, 1.5);
          cairo_move_to (cr, x, area.y);
          cairo_line_to (cr, x, area.y + area.height);
          cairo_stroke (cr);
        }
    }
  if (options->has_hover && options->hover_series < graph->series->len)
    {
      const CsGraphSeries *series = g_ptr_array_index (graph->series, options->hover_series);

      if (options->hover_point < series->points->len)
        {
          const CsGraphPoint *p
              = &g_array_index (series->points, CsGraphPoint, options->hover_point);
          double x = plot_x (&area, cs_graph_viewport_x (vp, p->t_s + series->step_s / 2));
          double y = plot_y (&area, cs_graph_viewport_y (vp, p->value));

          set_color (cr, &palette->background);
          cairo_arc (cr, x, y, 4.5, 0, 2 * G_PI);
          cairo_fill_preserve (cr);
          set_color (cr, &palette->series[options->hover_series % CS_GRAPH_N_SERIES_COLORS]);
          cairo_set_line_width (cr, 2.0);
          cairo_stroke (cr);
        }
    }
  cairo_restore (cr);
  cairo_restore (cr);
}

static gboolean
check_surface (cairo_surface_t *surface, const char *path, GError **error)
{
  cairo_status_t status = cairo_surface_status (surface);

  if (status == CAIRO_STATUS_SUCCESS)
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot write %s: %s", path,
               cairo_status_to_string (status));
  return FALSE;
}

gboolean
cs_graph_render_to_file (const CsGraph *graph, const CsGraphRenderOptions *options,
                         const CsGraphPalette *palette, const char *path, GError **error)
{
  CsGraphPalette light;
  cairo_surface_t *surface;
  cairo_t *cr;
  gboolean is_png = g_str_has_suffix (path, ".png");
  gboolean ok;

  if (palette == NULL)
    {
      cs_graph_palette_init_light (&light);
      palette = &light;
    }
  if (is_png)
    surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) ceil (options->width),
                                          (int) ceil (options->height));
  else if (g_str_has_suffix (path, ".svg"))
    surface = cairo_svg_surface_create (path, options->width, options->height);
  else if (g_str_has_suffix (path, ".pdf"))
    surface = cairo_pdf_surface_create (path, options->width, options->height);
  else
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%s: unknown graph format (use .png, .svg or .pdf)", path);
      return FALSE;
    }
  if (!check_surface (surface, path, error))
    {
      cairo_surface_destroy (surface);
      return FALSE;
    }
  cr = cairo_create (surface);
  cs_graph_render (cr, graph, options, palette);
  cairo_destroy (cr);
  if (is_png)
    {
      cairo_status_t status = cairo_surface_write_to_png (surface, path);
      if (status != CAIRO_STATUS_SUCCESS)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot write %s: %s", path,
                       cairo_status_to_string (status));
          cairo_surface_destroy (surface);
          return FALSE;
        }
    }
  cairo_surface_finish (surface);
  ok = check_surface (surface, path, error);
  cairo_surface_destroy (surface);
  return ok;
}
