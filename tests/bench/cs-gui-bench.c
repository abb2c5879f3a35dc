/* cs-gui-bench.c — how soon rows appear, and how smooth the window stays, while a real CsWindow
 * loads a capture. Not a test: it prints numbers. Run it under Xvfb with the built schemas:
 *
 *   GSETTINGS_SCHEMA_DIR=build/data GSETTINGS_BACKEND=memory GSK_RENDERER=cairo \
 *     xvfb-run -a build/tests/bench/cs-gui-bench [--runs N] [--png FILE] [--png-loaded FILE] B.pcap
 *
 * Times are from cs_window_open_files (): first row in the calls list (the filtered, sorted
 * model the column view shows), the first frame painted with rows, half of the final rows,
 * loaded (the window leaves its loading state). A 1 ms timeout at high priority measures its
 * own lateness: the worst is the longest the main loop was busy in one go. */
#include <gtk/gtk.h>
#include <locale.h>
#include <string.h>
#include <time.h>

#include "cs-application.h"
#include "cs-window-private.h"

#define CS_GUI_BENCH_TIMEOUT_US (300 * G_USEC_PER_SEC)
#define CS_GUI_BENCH_N_WORST 5

typedef struct
{
  gint64 at_us;
  guint n_rows;
} RowsSample;

typedef struct
{
  gint64 started_us;
  gint64 first_row_us;
  gint64 first_painted_us;
  gint64 loaded_us;
  GArray *rows; /* RowsSample, each change of the shown model's size */
  /* publish batches: main-loop dispatches that changed the calls model */
  guint batches;
  guint batches_while_loading;
  guint emissions;
  gboolean batch_open;
  gboolean loading;
  /* main-loop lateness */
  gint64 last_tick_us;
  gint64 last_tick_cpu_us;
  gint64 worst_busy_us;         /* main-thread CPU time between two ticks, at most */
  gint64 busy_while_loading_us; /* main-thread CPU time while loading */
  gint64 finish_busy_us;        /* main-thread CPU time of the dispatch that ends the load */
  gint64 placing_busy_us;       /* main-thread CPU from the load's result to loaded */
  gint64 worst_placing_busy_us; /* of that, at most between two ticks */
  gint64 worst_us[CS_GUI_BENCH_N_WORST]; /* longest first */
  gint64 worst_at_us[CS_GUI_BENCH_N_WORST];
  gint64 worst_finish_us; /* the dispatch that ends the load (final rows, all the views) */
  gint64 worst_after_load_us;
  guint stalls_over_50ms;
  GListModel *calls; /* the analysis's calls, once the window has it */
  /* a picture of the window with its first rows, while loading */
  CsWindow *window;
  const char *png;
  gboolean png_taken;
} Bench;

static gint64
since_start_us (Bench *bench)
{
  return g_get_monotonic_time () - bench->started_us;
}

static gboolean
close_batch (gpointer data)
{
  ((Bench *) data)->batch_open = FALSE;
  return G_SOURCE_REMOVE;
}

static void
on_calls_changed (GListModel *model, guint position, guint removed, guint added, Bench *bench)
{
  bench->emissions++;
  if (bench->batch_open)
    return;
  /* Everything emitted before this high-priority idle runs belongs to one dispatch. */
  bench->batch_open = TRUE;
  bench->batches++;
  bench->batches_while_loading += bench->loading;
  g_idle_add_full (G_PRIORITY_HIGH, close_batch, bench, NULL);
}

/* The window learns of the analysis (and shows its rows) on the loader's notify::analysis;
 * this handler runs after the window's. */
static void
on_analysis (GObject *loader, GParamSpec *pspec, Bench *bench)
{
  GListModel *calls;

  if (bench->calls != NULL || bench->window->analysis == NULL)
    return;
  calls = bench->calls = cs_analysis_get_calls (bench->window->analysis);
  g_signal_connect (calls, "items-changed", G_CALLBACK (on_calls_changed), bench);
  /* the loader publishes before it notifies: that first batch happened already */
  if (g_list_model_get_n_items (calls) > 0)
    on_calls_changed (calls, 0, 0, g_list_model_get_n_items (calls), bench);
}

static void
save_png (Bench *bench)
{
  GtkWidget *widget = GTK_WIDGET (bench->window);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL)
    return;
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (widget)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  gdk_texture_save_to_png (texture, bench->png);
}

static void
on_shown_changed (GListModel *model, guint position, guint removed, guint added, Bench *bench)
{
  RowsSample sample = { since_start_us (bench), g_list_model_get_n_items (model) };

  if (bench->rows->len > 0
      && g_array_index (bench->rows, RowsSample, bench->rows->len - 1).n_rows == sample.n_rows)
    return;
  g_array_append_val (bench->rows, sample);
  if (sample.n_rows > 0 && bench->first_row_us < 0)
    bench->first_row_us = sample.at_us;
}

