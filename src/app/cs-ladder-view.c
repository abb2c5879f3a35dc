/* cs-ladder-view.c — the ladder diagram widget: draws only the visible rows, keyboard and mouse
 * selection; put it in a GtkScrolledWindow (it is a GtkScrollable) */
#include "cs-ladder-view.h"

#include "cs-ladder-render.h"

struct _CsLadderView
{
  GtkWidget parent_instance;

  GtkAdjustment *hadjustment, *vadjustment;
  GtkScrollablePolicy hscroll_policy, vscroll_policy;

  CsLadderLayout *layout;
  CsLadderTimeMode time_mode;
  gint64 capture_ns; /* the capture's first packet, 0 when unknown */
  int selected_row;
  double last_snapshot_ms;
  guint last_drawn_rows;
};

static void cs_ladder_view_scrollable_init (GtkScrollableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (CsLadderView, cs_ladder_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE,
                                                      cs_ladder_view_scrollable_init))

enum
{
  PROP_0,
  PROP_SELECTED_ROW,
  PROP_TIME_MODE,
  N_PROPS,
  PROP_HADJUSTMENT = N_PROPS,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

static GParamSpec *properties[N_PROPS];

enum
{
  SIGNAL_MESSAGE_ACTIVATED,
  SIGNAL_FRAME_PICKED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* Theme colours */

static CsLadderColor
to_ladder_color (const GdkRGBA *rgba)
{
  CsLadderColor c = { rgba->red, rgba->green, rgba->blue, rgba->alpha };
  return c;
}

static void
lookup (GtkStyleContext *context, const char *name, CsLadderColor *out)
{
  GdkRGBA rgba;

  if (gtk_style_context_lookup_color (context, name, &rgba))
    *out = to_ladder_color (&rgba);
}

/* The fixed palettes give the status colours; the theme gives background, text, lines. */
static void
palette_from_theme (CsLadderView *self, CsLadderPalette *palette)
{
  GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (self));
  GdkRGBA fg, bg = { 1, 1, 1, 1 };
  gboolean dark;

  gtk_style_context_get_color (context, &fg);
  gtk_style_context_lookup_color (context, "theme_base_color", &bg);
  dark = 0.2126 * bg.red + 0.7152 * bg.green + 0.0722 * bg.blue < 0.5;
  if (dark)
    cs_ladder_palette_init_dark (palette);
  else
    cs_ladder_palette_init_light (palette);
  palette->background = to_ladder_color (&bg);
  palette->foreground = to_ladder_color (&fg);
  palette->secondary = palette->foreground;
  palette->secondary.alpha = 0.65;
  palette->lifeline = palette->foreground;
  palette->lifeline.alpha = 0.22;
  lookup (context, "theme_bg_color", &palette->header_background);
  lookup (context, "cs_ladder_selection_color", &palette->selection);
  lookup (context, "cs_good_color", &palette->good);
  lookup (context, "cs_degraded_color", &palette->degraded);
  lookup (context, "cs_bad_color", &palette->bad);
  lookup (context, "cs_ladder_success_color", &palette->success);
  lookup (context, "cs_ladder_client_error_color", &palette->client_error);
  lookup (context, "cs_ladder_server_error_color", &palette->server_error);
}

/* Scrolling */

static double
rows_viewport_height (CsLadderView *self)
{
  return MAX (0, gtk_widget_get_height (GTK_WIDGET (self)) - CS_LADDER_HEADER_HEIGHT);
}

static void
configure_adjustments (CsLadderView *self)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double height = rows_viewport_height (self);
  double content_w = self->layout != NULL ? self->layout->width : 0;
  double content_h = self->layout != NULL ? self->layout->rows_height + 12 : 0;

  if (self->hadjustment != NULL)
    gtk_adjustment_configure (
        self->hadjustment,
        CLAMP (gtk_adjustment_get_value (self->hadjustment), 0, MAX (0, content_w - width)), 0,
        MAX (content_w, width), 20, width * 0.9, width);
  if (self->vadjustment != NULL)
    gtk_adjustment_configure (
        self->vadjustment,
        CLAMP (gtk_adjustment_get_value (self->vadjustment), 0, MAX (0, content_h - height)), 0,
        MAX (content_h, height), CS_LADDER_ROW_HEIGHT, height * 0.9, height);
}

