/* cs-rtp-series.c — replays the stream analyser and keeps one point per packet */
#include "cs-rtp-series.h"

static guint8
series_flags (guint step_flags)
{
  guint8 flags = 0;

  if (step_flags & CS_RTP_STEP_WRONG_SEQ)
    flags |= CS_RTP_SERIES_SEQ_ERROR;
  if (step_flags & CS_RTP_STEP_MARKER)
    flags |= CS_RTP_SERIES_MARKER;
  if (step_flags & CS_RTP_STEP_DUPLICATE)
    flags |= CS_RTP_SERIES_DUPLICATE;
  if (step_flags & CS_RTP_STEP_OUT_OF_ORDER)
    flags |= CS_RTP_SERIES_OUT_OF_ORDER;
  if (step_flags & CS_RTP_STEP_WRONG_TIMESTAMP)
    flags |= CS_RTP_SERIES_WRONG_TIMESTAMP;
  if (step_flags & CS_RTP_STEP_REG_PT_CHANGE)
    flags |= CS_RTP_SERIES_PT_CHANGE;
  if (step_flags & (CS_RTP_STEP_PT_CN | CS_RTP_STEP_TELEPHONE_EVENT))
    flags |= CS_RTP_SERIES_NOT_MEDIA;
  return flags;
}

GArray *
cs_rtp_series_compute (const CsRtpPacket *packets, gsize n, const CsRtpClockMap *clocks,
                       gint64 origin_ns)
{
  CsRtpAnalyser a;
  GArray *series;

  series = g_array_sized_new (FALSE, TRUE, sizeof (CsRtpSeriesPoint), (guint) MIN (n, G_MAXUINT));
  cs_rtp_analyser_init (&a);
  for (gsize i = 0; i < n; i++)
    {
      CsRtpSeriesPoint point;

      cs_rtp_analyser_feed (&a, &packets[i], clocks);
      point.time_s = (double) (packets[i].arrival_ns - origin_ns) / 1e9;
      point.delta_ms = (a.flags & CS_RTP_STEP_FIRST) ? 0.0 : a.run.delta_ms;
      point.jitter_ms = a.run.jitter_ms;
      point.skew_ms = a.run.skew_ms;
      point.lost_before = a.lost_before;
      point.frame = packets[i].frame;
      point.flags = series_flags (a.flags);
      g_array_append_val (series, point);
    }
  cs_rtp_analyser_clear (&a);
  return series;
}