static void
on_after_paint (GdkFrameClock *clock, Bench *bench)
{
  guint n_rows = g_list_model_get_n_items (cs_window_get_calls_model (bench->window));

  if (n_rows > 0 && bench->first_painted_us < 0)
    bench->first_painted_us = since_start_us (bench);
  /* The picture is taken between frames, so it shows what the last frame showed. */
  if (bench->png != NULL && !bench->png_taken && bench->loading && n_rows > 0)
    {
      bench->png_taken = TRUE;
      save_png (bench);
    }
}

static void
note_stall (Bench *bench, gint64 late_us)
{
  gint64 at_us = since_start_us (bench);

  if (!bench->loading)
    {
      /* the dispatch that ended the load began before it was seen as loaded */
      if (at_us - late_us < bench->loaded_us)
        bench->worst_finish_us = MAX (bench->worst_finish_us, late_us);
      else
        bench->worst_after_load_us = MAX (bench->worst_after_load_us, late_us);
      return;
    }
  bench->stalls_over_50ms += late_us > 50 * 1000;
  for (guint i = 0; i < CS_GUI_BENCH_N_WORST; i++)
    if (late_us > bench->worst_us[i])
      {
        memmove (bench->worst_us + i + 1, bench->worst_us + i,
                 (CS_GUI_BENCH_N_WORST - 1 - i) * sizeof (gint64));
        memmove (bench->worst_at_us + i + 1, bench->worst_at_us + i,
                 (CS_GUI_BENCH_N_WORST - 1 - i) * sizeof (gint64));
        bench->worst_us[i] = late_us;
        bench->worst_at_us[i] = at_us - late_us;
        break;
      }
}

/* CPU time of the calling (main) thread */
static gint64
thread_cpu_us (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static gboolean
on_tick (gpointer data)
{
  Bench *bench = data;
  gint64 now = g_get_monotonic_time (), cpu = thread_cpu_us ();
  gint64 late = MAX (0, now - bench->last_tick_us - 1000);

  /* The timeout asks for 1 ms; anything beyond it the loop spent elsewhere. */
  note_stall (bench, late);
  if (!bench->loading && bench->last_tick_us < bench->started_us + bench->loaded_us)
    bench->finish_busy_us = MAX (bench->finish_busy_us, cpu - bench->last_tick_cpu_us);
  /* Of that, how much the main thread itself ran (the rest: waiting for a CPU, a lock or
   * the X server) */
  if (bench->loading && late > 0)
    bench->worst_busy_us = MAX (bench->worst_busy_us, cpu - bench->last_tick_cpu_us);
  if (bench->loading)
    bench->busy_while_loading_us += cpu - bench->last_tick_cpu_us;
  /* the load thread is done (the window dropped its loader): the real calls take the rows */
  if (bench->loading && bench->window->loader == NULL)
    {
      bench->placing_busy_us += cpu - bench->last_tick_cpu_us;
      bench->worst_placing_busy_us
          = MAX (bench->worst_placing_busy_us, cpu - bench->last_tick_cpu_us);
    }
  bench->last_tick_us = now;
  bench->last_tick_cpu_us = cpu;
  return G_SOURCE_CONTINUE;
}

static void
spin_ms (guint ms)
{
  gint64 until = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < until)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (500);
}

static gint64
rows_time_us (Bench *bench, guint wanted)
{
  for (guint i = 0; i < bench->rows->len; i++)
    if (g_array_index (bench->rows, RowsSample, i).n_rows >= wanted)
      return g_array_index (bench->rows, RowsSample, i).at_us;
  return -1;
}

static double
ms (gint64 us)
{
  return us < 0 ? -1 : us / 1000.0;
}