static void
on_adjustment_changed (GtkAdjustment *adjustment, CsLadderView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
set_adjustment (CsLadderView *self, GtkAdjustment **slot, GtkAdjustment *adjustment)
{
  if (*slot == adjustment && adjustment != NULL)
    return;
  if (*slot != NULL)
    {
      g_signal_handlers_disconnect_by_data (*slot, self);
      g_clear_object (slot);
    }
  if (adjustment == NULL)
    adjustment = gtk_adjustment_new (0, 0, 0, 0, 0, 0);
  *slot = g_object_ref_sink (adjustment);
  g_signal_connect (adjustment, "value-changed", G_CALLBACK (on_adjustment_changed), self);
  configure_adjustments (self);
}

static void
scroll_to_row (CsLadderView *self, int row)
{
  const CsLadderRow *r;
  double value, page;

  if (self->layout == NULL || row < 0 || (guint) row >= self->layout->rows->len
      || self->vadjustment == NULL)
    return;
  r = &g_array_index (self->layout->rows, CsLadderRow, row);
  value = gtk_adjustment_get_value (self->vadjustment);
  page = rows_viewport_height (self);
  /* Not allocated yet (page 0), or a row taller than the page: show the row's top. */
  if (r->y < value || r->height >= page)
    gtk_adjustment_set_value (self->vadjustment, r->y);
  else if (r->y + r->height > value + page)
    gtk_adjustment_set_value (self->vadjustment, r->y + r->height - page);
}

/* Drawing */

static void
cs_ladder_view_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  CsLadderView *self = CS_LADDER_VIEW (widget);
  double width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  double x_offset, y_offset;
  gint64 start = g_get_monotonic_time ();
  CsLadderPalette palette;
  guint first, end;
  cairo_t *cr;

  if (self->layout == NULL || width <= 0 || height <= 0)
    return;
  palette_from_theme (self, &palette);
  x_offset = self->hadjustment != NULL ? gtk_adjustment_get_value (self->hadjustment) : 0;
  y_offset = self->vadjustment != NULL ? gtk_adjustment_get_value (self->vadjustment) : 0;
  /* Only the rows inside the viewport: a 10,000-message dialog costs a screenful. */
  first = cs_ladder_layout_row_at (self->layout, y_offset);
  end = MIN (self->layout->rows->len,
             cs_ladder_layout_row_at (self->layout, y_offset + rows_viewport_height (self)) + 1);

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_set_source_rgba (cr, palette.background.red, palette.background.green,
                         palette.background.blue, 1);
  cairo_paint (cr);
  cairo_save (cr);
  cairo_rectangle (cr, 0, CS_LADDER_HEADER_HEIGHT, width, height - CS_LADDER_HEADER_HEIGHT);
  cairo_clip (cr);
  cairo_translate (cr, -x_offset, CS_LADDER_HEADER_HEIGHT - y_offset);
  cs_ladder_paint_rows (self->layout, &palette, cr, first, end, self->time_mode,
                        self->selected_row);
  cairo_restore (cr);
  /* The endpoint names stay on top while the rows scroll under them. */
  cairo_translate (cr, -x_offset, 0);
  cs_ladder_paint_header (self->layout, &palette, cr);
  cairo_destroy (cr);
  self->last_drawn_rows = end > first ? end - first : 0;
  self->last_snapshot_ms = (g_get_monotonic_time () - start) / 1000.0;
}

static void
cs_ladder_view_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  configure_adjustments (CS_LADDER_VIEW (widget));
}

static void
cs_ladder_view_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                        int *natural, int *minimum_baseline, int *natural_baseline)
{
  CsLadderView *self = CS_LADDER_VIEW (widget);

  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 200 : (int) CS_LADDER_HEADER_HEIGHT + 40;
  if (self->layout == NULL)
    *natural = *minimum;
  else if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *natural = (int) self->layout->width;
  else
    *natural = (int) (CS_LADDER_HEADER_HEIGHT + self->layout->rows_height);
}

/* Input */

