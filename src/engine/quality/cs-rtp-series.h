/* cs-rtp-series.h — per-packet series (delta, jitter, skew, loss) for graphs, on demand */
#pragma once

#include <glib.h>

#include "cs-rtp-metrics.h"

G_BEGIN_DECLS

#define CS_RTP_SERIES_SEQ_ERROR (1u << 0) /* Wireshark's wrong sequence */
#define CS_RTP_SERIES_MARKER (1u << 1)
#define CS_RTP_SERIES_DUPLICATE (1u << 2)
#define CS_RTP_SERIES_OUT_OF_ORDER (1u << 3)
#define CS_RTP_SERIES_WRONG_TIMESTAMP (1u << 4)
#define CS_RTP_SERIES_PT_CHANGE (1u << 5)
#define CS_RTP_SERIES_NOT_MEDIA (1u << 6) /* comfort noise or telephone-event */

typedef struct
{
  double time_s;   /* arrival relative to origin_ns */
  double delta_ms; /* 0 for the first packet */
  double jitter_ms;
  double skew_ms;
  guint32 lost_before; /* sequence numbers skipped just before this packet */
  guint32 frame;
  guint8 flags; /* CS_RTP_SERIES_* */
} CsRtpSeriesPoint;

/* One point per packet, same recurrence as cs_rtp_stats_compute. Free with g_array_unref. */
GArray *cs_rtp_series_compute (const CsRtpPacket *packets, gsize n, const CsRtpClockMap *clocks,
                               gint64 origin_ns);

G_END_DECLS
