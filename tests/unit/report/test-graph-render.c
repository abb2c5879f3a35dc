/* test-graph-render.c — golden renders: where the renderer puts lines, markers, cursor; files */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "cs-graph-legend.h"
#include "cs-graph-render.h"

#define WIDTH 600
#define HEIGHT 240

/* Flat jitter of 10 ms for 10 s with one loss marker at 4 s, second stream at 30 ms. */
static CsGraph *
make_graph (void)
{
  CsGraph *graph = cs_graph_new (CS_GRAPH_KIND_JITTER, 0);

  for (guint s = 0; s < 2; s++)
    {
      CsGraphSeries *series = cs_graph_add_packets (graph, s + 1, s == 0 ? "a → b" : "b → a", NULL,
                                                    0, NULL, NULL, NULL);
      for (guint i = 0; i <= 500; i++)
        {
          CsGraphPoint p = { i * 0.02, s == 0 ? 10.0 : 30.0, 100 + i * 2 + s };
          g_array_append_val (series->points, p);
        }
      if (s == 0)
        {
          CsGraphMarker m = { 4.0, 300, 3, CS_GRAPH_MARKER_LOSS };
          g_array_append_val (series->markers, m);
        }
    }
  return graph;
}

static void
pixel_at (cairo_surface_t *surface, int x, int y, double rgb[3])
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);
  guint32 px = *(const guint32 *) (data + (gsize) y * stride + (gsize) x * 4);

  rgb[0] = ((px >> 16) & 0xff) / 255.0;
  rgb[1] = ((px >> 8) & 0xff) / 255.0;
  rgb[2] = (px & 0xff) / 255.0;
}

static double
color_distance (const double rgb[3], const CsGraphColor *c)
{
  return fabs (rgb[0] - c->r) + fabs (rgb[1] - c->g) + fabs (rgb[2] - c->b);
}

static CsGraphPalette light;

/* Is the pixel c drawn over the background, possibly anti-aliased? Then every
 * channel that differs enough gives the same coverage a in p = a·c + (1 − a)·bg. */
static gboolean
is_blend_of (const double p[3], const CsGraphColor *c, const CsGraphColor *bg)
{
  const double cc[3] = { c->r, c->g, c->b }, bb[3] = { bg->r, bg->g, bg->b };
  double lo = 2, hi = -1;
  guint used = 0;

  for (guint k = 0; k < 3; k++)
    {
      double a;

      if (fabs (bb[k] - cc[k]) < 0.3)
        continue;
      a = (bb[k] - p[k]) / (bb[k] - cc[k]);
      lo = MIN (lo, a);
      hi = MAX (hi, a);
      used++;
    }
  return used > 0 && lo >= 0.35 && hi <= 1.05 && hi - lo < 0.15;
}

/* Is there a pixel of colour c (anti-aliased or not) within ±radius px of (x, y)? */
static gboolean
color_near (cairo_surface_t *surface, double x, double y, int radius, const CsGraphColor *c)
{
  for (int dy = -radius; dy <= radius; dy++)
    for (int dx = -radius; dx <= radius; dx++)
      {
        double rgb[3];
        int px = (int) round (x) + dx, py = (int) round (y) + dy;

        if (px < 0 || py < 0 || px >= WIDTH || py >= HEIGHT)
          continue;
        pixel_at (surface, px, py, rgb);
        if (is_blend_of (rgb, c, &light.background))
          return TRUE;
      }
  return FALSE;
}