static gboolean
run_once (CsApplication *application, const char *path, const char *png, const char *png_loaded,
          guint run)
{
  CsWindow *window = cs_window_new (application);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  Bench bench = { 0 };
  GdkFrameClock *clock;
  GListModel *shown;
  guint tick_id, n_rows;
  gint64 half_us;

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  spin_ms (300);

  bench.rows = g_array_new (FALSE, FALSE, sizeof (RowsSample));
  bench.first_row_us = bench.first_painted_us = -1;
  bench.window = window;
  bench.png = png;
  shown = cs_window_get_calls_model (window);
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  g_signal_connect (shown, "items-changed", G_CALLBACK (on_shown_changed), &bench);
  g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &bench);

  bench.started_us = g_get_monotonic_time ();
  bench.last_tick_us = bench.started_us;
  bench.last_tick_cpu_us = thread_cpu_us ();
  bench.loading = TRUE;
  tick_id = g_timeout_add_full (G_PRIORITY_HIGH, 1, on_tick, &bench, NULL);
  cs_window_open_files (window, &file, 1);
  if (cs_window_get_state (window) != CS_WINDOW_STATE_LOADING)
    {
      g_printerr ("%s: did not start loading\n", path);
      return FALSE;
    }
  g_signal_connect (window->loader, "notify::analysis", G_CALLBACK (on_analysis), &bench);
  on_analysis (NULL, NULL, &bench);
  while (cs_window_get_state (window) == CS_WINDOW_STATE_LOADING
         && since_start_us (&bench) < CS_GUI_BENCH_TIMEOUT_US)
    g_main_context_iteration (NULL, TRUE);
  bench.loaded_us = since_start_us (&bench);
  bench.loading = FALSE;
  if (cs_window_get_state (window) != CS_WINDOW_STATE_LOADED)
    {
      g_printerr ("%s: not loaded after %d s\n", path, (int) (CS_GUI_BENCH_TIMEOUT_US / 1000000));
      return FALSE;
    }
  /* what the window does once loaded (final rows, streams, findings) also counts */
  spin_ms (1000);
  g_source_remove (tick_id);
  if (png_loaded != NULL)
    {
      bench.png = png_loaded;
      save_png (&bench);
    }

  n_rows = g_list_model_get_n_items (shown);
  half_us = rows_time_us (&bench, (n_rows + 1) / 2);
  g_print ("run %u: %u rows (%u calls)\n", run, n_rows,
           bench.calls != NULL ? g_list_model_get_n_items (bench.calls) : 0);
  g_print ("  first row      %8.1f ms\n", ms (bench.first_row_us));
  g_print ("  first painted  %8.1f ms\n", ms (bench.first_painted_us));
  g_print ("  50%% of rows    %8.1f ms%s\n", ms (half_us),
           half_us >= bench.loaded_us ? "  (only when loaded)" : "");
  g_print ("  loaded         %8.1f ms\n", ms (bench.loaded_us));
  g_print ("  publish batches %u while loading, %u in all; %u items-changed on the calls\n",
           bench.batches_while_loading, bench.batches, bench.emissions);
  g_print ("  row counts seen while loading: %u\n", bench.rows->len);
  g_print ("  worst stall while loading %6.1f ms (at", ms (bench.worst_us[0]));
  for (guint i = 0; i < CS_GUI_BENCH_N_WORST && bench.worst_us[i] > 0; i++)
    g_print (" %.0f ms: %.1f;", ms (bench.worst_at_us[i]), ms (bench.worst_us[i]));
  g_print (")\n  stalls over 50 ms while loading: %u\n", bench.stalls_over_50ms);
  g_print ("  main thread CPU while loading %.1f ms; at most %.1f ms between two ticks\n",
           ms (bench.busy_while_loading_us), ms (bench.worst_busy_us));
  g_print ("  from the load's result to loaded: main thread CPU %.1f ms, at most %.1f ms "
           "between two ticks\n",
           ms (bench.placing_busy_us), ms (bench.worst_placing_busy_us));
  g_print ("  stall of the load's end   %6.1f ms (main thread CPU %.1f ms)\n",
           ms (bench.worst_finish_us), ms (bench.finish_busy_us));
  g_print ("  worst stall in the 1 s after loaded %6.1f ms\n", ms (bench.worst_after_load_us));

  g_signal_handlers_disconnect_by_data (clock, &bench);
  g_signal_handlers_disconnect_by_data (shown, &bench);
  if (bench.calls != NULL)
    g_signal_handlers_disconnect_by_data (bench.calls, &bench);
  gtk_window_destroy (GTK_WINDOW (window));
  spin_ms (200);
  g_array_unref (bench.rows);
  return TRUE;
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GOptionContext) options = g_option_context_new ("CAPTURE");
  g_autoptr (CsApplication) application = NULL;
  int runs = 1;
  char *png = NULL, *png_loaded = NULL;
  GOptionEntry entries[] = {
    { "runs", 'r', 0, G_OPTION_ARG_INT, &runs, "Loads in a row (default 1)", "N" },
    { "png", 0, 0, G_OPTION_ARG_FILENAME, &png,
      "Save the window as it looks with the first rows, while loading", "FILE" },
    { "png-loaded", 0, 0, G_OPTION_ARG_FILENAME, &png_loaded,
      "Save the window as it looks a second after it is loaded", "FILE" },
    { NULL },
  };

  g_option_context_add_main_entries (options, entries, NULL);
  if (!g_option_context_parse (options, &argc, &argv, &error) || argc != 2)
    {
      g_printerr ("usage: %s [--runs N] [--png FILE] CAPTURE\n",
                  g_get_prgname () != NULL ? g_get_prgname () : "cs-gui-bench");
      return 2;
    }
  if (!gtk_init_check ())
    {
      g_printerr ("no display: run under xvfb-run -a\n");
      return 2;
    }
  setlocale (LC_NUMERIC, "C");
  application = cs_application_new ();
  g_application_set_flags (G_APPLICATION (application),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (application), NULL, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  for (int i = 0; i < MAX (runs, 1); i++)
    if (!run_once (application, argv[1], i == 0 ? png : NULL, i == 0 ? png_loaded : NULL, i + 1))
      return 1;
  g_free (png);
  g_free (png_loaded);
  return 0;
}
