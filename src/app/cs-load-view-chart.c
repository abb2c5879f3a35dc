/* cs-load-view-chart.c — one capture's load over time, three panels on one time axis */
#include "cs-load-view-chart.h"

#include <glib/gi18n.h>
#include <math.h>

#define MARGIN_LEFT 52.0
#define MARGIN_RIGHT 12.0
#define MARGIN_TOP 6.0
#define MARGIN_BOTTOM 22.0
#define PANEL_GAP 14.0
#define PANEL_TITLE 18.0
#define N_PANELS 3

typedef struct
{
  GdkRGBA text, grid, axis, series[3], degraded, bad, selection;
} CsLoadPalette;

struct _CsLoadChart
{
  GtkWidget parent_instance;

  const CsLoadReport *report;
  gint64 range_from_ns, range_to_ns;
  double drag_start_x, drag_x; /* while brushing; drag_start_x < 0 otherwise */
};

G_DEFINE_FINAL_TYPE (CsLoadChart, cs_load_chart, GTK_TYPE_WIDGET)

enum
{
  SIGNAL_RANGE_SELECTED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

GtkWidget *
cs_load_chart_new (void)
{
  return g_object_new (CS_TYPE_LOAD_CHART, NULL);
}

void
cs_load_chart_set_report (CsLoadChart *self, const CsLoadReport *report)
{
  g_return_if_fail (CS_IS_LOAD_CHART (self));
  self->report = report;
  self->range_from_ns = self->range_to_ns = 0;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
cs_load_chart_set_range (CsLoadChart *self, gint64 from_ns, gint64 to_ns)
{
  g_return_if_fail (CS_IS_LOAD_CHART (self));
  self->range_from_ns = MIN (from_ns, to_ns);
  self->range_to_ns = MAX (from_ns, to_ns);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Theme: named colours from style.css (shared with the graphs), with fallbacks */

static void
lookup (GtkWidget *widget, const char *name, const char *fallback, GdkRGBA *out)
{
  GtkStyleContext *context;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  context = gtk_widget_get_style_context (widget);
  if (!gtk_style_context_lookup_color (context, name, out))
    gdk_rgba_parse (out, fallback);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

static void
load_palette (GtkWidget *widget, CsLoadPalette *p)
{
  lookup (widget, "cs_graph_text_color", "#2e3436", &p->text);
  lookup (widget, "cs_graph_grid_color", "rgba(46,52,54,0.10)", &p->grid);
  lookup (widget, "cs_graph_axis_color", "rgba(46,52,54,0.35)", &p->axis);
  lookup (widget, "cs_graph_series_1_color", "#1c71d8", &p->series[0]);
  lookup (widget, "cs_graph_series_2_color", "#e66100", &p->series[1]);
  lookup (widget, "cs_graph_series_3_color", "#9141ac", &p->series[2]);
  lookup (widget, "cs_degraded_color", "#c88800", &p->degraded);
  lookup (widget, "cs_bad_color", "#c01c28", &p->bad);
  p->selection = p->series[0];
  p->selection.alpha = 0.18f;
}

/* Geometry */

typedef struct
{
  double x, y, width, height;
} CsRect;

static CsRect
plot_rect (CsLoadChart *self)
{
  CsRect r;

  r.x = MARGIN_LEFT;
  r.y = MARGIN_TOP;
  r.width = MAX (gtk_widget_get_width (GTK_WIDGET (self)) - MARGIN_LEFT - MARGIN_RIGHT, 1);
  r.height = MAX (gtk_widget_get_height (GTK_WIDGET (self)) - MARGIN_TOP - MARGIN_BOTTOM, 1);
  return r;
}

static CsRect
panel_rect (CsLoadChart *self, int panel)
{
  CsRect plot = plot_rect (self), r;
  double height = (plot.height - PANEL_GAP * (N_PANELS - 1)) / N_PANELS;

  r.x = plot.x;
  r.width = plot.width;
  r.y = plot.y + panel * (height + PANEL_GAP) + PANEL_TITLE;
  r.height = MAX (height - PANEL_TITLE, 1);
  return r;
}

static double
x_of_ns (CsLoadChart *self, gint64 ts_ns)
{
  CsRect plot = plot_rect (self);
  double span = self->report->interval_s * 1e9 * self->report->intervals->len;

  return plot.x + plot.width * (double) (ts_ns - self->report->origin_ns) / MAX (span, 1);
}

static gint64
ns_of_x (CsLoadChart *self, double x)
{
  CsRect plot = plot_rect (self);
  double span = self->report->interval_s * 1e9 * self->report->intervals->len;
  double fraction = CLAMP ((x - plot.x) / plot.width, 0, 1);

  return self->report->origin_ns + (gint64) (fraction * span);
}

static const CsLoadInterval *
interval_at (CsLoadChart *self, guint i)
{
  return &g_array_index (self->report->intervals, CsLoadInterval, i);
}

/* Drawing helpers */

static void
show_text (CsLoadChart *self, cairo_t *cr, const GdkRGBA *color, double x, double y,
           const char *text, double xalign)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  int width, height;

  pango_layout_get_pixel_size (layout, &width, &height);
  gdk_cairo_set_source_rgba (cr, color);
  cairo_move_to (cr, x - xalign * width, y - height / 2.0);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

/* A "nice" axis maximum: 1, 2 or 5 times a power of ten, at least max. */
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

static void
draw_panel_frame (CsLoadChart *self, cairo_t *cr, const CsLoadPalette *p, CsRect r,
                  const char *title, double y_max, const char *unit)
{
  char label[32];
  double scale = 1;

  /* "50000 ms" does not fit the axis: long response times are labelled in seconds. */
  if (g_strcmp0 (unit, " ms") == 0 && y_max >= 1000)
    {
      scale = 1000;
      unit = " s";
    }
  show_text (self, cr, &p->text, r.x, r.y - PANEL_TITLE / 2.0, title, 0);
  cairo_set_line_width (cr, 1);
  for (int k = 0; k <= 2; k++)
    {
      double y = r.y + r.height - k * r.height / 2.0;

      gdk_cairo_set_source_rgba (cr, k == 0 ? &p->axis : &p->grid);
      cairo_move_to (cr, r.x, floor (y) + 0.5);
      cairo_line_to (cr, r.x + r.width, floor (y) + 0.5);
      cairo_stroke (cr);
      g_snprintf (label, sizeof label, "%g%s", y_max * k / 2.0 / scale, k == 2 ? unit : "");
      show_text (self, cr, &p->axis, r.x - 6, y, label, 1);
    }
}

static double
y_in (CsRect r, double value, double y_max)
{
  return r.y + r.height - r.height * CLAMP (value / y_max, 0, 1);
}

/* A polyline through interval centres; NAN values break it. */
static void
draw_series (CsLoadChart *self, cairo_t *cr, CsRect r, double y_max, const GdkRGBA *color,
             double (*value) (const CsLoadInterval *))
{
  guint n = self->report->intervals->len;
  gboolean pen_down = FALSE;

  gdk_cairo_set_source_rgba (cr, color);
  cairo_set_line_width (cr, 1.5);
  for (guint i = 0; i < n; i++)
    {
      double v = value (interval_at (self, i));
      double x = r.x + r.width * (i + 0.5) / n;

      if (isnan (v))
        {
          pen_down = FALSE;
          continue;
        }
      if (pen_down)
        cairo_line_to (cr, x, y_in (r, v, y_max));
      else
        cairo_move_to (cr, x, y_in (r, v, y_max));
      pen_down = TRUE;
    }
  cairo_stroke (cr);
}

static double
v_concurrent (const CsLoadInterval *iv)
{
  return iv->concurrent;
}
static double
v_p50 (const CsLoadInterval *iv)
{
  return iv->invite_p50_ms;
}
static double
v_p99 (const CsLoadInterval *iv)
{
  return iv->signals[CS_LOAD_SIGNAL_P99];
}
static double
v_retrans (const CsLoadInterval *iv)
{
  return iv->retransmissions;
}
static double
v_timeouts (const CsLoadInterval *iv)
{
  return iv->timeouts;
}
static double
v_failed (const CsLoadInterval *iv)
{
  return iv->failed;
}

static void
draw_rates (CsLoadChart *self, cairo_t *cr, const CsLoadPalette *p)
{
  CsRect r = panel_rect (self, 0);
  guint n = self->report->intervals->len;
  double max = 1, y_max;
  GdkRGBA bar = p->series[0];

  for (guint i = 0; i < n; i++)
    max = MAX (max, MAX (interval_at (self, i)->calls_started, interval_at (self, i)->concurrent));
  y_max = nice_max (max);
  draw_panel_frame (self, cr, p, r, _ ("Calls started per interval ▮  ·  concurrent calls ―"),
                    y_max, "");
  bar.alpha = 0.55f;
  gdk_cairo_set_source_rgba (cr, &bar);
  for (guint i = 0; i < n; i++)
    {
      double x0 = r.x + r.width * i / n, x1 = r.x + r.width * (i + 1) / n;
      double y = y_in (r, interval_at (self, i)->calls_started, y_max);

      cairo_rectangle (cr, x0 + (x1 - x0) * 0.1, y, (x1 - x0) * 0.8, r.y + r.height - y);
    }
  cairo_fill (cr);
  draw_series (self, cr, r, y_max, &p->series[1], v_concurrent);
}

static void
draw_response_times (CsLoadChart *self, cairo_t *cr, const CsLoadPalette *p)
{
  CsRect r = panel_rect (self, 1);
  guint n = self->report->intervals->len;
  double max = 1, y_max;
  GdkRGBA band = p->series[0];

  for (guint i = 0; i < n; i++)
    if (isfinite (v_p99 (interval_at (self, i))))
      max = MAX (max, v_p99 (interval_at (self, i)));
  y_max = nice_max (max);
  draw_panel_frame (self, cr, p, r, _ ("INVITE → final response: p50–p90 band, p99 line"), y_max,
                    " ms");
  band.alpha = 0.30f;
  gdk_cairo_set_source_rgba (cr, &band);
  for (guint i = 0; i < n; i++)
    {
      const CsLoadInterval *iv = interval_at (self, i);
      double x0 = r.x + r.width * i / n, x1 = r.x + r.width * (i + 1) / n;
      double top, bottom;

      if (isnan (iv->invite_p50_ms))
        continue;
      top = y_in (r, iv->invite_p90_ms, y_max);
      bottom = y_in (r, iv->invite_p50_ms, y_max);
      cairo_rectangle (cr, x0, top, x1 - x0, MAX (bottom - top, 1));
    }
  cairo_fill (cr);
  draw_series (self, cr, r, y_max, &p->series[0], v_p50);
  draw_series (self, cr, r, y_max, &p->series[1], v_p99);
}

static void
draw_trouble (CsLoadChart *self, cairo_t *cr, const CsLoadPalette *p)
{
  CsRect r = panel_rect (self, 2);
  guint n = self->report->intervals->len;
  double max = 1, y_max;

  for (guint i = 0; i < n; i++)
    {
      const CsLoadInterval *iv = interval_at (self, i);
      max = MAX (max, MAX (iv->retransmissions, MAX (iv->timeouts, iv->failed)));
    }
  y_max = nice_max (max);
  draw_panel_frame (self, cr, p, r,
                    _ ("Retransmissions (amber) · timeouts (red) · failed calls (purple)"), y_max,
                    "");
  draw_series (self, cr, r, y_max, &p->degraded, v_retrans);
  draw_series (self, cr, r, y_max, &p->bad, v_timeouts);
  draw_series (self, cr, r, y_max, &p->series[2], v_failed);
}

static void
draw_time_axis (CsLoadChart *self, cairo_t *cr, const CsLoadPalette *p)
{
  CsRect plot = plot_rect (self);
  double span_s = self->report->interval_s * self->report->intervals->len;
  double step = nice_max (span_s / 8);
  char label[32];

  for (double t = 0; t <= span_s + 1e-9; t += step)
    {
      double x = plot.x + plot.width * t / MAX (span_s, 1e-9);

      g_snprintf (label, sizeof label, "%g s", t);
      show_text (self, cr, &p->axis, x, plot.y + plot.height + MARGIN_BOTTOM / 2.0, label,
                 x > plot.x + plot.width - 20 ? 1 : 0.5);
    }
}

static void
draw_overlays (CsLoadChart *self, cairo_t *cr, const CsLoadPalette *p)
{
  CsRect plot = plot_rect (self);
  const CsLoadBreakingPoint *bp = &self->report->breaking_point;

  if (self->range_to_ns > self->range_from_ns || self->drag_start_x >= 0)
    {
      double x0, x1;

      if (self->drag_start_x >= 0)
        x0 = self->drag_start_x, x1 = self->drag_x;
      else
        x0 = x_of_ns (self, self->range_from_ns), x1 = x_of_ns (self, self->range_to_ns);
      gdk_cairo_set_source_rgba (cr, &p->selection);
      cairo_rectangle (cr, MIN (x0, x1), plot.y, fabs (x1 - x0), plot.height);
      cairo_fill (cr);
    }
  if (bp->found)
    {
      double x = floor (x_of_ns (self, bp->time_ns)) + 0.5;
      char label[64];
      static const double dashes[] = { 4, 3 };

      gdk_cairo_set_source_rgba (cr, &p->bad);
      cairo_set_line_width (cr, 1.5);
      cairo_set_dash (cr, dashes, 2, 0);
      cairo_move_to (cr, x, plot.y);
      cairo_line_to (cr, x, plot.y + plot.height);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      g_snprintf (label, sizeof label, _ ("breaking point %.0f s"), bp->offset_s);
      /* at the foot of the line, clear of the panel titles */
      show_text (self, cr, &p->bad, x > plot.x + plot.width * 0.7 ? x - 4 : x + 4,
                 plot.y + plot.height - 10, label, x > plot.x + plot.width * 0.7 ? 1 : 0);
    }
}

static void
cs_load_chart_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  CsLoadChart *self = CS_LOAD_CHART (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  CsLoadPalette palette;
  cairo_t *cr;

  if (self->report == NULL || self->report->intervals->len == 0 || width < 80 || height < 120)
    return;
  load_palette (widget, &palette);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  draw_rates (self, cr, &palette);
  draw_response_times (self, cr, &palette);
  draw_trouble (self, cr, &palette);
  draw_time_axis (self, cr, &palette);
  draw_overlays (self, cr, &palette);
  cairo_destroy (cr);
}

/* Brushing */

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, CsLoadChart *self)
{
  if (self->report == NULL)
    return;
  self->drag_start_x = self->drag_x = x;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, CsLoadChart *self)
{
  if (self->drag_start_x < 0)
    return;
  self->drag_x = self->drag_start_x + dx;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_drag_end (GtkGestureDrag *gesture, double dx, double dy, CsLoadChart *self)
{
  gint64 from = 0, to = 0;

  if (self->drag_start_x < 0)
    return;
  if (fabs (dx) >= 3) /* a click clears the range */
    {
      from = ns_of_x (self, MIN (self->drag_start_x, self->drag_start_x + dx));
      to = ns_of_x (self, MAX (self->drag_start_x, self->drag_start_x + dx));
    }
  self->drag_start_x = -1;
  self->range_from_ns = from;
  self->range_to_ns = to;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SIGNAL_RANGE_SELECTED], 0, from, to);
}

static void
cs_load_chart_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                       int *natural, int *minimum_baseline, int *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 240 : 300;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 640 : 420;
}

static void
cs_load_chart_class_init (CsLoadChartClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->snapshot = cs_load_chart_snapshot;
  widget_class->measure = cs_load_chart_measure;
  signals[SIGNAL_RANGE_SELECTED]
      = g_signal_new ("range-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 2, G_TYPE_INT64, G_TYPE_INT64);
  gtk_widget_class_set_css_name (widget_class, "loadchart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
cs_load_chart_init (CsLoadChart *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();

  self->drag_start_x = -1;
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self),
                               _ ("Drag across a time range to list the calls started there"));
}
