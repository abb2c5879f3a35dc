/* cs-live-indicator.c — owns a live session and its source; shows rates, Pause and Stop */
#include "cs-live-indicator.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "callscope-engine.h"

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
cs_live_indicator_get_source (CsLiveIndicator *self)
{
  return gtk_label_get_text (self->source_label);
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
