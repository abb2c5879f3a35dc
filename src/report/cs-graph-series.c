/* cs-graph-series.c — stream graphs as data: series per stream, markers, viewport maths (no GTK) */
#include "cs-graph-series.h"

#include <math.h>

#include "callscope-engine.h"

#define CS_GRAPH_MIN_WIDTH_S 0.001

static const char *const kind_names[CS_GRAPH_N_KINDS]
    = { "jitter", "delta", "skew", "mos", "bitrate" };

const char *
cs_graph_kind_to_string (CsGraphKind kind)
{
  if ((guint) kind >= CS_GRAPH_N_KINDS)
    return "unknown";
  return kind_names[kind];
}

gboolean
cs_graph_kind_parse (const char *text, CsGraphKind *out)
{
  for (guint i = 0; text != NULL && i < CS_GRAPH_N_KINDS; i++)
    if (g_ascii_strcasecmp (text, kind_names[i]) == 0)
      {
        *out = (CsGraphKind) i;
        return TRUE;
      }
  return FALSE;
}

const char *
cs_graph_kind_unit (CsGraphKind kind)
{
  switch (kind)
    {
    case CS_GRAPH_KIND_MOS:
      return "MOS";
    case CS_GRAPH_KIND_BITRATE:
      return "kbit/s";
    default:
      return "ms";
    }
}

static void
series_free (gpointer data)
{
  CsGraphSeries *series = data;

  g_free (series->label);
  g_array_unref (series->points);
  g_array_unref (series->markers);
  g_free (series);
}

CsGraph *
cs_graph_new (CsGraphKind kind, gint64 origin_ns)
{
  CsGraph *graph = g_new0 (CsGraph, 1);

  graph->kind = kind;
  graph->origin_ns = origin_ns;
  graph->series = g_ptr_array_new_with_free_func (series_free);
  return graph;
}

void
cs_graph_free (CsGraph *graph)
{
  if (graph == NULL)
    return;
  g_ptr_array_unref (graph->series);
  g_free (graph);
}

guint
cs_graph_get_n_series (const CsGraph *graph)
{
  return graph->series->len;
}

const CsGraphSeries *
cs_graph_get_series (const CsGraph *graph, guint index)
{
  g_return_val_if_fail (index < graph->series->len, NULL);
  return g_ptr_array_index (graph->series, index);
}

static double
seconds_since (gint64 ns, gint64 origin_ns)
{
  return (double) (ns - origin_ns) / 1e9;
}

static void
add_point (CsGraphSeries *series, double t_s, double value, guint32 frame)
{
  CsGraphPoint point = { t_s, value, frame };

  g_array_append_val (series->points, point);
}

static void
add_marker (CsGraphSeries *series, double t_s, guint32 frame, guint32 count, CsGraphMarkerKind kind)
{
  CsGraphMarker marker = { t_s, frame, count, kind, 0 };

  g_array_append_val (series->markers, marker);
}

/* Jitter, delta and skew: one point per packet from the metric recurrence. */
static void
fill_per_packet (CsGraphSeries *series, CsGraphKind kind, const CsRtpPacket *packets, gsize n,
                 const CsRtpClockMap *clocks, gint64 origin_ns)
{
  g_autoptr (GArray) points = cs_rtp_series_compute (packets, n, clocks, origin_ns);

  for (guint i = 0; i < points->len; i++)
    {
      const CsRtpSeriesPoint *p = &g_array_index (points, CsRtpSeriesPoint, i);
      double value = kind == CS_GRAPH_KIND_JITTER  ? p->jitter_ms
                     : kind == CS_GRAPH_KIND_DELTA ? p->delta_ms
                                                   : p->skew_ms;

      add_point (series, p->time_s, value, p->frame);
      if (p->lost_before > 0)
        add_marker (series, p->time_s, p->frame, p->lost_before, CS_GRAPH_MARKER_LOSS);
      else if (p->flags & CS_RTP_SERIES_SEQ_ERROR)
        add_marker (series, p->time_s, p->frame, 1, CS_GRAPH_MARKER_SEQ_ERROR);
    }
}

