/* test-load-page.c — the Load page tells the story (issue 26): headline, breaking
 * point, a second run on the same axes with a verdict, and the HTML/CSV exports.
 * CS_LOAD_PAGE_CAPTURE / CS_LOAD_PAGE_COMPARE choose the captures (default: the demo
 * capture, compared with itself); with CS_SHOT_DIR set, PNGs of the page at 1280x800
 * and 1920x1080 are written there for people to look at. */
#include "ui-test-util.h"

#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <string.h>

#include "cs-load-text.h"
#include "cs-window-private.h"

static CsApplication *application;

static CsWindow *
open_window (const char *path, int width, int height)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  CsWindow *window = cs_window_new (application);

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  cs_window_open_files (window, &file, 1);
  ui_test_wait_for_load (window);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_LOADED);
  gtk_stack_set_visible_child_name (window->view_stack, "load");
  ui_test_spin (300);
  return window;
}

static CsAnalysis *
load_analysis (const char *path)
{
  g_autoptr (CsLoader) loader = cs_loader_new ();
  g_autoptr (GError) error = NULL;
  const char *paths[] = { path, NULL };
  CsAnalysis *analysis = cs_loader_load (loader, paths, NULL, &error);

  g_assert_no_error (error);
  return analysis;
}

static void
save_png (CsWindow *window, const char *name)
{
  const char *dir = g_getenv ("CS_SHOT_DIR");
  int width, height;
  g_autoptr (GdkPaintable) paintable = NULL;
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  g_autofree char *png = NULL;
  GtkSnapshot *snapshot;

  if (dir == NULL)
    return;
  png = g_build_filename (dir, name, NULL);
  paintable = gtk_widget_paintable_new (GTK_WIDGET (window));
  /* the window is laid out and drawn a few frames after it is presented */
  for (int tries = 0; tries < 50 && node == NULL; tries++)
    {
      ui_test_spin (100);
      width = gtk_widget_get_width (GTK_WIDGET (window));
      height = gtk_widget_get_height (GTK_WIDGET (window));
      snapshot = gtk_snapshot_new ();
      gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
      node = gtk_snapshot_free_to_node (snapshot);
    }
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_test_message ("rendered %dx%d to %s", width, height, png);
}

static char *
read_file (const char *path)
{
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static void
test_story_and_exports (void)
{
  const char *path = g_getenv ("CS_LOAD_PAGE_CAPTURE") != NULL ? g_getenv ("CS_LOAD_PAGE_CAPTURE")
                                                               : ui_test_demo_capture_path ();
  const char *other_path
      = g_getenv ("CS_LOAD_PAGE_COMPARE") != NULL ? g_getenv ("CS_LOAD_PAGE_COMPARE") : path;
  static const int sizes[][2] = { { 1280, 800 }, { 1920, 1080 } };

  if (path == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      CsWindow *window = open_window (path, sizes[s][0], sizes[s][1]);
      const CsLoadReport *report = cs_load_view_get_report (window->load_view);
      g_autoptr (CsAnalysis) other = load_analysis (other_path);
      g_autoptr (CsLoadReport) other_report = cs_loadtest_compute (other, NULL);
      g_autofree char *png = NULL, *html_path = NULL, *csv_path = NULL, *html = NULL;
      g_autofree char *csv = NULL, *dir = g_dir_make_tmp ("cs-load-page-XXXXXX", NULL);
      g_auto (GStrv) rows = NULL;
      g_autoptr (GError) error = NULL;
      GtkWidget *headline, *verdict;
      double peak = 0;

      g_assert_nonnull (report);
      /* the headline names the peak offered rate, from the intervals themselves */
      for (guint i = 0; i < report->intervals->len; i++)
        peak
            = MAX (peak, (double) g_array_index (report->intervals, CsLoadInterval, i).calls_started
                             / cs_load_report_interval_width_s (report, i));
      {
        g_autofree char *expected = cs_load_format_thousands (peak);
        g_autofree char *prefix = g_strdup_printf ("Peak %s calls/s offered", expected);

        headline = gtk_widget_get_first_child (
            gtk_widget_get_first_child (gtk_widget_get_first_child (gtk_stack_get_child_by_name (
                GTK_STACK (gtk_widget_get_first_child (GTK_WIDGET (window->load_view))), "load"))));
        g_assert_true (GTK_IS_LABEL (headline));
        g_assert_true (g_str_has_prefix (gtk_label_get_text (GTK_LABEL (headline)), prefix));
      }
      png = g_strdup_printf ("load-%dx%d.png", sizes[s][0], sizes[s][1]);
      save_png (window, png);

      /* a second run on the same axes, and the verdict */
      cs_load_view_set_comparison (window->load_view, other);
      ui_test_spin (300);
      verdict = gtk_widget_get_next_sibling (headline);
      g_assert_true (gtk_widget_get_visible (verdict));
      if (other_path == path)
        g_assert_true (strstr (gtk_label_get_text (GTK_LABEL (verdict)), "as run A does") != NULL
                       || strstr (gtk_label_get_text (GTK_LABEL (verdict)), "either run breaks")
                              != NULL);
      g_free (png);
      png = g_strdup_printf ("load-compare-%dx%d.png", sizes[s][0], sizes[s][1]);
      save_png (window, png);

      /* exports: one HTML file with the charts inline and both runs; CSV per interval */
      html_path = g_build_filename (dir, "load.html", NULL);
      csv_path = g_build_filename (dir, "load.csv", NULL);
      g_assert_true (cs_load_view_export (window->load_view, html_path, TRUE, &error));
      g_assert_no_error (error);
      g_assert_true (cs_load_view_export (window->load_view, csv_path, FALSE, &error));
      html = read_file (html_path);
      csv = read_file (csv_path);
      g_assert_nonnull (strstr (html, "<svg"));
      g_assert_nonnull (strstr (html, "Run B"));
      g_assert_null (strstr (html, "<img"));
      rows = g_strsplit (g_strchomp (csv), "\n", -1);
      g_assert_cmpuint (g_strv_length (rows), ==, report->intervals->len + 1);
      g_assert_true (g_str_has_prefix (rows[0], "start_s,width_s,offered_cps,handled_cps"));
      g_assert_cmpuint (other_report->intervals->len, >, 0);
      g_remove (html_path);
      g_remove (csv_path);
      g_rmdir (dir);
      gtk_window_destroy (GTK_WINDOW (window));
      ui_test_spin (100);
    }
}

int
main (int argc, char *argv[])
{
  application = ui_test_init (&argc, &argv);
  if (application == NULL)
    return 0;
  g_test_add_func ("/load/story-and-exports", test_story_and_exports);
  return g_test_run ();
}
