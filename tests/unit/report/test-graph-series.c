/* test-graph-series.c — graph series against the engine's numbers; viewport maths */
#include <math.h>

#include "cs-graph-series.h"
#include "quality/cs-mos.h"
#include "quality/cs-rtp-series.h"

#define ORIGIN_NS G_GINT64_CONSTANT (1700000000000000000)
#define PACKET_NS G_GINT64_CONSTANT (20000000)

/* A 5 s G.711 stream, 20 ms packets: seq 100..102 lost, packet 150 30 ms late. */
static GArray *
make_stream (guint n)
{
  GArray *packets = g_array_new (FALSE, TRUE, sizeof (CsRtpPacket));

  for (guint i = 0; i < n; i++)
    {
      CsRtpPacket p = { 0 };

      if (i >= 100 && i <= 102)
        continue;
      p.arrival_ns = ORIGIN_NS + 500000000 + (gint64) i * PACKET_NS + (i == 150 ? 30000000 : 0);
      p.frame = 10 + i;
      p.timestamp = 1000 + i * 160;
      p.seq = (guint16) (5000 + i);
      p.payload_len = 160;
      p.payload_type = 0;
      g_array_append_val (packets, p);
    }
  return packets;
}

static CsGraph *
make_graph (CsGraphKind kind, GArray *packets, CsRtpClockMap *clocks)
{
  CsGraph *graph = cs_graph_new (kind, ORIGIN_NS);

  cs_rtp_clock_map_init_static (clocks);
  cs_graph_add_packets (graph, 7, "a → b", (const CsRtpPacket *) packets->data, packets->len,
                        clocks, cs_codec_lookup_static (0), NULL);
  return graph;
}

static void
test_kind_names (void)
{
  CsGraphKind kind;

  for (guint i = 0; i < CS_GRAPH_N_KINDS; i++)
    {
      g_assert_true (cs_graph_kind_parse (cs_graph_kind_to_string (i), &kind));
      g_assert_cmpint (kind, ==, i);
    }
  g_assert_true (cs_graph_kind_parse ("MOS", &kind));
  g_assert_cmpint (kind, ==, CS_GRAPH_KIND_MOS);
  g_assert_false (cs_graph_kind_parse ("loudness", &kind));
  g_assert_cmpstr (cs_graph_kind_unit (CS_GRAPH_KIND_BITRATE), ==, "kbit/s");
  g_assert_cmpstr (cs_graph_kind_unit (CS_GRAPH_KIND_SKEW), ==, "ms");
}

