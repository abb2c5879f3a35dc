/* test-hostile-window.c — closing the window during a load, cancelling, and
 * opening a second file mid-load: no crash, the window is finalized, and the
 * second file is what the window ends up showing. Runs under Xvfb (suite ui). */
#include "ui-test-util.h"
#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "cs-application.h"
#include "cs-window-private.h"
#include "hostile-capture.h"

#define BIG_COPIES 600 /* ~240k records: a load that takes a few tens of milliseconds */
#define WAIT_S 60

static CsApplication *application;
static char *tmp_dir;
static char *big_path;   /* a long capture */
static char *small_path; /* one call */

static gboolean
on_timeout (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Spins until *pointer is NULL (a weak pointer) or the timeout. */
static void
wait_for_null (gpointer *pointer)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add_seconds (WAIT_S, on_timeout, &timed_out);

  while (*pointer != NULL && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (timed_out);
  g_source_remove (id);
}

static CsWindow *
open_path (CsWindow *window, const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);

  if (window == NULL)
    window = cs_window_new (application);
  cs_window_open_files (window, &file, 1);
  return window;
}

static void
write_captures (void)
{
  HostileCapture one = hostile_capture_build (FALSE, 200);
  GByteArray *big = g_byte_array_new ();
  guint64 records_start = hostile_record_offset (&one, 0);

  tmp_dir = g_dir_make_tmp ("cs-hostile-window-XXXXXX", NULL);
  small_path = write_capture_file (tmp_dir, "small.pcap", one.bytes);
  /* The same call over and over: the same Call-ID, new calls each time (reuse). */
  g_byte_array_append (big, one.bytes->data, (guint) records_start);
  for (guint i = 0; i < BIG_COPIES; i++)
    g_byte_array_append (big, one.bytes->data + records_start,
                         (guint) (one.bytes->len - records_start));
  big_path = write_capture_file (tmp_dir, "big.pcap", big);
  g_byte_array_unref (big);
  hostile_capture_clear (&one);
}

/* Destroying the window at any moment of its load: nothing crashes and the
 * window is finalized (no reference kept by the background load). */
static void
test_close_during_load (void)
{
  const guint delays_ms[] = { 0, 1, 10, 50, 200 };

  for (guint i = 0; i < G_N_ELEMENTS (delays_ms); i++)
    {
      CsWindow *window = open_path (NULL, big_path);
      gpointer alive = window;

      g_object_add_weak_pointer (G_OBJECT (window), &alive);
      gtk_window_present (GTK_WINDOW (window));
      ui_test_spin (delays_ms[i]);
      gtk_window_destroy (GTK_WINDOW (window));
      wait_for_null (&alive);
    }
  /* Late callbacks of the abandoned loads run into nothing. */
  ui_test_spin (300);
}

/* Opening another file while the first still loads: the window ends up with
 * the second file only, and the first load's late results are dropped. */
static void
test_second_file_mid_load (void)
{
  CsWindow *window = open_path (NULL, big_path);
  gpointer alive = window;

  g_object_add_weak_pointer (G_OBJECT (window), &alive);
  /* No main-loop turn before the second open: however fast the first load is (it
   * used to take long enough for a 20 ms spin, it no longer does), its result cannot
   * have been delivered yet, so the second file really replaces a running load. */
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_LOADING);
  open_path (window, small_path);
  ui_test_wait_for_load (window);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_LOADED);
  ui_test_spin (500);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_LOADED);
  g_assert_cmpuint (g_list_model_get_n_items (cs_window_get_calls_model (window)), ==, 1);
  gtk_window_destroy (GTK_WINDOW (window));
  wait_for_null (&alive);
}

/* Cancel, then close at once. */
static void
test_cancel_then_close (void)
{
  CsWindow *window = open_path (NULL, big_path);
  gpointer alive = window;

  g_object_add_weak_pointer (G_OBJECT (window), &alive);
  /* No main-loop turn yet: the result of the background load cannot have
   * been delivered, so the window is still loading, however fast the load. */
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_LOADING);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.cancel-load", NULL));
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_EMPTY);
  gtk_window_destroy (GTK_WINDOW (window));
  wait_for_null (&alive);
  ui_test_spin (200);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  /* Criticals abort; warnings of other widgets (their own tests judge them) do not. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  if (!gtk_init_check ())
    {
      g_print ("1..0 # SKIP no display\n");
      return 0;
    }
  application = cs_application_new ();
  /* No D-Bus name: tests may run side by side. */
  g_application_set_flags (G_APPLICATION (application),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (application), NULL, NULL);
  write_captures ();
  g_test_add_func ("/hostile-window/close-during-load", test_close_during_load);
  g_test_add_func ("/hostile-window/second-file-mid-load", test_second_file_mid_load);
  g_test_add_func ("/hostile-window/cancel-then-close", test_cancel_then_close);
  status = g_test_run ();
  remove_tmp_dir (tmp_dir);
  g_free (tmp_dir);
  g_free (big_path);
  g_free (small_path);
  g_object_unref (application);
  return status;
}
