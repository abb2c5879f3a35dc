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
  g_autoptr (GFile) file = NULL;
  CsWindow *window;

  if (path == NULL)
    return NULL;
  file = g_file_new_for_path (path);
  window = cs_window_new (application);
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  cs_window_open_files (window, &file, 1);
  ui_test_wait_for_load (window);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_LOADED);
  ui_test_spin (200);
  return window;
}
