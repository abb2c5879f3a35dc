/* test-streams.c — streams view, graphs, MOS table and findings on the demo capture, in the window
 */
#include "ui-test-util.h"
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "cs-application.h"
#include "cs-window-private.h"

static CsApplication *application;
static CsWindow *shared_window; /* the demo, loaded once for every test */

static CsWindow *
load_demo (void)
{
  return ui_test_load_demo (application, 1280, 800);
}

/* The loaded demo window with nothing selected. */
static CsWindow *
open_demo (void)
{
  if (shared_window == NULL)
    shared_window = load_demo ();
  if (shared_window != NULL)
    {
      cs_selection_clear (shared_window->selection);
      cs_graph_view_set_kind (shared_window->graph_view, CS_GRAPH_KIND_JITTER);
    }
  return shared_window;
}

/* The demo's call with loss and jitter: the stream with the most loss. */
static CsStream *
lossy_stream (CsWindow *window)
{
  GListModel *streams = cs_analysis_get_streams (window->analysis);
  CsStream *worst = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (streams); i++)
    {
      g_autoptr (CsStream) stream = g_list_model_get_item (streams, i);
      if (worst == NULL || cs_stream_get_stats (stream)->lost > cs_stream_get_stats (worst)->lost)
        worst = stream;
    }
  g_assert_nonnull (worst);
  g_assert_cmpint (cs_stream_get_stats (worst)->lost, >, 0);
  return worst;
}

static guint
series_index_of (CsWindow *window, CsStream *stream)
{
  for (guint i = 0; i < cs_graph_view_get_n_streams (window->graph_view); i++)
    if (cs_graph_view_get_stream (window->graph_view, i) == stream)
      return i;
  g_assert_not_reached ();
  return 0;
}

static GdkTexture *
render_window (gpointer window, const char *png_name)
{
  int width = gtk_widget_get_width (GTK_WIDGET (window));
  int height = gtk_widget_get_height (GTK_WIDGET (window));
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (GTK_WIDGET (window));
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autofree char *png = g_test_build_filename (G_TEST_BUILT, png_name, NULL);
  GdkTexture *texture;

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_test_message ("rendered %dx%d to %s", width, height, png);
  return texture;
}

/* Selecting a stream in the list selects it (and its call) everywhere; the graph
 * shows both directions and its series carry the engine's numbers. */
