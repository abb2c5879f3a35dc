/* cs-graph-view-canvas.c — the drawing area of a graph: zoom, pan, hover, click (cairo in snapshot)
 */
#include "cs-graph-view-canvas.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#define HIT_RADIUS_PX 12.0
#define ZOOM_STEP 1.5
#define PAN_STEP 0.2

struct _CsGraphCanvas
{
  GtkWidget parent_instance;

  CsGraph *graph;
  CsGraphViewport extent, viewport;
  double cursor_t;
  gboolean has_hover;
  guint hover_series, hover_point;
  guint header_rows; /* title and legend rows of the last drawing */
  GArray *legend;    /* CsGraphLegendItem of the last drawing, or NULL */
  CsGraphPalette palette;
  char *title;

  /* Series scaled to the viewport, rebuilt only when the viewport or width changes. */
  GPtrArray *scaled;
  CsGraphViewport scaled_viewport;
  int scaled_width;

  double drag_start_t0;
  /* issue 21: a Shift+drag picks a time range for the Packets page */
  gboolean range_dragging;
  double range_x0, range_x1;
};

G_DEFINE_FINAL_TYPE (CsGraphCanvas, cs_graph_canvas, GTK_TYPE_WIDGET)

enum
{
  SIGNAL_POINT_ACTIVATED,
  SIGNAL_VIEWPORT_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

GtkWidget *
cs_graph_canvas_new (void)
{
  return g_object_new (CS_TYPE_GRAPH_CANVAS, NULL);
}

static void
invalidate_scaled (CsGraphCanvas *self)
{
  g_clear_pointer (&self->scaled, g_ptr_array_unref);
}

static void
viewport_changed (CsGraphCanvas *self)
{
  invalidate_scaled (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SIGNAL_VIEWPORT_CHANGED], 0);
}

void
cs_graph_canvas_set_graph (CsGraphCanvas *self, CsGraph *graph, gboolean keep_time_range)
{
  CsGraphViewport old = self->viewport;
  gboolean had_graph = self->graph != NULL;

  g_return_if_fail (CS_IS_GRAPH_CANVAS (self));

  g_clear_pointer (&self->legend, g_array_unref); /* its labels belong to the graph */
  g_clear_pointer (&self->graph, cs_graph_free);
  self->graph = graph;
  self->has_hover = FALSE;
  if (graph != NULL)
    {
      cs_graph_get_extent (graph, &self->extent);
      self->viewport = self->extent;
      if (keep_time_range && had_graph && old.t0 >= self->extent.t0 && old.t1 <= self->extent.t1)
        {
          self->viewport.t0 = old.t0;
          self->viewport.t1 = old.t1;
        }
    }
  viewport_changed (self);
}

