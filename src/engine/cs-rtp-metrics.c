/* cs-rtp-metrics.c — the RTP stream recurrence of Wireshark's rtppacket_analyse()
 * (ui/tap-rtp-analysis.c as shipped in TShark 4.0) re-implemented step by step, plus the figures
 * Wireshark's tap-rtp-common.c derives from it (expected, lost, clock drift).
 * Quirks kept on purpose so our numbers equal tshark's: see docs/metrics.md. */
#include "cs-rtp-metrics.h"

#include "cs-codec.h"

#include <math.h>
#include <string.h>

/* Wireshark's clock table for static payload types (tap-rtp-analysis.c). */
static guint
static_clock_rate (guint pt)
{
  switch (pt)
    {
    case 0:
    case 1:
    case 2:
    case 3:
    case 4:
    case 5:
    case 7:
    case 8:
    case 9:
    case 12:
    case 13:
    case 15:
    case 18:
    case 19:
      return 8000;
    case 6:
      return 16000;
    case 10:
    case 11:
      return 44100;
    case 16:
      return 11025;
    case 17:
      return 22050;
    case 14:
    case 25:
    case 26:
    case 28:
    case 31:
    case 32:
    case 33:
    case 34:
      return 90000;
    default:
      return 0;
    }
}

void
cs_rtp_clock_map_init_static (CsRtpClockMap *map)
{
  memset (map, 0, sizeof *map);
  for (guint pt = 0; pt < 96; pt++)
    map->clock_rate_by_pt[pt] = static_clock_rate (pt);
  map->comfort_noise_pt[13] = 1;
  map->comfort_noise_pt[19] = 1;
}

void
cs_rtp_clock_map_set_rtpmap (CsRtpClockMap *map, guint payload_type, const char *encoding,
                             guint clock_rate)
{
  const CsCodecInfo *info;

  /* Wireshark looks static payload types up in its own table only. */
  if (payload_type < 96 || payload_type > 127 || encoding == NULL)
    return;
  if (cs_codec_is_telephone_event (encoding))
    {
      map->telephone_event_pt[payload_type] = 1;
      map->clock_rate_by_pt[payload_type] = clock_rate != 0 ? clock_rate : 8000;
      return;
    }
  map->telephone_event_pt[payload_type] = 0;
  if (clock_rate == 0 && (info = cs_codec_lookup_encoding (encoding, 0)) != NULL)
    clock_rate = info->clock_rate;
  map->clock_rate_by_pt[payload_type] = clock_rate;
}

static inline gboolean
seen_get (const guint8 *seen, guint16 seq)
{
  return (seen[seq >> 3] >> (seq & 7)) & 1;
}

static inline void
seen_set (guint8 *seen, guint16 seq, gboolean on)
{
  if (on)
    seen[seq >> 3] |= (guint8) (1u << (seq & 7));
  else
    seen[seq >> 3] &= (guint8) ~(1u << (seq & 7));
}

void
cs_rtp_analyser_init (CsRtpAnalyser *a)
{
  memset (a, 0, sizeof *a);
}

void
cs_rtp_analyser_clear (CsRtpAnalyser *a)
{
  g_clear_pointer (&a->seen, g_free);
}

/* Own duplicate / reorder bookkeeping over a 65536-bit window. */
static void
track_order (CsRtpAnalyser *a, guint16 seq)
{
  guint32 ext;

  if (a->seen == NULL)
    a->seen = g_malloc0 (65536 / 8);
  if (!a->started)
    {
      a->max_ext_seq = 0x10000u + seq;
      seen_set (a->seen, seq, TRUE);
      return;
    }
  ext = cs_rtp_extend_seq (a->max_ext_seq, seq);
  if (ext > a->max_ext_seq)
    {
      guint32 advance = ext - a->max_ext_seq;

      a->lost_before = advance - 1;
      if (advance >= 65536)
        memset (a->seen, 0, 65536 / 8);
      else
        for (guint32 s = a->max_ext_seq + 1; s <= ext; s++)
          seen_set (a->seen, (guint16) s, FALSE);
      a->max_ext_seq = ext;
      seen_set (a->seen, seq, TRUE);
    }
  else if (seen_get (a->seen, seq))
    {
      a->flags |= CS_RTP_STEP_DUPLICATE;
      a->stats.duplicates++;
    }
  else
    {
      a->flags |= CS_RTP_STEP_OUT_OF_ORDER;
      a->stats.out_of_order++;
      seen_set (a->seen, seq, TRUE);
    }
}

