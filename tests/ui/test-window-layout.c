/* test-window-layout.c — room for the ladder (issue 22): an opened call collapses the list,
 * the ladder maximises (button and Ctrl+M), the detail pane (F9) and graphs (Ctrl+G) hide,
 * Alt+Up/Down step through calls with the list collapsed, the choices are remembered; at
 * 1024×700, 1280×800 and 1920×1080 */
#include "ui-test-util.h"
#include <gtk/gtk.h>

#include "cs-application.h"
#include "cs-graph-view-canvas.h"
#include "cs-window-private.h"

static CsApplication *application;

static GtkWidget *
find_widget (GtkWidget *widget, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Enter (or a double click) on the row of the call with this number. */
static void
activate_call (CsWindow *window, guint number)
{
  GListModel *shown = cs_window_get_calls_model (window);
  GtkWidget *columns = find_widget (GTK_WIDGET (window->calls_view), GTK_TYPE_COLUMN_VIEW);

  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr (CsCall) call = g_list_model_get_item (shown, i);
      if (cs_call_get_number (call) == number)
        {
          gtk_selection_model_select_item (cs_calls_view_get_selection (window->calls_view), i,
                                           TRUE);
          g_signal_emit_by_name (columns, "activate", i);
          ui_test_spin (200);
          return;
        }
    }
  g_assert_not_reached ();
}

static int
height_of (gpointer widget)
{
  return gtk_widget_get_mapped (GTK_WIDGET (widget)) ? gtk_widget_get_height (GTK_WIDGET (widget))
                                                     : 0;
}

static guint
selected_number (CsWindow *window)
{
  CsCall *call = cs_calls_view_get_selected_call (window->calls_view);

  g_assert_nonnull (call);
  return cs_call_get_number (call);
}

/* The window's height less what is not the workspace: header bar, page strip, status bar. */
static void
check_focused (CsWindow *window, int width, int height)
{
  GtkWidget *canvas = find_widget (GTK_WIDGET (window->graph_view), CS_TYPE_GRAPH_CANVAS);
  int ladder = height_of (window->ladder_pane);

  g_test_message ("%dx%d: ladder %d px, strip %d px, graph %d px", width, height, ladder,
                  height_of (window->quality_strip), height_of (canvas));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (window->view_stack)));
  g_assert_true (gtk_widget_get_mapped (window->back_button));
  /* The ladder has most of the workspace; the graph keeps 160 px. */
  g_assert_cmpint (ladder, >, height_of (window->quality_strip));
  g_assert_cmpint (height_of (canvas), >=, 160);
  g_assert_cmpint (ladder + height_of (window->quality_strip), >=, height * 7 / 10);
}

static void
test_open_call_at (gconstpointer data)
{
  const int *size = data;
  CsWindow *window = ui_test_load_demo (application, size[0], size[1]);
  int ladder_focused;

  if (window == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (window->view_stack)));
  g_assert_false (gtk_widget_get_mapped (window->back_button));
  activate_call (window, 5);
  check_focused (window, size[0], size[1]);
  ladder_focused = height_of (window->ladder_pane);

  /* Maximised: the ladder alone, by the key; the key again restores. */
  g_assert_true (ui_test_activate_accel (GTK_WIDGET (window), "<Primary>m"));
  ui_test_spin (200);
  g_assert_false (gtk_widget_get_mapped (window->quality_strip));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (window->detail_pane)));
  g_assert_cmpint (height_of (window->ladder_pane), >, ladder_focused);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window->ladder_pane)), >=,
                   gtk_widget_get_width (GTK_WIDGET (window)) * 9 / 10);
  g_assert_true (ui_test_activate_accel (GTK_WIDGET (window), "<Primary>m"));
  ui_test_spin (200);
  check_focused (window, size[0], size[1]);

  /* Alt+Down / Alt+Up move through the calls as listed, the list still collapsed. */
  g_assert_true (ui_test_activate_accel (GTK_WIDGET (window), "<Alt>Down"));
  ui_test_spin (100);
  g_assert_cmpuint (selected_number (window), ==, 6);
  g_assert_true (ui_test_activate_accel (GTK_WIDGET (window), "<Alt>Up"));
  g_assert_true (ui_test_activate_accel (GTK_WIDGET (window), "<Alt>Up"));
  ui_test_spin (100);
  g_assert_cmpuint (selected_number (window), ==, 4);
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (window->view_stack)));

  /* Back: the list again, and the ladder gives its room back. */
  g_assert_true (ui_test_activate_accel (GTK_WIDGET (window), "<Alt>Left"));
  ui_test_spin (200);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (window->view_stack)));
  g_assert_cmpint (height_of (window->ladder_pane), <, ladder_focused);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* F9 hides the detail pane and the workspace takes its width; Ctrl+G hides graphs and player
 * and the ladder takes their height; both are remembered by the next window. */
static void
test_hide_and_remember (void)
{
  GSettings *settings = cs_application_get_settings (application);
  CsWindow *window = ui_test_load_demo (application, 1280, 800);
  int ladder_width, ladder_height;

  if (window == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  activate_call (window, 5);
  ladder_width = gtk_widget_get_width (GTK_WIDGET (window->ladder_pane));
  ladder_height = height_of (window->ladder_pane);
  g_assert_true (ui_test_activate_accel (GTK_WIDGET (window), "F9"));
  g_assert_true (ui_test_activate_accel (GTK_WIDGET (window), "<Primary>g"));
  ui_test_spin (200);
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (window->detail_pane)));
  g_assert_false (gtk_widget_get_mapped (window->quality_strip));
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window->ladder_pane)), >, ladder_width + 200);
  g_assert_cmpint (height_of (window->ladder_pane), >, ladder_height + 160);
  gtk_window_close (GTK_WINDOW (window));
  ui_test_spin (100);
  g_assert_false (g_settings_get_boolean (settings, "detail-pane-visible"));
  g_assert_false (g_settings_get_boolean (settings, "graphs-visible"));

  window = ui_test_load_demo (application, 1280, 800);
  activate_call (window, 5);
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (window->detail_pane)));
  g_assert_false (gtk_widget_get_mapped (window->quality_strip));
  gtk_window_destroy (GTK_WINDOW (window));
  g_settings_reset (settings, "detail-pane-visible");
  g_settings_reset (settings, "graphs-visible");
}

/* Summary and Load are about the whole capture: no workspace, whatever the layout says. */
static void
test_whole_capture_pages (void)
{
  CsWindow *window = ui_test_load_demo (application, 1280, 800);

  if (window == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  activate_call (window, 5);
  gtk_stack_set_visible_child_name (window->view_stack, "summary");
  ui_test_spin (100);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (window->summary_view)));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (window->ladder_pane)));
  gtk_stack_set_visible_child_name (window->view_stack, "calls");
  ui_test_spin (100);
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (window->view_stack)));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (window->ladder_pane)));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char *argv[])
{
  static const int sizes[][2] = { { 1024, 700 }, { 1280, 800 }, { 1920, 1080 } };
  int status;

  application = ui_test_init (&argc, &argv);
  if (application == NULL)
    return 0;
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *path = g_strdup_printf ("/layout/open-call/%dx%d", sizes[i][0], sizes[i][1]);
      g_test_add_data_func (path, sizes[i], test_open_call_at);
    }
  g_test_add_func ("/layout/hide-and-remember", test_hide_and_remember);
  g_test_add_func ("/layout/whole-capture-pages", test_whole_capture_pages);
  status = g_test_run ();
  g_clear_object (&application);
  return status;
}