static void
move_selection (CsLadderView *self, int direction, guint steps)
{
  int row = self->selected_row;

  if (self->layout == NULL || self->layout->rows->len == 0)
    return;
  if (row < 0)
    row = (int) cs_ladder_layout_next_message (self->layout, 0, -1);
  else
    for (guint i = 0; i < steps; i++)
      row = (int) cs_ladder_layout_next_message (self->layout, (guint) row, direction);
  cs_ladder_view_set_selected_row (self, row);
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller, guint keyval, guint keycode,
                GdkModifierType state, CsLadderView *self)
{
  guint page_rows = MAX (1, (guint) (rows_viewport_height (self) / CS_LADDER_ROW_HEIGHT) - 1);

  if (self->layout == NULL)
    return FALSE;
  switch (keyval)
    {
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
      move_selection (self, -1, 1);
      return TRUE;
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      move_selection (self, 1, 1);
      return TRUE;
    case GDK_KEY_Page_Up:
      move_selection (self, -1, page_rows);
      return TRUE;
    case GDK_KEY_Page_Down:
      move_selection (self, 1, page_rows);
      return TRUE;
    case GDK_KEY_Home:
      if (self->layout->rows->len > 0)
        cs_ladder_view_set_selected_row (
            self, g_array_index (self->layout->rows, CsLadderRow, 0).kind == CS_LADDER_ROW_MESSAGE
                      ? 0
                      : (int) cs_ladder_layout_next_message (self->layout, 0, 1));
      return TRUE;
    case GDK_KEY_End:
      if (self->layout->rows->len > 0)
        {
          guint last = self->layout->rows->len - 1;
          if (g_array_index (self->layout->rows, CsLadderRow, last).kind != CS_LADDER_ROW_MESSAGE)
            last = cs_ladder_layout_next_message (self->layout, last, -1);
          cs_ladder_view_set_selected_row (self, (int) last);
        }
      return TRUE;
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
    case GDK_KEY_ISO_Enter:
      if (cs_ladder_view_get_selected_message (self) != NULL)
        g_signal_emit (self, signals[SIGNAL_MESSAGE_ACTIVATED], 0);
      return TRUE;
    default:
      return FALSE;
    }
}

guint32
cs_ladder_view_frame_at (CsLadderView *self, double x, double y, int *row_out, gint64 *ts_ns,
                         gboolean *on_lane)
{
  double x_offset = self->hadjustment != NULL ? gtk_adjustment_get_value (self->hadjustment) : 0;
  double y_offset = self->vadjustment != NULL ? gtk_adjustment_get_value (self->vadjustment) : 0;
  double lx = x + x_offset, ly = y - CS_LADDER_HEADER_HEIGHT + y_offset;
  int lane;
  guint row;

  *row_out = -1;
  *on_lane = FALSE;
  if (self->layout == NULL || y < CS_LADDER_HEADER_HEIGHT)
    return 0;
  /* an RTP lane (with a few pixels of slack: it is 4 px wide): its packet at that time */
  lane = cs_ladder_layout_lane_at (self->layout, lx, ly, 4);
  if (lane >= 0)
    {
      const CsRtpPacket *packet = cs_ladder_layout_lane_packet (self->layout, (guint) lane, ly);

      if (packet != NULL)
        {
          *row_out = (int) g_array_index (self->layout->lanes, CsLadderLane, lane).row;
          *ts_ns = packet->arrival_ns;
          *on_lane = TRUE;
          return packet->frame;
        }
    }
  row = cs_ladder_layout_row_at (self->layout, ly);
  if (row >= self->layout->rows->len)
    return 0;
  *row_out = (int) row;
  *ts_ns = g_array_index (self->layout->rows, CsLadderRow, row).ts_ns;
  return g_array_index (self->layout->rows, CsLadderRow, row).frame;
}

void
cs_ladder_view_press_at (CsLadderView *self, int n_press, double x, double y)
{
  gint64 ts_ns = 0;
  int row;
  gboolean on_lane;
  guint32 frame = cs_ladder_view_frame_at (self, x, y, &row, &ts_ns, &on_lane);

  if (row < 0)
    return;
  /* a packet of a lane: the cursor goes to it, and the rows stay where they are (scrolling to
   * the stream's row would move the second click of a double click elsewhere) */
  if (on_lane)
    g_signal_emit (self, signals[SIGNAL_FRAME_PICKED], 0, frame, ts_ns,
                   g_array_index (self->layout->rows, CsLadderRow, row).stream);
  else
    cs_ladder_view_set_selected_row (self, row);
  /* a double click opens the frame in the Packets page (as everywhere a frame is named) */
  if (n_press == 2 && frame != 0)
    gtk_widget_activate_action (GTK_WIDGET (self), "win.show-frame", "u", frame);
}

static void
on_click_pressed (GtkGestureClick *gesture, int n_press, double x, double y, CsLadderView *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self));
  cs_ladder_view_press_at (self, n_press, x, y);
}

