/* cs-waveform-view.c — drawn with cairo in snapshot from a per-column
 * min/max envelope computed once per render and width */
#include "cs-waveform-view.h"

#include <glib/gi18n.h>
#include <math.h>

#define LANE_GAP 6.0
#define MARK_STRIP 5.0
#define LABEL_WIDTH 64.0

struct _CsWaveformView
{
  GtkWidget parent_instance;

  CsAudioRender *render;
  char *placeholder;
  gint64 cursor_ns;
  /* envelope: per channel, per column, min and max in −1..1 */
  float *envelope;
  int envelope_width;
};

G_DEFINE_FINAL_TYPE (CsWaveformView, cs_waveform_view, GTK_TYPE_WIDGET)

enum
{
  SIGNAL_SEEK,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static double
wave_left (void)
{
  return LABEL_WIDTH;
}

static void
invalidate_envelope (CsWaveformView *self)
{
  g_clear_pointer (&self->envelope, g_free);
  self->envelope_width = 0;
}

static void
compute_envelope (CsWaveformView *self, int columns)
{
  const CsAudioRender *r = self->render;
  gsize frames = cs_audio_render_get_n_frames (r);
  const gint16 *s = (const gint16 *) (gconstpointer) r->samples->data;

  invalidate_envelope (self);
  if (columns <= 0)
    return;
  self->envelope = g_new0 (float, (gsize) columns * r->channels * 2);
  self->envelope_width = columns;
  for (guint c = 0; c < r->channels; c++)
    for (int x = 0; x < columns; x++)
      {
        gsize from = (gsize) ((double) x / columns * frames);
        gsize to = MAX ((gsize) ((double) (x + 1) / columns * frames), from + 1);
        gint lo = 0, hi = 0;

        for (gsize i = from; i < MIN (to, frames); i++)
          {
            gint v = s[i * r->channels + c];

            lo = MIN (lo, v);
            hi = MAX (hi, v);
          }
        self->envelope[((gsize) c * columns + x) * 2] = lo / 32768.0f;
        self->envelope[((gsize) c * columns + x) * 2 + 1] = hi / 32768.0f;
      }
  /* Quiet speech would be a flat line: scale so the loudest part fills its lane. */
  {
    float peak = 1.0f / 32.0f; /* at most ×32, so hiss stays hiss */
    gsize n = (gsize) columns * r->channels * 2;

    for (gsize i = 0; i < n; i++)
      peak = MAX (peak, fabsf (self->envelope[i]));
    for (gsize i = 0; i < n; i++)
      self->envelope[i] /= peak;
  }
}

static GdkRGBA
named_color (GtkWidget *widget, const char *name, const GdkRGBA *fallback)
{
  GtkStyleContext *context = gtk_widget_get_style_context (widget);
  GdkRGBA rgba;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  if (!gtk_style_context_lookup_color (context, name, &rgba))
    rgba = *fallback;
  G_GNUC_END_IGNORE_DEPRECATIONS
  return rgba;
}

static double
x_of (CsWaveformView *self, gint64 t_ns, double width)
{
  double duration = cs_audio_render_get_duration_s (self->render);

  if (duration <= 0)
    return wave_left ();
  return wave_left () + (double) (t_ns - self->render->start_ns) / 1e9 / duration * width;
}

gint64
cs_waveform_view_time_at (CsWaveformView *self, double x)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self)) - wave_left ();
  double fraction;

  if (self->render == NULL || width <= 0)
    return 0;
  fraction = CLAMP ((x - wave_left ()) / width, 0.0, 1.0);
  return self->render->start_ns
         + (gint64) (fraction * cs_audio_render_get_duration_s (self->render) * 1e9);
}

static void
draw_text (GtkWidget *widget, cairo_t *cr, const char *text, double x, double y, gboolean small)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, text);

  if (small)
    {
      PangoAttrList *attrs = pango_attr_list_new ();

      pango_attr_list_insert (attrs, pango_attr_scale_new (PANGO_SCALE_SMALL));
      pango_layout_set_attributes (layout, attrs);
      pango_attr_list_unref (attrs);
    }
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