static void
test_select_stream_graph_series (void)
{
  CsWindow *window = open_demo ();
  CsStream *stream;
  const CsRtpStats *stats;
  const CsGraph *graph;
  const CsGraphSeries *series;
  guint index, loss_markers = 0, lost = 0;
  double max_delta = 0;
  guint32 max_delta_frame = 0;

  if (window == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  g_assert_cmpuint (
      g_list_model_get_n_items (cs_streams_view_get_shown_model (window->streams_view)), ==,
      g_list_model_get_n_items (cs_analysis_get_streams (window->analysis)));
  stream = lossy_stream (window);
  stats = cs_stream_get_stats (stream);
  gtk_stack_set_visible_child_name (window->view_stack, "streams");
  g_assert_true (cs_streams_view_select_stream (window->streams_view, cs_stream_get_id (stream)));
  g_assert_true (cs_selection_get_stream (window->selection) == stream);
  g_assert_nonnull (cs_selection_get_call (window->selection));
  g_assert_cmpuint (cs_call_get_number (cs_selection_get_call (window->selection)), ==,
                    cs_stream_get_call_number (stream));

  /* Both directions of the call, overlaid. */
  g_assert_cmpuint (cs_graph_view_get_n_streams (window->graph_view), ==, 2);
  index = series_index_of (window, stream);
  graph = cs_graph_view_get_graph (window->graph_view);
  g_assert_nonnull (graph);
  g_assert_cmpint (graph->kind, ==, CS_GRAPH_KIND_JITTER);
  series = cs_graph_get_series (graph, index);
  g_assert_cmpuint (series->stream_id, ==, cs_stream_get_id (stream));
  g_assert_cmpuint (series->points->len, ==, stats->packets);
  g_assert_cmpfloat_with_epsilon (
      g_array_index (series->points, CsGraphPoint, series->points->len - 1).value,
      stats->last_jitter_ms, 1e-9);
  for (guint i = 0; i < series->markers->len; i++)
    {
      const CsGraphMarker *m = &g_array_index (series->markers, CsGraphMarker, i);
      if (m->kind == CS_GRAPH_MARKER_LOSS)
        {
          loss_markers++;
          lost += m->count;
        }
    }
  g_assert_cmpuint (lost, ==, (guint) stats->lost);
  g_assert_cmpuint (loss_markers, <=, stats->sequence_errors);
  g_assert_cmpuint (loss_markers, >, 0);

  /* Delta: the largest point is tshark's max delta, at its frame. */
  cs_graph_view_set_kind (window->graph_view, CS_GRAPH_KIND_DELTA);
  graph = cs_graph_view_get_graph (window->graph_view);
  series = cs_graph_get_series (graph, index);
  for (guint i = 0; i < series->points->len; i++)
    {
      const CsGraphPoint *p = &g_array_index (series->points, CsGraphPoint, i);
      if (p->value > max_delta)
        {
          max_delta = p->value;
          max_delta_frame = p->frame;
        }
    }
  g_assert_cmpfloat_with_epsilon (max_delta, stats->max_delta_ms, 1e-9);
  g_assert_cmpuint (max_delta_frame, ==, stats->max_delta_frame);
  g_test_message ("stream %u: %u packets, lost %d in %u gaps, max delta %.3f ms at frame %u",
                  cs_stream_get_id (stream), stats->packets, stats->lost, loss_markers, max_delta,
                  max_delta_frame);

  /* Clicking that point moves the shared cursor to its frame and arrival time. */
  {
    CsGraphCanvas *canvas = cs_graph_view_get_canvas (window->graph_view);
    const GArray *packets = cs_stream_get_packets (stream);
    double x, y;
    guint point = 0, hs, hp;
    gint64 arrival = 0;

    for (guint i = 0; i < series->points->len; i++)
      if (g_array_index (series->points, CsGraphPoint, i).frame == max_delta_frame)
        point = i;
    for (guint i = 0; i < packets->len; i++)
      if (g_array_index (packets, CsRtpPacket, i).frame == max_delta_frame)
        arrival = g_array_index (packets, CsRtpPacket, i).arrival_ns;
    g_assert_true (cs_graph_canvas_point_position (canvas, index, point, &x, &y));
    g_assert_true (cs_graph_canvas_hover_at (canvas, x, y));
    g_assert_true (cs_graph_canvas_get_hover (canvas, &hs, &hp));
    g_assert_cmpuint (hs, ==, index);
    g_assert_cmpuint (hp, ==, point);
    g_assert_true (cs_graph_canvas_click_at (canvas, x, y));
    g_assert_cmpuint (cs_selection_get_frame (window->selection), ==, max_delta_frame);
    g_assert_cmpint (cs_selection_get_time_ns (window->selection), ==, arrival);
    g_assert_true (cs_selection_get_stream (window->selection) == stream);
    g_assert_cmpfloat_with_epsilon (
        cs_graph_canvas_get_cursor (canvas),
        (double) (arrival - cs_analysis_get_stats (window->analysis)->first_ns) / 1e9, 1e-9);
    /* Far from every point nothing is hit. */
    g_assert_false (cs_graph_canvas_click_at (canvas, 2, 2));
  }

  /* Zoom keeps the cursor in view; reset shows everything again. */
  {
    CsGraphCanvas *canvas = cs_graph_view_get_canvas (window->graph_view);
    CsGraphViewport before, after;

    cs_graph_canvas_get_viewport (canvas, &before);
    cs_graph_canvas_zoom (canvas, 4.0);
    cs_graph_canvas_get_viewport (canvas, &after);
    g_assert_cmpfloat_with_epsilon (after.t1 - after.t0, (before.t1 - before.t0) / 4, 1e-9);
    g_assert_cmpfloat (cs_graph_canvas_get_cursor (canvas), >=, after.t0);
    g_assert_cmpfloat (cs_graph_canvas_get_cursor (canvas), <=, after.t1);
    cs_graph_canvas_reset_zoom (canvas);
    cs_graph_canvas_get_viewport (canvas, &after);
    g_assert_cmpfloat (after.t0, ==, before.t0);
    g_assert_cmpfloat (after.t1, ==, before.t1);
  }

  /* Screenshots of the problem at a glance, light and dark. */
  cs_graph_view_set_kind (window->graph_view, CS_GRAPH_KIND_JITTER);
  ui_test_spin (300);
  g_object_unref (render_window (window, "streams-jitter.png"));
  cs_graph_view_set_kind (window->graph_view, CS_GRAPH_KIND_DELTA);
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE, NULL);
  ui_test_spin (300);
  g_object_unref (render_window (window, "streams-delta-dark.png"));
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", FALSE, NULL);

  /* Export of the graph as shown. */
  {
    g_autoptr (GError) error = NULL;
    g_autofree char *svg = g_test_build_filename (G_TEST_BUILT, "streams-delta.svg", NULL);
    g_autofree char *contents = NULL;

    g_assert_true (cs_graph_view_export (window->graph_view, svg, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (svg, &contents, NULL, NULL));
    g_assert_nonnull (strstr (contents, "<svg"));
  }
}

/* The MOS table: one row per direction; the jitter buffer recomputes loss and MOS. */
static void
test_mos_table_jitter_buffer (void)
{
  CsWindow *window = open_demo ();
  CsMosTable *table;
  CsStream *stream;
  CsMosTableRow row, at0, at300;
  guint index;

  if (window == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  stream = lossy_stream (window);
  cs_selection_select (window->selection, NULL, stream, 0, 0);
  table = cs_graph_view_get_mos_table (window->graph_view);
  g_assert_cmpuint (cs_mos_table_get_n_rows (table), ==, 2);
  g_assert_cmpuint (cs_mos_table_get_jitter_buffer_ms (table), ==, 50);
  index = series_index_of (window, stream);
  g_assert_true (cs_mos_table_get_row (table, index, &row));
  g_assert_cmpuint (row.stream_id, ==, cs_stream_get_id (stream));
  /* At the default 50 ms the table is the engine's stream MOS. */
  g_assert_cmpfloat_with_epsilon (row.mos.mos, cs_stream_get_mos (stream)->mos, 1e-9);
  g_assert_cmpfloat_with_epsilon (
      row.loss_pct,
      100.0 * cs_stream_get_stats (stream)->lost / cs_stream_get_stats (stream)->expected, 1e-9);

  cs_mos_table_set_jitter_buffer_ms (table, 0);
  g_assert_true (cs_mos_table_get_row (table, index, &at0));
  cs_mos_table_set_jitter_buffer_ms (table, 300);
  g_assert_true (cs_mos_table_get_row (table, index, &at300));
  g_test_message ("stream %u MOS: %.3f (0 ms, %.2f%% eff. loss), %.3f (50 ms, %.2f%%), %.3f "
                  "(300 ms, %.2f%%)",
                  row.stream_id, at0.mos.mos, at0.effective_loss_pct, row.mos.mos,
                  row.effective_loss_pct, at300.mos.mos, at300.effective_loss_pct);
  /* No buffer: jittered packets are late too. 300 ms: only network loss remains,
   * but the delay costs Id. */
  g_assert_cmpfloat (at0.effective_loss_pct, >, row.effective_loss_pct);
  g_assert_cmpfloat (at0.mos.mos, <, row.mos.mos);
  g_assert_cmpfloat_with_epsilon (at300.effective_loss_pct, at300.loss_pct, 1e-9);
  g_assert_cmpfloat (at300.mos.id, >, row.mos.id);
  /* By hand (docs/metrics.md, G.107), from what the demo generator wrote: 20 ms G.711A
   * packets with 15-40 ms of jitter, so a 300 ms buffer plays every packet that came and
   * only network loss counts (Ppl = lost/expected, which the golden suite holds to the
   * generator); d = 300 + 20 + 20 = 340 ms, Id = 0.024·340 + 0.11·(340 − 177.3) = 26.057;
   * G.711 with PLC: Ie 0, Bpl 25.1. */
  {
    double ppl
        = 100.0 * cs_stream_get_stats (stream)->lost / cs_stream_get_stats (stream)->expected;
    double ie_eff = 95.0 * ppl / (ppl / at300.mos.burst_ratio + 25.1);
    double r = 93.2 - 26.057 - ie_eff;

    g_assert_cmpfloat_with_epsilon (at300.mos.delay_ms, 340, 1e-9);
    g_assert_cmpfloat_with_epsilon (at300.mos.id, 26.057, 1e-9);
    g_assert_cmpfloat_with_epsilon (at300.mos.ppl, ppl, 1e-9);
    g_assert_cmpfloat_with_epsilon (at300.mos.ie_eff, ie_eff, 1e-9);
    g_assert_cmpfloat_with_epsilon (at300.mos.r, r, 1e-9);
    g_assert_cmpfloat_with_epsilon (at300.mos.mos, 1 + 0.035 * r + 7e-6 * r * (r - 60) * (100 - r),
                                    1e-9);
    /* the generator loses 1 to 4 packets in a row: bursts are longer than random loss's */
    g_assert_cmpfloat (at300.mos.burst_ratio, >, 1.0);
  }
  /* The clean direction (no loss, no jitter in the generator) with 50 ms, by hand as in
   * docs/metrics.md: d = 50 + 20 + 20 = 90 ms, Id = 2.16, Ie_eff = 0, R = 91.04,
   * MOS = 1 + 0.035·91.04 + 7e-6·91.04·31.04·8.96 = 4.363639. */
  cs_mos_table_set_jitter_buffer_ms (table, 50);
  g_assert_true (cs_mos_table_get_row (table, 1 - index, &row));
  g_assert_cmpfloat_with_epsilon (row.mos.delay_ms, 90, 1e-9);
  g_assert_cmpfloat_with_epsilon (row.mos.id, 2.16, 1e-9);
  g_assert_cmpfloat_with_epsilon (row.mos.ie_eff, 0, 1e-9);
  g_assert_cmpfloat_with_epsilon (row.mos.r, 91.04, 1e-9);
  g_assert_cmpfloat_with_epsilon (row.mos.mos, 4.363639, 1e-6);

  /* The MOS graph follows the buffer of the table. */
  cs_graph_view_set_kind (window->graph_view, CS_GRAPH_KIND_MOS);
  {
    const CsGraphSeries *series
        = cs_graph_get_series (cs_graph_view_get_graph (window->graph_view), index);
    double before = g_array_index (series->points, CsGraphPoint, 0).value;
    double after;

    cs_mos_table_set_jitter_buffer_ms (table, 0);
    series = cs_graph_get_series (cs_graph_view_get_graph (window->graph_view), index);
    after = g_array_index (series->points, CsGraphPoint, 0).value;
    g_assert_cmpfloat (after, <, before);
  }
  cs_mos_table_set_jitter_buffer_ms (table, 50);
  gtk_stack_set_visible_child_name (window->view_stack, "streams");
  ui_test_spin (300);
  g_object_unref (render_window (window, "streams-mos.png"));
}

/* Activating a finding selects its call, stream and first frame. */
static void
test_finding_selects_frame (void)
{
  CsWindow *window = open_demo ();
  GListModel *shown;
  gboolean saw_stream = FALSE, saw_call = FALSE;

  if (window == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  gtk_stack_set_visible_child_name (window->view_stack, "findings");
  shown = cs_findings_view_get_shown_model (window->findings_view);
  /* identical findings are one row: the rows stand for every finding */
  {
    guint standing_for = 0;

    for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
      {
        g_autoptr (CsFinding) row = g_list_model_get_item (shown, i);

        standing_for += cs_findings_view_get_group_size (window->findings_view, row);
      }
    g_assert_cmpuint (standing_for, ==,
                      g_list_model_get_n_items (cs_analysis_get_findings (window->analysis)));
  }
  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr (CsFinding) finding = g_list_model_get_item (shown, i);
      const GArray *frames = cs_finding_get_frames (finding);
      guint32 first = g_array_index (frames, guint32, 0);

      cs_findings_view_activate (window->findings_view, finding);
      g_assert_cmpuint (cs_selection_get_frame (window->selection), ==, first);
      if (cs_finding_get_call_number (finding) != 0)
        g_assert_cmpuint (cs_call_get_number (cs_selection_get_call (window->selection)), ==,
                          cs_finding_get_call_number (finding));
      if (cs_finding_get_stream_id (finding) != 0)
        {
          CsStream *stream = cs_selection_get_stream (window->selection);
          const GArray *packets = cs_stream_get_packets (stream);
          gint64 arrival = 0;

          g_assert_cmpuint (cs_stream_get_id (stream), ==, cs_finding_get_stream_id (finding));
          for (guint k = 0; k < packets->len; k++)
            if (g_array_index (packets, CsRtpPacket, k).frame == first)
              arrival = g_array_index (packets, CsRtpPacket, k).arrival_ns;
          g_assert_cmpint (arrival, !=, 0);
          g_assert_cmpint (cs_selection_get_time_ns (window->selection), ==, arrival);
          /* The graph opens on the stream with the cursor at the frame. */
          g_assert_nonnull (cs_graph_view_get_graph (window->graph_view));
          g_assert_true (
              cs_graph_view_get_stream (window->graph_view, series_index_of (window, stream))
              == stream);
          if (cs_finding_get_kind (finding) == CS_FINDING_LOSS_BURST)
            {
              double t;
              g_assert_cmpint (cs_graph_view_get_kind (window->graph_view), ==,
                               CS_GRAPH_KIND_DELTA);
              g_assert_true (cs_graph_find_frame_time (cs_graph_view_get_graph (window->graph_view),
                                                       first, &t));
              g_assert_cmpfloat_with_epsilon (
                  cs_graph_canvas_get_cursor (cs_graph_view_get_canvas (window->graph_view)), t,
                  1e-6);
              /* Inline: the finding is marked on the graph at its frame. */
              {
                const CsGraphSeries *series = cs_graph_get_series (
                    cs_graph_view_get_graph (window->graph_view), series_index_of (window, stream));
                gboolean marked = FALSE;
                for (guint k = 0; k < series->markers->len; k++)
                  {
                    const CsGraphMarker *m = &g_array_index (series->markers, CsGraphMarker, k);
                    marked |= m->kind == CS_GRAPH_MARKER_FINDING && m->frame == first;
                  }
                g_assert_true (marked);
              }
              ui_test_spin (200);
              g_object_unref (render_window (window, "findings-loss.png"));
            }
          saw_stream = TRUE;
        }
      else
        {
          CsCall *call = cs_selection_get_call (window->selection);
          gboolean found = FALSE;

          g_assert_null (cs_selection_get_stream (window->selection));
          for (guint k = 0; k < cs_call_get_n_messages (call); k++)
            if (cs_sip_message_get_frame (cs_call_get_message (call, k)) == first)
              {
                g_assert_cmpint (cs_selection_get_time_ns (window->selection), ==,
                                 cs_sip_message_get_ts_ns (cs_call_get_message (call, k)));
                found = TRUE;
              }
          g_assert_true (found);
          saw_call = TRUE;
        }
    }
  g_assert_true (saw_stream);
  g_assert_true (saw_call);

  /* Filters: errors only, then one kind. */
  cs_findings_view_set_min_severity (window->findings_view, CS_SEVERITY_ERROR);
  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr (CsFinding) finding = g_list_model_get_item (shown, i);
      g_assert_cmpint (cs_finding_get_severity (finding), ==, CS_SEVERITY_ERROR);
    }
  g_assert_cmpuint (g_list_model_get_n_items (shown), >=, 1);
  cs_findings_view_set_min_severity (window->findings_view, CS_SEVERITY_INFO);
  cs_findings_view_set_kind_filter (window->findings_view, CS_FINDING_LOSS_BURST);
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 1);
  cs_findings_view_set_kind_filter (window->findings_view, -1);
  ui_test_spin (200);
  g_object_unref (render_window (window, "findings-view.png"));
  gtk_stack_set_visible_child_name (window->view_stack, "summary");
  ui_test_spin (200);
  g_object_unref (render_window (window, "summary-view.png"));
}

