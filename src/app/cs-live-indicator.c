/* cs-live-indicator.c — owns a live session and its source; shows rates; window glue */
#include "cs-live-indicator.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "cs-capture-dialog.h"
#include "callscope-engine.h"
#include "cs-window-private.h"

struct _CsLiveIndicator
{
  GtkBox parent_instance;

  GtkWidget *dot;
  GtkLabel *source_label;
  GtkLabel *counters_label;
  GtkWidget *pause_button;
  GtkWidget *stop_button;
  GtkWidget *dismiss_button;

  CsLiveSession *session;
  CsLivePcap *pcap;
  CsHepListener *listener;
  char *saved_path;
};

enum
{
  SIGNAL_STARTED,
  SIGNAL_STOPPED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (CsLiveIndicator, cs_live_indicator, GTK_TYPE_BOX)

static char *
format_count (guint64 value)
{
  return g_strdup_printf ("%'" G_GUINT64_FORMAT, value);
}

static void
update_counters (CsLiveIndicator *self)
{
  CsLiveCounters c;
  guint64 drops = 0;
  g_autoptr (GString) text = g_string_new (NULL);
  g_autofree char *packets = NULL, *messages = NULL, *calls = NULL, *dropped_text = NULL;

  if (self->session == NULL)
    return;
  cs_live_session_get_counters (self->session, &c);
  drops = c.queue_drops;
  if (self->pcap != NULL)
    {
      guint64 dropped = 0, if_dropped = 0;

      cs_live_pcap_get_stats (self->pcap, NULL, &dropped, &if_dropped);
      drops += dropped + if_dropped;
    }
  packets = format_count (c.packets);
  messages = format_count (c.sip_messages);
  calls = format_count (c.calls);
  dropped_text = format_count (drops);
  g_string_printf (text, _ ("%s packets (%.0f/s) · %s SIP (%.0f/s) · %s calls · %s dropped"),
                   packets, c.packets_per_second, messages, c.messages_per_second, calls,
                   dropped_text);
  if (self->listener != NULL)
    {
      CsHepCounters h;

      cs_hep_listener_get_counters (self->listener, &h);
      if (h.malformed + h.auth_failures > 0)
        {
          g_autofree char *bad = format_count (h.malformed + h.auth_failures);

          g_string_append_printf (text, _ (" · %s bad HEP"), bad);
        }
    }
  if (c.calls_evicted > 0)
    {
      g_autofree char *evicted = format_count (c.calls_evicted);

      g_string_append_printf (text, _ (" · %s old calls hidden"), evicted);
    }
  gtk_label_set_text (self->counters_label, text->str);
  if (drops > 0)
    gtk_widget_add_css_class (GTK_WIDGET (self->counters_label), "warning");
}

static void
on_session_updated (CsLiveSession *session, CsLiveIndicator *self)
{
  update_counters (self);
}

static void
on_dismiss_clicked (CsLiveIndicator *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

static char *
new_capture_path (GError **error)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "callscope", "live", NULL);
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *name = g_date_time_format (now, "live-%Y%m%d-%H%M%S.pcapng");

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), _ ("Cannot create %s: %s"),
                   dir, g_strerror (saved));
      return NULL;
    }
  return g_build_filename (dir, name, NULL);
}

static gboolean
open_session (CsLiveIndicator *self, GError **error)
{
  g_autofree char *path = new_capture_path (error);

  if (path == NULL)
    return FALSE;
  self->session = cs_live_session_new (path, 0, 0, error);
  if (self->session == NULL)
    return FALSE;
  g_free (self->saved_path);
  self->saved_path = g_steal_pointer (&path);
  g_signal_connect (self->session, "updated", G_CALLBACK (on_session_updated), self);
  return TRUE;
}

static void
show_running (CsLiveIndicator *self, const char *source)
{
  gtk_label_set_text (self->source_label, source);
  gtk_label_set_text (self->counters_label, _ ("Waiting for packets…"));
  gtk_widget_remove_css_class (GTK_WIDGET (self->counters_label), "warning");
  gtk_widget_set_visible (self->dot, TRUE);
  gtk_widget_set_visible (self->pause_button, TRUE);
  gtk_widget_set_visible (self->stop_button, TRUE);
  gtk_widget_set_visible (self->dismiss_button, FALSE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), self->saved_path);
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
  g_signal_emit (self, signals[SIGNAL_STARTED], 0);
}

/* The capture ended by itself (interface down, read error): data kept, reason shown. */
static void
on_pcap_end (CsLivePcap *pcap, const GError *error, gpointer user_data)
{
  CsLiveIndicator *self = user_data;
  g_autofree char *message = g_strdup (error != NULL ? error->message : NULL);

  cs_live_indicator_stop (self);
  if (message != NULL)
    {
      gtk_label_set_text (self->counters_label, message);
      gtk_widget_add_css_class (GTK_WIDGET (self->counters_label), "warning");
      gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
      gtk_widget_set_visible (self->dismiss_button, TRUE);
    }
}

