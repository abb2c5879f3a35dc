/* test-window.c — the GTK window on real loads: loaded, cancelled, failed, rendered */
#include "ui-test-util.h"
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <locale.h>
#include <string.h>

#include "cs-application.h"
#include "cs-config.h"
#include "cs-display-format.h"
#include "cs-export-dialog.h"
#include "cs-recent-files.h"
#include "cs-window-private.h"

static CsApplication *application;

/* Lets pending idles and callbacks run for a while. */
static CsWindow *
open_in_new_window (const char *path)
{
  CsWindow *window = cs_window_new (application);
  g_autoptr (GFile) file = g_file_new_for_path (path);

  cs_window_open_files (window, &file, 1);
  return window;
}

static void
test_load_demo (void)
{
  const char *path = ui_test_demo_capture_path ();
  g_autofree char *basename = NULL;
  g_autofree char *calls_text = NULL;
  CsWindow *window;
  guint n_calls, n_invite = 0;

  if (path == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  window = open_in_new_window (path);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_LOADING);
  ui_test_wait_for_load (window);

  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_LOADED);
  n_calls = g_list_model_get_n_items (cs_window_get_calls_model (window));
  g_assert_cmpuint (n_calls, >, 0);
  for (guint i = 0; i < n_calls; i++)
    {
      g_autoptr (GObject) item = g_list_model_get_item (cs_window_get_calls_model (window), i);
      g_assert_true (CS_IS_CALL (item));
      n_invite += cs_call_get_method (CS_CALL (item)) == CS_SIP_METHOD_INVITE;
    }

  /* the title counts the INVITE dialogs as calls, the rest apart */
  basename = g_path_get_basename (path);
  if (n_invite == n_calls)
    calls_text = g_strdup_printf ("— %u calls", n_invite);
  else
    calls_text
        = g_strdup_printf ("— %u calls · %u other SIP exchange", n_invite, n_calls - n_invite);
  g_assert_nonnull (strstr (cs_window_get_title_text (window), basename));
  g_assert_nonnull (strstr (cs_window_get_title_text (window), calls_text));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==,
                   cs_window_get_title_text (window));

  /* The file is now the newest recent file, in GSettings and in the menu. */
  {
    GSettings *settings = cs_application_get_settings (application);
    g_autoptr (GFile) file = g_file_new_for_path (path);
    g_autofree char *uri = g_file_get_uri (file);
    g_autoptr (GVariant) target = NULL;
    GMenuModel *recent = cs_application_get_recent_menu (application);

    g_assert_nonnull (settings);
    {
      g_auto (GStrv) recent_uris = g_settings_get_strv (settings, "recent-files");
      g_assert_cmpstr (recent_uris[0], ==, uri);
    }
    g_assert_cmpint (g_menu_model_get_n_items (recent), >=, 1);
    target = g_menu_model_get_item_attribute_value (recent, 0, "target", G_VARIANT_TYPE_STRING);
    g_assert_cmpstr (g_variant_get_string (target, NULL), ==, uri);
    g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (window->recent_button)));
  }

  /* The filter hides every call when nothing matches, and shows them again. */
  cs_calls_view_set_filter_text (window->calls_view, "no-such-party-\xe2\x9c\x93");
  g_assert_cmpuint (g_list_model_get_n_items (cs_window_get_calls_model (window)), ==, 0);
  cs_calls_view_set_filter_text (window->calls_view, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (cs_window_get_calls_model (window)), ==, n_calls);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_cancel_load (void)
{
  const char *path = ui_test_demo_capture_path ();
  CsWindow *window;

  if (path == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  window = open_in_new_window (path);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_LOADING);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.cancel-load", NULL));
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_EMPTY);
  g_assert_false (ui_test_action_enabled (GTK_WIDGET (window), "win.cancel-load"));

  /* The cancelled load finishing later must not bring anything back. */
  ui_test_spin (500);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_EMPTY);
  g_assert_cmpuint (g_list_model_get_n_items (cs_window_get_calls_model (window)), ==, 0);
  g_assert_cmpstr (cs_window_get_title_text (window), ==, "Callscope");

  /* And the window can load again afterwards. */
  {
    g_autoptr (GFile) file = g_file_new_for_path (path);
    cs_window_open_files (window, &file, 1);
  }
  ui_test_wait_for_load (window);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_LOADED);
  g_assert_cmpuint (g_list_model_get_n_items (cs_window_get_calls_model (window)), >, 0);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_not_a_capture (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("callscope-ui-XXXXXX", &error);
  g_autofree char *path = NULL;
  guint8 garbage[4096];
  GRand *rand = g_rand_new_with_seed (42);
  CsWindow *window;

  g_assert_no_error (error);
  for (gsize i = 0; i < sizeof garbage; i++)
    garbage[i] = (guint8) g_rand_int_range (rand, 0, 256);
  g_rand_free (rand);
  path = g_build_filename (dir, "holiday-photos.pcap", NULL);
  g_file_set_contents (path, (const char *) garbage, sizeof garbage, &error);
  g_assert_no_error (error);

  window = open_in_new_window (path);
  ui_test_wait_for_load (window);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_ERROR);
  g_assert_nonnull (cs_window_get_error_message (window));
  g_assert_nonnull (strstr (cs_window_get_error_message (window), "holiday-photos.pcap"));
  g_assert_cmpuint (g_list_model_get_n_items (cs_window_get_calls_model (window)), ==, 0);

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_damaged_capture (void)
{
  const char *path = ui_test_demo_capture_path ();
  g_autoptr (GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *truncated = NULL;
  gsize length = 0;
  CsWindow *window;

  if (path == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  g_file_get_contents (path, &contents, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (length, >, 1000);
  dir = g_dir_make_tmp ("callscope-ui-XXXXXX", &error);
  g_assert_no_error (error);
  /* Cutting the last record short is damage the engine reads around. */
  truncated = g_build_filename (dir, "cut-short.pcapng", NULL);
  g_file_set_contents (truncated, contents, (gssize) (length - 7), &error);
  g_assert_no_error (error);

  window = open_in_new_window (truncated);
  ui_test_wait_for_load (window);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_LOADED);
  g_assert_cmpuint (g_list_model_get_n_items (cs_window_get_calls_model (window)), >, 0);
  g_assert_true (gtk_revealer_get_reveal_child (window->damage_revealer));
  g_assert_nonnull (strstr (gtk_label_get_text (window->damage_label), "cut-short.pcapng"));

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (truncated);
  g_rmdir (dir);
}

static double
luminance_variance (GdkTexture *texture, guint *n_distinct)
{
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  gsize stride = (gsize) width * 4;
  g_autofree guint8 *pixels = g_malloc (stride * (gsize) height);
  g_autoptr (GHashTable) colours = g_hash_table_new (NULL, NULL);
  double sum = 0, sum_sq = 0;
  double n = (double) width * height;

  gdk_texture_download (texture, pixels, stride);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        const guint8 *p = pixels + (gsize) y * stride + (gsize) x * 4;
        double l = 0.2126 * p[2] + 0.7152 * p[1] + 0.0722 * p[0]; /* BGRA */

        sum += l;
        sum_sq += l * l;
        if (g_hash_table_size (colours) < 1000)
          g_hash_table_add (colours, GUINT_TO_POINTER (p[0] | p[1] << 8 | p[2] << 16));
      }
  *n_distinct = g_hash_table_size (colours);
  return sum_sq / n - (sum / n) * (sum / n);
}

/* Renders the window in-process, as the cairo renderer draws it, and saves a PNG
 * in the build dir (for people to look at). */
static GdkTexture *
render_window (gpointer window, const char *png_name)
{
  int width = gtk_widget_get_width (GTK_WIDGET (window));
  int height = gtk_widget_get_height (GTK_WIDGET (window));
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (GTK_WIDGET (window));
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autofree char *png = g_test_build_filename (G_TEST_BUILT, png_name, NULL);
  GskRenderer *renderer;
  GdkTexture *texture;

  g_assert_cmpint (width, >, 100);
  g_assert_cmpint (height, >, 100);
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  renderer = gtk_native_get_renderer (GTK_NATIVE (window));
  g_assert_nonnull (renderer);
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  g_assert_nonnull (texture);
  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_assert_true (g_file_test (png, G_FILE_TEST_IS_REGULAR));
  g_test_message ("rendered %dx%d to %s", width, height, png);
  return texture;
}

static void
test_render_png (void)
{
  const char *path = ui_test_demo_capture_path ();
  g_autoptr (GdkTexture) texture = NULL;
  g_autoptr (GdkTexture) summary = NULL;
  g_autoptr (GdkTexture) dark = NULL;
  CsWindow *window;
  guint n_distinct = 0;
  double variance;

  if (path == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  window = open_in_new_window (path);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  ui_test_wait_for_load (window);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_LOADED);
  ui_test_spin (300); /* map, lay out, draw */

  texture = render_window (window, "window-loaded.png");
  variance = luminance_variance (texture, &n_distinct);
  g_test_message ("luminance variance %.1f, %u colours", variance, n_distinct);
  g_assert_cmpfloat (variance, >, 50.0);
  g_assert_cmpuint (n_distinct, >, 16);

  /* The summary and the dark style are rendered for people to look at. */
  gtk_stack_set_visible_child_name (window->view_stack, "summary");
  ui_test_spin (200);
  summary = render_window (window, "window-summary.png");
  variance = luminance_variance (summary, &n_distinct);
  g_assert_cmpfloat (variance, >, 50.0);

  gtk_stack_set_visible_child_name (window->view_stack, "calls");
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE, NULL);
  ui_test_spin (200);
  dark = render_window (window, "window-loaded-dark.png");
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", FALSE, NULL);
  variance = luminance_variance (dark, &n_distinct);
  g_assert_cmpfloat (variance, >, 50.0);

  gtk_window_destroy (GTK_WINDOW (window));
}

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