/* Loss and sequence-error markers for the windowed kinds (same recurrence). */
static void
fill_markers_only (CsGraphSeries *series, const CsRtpPacket *packets, gsize n,
                   const CsRtpClockMap *clocks, gint64 origin_ns)
{
  g_autoptr (GArray) points = cs_rtp_series_compute (packets, n, clocks, origin_ns);

  for (guint i = 0; i < points->len; i++)
    {
      const CsRtpSeriesPoint *p = &g_array_index (points, CsRtpSeriesPoint, i);

      if (p->lost_before > 0)
        add_marker (series, p->time_s, p->frame, p->lost_before, CS_GRAPH_MARKER_LOSS);
      else if (p->flags & CS_RTP_SERIES_SEQ_ERROR)
        add_marker (series, p->time_s, p->frame, 1, CS_GRAPH_MARKER_SEQ_ERROR);
    }
}

static void
fill_mos (CsGraphSeries *series, const CsRtpPacket *packets, gsize n, const CsRtpClockMap *clocks,
          const CsCodecInfo *codec, const CsJitterBufferConfig *jb, gint64 origin_ns)
{
  g_autoptr (GArray) windows = NULL;
  gsize next = 0;

  windows = cs_mos_windows (packets, n, clocks, codec, jb, CS_MOS_DEFAULT_WINDOW_S, origin_ns);
  series->step_s = CS_MOS_DEFAULT_WINDOW_S;
  for (guint i = 0; i < windows->len; i++)
    {
      const CsMosWindow *w = &g_array_index (windows, CsMosWindow, i);
      guint32 frame = 0;

      /* The window's first packet: packets are in capture (arrival) order. */
      while (next < n && seconds_since (packets[next].arrival_ns, origin_ns) < w->start_s)
        next++;
      if (next < n)
        frame = packets[next].frame;
      add_point (series, w->start_s, w->mos.mos, frame);
    }
}

static void
fill_bitrate (CsGraphSeries *series, const CsRtpPacket *packets, gsize n, gint64 origin_ns)
{
  const double bin_s = CS_GRAPH_BITRATE_BIN_S;
  gint64 first_bin, last_bin;
  guint64 bits = 0;
  guint32 frame = 0;
  gint64 bin;

  series->step_s = bin_s;
  if (n == 0)
    return;
  first_bin = (gint64) floor (seconds_since (packets[0].arrival_ns, origin_ns) / bin_s);
  last_bin = first_bin;
  bin = first_bin;
  for (gsize i = 0; i < n; i++)
    {
      gint64 b = (gint64) floor (seconds_since (packets[i].arrival_ns, origin_ns) / bin_s);

      /* A capture timestamp that steps back stays in the current bin. */
      if (b < bin)
        b = bin;
      while (b > bin)
        {
          add_point (series, (double) bin * bin_s, (double) bits / 1000.0 / bin_s, frame);
          bits = 0;
          frame = 0;
          bin++;
        }
      if (frame == 0)
        frame = packets[i].frame;
      bits += (guint64) packets[i].payload_len * 8;
      last_bin = b;
    }
  add_point (series, (double) last_bin * bin_s, (double) bits / 1000.0 / bin_s, frame);
}

static int
compare_markers (gconstpointer a, gconstpointer b)
{
  const CsGraphMarker *ma = a, *mb = b;

  if (ma->t_s != mb->t_s)
    return ma->t_s < mb->t_s ? -1 : 1;
  if (ma->kind != mb->kind)
    return ma->kind < mb->kind ? -1 : 1;
  return ma->frame < mb->frame ? -1 : ma->frame > mb->frame;
}

/* Packets with the RTP marker bit set, merged into the time-ordered markers. */
static void
add_marker_bits (CsGraphSeries *series, const CsRtpPacket *packets, gsize n, gint64 origin_ns)
{
  guint before = series->markers->len;

  for (gsize i = 0; i < n; i++)
    if (packets[i].flags & CS_RTP_FLAG_MARKER)
      add_marker (series, seconds_since (packets[i].arrival_ns, origin_ns), packets[i].frame, 1,
                  CS_GRAPH_MARKER_MARKER_BIT);
  if (series->markers->len != before)
    g_array_sort (series->markers, compare_markers);
}