static void
test_render_positions (void)
{
  g_autoptr (CsGraph) graph = make_graph ();
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);
  CsGraphRenderOptions options;
  CsGraphPalette palette;
  CsGraphRect area;
  double y10, y30, x4, x7, rgb[3];
  g_autofree char *png = g_build_filename (g_get_tmp_dir (), "cs-test-graph-render.png", NULL);

  cs_graph_palette_init_light (&palette);
  cs_graph_render_options_init (&options, graph, WIDTH, HEIGHT);
  options.cursor_t = 7.0;
  g_assert_cmpfloat (options.viewport.v1, ==, 40.0); /* 30 × 1.05 rounded up */
  cs_graph_render (cr, graph, &options, &palette);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  g_assert_cmpint (cairo_surface_write_to_png (surface, png), ==, CAIRO_STATUS_SUCCESS);
  g_test_message ("rendered %s", png);

  cs_graph_render_plot_area (WIDTH, HEIGHT, &area);
  y10 = area.y + (1 - 10.0 / 40.0) * area.height;
  y30 = area.y + (1 - 30.0 / 40.0) * area.height;
  x4 = area.x + 4.0 / 10.0 * area.width;
  x7 = area.x + 7.0 / 10.0 * area.width;

  /* Series lines at their values, each in its colour (sampled away from grid and marker). */
  g_assert_true (color_near (surface, area.x + 0.23 * area.width, y10, 1, &palette.series[0]));
  g_assert_true (color_near (surface, area.x + 0.23 * area.width, y30, 1, &palette.series[1]));
  g_assert_false (color_near (surface, area.x + 0.23 * area.width, y10, 1, &palette.series[1]));
  /* Loss marker: solid triangle on the time axis at 4 s. */
  g_assert_true (color_near (surface, x4, area.y + area.height - 4, 1, &palette.loss));
  g_assert_false (color_near (surface, x4 - 40, area.y + area.height - 4, 2, &palette.loss));
  /* Cursor at 7 s. */
  g_assert_true (color_near (surface, x7, area.y + area.height * 0.5, 1, &palette.cursor));
  /* Background between lines stays background. */
  pixel_at (surface, (int) (area.x + 0.23 * area.width), (int) ((3 * y10 + y30) / 4), rgb);
  g_assert_cmpfloat (color_distance (rgb, &palette.background), <, 0.05);
  /* Outside the plot, left of the axis labels, is background too. */
  pixel_at (surface, 2, HEIGHT / 2, rgb);
  g_assert_cmpfloat (color_distance (rgb, &palette.background), <, 0.05);
  cairo_surface_destroy (surface);
  if (g_getenv ("CS_KEEP_RENDERS") == NULL)
    g_unlink (png);
}

/* Zoomed to 3..5 s the marker moves to the middle; points outside are not drawn. */
static void
test_render_zoomed (void)
{
  g_autoptr (CsGraph) graph = make_graph ();
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);
  CsGraphRenderOptions options;
  CsGraphPalette palette;
  CsGraphRect area;

  cs_graph_palette_init_light (&palette);
  cs_graph_render_options_init (&options, graph, WIDTH, HEIGHT);
  options.viewport.t0 = 3.0;
  options.viewport.t1 = 5.0;
  options.has_hover = TRUE;
  options.hover_series = 0;
  options.hover_point = 150; /* 3.0 s: the left edge */
  cs_graph_render (cr, graph, &options, &palette);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  cs_graph_render_plot_area (WIDTH, HEIGHT, &area);
  g_assert_true (
      color_near (surface, area.x + area.width / 2, area.y + area.height - 4, 1, &palette.loss));
  g_assert_false (
      color_near (surface, area.x + area.width * 0.2, area.y + area.height - 4, 1, &palette.loss));
  cairo_surface_destroy (surface);
}

static void
check_file_starts_with (const char *path, const char *magic, gsize magic_len)
{
  g_autofree char *contents = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  g_assert_cmpuint (len, >, 1000);
  g_assert_cmpmem (contents, magic_len, magic, magic_len);
}