gboolean
cs_live_indicator_start_interface (CsLiveIndicator *self, const char *interface, const char *filter,
                                   gboolean promiscuous, guint snaplen, GError **error)
{
  g_autofree char *source = NULL;

  g_return_val_if_fail (!cs_live_indicator_is_running (self), FALSE);
  self->pcap = cs_live_pcap_open (interface, filter, promiscuous, snaplen, error);
  if (self->pcap == NULL)
    return FALSE;
  if (!open_session (self, error))
    {
      g_clear_pointer (&self->pcap, cs_live_pcap_free);
      return FALSE;
    }
  cs_live_pcap_start (self->pcap, self->session, 0, NULL, NULL, on_pcap_end, self);
  source = filter != NULL && *filter != '\0'
               ? g_strdup_printf (_ ("Live on %s (%s)"), interface, filter)
               : g_strdup_printf (_ ("Live on %s"), interface);
  show_running (self, source);
  return TRUE;
}

gboolean
cs_live_indicator_start_hep (CsLiveIndicator *self, const char *listen, const char *auth_key,
                             GError **error)
{
  g_autofree char *address = NULL, *source = NULL;
  guint16 port;

  g_return_val_if_fail (!cs_live_indicator_is_running (self), FALSE);
  if (!cs_hep_parse_listen_address (listen, &address, &port, error))
    return FALSE;
  self->listener = cs_hep_listener_new (address, port, TRUE, TRUE, auth_key, error);
  if (self->listener == NULL)
    return FALSE;
  if (!open_session (self, error))
    {
      g_clear_pointer (&self->listener, cs_hep_listener_free);
      return FALSE;
    }
  cs_hep_listener_start (self->listener, self->session);
  source = g_strdup_printf (_ ("HEP on %s:%u"), address, cs_hep_listener_get_port (self->listener));
  show_running (self, source);
  return TRUE;
}

void
cs_live_indicator_stop (CsLiveIndicator *self)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *saved = NULL;

  if (!cs_live_indicator_is_running (self))
    return;
  if (self->pcap != NULL)
    cs_live_pcap_stop (self->pcap);
  if (self->listener != NULL)
    cs_hep_listener_stop (self->listener);
  if (cs_live_session_stop (self->session, &error))
    saved = g_strdup (self->saved_path);
  else
    g_warning ("Live capture: %s", error->message);
  update_counters (self);
  g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_pointer (&self->pcap, cs_live_pcap_free);
  g_clear_pointer (&self->listener, cs_hep_listener_free);
  g_clear_object (&self->session);
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
  g_signal_emit (self, signals[SIGNAL_STOPPED], 0, saved);
}

gboolean
cs_live_indicator_is_running (CsLiveIndicator *self)
{
  return self->session != NULL;
}

CsLiveSession *
cs_live_indicator_get_session (CsLiveIndicator *self)
{
  return self->session;
}

const char *
cs_live_indicator_get_text (CsLiveIndicator *self)
{
  return gtk_label_get_text (self->counters_label);
}

static void
cs_live_indicator_dispose (GObject *object)
{
  CsLiveIndicator *self = CS_LIVE_INDICATOR (object);

  if (self->pcap != NULL)
    cs_live_pcap_stop (self->pcap);
  if (self->listener != NULL)
    cs_hep_listener_stop (self->listener);
  if (self->session != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->session, self);
      cs_live_session_stop (self->session, NULL);
    }
  g_clear_pointer (&self->pcap, cs_live_pcap_free);
  g_clear_pointer (&self->listener, cs_hep_listener_free);
  g_clear_object (&self->session);
  g_clear_pointer (&self->saved_path, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), CS_TYPE_LIVE_INDICATOR);
  G_OBJECT_CLASS (cs_live_indicator_parent_class)->dispose (object);
}

static void
cs_live_indicator_class_init (CsLiveIndicatorClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = cs_live_indicator_dispose;
  signals[SIGNAL_STARTED] = g_signal_new ("started", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_STOPPED] = g_signal_new ("stopped", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/callscope/Callscope/ui/cs-live-indicator.ui");
  gtk_widget_class_bind_template_child (widget_class, CsLiveIndicator, dot);
  gtk_widget_class_bind_template_child (widget_class, CsLiveIndicator, source_label);
  gtk_widget_class_bind_template_child (widget_class, CsLiveIndicator, counters_label);
  gtk_widget_class_bind_template_child (widget_class, CsLiveIndicator, pause_button);
  gtk_widget_class_bind_template_child (widget_class, CsLiveIndicator, stop_button);
  gtk_widget_class_bind_template_child (widget_class, CsLiveIndicator, dismiss_button);
  gtk_widget_class_bind_template_callback (widget_class, on_dismiss_clicked);
}

static void
cs_live_indicator_init (CsLiveIndicator *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

CsLiveIndicator *
cs_live_indicator_new (void)
{
  return g_object_new (CS_TYPE_LIVE_INDICATOR, NULL);
}

/* ---- window glue ---- */

#define CS_LIVE_INDICATOR_KEY "cs-live-indicator"

static CsLiveIndicator *
window_indicator (CsWindow *window)
{
  return g_object_get_data (G_OBJECT (window), CS_LIVE_INDICATOR_KEY);
}

static void
set_enabled (CsWindow *window, const char *name, gboolean enabled)
{
  g_simple_action_set_enabled (
      G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (window), name)), enabled);
}