CsGraphSeries *
cs_graph_add_packets (CsGraph *graph, guint stream_id, const char *label,
                      const CsRtpPacket *packets, gsize n, const CsRtpClockMap *clocks,
                      const CsCodecInfo *codec, const CsJitterBufferConfig *jb)
{
  CsGraphSeries *series = g_new0 (CsGraphSeries, 1);

  g_return_val_if_fail (graph != NULL, NULL);
  g_return_val_if_fail (packets != NULL || n == 0, NULL);

  series->stream_id = stream_id;
  series->label = g_strdup (label != NULL ? label : "");
  series->points = g_array_new (FALSE, FALSE, sizeof (CsGraphPoint));
  series->markers = g_array_new (FALSE, FALSE, sizeof (CsGraphMarker));
  switch (graph->kind)
    {
    case CS_GRAPH_KIND_JITTER:
    case CS_GRAPH_KIND_DELTA:
    case CS_GRAPH_KIND_SKEW:
      fill_per_packet (series, graph->kind, packets, n, clocks, graph->origin_ns);
      break;
    case CS_GRAPH_KIND_MOS:
      fill_mos (series, packets, n, clocks, codec, jb, graph->origin_ns);
      fill_markers_only (series, packets, n, clocks, graph->origin_ns);
      break;
    case CS_GRAPH_KIND_BITRATE:
    default:
      fill_bitrate (series, packets, n, graph->origin_ns);
      fill_markers_only (series, packets, n, clocks, graph->origin_ns);
      break;
    }
  add_marker_bits (series, packets, n, graph->origin_ns);
  g_ptr_array_add (graph->series, series);
  return series;
}

CsGraphSeries *
cs_graph_add_stream (CsGraph *graph, CsStream *stream, const CsJitterBufferConfig *jb)
{
  char src[CS_ENDPOINT_STRLEN], dst[CS_ENDPOINT_STRLEN];
  g_autofree char *label = NULL;
  const GArray *packets;

  g_return_val_if_fail (CS_IS_STREAM (stream), NULL);

  packets = cs_stream_get_packets (stream);
  label = g_strdup_printf ("%s \u2192 %s", cs_endpoint_to_string (cs_stream_get_src (stream), src),
                           cs_endpoint_to_string (cs_stream_get_dst (stream), dst));
  return cs_graph_add_packets (
      graph, cs_stream_get_id (stream), label, (const CsRtpPacket *) packets->data, packets->len,
      cs_stream_get_clock_map (stream), cs_stream_get_codec_info (stream), jb);
}

/* Time of a frame in one series: exact for per-packet kinds; for windows and
 * bins, the markers (every packet with a problem) and points are searched. */
static gboolean
series_frame_time (const CsGraphSeries *series, guint32 frame, double *t_s)
{
  for (guint i = 0; i < series->points->len; i++)
    if (g_array_index (series->points, CsGraphPoint, i).frame == frame)
      {
        *t_s = g_array_index (series->points, CsGraphPoint, i).t_s;
        return TRUE;
      }
  for (guint i = 0; i < series->markers->len; i++)
    if (g_array_index (series->markers, CsGraphMarker, i).frame == frame)
      {
        *t_s = g_array_index (series->markers, CsGraphMarker, i).t_s;
        return TRUE;
      }
  return FALSE;
}

gboolean
cs_graph_find_frame_time (const CsGraph *graph, guint32 frame, double *t_s)
{
  for (guint i = 0; i < graph->series->len; i++)
    if (series_frame_time (g_ptr_array_index (graph->series, i), frame, t_s))
      return TRUE;
  return FALSE;
}

