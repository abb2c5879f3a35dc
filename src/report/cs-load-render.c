/* cs-load-render.c — a load run's story in four panels on one time axis */
#include "cs-load-render.h"

#include <math.h>
#include <pango/pangocairo.h>

#define MARGIN_LEFT 64.0
#define MARGIN_RIGHT 14.0
#define MARGIN_TOP 8.0
#define MARGIN_BOTTOM 24.0
#define PANEL_GAP 12.0
#define PANEL_HEAD 34.0 /* title line, legend line */
#define N_PANELS 4
#define FONT "Sans 8"

static void
set_color (cairo_t *cr, const CsLoadColor *c)
{
  cairo_set_source_rgba (cr, c->r, c->g, c->b, c->a);
}

static CsLoadColor
hex (guint32 value)
{
  return (CsLoadColor){ ((value >> 16) & 0xff) / 255.0, ((value >> 8) & 0xff) / 255.0,
                        (value & 0xff) / 255.0, 1 };
}

void
cs_load_palette_default (CsLoadPalette *p)
{
  p->text = hex (0x2e3436);
  p->axis = hex (0x2e3436);
  p->axis.a = 0.55;
  p->grid = hex (0x2e3436);
  p->grid.a = 0.10;
  p->bad = hex (0xc01c28);
  p->selection = hex (0x1c71d8);
  p->selection.a = 0.16;
  p->offered = hex (0x1c71d8);
  p->handled = hex (0x26a269);
  p->concurrent = hex (0x9141ac);
  p->capacity = hex (0x26a269);
  p->p50 = hex (0x1c71d8);
  p->p90 = hex (0x2ec27e);
  p->p99 = hex (0xe66100);
  p->p999 = hex (0xc01c28);
  p->trying = hex (0x9141ac);
  p->retrans_invite = hex (0xe5a50a);
  p->retrans_200 = hex (0x865e3c);
  p->retrans_bye = hex (0x1c71d8);
  p->timeouts = hex (0xc01c28);
  p->failed = hex (0x9141ac);
}

typedef struct
{
  double x, y, width, height;
} CsLoadRect;

typedef double (*CsLoadValue) (const CsLoadReport *r, guint i);

typedef struct
{
  const char *label;
  CsLoadValue value;
  const CsLoadColor *color;
} CsLoadSeries;

/* Text */

static void
text_at (cairo_t *cr, const CsLoadColor *color, double x, double y, const char *text, double xalign,
         double yalign, double *width_out)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string (FONT);
  int width, height;

  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &width, &height);
  set_color (cr, color);
  cairo_move_to (cr, x - xalign * width, y - yalign * height);
  pango_cairo_show_layout (cr, layout);
  if (width_out != NULL)
    *width_out = width;
  pango_font_description_free (font);
  g_object_unref (layout);
}

/* Geometry */

void
cs_load_render_plot_x (double width, double *x, double *plot_width)
{
  *x = MARGIN_LEFT;
  *plot_width = MAX (width - MARGIN_LEFT - MARGIN_RIGHT, 1);
}

static double
report_span_s (const CsLoadReport *r)
{
  const CsLoadInterval *last;

  if (r == NULL || r->intervals->len == 0)
    return 0;
  last = &g_array_index (r->intervals, CsLoadInterval, r->intervals->len - 1);
  return (double) (last->end_ns - r->origin_ns) / 1e9;
}

double
cs_load_render_span_s (const CsLoadScene *scene)
{
  return MAX (MAX (report_span_s (scene->report), report_span_s (scene->other)), 1e-3);
}

static CsLoadRect
panel_rect (double width, double height, int panel)
{
  double plot_height = MAX (height - MARGIN_TOP - MARGIN_BOTTOM, 1);
  double each = (plot_height - PANEL_GAP * (N_PANELS - 1)) / N_PANELS;
  CsLoadRect r;

  cs_load_render_plot_x (width, &r.x, &r.width);
  r.y = MARGIN_TOP + panel * (each + PANEL_GAP) + PANEL_HEAD;
  r.height = MAX (each - PANEL_HEAD, 1);
  return r;
}

static double
x_of_s (CsLoadRect r, double span_s, double t_s)
{
  return r.x + r.width * CLAMP (t_s / span_s, 0, 1);
}

static double
y_of (CsLoadRect r, double value, double y_max)
{
  return r.y + r.height - r.height * CLAMP (value / y_max, 0, 1);
}

/* 1, 2 or 5 times a power of ten, at least max. */
static double
nice_max (double max)
{
  double power, fraction;

  if (!(max > 0) || !isfinite (max))
    return 1;
  power = pow (10, floor (log10 (max)));
  fraction = max / power;
  return power * (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10);
}

/* Values */