static CsAnalysis *
view_analysis (gpointer view)
{
  CsAnalysis *analysis = NULL;

  g_object_get (view, "analysis", &analysis, NULL);
  if (analysis != NULL)
    g_object_unref (analysis); /* the view keeps it */
  return analysis;
}

/* While the calls fill in, only the calls list, the ladder and the detail pane have the
 * analysis; the views of the whole capture get it once every call is in. */
static void
on_window_analysis (CsWindow *window, GParamSpec *pspec, guint *seen)
{
  CsAnalysis *loaded = NULL;

  if (window->analysis == NULL)
    return;
  (*seen)++;
  g_object_get (window, "loaded-analysis", &loaded, NULL);
  g_assert_null (loaded);
  g_assert_true (view_analysis (window->calls_view) == window->analysis);
  g_assert_true (view_analysis (window->ladder_pane) == window->analysis);
  g_assert_true (view_analysis (window->detail_pane) == window->analysis);
  g_assert_null (view_analysis (window->summary_view));
  g_assert_null (view_analysis (window->streams_view));
  g_assert_null (view_analysis (window->player_bar));
}

/* The views follow the window's "analysis", "loaded-analysis" and "selection" (bound in
 * cs-window.ui), and let go of the capture with it. */
static void
test_views_follow_window (void)
{
  const char *path = ui_test_demo_capture_path ();
  gpointer views[] = { NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL };
  gpointer cursor_views[4];
  CsSelection *selection = NULL;
  CsWindow *window;
  guint seen = 0;

  if (path == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  window = cs_window_new (application);
  g_signal_connect (window, "notify::analysis", G_CALLBACK (on_window_analysis), &seen);
  views[0] = window->calls_view, views[1] = window->ladder_pane, views[2] = window->detail_pane;
  views[3] = window->summary_view, views[4] = window->load_view, views[5] = window->streams_view;
  views[6] = window->findings_view, views[7] = window->graph_view, views[8] = window->player_bar;
  cursor_views[0] = window->streams_view, cursor_views[1] = window->findings_view;
  cursor_views[2] = window->graph_view, cursor_views[3] = window->player_bar;
  g_object_get (window, "selection", &selection, NULL);
  g_assert_true (CS_IS_SELECTION (selection));
  for (guint i = 0; i < G_N_ELEMENTS (cursor_views); i++)
    {
      CsSelection *followed = NULL;

      g_object_get (cursor_views[i], "selection", &followed, NULL);
      g_assert_true (followed == selection);
      g_object_unref (followed);
    }
  g_object_unref (selection);

  {
    g_autoptr (GFile) file = g_file_new_for_path (path);

    cs_window_open_files (window, &file, 1);
  }
  ui_test_wait_for_load (window);
  g_assert_cmpuint (seen, ==, 1);
  g_assert_nonnull (window->analysis);
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    g_assert_true (view_analysis (views[i]) == window->analysis);

  /* A file that cannot be read: every view lets go of the old capture. */
  {
    g_autoptr (GFile) missing = g_file_new_for_path ("/nonexistent/no-such-capture.pcap");

    cs_window_open_files (window, &missing, 1);
  }
  ui_test_wait_for_load (window);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_ERROR);
  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    g_assert_null (view_analysis (views[i]));
  g_signal_handlers_disconnect_by_func (window, on_window_analysis, &seen);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The application's accelerators reach the window's actions, and only while they apply: Escape
 * cancels a load, Ctrl+F goes to the filter once a capture is shown, Ctrl+O asks for files; the
 * header bar's buttons and menu items follow the same enabled states. */
static void
test_accels (void)
{
  static const char *const class_actions[]
      = { "win.open",        "win.export",     "win.cancel-load",  "win.focus-search",
          "win.hide-damage", "win.play-pause", "win.live-capture", "win.hep-listen",
          "win.live-stop",   "win.live-pause" };
  const char *path = ui_test_demo_capture_path ();
  g_autoptr (GFile) file = NULL;
  CsWindow *window;
  GtkWidget *focus;
  GtkWindow *chooser, *exporter;

  if (path == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  window = cs_window_new (application);
  gtk_window_present (GTK_WINDOW (window));
  ui_test_spin (100);
  /* Every window action is the class's (none is added per window). */
  for (guint i = 0; i < G_N_ELEMENTS (class_actions); i++)
    {
      gboolean found = FALSE;
      const char *name = NULL, *property = NULL;
      const GVariantType *parameter = NULL;
      GType owner = G_TYPE_INVALID;

      /* GTK 4.8 writes every out argument. */
      for (guint j = 0; !found
                        && gtk_widget_class_query_action (GTK_WIDGET_GET_CLASS (window), j, &owner,
                                                          &name, &parameter, &property);
           j++)
        found = g_strcmp0 (name, class_actions[i]) == 0;
      g_assert_true (found);
      g_assert_false (g_action_group_has_action (G_ACTION_GROUP (window), class_actions[i] + 4));
    }
  /* Nothing shown: no filter to focus, nothing to export or cancel. */
  g_assert_false (ui_test_activate_accel (GTK_WIDGET (window), "<Primary>f"));
  g_assert_false (ui_test_activate_accel (GTK_WIDGET (window), "Escape"));
  g_assert_false (ui_test_action_enabled (GTK_WIDGET (window), "win.export"));
  g_assert_false (ui_test_action_enabled (GTK_WIDGET (window), "win.cancel-load"));
  g_assert_true (ui_test_action_enabled (GTK_WIDGET (window), "win.open"));

  file = g_file_new_for_path (path);
  cs_window_open_files (window, &file, 1);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_LOADING);
  g_assert_true (ui_test_action_enabled (GTK_WIDGET (window), "win.cancel-load"));
  g_assert_true (ui_test_activate_accel (GTK_WIDGET (window), "Escape"));
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_EMPTY);

  cs_window_open_files (window, &file, 1);
  ui_test_wait_for_load (window);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_LOADED);
  g_assert_false (ui_test_activate_accel (GTK_WIDGET (window), "Escape"));
  g_assert_true (ui_test_action_enabled (GTK_WIDGET (window), "win.export"));
  gtk_stack_set_visible_child_name (window->view_stack, "streams");
  g_assert_true (ui_test_activate_accel (GTK_WIDGET (window), "<Primary>f"));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->view_stack), ==, "calls");
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_nonnull (focus);
  g_assert_true (focus == GTK_WIDGET (window->search_entry)
                 || gtk_widget_is_ancestor (focus, GTK_WIDGET (window->search_entry)));

  /* Ctrl+O: the file chooser (GTK's own dialog without a portal); cancelling it changes
   * nothing. */
  g_assert_true (ui_test_activate_accel (GTK_WIDGET (window), "<Primary>o"));
  ui_test_spin (200);
  chooser = find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG);
  g_assert_nonnull (chooser);
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
  ui_test_spin (100);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_LOADED);

  /* Export…: the export dialog, over this window, offering every call. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.export", NULL));
  ui_test_spin (100);
  exporter = find_toplevel (CS_TYPE_EXPORT_DIALOG);
  g_assert_nonnull (exporter);
  g_assert_true (gtk_window_get_transient_for (exporter) == GTK_WINDOW (window));
  g_assert_cmpint (cs_export_dialog_get_kind (CS_EXPORT_DIALOG (exporter)), ==,
                   CS_EXPORT_KIND_HTML);
  gtk_window_destroy (exporter);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_shortcuts_and_about (void)
{
  CsWindow *window = cs_window_new (application);
  GtkWindow *shortcuts;
  GtkWindow *about;
  g_autoptr (GdkTexture) texture = NULL;

  gtk_window_present (GTK_WINDOW (window));
  ui_test_spin (200);
  /* GtkApplication finds gtk/help-overlay.ui in our resources and adds the action. */
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (window), "show-help-overlay"));
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-help-overlay", NULL);
  ui_test_spin (300);
  shortcuts = find_toplevel (GTK_TYPE_SHORTCUTS_WINDOW);
  g_assert_nonnull (shortcuts);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (shortcuts)));
  texture = render_window (shortcuts, "shortcuts-window.png");
  gtk_window_destroy (shortcuts);

  g_action_group_activate_action (G_ACTION_GROUP (application), "about", NULL);
  ui_test_spin (300);
  about = find_toplevel (GTK_TYPE_ABOUT_DIALOG);
  g_assert_nonnull (about);
  g_assert_cmpstr (gtk_about_dialog_get_version (GTK_ABOUT_DIALOG (about)), ==, PACKAGE_VERSION);
  gtk_window_destroy (about);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_window_size_saved (void)
{
  GSettings *settings = cs_application_get_settings (application);
  CsWindow *window;

  g_assert_nonnull (settings);
  g_settings_set_int (settings, "window-width", 1100);
  g_settings_set_int (settings, "window-height", 700);
  window = cs_window_new (application);
  {
    int width = 0, height = 0;
    gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
    g_assert_cmpint (width, ==, 1100);
    g_assert_cmpint (height, ==, 700);
  }
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 640);
  gtk_window_present (GTK_WINDOW (window));
  ui_test_spin (200);
  gtk_window_close (GTK_WINDOW (window));
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1000);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 640);
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));
}