static void
test_nice_step (void)
{
  g_assert_cmpfloat_with_epsilon (cs_graph_nice_step (10, 5), 2.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (cs_graph_nice_step (0.7, 5), 0.2, 1e-12);
  g_assert_cmpfloat_with_epsilon (cs_graph_nice_step (3.5, 5), 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (cs_graph_nice_step (180, 4), 50.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (cs_graph_nice_step (0, 4), 1.0, 1e-12);
}

/* Jitter and delta points are the engine's per-packet recurrence, and the
 * extremes are the stream statistics tshark agrees with. */
static void
test_jitter_and_delta_match_engine (void)
{
  g_autoptr (GArray) packets = make_stream (250);
  CsRtpClockMap clocks;
  g_autoptr (CsGraph) jitter = make_graph (CS_GRAPH_KIND_JITTER, packets, &clocks);
  g_autoptr (CsGraph) delta = make_graph (CS_GRAPH_KIND_DELTA, packets, &clocks);
  g_autoptr (GArray) engine = NULL;
  const CsGraphSeries *js = cs_graph_get_series (jitter, 0);
  const CsGraphSeries *ds = cs_graph_get_series (delta, 0);
  CsRtpStats stats;
  double max_delta = 0;
  guint32 max_delta_frame = 0;

  engine = cs_rtp_series_compute ((const CsRtpPacket *) packets->data, packets->len, &clocks,
                                  ORIGIN_NS);
  cs_rtp_stats_compute ((const CsRtpPacket *) packets->data, packets->len, &clocks, &stats);
  g_assert_cmpuint (cs_graph_get_n_series (jitter), ==, 1);
  g_assert_cmpuint (js->stream_id, ==, 7);
  g_assert_cmpuint (js->points->len, ==, 247);
  g_assert_cmpuint (engine->len, ==, 247);
  for (guint i = 0; i < js->points->len; i++)
    {
      const CsGraphPoint *p = &g_array_index (js->points, CsGraphPoint, i);
      const CsGraphPoint *d = &g_array_index (ds->points, CsGraphPoint, i);
      const CsRtpSeriesPoint *e = &g_array_index (engine, CsRtpSeriesPoint, i);

      g_assert_cmpfloat (p->value, ==, e->jitter_ms);
      g_assert_cmpfloat (d->value, ==, e->delta_ms);
      g_assert_cmpfloat (p->t_s, ==, e->time_s);
      g_assert_cmpuint (p->frame, ==, e->frame);
      if (d->value > max_delta)
        {
          max_delta = d->value;
          max_delta_frame = d->frame;
        }
    }
  g_assert_cmpfloat_with_epsilon (g_array_index (js->points, CsGraphPoint, 0).t_s, 0.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (g_array_index (js->points, CsGraphPoint, 246).value,
                                  stats.last_jitter_ms, 1e-9);
  /* The loss gap (4 packet times = 80 ms) is the largest delta, at seq 103's frame. */
  g_assert_cmpfloat_with_epsilon (max_delta, stats.max_delta_ms, 1e-9);
  g_assert_cmpfloat_with_epsilon (max_delta, 80.0, 1e-6);
  g_assert_cmpuint (max_delta_frame, ==, stats.max_delta_frame);
  g_assert_cmpuint (max_delta_frame, ==, 10 + 103);

  /* Markers: the loss of 3 packets before seq 103; the late packet is in sequence. */
  g_assert_cmpuint (js->markers->len, ==, 1);
  g_assert_cmpint (g_array_index (js->markers, CsGraphMarker, 0).kind, ==, CS_GRAPH_MARKER_LOSS);
  g_assert_cmpuint (g_array_index (js->markers, CsGraphMarker, 0).count, ==, 3);
  g_assert_cmpuint (g_array_index (js->markers, CsGraphMarker, 0).frame, ==, 113);

  /* A finding marker lands at its frame's time, in order. */
  g_assert_true (cs_graph_add_finding_marker (jitter, 7, 160));
  g_assert_false (cs_graph_add_finding_marker (jitter, 8, 160));
  g_assert_false (cs_graph_add_finding_marker (jitter, 7, 111)); /* lost: no such frame */
  g_assert_cmpuint (js->markers->len, ==, 2);
  g_assert_cmpint (g_array_index (js->markers, CsGraphMarker, 1).kind, ==, CS_GRAPH_MARKER_FINDING);
  {
    double t;
    g_assert_true (cs_graph_find_frame_time (jitter, 160, &t));
    g_assert_cmpfloat_with_epsilon (t, 0.5 + 150 * 0.020 + 0.030, 1e-9);
  }
}

static void
test_mos_windows (void)
{
  g_autoptr (GArray) packets = make_stream (250);
  CsRtpClockMap clocks;
  g_autoptr (CsGraph) graph = make_graph (CS_GRAPH_KIND_MOS, packets, &clocks);
  const CsGraphSeries *series = cs_graph_get_series (graph, 0);
  g_autoptr (GArray) windows = NULL;
  CsGraphViewport extent;

  windows = cs_mos_windows ((const CsRtpPacket *) packets->data, packets->len, &clocks,
                            cs_codec_lookup_static (0), NULL, CS_MOS_DEFAULT_WINDOW_S, ORIGIN_NS);
  /* 0.5 s .. 5.48 s: windows [0,5) and [5,10). */
  g_assert_cmpuint (series->points->len, ==, 2);
  g_assert_cmpuint (windows->len, ==, 2);
  g_assert_cmpfloat (series->step_s, ==, 5.0);
  for (guint i = 0; i < 2; i++)
    {
      const CsGraphPoint *p = &g_array_index (series->points, CsGraphPoint, i);
      const CsMosWindow *w = &g_array_index (windows, CsMosWindow, i);

      g_assert_cmpfloat (p->t_s, ==, w->start_s);
      g_assert_cmpfloat (p->value, ==, w->mos.mos);
    }
  /* The first window holds the loss: worse than the clean second window (4.36, docs/metrics.md). */
  g_assert_cmpfloat (g_array_index (series->points, CsGraphPoint, 0).value, <,
                     g_array_index (series->points, CsGraphPoint, 1).value);
  g_assert_cmpfloat_with_epsilon (g_array_index (series->points, CsGraphPoint, 1).value, 4.36,
                                  0.005);
  g_assert_cmpuint (g_array_index (series->points, CsGraphPoint, 0).frame, ==, 10);
  g_assert_cmpuint (g_array_index (series->points, CsGraphPoint, 1).frame, ==, 10 + 225);
  cs_graph_get_extent (graph, &extent);
  g_assert_cmpfloat (extent.v0, ==, 1.0);
  g_assert_cmpfloat (extent.v1, ==, 4.5);
  g_assert_cmpfloat_with_epsilon (extent.t1, 10.0, 1e-9);
}

static void
test_bitrate_bins (void)
{
  g_autoptr (GArray) packets = make_stream (250);
  CsRtpClockMap clocks;
  g_autoptr (CsGraph) graph = make_graph (CS_GRAPH_KIND_BITRATE, packets, &clocks);
  const CsGraphSeries *series = cs_graph_get_series (graph, 0);

  /* Arrivals 0.5 .. 5.48 s: bins 0..5; 50 packets × 160 bytes = 64 kbit/s when full. */
  g_assert_cmpuint (series->points->len, ==, 6);
  g_assert_cmpfloat_with_epsilon (g_array_index (series->points, CsGraphPoint, 0).value, 32.0,
                                  1e-9);
  /* Bin 2 (2.0..3.0 s) lost seq 100..102 (2.5..2.54 s): 47 packets. */
  g_assert_cmpfloat_with_epsilon (g_array_index (series->points, CsGraphPoint, 2).value, 47 * 1.28,
                                  1e-9);
  g_assert_cmpfloat_with_epsilon (g_array_index (series->points, CsGraphPoint, 3).value, 64.0,
                                  1e-9);
  g_assert_cmpuint (series->markers->len, ==, 1);
}

static void
test_extent_and_viewport (void)
{
  g_autoptr (GArray) packets = make_stream (250);
  CsRtpClockMap clocks;
  g_autoptr (CsGraph) graph = make_graph (CS_GRAPH_KIND_DELTA, packets, &clocks);
  CsGraphViewport extent, vp;

  cs_graph_get_extent (graph, &extent);
  g_assert_cmpfloat_with_epsilon (extent.t0, 0.5, 1e-9);
  g_assert_cmpfloat_with_epsilon (extent.t1, 0.5 + 249 * 0.02, 1e-9);
  g_assert_cmpfloat (extent.v0, ==, 0.0);
  g_assert_cmpfloat (extent.v1, ==, 100.0); /* max 80 ms × 1.05 rounded up */

  vp = extent;
  cs_graph_viewport_zoom (&vp, &extent, 2.0, 3.0);
  g_assert_cmpfloat_with_epsilon (vp.t1 - vp.t0, (extent.t1 - extent.t0) / 2, 1e-9);
  g_assert_cmpfloat (vp.t0, <, 3.0);
  g_assert_cmpfloat (vp.t1, >, 3.0);
  /* The anchor keeps its place on screen. */
  g_assert_cmpfloat_with_epsilon ((3.0 - vp.t0) / (vp.t1 - vp.t0),
                                  (3.0 - extent.t0) / (extent.t1 - extent.t0), 1e-9);
  cs_graph_viewport_pan (&vp, &extent, 10.0);
  g_assert_cmpfloat_with_epsilon (vp.t1, extent.t1, 1e-9);
  cs_graph_viewport_pan (&vp, &extent, -10.0);
  g_assert_cmpfloat_with_epsilon (vp.t0, extent.t0, 1e-9);
  cs_graph_viewport_center (&vp, &extent, 2.0);
  g_assert_cmpfloat_with_epsilon ((vp.t0 + vp.t1) / 2, 2.0, 1e-9);
  cs_graph_viewport_zoom (&vp, &extent, 1e9, 2.0);
  g_assert_cmpfloat_with_epsilon (vp.t1 - vp.t0, 0.001, 1e-12);
  cs_graph_viewport_zoom (&vp, &extent, 1e-9, 2.0);
  g_assert_cmpfloat (vp.t0, ==, extent.t0);
  g_assert_cmpfloat (vp.t1, ==, extent.t1);
}

static void
test_scale_decimates_keeping_spikes (void)
{
  CsGraph *graph = cs_graph_new (CS_GRAPH_KIND_DELTA, 0);
  CsGraphSeries *series;
  CsGraphViewport vp;
  g_autoptr (GArray) all = NULL;
  g_autoptr (GArray) reduced = NULL;
  gboolean spike_kept = FALSE;
  guint s = 99, p = 99;

  cs_graph_add_packets (graph, 1, "x", NULL, 0, NULL, NULL, NULL);
  series = g_ptr_array_index (graph->series, 0);
  for (guint i = 0; i < 10000; i++)
    {
      CsGraphPoint point = { i * 0.001, i == 4321 ? 90.0 : 20.0 + (i % 3), 1 + i };
      g_array_append_val (series->points, point);
    }
  cs_graph_get_extent (graph, &vp);
  all = cs_graph_series_scale (series, &vp, 0);
  reduced = cs_graph_series_scale (series, &vp, 100);
  g_assert_cmpuint (all->len, ==, 10000);
  g_assert_cmpuint (reduced->len, <=, 400);
  g_assert_cmpuint (reduced->len, >=, 200);
  for (guint i = 0; i < reduced->len; i++)
    {
      const CsGraphScaledPoint *sp = &g_array_index (reduced, CsGraphScaledPoint, i);
      if (sp->index == 4321)
        {
          spike_kept = TRUE;
          g_assert_cmpfloat_with_epsilon (sp->y, 90.0 / vp.v1, 1e-6);
        }
      if (i > 0)
        g_assert_cmpuint (sp->index, >, g_array_index (reduced, CsGraphScaledPoint, i - 1).index);
    }
  g_assert_true (spike_kept);

  /* The pointer over the spike finds it; far from every point finds nothing. */
  g_assert_true (cs_graph_find_nearest (graph, &vp, cs_graph_viewport_x (&vp, 4.321),
                                        cs_graph_viewport_y (&vp, 88.0), 800, 200, 10, &s, &p));
  g_assert_cmpuint (s, ==, 0);
  g_assert_cmpuint (p, ==, 4321);
  g_assert_false (cs_graph_find_nearest (graph, &vp, 0.5, 0.99, 800, 200, 10, &s, &p));

  /* Zoomed in, only the visible points and one neighbour each side. */
  vp.t0 = 2.0;
  vp.t1 = 2.01;
  g_clear_pointer (&all, g_array_unref);
  all = cs_graph_series_scale (series, &vp, 1000);
  g_assert_cmpuint (all->len, ==, 12); /* 1999 .. 2010 */
  g_assert_cmpuint (g_array_index (all, CsGraphScaledPoint, 0).index, ==, 1999);
  g_assert_cmpuint (g_array_index (all, CsGraphScaledPoint, 11).index, ==, 2010);
  cs_graph_free (graph);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/graph/kind-names", test_kind_names);
  g_test_add_func ("/graph/nice-step", test_nice_step);
  g_test_add_func ("/graph/jitter-delta-match-engine", test_jitter_and_delta_match_engine);
  g_test_add_func ("/graph/mos-windows", test_mos_windows);
  g_test_add_func ("/graph/bitrate-bins", test_bitrate_bins);
  g_test_add_func ("/graph/extent-viewport", test_extent_and_viewport);
  g_test_add_func ("/graph/scale-decimates", test_scale_decimates_keeping_spikes);
  return g_test_run ();
}
