/* test-hostile-cancel.c — cancelling loads at any moment, dropping the loader
 * mid-load, and starting a second load before the first ends. Run under
 * valgrind by `make test-valgrind` (no leaks), and plainly in suite hostile. */
#include "loader/cs-loader.h"
#include "hostile-capture.h"

#define COPIES 300 /* ~60k records: long enough to cancel in the middle */

static char *tmp_dir;
static char *big_path;
static char *small_path;

static void
write_captures (void)
{
  HostileCapture one = hostile_capture_build (FALSE, 200);
  GByteArray *big = g_byte_array_new ();
  guint64 start = hostile_record_offset (&one, 0);

  tmp_dir = g_dir_make_tmp ("cs-hostile-cancel-XXXXXX", NULL);
  small_path = write_capture_file (tmp_dir, "small.pcap", one.bytes);
  g_byte_array_append (big, one.bytes->data, (guint) start);
  for (guint i = 0; i < COPIES; i++)
    g_byte_array_append (big, one.bytes->data + start, (guint) (one.bytes->len - start));
  big_path = write_capture_file (tmp_dir, "big.pcap", big);
  g_byte_array_unref (big);
  hostile_capture_clear (&one);
}

static gpointer
cancel_after (gpointer data)
{
  GCancellable *cancellable = data;

  g_usleep (GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (cancellable), "delay-us")));
  g_cancellable_cancel (cancellable);
  return NULL;
}

/* A blocking load cancelled before, early in and late in the work: either a
 * whole analysis (the load won the race) or NULL with G_IO_ERROR_CANCELLED. */
static void
test_cancel_blocking (void)
{
  const guint delays_us[] = { 0, 100, 2000, 10000, 50000 };
  const char *paths[] = { big_path, NULL };
  guint cancelled = 0;

  for (guint i = 0; i < G_N_ELEMENTS (delays_us); i++)
    {
      g_autoptr (CsLoader) loader = cs_loader_new ();
      g_autoptr (GCancellable) cancellable = g_cancellable_new ();
      g_autoptr (CsAnalysis) analysis = NULL;
      g_autoptr (GError) error = NULL;
      GThread *thread;

      if (i == 0)
        g_cancellable_cancel (cancellable);
      g_object_set_data (G_OBJECT (cancellable), "delay-us", GUINT_TO_POINTER (delays_us[i]));
      thread = g_thread_new ("cancel", cancel_after, cancellable);
      cs_loader_set_threads (loader, 2);
      analysis = cs_loader_load (loader, paths, cancellable, &error);
      g_thread_join (thread);
      if (analysis == NULL)
        {
          g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
          cancelled++;
        }
      else
        {
          g_assert_no_error (error);
          g_assert_cmpuint (cs_analysis_get_stats (analysis)->packets, ==, COPIES * 207);
        }
    }
  /* Cancelled before it started, it cannot have finished. */
  g_assert_cmpuint (cancelled, >=, 1);
}

typedef struct
{
  GMainLoop *loop;
  guint pending;
  guint cancelled;
  guint finished;
  guint64 last_packets;
} AsyncState;

static void
on_loaded (GObject *source, GAsyncResult *result, gpointer data)
{
  AsyncState *state = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (CsAnalysis) analysis = cs_loader_load_finish (CS_LOADER (source), result, &error);

  if (analysis == NULL)
    {
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      state->cancelled++;
    }
  else
    {
      state->finished++;
      state->last_packets = cs_analysis_get_stats (analysis)->packets;
    }
  if (--state->pending == 0)
    g_main_loop_quit (state->loop);
}

static gboolean
cancel_idle (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

/* Background load cancelled from the main loop while it runs; the loader is
 * dropped by its owner right away (the task keeps what it needs). */
static void
test_cancel_async_and_drop_loader (void)
{
  const char *paths[] = { big_path, NULL };
  AsyncState state = { g_main_loop_new (NULL, FALSE), 1, 0, 0, 0 };
  CsLoader *loader = cs_loader_new ();
  GCancellable *cancellable = g_cancellable_new ();

  cs_loader_load_async (loader, paths, cancellable, on_loaded, &state);
  g_object_unref (loader);
  g_timeout_add_full (G_PRIORITY_DEFAULT, 5, cancel_idle, cancellable, g_object_unref);
  g_main_loop_run (state.loop);
  g_assert_cmpuint (state.cancelled + state.finished, ==, 1);
  g_main_loop_unref (state.loop);
}

/* A second file opened while the first loads: two loaders (as two windows, or
 * one window replacing its loader), the first cancelled; both callbacks come,
 * and the second brings its own file. */
static void
test_second_load_mid_load (void)
{
  const char *big[] = { big_path, NULL };
  const char *small[] = { small_path, NULL };
  AsyncState state = { g_main_loop_new (NULL, FALSE), 2, 0, 0, 0 };
  g_autoptr (CsLoader) first = cs_loader_new ();
  g_autoptr (CsLoader) second = cs_loader_new ();
  g_autoptr (GCancellable) cancel_first = g_cancellable_new ();

  cs_loader_load_async (first, big, cancel_first, on_loaded, &state);
  g_cancellable_cancel (cancel_first);
  cs_loader_load_async (second, small, NULL, on_loaded, &state);
  g_main_loop_run (state.loop);
  g_assert_cmpuint (state.cancelled, ==, 1);
  g_assert_cmpuint (state.finished, ==, 1);
  g_assert_cmpuint (state.last_packets, ==, 207);
  g_main_loop_unref (state.loop);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  write_captures ();
  g_test_add_func ("/hostile-cancel/blocking", test_cancel_blocking);
  g_test_add_func ("/hostile-cancel/async-and-drop-loader", test_cancel_async_and_drop_loader);
  g_test_add_func ("/hostile-cancel/second-load-mid-load", test_second_load_mid_load);
  status = g_test_run ();
  remove_tmp_dir (tmp_dir);
  g_free (tmp_dir);
  g_free (big_path);
  g_free (small_path);
  return status;
}