static void
draw_marks (CsWaveformView *self, cairo_t *cr, guint channel, double top, double height,
            double width, const GdkRGBA colors[])
{
  GtkWidget *widget = GTK_WIDGET (self);

  for (guint i = 0; i < self->render->marks->len; i++)
    {
      const CsAudioMark *m = &g_array_index (self->render->marks, CsAudioMark, i);
      double x0 = x_of (self, m->start_ns, width), x1 = x_of (self, m->end_ns, width);
      const GdkRGBA *c = &colors[m->kind];

      if (m->channel != channel)
        continue;
      x1 = MAX (x1, x0 + 2.0); /* a 20 ms loss on a long call is still visible */
      if (m->kind == CS_AUDIO_MARK_COMFORT_NOISE)
        {
          cairo_set_source_rgba (cr, c->red, c->green, c->blue, 0.12);
          cairo_rectangle (cr, x0, top, x1 - x0, height);
          cairo_fill (cr);
          continue;
        }
      /* The span itself, faintly, and a solid strip on top where it starts. */
      cairo_set_source_rgba (cr, c->red, c->green, c->blue, 0.18);
      cairo_rectangle (cr, x0, top, x1 - x0, height);
      cairo_fill (cr);
      gdk_cairo_set_source_rgba (cr, c);
      cairo_rectangle (cr, x0, top, x1 - x0, MARK_STRIP);
      cairo_fill (cr);
      if (m->kind == CS_AUDIO_MARK_DTMF)
        {
          char digit[2] = { m->digit, 0 };

          draw_text (widget, cr, digit, x0 + 2.0, top + MARK_STRIP, TRUE);
        }
    }
}

static void
cs_waveform_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  CsWaveformView *self = CS_WAVEFORM_VIEW (widget);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  static const GdkRGBA fallback_bad = { 0.8, 0.1, 0.1, 1 }, fallback_warn = { 0.9, 0.6, 0, 1 },
                       fallback_accent = { 0.2, 0.4, 0.9, 1 }, fallback_bg = { 1, 1, 1, 1 };
  GdkRGBA fg, bg, accent, colors[5];
  double width = w - wave_left ();
  guint lanes;
  cairo_t *cr;

  if (w <= 0 || h <= 0)
    return;
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  bg = named_color (widget, "cs_view_bg_color", &fallback_bg);
  accent = named_color (widget, "cs_accent_color", &fallback_accent);
  colors[CS_AUDIO_MARK_LOST] = named_color (widget, "cs_bad_color", &fallback_bad);
  colors[CS_AUDIO_MARK_LATE] = named_color (widget, "cs_degraded_color", &fallback_warn);
  colors[CS_AUDIO_MARK_DTMF] = accent;
  colors[CS_AUDIO_MARK_COMFORT_NOISE] = fg;
  colors[CS_AUDIO_MARK_UNDECODABLE] = fg;
  colors[CS_AUDIO_MARK_UNDECODABLE].alpha = 0.55;

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, w, h));
  gdk_cairo_set_source_rgba (cr, &bg);
  cairo_paint (cr);
  if (self->render == NULL || width <= 0)
    {
      PangoLayout *layout = gtk_widget_create_pango_layout (
          widget, self->placeholder != NULL ? self->placeholder : "");
      int tw, th;

      pango_layout_get_pixel_size (layout, &tw, &th);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.6);
      cairo_move_to (cr, (w - tw) / 2.0, (h - th) / 2.0);
      pango_cairo_show_layout (cr, layout);
      g_object_unref (layout);
      cairo_destroy (cr);
      return;
    }
  if (self->envelope_width != (int) width)
    compute_envelope (self, (int) width);

  lanes = self->render->channels;
  for (guint c = 0; c < lanes; c++)
    {
      double lane_h = (h - LANE_GAP * (lanes - 1)) / lanes;
      double top = c * (lane_h + LANE_GAP), mid = top + lane_h / 2.0;
      const char *label = lanes == 1 ? _ ("Audio") : c == 0 ? _ ("Caller") : _ ("Callee");

      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.7);
      draw_text (widget, cr, label, 6.0, mid - 8.0, TRUE);
      draw_marks (self, cr, c, top, lane_h, width, colors);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.15);
      cairo_rectangle (cr, wave_left (), mid - 0.5, width, 1.0);
      cairo_fill (cr);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.75);
      for (int x = 0; x < self->envelope_width; x++)
        {
          float lo = self->envelope[((gsize) c * self->envelope_width + x) * 2];
          float hi = self->envelope[((gsize) c * self->envelope_width + x) * 2 + 1];
          double y0 = mid - hi * (lane_h / 2.0 - 2.0), y1 = mid - lo * (lane_h / 2.0 - 2.0);

          cairo_rectangle (cr, wave_left () + x, y0, 1.0, MAX (y1 - y0, 1.0));
        }
      cairo_fill (cr);
    }
  if (self->cursor_ns != 0)
    {
      double x = x_of (self, self->cursor_ns, width);

      if (x >= wave_left () && x <= w)
        {
          gdk_cairo_set_source_rgba (cr, &accent);
          cairo_rectangle (cr, x - 1.0, 0, 2.0, h);
          cairo_fill (cr);
        }
    }
  cairo_destroy (cr);
}

