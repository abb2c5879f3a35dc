/* test-window-live.c — the window's live side: Listen for HEP through the Capture dialog, the
 * calls list filling from a real HEP stream on loopback, Pause, and Stop opening what was saved */
#include "ui-test-util.h"
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "cs-capture-dialog.h"
#include "cs-live-indicator.h"
#include "cs-window-private.h"

static CsApplication *application;

static GtkWindow *
find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels (); /* transfer none */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) window = g_list_model_get_item (toplevels, i);
      if (G_TYPE_CHECK_INSTANCE_TYPE (window, type))
        return window;
    }
  return NULL;
}

static CsLiveIndicator *
find_indicator (GtkWidget *widget)
{
  if (CS_IS_LIVE_INDICATOR (widget))
    return CS_LIVE_INDICATOR (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      CsLiveIndicator *found = find_indicator (child);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
wait_for_calls (CsWindow *window, guint n)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (g_list_model_get_n_items (cs_window_get_calls_model (window)) < n
         && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (g_list_model_get_n_items (cs_window_get_calls_model (window)), ==, n);
}

static void
assert_live_actions (CsWindow *window, gboolean running)
{
  g_assert_cmpint (ui_test_action_enabled (GTK_WIDGET (window), "win.live-capture"), ==, !running);
  g_assert_cmpint (ui_test_action_enabled (GTK_WIDGET (window), "win.hep-listen"), ==, !running);
  g_assert_cmpint (ui_test_action_enabled (GTK_WIDGET (window), "win.live-stop"), ==, running);
  g_assert_cmpint (ui_test_action_enabled (GTK_WIDGET (window), "win.live-pause"), ==, running);
}

/* sip-rtp-g711.pcap: tshark counts 10 SIP messages and 2 INVITEs (two calls). */
static void
test_hep_session (void)
{
  const char *samples = g_getenv ("CS_SAMPLES_DIR");
  g_autofree char *path
      = samples != NULL ? g_build_filename (samples, "sip-rtp-g711.pcap", NULL) : NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (CsHepSender) sender = NULL;
  CsCaptureRequest request
      = { .mode = CS_CAPTURE_MODE_HEP, .hep_address = "127.0.0.1:0", .hep_key = "" };
  CsWindow *window;
  GtkWindow *dialog;
  CsLiveIndicator *indicator;
  CsLiveSession *session;
  const char *title;
  guint port = 0;

  if (path == NULL || !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_test_skip ("sample capture not found (CS_SAMPLES_DIR)");
      return;
    }
  window = cs_window_new (application);
  gtk_window_present (GTK_WINDOW (window));
  ui_test_spin (100);
  assert_live_actions (window, FALSE);
  indicator = find_indicator (GTK_WIDGET (window));
  g_assert_nonnull (indicator);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (indicator)));

  /* Main menu → Listen for HEP…: the dialog's Start begins the session and closes it. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.hep-listen", NULL));
  ui_test_spin (100);
  dialog = find_toplevel (CS_TYPE_CAPTURE_DIALOG);
  g_assert_nonnull (dialog);
  g_signal_emit_by_name (dialog, "start", &request);
  ui_test_spin (100);
  g_assert_null (find_toplevel (CS_TYPE_CAPTURE_DIALOG));
  g_assert_true (cs_live_indicator_is_running (indicator));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (indicator)));
  assert_live_actions (window, TRUE);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_LOADED);
  /* The source names the window; the indicator's counters replace the status line. */
  title = cs_window_get_title_text (window);
  g_assert_true (g_str_has_prefix (title, "HEP on 127.0.0.1:"));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, title);
  port = (guint) g_ascii_strtoull (title + strlen ("HEP on 127.0.0.1:"), NULL, 10);
  g_assert_cmpuint (port, >, 0);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window->status_label)));

  sender = cs_hep_sender_new ("127.0.0.1", (guint16) port, FALSE, NULL, 1, &error);
  g_assert_no_error (error);
  g_assert_true (cs_hep_sender_replay_file (sender, path, 32, &error));
  g_assert_no_error (error);
  wait_for_calls (window, 2);
  g_assert_true (cs_calls_view_follows_new_rows (window->calls_view));

  /* Pause holds the calls list (the session keeps capturing); the toggle shows it. */
  session = cs_live_indicator_get_session (indicator);
  g_assert_false (cs_live_session_get_paused (session));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.live-pause", NULL));
  g_assert_true (cs_live_session_get_paused (session));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.live-pause", NULL));
  g_assert_false (cs_live_session_get_paused (session));

  /* Stop: the saved capture opens like any file, with the same calls and messages. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.live-stop", NULL));
  g_assert_false (cs_live_indicator_is_running (indicator));
  assert_live_actions (window, FALSE);
  g_assert_false (cs_calls_view_follows_new_rows (window->calls_view));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window->status_label)));
  ui_test_wait_for_load (window);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_LOADED);
  g_assert_cmpuint (g_list_model_get_n_items (cs_window_get_calls_model (window)), ==, 2);
  g_assert_cmpuint (cs_analysis_get_stats (window->analysis)->sip_messages, ==, 10);
  g_assert_true (g_str_has_prefix (cs_window_get_title_text (window), "live-"));

  /* A second session starts unpaused, from the Capture actions again. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.hep-listen", NULL));
  ui_test_spin (100);
  dialog = find_toplevel (CS_TYPE_CAPTURE_DIALOG);
  g_assert_nonnull (dialog);
  g_signal_emit_by_name (dialog, "start", &request);
  ui_test_spin (100);
  assert_live_actions (window, TRUE);
  g_assert_false (cs_live_session_get_paused (cs_live_indicator_get_session (indicator)));
  g_assert_cmpuint (g_list_model_get_n_items (cs_window_get_calls_model (window)), ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
  ui_test_spin (100);
}

int
main (int argc, char **argv)
{
  g_autofree char *cache = g_dir_make_tmp ("cs-ui-live-XXXXXX", NULL);
  g_autofree char *command = NULL;
  int status;

  /* Live captures are saved under the user cache directory: a private one. */
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  application = ui_test_init (&argc, &argv);
  if (application == NULL)
    return 0;
  g_test_add_func ("/window-live/hep-session", test_hep_session);
  status = g_test_run ();
  g_clear_object (&application);
  command = g_strdup_printf ("rm -rf '%s'", cache);
  if (system (command) != 0)
    g_printerr ("could not remove %s\n", cache);
  return status;
}