static gboolean
on_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                  CsLadderView *self)
{
  double y_offset = self->vadjustment != NULL ? gtk_adjustment_get_value (self->vadjustment) : 0;
  const CsLadderRow *r;
  guint row;
  g_autofree char *text = NULL;
  g_autofree char *utc = NULL;
  g_autofree char *since_capture = NULL;
  g_autofree char *since_call = NULL;

  if (self->layout == NULL || y < CS_LADDER_HEADER_HEIGHT)
    return FALSE;
  row = cs_ladder_layout_row_at (self->layout, y - CS_LADDER_HEADER_HEIGHT + y_offset);
  if (row >= self->layout->rows->len)
    return FALSE;
  r = &g_array_index (self->layout->rows, CsLadderRow, row);
  /* Every clock at once: the time column shows one of them, abridged. */
  utc = cs_ladder_layout_format_utc (self->layout, row);
  since_capture = cs_ladder_layout_format_time (self->layout, row, CS_LADDER_TIME_CAPTURE);
  since_call = cs_ladder_layout_format_time (self->layout, row, CS_LADDER_TIME_RELATIVE);
  if (r->message != NULL)
    text = g_strdup_printf ("%s\n%s\nFrame %u · %s s since capture start · %s s since call "
                            "start\n%s%s",
                            r->label, cs_sip_message_get_call_id (r->message), r->frame,
                            since_capture, since_call, utc,
                            r->retransmission ? "\nretransmission"
                            : r->sighting     ? "\nthe same message captured again"
                                              : "");
  else
    text = g_strdup_printf ("%s\n%s\n%s s since capture start · %s", r->label,
                            r->detail != NULL ? r->detail : "", since_capture, utc);
  gtk_tooltip_set_text (tooltip, g_strchomp (g_strchomp (text)));
  return TRUE;
}

/* API */

GtkWidget *
cs_ladder_view_new (void)
{
  return g_object_new (CS_TYPE_LADDER_VIEW, NULL);
}

void
cs_ladder_view_set_calls (CsLadderView *self, CsCall *const *calls, guint n_calls,
                          GListModel *streams)
{
  g_return_if_fail (CS_IS_LADDER_VIEW (self));

  g_clear_pointer (&self->layout, cs_ladder_layout_free);
  if (n_calls > 0)
    self->layout = cs_ladder_layout_new (calls, n_calls, streams);
  if (self->layout != NULL && self->capture_ns != 0)
    self->layout->capture_ns = self->capture_ns;
  self->selected_row = -1;
  if (self->vadjustment != NULL)
    gtk_adjustment_set_value (self->vadjustment, 0);
  if (self->hadjustment != NULL)
    gtk_adjustment_set_value (self->hadjustment, 0);
  configure_adjustments (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  if (self->layout != NULL && self->layout->rows->len > 0)
    cs_ladder_view_set_selected_row (self, 0);
  else
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ROW]);
}

void
cs_ladder_view_set_capture_start (CsLadderView *self, gint64 capture_ns)
{
  g_return_if_fail (CS_IS_LADDER_VIEW (self));

  self->capture_ns = capture_ns;
  if (self->layout != NULL)
    {
      self->layout->capture_ns = capture_ns != 0 ? capture_ns : self->layout->first_ns;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

const CsLadderLayout *
cs_ladder_view_get_layout (CsLadderView *self)
{
  g_return_val_if_fail (CS_IS_LADDER_VIEW (self), NULL);
  return self->layout;
}

void
cs_ladder_view_set_time_mode (CsLadderView *self, CsLadderTimeMode mode)
{
  g_return_if_fail (CS_IS_LADDER_VIEW (self));

  if (self->time_mode == mode)
    return;
  self->time_mode = mode;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME_MODE]);
}

CsLadderTimeMode
cs_ladder_view_get_time_mode (CsLadderView *self)
{
  g_return_val_if_fail (CS_IS_LADDER_VIEW (self), CS_LADDER_TIME_RELATIVE);
  return self->time_mode;
}

int
cs_ladder_view_get_selected_row (CsLadderView *self)
{
  g_return_val_if_fail (CS_IS_LADDER_VIEW (self), -1);
  return self->selected_row;
}

void
cs_ladder_view_set_selected_row (CsLadderView *self, int row)
{
  g_return_if_fail (CS_IS_LADDER_VIEW (self));

  if (self->layout == NULL || row < 0 || (guint) row >= self->layout->rows->len)
    row = -1;
  scroll_to_row (self, row);
  if (self->selected_row == row)
    return;
  self->selected_row = row;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ROW]);
}