static void
test_recent_files_push (void)
{
  const char *current[] = { "file:///a.pcap", "file:///b.pcap", "file:///c.pcap", NULL };
  g_auto (GStrv) moved = cs_recent_files_push (current, "file:///b.pcap", 10);
  g_auto (GStrv) capped = cs_recent_files_push (current, "file:///d.pcap", 3);
  g_auto (GStrv) from_nothing = cs_recent_files_push (NULL, "file:///e.pcap", 10);

  g_assert_cmpuint (g_strv_length (moved), ==, 3);
  g_assert_cmpstr (moved[0], ==, "file:///b.pcap");
  g_assert_cmpstr (moved[1], ==, "file:///a.pcap");
  g_assert_cmpstr (moved[2], ==, "file:///c.pcap");
  g_assert_cmpuint (g_strv_length (capped), ==, 3);
  g_assert_cmpstr (capped[0], ==, "file:///d.pcap");
  g_assert_cmpstr (capped[2], ==, "file:///b.pcap");
  g_assert_cmpuint (g_strv_length (from_nothing), ==, 1);
}

static void
test_recent_files_menu (void)
{
  const char *uris[]
      = { "file:///x/calls_1.pcap", "file:///x/trace.pcap", "file:///y/trace.pcap", NULL };
  g_autoptr (GMenu) menu = g_menu_new ();
  g_autofree char *label0 = NULL, *label1 = NULL, *target = NULL;
  g_autoptr (GVariant) target_value = NULL;

  cs_recent_files_fill_menu (menu, uris);
  g_assert_cmpint (g_menu_model_get_n_items (G_MENU_MODEL (menu)), ==, 3);
  g_menu_model_get_item_attribute (G_MENU_MODEL (menu), 0, "label", "s", &label0);
  g_menu_model_get_item_attribute (G_MENU_MODEL (menu), 1, "label", "s", &label1);
  /* Underscores are doubled so they do not turn into mnemonics. */
  g_assert_cmpstr (label0, ==, "calls__1.pcap");
  g_assert_cmpstr (label1, ==, "trace.pcap (x)");
  target_value = g_menu_model_get_item_attribute_value (G_MENU_MODEL (menu), 2, "target",
                                                        G_VARIANT_TYPE_STRING);
  g_assert_cmpstr (g_variant_get_string (target_value, NULL), ==, "file:///y/trace.pcap");
}