static void
test_render_files (void)
{
  g_autoptr (CsGraph) graph = make_graph ();
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("cs-graph-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "g.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "g.svg", NULL);
  g_autofree char *pdf = g_build_filename (dir, "g.pdf", NULL);
  g_autofree char *bad = g_build_filename (dir, "g.gif", NULL);
  CsGraphRenderOptions options;

  cs_graph_render_options_init (&options, graph, WIDTH, HEIGHT);
  g_assert_true (cs_graph_render_to_file (graph, &options, NULL, png, &error));
  g_assert_no_error (error);
  g_assert_true (cs_graph_render_to_file (graph, &options, NULL, svg, &error));
  g_assert_true (cs_graph_render_to_file (graph, &options, NULL, pdf, &error));
  check_file_starts_with (png, "\x89PNG", 4);
  check_file_starts_with (svg, "<?xml", 5);
  check_file_starts_with (pdf, "%PDF", 4);
  g_assert_false (cs_graph_render_to_file (graph, &options, NULL, bad, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_assert_false (g_file_test (bad, G_FILE_TEST_EXISTS));
  /* The PNG has the requested size. */
  {
    cairo_surface_t *image = cairo_image_surface_create_from_png (png);
    g_assert_cmpint (cairo_image_surface_get_width (image), ==, WIDTH);
    g_assert_cmpint (cairo_image_surface_get_height (image), ==, HEIGHT);
    cairo_surface_destroy (image);
  }
  g_unlink (png);
  g_unlink (svg);
  g_unlink (pdf);
  g_rmdir (dir);
}

/* An empty graph still draws axes and a title (no division by zero). */
static void
test_render_empty (void)
{
  g_autoptr (CsGraph) graph = cs_graph_new (CS_GRAPH_KIND_MOS, 0);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);
  CsGraphRenderOptions options;
  CsGraphPalette palette;
  CsGraphRect area;

  cs_graph_palette_init_light (&palette);
  cs_graph_render_options_init (&options, graph, WIDTH, HEIGHT);
  g_assert_cmpfloat (options.viewport.t1 - options.viewport.t0, ==, 1.0);
  cs_graph_render (cr, graph, &options, &palette);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  cs_graph_render_plot_area (WIDTH, HEIGHT, &area);
  /* The MOS "good" band tints the top of the plot. */
  {
    double rgb[3];
    pixel_at (surface, (int) (area.x + area.width / 3), (int) (area.y + 8), rgb);
    g_assert_cmpfloat (color_distance (rgb, &palette.background), >, 0.01);
    g_assert_cmpfloat (rgb[1], >, rgb[0]); /* greenish */
  }
  cairo_surface_destroy (surface);
}

/* A stream that pauses: 20 ms packets 0..2 s, silence, 20 ms packets 6..7.98 s (x axis 0..8 s
 * by hand: the pause is 4 s, far over 8 × the mean spacing). Drawn as two pieces, no ramp
 * across the pause. */
static void
test_render_gap (void)
{
  g_autoptr (CsGraph) graph = cs_graph_new (CS_GRAPH_KIND_JITTER, 0);
  CsGraphSeries *series = cs_graph_add_packets (graph, 1, "a → b", NULL, 0, NULL, NULL, NULL);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);
  CsGraphRenderOptions options;
  CsGraphPalette palette;
  CsGraphRect area;
  double y;

  for (guint i = 0; i <= 200; i++)
    {
      CsGraphPoint p = { i < 101 ? i * 0.02 : 6.0 + (i - 101) * 0.02, 10.0, i + 1 };
      g_array_append_val (series->points, p);
    }
  /* 200 spacings over 7.98 s (the last packet at 6 + 99 × 0.02): mean 39.9 ms, × 8. */
  g_assert_cmpfloat_with_epsilon (cs_graph_series_gap_s (series), 0.3192, 1e-9);
  cs_graph_palette_init_light (&palette);
  cs_graph_render_options_init (&options, graph, WIDTH, HEIGHT);
  options.viewport.t0 = 0;
  options.viewport.t1 = 8;
  options.viewport.v0 = 0;
  options.viewport.v1 = 20;
  cs_graph_render (cr, graph, &options, &palette);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  cs_graph_render_plot_area (WIDTH, HEIGHT, &area);
  y = area.y + area.height / 2; /* 10 of 0..20 */
  g_assert_true (color_near (surface, area.x + area.width * 1.0 / 8, y, 1, &palette.series[0]));
  g_assert_true (color_near (surface, area.x + area.width * 7.0 / 8, y, 1, &palette.series[0]));
  /* 3.3 s and 4.7 s: inside the pause, away from the 4 s grid line. */
  g_assert_false (color_near (surface, area.x + area.width * 3.3 / 8, y, 2, &palette.series[0]));
  g_assert_false (color_near (surface, area.x + area.width * 4.7 / 8, y, 2, &palette.series[0]));
  cairo_surface_destroy (surface);
  /* Windowed series hold their value over the window: no pause threshold. */
  series->step_s = 5.0;
  g_assert_cmpfloat (cs_graph_series_gap_s (series), ==, 0.0);
}

static gboolean
legend_has (const GArray *items, const char *label)
{
  for (guint i = 0; i < items->len; i++)
    if (g_strcmp0 (g_array_index (items, CsGraphLegendItem, i).label, label) == 0)
      return TRUE;
  return FALSE;
}

/* The legend names every series and each marker kind drawn (and only those); too wide for
 * the title's line it flows onto rows of its own and the plot moves down by those rows. */