CsSipMessage *
cs_ladder_view_get_selected_message (CsLadderView *self)
{
  g_return_val_if_fail (CS_IS_LADDER_VIEW (self), NULL);

  if (self->layout == NULL || self->selected_row < 0)
    return NULL;
  return g_array_index (self->layout->rows, CsLadderRow, self->selected_row).message;
}

double
cs_ladder_view_get_last_snapshot_ms (CsLadderView *self)
{
  return self->last_snapshot_ms;
}

guint
cs_ladder_view_get_last_drawn_rows (CsLadderView *self)
{
  return self->last_drawn_rows;
}

/* GObject */

static void
cs_ladder_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  CsLadderView *self = CS_LADDER_VIEW (object);

  switch (prop_id)
    {
    case PROP_SELECTED_ROW:
      g_value_set_int (value, self->selected_row);
      break;
    case PROP_TIME_MODE:
      g_value_set_int (value, self->time_mode);
      break;
    case PROP_HADJUSTMENT:
      g_value_set_object (value, self->hadjustment);
      break;
    case PROP_VADJUSTMENT:
      g_value_set_object (value, self->vadjustment);
      break;
    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;
    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_ladder_view_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  CsLadderView *self = CS_LADDER_VIEW (object);

  switch (prop_id)
    {
    case PROP_SELECTED_ROW:
      cs_ladder_view_set_selected_row (self, g_value_get_int (value));
      break;
    case PROP_TIME_MODE:
      cs_ladder_view_set_time_mode (self, g_value_get_int (value));
      break;
    case PROP_HADJUSTMENT:
      set_adjustment (self, &self->hadjustment, g_value_get_object (value));
      break;
    case PROP_VADJUSTMENT:
      set_adjustment (self, &self->vadjustment, g_value_get_object (value));
      break;
    case PROP_HSCROLL_POLICY:
      self->hscroll_policy = g_value_get_enum (value);
      gtk_widget_queue_resize (GTK_WIDGET (self));
      break;
    case PROP_VSCROLL_POLICY:
      self->vscroll_policy = g_value_get_enum (value);
      gtk_widget_queue_resize (GTK_WIDGET (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_ladder_view_dispose (GObject *object)
{
  CsLadderView *self = CS_LADDER_VIEW (object);

  if (self->hadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->hadjustment, self);
  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_data (self->vadjustment, self);
  g_clear_object (&self->hadjustment);
  g_clear_object (&self->vadjustment);
  g_clear_pointer (&self->layout, cs_ladder_layout_free);
  G_OBJECT_CLASS (cs_ladder_view_parent_class)->dispose (object);
}

static void
cs_ladder_view_scrollable_init (GtkScrollableInterface *iface)
{
}

static void
cs_ladder_view_class_init (CsLadderViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = cs_ladder_view_get_property;
  object_class->set_property = cs_ladder_view_set_property;
  object_class->dispose = cs_ladder_view_dispose;
  widget_class->snapshot = cs_ladder_view_snapshot;
  widget_class->size_allocate = cs_ladder_view_size_allocate;
  widget_class->measure = cs_ladder_view_measure;

  properties[PROP_SELECTED_ROW]
      = g_param_spec_int ("selected-row", NULL, NULL, -1, G_MAXINT, -1,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TIME_MODE]
      = g_param_spec_int ("time-mode", NULL, NULL, CS_LADDER_TIME_ABSOLUTE, CS_LADDER_TIME_DELTA,
                          CS_LADDER_TIME_RELATIVE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  signals[SIGNAL_MESSAGE_ACTIVATED]
      = g_signal_new ("message-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                      NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_FRAME_PICKED]
      = g_signal_new ("frame-picked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 3, G_TYPE_UINT, G_TYPE_INT64, CS_TYPE_STREAM);
  gtk_widget_class_set_css_name (widget_class, "ladder");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_LIST);
}

static void
cs_ladder_view_init (CsLadderView *self)
{
  GtkEventController *key = gtk_event_controller_key_new ();
  GtkGesture *click = gtk_gesture_click_new ();

  self->selected_row = -1;
  self->time_mode = CS_LADDER_TIME_CAPTURE;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  g_signal_connect (key, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), key);
  g_signal_connect (click, "pressed", G_CALLBACK (on_click_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), self);
}
