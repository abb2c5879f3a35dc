/* test-packets-open.c — every place that names a frame opens it on the Packets page (issue 21):
 * a double click on an RTP lane or a SIP arrow of the ladder, on a graph point or loss marker, on
 * a waveform mark, on a Load-page interval; Enter on a stream or finding row, a MOS table row, the
 * detail pane's frame link, Ctrl+Return; Shift+drag on a graph and a Load-page range scope the page
 * to a time range; F8 / Shift+F8 step through the findings.
 *
 * Expected frame numbers are tshark's on the demo capture (build/tests/gen/callscope-demo.pcapng,
 * `tshark -o rtp.heuristic_rtp:TRUE`), whose generator truth names the streams (SSRC, ports):
 *   stream 0x444EBCE0 (10.0.0.30:40020 → 10.0.0.40:50020, call 5): first frame 391 (7.920300 s),
 *     100th 786 (9.900081 s, rtp.seq 8083), last 2608 (19.900272 s)
 *   stream 0xA6B18A2D (the lossy direction of call 5): the first packet after a gap is frame 666
 *     (9.302196 s, rtp.seq 26408 after 26403: 4 lost)
 *   call 10 (Call-ID e9d130f530967e78c05f@10.0.0.10): INVITE frame 2619 (32.7 s), retransmitted in
 *     2620 (33.2 s), 2621, 2625 (sip.resend == 1)
 *   frame.time_relative in [9.25, 9.75]: the 100 frames 658–757; in [30, 38]: the 86 frames
 *     2619–2704 */
#include <string.h>

#include "cs-frame-list.h"
#include "cs-load-view-chart.h"
#include "cs-packets-view-private.h"
#include "cs-proto-item.h"
#include "cs-waveform-view.h"
#include "cs-window-private.h"
#include "ui-test-util.h"

static CsApplication *application;

static CsWindow *
load_demo (void)
{
  CsWindow *window = ui_test_load_demo (application, 1280, 800);

  if (window == NULL)
    g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
  return window;
}

/* The value of the first tree node called name, opening the rows on the way. */
static const char *
tree_value (CsWindow *window, const char *name)
{
  GListModel *tree = cs_packets_view_get_tree (window->packets_view);

  for (guint i = 0; i < g_list_model_get_n_items (tree); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (tree, i);
      CsProtoItem *item = gtk_tree_list_row_get_item (row);

      if (g_strcmp0 (cs_proto_item_get_node (item)->name, name) == 0)
        return cs_proto_item_get_node (item)->value;
      gtk_tree_list_row_set_expanded (row, TRUE);
    }
  return NULL;
}

/* The Packets page is shown, at frame `number`: selected in the list, its tree and bytes. */
static void
assert_packets_show (CsWindow *window, guint32 number)
{
  g_autofree char *text = g_strdup_printf ("%u", number);
  GtkSingleSelection *rows = window->packets_view->row_selection;
  g_autoptr (CsFrameRow) selected = NULL;

  ui_test_spin (20);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->view_stack), ==, "packets");
  g_assert_cmpuint (cs_packets_view_get_shown_frame (window->packets_view), ==, number);
  g_assert_cmpuint (gtk_single_selection_get_selected (rows), !=, GTK_INVALID_LIST_POSITION);
  selected = g_list_model_get_item (G_LIST_MODEL (rows), gtk_single_selection_get_selected (rows));
  g_assert_cmpuint (cs_frame_row_get_number (selected), ==, number);
  g_assert_cmpstr (tree_value (window, "frame.number"), ==, text);
  {
    g_autofree char *hex = cs_hex_view_dup_text (window->packets_view->hex_view);

    g_assert_true (hex != NULL && g_str_has_prefix (hex, "0000"));
  }
}

