/* cs-ui-shot.c — a screenshot of the real window for people to look at (not a test):
 *   cs-ui-shot OUT.png WIDTH HEIGHT CAPTURE [--scale N] [--call N] [--page NAME]
 *              [--action ACTION]... [--row N]
 * Opens the capture at that size, selects the call (by number), shows the page, runs the
 * window actions in order, selects a ladder row, and saves the window as the cairo renderer
 * draws it (at N device pixels per logical pixel). */
#include "ui-test-util.h"

#include <stdlib.h>
#include <string.h>

#include "cs-window-private.h"

static void
save_window (CsWindow *window, const char *png, double scale)
{
  int width = gtk_widget_get_width (GTK_WIDGET (window));
  int height = gtk_widget_get_height (GTK_WIDGET (window));
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (GTK_WIDGET (window));
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (window));

  gtk_snapshot_scale (snapshot, scale, scale);
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT (0, 0, width * scale, height * scale));
  if (!gdk_texture_save_to_png (texture, png))
    g_error ("cannot write %s", png);
  g_print ("%s: %dx%d logical\n", png, width, height);
}

static void
select_call (CsWindow *window, guint number)
{
  GListModel *shown = cs_window_get_calls_model (window);

  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr (CsCall) call = g_list_model_get_item (shown, i);
      if (cs_call_get_number (call) == number)
        {
          gtk_selection_model_select_item (cs_calls_view_get_selection (window->calls_view), i,
                                           TRUE);
          return;
        }
    }
  g_error ("no call %u", number);
}

int
main (int argc, char **argv)
{
  CsApplication *application;
  CsWindow *window;
  g_autoptr (GFile) file = NULL;
  double scale = 1;

  if (argc < 5)
    {
      g_printerr ("usage: cs-ui-shot OUT.png WIDTH HEIGHT CAPTURE [options]\n");
      return 2;
    }
  application = ui_test_init (&argc, &argv);
  if (application == NULL)
    return 1;
  file = g_file_new_for_commandline_arg (argv[4]);
  window = cs_window_new (application);
  gtk_window_set_default_size (GTK_WINDOW (window), atoi (argv[2]), atoi (argv[3]));
  gtk_window_present (GTK_WINDOW (window));
  cs_window_open_files (window, &file, 1);
  ui_test_wait_for_load (window);
  ui_test_spin (300);
  for (int i = 5; i + 1 < argc; i += 2)
    {
      const char *option = argv[i], *value = argv[i + 1];

      if (strcmp (option, "--scale") == 0)
        scale = g_ascii_strtod (value, NULL);
      else if (strcmp (option, "--call") == 0)
        select_call (window, atoi (value));
      else if (strcmp (option, "--page") == 0)
        gtk_stack_set_visible_child_name (window->view_stack, value);
      else if (strcmp (option, "--action") == 0)
        {
          if (!gtk_widget_activate_action (GTK_WIDGET (window), value, NULL))
            g_error ("no action %s", value);
        }
      else if (strcmp (option, "--row") == 0)
        cs_ladder_view_set_selected_row (cs_ladder_pane_get_view (window->ladder_pane),
                                         atoi (value));
      else if (strcmp (option, "--filter") == 0)
        gtk_editable_set_text (GTK_EDITABLE (window->search_entry), value);
      else
        g_error ("unknown option %s", option);
      ui_test_spin (300);
    }
  ui_test_spin (500);
  save_window (window, argv[1], scale);
  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}