static void
test_progress_text (void)
{
  g_autofree char *fast = cs_display_format_progress (0.42, 1.2e6);
  g_autofree char *medium = cs_display_format_progress (0.05, 12500);
  g_autofree char *starting = cs_display_format_progress (0.0, 0.0);
  g_autofree char *count = cs_display_format_count (1234567);

  g_assert_cmpstr (fast, ==, "42% — 1.2 M packets/s");
  g_assert_cmpstr (medium, ==, "5% — 12.5 k packets/s");
  g_assert_cmpstr (starting, ==, "0%");
  /* The C locale has no digit grouping. */
  g_assert_cmpstr (count, ==, "1234567");
}

int
main (int argc, char *argv[])
{
  int status;

  application = ui_test_init (&argc, &argv);
  if (application == NULL)
    return 0;

  g_test_add_func ("/format/progress", test_progress_text);
  g_test_add_func ("/recent-files/push", test_recent_files_push);
  g_test_add_func ("/recent-files/menu", test_recent_files_menu);
  g_test_add_func ("/window/load-demo", test_load_demo);
  g_test_add_func ("/window/cancel-load", test_cancel_load);
  g_test_add_func ("/window/not-a-capture", test_not_a_capture);
  g_test_add_func ("/window/damaged-capture", test_damaged_capture);
  g_test_add_func ("/window/size-saved", test_window_size_saved);
  g_test_add_func ("/window/shortcuts-and-about", test_shortcuts_and_about);
  g_test_add_func ("/window/accels", test_accels);
  g_test_add_func ("/window/views-follow-window", test_views_follow_window);
  g_test_add_func ("/window/render-png", test_render_png);

  status = g_test_run ();
  g_clear_object (&application);
  return status;
}
