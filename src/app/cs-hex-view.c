/* cs-hex-view.c — a hex dump of frame bytes, 16 per line, with one range highlighted */
#include "cs-hex-view.h"

#define BYTES_PER_LINE 16 /* as cs_hex_format lays them out */

struct _CsHexView
{
  GtkWidget parent_instance;
  gsize len; /* bytes shown */

  GtkWidget *scrolled;
  GtkTextView *text_view;
  GtkTextTag *highlight;
};

G_DEFINE_FINAL_TYPE (CsHexView, cs_hex_view, GTK_TYPE_WIDGET)

enum
{
  SIGNAL_BYTE_CLICKED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

GtkWidget *
cs_hex_view_new (void)
{
  return g_object_new (CS_TYPE_HEX_VIEW, NULL);
}

static void
highlight_range (CsHexView *self, GtkTextBuffer *buffer, gsize first, gsize last)
{
  gsize hex_a, ascii_a, hex_b, ascii_b;
  GtkTextIter a, b;

  cs_hex_format_position (first, &hex_a, &ascii_a);
  cs_hex_format_position (last, &hex_b, &ascii_b);
  gtk_text_buffer_get_iter_at_offset (buffer, &a, (int) hex_a);
  gtk_text_buffer_get_iter_at_offset (buffer, &b, (int) hex_b + 2);
  gtk_text_buffer_apply_tag (buffer, self->highlight, &a, &b);
  gtk_text_buffer_get_iter_at_offset (buffer, &a, (int) ascii_a);
  gtk_text_buffer_get_iter_at_offset (buffer, &b, (int) ascii_b + 1);
  gtk_text_buffer_apply_tag (buffer, self->highlight, &a, &b);
}

void
cs_hex_view_set_data (CsHexView *self, const guint8 *data, gsize len, gsize highlight_start,
                      gsize highlight_len)
{
  GtkTextBuffer *buffer;
  g_autofree char *text = NULL;

  g_return_if_fail (CS_IS_HEX_VIEW (self));

  buffer = gtk_text_view_get_buffer (self->text_view);
  self->len = data != NULL ? len : 0;
  text = data != NULL ? cs_hex_format (data, len) : g_strdup ("");
  gtk_text_buffer_set_text (buffer, text, -1);
  if (data == NULL || highlight_len == 0 || highlight_start >= len)
    return;
  highlight_len = MIN (highlight_len, len - highlight_start);
  /* Line by line: the hex and ASCII parts of a line are highlighted separately. */
  for (gsize first = highlight_start; first < highlight_start + highlight_len;)
    {
      gsize line_end = (first / BYTES_PER_LINE + 1) * BYTES_PER_LINE;
      gsize last = MIN (line_end, highlight_start + highlight_len) - 1;

      highlight_range (self, buffer, first, last);
      first = last + 1;
    }
}

char *
cs_hex_view_dup_text (CsHexView *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->text_view);
  GtkTextIter a, b;

  gtk_text_buffer_get_bounds (buffer, &a, &b);
  return gtk_text_buffer_get_text (buffer, &a, &b, FALSE);
}

static void
cs_hex_view_dispose (GObject *object)
{
  CsHexView *self = CS_HEX_VIEW (object);

  g_clear_pointer (&self->scrolled, gtk_widget_unparent);
  G_OBJECT_CLASS (cs_hex_view_parent_class)->dispose (object);
}

static void
cs_hex_view_class_init (CsHexViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cs_hex_view_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "hexview");
  /* A click on a byte's hex digits or character: its index in the bytes shown. */
  signals[SIGNAL_BYTE_CLICKED]
      = g_signal_new ("byte-clicked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
on_click_released (GtkGestureClick *gesture, int n_press, double x, double y, CsHexView *self)
{
  GtkTextIter iter;
  int bx, by;
  gssize byte;

  gtk_text_view_window_to_buffer_coords (self->text_view, GTK_TEXT_WINDOW_WIDGET, (int) x, (int) y,
                                         &bx, &by);
  if (!gtk_text_view_get_iter_at_location (self->text_view, &iter, bx, by))
    return;
  byte = cs_hex_format_byte_at ((gsize) gtk_text_iter_get_offset (&iter), self->len);
  if (byte >= 0)
    g_signal_emit (self, signals[SIGNAL_BYTE_CLICKED], 0, (guint) byte);
}

static void
cs_hex_view_init (CsHexView *self)
{
  GtkTextBuffer *buffer;

  self->scrolled = gtk_scrolled_window_new ();
  self->text_view = GTK_TEXT_VIEW (gtk_text_view_new ());
  gtk_text_view_set_editable (self->text_view, FALSE);
  gtk_text_view_set_monospace (self->text_view, TRUE);
  gtk_text_view_set_left_margin (self->text_view, 12);
  gtk_text_view_set_top_margin (self->text_view, 6);
  gtk_widget_add_css_class (GTK_WIDGET (self->text_view), "hex-dump");
  buffer = gtk_text_view_get_buffer (self->text_view);
  /* The highlight takes the theme's selection look through CSS (textview .highlight). */
  self->highlight = gtk_text_buffer_create_tag (buffer, "highlight", "weight", PANGO_WEIGHT_BOLD,
                                                "underline", PANGO_UNDERLINE_SINGLE, NULL);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled),
                                 GTK_WIDGET (self->text_view));
  {
    GtkGesture *click = gtk_gesture_click_new ();

    g_signal_connect (click, "released", G_CALLBACK (on_click_released), self);
    gtk_widget_add_controller (GTK_WIDGET (self->text_view), GTK_EVENT_CONTROLLER (click));
  }
  gtk_widget_set_parent (self->scrolled, GTK_WIDGET (self));
}