static void
feed_first (CsRtpAnalyser *a, const CsRtpPacket *p)
{
  a->first_ns = p->arrival_ns;
  a->start_seq = a->stop_seq = a->last_seq = p->seq;
  a->start_time_ms = a->time_ms = 0.0;
  a->first_timestamp = p->timestamp;
  a->last_nominal = 0.0;
  a->pt = a->reg_pt = p->payload_type;
  a->reg_pt_set = TRUE;
  a->delta_ms = a->jitter_ms = a->skew_ms = 0.0;
  a->total_nr = 1;
  a->flags |= CS_RTP_STEP_FIRST;
  if (p->flags & CS_RTP_FLAG_MARKER)
    a->flags |= CS_RTP_STEP_MARKER;
  a->stats.payload_type = p->payload_type;
  a->stats.first_frame = p->frame;
  a->stats.first_ns = p->arrival_ns;
}

void
cs_rtp_analyser_feed (CsRtpAnalyser *a, const CsRtpPacket *p, const CsRtpClockMap *clocks)
{
  guint8 pt = p->payload_type & 0x7f;
  double now_ms;
  guint clock_rate;
  gboolean in_time_sequence;

  a->flags = 0;
  a->lost_before = 0;

  /* counters Wireshark does not keep */
  if (p->flags & CS_RTP_FLAG_MARKER)
    a->stats.marker_packets++;
  if (clocks->comfort_noise_pt[pt])
    a->stats.comfort_noise_packets++;
  if (clocks->telephone_event_pt[pt])
    a->stats.telephone_event_packets++;
  a->stats.last_frame = p->frame;
  a->stats.last_ns = p->arrival_ns;
  track_order (a, p->seq);

  if (!a->started)
    {
      feed_first (a, p);
      a->started = TRUE;
      return;
    }
  a->payload_bytes_after_first += p->payload_len;
  now_ms = (double) (p->arrival_ns - a->first_ns) / 1e6;

  /* "In time sequence" = at most 2^31 timestamp units after the first packet's
   * timestamp, modulo 2^32 (Wireshark 4.0); anything else is "in the past". */
  in_time_sequence = (guint32) (p->timestamp - a->first_timestamp) < 0x80000000u;
  if (!in_time_sequence)
    {
      a->flags |= CS_RTP_STEP_WRONG_TIMESTAMP;
      a->stats.wrong_timestamp_packets++;
    }

  /* Wireshark's wrap-around cycle counting (feeds "expected"). */
  if (p->seq < a->start_seq && in_time_sequence && !a->under)
    {
      a->seq_cycles++;
      a->under = TRUE;
    }
  else if (p->seq == 0 && a->stop_seq == 65535 && in_time_sequence && !a->under)
    {
      a->seq_cycles++;
      a->under = TRUE;
    }
  else if (p->seq > a->start_seq && in_time_sequence && a->under)
    a->under = FALSE;

  /* Sequence errors: a jump forward, or a late / duplicated packet. */
  if (in_time_sequence && (guint32) a->last_seq + 1 == p->seq)
    a->last_seq = p->seq;
  else if (in_time_sequence && a->last_seq == 65535 && p->seq == 0)
    a->last_seq = p->seq;
  else if (in_time_sequence
           && ((guint32) a->last_seq + 1 < p->seq || (gint) a->last_seq - (gint) p->seq > 0xFF00))
    {
      a->last_seq = p->seq;
      a->stats.sequence_errors++;
      a->flags |= CS_RTP_STEP_WRONG_SEQ;
    }
  else if ((guint32) a->last_seq + 1 > p->seq)
    {
      a->stats.sequence_errors++;
      a->flags |= CS_RTP_STEP_WRONG_SEQ;
    }

  if (clocks->comfort_noise_pt[pt])
    a->flags |= CS_RTP_STEP_PT_CN;
  if (clocks->comfort_noise_pt[a->pt])
    a->flags |= CS_RTP_STEP_FOLLOW_PT_CN;
  if (pt != a->pt)
    a->flags |= CS_RTP_STEP_PT_CHANGE;
  a->pt = pt;

  if (clocks->telephone_event_pt[pt])
    {
      clock_rate = 0; /* RFC 4733 §2.2.1: event timestamps do not advance */
      a->flags |= CS_RTP_STEP_TELEPHONE_EVENT;
    }
  else
    clock_rate = clocks->clock_rate_by_pt[pt];

  /* Out-of-sequence packets leave delta, jitter and skew untouched. */
  if (in_time_sequence)
    {
      a->delta_ms = now_ms - a->time_ms;
      /* Wireshark divides by clock_rate/1000 in integers (44100 Hz → 44). */
      if (clock_rate / 1000 != 0)
        {
          double arrival = now_ms - a->start_time_ms;
          double nominal = (double) (guint32) (p->timestamp - a->first_timestamp);

          a->stats.clock_rate = clock_rate;
          nominal /= (double) (clock_rate / 1000);
          /* expected spacing counts from the last packet WITH a clock (not events) */
          a->jitter_ms
              = (15.0 * a->jitter_ms + fabs (now_ms - (a->time_ms + (nominal - a->last_nominal))))
                / 16.0;
          a->last_nominal = nominal;
          a->skew_ms = nominal - arrival;
          if (fabs (a->skew_ms) > fabs (a->stats.max_skew_ms))
            a->stats.max_skew_ms = a->skew_ms;
          a->sum_t += arrival;
          a->sum_ts += nominal;
          a->sum_t2 += arrival * arrival;
          a->sum_tts += arrival * nominal;
        }
    }

  if (p->flags & CS_RTP_FLAG_MARKER)
    a->flags |= CS_RTP_STEP_MARKER;

  /* Only "regular" packets enter the delta and jitter statistics. */
  if (!(a->flags
        & (CS_RTP_STEP_MARKER | CS_RTP_STEP_PT_CN | CS_RTP_STEP_WRONG_TIMESTAMP
           | CS_RTP_STEP_FOLLOW_PT_CN)))
    {
      CsRtpStats *s = &a->stats;

      if (a->delta_ms > s->max_delta_ms)
        {
          s->max_delta_ms = a->delta_ms;
          s->max_delta_frame = p->frame;
        }
      if (!a->have_min_delta || a->delta_ms < s->min_delta_ms)
        s->min_delta_ms = a->delta_ms;
      a->have_min_delta = TRUE;
      /* Wireshark's running mean divides by all packets so far, regular or not. */
      s->mean_delta_ms = (s->mean_delta_ms * (a->total_nr - 1) + a->delta_ms) / a->total_nr;

      if (clock_rate / 1000 != 0)
        {
          if (a->jitter_ms > s->max_jitter_ms)
            s->max_jitter_ms = a->jitter_ms;
          s->mean_jitter_ms = (s->mean_jitter_ms * (a->total_nr - 1) + a->jitter_ms) / a->total_nr;
          if (!a->have_min_jitter || a->jitter_ms < s->min_jitter_ms)
            s->min_jitter_ms = a->jitter_ms;
          a->have_min_jitter = TRUE;
        }
    }

  if (!(a->flags & CS_RTP_STEP_PT_CN))
    {
      if (a->reg_pt_set && a->pt != a->reg_pt)
        {
          a->flags |= CS_RTP_STEP_REG_PT_CHANGE;
          a->stats.payload_type_changes++;
        }
      a->reg_pt = a->pt;
      a->reg_pt_set = TRUE;
    }

  if (in_time_sequence)
    a->time_ms = now_ms;
  a->stop_seq = p->seq;
  a->total_nr++;
  if (a->flags & (CS_RTP_STEP_WRONG_SEQ | CS_RTP_STEP_WRONG_TIMESTAMP))
    a->stats.problem = TRUE;
}