/* Inserts a marker after those at or before its time (markers stay in time order). */
static void
insert_marker (CsGraphSeries *series, const CsGraphMarker *marker)
{
  guint at = series->markers->len;

  while (at > 0 && g_array_index (series->markers, CsGraphMarker, at - 1).t_s > marker->t_s)
    at--;
  g_array_insert_val (series->markers, at, *marker);
}

gboolean
cs_graph_add_finding_marker (CsGraph *graph, guint stream_id, guint32 frame)
{
  for (guint i = 0; i < graph->series->len; i++)
    {
      CsGraphSeries *series = g_ptr_array_index (graph->series, i);
      CsGraphMarker marker = { 0, frame, 1, CS_GRAPH_MARKER_FINDING, 0 };

      if (series->stream_id != stream_id || !series_frame_time (series, frame, &marker.t_s))
        continue;
      insert_marker (series, &marker);
      return TRUE;
    }
  return FALSE;
}

gboolean
cs_graph_add_dtmf_marker (CsGraph *graph, guint stream_id, double t_s, guint32 frame, char digit)
{
  for (guint i = 0; i < graph->series->len; i++)
    {
      CsGraphSeries *series = g_ptr_array_index (graph->series, i);
      CsGraphMarker marker = { t_s, frame, 1, CS_GRAPH_MARKER_DTMF, digit };

      if (stream_id != 0 && series->stream_id != stream_id)
        continue;
      insert_marker (series, &marker);
      return TRUE;
    }
  return FALSE;
}

double
cs_graph_series_gap_s (const CsGraphSeries *series)
{
  const CsGraphPoint *first, *last;
  double mean_spacing;

  if (series->step_s > 0 || series->points->len < 2)
    return 0;
  first = &g_array_index (series->points, CsGraphPoint, 0);
  last = &g_array_index (series->points, CsGraphPoint, series->points->len - 1);
  mean_spacing = (last->t_s - first->t_s) / (series->points->len - 1);
  return MAX (8.0 * mean_spacing, 0.25);
}

/* Viewport */

double
cs_graph_nice_step (double range, guint max_ticks)
{
  double raw, magnitude, norm;

  if (!(range > 0) || max_ticks == 0)
    return 1.0;
  raw = range / max_ticks;
  magnitude = pow (10.0, floor (log10 (raw)));
  norm = raw / magnitude;
  if (norm <= 1.0)
    return magnitude;
  if (norm <= 2.0)
    return 2.0 * magnitude;
  if (norm <= 5.0)
    return 5.0 * magnitude;
  return 10.0 * magnitude;
}

static double
nice_ceil (double value)
{
  double step = cs_graph_nice_step (value, 5);

  return ceil (value / step) * step;
}

void
cs_graph_get_extent (const CsGraph *graph, CsGraphViewport *out)
{
  gboolean any = FALSE;
  double t0 = 0, t1 = 0, v0 = 0, v1 = 0;

  for (guint s = 0; s < graph->series->len; s++)
    {
      const CsGraphSeries *series = g_ptr_array_index (graph->series, s);

      for (guint i = 0; i < series->points->len; i++)
        {
          const CsGraphPoint *p = &g_array_index (series->points, CsGraphPoint, i);
          double end = p->t_s + series->step_s;

          if (!any)
            {
              t0 = p->t_s;
              t1 = end;
              v0 = v1 = p->value;
              any = TRUE;
              continue;
            }
          t0 = MIN (t0, p->t_s);
          t1 = MAX (t1, end);
          v0 = MIN (v0, p->value);
          v1 = MAX (v1, p->value);
        }
    }
  if (t1 - t0 < CS_GRAPH_MIN_WIDTH_S)
    t1 = t0 + 1.0;
  out->t0 = t0;
  out->t1 = t1;
  switch (graph->kind)
    {
    case CS_GRAPH_KIND_MOS:
      out->v0 = 1.0;
      out->v1 = 4.5;
      break;
    case CS_GRAPH_KIND_SKEW:
      /* Skew drifts either way: round both ends outwards, keep zero visible. */
      v0 = MIN (v0, 0.0);
      v1 = MAX (v1, 0.0);
      if (v1 - v0 < 1.0)
        v1 = v0 + 1.0;
      {
        double step = cs_graph_nice_step (v1 - v0, 5);
        out->v0 = floor (v0 / step) * step;
        out->v1 = ceil (v1 / step) * step;
      }
      break;
    default:
      out->v0 = 0.0;
      out->v1 = nice_ceil (MAX (v1 * 1.05, 1.0));
      break;
    }
}