static const CsLoadInterval *
at (const CsLoadReport *r, guint i)
{
  return &g_array_index (r->intervals, CsLoadInterval, i);
}

static double
v_offered (const CsLoadReport *r, guint i)
{
  return cs_load_report_rate (r, i, at (r, i)->calls_started);
}
static double
v_handled (const CsLoadReport *r, guint i)
{
  return cs_load_report_rate (r, i, at (r, i)->handled);
}
static double
v_concurrent (const CsLoadReport *r, guint i)
{
  return at (r, i)->concurrent;
}
static double
v_p50 (const CsLoadReport *r, guint i)
{
  return at (r, i)->curves[CS_LOAD_CURVE_ANSWER].p50;
}
static double
v_p90 (const CsLoadReport *r, guint i)
{
  return at (r, i)->curves[CS_LOAD_CURVE_ANSWER].p90;
}
static double
v_p99 (const CsLoadReport *r, guint i)
{
  return at (r, i)->curves[CS_LOAD_CURVE_ANSWER].p99;
}
static double
v_p999 (const CsLoadReport *r, guint i)
{
  return at (r, i)->curves[CS_LOAD_CURVE_ANSWER].p999;
}
static double
v_trying (const CsLoadReport *r, guint i)
{
  return at (r, i)->curves[CS_LOAD_CURVE_TRYING].p99;
}
static double
v_count_rate (const CsLoadReport *r, guint i, GHashTable *table, const char *key)
{
  return cs_load_report_rate (
      r, i, table != NULL ? GPOINTER_TO_UINT (g_hash_table_lookup (table, key)) : 0);
}
static double
v_retrans_invite (const CsLoadReport *r, guint i)
{
  return v_count_rate (r, i, at (r, i)->retransmissions_by_type, "INVITE");
}
static double
v_retrans_200 (const CsLoadReport *r, guint i)
{
  return v_count_rate (r, i, at (r, i)->retransmissions_by_type, "200");
}
static double
v_retrans_bye (const CsLoadReport *r, guint i)
{
  return v_count_rate (r, i, at (r, i)->retransmissions_by_type, "BYE");
}
static double
v_timeouts (const CsLoadReport *r, guint i)
{
  return cs_load_report_rate (r, i, at (r, i)->timeouts);
}
static double
v_failed (const CsLoadReport *r, guint i)
{
  return cs_load_report_rate (r, i, at (r, i)->failed + at (r, i)->cancelled);
}

static double
series_max (const CsLoadReport *r, const CsLoadSeries *series, guint n_series)
{
  double max = 0;

  for (guint s = 0; r != NULL && s < n_series; s++)
    for (guint i = 0; i < r->intervals->len; i++)
      {
        double v = series[s].value (r, i);
        if (isfinite (v))
          max = MAX (max, v);
      }
  return max;
}

/* Drawing */

static void
draw_frame (cairo_t *cr, CsLoadRect r, const char *title, const CsLoadSeries *series,
            guint n_series, gboolean compare, double y_max, const char *unit,
            const CsLoadPalette *p)
{
  double scale = 1, x, w;
  char label[48];

  if (g_strcmp0 (unit, "ms") == 0 && y_max >= 1000)
    scale = 1000, unit = "s";
  text_at (cr, &p->text, r.x, r.y - PANEL_HEAD + 2, title, 0, 0, NULL);
  /* legend: a short stroke of each series' colour, then its label */
  x = r.x;
  for (guint s = 0; s < n_series; s++)
    {
      double y = r.y - PANEL_HEAD / 2.0 + 6;

      set_color (cr, series[s].color);
      cairo_set_line_width (cr, 2);
      cairo_move_to (cr, x, y);
      cairo_line_to (cr, x + 14, y);
      cairo_stroke (cr);
      text_at (cr, &p->text, x + 18, y, series[s].label, 0, 0.5, &w);
      x += 18 + w + 14;
    }
  if (compare)
    {
      static const double dashes[] = { 4, 3 };
      double y = r.y - PANEL_HEAD / 2.0 + 6;

      set_color (cr, &p->axis);
      cairo_set_line_width (cr, 1.5);
      cairo_set_dash (cr, dashes, 2, 0);
      cairo_move_to (cr, x, y);
      cairo_line_to (cr, x + 14, y);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      text_at (cr, &p->text, x + 18, y, "run B (dashed)", 0, 0.5, NULL);
    }
  /* the y axis: 0, half, top; its unit at the top */
  cairo_set_line_width (cr, 1);
  for (int k = 0; k <= 2; k++)
    {
      double y = floor (r.y + r.height - k * r.height / 2.0) + 0.5;

      set_color (cr, k == 0 ? &p->axis : &p->grid);
      cairo_move_to (cr, r.x, y);
      cairo_line_to (cr, r.x + r.width, y);
      cairo_stroke (cr);
      g_snprintf (label, sizeof label, "%g", y_max * k / 2.0 / scale);
      text_at (cr, &p->axis, r.x - 6, y, label, 1, 0.5, NULL);
    }
  text_at (cr, &p->axis, r.x - 6, r.y - 2, unit, 1, 1, NULL);
  set_color (cr, &p->axis);
  cairo_move_to (cr, floor (r.x) + 0.5, r.y);
  cairo_line_to (cr, floor (r.x) + 0.5, r.y + r.height);
  cairo_stroke (cr);
}