static void
count_notify (GObject *object, GParamSpec *pspec, guint *count)
{
  (*count)++;
}

/* The shared cursor notifies only real changes, so views following each other do not loop. */
static void
test_selection_notifies_changes_only (void)
{
  g_autoptr (CsSelection) selection = cs_selection_new ();
  guint frames = 0, times = 0;

  g_signal_connect (selection, "notify::frame", G_CALLBACK (count_notify), &frames);
  g_signal_connect (selection, "notify::time-ns", G_CALLBACK (count_notify), &times);
  cs_selection_set_cursor (selection, 42, 1000);
  cs_selection_set_cursor (selection, 42, 1000);
  g_assert_cmpuint (frames, ==, 1);
  g_assert_cmpuint (times, ==, 1);
  g_object_set (selection, "frame", 43, NULL);
  g_assert_cmpuint (frames, ==, 2);
  g_assert_cmpuint (cs_selection_get_frame (selection), ==, 43);
  cs_selection_clear (selection);
  g_assert_cmpuint (frames, ==, 3);
  g_assert_cmpuint (times, ==, 2);
  g_assert_cmpint (cs_selection_get_time_ns (selection), ==, 0);
  g_assert_null (cs_selection_get_call (selection));
}

static void
test_finding_kind_labels (void)
{
  g_autofree char *pdd = cs_findings_view_kind_label (CS_FINDING_SLOW_PDD);
  g_autofree char *one_way = cs_findings_view_kind_label (CS_FINDING_ONE_WAY_AUDIO);
  g_autofree char *loss = cs_findings_view_kind_label (CS_FINDING_LOSS_BURST);
  g_autofree char *ssrc = cs_findings_view_kind_label (CS_FINDING_SSRC_CHANGE);

  g_assert_cmpstr (pdd, ==, "Slow PDD");
  g_assert_cmpstr (one_way, ==, "One-way audio");
  g_assert_cmpstr (loss, ==, "Loss burst");
  g_assert_cmpstr (ssrc, ==, "SSRC change");
}

int
main (int argc, char *argv[])
{
  int status;

  application = ui_test_init (&argc, &argv);
  if (application == NULL)
    return 0;

  g_test_add_func ("/streams/selection-notifies", test_selection_notifies_changes_only);
  g_test_add_func ("/streams/finding-kind-labels", test_finding_kind_labels);
  g_test_add_func ("/streams/select-stream-graph-series", test_select_stream_graph_series);
  g_test_add_func ("/streams/mos-table-jitter-buffer", test_mos_table_jitter_buffer);
  g_test_add_func ("/streams/finding-selects-frame", test_finding_selects_frame);

  status = g_test_run ();
  if (shared_window != NULL)
    gtk_window_destroy (GTK_WINDOW (shared_window));
  g_clear_object (&application);
  return status;
}
