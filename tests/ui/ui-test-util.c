/* ui-test-util.c — main-loop helpers shared by the GTK tests */
#include "ui-test-util.h"

#include <gtk/gtk.h>
#include <locale.h>

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