/* Screenshots (CS_PACKETS_SHOTS=DIR) of the window as it is, at 1280x800 and 1920x1080. */
static void
shots (CsWindow *window, const char *name)
{
  const char *dir = g_getenv ("CS_PACKETS_SHOTS");
  static const int sizes[][2] = { { 1280, 800 }, { 1920, 1080 } };

  if (dir == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      g_autofree char *png
          = g_strdup_printf ("%s/%s-%dx%d.png", dir, name, sizes[i][0], sizes[i][1]);

      gtk_window_set_default_size (GTK_WINDOW (window), sizes[i][0], sizes[i][1]);
      ui_test_spin (400);
      g_assert_true (ui_test_save_png (GTK_WIDGET (window), png));
      g_test_message ("wrote %s", png);
    }
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  ui_test_spin (300);
}

static void
back_to_calls (CsWindow *window)
{
  gtk_stack_set_visible_child_name (window->view_stack, "calls");
  ui_test_spin (20);
}

static CsLadderView *
ladder (CsWindow *window)
{
  return cs_ladder_pane_get_view (window->ladder_pane);
}

/* Widget coordinates of layout point (lx, ly) of the ladder. */
static void
ladder_point (CsWindow *window, double lx, double ly, double *x, double *y)
{
  GtkScrollable *scrollable = GTK_SCROLLABLE (ladder (window));

  *x = lx - gtk_adjustment_get_value (gtk_scrollable_get_hadjustment (scrollable));
  *y = ly + CS_LADDER_HEADER_HEIGHT
       - gtk_adjustment_get_value (gtk_scrollable_get_vadjustment (scrollable));
}

/* The y of time ts_ns on the ladder, interpolated between the arrows of the rows around it (how
 * the lanes are drawn: each row's arrow at its time). */
static double
ladder_y_of_time (const CsLadderLayout *layout, gint64 ts_ns)
{
  for (guint i = 0; i + 1 < layout->rows->len; i++)
    {
      const CsLadderRow *a = &g_array_index (layout->rows, CsLadderRow, i);
      const CsLadderRow *b = &g_array_index (layout->rows, CsLadderRow, i + 1);

      if (a->ts_ns <= ts_ns && ts_ns < b->ts_ns)
        return a->y + CS_LADDER_ARROW_Y
               + (b->y - a->y) * (double) (ts_ns - a->ts_ns) / (double) (b->ts_ns - a->ts_ns);
    }
  g_assert_not_reached ();
}

static gint64
capture_start_ns (CsWindow *window)
{
  CsFrame first;

  g_assert_true (
      cs_capture_set_get_frame (cs_analysis_get_capture_set (window->analysis), 1, &first));
  return first.ts_ns;
}

/* Ladder: a double click on the lane of stream 0x444EBCE0 at its start, at 9.900081 s and at its
 * end opens frames 391, 786 and 2608; a click moves the cursor to that packet; a double click on
 * the INVITE's arrow opens frame 2619's call INVITE. */
