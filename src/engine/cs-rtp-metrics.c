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

/* cs_rtp_extend_seq (cs-rtp.c) inlined: it runs once per packet. */
static inline guint32
extend_seq (guint32 reference, guint16 raw)
{
  guint32 seq = (reference & 0xffff0000u) | raw;

  if (seq + 0x8000u < reference)
    seq += 0x10000u;
  else if (reference + 0x8000u < seq && seq >= 0x10000u)
    seq -= 0x10000u;
  return seq;
}

static inline gboolean
seen_get (const guint8 *seen, guint16 seq)
{
  return (seen[seq >> 3] >> (seq & 7)) & 1;
}

static inline void
seen_set (guint8 *seen, guint16 seq)
{
  seen[seq >> 3] |= (guint8) (1u << (seq & 7));
}

/* Clears the bits of extended sequence numbers [from, to) (to − from < 65536): whole
 * bytes where it can, since a forward jump may span most of the window. */
static void
seen_clear_range (guint8 *seen, guint32 from, guint32 to)
{
  guint32 s = from;

  for (; s < to && (s & 7) != 0; s++)
    seen[(s & 0xffff) >> 3] &= (guint8) ~(1u << (s & 7));
  for (; s < to && to - s >= 8; s += 8)
    seen[(s & 0xffff) >> 3] = 0;
  for (; s < to; s++)
    seen[(s & 0xffff) >> 3] &= (guint8) ~(1u << (s & 7));
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

static void
feed_first (CsRtpAnalyser *a, const CsRtpPacket *p, const CsRtpClockMap *clocks)
{
  guint8 pt = p->payload_type & 0x7f;

  a->flags = CS_RTP_STEP_FIRST;
  a->lost_before = 0;
  if (p->flags & CS_RTP_FLAG_MARKER)
    {
      a->stats.marker_packets++;
      a->flags |= CS_RTP_STEP_MARKER;
    }
  if (clocks->comfort_noise_pt[pt])
    a->stats.comfort_noise_packets++;
  if (clocks->telephone_event_pt[pt])
    a->stats.telephone_event_packets++;
  a->stats.last_frame = p->frame;
  a->stats.last_ns = p->arrival_ns;
  /* own duplicate / reorder bookkeeping over a 65536-bit window */
  a->max_ext_seq = 0x10000u + p->seq;
  seen_set (a->seen, p->seq);

  a->first_ns = p->arrival_ns;
  a->start_seq = a->stop_seq = a->last_seq = p->seq;
  a->start_time_ms = a->time_ms = 0.0;
  a->first_timestamp = p->timestamp;
  a->last_nominal = 0.0;
  a->pt = a->reg_pt = p->payload_type;
  a->reg_pt_set = TRUE;
  a->delta_ms = a->jitter_ms = a->skew_ms = 0.0;
  a->total_nr = 1;
  a->stats.payload_type = p->payload_type;
  a->stats.first_frame = p->frame;
  a->stats.first_ns = p->arrival_ns;
  a->started = TRUE;
}

/* The payload type a packet may have to take analyser_run's fast path: the previous one,
 * when it is also the registered one, neither comfort noise nor an event, with a clock;
 * −1 when there is none. */
static gint
plain_payload_type (const CsRtpClockMap *clocks, guint8 prev_pt, guint8 reg_pt)
{
  guint8 pt = prev_pt & 0x7f;

  if (prev_pt != reg_pt || prev_pt > 127 || clocks->comfort_noise_pt[pt]
      || clocks->telephone_event_pt[pt] || clocks->clock_rate_by_pt[pt] / 1000 == 0)
    return -1;
  return pt;
}

/* The recurrence over packets[0..n) of one stream. The state lives in locals from
 * packet to packet and is written back once: a whole stream in one call costs no
 * loads and stores of the analyser per packet. */
static void
analyser_run (CsRtpAnalyser *a, const CsRtpPacket *packets, gsize n, const CsRtpClockMap *clocks)
{
  const guint8 *cn_pt = clocks->comfort_noise_pt, *te_pt = clocks->telephone_event_pt;
  CsRtpStats st;
  guint8 *seen;
  guint flags;
  guint32 lost_before, max_ext, seq_cycles, total_nr;
  guint16 start_seq, stop_seq, last_seq;
  guint8 prev_pt, reg_pt;
  gint plain_pt;
  gboolean under, have_min_delta, have_min_jitter;
  gint64 first_ns;
  guint32 first_timestamp;
  double time_ms, start_time_ms, last_nominal, delta_ms, jitter_ms, skew_ms;
  double sum_t, sum_ts, sum_t2, sum_tts;
  guint64 payload_bytes;

  if (n == 0)
    return;
  if (a->seen == NULL)
    a->seen = g_malloc0 (65536 / 8);
  if (!a->started)
    {
      feed_first (a, packets, clocks);
      packets++;
      n--;
      if (n == 0)
        return;
    }

  st = a->stats;
  seen = a->seen;
  flags = a->flags;
  lost_before = a->lost_before;
  max_ext = a->max_ext_seq;
  seq_cycles = a->seq_cycles;
  total_nr = a->total_nr;
  start_seq = a->start_seq;
  stop_seq = a->stop_seq;
  last_seq = a->last_seq;
  prev_pt = a->pt;
  reg_pt = a->reg_pt;
  under = a->under;
  have_min_delta = a->have_min_delta;
  have_min_jitter = a->have_min_jitter;
  first_ns = a->first_ns;
  first_timestamp = a->first_timestamp;
  time_ms = a->time_ms;
  start_time_ms = a->start_time_ms;
  last_nominal = a->last_nominal;
  delta_ms = a->delta_ms;
  jitter_ms = a->jitter_ms;
  skew_ms = a->skew_ms;
  sum_t = a->sum_t;
  sum_ts = a->sum_ts;
  sum_t2 = a->sum_t2;
  sum_tts = a->sum_tts;
  payload_bytes = a->payload_bytes_after_first;

  plain_pt = plain_payload_type (clocks, prev_pt, reg_pt);
  for (gsize i = 0; i < n; i++)
    {
      const CsRtpPacket *p = &packets[i];
      guint8 pt = p->payload_type & 0x7f;
      guint16 seq = p->seq;
      gboolean in_time_sequence;
      guint clock_rate;
      guint32 ext = extend_seq (max_ext, seq);
      double now_ms;

      /* Fast path: the next sequence number, in time, the same plain payload type, no marker.
       * Of the bookkeeping below only these few fields would change. */
      if ((gint) pt == plain_pt && !(p->flags & CS_RTP_FLAG_MARKER) && (guint32) last_seq + 1 == seq
          && ext == max_ext + 1 && (guint32) (p->timestamp - first_timestamp) < 0x80000000u
          && (seq < start_seq) == under)
        {
          flags = 0;
          lost_before = 0;
          seen_set (seen, seq);
          max_ext = ext;
          last_seq = seq;
          in_time_sequence = TRUE;
          clock_rate = clocks->clock_rate_by_pt[pt];
        }
      else
        {
          flags = 0;
          lost_before = 0;

          /* counters Wireshark does not keep */
          if (p->flags & CS_RTP_FLAG_MARKER)
            st.marker_packets++;
          if (cn_pt[pt])
            st.comfort_noise_packets++;
          if (te_pt[pt])
            st.telephone_event_packets++;

          /* own duplicate / reorder bookkeeping over a 65536-bit window */
          if (ext > max_ext)
            {
              guint32 advance = ext - max_ext;

              lost_before = advance - 1;
              if (advance >= 65536)
                memset (seen, 0, 65536 / 8);
              else if (advance > 1)
                seen_clear_range (seen, max_ext + 1, ext);
              max_ext = ext;
              seen_set (seen, seq);
            }
          else if (seen_get (seen, seq))
            {
              flags |= CS_RTP_STEP_DUPLICATE;
              st.duplicates++;
            }
          else
            {
              flags |= CS_RTP_STEP_OUT_OF_ORDER;
              st.out_of_order++;
              seen_set (seen, seq);
            }

          /* "In time sequence" = at most 2^31 timestamp units after the first packet's
           * timestamp, modulo 2^32 (Wireshark 4.0); anything else is "in the past". */
          in_time_sequence = (guint32) (p->timestamp - first_timestamp) < 0x80000000u;
          if (!in_time_sequence)
            {
              flags |= CS_RTP_STEP_WRONG_TIMESTAMP;
              st.wrong_timestamp_packets++;
            }

          /* Wireshark's wrap-around cycle counting (feeds "expected"). */
          if (seq < start_seq && in_time_sequence && !under)
            {
              seq_cycles++;
              under = TRUE;
            }
          else if (seq == 0 && stop_seq == 65535 && in_time_sequence && !under)
            {
              seq_cycles++;
              under = TRUE;
            }
          else if (seq > start_seq && in_time_sequence && under)
            under = FALSE;

          /* Sequence errors: a jump forward, or a late / duplicated packet. */
          if (in_time_sequence && (guint32) last_seq + 1 == seq)
            last_seq = seq;
          else if (in_time_sequence && last_seq == 65535 && seq == 0)
            last_seq = seq;
          else if (in_time_sequence
                   && ((guint32) last_seq + 1 < seq || (gint) last_seq - (gint) seq > 0xFF00))
            {
              last_seq = seq;
              st.sequence_errors++;
              flags |= CS_RTP_STEP_WRONG_SEQ;
            }
          else if ((guint32) last_seq + 1 > seq)
            {
              st.sequence_errors++;
              flags |= CS_RTP_STEP_WRONG_SEQ;
            }

          if (cn_pt[pt])
            flags |= CS_RTP_STEP_PT_CN;
          if (cn_pt[prev_pt & 0x7f])
            flags |= CS_RTP_STEP_FOLLOW_PT_CN;
          if (pt != prev_pt)
            flags |= CS_RTP_STEP_PT_CHANGE;
          prev_pt = pt;

          if (te_pt[pt])
            {
              clock_rate = 0; /* RFC 4733 §2.2.1: event timestamps do not advance */
              flags |= CS_RTP_STEP_TELEPHONE_EVENT;
            }
          else
            clock_rate = clocks->clock_rate_by_pt[pt];

          if (p->flags & CS_RTP_FLAG_MARKER)
            flags |= CS_RTP_STEP_MARKER;

          if (!(flags & CS_RTP_STEP_PT_CN))
            {
              if (pt != reg_pt)
                {
                  flags |= CS_RTP_STEP_REG_PT_CHANGE;
                  st.payload_type_changes++;
                }
              reg_pt = pt;
            }
          if (flags & (CS_RTP_STEP_WRONG_SEQ | CS_RTP_STEP_WRONG_TIMESTAMP))
            st.problem = TRUE;
          plain_pt = plain_payload_type (clocks, prev_pt, reg_pt);
        }

      payload_bytes += p->payload_len;
      now_ms = (double) (p->arrival_ns - first_ns) / 1e6;

      /* Out-of-sequence packets leave delta, jitter and skew untouched. */
      if (in_time_sequence)
        {
          delta_ms = now_ms - time_ms;
          /* Wireshark divides by clock_rate/1000 in integers (44100 Hz → 44). */
          if (clock_rate / 1000 != 0)
            {
              double arrival = now_ms - start_time_ms;
              double nominal = (double) (guint32) (p->timestamp - first_timestamp);

              st.clock_rate = clock_rate;
              nominal /= (double) (clock_rate / 1000);
              /* expected spacing counts from the last packet WITH a clock (not events) */
              jitter_ms = (15.0 * jitter_ms + fabs (now_ms - (time_ms + (nominal - last_nominal))))
                          / 16.0;
              last_nominal = nominal;
              skew_ms = nominal - arrival;
              if (fabs (skew_ms) > fabs (st.max_skew_ms))
                st.max_skew_ms = skew_ms;
              sum_t += arrival;
              sum_ts += nominal;
              sum_t2 += arrival * arrival;
              sum_tts += arrival * nominal;
            }
        }

      /* Only "regular" packets enter the delta and jitter statistics. */
      if (!(flags
            & (CS_RTP_STEP_MARKER | CS_RTP_STEP_PT_CN | CS_RTP_STEP_WRONG_TIMESTAMP
               | CS_RTP_STEP_FOLLOW_PT_CN)))
        {
          if (delta_ms > st.max_delta_ms)
            {
              st.max_delta_ms = delta_ms;
              st.max_delta_frame = p->frame;
            }
          if (!have_min_delta || delta_ms < st.min_delta_ms)
            st.min_delta_ms = delta_ms;
          have_min_delta = TRUE;
          /* Wireshark's running mean divides by all packets so far, regular or not. */
          st.mean_delta_ms = (st.mean_delta_ms * (total_nr - 1) + delta_ms) / total_nr;

          if (clock_rate / 1000 != 0)
            {
              if (jitter_ms > st.max_jitter_ms)
                st.max_jitter_ms = jitter_ms;
              st.mean_jitter_ms = (st.mean_jitter_ms * (total_nr - 1) + jitter_ms) / total_nr;
              if (!have_min_jitter || jitter_ms < st.min_jitter_ms)
                st.min_jitter_ms = jitter_ms;
              have_min_jitter = TRUE;
            }
        }

      if (in_time_sequence)
        time_ms = now_ms;
      stop_seq = seq;
      total_nr++;
    }

  st.last_frame = packets[n - 1].frame;
  st.last_ns = packets[n - 1].arrival_ns;
  a->stats = st;
  a->flags = flags;
  a->lost_before = lost_before;
  a->max_ext_seq = max_ext;
  a->seq_cycles = seq_cycles;
  a->total_nr = total_nr;
  a->start_seq = start_seq;
  a->stop_seq = stop_seq;
  a->last_seq = last_seq;
  a->pt = prev_pt;
  a->reg_pt = reg_pt;
  a->under = under;
  a->have_min_delta = have_min_delta;
  a->have_min_jitter = have_min_jitter;
  a->time_ms = time_ms;
  a->last_nominal = last_nominal;
  a->delta_ms = delta_ms;
  a->jitter_ms = jitter_ms;
  a->skew_ms = skew_ms;
  a->sum_t = sum_t;
  a->sum_ts = sum_ts;
  a->sum_t2 = sum_t2;
  a->sum_tts = sum_tts;
  a->payload_bytes_after_first = payload_bytes;
}

void
cs_rtp_analyser_feed (CsRtpAnalyser *a, const CsRtpPacket *p, const CsRtpClockMap *clocks)
{
  analyser_run (a, p, 1, clocks);
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
  guint8 seen[65536 / 8]; /* on the stack: a heap window costs more than a short stream */

  cs_rtp_analyser_init (&a);
  memset (seen, 0, sizeof seen);
  a.seen = seen;
  analyser_run (&a, packets, n, clocks);
  finish_stats (&a, out);
  if (n > 0 && !clocks->telephone_event_pt[out->payload_type]
      && clocks->clock_rate_by_pt[out->payload_type] != 0)
    out->clock_rate = clocks->clock_rate_by_pt[out->payload_type];
}
