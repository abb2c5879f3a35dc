/* test-progressive-load.c — rows appear while a large capture is still loading, in a few
 * publish batches (never one items-changed per call), and the real calls replace them */
#include "ui-test-util.h"
#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "cs-application.h"
#include "cs-window-private.h"

/* SIP only: the merge is the slow side, so the load lasts long enough for several batches
 * (about 140 000 messages, 68 MB). */
#define PROGRESSIVE_CALLS 60000

static CsApplication *application;

typedef struct
{
  CsWindow *window;
  GListModel *calls; /* the analysis's calls, once the window has it */
  guint batches_while_loading;
  guint emissions_while_loading;
  guint max_rows_while_loading;     /* calls shown as copies */
  guint shown_while_loading;        /* rows of copies in the list (filtered, sorted) */
  guint rows_changes_while_loading; /* distinct row counts of copies seen in the list */
  gboolean batch_open;
  guint real_changes;        /* items-changed that put real calls in the list */
  guint max_real_per_change; /* most real calls one of them put there */
  gint64 opened_us;          /* when the file was opened */
  guint late_real_changes;   /* real calls put there past the placing deadline */
} Watch;

/* The analysis places the rest of the real calls at once when placing them in slices has
 * taken this long (CS_PLACE_DEADLINE_US: on a machine too busy to draw the slices); its
 * placing starts after the file was opened, so a change this long after the opening may
 * be that last one. */
#define PLACE_DEADLINE_US (3 * G_USEC_PER_SEC)

static gboolean
close_batch (gpointer data)
{
  ((Watch *) data)->batch_open = FALSE;
  return G_SOURCE_REMOVE;
}

static gboolean
is_loading (Watch *watch)
{
  return cs_window_get_state (watch->window) == CS_WINDOW_STATE_LOADING;
}

/* Copies shown while loading have no transactions; the real calls (published when the load
 * completes, still in the loading state) have at least one each. */
static gboolean
is_copy (GListModel *model, guint position)
{
  g_autoptr (CsCall) call = g_list_model_get_item (model, position);

  return call != NULL && cs_call_get_n_transactions (call) == 0;
}

static void
on_calls_changed (GListModel *model, guint position, guint removed, guint added, Watch *watch)
{
  if (added > 0 && !is_copy (model, position))
    {
      /* the real calls take the rows in slices: a list view rebuilds no more than a slice's
       * rows in one go */
      watch->real_changes++;
      if (g_get_monotonic_time () - watch->opened_us >= PLACE_DEADLINE_US)
        watch->late_real_changes++;
      else
        watch->max_real_per_change = MAX (watch->max_real_per_change, added);
      return;
    }
  if (!is_loading (watch) || added == 0)
    return;
  watch->max_rows_while_loading
      = MAX (watch->max_rows_while_loading, g_list_model_get_n_items (model));
  watch->emissions_while_loading++;
  if (watch->batch_open)
    return;
  /* everything emitted before this high-priority idle runs is one dispatch: one batch */
  watch->batch_open = TRUE;
  watch->batches_while_loading++;
  g_idle_add_full (G_PRIORITY_HIGH, close_batch, watch, NULL);
}

static void
on_analysis (GObject *loader, GParamSpec *pspec, Watch *watch)
{
  if (watch->calls != NULL || watch->window->analysis == NULL)
    return;
  watch->calls = cs_analysis_get_calls (watch->window->analysis);
  g_signal_connect (watch->calls, "items-changed", G_CALLBACK (on_calls_changed), watch);
  /* the loader publishes before it notifies: count a batch already shown */
  if (g_list_model_get_n_items (watch->calls) > 0)
    on_calls_changed (watch->calls, 0, 0, g_list_model_get_n_items (watch->calls), watch);
}

static void
on_shown_changed (GListModel *shown, guint position, guint removed, guint added, Watch *watch)
{
  guint n = g_list_model_get_n_items (shown);

  if (!is_loading (watch) || n == watch->shown_while_loading || n == 0 || !is_copy (shown, 0))
    return;
  watch->shown_while_loading = n;
  watch->rows_changes_while_loading++;
}

static char *
write_capture (const char *dir)
{
  const char *generator = g_getenv ("CS_BENCH_GEN");
  g_autofree char *calls = g_strdup_printf ("%d", PROGRESSIVE_CALLS);
  char *path = g_build_filename (dir, "progressive.pcap", NULL);
  const char *argv[]
      = { generator, "--calls", calls, "--call-ids", "0", "--no-rtp", "-o", path, NULL };
  g_autoptr (GError) error = NULL;
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                               NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return path;
}

