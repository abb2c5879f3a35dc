/* cs-load-view-chart.c — the load story (report/cs-load-render.c) as a widget, with a
 * second run on the same axes, the theme's colours and brushing */
#include "cs-load-view-chart.h"

#include <glib/gi18n.h>
#include <math.h>

#include "cs-load-render.h"

struct _CsLoadChart
{
  GtkWidget parent_instance;

  const CsLoadReport *report;
  const CsLoadReport *other;
  gint64 range_from_ns, range_to_ns;
  double drag_start_x, drag_x; /* while brushing; drag_start_x < 0 otherwise */
};

G_DEFINE_FINAL_TYPE (CsLoadChart, cs_load_chart, GTK_TYPE_WIDGET)

enum
{
  SIGNAL_RANGE_SELECTED,
  SIGNAL_INTERVAL_ACTIVATED,
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
cs_load_chart_set_other (CsLoadChart *self, const CsLoadReport *other)
{
  g_return_if_fail (CS_IS_LOAD_CHART (self));
  self->other = other;
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

/* Theme: named colours from style.css (shared with the graphs), the series' own
 * colours from the report's palette */

static void
lookup (GtkWidget *widget, const char *name, const char *fallback, CsLoadColor *out)
{
  GtkStyleContext *context;
  GdkRGBA rgba;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  context = gtk_widget_get_style_context (widget);
  if (!gtk_style_context_lookup_color (context, name, &rgba))
    gdk_rgba_parse (&rgba, fallback);
  G_GNUC_END_IGNORE_DEPRECATIONS
  *out = (CsLoadColor){ rgba.red, rgba.green, rgba.blue, rgba.alpha };
}

static void
load_palette (GtkWidget *widget, CsLoadPalette *p)
{
  cs_load_palette_default (p);
  lookup (widget, "cs_graph_text_color", "#2e3436", &p->text);
  lookup (widget, "cs_graph_grid_color", "rgba(46,52,54,0.10)", &p->grid);
  lookup (widget, "cs_graph_axis_color", "rgba(46,52,54,0.35)", &p->axis);
  lookup (widget, "cs_bad_color", "#c01c28", &p->bad);
}

static CsLoadScene
scene_of (CsLoadChart *self)
{
  CsLoadScene scene
      = { self->report, self->other, "A", "B", self->range_from_ns, self->range_to_ns, -1, -1 };

  if (self->drag_start_x >= 0)
    {
      scene.drag_from_x = self->drag_start_x;
      scene.drag_to_x = self->drag_x;
    }
  return scene;
}

static gint64
ns_of_x (CsLoadChart *self, double x)
{
  CsLoadScene scene = scene_of (self);
  double plot_x, plot_width, fraction;

  cs_load_render_plot_x (gtk_widget_get_width (GTK_WIDGET (self)), &plot_x, &plot_width);
  fraction = CLAMP ((x - plot_x) / plot_width, 0, 1);
  return self->report->origin_ns + (gint64) (fraction * cs_load_render_span_s (&scene) * 1e9);
}

static void
cs_load_chart_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  CsLoadChart *self = CS_LOAD_CHART (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  CsLoadScene scene = scene_of (self);
  CsLoadPalette palette;
  cairo_t *cr;

  if (self->report == NULL || self->report->intervals->len == 0 || width < CS_LOAD_RENDER_MIN_WIDTH
      || height < CS_LOAD_RENDER_MIN_HEIGHT)
    return;
  load_palette (widget, &palette);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cs_load_render (cr, width, height, &scene, &palette);
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

gboolean
cs_load_chart_interval_at (CsLoadChart *self, double x, gint64 *from_ns, gint64 *to_ns)
{
  gint64 ns;

  g_return_val_if_fail (CS_IS_LOAD_CHART (self), FALSE);
  if (self->report == NULL || self->report->intervals->len == 0)
    return FALSE;
  ns = ns_of_x (self, x);
  for (guint i = 0; i < self->report->intervals->len; i++)
    {
      const CsLoadInterval *interval = &g_array_index (self->report->intervals, CsLoadInterval, i);

      if (ns >= interval->start_ns
          && (ns < interval->end_ns || i + 1 == self->report->intervals->len))
        {
          *from_ns = interval->start_ns;
          *to_ns = interval->end_ns;
          return TRUE;
        }
    }
  return FALSE;
}

/* A double click: the interval under the pointer ("interval-activated"). */
static void
on_click_pressed (GtkGestureClick *gesture, int n_press, double x, double y, CsLoadChart *self)
{
  gint64 from_ns, to_ns;

  if (n_press == 2 && cs_load_chart_interval_at (self, x, &from_ns, &to_ns))
    g_signal_emit (self, signals[SIGNAL_INTERVAL_ACTIVATED], 0, from_ns, to_ns);
}

static void
cs_load_chart_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                       int *natural, int *minimum_baseline, int *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? CS_LOAD_RENDER_MIN_WIDTH
                                                       : CS_LOAD_RENDER_MIN_HEIGHT + 40;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 900 : 640;
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
  signals[SIGNAL_INTERVAL_ACTIVATED]
      = g_signal_new ("interval-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                      NULL, NULL, G_TYPE_NONE, 2, G_TYPE_INT64, G_TYPE_INT64);
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
  {
    GtkGesture *click = gtk_gesture_click_new ();

    g_signal_connect (click, "pressed", G_CALLBACK (on_click_pressed), self);
    gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  }
  gtk_widget_set_tooltip_text (GTK_WIDGET (self),
                               _ ("Drag across a time range to list the calls started there and "
                                  "its frames on the Packets page; double-click an interval for "
                                  "its frames and first retransmission"));
}