static void
clamp_to_extent (CsGraphViewport *vp, const CsGraphViewport *extent)
{
  double width = vp->t1 - vp->t0;
  double full = extent->t1 - extent->t0;

  if (width >= full)
    {
      vp->t0 = extent->t0;
      vp->t1 = extent->t1;
      return;
    }
  if (vp->t0 < extent->t0)
    {
      vp->t0 = extent->t0;
      vp->t1 = extent->t0 + width;
    }
  if (vp->t1 > extent->t1)
    {
      vp->t1 = extent->t1;
      vp->t0 = extent->t1 - width;
    }
}

void
cs_graph_viewport_zoom (CsGraphViewport *vp, const CsGraphViewport *extent, double factor,
                        double anchor_t)
{
  double width = vp->t1 - vp->t0;
  double new_width, fraction;

  if (!(factor > 0) || !(width > 0))
    return;
  new_width = CLAMP (width / factor, CS_GRAPH_MIN_WIDTH_S, extent->t1 - extent->t0);
  fraction = CLAMP ((anchor_t - vp->t0) / width, 0.0, 1.0);
  vp->t0 = anchor_t - fraction * new_width;
  vp->t1 = vp->t0 + new_width;
  clamp_to_extent (vp, extent);
}

void
cs_graph_viewport_pan (CsGraphViewport *vp, const CsGraphViewport *extent, double fraction)
{
  double shift = (vp->t1 - vp->t0) * fraction;

  vp->t0 += shift;
  vp->t1 += shift;
  clamp_to_extent (vp, extent);
}

void
cs_graph_viewport_center (CsGraphViewport *vp, const CsGraphViewport *extent, double t)
{
  double half = (vp->t1 - vp->t0) / 2;

  vp->t0 = t - half;
  vp->t1 = t + half;
  clamp_to_extent (vp, extent);
}

double
cs_graph_viewport_x (const CsGraphViewport *vp, double t_s)
{
  return (t_s - vp->t0) / (vp->t1 - vp->t0);
}

double
cs_graph_viewport_t (const CsGraphViewport *vp, double x01)
{
  return vp->t0 + x01 * (vp->t1 - vp->t0);
}

double
cs_graph_viewport_y (const CsGraphViewport *vp, double value)
{
  return (value - vp->v0) / (vp->v1 - vp->v0);
}

