/* cs-window-live.c — the window's live side: the Capture actions (win.live-capture,
 * win.hep-listen, win.live-stop, win.live-pause on "live-paused"), the status bar's live
 * indicator, the session's calls in the list while live, and the saved capture opened on Stop */
#include "cs-window-private.h"

#include "cs-capture-dialog.h"

static void
update_live_actions (CsWindow *self)
{
  gboolean running = cs_live_indicator_is_running (self->live_indicator);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.live-capture", !running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.hep-listen", !running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.live-stop", running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.live-pause", running);
}

static void
on_live_started (CsLiveIndicator *indicator, CsWindow *self)
{
  g_autofree char *title = g_strdup (cs_live_indicator_get_source (indicator));

  cs_window_forget_capture (self);
  /* A new session starts unpaused. */
  if (self->live_paused)
    {
      self->live_paused = FALSE;
      cs_window_notify (self, CS_WINDOW_PROP_LIVE_PAUSED);
    }
  cs_calls_view_set_calls (self->calls_view,
                           cs_live_session_get_calls (cs_live_indicator_get_session (indicator)));
  cs_calls_view_set_follow_new_rows (self->calls_view, TRUE);
  cs_window_set_state (self, CS_WINDOW_STATE_LOADED);
  gtk_label_set_text (self->title_label, title);
  gtk_window_set_title (GTK_WINDOW (self), title);
  /* The indicator's counters replace the file status line while live. */
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), FALSE);
  update_live_actions (self);
}

static void
on_live_stopped (CsLiveIndicator *indicator, const char *saved, CsWindow *self)
{
  update_live_actions (self);
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), TRUE);
  cs_calls_view_set_follow_new_rows (self->calls_view, FALSE);
  cs_calls_view_set_calls (self->calls_view, NULL);
  if (saved != NULL)
    {
      g_autoptr (GFile) file = g_file_new_for_path (saved);

      cs_window_open_files (self, &file, 1);
    }
}

static void
on_dialog_start (CsCaptureDialog *dialog, const CsCaptureRequest *request, CsWindow *self)
{
  g_autoptr (GError) error = NULL;
  gboolean ok;

  if (request->mode == CS_CAPTURE_MODE_HEP)
    ok = cs_live_indicator_start_hep (self->live_indicator, request->hep_address, request->hep_key,
                                      &error);
  else
    ok = cs_live_indicator_start_interface (self->live_indicator, request->interface,
                                            request->filter, request->promiscuous, request->snaplen,
                                            &error);
  if (!ok)
    {
      cs_capture_dialog_show_error (dialog, error->message);
      return;
    }
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
present_dialog (CsWindow *self, CsCaptureMode mode)
{
  CsCaptureDialog *dialog = cs_capture_dialog_new (GTK_WINDOW (self), mode);

  g_signal_connect_object (dialog, "start", G_CALLBACK (on_dialog_start), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
live_capture_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  present_dialog (CS_WINDOW (widget), CS_CAPTURE_MODE_INTERFACE);
}

static void
hep_listen_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  present_dialog (CS_WINDOW (widget), CS_CAPTURE_MODE_HEP);
}

static void
live_stop_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  cs_live_indicator_stop (CS_WINDOW (widget)->live_indicator);
}

void
cs_window_live_set_paused (CsWindow *self, gboolean paused)
{
  CsLiveSession *session = cs_live_indicator_get_session (self->live_indicator);

  if (self->live_paused == paused)
    return;
  self->live_paused = paused;
  if (session != NULL)
    cs_live_session_set_paused (session, paused);
  cs_window_notify (self, CS_WINDOW_PROP_LIVE_PAUSED);
}

void
cs_window_live_class_init (GtkWidgetClass *widget_class)
{
  g_type_ensure (CS_TYPE_LIVE_INDICATOR);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, live_indicator);
  gtk_widget_class_bind_template_callback (widget_class, on_live_started);
  gtk_widget_class_bind_template_callback (widget_class, on_live_stopped);
  gtk_widget_class_install_action (widget_class, "win.live-capture", NULL, live_capture_activated);
  gtk_widget_class_install_action (widget_class, "win.hep-listen", NULL, hep_listen_activated);
  gtk_widget_class_install_action (widget_class, "win.live-stop", NULL, live_stop_activated);
  /* A toggle: its state is "live-paused" (the indicator's Pause button shows it). */
  gtk_widget_class_install_property_action (widget_class, "win.live-pause", "live-paused");
}

void
cs_window_live_init (CsWindow *self)
{
  update_live_actions (self);
}