static void
finish_stats (const CsRtpAnalyser *a, CsRtpStats *out)
{
  double duration_ms, n;

  *out = a->stats;
  out->packets = a->total_nr;
  if (a->total_nr == 0)
    return;
  out->expected = ((guint32) a->stop_seq + a->seq_cycles * 0x10000u) - a->start_seq + 1;
  out->lost = (gint32) (out->expected - a->total_nr);
  out->last_jitter_ms = a->jitter_ms;
  out->last_skew_ms = a->skew_ms;

  /* Least-squares slope of nominal vs arrival time, as tap-rtp-common.c. */
  n = a->total_nr;
  duration_ms = a->time_ms - a->start_time_ms;
  if (a->sum_t2 > 0)
    {
      double denom = n * a->sum_t2 - a->sum_t * a->sum_t;

      if (denom != 0)
        {
          double drift = (n * a->sum_tts - a->sum_t * a->sum_ts) / denom;

          out->clock_drift_ms = duration_ms * (drift - 1.0);
          out->clock_drift_ppm = 1e6 * (drift - 1.0);
        }
    }
  if (out->last_ns > out->first_ns)
    out->mean_bitrate_kbps = (double) a->payload_bytes_after_first * 8.0
                             / ((double) (out->last_ns - out->first_ns) / 1e9) / 1000.0;
}

void
cs_rtp_analyser_get_stats (const CsRtpAnalyser *a, CsRtpStats *out)
{
  finish_stats (a, out);
}

void
cs_rtp_stats_compute (const CsRtpPacket *packets, gsize n, const CsRtpClockMap *clocks,
                      CsRtpStats *out)
{
  CsRtpAnalyser a;

  cs_rtp_analyser_init (&a);
  for (gsize i = 0; i < n; i++)
    cs_rtp_analyser_feed (&a, &packets[i], clocks);
  finish_stats (&a, out);
  if (n > 0 && !clocks->telephone_event_pt[out->payload_type]
      && clocks->clock_rate_by_pt[out->payload_type] != 0)
    out->clock_rate = clocks->clock_rate_by_pt[out->payload_type];
  cs_rtp_analyser_clear (&a);
}