static void
test_render_legend (void)
{
  g_autoptr (CsGraph) graph = make_graph (); /* two series, one loss marker */
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);
  g_autoptr (GArray) items = NULL;
  CsGraphRenderOptions options;
  CsGraphPalette palette;
  CsGraphRect one_row, flowed;
  guint rows;

  cs_graph_palette_init_light (&palette);
  cs_graph_render_options_init (&options, graph, WIDTH, HEIGHT);
  rows = cs_graph_render_header_rows (cr, graph, &options, &palette, &items);
  g_assert_cmpuint (rows, ==, 1);
  g_assert_cmpuint (items->len, ==, 3);
  g_assert_true (legend_has (items, "a → b"));
  g_assert_true (legend_has (items, "b → a"));
  g_assert_true (legend_has (items, "lost packets"));
  g_assert_false (legend_has (items, "finding"));
  g_clear_pointer (&items, g_array_unref);

  /* A DTMF mark and a long title: 600 px no longer hold it all on one line. */
  g_assert_true (cs_graph_add_dtmf_marker (graph, 2, 5.0, 351, '7'));
  g_assert_false (cs_graph_add_dtmf_marker (graph, 9, 5.0, 351, '7')); /* no such stream */
  options.title = "Jitter (ms) — a heading long enough to push the legend off its line";
  rows = cs_graph_render_header_rows (cr, graph, &options, &palette, &items);
  g_assert_cmpuint (rows, ==, 2);
  g_assert_true (legend_has (items, "DTMF"));
  for (guint i = 0; i < items->len; i++)
    {
      const CsGraphLegendItem *a = &g_array_index (items, CsGraphLegendItem, i);

      g_assert_cmpfloat (a->box.x, >=, 0);
      g_assert_cmpfloat (a->box.x + a->box.width, <=, WIDTH);
      for (guint j = i + 1; j < items->len; j++)
        {
          const CsGraphLegendItem *b = &g_array_index (items, CsGraphLegendItem, j);
          gboolean apart
              = a->box.x + a->box.width <= b->box.x || b->box.x + b->box.width <= a->box.x
                || a->box.y + a->box.height <= b->box.y || b->box.y + b->box.height <= a->box.y;
          g_assert_true (apart);
        }
    }
  cs_graph_render_plot_area_rows (WIDTH, HEIGHT, 1, &one_row);
  cs_graph_render_plot_area_rows (WIDTH, HEIGHT, rows, &flowed);
  g_assert_cmpfloat (flowed.y, ==, one_row.y + 16);
  g_assert_cmpfloat (flowed.y + flowed.height, ==, one_row.y + one_row.height);
  for (guint i = 0; i < items->len; i++)
    {
      const CsGraphLegendItem *a = &g_array_index (items, CsGraphLegendItem, i);
      g_assert_cmpfloat (a->box.y + a->box.height, <=, flowed.y);
    }
  /* The plot really moved: the DTMF mark's line starts under the second row. */
  cs_graph_render (cr, graph, &options, &palette);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  {
    double x5 = flowed.x + 5.0 / 10.0 * flowed.width;
    g_assert_true (color_near (surface, x5, flowed.y + flowed.height * 0.6, 1, &palette.dtmf));
  }
  cairo_surface_destroy (surface);
}

/* The value axis carries its unit: text left of the tick labels, at the plot's middle. */
static void
test_render_value_unit (void)
{
  g_autoptr (CsGraph) graph = make_graph ();
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);
  CsGraphRenderOptions options;
  CsGraphPalette palette;
  CsGraphRect area;
  gboolean inked = FALSE;

  cs_graph_palette_init_light (&palette);
  cs_graph_render_options_init (&options, graph, WIDTH, HEIGHT);
  cs_graph_render (cr, graph, &options, &palette);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  cs_graph_render_plot_area (WIDTH, HEIGHT, &area);
  for (int x = 4; x < 20 && !inked; x++)
    for (int y = (int) (area.y + area.height / 2 - 8); y < area.y + area.height / 2 + 8; y++)
      {
        double rgb[3];
        pixel_at (surface, x, y, rgb);
        if (color_distance (rgb, &palette.background) > 0.5)
          inked = TRUE;
      }
  g_assert_true (inked);
  cairo_surface_destroy (surface);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  cs_graph_palette_init_light (&light);
  g_test_add_func ("/graph-render/positions", test_render_positions);
  g_test_add_func ("/graph-render/zoomed", test_render_zoomed);
  g_test_add_func ("/graph-render/files", test_render_files);
  g_test_add_func ("/graph-render/empty", test_render_empty);
  g_test_add_func ("/graph-render/gap", test_render_gap);
  g_test_add_func ("/graph-render/legend", test_render_legend);
  g_test_add_func ("/graph-render/value-unit", test_render_value_unit);
  return g_test_run ();
}