/* A polyline through interval centres (by their own times); NAN breaks it. */
static void
draw_series (cairo_t *cr, CsLoadRect r, double span_s, double y_max, const CsLoadReport *report,
             const CsLoadSeries *series, gboolean dashed)
{
  static const double dashes[] = { 5, 3 };
  gboolean pen_down = FALSE;

  set_color (cr, series->color);
  cairo_set_line_width (cr, dashed ? 1.3 : 1.6);
  cairo_set_dash (cr, dashes, dashed ? 2 : 0, 0);
  for (guint i = 0; i < report->intervals->len; i++)
    {
      const CsLoadInterval *iv = at (report, i);
      double v = series->value (report, i);
      double mid_s = ((double) (iv->start_ns + iv->end_ns) / 2 - (double) report->origin_ns) / 1e9;
      double x = x_of_s (r, span_s, mid_s), y;

      if (!isfinite (v))
        {
          pen_down = FALSE;
          continue;
        }
      y = y_of (r, v, y_max);
      if (pen_down)
        cairo_line_to (cr, x, y);
      else
        cairo_move_to (cr, x, y);
      pen_down = TRUE;
    }
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
}

static void
draw_panel (cairo_t *cr, double width, double height, int panel, const CsLoadScene *scene,
            const char *title, const CsLoadSeries *series, guint n_series, const char *unit,
            const CsLoadPalette *p, CsLoadRect *rect_out, double *y_max_out)
{
  CsLoadRect r = panel_rect (width, height, panel);
  double span_s = cs_load_render_span_s (scene);
  double max = MAX (series_max (scene->report, series, n_series),
                    series_max (scene->other, series, n_series));
  double y_max = nice_max (max);

  draw_frame (cr, r, title, series, n_series, scene->other != NULL, y_max, unit, p);
  for (guint s = 0; s < n_series; s++)
    {
      draw_series (cr, r, span_s, y_max, scene->report, &series[s], FALSE);
      if (scene->other != NULL)
        draw_series (cr, r, span_s, y_max, scene->other, &series[s], TRUE);
    }
  *rect_out = r;
  *y_max_out = y_max;
}

static void
draw_capacity (cairo_t *cr, CsLoadRect r, double y_max, const CsLoadReport *report,
               const char *name, gboolean dashed, const CsLoadPalette *p)
{
  static const double dashes[] = { 2, 3 };
  char label[96];
  double y;

  if (report == NULL || !report->capacity_found)
    return;
  y = floor (y_of (r, report->capacity_cps, y_max)) + 0.5;
  set_color (cr, &p->capacity);
  cairo_set_line_width (cr, 1);
  cairo_set_dash (cr, dashes, 2, 0);
  cairo_move_to (cr, r.x, y);
  cairo_line_to (cr, r.x + r.width, y);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  g_snprintf (label, sizeof label, "%scapacity %.0f calls/s", name != NULL ? name : "",
              report->capacity_cps);
  text_at (cr, &p->capacity, r.x + 4 + (dashed ? r.width / 3 : 0), y - 2, label, 0, 1, NULL);
}

static void
draw_break (cairo_t *cr, double width, double height, double span_s, const CsLoadReport *report,
            const char *name, gboolean dashed, const CsLoadPalette *p)
{
  const CsLoadBreakingPoint *bp = &report->breaking_point;
  CsLoadRect top = panel_rect (width, height, 0), bottom = panel_rect (width, height, N_PANELS - 1);
  static const double dashes[] = { 4, 3 };
  char label[160];
  double x;

  if (!bp->found)
    return;
  x = floor (x_of_s (top, span_s, bp->offset_s)) + 0.5;
  set_color (cr, &p->bad);
  cairo_set_line_width (cr, dashed ? 1 : 1.5);
  cairo_set_dash (cr, dashes, 2, 0);
  cairo_move_to (cr, x, top.y);
  cairo_line_to (cr, x, bottom.y + bottom.height);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  g_snprintf (label, sizeof label,
              "%sbreaks at %.0f s: %.0f calls/s offered, %.0f handled, %u "
              "concurrent",
              name != NULL ? name : "", bp->offset_s, bp->offered_cps, bp->handled_cps,
              bp->concurrent);
  /* run A's label at the top of the first panel, run B's below it */
  text_at (cr, &p->bad, x > top.x + top.width * 0.55 ? x - 4 : x + 4, top.y + (dashed ? 16 : 2),
           label, x > top.x + top.width * 0.55 ? 1 : 0, 0, NULL);
}