static void
cs_waveform_view_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                          int *natural, int *minimum_baseline, int *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = 160;
  else
    {
      *minimum = 32;
      *natural = 40;
    }
}

const CsAudioMark *
cs_waveform_view_mark_at (CsWaveformView *self, double x, double y)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self)) - wave_left ();
  int h = gtk_widget_get_height (GTK_WIDGET (self));
  const CsAudioMark *found = NULL;
  guint lanes, channel;
  double lane_h;

  if (self->render == NULL || width <= 0 || h <= 0 || self->render->channels == 0)
    return NULL;
  /* the lane under the pointer, as the snapshot draws them */
  lanes = self->render->channels;
  lane_h = (h - LANE_GAP * (lanes - 1)) / lanes;
  channel = MIN ((guint) MAX (y, 0) / (guint) MAX (lane_h + LANE_GAP, 1), lanes - 1);
  for (guint i = 0; i < self->render->marks->len; i++)
    {
      const CsAudioMark *m = &g_array_index (self->render->marks, CsAudioMark, i);
      double x0 = x_of (self, m->start_ns, width), x1 = MAX (x_of (self, m->end_ns, width), x0 + 2);

      /* comfort noise shades long spans: a loss or a digit inside one wins */
      if (m->channel == channel && m->frame != 0 && x >= x0 - 3 && x <= x1 + 3
          && (found == NULL || found->kind == CS_AUDIO_MARK_COMFORT_NOISE))
        found = m;
    }
  return found;
}

/* A click seeks; a double click on a mark (loss, late, DTMF digit…) opens its frame in the
 * Packets page. */
static void
on_click (GtkGestureClick *gesture, int n_press, double x, double y, CsWaveformView *self)
{
  const CsAudioMark *mark;

  if (self->render == NULL)
    return;
  g_signal_emit (self, signals[SIGNAL_SEEK], 0, cs_waveform_view_time_at (self, x));
  if (n_press == 2 && (mark = cs_waveform_view_mark_at (self, x, y)) != NULL)
    gtk_widget_activate_action (GTK_WIDGET (self), "win.show-frame", "u", mark->frame);
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, CsWaveformView *self)
{
  double x0, y0;

  if (self->render == NULL || !gtk_gesture_drag_get_start_point (gesture, &x0, &y0))
    return;
  g_signal_emit (self, signals[SIGNAL_SEEK], 0, cs_waveform_view_time_at (self, x0 + dx));
}

void
cs_waveform_view_set_render (CsWaveformView *self, CsAudioRender *render)
{
  g_return_if_fail (CS_IS_WAVEFORM_VIEW (self));
  if (self->render == render)
    return;
  g_clear_pointer (&self->render, cs_audio_render_unref);
  self->render = render != NULL ? cs_audio_render_ref (render) : NULL;
  invalidate_envelope (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

CsAudioRender *
cs_waveform_view_get_render (CsWaveformView *self)
{
  return self->render;
}

void
cs_waveform_view_set_placeholder (CsWaveformView *self, const char *text)
{
  g_free (self->placeholder);
  self->placeholder = g_strdup (text);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
cs_waveform_view_set_cursor_ns (CsWaveformView *self, gint64 time_ns)
{
  if (self->cursor_ns == time_ns)
    return;
  self->cursor_ns = time_ns;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gint64
cs_waveform_view_get_cursor_ns (CsWaveformView *self)
{
  return self->cursor_ns;
}

static void
cs_waveform_view_finalize (GObject *object)
{
  CsWaveformView *self = CS_WAVEFORM_VIEW (object);

  g_clear_pointer (&self->render, cs_audio_render_unref);
  g_free (self->placeholder);
  invalidate_envelope (self);
  G_OBJECT_CLASS (cs_waveform_view_parent_class)->finalize (object);
}

static void
cs_waveform_view_class_init (CsWaveformViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = cs_waveform_view_finalize;
  widget_class->snapshot = cs_waveform_view_snapshot;
  widget_class->measure = cs_waveform_view_measure;
  signals[SIGNAL_SEEK] = g_signal_new ("seek", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                       NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT64);
  gtk_widget_class_set_css_name (widget_class, "waveform");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
cs_waveform_view_init (CsWaveformView *self)
{
  GtkGesture *click = gtk_gesture_click_new ();
  GtkGesture *drag = gtk_gesture_drag_new ();

  g_signal_connect (click, "pressed", G_CALLBACK (on_click), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_focusable (GTK_WIDGET (self), FALSE);
}

GtkWidget *
cs_waveform_view_new (void)
{
  return g_object_new (CS_TYPE_WAVEFORM_VIEW, NULL);
}
