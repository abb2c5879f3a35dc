/* cs-graph-series.h — stream graphs as data: series per stream, markers, viewport maths (no GTK) */
#pragma once

#include <glib.h>

#include "callscope-engine.h"

G_BEGIN_DECLS

typedef enum
{
  CS_GRAPH_KIND_JITTER,  /* RFC 3550 running jitter, ms */
  CS_GRAPH_KIND_DELTA,   /* arrival spacing, ms */
  CS_GRAPH_KIND_SKEW,    /* nominal − arrival time, ms */
  CS_GRAPH_KIND_MOS,     /* E-model MOS per window (5 s) */
  CS_GRAPH_KIND_BITRATE, /* RTP payload kbit/s per bin (1 s) */
  CS_GRAPH_N_KINDS,
} CsGraphKind;

#define CS_GRAPH_BITRATE_BIN_S 1.0

/* "jitter", "delta", "skew", "mos", "bitrate" (CLI and file names) */
const char *cs_graph_kind_to_string (CsGraphKind kind);
gboolean cs_graph_kind_parse (const char *text, CsGraphKind *out);
/* Axis unit: "ms", "MOS", "kbit/s". */
const char *cs_graph_kind_unit (CsGraphKind kind);

typedef enum
{
  CS_GRAPH_MARKER_LOSS = 1,       /* sequence numbers skipped before this packet */
  CS_GRAPH_MARKER_SEQ_ERROR = 2,  /* late, duplicate or reordered packet */
  CS_GRAPH_MARKER_FINDING = 3,    /* a finding points at this frame */
  CS_GRAPH_MARKER_MARKER_BIT = 4, /* the RTP marker bit (talk spurt or event start) */
  CS_GRAPH_MARKER_DTMF = 5,       /* a DTMF digit starts (RFC 4733 or SIP INFO) */
} CsGraphMarkerKind;
#define CS_GRAPH_N_MARKER_KINDS 6

typedef struct
{
  double t_s;    /* seconds since the graph's origin */
  double value;  /* in cs_graph_kind_unit () */
  guint32 frame; /* the packet (or the first packet of the window/bin) */
} CsGraphPoint;

typedef struct
{
  double t_s;
  guint32 frame;
  guint32 count; /* packets lost for LOSS, else 1 */
  CsGraphMarkerKind kind;
  char digit; /* DTMF: '0'..'9', '*', '#', 'A'..'D'; else 0 */
} CsGraphMarker;

typedef struct
{
  guint stream_id;
  char *label;     /* "10.0.0.1:4000 → 10.0.0.2:5000" */
  GArray *points;  /* CsGraphPoint, ascending t_s */
  GArray *markers; /* CsGraphMarker, ascending t_s */
  double step_s;   /* > 0: each point holds its value for step_s (MOS windows, bitrate bins) */
} CsGraphSeries;

typedef struct
{
  CsGraphKind kind;
  gint64 origin_ns;  /* time zero of the x axis */
  GPtrArray *series; /* CsGraphSeries* */
} CsGraph;

CsGraph *cs_graph_new (CsGraphKind kind, gint64 origin_ns);
void cs_graph_free (CsGraph *graph);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsGraph, cs_graph_free)

/* Adds the series of one stream's packets (capture order) for graph->kind.
 * codec and jb (NULL = fixed 50 ms) are used by MOS only. */
CsGraphSeries *cs_graph_add_packets (CsGraph *graph, guint stream_id, const char *label,
                                     const CsRtpPacket *packets, gsize n,
                                     const CsRtpClockMap *clocks, const CsCodecInfo *codec,
                                     const CsJitterBufferConfig *jb);
/* Same, from an engine stream; the label is "src → dst". */
CsGraphSeries *cs_graph_add_stream (CsGraph *graph, CsStream *stream,
                                    const CsJitterBufferConfig *jb);
/* A finding marker at a frame of a stream already in the graph (found by
 * stream id); FALSE when the stream or the frame is not there. */
gboolean cs_graph_add_finding_marker (CsGraph *graph, guint stream_id, guint32 frame);
/* A DTMF mark at t_s on the stream's series (stream_id 0 = the first series, for SIP INFO);
 * FALSE when the graph has no such series. */
gboolean cs_graph_add_dtmf_marker (CsGraph *graph, guint stream_id, double t_s, guint32 frame,
                                   char digit);
/* A pause longer than this between two points of a per-packet series is drawn as a gap:
 * eight times the series' mean packet spacing, at least 0.25 s; 0 for windowed series. */
double cs_graph_series_gap_s (const CsGraphSeries *series);
guint cs_graph_get_n_series (const CsGraph *graph);
const CsGraphSeries *cs_graph_get_series (const CsGraph *graph, guint index);
/* Arrival time (s since origin) of a frame in any series; FALSE when absent. */
gboolean cs_graph_find_frame_time (const CsGraph *graph, guint32 frame, double *t_s);

/* Viewport: the visible window of time and values. */
typedef struct
{
  double t0, t1; /* seconds since origin */
  double v0, v1; /* values, v0 < v1 */
} CsGraphViewport;

/* Whole data range with a readable value axis: 0 at the bottom for jitter,
 * delta and bitrate; 1..4.5 for MOS; a rounded top; never empty. */
void cs_graph_get_extent (const CsGraph *graph, CsGraphViewport *out);
/* Zoom the time axis by factor (> 1 zooms in) keeping anchor_t where it is;
 * clamped to extent, never narrower than 1 ms. */
void cs_graph_viewport_zoom (CsGraphViewport *vp, const CsGraphViewport *extent, double factor,
                             double anchor_t);
/* Pan by a fraction of the visible width (negative = earlier), clamped to extent. */
void cs_graph_viewport_pan (CsGraphViewport *vp, const CsGraphViewport *extent, double fraction);
/* Centre the visible width on t, clamped to extent. */
void cs_graph_viewport_center (CsGraphViewport *vp, const CsGraphViewport *extent, double t);

/* A point scaled into the viewport: x, y in 0..1 (y up), and the index of the
 * point in its series. */
typedef struct
{
  float x, y;
  guint index;
} CsGraphScaledPoint;

/* Points of one series scaled to 0..1 in vp, only the visible ones plus one
 * neighbour on each side. With more than 2·columns visible points, each of
 * `columns` time buckets keeps its first, minimum, maximum and last point, so
 * drawing stays bounded and spikes stay visible. columns 0 = keep all. */
GArray *cs_graph_series_scale (const CsGraphSeries *series, const CsGraphViewport *vp,
                               guint columns);
/* x in 0..1 of a time, and back. */
double cs_graph_viewport_x (const CsGraphViewport *vp, double t_s);
double cs_graph_viewport_t (const CsGraphViewport *vp, double x01);
double cs_graph_viewport_y (const CsGraphViewport *vp, double value);

/* The point nearest to (x01, y01) in the viewport, distance measured in pixels
 * of a width × height plot; FALSE when no point is within max_px. */
gboolean cs_graph_find_nearest (const CsGraph *graph, const CsGraphViewport *vp, double x01,
                                double y01, double width, double height, double max_px,
                                guint *series_index, guint *point_index);

/* The marker nearest to x01 in time, measured in pixels of a width-wide plot; FALSE when no
 * visible marker is within max_px. */
gboolean cs_graph_find_marker (const CsGraph *graph, const CsGraphViewport *vp, double x01,
                               double width, double max_px, guint *series_index,
                               guint *marker_index);

/* A "nice" tick step (1, 2 or 5 × 10^k) giving at most max_ticks ticks over range. */
double cs_graph_nice_step (double range, guint max_ticks);

G_END_DECLS