static void
draw_time_axis (cairo_t *cr, double width, double height, double span_s, const CsLoadPalette *p)
{
  CsLoadRect r = panel_rect (width, height, N_PANELS - 1);
  double step = nice_max (span_s / 8);
  char label[32];

  for (double t = 0; t <= span_s + 1e-9; t += step)
    {
      double x = x_of_s (r, span_s, t);

      g_snprintf (label, sizeof label, "%g s", t);
      text_at (cr, &p->axis, x, r.y + r.height + 4, label, x > r.x + r.width - 20 ? 1 : 0.5, 0,
               NULL);
    }
}

static void
draw_selection (cairo_t *cr, double width, double height, const CsLoadScene *scene, double span_s,
                const CsLoadPalette *p)
{
  CsLoadRect top = panel_rect (width, height, 0), bottom = panel_rect (width, height, N_PANELS - 1);
  double x0, x1;

  if (scene->drag_from_x >= 0)
    x0 = scene->drag_from_x, x1 = scene->drag_to_x;
  else if (scene->range_to_ns > scene->range_from_ns)
    {
      x0 = x_of_s (top, span_s, (double) (scene->range_from_ns - scene->report->origin_ns) / 1e9);
      x1 = x_of_s (top, span_s, (double) (scene->range_to_ns - scene->report->origin_ns) / 1e9);
    }
  else
    return;
  set_color (cr, &p->selection);
  cairo_rectangle (cr, MIN (x0, x1), top.y, fabs (x1 - x0), bottom.y + bottom.height - top.y);
  cairo_fill (cr);
}

void
cs_load_render (cairo_t *cr, double width, double height, const CsLoadScene *scene,
                const CsLoadPalette *p)
{
  const CsLoadSeries rates[] = {
    { "offered (new INVITEs, client leg)", v_offered, &p->offered },
    { "handled (final answers, server leg)", v_handled, &p->handled },
  };
  const CsLoadSeries concurrency[]
      = { { "calls in progress (peak)", v_concurrent, &p->concurrent } };
  const CsLoadSeries times[] = {
    { "200 p50", v_p50, &p->p50 },
    { "200 p90", v_p90, &p->p90 },
    { "200 p99", v_p99, &p->p99 },
    { "200 p99.9", v_p999, &p->p999 },
    { "100 Trying p99", v_trying, &p->trying },
  };
  const CsLoadSeries trouble[] = {
    { "INVITE resent", v_retrans_invite, &p->retrans_invite },
    { "200 resent", v_retrans_200, &p->retrans_200 },
    { "BYE resent", v_retrans_bye, &p->retrans_bye },
    { "timeouts", v_timeouts, &p->timeouts },
    { "failed or cancelled calls", v_failed, &p->failed },
  };
  double span_s;
  CsLoadRect r;
  double y_max;

  if (scene->report == NULL || scene->report->intervals->len == 0
      || width < CS_LOAD_RENDER_MIN_WIDTH || height < CS_LOAD_RENDER_MIN_HEIGHT)
    return;
  span_s = cs_load_render_span_s (scene);
  draw_selection (cr, width, height, scene, span_s, p);
  draw_panel (cr, width, height, 0, scene, "Calls per second: offered against handled", rates,
              G_N_ELEMENTS (rates), "calls/s", p, &r, &y_max);
  draw_capacity (cr, r, y_max, scene->report, scene->other != NULL ? "A: " : NULL, FALSE, p);
  draw_capacity (cr, r, y_max, scene->other, "B: ", TRUE, p);
  draw_panel (cr, width, height, 1, scene, "Concurrent calls", concurrency,
              G_N_ELEMENTS (concurrency), "calls", p, &r, &y_max);
  draw_panel (cr, width, height, 2, scene,
              "INVITE response time, client leg (200: end to end; 100 Trying: the proxy)", times,
              G_N_ELEMENTS (times), "ms", p, &r, &y_max);
  draw_panel (cr, width, height, 3, scene, "Retransmissions, timeouts and failures per second",
              trouble, G_N_ELEMENTS (trouble), "per s", p, &r, &y_max);
  draw_break (cr, width, height, span_s, scene->report, scene->other != NULL ? "A " : NULL, FALSE,
              p);
  if (scene->other != NULL)
    draw_break (cr, width, height, span_s, scene->other, "B ", TRUE, p);
  draw_time_axis (cr, width, height, span_s, p);
}
