/* cs-window-frames.c — every place that names a frame opens it in the Packets page (one gesture:
 * a double click, or Enter on a list row): win.show-frame(u) (0: the shared cursor's frame, also
 * Ctrl+Return), win.show-stream(u), win.show-finding-packets, win.show-time-range(xx);
 * and win.next-finding / win.previous-finding (F8 / Shift+F8) */
#include "cs-window-private.h"

static gboolean
has_capture (CsWindow *self)
{
  return self->analysis != NULL && cs_packets_view_get_rows (self->packets_view) != NULL;
}

static void
show_packets_page (CsWindow *self)
{
  gtk_stack_set_visible_child_name (self->view_stack, "packets");
}

void
cs_window_show_frame (CsWindow *self, guint32 frame)
{
  g_return_if_fail (CS_IS_WINDOW (self));
  if (frame == 0)
    frame = cs_selection_get_frame (self->selection);
  if (!has_capture (self) || frame == 0)
    return;
  cs_packets_view_show_frame (self->packets_view, frame);
  show_packets_page (self);
}

static void
show_frame_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  cs_window_show_frame (CS_WINDOW (widget), g_variant_get_uint32 (parameter));
}

/* A stream's packets (its id; 0: the cursor's stream): the cursor moves to the stream first. */
void
cs_window_show_stream (CsWindow *self, guint stream_id)
{
  CsStream *stream;

  g_return_if_fail (CS_IS_WINDOW (self));
  stream = stream_id != 0 && self->analysis != NULL
               ? cs_analysis_lookup_stream (self->analysis, stream_id)
               : cs_selection_get_stream (self->selection);
  if (!has_capture (self) || stream == NULL)
    return;
  if (stream != cs_selection_get_stream (self->selection))
    {
      CsCall *call
          = cs_stream_get_call_number (stream) != 0
                ? cs_analysis_lookup_call (self->analysis, cs_stream_get_call_number (stream))
                : NULL;

      cs_selection_select (
          self->selection, call != NULL ? call : cs_selection_get_call (self->selection), stream,
          cs_selection_get_frame (self->selection), cs_selection_get_time_ns (self->selection));
    }
  cs_packets_view_show_stream (self->packets_view);
  show_packets_page (self);
}

static void
show_stream_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  cs_window_show_stream (CS_WINDOW (widget), g_variant_get_uint32 (parameter));
}

/* The findings view has already scoped the page to the finding (finding-activated). */
static void
show_finding_packets_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  CsWindow *self = CS_WINDOW (widget);

  if (has_capture (self)
      && cs_packets_view_get_scope (self->packets_view) == CS_PACKETS_SCOPE_FINDING)
    show_packets_page (self);
}

/* (from_ns, to_ns): a range dragged on a graph. */
static void
show_time_range_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  CsWindow *self = CS_WINDOW (widget);
  gint64 from_ns, to_ns;

  g_variant_get (parameter, "(xx)", &from_ns, &to_ns);
  if (!has_capture (self) || from_ns == to_ns)
    return;
  cs_packets_view_show_time_range (self->packets_view, from_ns, to_ns);
  show_packets_page (self);
}

static void
step_finding_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  CsWindow *self = CS_WINDOW (widget);

  if (self->analysis != NULL)
    cs_findings_view_select_next (self->findings_view,
                                  g_str_equal (action_name, "win.previous-finding") ? -1 : 1);
}

void
cs_window_frames_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.show-frame", "u", show_frame_activated);
  gtk_widget_class_install_action (widget_class, "win.show-stream", "u", show_stream_activated);
  gtk_widget_class_install_action (widget_class, "win.show-finding-packets", NULL,
                                   show_finding_packets_activated);
  gtk_widget_class_install_action (widget_class, "win.show-time-range", "(xx)",
                                   show_time_range_activated);
  gtk_widget_class_install_action (widget_class, "win.next-finding", NULL, step_finding_activated);
  gtk_widget_class_install_action (widget_class, "win.previous-finding", NULL,
                                   step_finding_activated);
}