static void
update_actions (CsWindow *window)
{
  gboolean running = cs_live_indicator_is_running (window_indicator (window));

  set_enabled (window, "live-capture", !running);
  set_enabled (window, "hep-listen", !running);
  set_enabled (window, "live-stop", running);
  set_enabled (window, "live-pause", running);
}

static void
on_indicator_started (CsLiveIndicator *indicator, CsWindow *window)
{
  g_autofree char *title = g_strdup (gtk_label_get_text (indicator->source_label));
  GAction *pause = g_action_map_lookup_action (G_ACTION_MAP (window), "live-pause");

  cs_window_forget_capture (window);
  g_simple_action_set_state (G_SIMPLE_ACTION (pause), g_variant_new_boolean (FALSE));
  cs_calls_view_set_calls (window->calls_view,
                           cs_live_session_get_calls (cs_live_indicator_get_session (indicator)));
  cs_calls_view_set_follow_new_rows (window->calls_view, TRUE);
  cs_window_set_state (window, CS_WINDOW_STATE_LOADED);
  gtk_label_set_text (window->title_label, title);
  gtk_window_set_title (GTK_WINDOW (window), title);
  /* The indicator's counters replace the file status line while live. */
  gtk_widget_set_visible (GTK_WIDGET (window->status_label), FALSE);
  update_actions (window);
}

static void
on_indicator_stopped (CsLiveIndicator *indicator, const char *saved, CsWindow *window)
{
  update_actions (window);
  gtk_widget_set_visible (GTK_WIDGET (window->status_label), TRUE);
  cs_calls_view_set_follow_new_rows (window->calls_view, FALSE);
  cs_calls_view_set_calls (window->calls_view, NULL);
  if (saved != NULL)
    {
      g_autoptr (GFile) file = g_file_new_for_path (saved);

      cs_window_open_files (window, &file, 1);
    }
}

static void
on_dialog_start (CsCaptureDialog *dialog, const CsCaptureRequest *request, CsWindow *window)
{
  CsLiveIndicator *indicator = window_indicator (window);
  g_autoptr (GError) error = NULL;
  gboolean ok;

  if (request->mode == CS_CAPTURE_MODE_HEP)
    ok = cs_live_indicator_start_hep (indicator, request->hep_address, request->hep_key, &error);
  else
    ok = cs_live_indicator_start_interface (indicator, request->interface, request->filter,
                                            request->promiscuous, request->snaplen, &error);
  if (!ok)
    {
      cs_capture_dialog_show_error (dialog, error->message);
      return;
    }
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
present_dialog (CsWindow *window, CsCaptureMode mode)
{
  CsCaptureDialog *dialog = cs_capture_dialog_new (GTK_WINDOW (window), mode);

  g_signal_connect_object (dialog, "start", G_CALLBACK (on_dialog_start), window, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
live_capture_activated (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  present_dialog (user_data, CS_CAPTURE_MODE_INTERFACE);
}

static void
hep_listen_activated (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  present_dialog (user_data, CS_CAPTURE_MODE_HEP);
}

static void
live_stop_activated (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  cs_live_indicator_stop (window_indicator (user_data));
}

static void
live_pause_changed (GSimpleAction *action, GVariant *state, gpointer user_data)
{
  CsLiveSession *session = cs_live_indicator_get_session (window_indicator (user_data));

  g_simple_action_set_state (action, state);
  if (session != NULL)
    cs_live_session_set_paused (session, g_variant_get_boolean (state));
}

static const GActionEntry live_actions[] = {
  { "live-capture", live_capture_activated, NULL, NULL, NULL },
  { "hep-listen", hep_listen_activated, NULL, NULL, NULL },
  { "live-stop", live_stop_activated, NULL, NULL, NULL },
  { "live-pause", NULL, NULL, "false", live_pause_changed },
};

void
cs_live_indicator_install (CsWindow *window)
{
  CsLiveIndicator *indicator = cs_live_indicator_new ();

  g_object_set_data (G_OBJECT (window), CS_LIVE_INDICATOR_KEY, indicator);
  gtk_box_prepend (GTK_BOX (window->statusbar), GTK_WIDGET (indicator));
  g_action_map_add_action_entries (G_ACTION_MAP (window), live_actions, G_N_ELEMENTS (live_actions),
                                   window);
  g_signal_connect (indicator, "started", G_CALLBACK (on_indicator_started), window);
  g_signal_connect (indicator, "stopped", G_CALLBACK (on_indicator_stopped), window);
  update_actions (window);
}
