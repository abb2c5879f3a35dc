/* ui-test-util.c — main-loop helpers shared by the GTK tests */
#include "ui-test-util.h"

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
