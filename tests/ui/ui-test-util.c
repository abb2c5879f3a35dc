/* ui-test-util.c — main-loop helpers shared by the GTK tests */
#include "ui-test-util.h"

#include <gtk/gtk.h>
#include <locale.h>

#include "cs-window-private.h"

#define UI_TEST_LOAD_TIMEOUT_S 60

const char *
ui_test_demo_capture_path (void)
{
  const char *path = g_getenv ("CS_DEMO_CAPTURE");

  if (path == NULL || !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return NULL;
  return path;
}

static gboolean
ui_test_on_timeout (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

void
ui_test_spin (guint milliseconds)
{
  gboolean done = FALSE;

  g_timeout_add (milliseconds, ui_test_on_timeout, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

CsApplication *
ui_test_init (int *argc, char ***argv)
{
  g_autoptr (GError) error = NULL;
  CsApplication *application;

  g_test_init (argc, argv, NULL);
  if (!gtk_init_check ())
    {
      g_print ("1..0 # SKIP no display\n");
      return NULL;
    }
  setlocale (LC_NUMERIC, "C");
  application = cs_application_new ();
  g_application_set_flags (G_APPLICATION (application),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (application), NULL, &error);
  g_assert_no_error (error);
  return application;
}

void
ui_test_wait_for_load (CsWindow *window)
{
  gboolean timed_out = FALSE;
  guint timeout_id = g_timeout_add_seconds (UI_TEST_LOAD_TIMEOUT_S, ui_test_on_timeout, &timed_out);

  while (cs_window_get_state (window) == CS_WINDOW_STATE_LOADING && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (timed_out);
  g_source_remove (timeout_id);
}

CsWindow *
ui_test_load_demo (CsApplication *application, int width, int height)
{
  const char *path = ui_test_demo_capture_path ();

  return path != NULL ? ui_test_load_file (application, path, width, height) : NULL;
}

CsWindow *
ui_test_load_file (CsApplication *application, const char *path, int width, int height)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  CsWindow *window = cs_window_new (application);

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  cs_window_open_files (window, &file, 1);
  ui_test_wait_for_load (window);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_LOADED);
  ui_test_spin (200);
  return window;
}

gboolean
ui_test_action_enabled (GtkWidget *widget, const char *action_name)
{
  GtkWidget *probe = gtk_button_new ();
  gboolean enabled;

  /* A hidden button bound to the action, as a menu item or a header-bar button would be: GTK
   * makes it insensitive while the action is disabled or missing. */
  gtk_widget_set_visible (probe, FALSE);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (probe), action_name);
  gtk_widget_set_parent (probe, widget);
  enabled = gtk_widget_get_sensitive (probe);
  gtk_widget_unparent (probe);
  return enabled;
}

static gboolean
ui_test_trigger_matches (GtkShortcutTrigger *trigger, guint keyval, GdkModifierType modifiers)
{
  if (GTK_IS_ALTERNATIVE_TRIGGER (trigger))
    return ui_test_trigger_matches (
               gtk_alternative_trigger_get_first (GTK_ALTERNATIVE_TRIGGER (trigger)), keyval,
               modifiers)
           || ui_test_trigger_matches (
               gtk_alternative_trigger_get_second (GTK_ALTERNATIVE_TRIGGER (trigger)), keyval,
               modifiers);
  return GTK_IS_KEYVAL_TRIGGER (trigger)
         && gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == keyval
         && gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == modifiers;
}

gboolean
ui_test_activate_accel (GtkWidget *window, const char *accel)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (window);
  guint keyval = 0;
  GdkModifierType modifiers = 0;

  g_assert_true (gtk_accelerator_parse (accel, &keyval, &modifiers));
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr (GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);

          if (ui_test_trigger_matches (gtk_shortcut_get_trigger (shortcut), keyval, modifiers)
              && gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut),
                                               GTK_SHORTCUT_ACTION_EXCLUSIVE, window,
                                               gtk_shortcut_get_arguments (shortcut)))
            return TRUE;
        }
    }
  return FALSE;
}

GtkWidget *
ui_test_find_widget (GtkWidget *widget, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = ui_test_find_widget (child, type);
      if (found != NULL)
        return found;
    }
  return NULL;
}

void
ui_test_select_call (CsWindow *window, guint number)
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
  g_error ("no call %u is shown", number);
}

gboolean
ui_test_save_png (GtkWidget *widget, const char *png)
{
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  int width = 0, height = 0;

  /* a widget is laid out and drawn a few frames after it is presented */
  for (int tries = 0; tries < 50 && node == NULL; tries++)
    {
      GtkSnapshot *snapshot = gtk_snapshot_new ();

      ui_test_spin (100);
      width = gtk_widget_get_width (widget);
      height = gtk_widget_get_height (widget);
      gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
      node = gtk_snapshot_free_to_node (snapshot);
    }
  if (node == NULL)
    return FALSE;
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)),
                                         node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  return gdk_texture_save_to_png (texture, png);
}