void
cs_graph_canvas_set_title (CsGraphCanvas *self, const char *title)
{
  g_return_if_fail (CS_IS_GRAPH_CANVAS (self));

  g_free (self->title);
  self->title = g_strdup (title);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const CsGraph *
cs_graph_canvas_get_graph (CsGraphCanvas *self)
{
  g_return_val_if_fail (CS_IS_GRAPH_CANVAS (self), NULL);
  return self->graph;
}

void
cs_graph_canvas_set_cursor (CsGraphCanvas *self, double t_s)
{
  g_return_if_fail (CS_IS_GRAPH_CANVAS (self));

  self->cursor_t = t_s;
  if (self->graph != NULL && !isnan (t_s) && (t_s < self->viewport.t0 || t_s > self->viewport.t1))
    {
      cs_graph_viewport_center (&self->viewport, &self->extent, t_s);
      viewport_changed (self);
      return;
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

double
cs_graph_canvas_get_cursor (CsGraphCanvas *self)
{
  g_return_val_if_fail (CS_IS_GRAPH_CANVAS (self), NAN);
  return self->cursor_t;
}

void
cs_graph_canvas_get_viewport (CsGraphCanvas *self, CsGraphViewport *out)
{
  g_return_if_fail (CS_IS_GRAPH_CANVAS (self));
  *out = self->viewport;
}

static void
zoom_at (CsGraphCanvas *self, double factor, double anchor_t)
{
  if (self->graph == NULL)
    return;
  cs_graph_viewport_zoom (&self->viewport, &self->extent, factor, anchor_t);
  viewport_changed (self);
}

void
cs_graph_canvas_zoom (CsGraphCanvas *self, double factor)
{
  double anchor;

  g_return_if_fail (CS_IS_GRAPH_CANVAS (self));
  /* Zoom around the cursor when it is in view, else around the middle. */
  anchor = !isnan (self->cursor_t) && self->cursor_t >= self->viewport.t0
                   && self->cursor_t <= self->viewport.t1
               ? self->cursor_t
               : (self->viewport.t0 + self->viewport.t1) / 2;
  zoom_at (self, factor, anchor);
}

void
cs_graph_canvas_pan (CsGraphCanvas *self, double fraction)
{
  g_return_if_fail (CS_IS_GRAPH_CANVAS (self));

  if (self->graph == NULL)
    return;
  cs_graph_viewport_pan (&self->viewport, &self->extent, fraction);
  viewport_changed (self);
}

void
cs_graph_canvas_reset_zoom (CsGraphCanvas *self)
{
  g_return_if_fail (CS_IS_GRAPH_CANVAS (self));

  self->viewport = self->extent;
  viewport_changed (self);
}

void
cs_graph_canvas_set_visible_range (CsGraphCanvas *self, double t0, double t1)
{
  g_return_if_fail (CS_IS_GRAPH_CANVAS (self));

  if (self->graph == NULL || !(t1 > t0))
    return;
  self->viewport.t0 = t0;
  self->viewport.t1 = t1;
  /* A zero-factor pan clamps the range into the extent. */
  cs_graph_viewport_pan (&self->viewport, &self->extent, 0.0);
  viewport_changed (self);
}

const CsGraphPalette *
cs_graph_canvas_get_palette (CsGraphCanvas *self)
{
  return &self->palette;
}

/* Pointer → plot coordinates (0..1, y up). */
static void
to_plot (CsGraphCanvas *self, double x, double y, double *x01, double *y01, CsGraphRect *area)
{
  cs_graph_render_plot_area_rows (gtk_widget_get_width (GTK_WIDGET (self)),
                                  gtk_widget_get_height (GTK_WIDGET (self)), self->header_rows,
                                  area);
  *x01 = (x - area->x) / area->width;
  *y01 = 1.0 - (y - area->y) / area->height;
}

static gboolean
find_point (CsGraphCanvas *self, double x, double y, guint *series, guint *point)
{
  CsGraphRect area;
  double x01, y01;

  if (self->graph == NULL)
    return FALSE;
  to_plot (self, x, y, &x01, &y01, &area);
  if (x01 < -0.02 || x01 > 1.02)
    return FALSE;
  return cs_graph_find_nearest (self->graph, &self->viewport, x01, y01, area.width, area.height,
                                HIT_RADIUS_PX, series, point);
}

gboolean
cs_graph_canvas_hover_at (CsGraphCanvas *self, double x, double y)
{
  guint series = 0, point = 0;
  gboolean found = find_point (self, x, y, &series, &point);

  if (found != self->has_hover || series != self->hover_series || point != self->hover_point)
    {
      self->has_hover = found;
      self->hover_series = series;
      self->hover_point = point;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      gtk_widget_trigger_tooltip_query (GTK_WIDGET (self));
    }
  return found;
}

gboolean
cs_graph_canvas_click_at (CsGraphCanvas *self, double x, double y)
{
  guint series, point;

  if (!find_point (self, x, y, &series, &point))
    return FALSE;
  g_signal_emit (self, signals[SIGNAL_POINT_ACTIVATED], 0, series, point);
  return TRUE;
}

const GArray *
cs_graph_canvas_get_legend (CsGraphCanvas *self, guint *header_rows)
{
  if (header_rows != NULL)
    *header_rows = MAX (self->header_rows, 1u);
  return self->legend;
}

gboolean
cs_graph_canvas_get_hover (CsGraphCanvas *self, guint *series_index, guint *point_index)
{
  if (!self->has_hover)
    return FALSE;
  *series_index = self->hover_series;
  *point_index = self->hover_point;
  return TRUE;
}

gboolean
cs_graph_canvas_point_position (CsGraphCanvas *self, guint series_index, guint point_index,
                                double *x, double *y)
{
  const CsGraphSeries *series;
  const CsGraphPoint *p;
  CsGraphRect area;
  double x01;

  if (self->graph == NULL || series_index >= cs_graph_get_n_series (self->graph))
    return FALSE;
  series = cs_graph_get_series (self->graph, series_index);
  if (point_index >= series->points->len)
    return FALSE;
  p = &g_array_index (series->points, CsGraphPoint, point_index);
  x01 = cs_graph_viewport_x (&self->viewport, p->t_s + series->step_s / 2);
  if (x01 < 0 || x01 > 1)
    return FALSE;
  cs_graph_render_plot_area_rows (gtk_widget_get_width (GTK_WIDGET (self)),
                                  gtk_widget_get_height (GTK_WIDGET (self)), self->header_rows,
                                  &area);
  *x = area.x + x01 * area.width;
  *y = area.y + (1.0 - cs_graph_viewport_y (&self->viewport, p->value)) * area.height;
  return TRUE;
}

/* Theme */

static void
lookup_color (GtkStyleContext *context, const char *name, CsGraphColor *out)
{
  GdkRGBA rgba;

  /* Named colours from style.css; the light palette stays when one is missing. */
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  if (gtk_style_context_lookup_color (context, name, &rgba))
    {
      out->r = rgba.red;
      out->g = rgba.green;
      out->b = rgba.blue;
      out->a = rgba.alpha;
    }
  G_GNUC_END_IGNORE_DEPRECATIONS
}

static void
update_palette (CsGraphCanvas *self)
{
  GtkStyleContext *context;
  g_autofree char *font_name = NULL;
  PangoFontDescription *font;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  context = gtk_widget_get_style_context (GTK_WIDGET (self));
  G_GNUC_END_IGNORE_DEPRECATIONS
  cs_graph_palette_init_light (&self->palette);
  lookup_color (context, "cs_graph_bg_color", &self->palette.background);
  lookup_color (context, "cs_graph_text_color", &self->palette.text);
  lookup_color (context, "cs_graph_grid_color", &self->palette.grid);
  lookup_color (context, "cs_graph_axis_color", &self->palette.axis);
  lookup_color (context, "cs_graph_series_1_color", &self->palette.series[0]);
  lookup_color (context, "cs_graph_series_2_color", &self->palette.series[1]);
  lookup_color (context, "cs_graph_series_3_color", &self->palette.series[2]);
  lookup_color (context, "cs_graph_series_4_color", &self->palette.series[3]);
  lookup_color (context, "cs_graph_loss_color", &self->palette.loss);
  lookup_color (context, "cs_graph_seq_error_color", &self->palette.seq_error);
  lookup_color (context, "cs_graph_finding_color", &self->palette.finding);
  lookup_color (context, "cs_graph_cursor_color", &self->palette.cursor);
  lookup_color (context, "cs_good_color", &self->palette.good);
  lookup_color (context, "cs_degraded_color", &self->palette.degraded);
  lookup_color (context, "cs_bad_color", &self->palette.bad);

  g_object_get (gtk_widget_get_settings (GTK_WIDGET (self)), "gtk-font-name", &font_name, NULL);
  font = pango_font_description_from_string (font_name != NULL ? font_name : "Sans 10");
  if (pango_font_description_get_family (font) != NULL)
    g_strlcpy (self->palette.font_family, pango_font_description_get_family (font),
               sizeof self->palette.font_family);
  if (pango_font_description_get_size (font) > 0)
    self->palette.font_size
        = 0.9 * pango_font_description_get_size (font) / PANGO_SCALE * 96.0 / 72.0;
  pango_font_description_free (font);
}

static void
cs_graph_canvas_css_changed (GtkWidget *widget, GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (cs_graph_canvas_parent_class)->css_changed (widget, change);
  update_palette (CS_GRAPH_CANVAS (widget));
  gtk_widget_queue_draw (widget);
}

/* Drawing */

static void
ensure_scaled (CsGraphCanvas *self, int width)
{
  CsGraphRect area;

  if (self->scaled != NULL && self->scaled_width == width
      && memcmp (&self->scaled_viewport, &self->viewport, sizeof self->viewport) == 0)
    return;
  invalidate_scaled (self);
  cs_graph_render_plot_area (width, 100, &area);
  self->scaled = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  for (guint i = 0; i < cs_graph_get_n_series (self->graph); i++)
    g_ptr_array_add (self->scaled,
                     cs_graph_series_scale (cs_graph_get_series (self->graph, i), &self->viewport,
                                            (guint) MAX (area.width, 1)));
  self->scaled_viewport = self->viewport;
  self->scaled_width = width;
}

/* The title and the legend share the first line; a legend that does not fit flows onto rows
 * of its own. The title loses its "— Call 5 …" part when that saves a row. */
static void
fit_title_and_legend (CsGraphCanvas *self, cairo_t *cr, CsGraphRenderOptions *options,
                      char **short_title)
{
  g_autoptr (GArray) legend = NULL;
  guint rows = cs_graph_render_header_rows (cr, self->graph, options, &self->palette, &legend);
  const char *dash = self->title != NULL ? strstr (self->title, " — ") : NULL;

  if (rows > 1 && dash != NULL)
    {
      CsGraphRenderOptions shorter = *options;
      guint shorter_rows;
      g_autoptr (GArray) shorter_legend = NULL;

      *short_title = g_strndup (self->title, dash - self->title);
      shorter.title = *short_title;
      shorter_rows = cs_graph_render_header_rows (cr, self->graph, &shorter, &self->palette,
                                                  &shorter_legend);
      if (shorter_rows < rows)
        {
          options->title = *short_title;
          rows = shorter_rows;
          g_clear_pointer (&legend, g_array_unref);
          legend = g_steal_pointer (&shorter_legend);
        }
    }
  self->header_rows = rows;
  g_clear_pointer (&self->legend, g_array_unref);
  self->legend = g_steal_pointer (&legend);
}

static void draw_range_band (CsGraphCanvas *self, cairo_t *cr, int height);

static void
cs_graph_canvas_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  CsGraphCanvas *self = CS_GRAPH_CANVAS (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  CsGraphRenderOptions options;
  g_autofree char *short_title = NULL;
  cairo_t *cr;

  if (self->graph == NULL || width <= 0 || height <= 0)
    return;
  ensure_scaled (self, width);
  cs_graph_render_options_init (&options, self->graph, width, height);
  options.viewport = self->viewport;
  options.cursor_t = self->cursor_t;
  options.has_hover = self->has_hover;
  options.hover_series = self->hover_series;
  options.hover_point = self->hover_point;
  options.scaled = self->scaled;
  options.title = self->title;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  fit_title_and_legend (self, cr, &options, &short_title);
  cs_graph_render (cr, self->graph, &options, &self->palette);
  draw_range_band (self, cr, height);
  cairo_destroy (cr);
}

static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                  gpointer data)
{
  CsGraphCanvas *self = CS_GRAPH_CANVAS (widget);
  const CsGraphSeries *series;
  const CsGraphPoint *p;
  g_autofree char *text = NULL;
  const char *unit;

  if (!self->has_hover || self->graph == NULL)
    return FALSE;
  series = cs_graph_get_series (self->graph, self->hover_series);
  p = &g_array_index (series->points, CsGraphPoint, self->hover_point);
  unit = cs_graph_kind_unit (self->graph->kind);
  if (self->graph->kind == CS_GRAPH_KIND_MOS)
    /* TRANSLATORS: graph tooltip: stream, window start, MOS, first frame of the window */
    text = g_strdup_printf (_ ("%s\n%.3f s (%.0f s window) · MOS %.2f\nFrame %u"), series->label,
                            p->t_s, series->step_s, p->value, p->frame);
  else
    /* TRANSLATORS: graph tooltip: stream, time, value and unit, frame number */
    text = g_strdup_printf (_ ("%s\n%.3f s · %.2f %s\nFrame %u"), series->label, p->t_s, p->value,
                            unit, p->frame);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* Input */

static void
on_motion (GtkEventControllerMotion *controller, double x, double y, CsGraphCanvas *self)
{
  cs_graph_canvas_hover_at (self, x, y);
}

static void
on_leave (GtkEventControllerMotion *controller, CsGraphCanvas *self)
{
  if (!self->has_hover)
    return;
  self->has_hover = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
on_scroll (GtkEventControllerScroll *controller, double dx, double dy, CsGraphCanvas *self)
{
  double x = 0, y = 0, x01, y01;
  CsGraphRect area;
  GdkEvent *event = gtk_event_controller_get_current_event (GTK_EVENT_CONTROLLER (controller));

  if (self->graph == NULL)
    return FALSE;
  if (event != NULL)
    gdk_event_get_position (event, &x, &y);
  to_plot (self, x, y, &x01, &y01, &area);
  if (dx != 0 && fabs (dx) > fabs (dy))
    cs_graph_canvas_pan (self, dx * PAN_STEP / 2);
  else if (dy != 0)
    zoom_at (self, dy < 0 ? ZOOM_STEP : 1.0 / ZOOM_STEP,
             cs_graph_viewport_t (&self->viewport, CLAMP (x01, 0, 1)));
  return TRUE;
}

static void range_drag_begin (CsGraphCanvas *self, GtkGestureDrag *gesture, double x);

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, CsGraphCanvas *self)
{
  self->drag_start_t0 = self->viewport.t0;
  range_drag_begin (self, gesture, x);
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, CsGraphCanvas *self)
{
  CsGraphRect area;
  double shift;

  if (self->range_dragging)
    {
      self->range_x1 = self->range_x0 + dx;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  if (self->graph == NULL || fabs (dx) < 3)
    return;
  cs_graph_render_plot_area_rows (gtk_widget_get_width (GTK_WIDGET (self)),
                                  gtk_widget_get_height (GTK_WIDGET (self)), self->header_rows,
                                  &area);
  shift = -dx / area.width * (self->viewport.t1 - self->viewport.t0);
  cs_graph_viewport_pan (&self->viewport, &self->extent,
                         (self->drag_start_t0 + shift - self->viewport.t0)
                             / (self->viewport.t1 - self->viewport.t0));
  viewport_changed (self);
}

static void
on_click_released (GtkGestureClick *gesture, int n_press, double x, double y, CsGraphCanvas *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self));
  cs_graph_canvas_click_at (self, x, y);
  if (n_press == 2)
    cs_graph_canvas_open_frame_at (self, x, y);
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller, guint keyval, guint keycode,
                GdkModifierType state, CsGraphCanvas *self)
{
  switch (keyval)
    {
    case GDK_KEY_plus:
    case GDK_KEY_equal:
    case GDK_KEY_KP_Add:
      cs_graph_canvas_zoom (self, ZOOM_STEP);
      return TRUE;
    case GDK_KEY_minus:
    case GDK_KEY_KP_Subtract:
      cs_graph_canvas_zoom (self, 1.0 / ZOOM_STEP);
      return TRUE;
    case GDK_KEY_0:
    case GDK_KEY_KP_0:
    case GDK_KEY_Home:
      cs_graph_canvas_reset_zoom (self);
      return TRUE;
    case GDK_KEY_Left:
      cs_graph_canvas_pan (self, -PAN_STEP);
      return TRUE;
    case GDK_KEY_Right:
      cs_graph_canvas_pan (self, PAN_STEP);
      return TRUE;
    default:
      return FALSE;
    }
}

/* GObject */

static void
cs_graph_canvas_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                         int *natural, int *minimum_baseline, int *natural_baseline)
{
  /* Narrow windows still show a graph; 160 px of height keeps one readable (win.graphs-visible
   * hides the strip when the ladder needs the room). */
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 200 : 160;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 640 : 200;
}

static void
cs_graph_canvas_finalize (GObject *object)
{
  CsGraphCanvas *self = CS_GRAPH_CANVAS (object);

  invalidate_scaled (self);
  g_clear_pointer (&self->legend, g_array_unref);
  g_clear_pointer (&self->graph, cs_graph_free);
  g_free (self->title);
  G_OBJECT_CLASS (cs_graph_canvas_parent_class)->finalize (object);
}

static void
cs_graph_canvas_class_init (CsGraphCanvasClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = cs_graph_canvas_finalize;
  widget_class->snapshot = cs_graph_canvas_snapshot;
  widget_class->measure = cs_graph_canvas_measure;
  widget_class->css_changed = cs_graph_canvas_css_changed;

  signals[SIGNAL_POINT_ACTIVATED]
      = g_signal_new ("point-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                      NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);
  signals[SIGNAL_VIEWPORT_CHANGED]
      = g_signal_new ("viewport-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                      NULL, NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_css_name (widget_class, "graph");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void range_drag_end (CsGraphCanvas *self);

static void
cs_graph_canvas_init (CsGraphCanvas *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkEventController *scroll = gtk_event_controller_scroll_new (
      GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES | GTK_EVENT_CONTROLLER_SCROLL_DISCRETE);
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *key = gtk_event_controller_key_new ();

  self->cursor_t = NAN;
  cs_graph_palette_init_light (&self->palette);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);

  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect_swapped (drag, "drag-end", G_CALLBACK (range_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  g_signal_connect (click, "released", G_CALLBACK (on_click_released), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  g_signal_connect (key, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), key);
}

/* ---- issue 21: every frame the graph names opens in the Packets page ---- */

guint32
cs_graph_canvas_frame_at (CsGraphCanvas *self, double x, double y)
{
  guint series, index;
  CsGraphRect area;
  double x01, y01;

  if (self->graph == NULL)
    return 0;
  if (find_point (self, x, y, &series, &index))
    return g_array_index (cs_graph_get_series (self->graph, series)->points, CsGraphPoint, index)
        .frame;
  /* a loss, late or finding marker: on the time axis, at the top, or its line through the plot */
  to_plot (self, x, y, &x01, &y01, &area);
  if (cs_graph_find_marker (self->graph, &self->viewport, x01, area.width, HIT_RADIUS_PX / 2,
                            &series, &index))
    return g_array_index (cs_graph_get_series (self->graph, series)->markers, CsGraphMarker, index)
        .frame;
  return 0;
}

gboolean
cs_graph_canvas_open_frame_at (CsGraphCanvas *self, double x, double y)
{
  guint32 frame = cs_graph_canvas_frame_at (self, x, y);

  if (frame == 0)
    return FALSE;
  return gtk_widget_activate_action (GTK_WIDGET (self), "win.show-frame", "u", frame);
}

gint64
cs_graph_canvas_time_at (CsGraphCanvas *self, double x)
{
  CsGraphRect area;
  double x01, y01;

  if (self->graph == NULL)
    return 0;
  to_plot (self, x, 0, &x01, &y01, &area);
  return self->graph->origin_ns
         + (gint64) llround (cs_graph_viewport_t (&self->viewport, CLAMP (x01, 0, 1)) * 1e9);
}

gboolean
cs_graph_canvas_show_range (CsGraphCanvas *self, double x0, double x1)
{
  gint64 from_ns = cs_graph_canvas_time_at (self, MIN (x0, x1));
  gint64 to_ns = cs_graph_canvas_time_at (self, MAX (x0, x1));

  if (self->graph == NULL || to_ns <= from_ns)
    return FALSE;
  return gtk_widget_activate_action (GTK_WIDGET (self), "win.show-time-range", "(xx)", from_ns,
                                     to_ns);
}

static void
range_drag_begin (CsGraphCanvas *self, GtkGestureDrag *gesture, double x)
{
  GdkModifierType state
      = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  self->range_dragging = (state & GDK_SHIFT_MASK) != 0 && self->graph != NULL;
  self->range_x0 = self->range_x1 = x;
}

static void
range_drag_end (CsGraphCanvas *self)
{
  if (!self->range_dragging)
    return;
  self->range_dragging = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (fabs (self->range_x1 - self->range_x0) >= 3)
    cs_graph_canvas_show_range (self, self->range_x0, self->range_x1);
}

static void
draw_range_band (CsGraphCanvas *self, cairo_t *cr, int height)
{
  if (!self->range_dragging)
    return;
  cairo_set_source_rgba (cr, self->palette.cursor.r, self->palette.cursor.g, self->palette.cursor.b,
                         0.18);
  cairo_rectangle (cr, MIN (self->range_x0, self->range_x1), 0,
                   fabs (self->range_x1 - self->range_x0), height);
  cairo_fill (cr);
}