static void
test_ladder_lane_and_arrow (void)
{
  CsWindow *window = load_demo ();
  const CsLadderLayout *layout;
  const CsLadderLane *lane = NULL;
  double left, right, x, y;
  gint64 origin;
  struct
  {
    double at; /* lane start (-1), end (-2) or seconds since the capture's first packet */
    guint32 frame;
  } picks[] = { { -1, 391 }, { 9.900081, 786 }, { -2, 2608 } };

  if (window == NULL)
    return;
  origin = capture_start_ns (window);
  ui_test_select_call (window, 5);
  ui_test_spin (50);
  layout = cs_ladder_view_get_layout (ladder (window));
  g_assert_nonnull (layout);
  for (guint i = 0; i < layout->lanes->len; i++)
    {
      const CsLadderLane *l = &g_array_index (layout->lanes, CsLadderLane, i);

      if (cs_stream_get_ssrc (g_array_index (layout->rows, CsLadderRow, l->row).stream)
          == 0x444EBCE0)
        lane = l;
    }
  g_assert_nonnull (lane);
  cs_ladder_layout_lane_span (layout, lane, &left, &right);
  for (guint p = 0; p < G_N_ELEMENTS (picks); p++)
    {
      double ly = picks[p].at == -1 ? lane->y_start
                  : picks[p].at == -2
                      ? lane->y_end
                      : ladder_y_of_time (layout, origin + (gint64) (picks[p].at * 1e9));

      back_to_calls (window);
      ladder_point (window, (left + right) / 2, ly, &x, &y);
      cs_ladder_view_press_at (ladder (window), 1, x, y);
      g_assert_cmpuint (cs_selection_get_frame (window->selection), ==, picks[p].frame);
      g_assert_cmpuint (cs_stream_get_ssrc (cs_selection_get_stream (window->selection)), ==,
                        0x444EBCE0);
      cs_ladder_view_press_at (ladder (window), 2, x, y);
      assert_packets_show (window, picks[p].frame);
      g_assert_cmpstr (tree_value (window, "rtp.ssrc"), ==, "0x444ebce0");
      if (p == 1)
        shots (window, "demo-lane");
    }
  /* 4 px wide: a click 3 px beside it still hits it */
  back_to_calls (window);
  ladder_point (window, right + 3, lane->y_start, &x, &y);
  cs_ladder_view_press_at (ladder (window), 2, x, y);
  assert_packets_show (window, 391);

  /* a SIP arrow: call 10's INVITE, frame 2619 */
  back_to_calls (window);
  ui_test_select_call (window, 10);
  ui_test_spin (50);
  layout = cs_ladder_view_get_layout (ladder (window));
  {
    const CsLadderRow *invite = &g_array_index (layout->rows, CsLadderRow, 0);
    const CsLadderColumn *from = &g_array_index (layout->columns, CsLadderColumn, invite->from_col);
    const CsLadderColumn *to = &g_array_index (layout->columns, CsLadderColumn, invite->to_col);

    ladder_point (window, (from->x + to->x) / 2, invite->y + CS_LADDER_ARROW_Y, &x, &y);
    cs_ladder_view_press_at (ladder (window), 2, x, y);
    assert_packets_show (window, 2619);
    g_assert_cmpstr (tree_value (window, "sip.Method"), ==, "INVITE");
    g_assert_cmpstr (tree_value (window, "sip.Call-ID"), ==, "e9d130f530967e78c05f@10.0.0.10");
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The graph series of the stream with that SSRC. */
static guint
series_of (CsWindow *window, guint32 ssrc)
{
  for (guint i = 0; i < cs_graph_view_get_n_streams (window->graph_view); i++)
    if (cs_stream_get_ssrc (cs_graph_view_get_stream (window->graph_view, i)) == ssrc)
      return i;
  g_assert_not_reached ();
}

/* Graphs: a double click on the point of frame 786, on the loss marker of frame 666; a Shift+drag
 * from 9.25 s to 9.75 s lists frames 658–757. */
static void
test_graph_point_marker_range (void)
{
  CsWindow *window = load_demo ();
  CsGraphCanvas *canvas;
  const CsGraph *graph;
  const CsGraphSeries *series;
  CsGraphViewport viewport;
  CsGraphRect area;
  double x, y;
  gboolean found = FALSE;

  if (window == NULL)
    return;
  ui_test_select_call (window, 5);
  cs_graph_view_set_kind (window->graph_view, CS_GRAPH_KIND_MOS);
  ui_test_spin (100);
  canvas = cs_graph_view_get_canvas (window->graph_view);
  graph = cs_graph_canvas_get_graph (canvas);
  g_assert_nonnull (graph);
  /* one second around the loss: packets 20 px apart */
  cs_graph_canvas_set_visible_range (canvas, 8.8, 9.8);
  ui_test_spin (50);
  cs_graph_canvas_get_viewport (canvas, &viewport);
  cs_graph_render_plot_area (gtk_widget_get_width (GTK_WIDGET (canvas)),
                             gtk_widget_get_height (GTK_WIDGET (canvas)), &area);

  /* the loss marker on the time axis (MOS points stay far above it) */
  series = cs_graph_get_series (graph, series_of (window, 0xA6B18A2D));
  for (guint i = 0; i < series->markers->len; i++)
    {
      const CsGraphMarker *m = &g_array_index (series->markers, CsGraphMarker, i);

      if (m->kind == CS_GRAPH_MARKER_LOSS && m->frame == 666)
        {
          x = area.x + cs_graph_viewport_x (&viewport, m->t_s) * area.width;
          y = area.y + area.height - 2;
          found = TRUE;
        }
    }
  g_assert_true (found);
  g_assert_cmpuint (cs_graph_canvas_frame_at (canvas, x, y), ==, 666);
  g_assert_true (cs_graph_canvas_open_frame_at (canvas, x, y));
  assert_packets_show (window, 666);
  g_assert_cmpstr (tree_value (window, "rtp.seq"), ==, "26408");

  /* a point: the delta graph's point of frame 786 (the 100th packet of 0x444EBCE0) */
  back_to_calls (window);
  cs_graph_view_set_kind (window->graph_view, CS_GRAPH_KIND_DELTA);
  ui_test_spin (50);
  canvas = cs_graph_view_get_canvas (window->graph_view);
  cs_graph_canvas_set_visible_range (canvas, 9.5, 10.3);
  ui_test_spin (50);
  graph = cs_graph_canvas_get_graph (canvas);
  series = cs_graph_get_series (graph, series_of (window, 0x444EBCE0));
  found = FALSE;
  for (guint i = 0; i < series->points->len && !found; i++)
    if (g_array_index (series->points, CsGraphPoint, i).frame == 786)
      found = cs_graph_canvas_point_position (canvas, series_of (window, 0x444EBCE0), i, &x, &y);
  g_assert_true (found);
  g_assert_true (cs_graph_canvas_open_frame_at (canvas, x, y));
  assert_packets_show (window, 786);
  g_assert_cmpstr (tree_value (window, "rtp.seq"), ==, "8083");

  /* Shift+drag across 9.25–9.75 s: the Packets page lists those frames (tshark: 658–757) */
  back_to_calls (window);
  cs_graph_canvas_set_visible_range (canvas, 9.0, 10.0);
  ui_test_spin (50);
  cs_graph_render_plot_area (gtk_widget_get_width (GTK_WIDGET (canvas)),
                             gtk_widget_get_height (GTK_WIDGET (canvas)), &area);
  g_assert_true (
      cs_graph_canvas_show_range (canvas, area.x + 0.25 * area.width, area.x + 0.75 * area.width));
  ui_test_spin (20);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->view_stack), ==, "packets");
  g_assert_cmpint (cs_packets_view_get_scope (window->packets_view), ==,
                   CS_PACKETS_SCOPE_TIME_RANGE);
  {
    GListModel *rows = cs_packets_view_get_rows (window->packets_view);

    g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 100);
    for (guint i = 0; i < 100; i++)
      {
        g_autoptr (CsFrameRow) row = g_list_model_get_item (rows, i);

        g_assert_cmpuint (cs_frame_row_get_number (row), ==, 658 + i);
      }
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Waveform: a double click on the loss mark after which frame 666 came opens frame 666. */
static void
test_waveform_mark (void)
{
  CsWindow *window = load_demo ();
  CsWaveformView *waveform;
  CsAudioRender *render;
  int width, height;
  gboolean opened = FALSE;

  if (window == NULL)
    return;
  ui_test_select_call (window, 5);
  cs_player_bar_render_now (window->player_bar);
  ui_test_spin (100);
  render = cs_player_bar_get_render (window->player_bar);
  g_assert_nonnull (render);
  waveform = CS_WAVEFORM_VIEW (
      ui_test_find_widget (GTK_WIDGET (window->player_bar), CS_TYPE_WAVEFORM_VIEW));
  width = gtk_widget_get_width (GTK_WIDGET (waveform));
  height = gtk_widget_get_height (GTK_WIDGET (waveform));
  g_assert_cmpint (width, >, 100);
  /* sweep both lanes for the mark of frame 666, as a pointer would */
  for (int y = 1; y < height && !opened; y += 4)
    for (int x = 0; x < width && !opened; x++)
      {
        const CsAudioMark *mark = cs_waveform_view_mark_at (waveform, x, y);

        if (mark != NULL && mark->frame == 666)
          {
            g_assert_cmpint (mark->kind, ==, CS_AUDIO_MARK_LOST);
            g_assert_true (gtk_widget_activate_action (GTK_WIDGET (waveform), "win.show-frame", "u",
                                                       mark->frame));
            opened = TRUE;
          }
      }
  g_assert_true (opened);
  assert_packets_show (window, 666);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Lists: Enter on the stream 0x444EBCE0 row lists the stream from frame 391; a double click on a
 * MOS table row does the same for its direction; the detail pane's frame link opens frame 2619. */
static void
test_lists_and_detail (void)
{
  CsWindow *window = load_demo ();
  GListModel *streams;
  GtkColumnView *column_view;
  CsMosTable *table;
  CsMosTableRow row;
  GtkLabel *link;
  gboolean handled = FALSE;
  guint position = G_MAXUINT;

  if (window == NULL)
    return;
  gtk_stack_set_visible_child_name (window->view_stack, "streams");
  ui_test_spin (50);
  streams = cs_streams_view_get_shown_model (window->streams_view);
  for (guint i = 0; i < g_list_model_get_n_items (streams); i++)
    {
      g_autoptr (CsStream) stream = g_list_model_get_item (streams, i);

      if (cs_stream_get_ssrc (stream) == 0x444EBCE0)
        position = i;
    }
  g_assert_cmpuint (position, !=, G_MAXUINT);
  column_view = GTK_COLUMN_VIEW (
      ui_test_find_widget (GTK_WIDGET (window->streams_view), GTK_TYPE_COLUMN_VIEW));
  g_signal_emit_by_name (column_view, "activate", position);
  assert_packets_show (window, 391);
  g_assert_cmpint (cs_packets_view_get_scope (window->packets_view), ==, CS_PACKETS_SCOPE_STREAM);
  g_assert_cmpuint (cs_stream_get_ssrc (cs_selection_get_stream (window->selection)), ==,
                    0x444EBCE0);

  /* the MOS table of call 5: each row opens its direction's first frame (391, 397) */
  back_to_calls (window);
  ui_test_select_call (window, 5);
  ui_test_spin (50);
  table = cs_graph_view_get_mos_table (window->graph_view);
  g_assert_cmpuint (cs_mos_table_get_n_rows (table), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      CsStream *stream;

      back_to_calls (window);
      g_assert_true (cs_mos_table_get_row (table, i, &row));
      cs_mos_table_activate_row (table, i);
      stream = cs_analysis_lookup_stream (window->analysis, row.stream_id);
      assert_packets_show (window, cs_stream_get_ssrc (stream) == 0x444EBCE0 ? 391 : 397);
      g_assert_true (cs_selection_get_stream (window->selection) == stream);
    }

  /* the detail pane's Frame link of call 10's INVITE */
  back_to_calls (window);
  ui_test_select_call (window, 10);
  ui_test_spin (50);
  cs_ladder_view_set_selected_row (ladder (window), 0);
  ui_test_spin (20);
  link = cs_detail_pane_get_frame_link (window->detail_pane);
  g_assert_nonnull (link);
  g_assert_nonnull (strstr (gtk_label_get_label (link), "frame:2619"));
  g_signal_emit_by_name (link, "activate-link", "frame:2619", &handled);
  g_assert_true (handled);
  assert_packets_show (window, 2619);

  /* Ctrl+Return: the cursor's frame (the retransmission in the ladder's second row) */
  back_to_calls (window);
  cs_ladder_view_set_selected_row (ladder (window), 1);
  ui_test_spin (20);
  g_assert_cmpuint (cs_selection_get_frame (window->selection), ==, 2620);
  g_assert_true (ui_test_activate_accel (GTK_WIDGET (window), "<Primary>Return"));
  assert_packets_show (window, 2620);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Findings: Enter on a row shows its frames; F8 / Shift+F8 step through the rows, each listing
 * exactly its finding's frames with the first selected. */
static void
test_findings_keys (void)
{
  CsWindow *window = load_demo ();
  GListModel *shown;
  GtkColumnView *column_view;
  int expected[] = { 0, 1, 2, 1, 0 };
  const char *keys[] = { "F8", "F8", "F8", "<Shift>F8", "<Shift>F8" };

  if (window == NULL)
    return;
  shown = cs_findings_view_get_shown_model (window->findings_view);
  g_assert_cmpuint (g_list_model_get_n_items (shown), >=, 3);
  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    {
      g_autoptr (CsFinding) finding = g_list_model_get_item (shown, (guint) expected[k]);
      const GArray *frames = cs_finding_get_frames (finding);
      GListModel *rows = cs_packets_view_get_rows (window->packets_view);

      g_assert_true (ui_test_activate_accel (GTK_WIDGET (window), keys[k]));
      ui_test_spin (20);
      g_assert_cmpint (cs_packets_view_get_scope (window->packets_view), ==,
                       CS_PACKETS_SCOPE_FINDING);
      g_assert_cmpuint (g_list_model_get_n_items (rows), ==, frames->len);
      for (guint f = 0; f < frames->len; f++)
        {
          g_autoptr (CsFrameRow) row = g_list_model_get_item (rows, f);

          g_assert_cmpuint (cs_frame_row_get_number (row), ==, g_array_index (frames, guint32, f));
        }
      g_assert_cmpuint (cs_packets_view_get_shown_frame (window->packets_view), ==,
                        g_array_index (frames, guint32, 0));
      g_assert_cmpuint (cs_selection_get_frame (window->selection), ==,
                        g_array_index (frames, guint32, 0));
    }
  /* the loss burst (frames 666 … 2467, tshark's gaps of 0xA6B18A2D): Enter opens the page */
  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr (CsFinding) finding = g_list_model_get_item (shown, i);

      if (cs_finding_get_kind (finding) != CS_FINDING_LOSS_BURST)
        continue;
      back_to_calls (window);
      gtk_stack_set_visible_child_name (window->view_stack, "findings");
      column_view = GTK_COLUMN_VIEW (
          ui_test_find_widget (GTK_WIDGET (window->findings_view), GTK_TYPE_COLUMN_VIEW));
      g_signal_emit_by_name (column_view, "activate", i);
      assert_packets_show (window, 666);
      g_assert_cmpuint (g_list_model_get_n_items (cs_packets_view_get_rows (window->packets_view)),
                        ==, 12);
      shots (window, "demo-finding");
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Load page: a range 30–38 s lists frames 2619–2704 on the Packets page; a double click on the
 * interval holding 33.2 s selects its first retransmission, frame 2620. */
static void
test_load_range_and_retransmission (void)
{
  CsWindow *window = load_demo ();
  gint64 origin;
  GListModel *rows;
  CsLoadChart *chart;

  if (window == NULL)
    return;
  origin = capture_start_ns (window);
  gtk_stack_set_visible_child_name (window->view_stack, "load");
  ui_test_spin (50);
  cs_load_view_select_range (window->load_view, origin + 30 * G_GINT64_CONSTANT (1000000000),
                             origin + 38 * G_GINT64_CONSTANT (1000000000));
  ui_test_spin (20);
  g_assert_cmpint (cs_packets_view_get_scope (window->packets_view), ==,
                   CS_PACKETS_SCOPE_TIME_RANGE);
  rows = cs_packets_view_get_rows (window->packets_view);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 86);
  for (guint i = 0; i < 86; i++)
    {
      g_autoptr (CsFrameRow) row = g_list_model_get_item (rows, i);

      g_assert_cmpuint (cs_frame_row_get_number (row), ==, 2619 + i);
    }
  /* the interval of 33.2 s */
  chart = CS_LOAD_CHART (ui_test_find_widget (GTK_WIDGET (window->load_view), CS_TYPE_LOAD_CHART));
  g_assert_nonnull (chart);
  {
    const CsLoadReport *report = cs_load_view_get_report (window->load_view);
    gint64 at = origin + 33200 * G_GINT64_CONSTANT (1000000);

    g_assert_nonnull (report);
    for (guint i = 0; i < report->intervals->len; i++)
      {
        const CsLoadInterval *interval = &g_array_index (report->intervals, CsLoadInterval, i);

        if (interval->start_ns <= at && at < interval->end_ns)
          {
            g_assert_cmpuint (interval->retransmissions, >=, 1);
            g_assert_cmpuint (cs_load_view_first_retransmission (
                                  window->load_view, interval->start_ns, interval->end_ns),
                              ==, 2620);
            g_signal_emit_by_name (chart, "interval-activated", interval->start_ns,
                                   interval->end_ns);
          }
      }
  }
  assert_packets_show (window, 2620);
  g_assert_cmpint (cs_packets_view_get_scope (window->packets_view), ==,
                   CS_PACKETS_SCOPE_TIME_RANGE);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A real capture (../shared/samples/sip-rtp-g711.pcap): a double click on call 1's RTP lane at
 * its start opens frame 6 (tshark: the first rtp.ssrc 0x343da99b); Enter on its one-way-audio
 * finding lists frames 6 and 430 (its first and last packet) with 6 shown. */
static void
test_sample_lane_and_finding (void)
{
  const char *dir = g_getenv ("CS_SAMPLES_DIR");
  g_autofree char *path = dir != NULL ? g_build_filename (dir, "sip-rtp-g711.pcap", NULL) : NULL;
  CsWindow *window;
  const CsLadderLayout *layout;
  const CsLadderLane *lane;
  GListModel *shown;
  double left, right, x, y;
  gboolean opened = FALSE;

  if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("../shared/samples/sip-rtp-g711.pcap is not there");
      return;
    }
  window = ui_test_load_file (application, path, 1280, 800);
  ui_test_select_call (window, 1);
  ui_test_spin (50);
  layout = cs_ladder_view_get_layout (ladder (window));
  g_assert_cmpuint (layout->lanes->len, ==, 1);
  lane = &g_array_index (layout->lanes, CsLadderLane, 0);
  cs_ladder_layout_lane_span (layout, lane, &left, &right);
  ladder_point (window, (left + right) / 2, lane->y_start, &x, &y);
  cs_ladder_view_press_at (ladder (window), 1, x, y);
  cs_ladder_view_press_at (ladder (window), 2, x, y);
  assert_packets_show (window, 6);
  g_assert_cmpstr (tree_value (window, "rtp.ssrc"), ==, "0x343da99b");
  shots (window, "sample-lane");

  back_to_calls (window);
  gtk_stack_set_visible_child_name (window->view_stack, "findings");
  ui_test_spin (50);
  shown = cs_findings_view_get_shown_model (window->findings_view);
  for (guint i = 0; i < g_list_model_get_n_items (shown) && !opened; i++)
    {
      g_autoptr (CsFinding) finding = g_list_model_get_item (shown, i);

      if (cs_finding_get_call_number (finding) != 1)
        continue;
      g_signal_emit_by_name (
          ui_test_find_widget (GTK_WIDGET (window->findings_view), GTK_TYPE_COLUMN_VIEW),
          "activate", i);
      opened = TRUE;
    }
  g_assert_true (opened);
  assert_packets_show (window, 6);
  {
    GListModel *rows = cs_packets_view_get_rows (window->packets_view);
    g_autoptr (CsFrameRow) first = g_list_model_get_item (rows, 0);
    g_autoptr (CsFrameRow) second = g_list_model_get_item (rows, 1);

    g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 2);
    g_assert_cmpuint (cs_frame_row_get_number (first), ==, 6);
    g_assert_cmpuint (cs_frame_row_get_number (second), ==, 430);
  }
  shots (window, "sample-finding");
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  application = ui_test_init (&argc, &argv);
  if (application == NULL)
    return 0;
  g_test_add_func ("/packets-open/ladder-lane-and-arrow", test_ladder_lane_and_arrow);
  g_test_add_func ("/packets-open/graph-point-marker-range", test_graph_point_marker_range);
  g_test_add_func ("/packets-open/waveform-mark", test_waveform_mark);
  g_test_add_func ("/packets-open/lists-and-detail", test_lists_and_detail);
  g_test_add_func ("/packets-open/findings-keys", test_findings_keys);
  g_test_add_func ("/packets-open/load-range-and-retransmission",
                   test_load_range_and_retransmission);
  g_test_add_func ("/packets-open/sample-lane-and-finding", test_sample_lane_and_finding);
  return g_test_run ();
}