/* First point with t_s >= t (points are in time order). */
static guint
lower_bound (const GArray *points, double t)
{
  guint lo = 0, hi = points->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (points, CsGraphPoint, mid).t_s < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
append_scaled (GArray *out, const CsGraphSeries *series, const CsGraphViewport *vp, guint index)
{
  const CsGraphPoint *p = &g_array_index (series->points, CsGraphPoint, index);
  CsGraphScaledPoint scaled;

  scaled.x = (float) cs_graph_viewport_x (vp, p->t_s);
  scaled.y = (float) cs_graph_viewport_y (vp, p->value);
  scaled.index = index;
  g_array_append_val (out, scaled);
}

GArray *
cs_graph_series_scale (const CsGraphSeries *series, const CsGraphViewport *vp, guint columns)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (CsGraphScaledPoint));
  guint first, last;

  if (series->points->len == 0 || !(vp->t1 > vp->t0) || !(vp->v1 > vp->v0))
    return out;
  first = lower_bound (series->points, vp->t0 - series->step_s);
  if (first > 0)
    first--;
  last = lower_bound (series->points, vp->t1);
  if (last >= series->points->len)
    last = series->points->len - 1;
  if (columns == 0 || last - first + 1 <= 2 * columns)
    {
      for (guint i = first; i <= last; i++)
        append_scaled (out, series, vp, i);
      return out;
    }
  /* Per column: first, min, max, last — in index order so lines stay monotone in x. */
  {
    guint i = first;

    while (i <= last)
      {
        const CsGraphPoint *p = &g_array_index (series->points, CsGraphPoint, i);
        double x = cs_graph_viewport_x (vp, p->t_s);
        gint64 column = (gint64) floor (x * columns);
        guint start = i, min_i = i, max_i = i, end = i;

        while (end + 1 <= last)
          {
            const CsGraphPoint *q = &g_array_index (series->points, CsGraphPoint, end + 1);
            if ((gint64) floor (cs_graph_viewport_x (vp, q->t_s) * columns) != column)
              break;
            end++;
            if (q->value < g_array_index (series->points, CsGraphPoint, min_i).value)
              min_i = end;
            if (q->value > g_array_index (series->points, CsGraphPoint, max_i).value)
              max_i = end;
          }
        append_scaled (out, series, vp, start);
        if (MIN (min_i, max_i) != start)
          append_scaled (out, series, vp, MIN (min_i, max_i));
        if (MAX (min_i, max_i) != MIN (min_i, max_i) && MAX (min_i, max_i) != start)
          append_scaled (out, series, vp, MAX (min_i, max_i));
        if (end != start && end != min_i && end != max_i)
          append_scaled (out, series, vp, end);
        i = end + 1;
      }
  }
  return out;
}

gboolean
cs_graph_find_nearest (const CsGraph *graph, const CsGraphViewport *vp, double x01, double y01,
                       double width, double height, double max_px, guint *series_index,
                       guint *point_index)
{
  double best = max_px * max_px;
  gboolean found = FALSE;
  double t = cs_graph_viewport_t (vp, x01);
  double px_per_s = width / (vp->t1 - vp->t0);

  for (guint s = 0; s < graph->series->len; s++)
    {
      const CsGraphSeries *series = g_ptr_array_index (graph->series, s);
      /* A windowed point is hit anywhere over its window: compare with its middle. */
      double half_step = series->step_s / 2;
      guint start = lower_bound (series->points, t - half_step);
      double reach_s = max_px / px_per_s + half_step;

      for (int dir = -1; dir <= 1; dir += 2)
        for (gint64 i = dir < 0 ? (gint64) start - 1 : start;
             i >= 0 && i < (gint64) series->points->len; i += dir)
          {
            const CsGraphPoint *p = &g_array_index (series->points, CsGraphPoint, i);
            double dt = p->t_s + half_step - t;
            double dx = (x01 - cs_graph_viewport_x (vp, p->t_s + half_step)) * width;
            double dy = (y01 - cs_graph_viewport_y (vp, p->value)) * height;
            double d2;

            if (fabs (dt) > reach_s + half_step)
              break;
            if (half_step > 0 && fabs (dx) <= half_step * px_per_s)
              dx = 0; /* inside the window */
            d2 = dx * dx + dy * dy;
            if (d2 <= best)
              {
                best = d2;
                *series_index = s;
                *point_index = (guint) i;
                found = TRUE;
              }
          }
    }
  return found;
}

gboolean
cs_graph_find_marker (const CsGraph *graph, const CsGraphViewport *vp, double x01, double width,
                      double max_px, guint *series_index, guint *marker_index)
{
  double best = max_px;
  gboolean found = FALSE;

  for (guint s = 0; s < graph->series->len; s++)
    {
      const CsGraphSeries *series = g_ptr_array_index (graph->series, s);

      for (guint i = 0; i < series->markers->len; i++)
        {
          const CsGraphMarker *m = &g_array_index (series->markers, CsGraphMarker, i);
          double m01 = cs_graph_viewport_x (vp, m->t_s);
          double dx = fabs (m01 - x01) * width;

          if (m01 < 0 || m01 > 1 || dx > best)
            continue;
          best = dx;
          *series_index = s;
          *marker_index = i;
          found = TRUE;
        }
    }
  return found;
}
