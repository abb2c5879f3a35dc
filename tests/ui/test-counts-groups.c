/* Calls are INVITE dialogs, the other SIP exchanges are counted apart and can be hidden;
 * identical findings are one row that opens (issue 20). Expected values: the sample
 * sip-methods-mixed.pcap read with tshark (10 INVITE dialogs, 12 other exchanges: see
 * tests/golden/test-golden-samples-states.py) and the bench generator's parameters (N
 * answered calls without RTP: N "no media" findings of one text). PNGs for people to look
 * at go to CS_SHOTS_DIR (or the build dir). */
#include "ui-test-util.h"

#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <string.h>

#include "cs-application.h"
#include "cs-window-private.h"

#define LOAD_CALLS 300

static CsApplication *application;

static CsWindow *
open_file (const char *path, int width, int height)
{
  CsWindow *window = cs_window_new (application);
  g_autoptr (GFile) file = g_file_new_for_path (path);

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  cs_window_open_files (window, &file, 1);
  ui_test_wait_for_load (window);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_LOADED);
  ui_test_spin (300);
  return window;
}

static void
save_png (CsWindow *window, const char *name)
{
  const char *dir = g_getenv ("CS_SHOTS_DIR");
  int width = gtk_widget_get_width (GTK_WIDGET (window));
  int height = gtk_widget_get_height (GTK_WIDGET (window));
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (GTK_WIDGET (window));
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  g_autofree char *png = dir != NULL ? g_build_filename (dir, name, NULL)
                                     : g_test_build_filename (G_TEST_BUILT, name, NULL);

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  /* a list that just grew by hundreds of rows draws on a later frame */
  for (guint tries = 0; node == NULL && tries < 20; tries++)
    {
      ui_test_spin (100);
      snapshot = gtk_snapshot_new ();
      gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
      node = gtk_snapshot_free_to_node (snapshot);
    }
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_test_message ("%dx%d: %s", width, height, png);
}

static void
test_counts_and_toggle (void)
{
  const char *samples = g_getenv ("CS_SAMPLES_DIR");
  g_autofree char *path = NULL;
  CsWindow *window;
  GListModel *shown;

  path = samples != NULL ? g_build_filename (samples, "sip-methods-mixed.pcap", NULL) : NULL;
  if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("../shared/samples/sip-methods-mixed.pcap is missing");
      return;
    }
  window = open_file (path, 1280, 800);
  g_assert_nonnull (
      strstr (cs_window_get_title_text (window), "— 10 calls · 12 other SIP exchanges"));
  g_assert_nonnull (
      strstr (gtk_label_get_text (window->status_label), "119 packets · 10 calls · 12 other SIP"));

  shown = cs_calls_view_get_shown_model (window->calls_view);
  g_assert_true (cs_calls_view_get_show_other_exchanges (window->calls_view));
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 22);
  save_png (window, "calls-with-other-exchanges-1280.png");
  /* the column menu's toggle, as a click on it runs it */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window->calls_view),
                                             "calls.show-other-exchanges", NULL));
  ui_test_spin (100);
  g_assert_false (cs_calls_view_get_show_other_exchanges (window->calls_view));
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 10);
  for (guint i = 0; i < 10; i++)
    {
      g_autoptr (CsCall) call = g_list_model_get_item (shown, i);

      g_assert_true (cs_call_get_method (call) == CS_SIP_METHOD_INVITE);
    }
  /* remembered */
  g_assert_false (g_settings_get_boolean (cs_application_get_settings (application),
                                          "calls-show-other-exchanges"));
  save_png (window, "calls-without-other-exchanges-1280.png");
  gtk_stack_set_visible_child_name (window->view_stack, "summary");
  ui_test_spin (200);
  save_png (window, "summary-1280.png");
  cs_calls_view_set_show_other_exchanges (window->calls_view, TRUE);
  g_assert_true (g_settings_get_boolean (cs_application_get_settings (application),
                                         "calls-show-other-exchanges"));
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 22);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_findings_grouped (void)
{
  const char *generator = g_getenv ("CS_BENCH_GEN");
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *calls = g_strdup_printf ("%d", LOAD_CALLS);
  g_autoptr (GError) error = NULL;
  CsWindow *window;
  GListModel *rows;
  g_autoptr (CsFinding) first = NULL;
  int status = 0;

  if (generator == NULL)
    {
      g_test_skip ("CS_BENCH_GEN is not set");
      return;
    }
  dir = g_dir_make_tmp ("callscope-groups-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "load.pcap", NULL);
  {
    const char *argv[]
        = { generator, "--calls", calls, "--call-ids", "0", "--no-rtp", "-o", path, NULL };

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                                 NULL, NULL, &status, &error));
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
  }
  window = open_file (path, 1920, 1080);
  gtk_stack_set_visible_child_name (window->view_stack, "findings");
  ui_test_spin (200);
  /* every call: "no media" and "short call", each one text: two rows */
  rows = cs_findings_view_get_shown_model (window->findings_view);
  g_assert_cmpuint (g_list_model_get_n_items (cs_analysis_get_findings (window->analysis)), ==,
                    2 * LOAD_CALLS);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr (CsFinding) row = g_list_model_get_item (rows, i);

      g_assert_cmpuint (cs_findings_view_get_group_size (window->findings_view, row), ==,
                        LOAD_CALLS);
    }
  save_png (window, "findings-grouped-1920.png");
  first = g_list_model_get_item (rows, 0);
  g_assert_true (cs_findings_view_set_group_expanded (window->findings_view, first, TRUE));
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, LOAD_CALLS + 1);
  for (guint i = 0; i < LOAD_CALLS; i++)
    {
      g_autoptr (CsFinding) row = g_list_model_get_item (rows, i);

      g_assert_true (cs_finding_get_kind (row) == cs_finding_get_kind (first));
    }
  ui_test_spin (200);
  save_png (window, "findings-expanded-1920.png");
  g_assert_true (cs_findings_view_set_group_expanded (window->findings_view, first, FALSE));
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 2);
  gtk_window_destroy (GTK_WINDOW (window));
  g_remove (path);
  g_rmdir (dir);
}

int
main (int argc, char *argv[])
{
  int status;

  application = ui_test_init (&argc, &argv);
  if (application == NULL)
    return 0;
  g_test_add_func ("/counts-groups/counts-and-toggle", test_counts_and_toggle);
  g_test_add_func ("/counts-groups/findings-grouped", test_findings_grouped);
  status = g_test_run ();
  g_clear_object (&application);
  return status;
}
