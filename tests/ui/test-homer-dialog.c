/* test-homer-dialog.c — Open ▾ → From Homer… under Xvfb: the window's fields are checked before
 * anything is read, and a server that is not there gives libpq's own reason in the dialog. */
#include <gtk/gtk.h>
#include <string.h>

#include "cs-homer-dialog.h"

static void
test_bad_window (void)
{
  CsHomerDialog *dialog = cs_homer_dialog_new (NULL);

  cs_homer_dialog_set_window (dialog, "postgresql:///homer_data", "yesterday", "2024-03-01 11:00");
  cs_homer_dialog_open (dialog);
  g_assert_false (cs_homer_dialog_is_reading (dialog));
  g_assert_nonnull (strstr (cs_homer_dialog_get_error (dialog), "\"yesterday\" is not a time"));
  cs_homer_dialog_set_window (dialog, NULL, "2024-03-01 11:00", "2024-03-01 10:00");
  cs_homer_dialog_open (dialog);
  g_assert_nonnull (strstr (cs_homer_dialog_get_error (dialog), "ends before it starts"));
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
on_opened (gboolean *opened)
{
  *opened = TRUE;
}

/* a real libpq connection attempt to a socket folder that does not exist */
static void
test_unreachable_server (void)
{
  CsHomerDialog *dialog = cs_homer_dialog_new (NULL);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  gboolean opened = FALSE;

  g_signal_connect_swapped (dialog, "opened", G_CALLBACK (on_opened), &opened);
  cs_homer_dialog_set_window (dialog, "postgresql:///homer_data?host=/nonexistent-callscope",
                              "2024-03-01 10:00", "2024-03-01 11:00");
  gtk_window_present (GTK_WINDOW (dialog));
  cs_homer_dialog_open (dialog);
  g_assert_true (cs_homer_dialog_is_reading (dialog));
  while (cs_homer_dialog_is_reading (dialog) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (cs_homer_dialog_is_reading (dialog));
  g_assert_false (opened);
  g_assert_nonnull (
      strstr (cs_homer_dialog_get_error (dialog), "cannot connect to the Homer database"));
  g_assert_nonnull (strstr (cs_homer_dialog_get_error (dialog), "/nonexistent-callscope"));
  gtk_window_destroy (GTK_WINDOW (dialog));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      printf ("1..0 # SKIP no display\n");
      return 0;
    }
  g_test_add_func ("/homer-dialog/bad-window", test_bad_window);
  g_test_add_func ("/homer-dialog/unreachable-server", test_unreachable_server);
  return g_test_run ();
}