static void
test_rows_while_loading (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL, *path = NULL;
  g_autoptr (GFile) file = NULL;
  g_autoptr (CsCall) first = NULL;
  Watch watch = { 0 };
  GListModel *shown;
  gint64 opened_us, load_us;

  if (g_getenv ("CS_BENCH_GEN") == NULL)
    {
      g_test_skip ("CS_BENCH_GEN is not set");
      return;
    }
  dir = g_dir_make_tmp ("cs-progressive-XXXXXX", &error);
  g_assert_no_error (error);
  path = write_capture (dir);
  file = g_file_new_for_path (path);

  watch.window = cs_window_new (application);
  gtk_window_set_default_size (GTK_WINDOW (watch.window), 1280, 800);
  gtk_window_present (GTK_WINDOW (watch.window));
  ui_test_spin (200);
  shown = cs_window_get_calls_model (watch.window);
  g_signal_connect (shown, "items-changed", G_CALLBACK (on_shown_changed), &watch);

  opened_us = watch.opened_us = g_get_monotonic_time ();
  cs_window_open_files (watch.window, &file, 1);
  g_assert_cmpint (cs_window_get_state (watch.window), ==, CS_WINDOW_STATE_LOADING);
  g_signal_connect (watch.window->loader, "notify::analysis", G_CALLBACK (on_analysis), &watch);
  on_analysis (NULL, NULL, &watch);
  ui_test_wait_for_load (watch.window);
  load_us = g_get_monotonic_time () - opened_us;
  g_assert_cmpint (cs_window_get_state (watch.window), ==, CS_WINDOW_STATE_LOADED);
  g_test_message ("while loading (%.2f s): %u batches, %u items-changed, up to %u rows (%u row "
                  "counts)",
                  load_us / 1e6, watch.batches_while_loading, watch.emissions_while_loading,
                  watch.max_rows_while_loading, watch.rows_changes_while_loading);

  /* Rows were in the list before the load finished, and more came in later batches. */
  g_assert_cmpuint (watch.max_rows_while_loading, >, 0);
  g_assert_cmpuint (watch.shown_while_loading, >, 0);
  /* The loader stages copies about five times a second: a load that ends sooner
   * has had room for one batch only (the engine got fast enough for that). */
  if (load_us >= 600 * 1000)
    {
      g_assert_cmpuint (watch.batches_while_loading, >=, 2);
      g_assert_cmpuint (watch.rows_changes_while_loading, >=, 2);
    }
  else
    g_assert_cmpuint (watch.batches_while_loading, >=, 1);
  /* Batches, not a signal per call: a few items-changed each (slices that double). */
  g_assert_cmpuint (watch.emissions_while_loading, <=, 20 * watch.batches_while_loading);
  g_assert_cmpuint (watch.emissions_while_loading, <, watch.max_rows_while_loading / 4 + 20);

  /* Loaded: every call, and the rows are the real calls (with their transactions), not the
   * copies shown while loading. */
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, PROGRESSIVE_CALLS);
  g_assert_cmpuint (g_list_model_get_n_items (watch.calls), ==, PROGRESSIVE_CALLS);
  first = g_list_model_get_item (watch.calls, 0);
  g_assert_cmpuint (cs_call_get_n_transactions (first), >, 0);
  /* ...put there in slices, not by one items-changed over every row */
  g_test_message ("real calls: %u items-changed, at most %u rows each (%u more past the "
                  "deadline)",
                  watch.real_changes, watch.max_real_per_change, watch.late_real_changes);
  g_assert_cmpuint (watch.real_changes, >, 1);
  g_assert_cmpuint (watch.max_real_per_change, <=, 64);

  g_signal_handlers_disconnect_by_data (shown, &watch);
  g_signal_handlers_disconnect_by_data (watch.calls, &watch);
  gtk_window_destroy (GTK_WINDOW (watch.window));
  ui_test_spin (100);
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

int
main (int argc, char **argv)
{
  application = ui_test_init (&argc, &argv);
  if (application == NULL)
    return 0;
  g_test_add_func ("/progressive-load/rows-while-loading", test_rows_while_loading);
  return g_test_run ();
}
