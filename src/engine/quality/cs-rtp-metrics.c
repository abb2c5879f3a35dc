/* cs-rtp-metrics.c — the RTP stream recurrence of Wireshark's rtppacket_analyse()
 * (ui/tap-rtp-analysis.c as shipped in TShark 4.0) re-implemented step by step, plus the figures
 * Wireshark's tap-rtp-common.c derives from it (expected, lost, clock drift).
 * Quirks kept on purpose so our numbers equal tshark's: see docs/metrics.md. */
#include "cs-rtp-metrics-private.h"

#include <math.h>
#include <string.h>

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

/* Sets the bits of extended sequence numbers [from, to) (to − from < 65536). */
void
cs_rtp_seen_set_range (guint8 *seen, guint32 from, guint32 to)
{
  guint32 s = from;

  for (; s < to && (s & 7) != 0; s++)
    seen[(s & 0xffff) >> 3] |= (guint8) (1u << (s & 7));
  for (; s < to && to - s >= 8; s += 8)
    seen[(s & 0xffff) >> 3] = 0xff;
  for (; s < to; s++)
    seen[(s & 0xffff) >> 3] |= (guint8) (1u << (s & 7));
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

/* Zeroes the window after a pass whose packets' extended sequence numbers were all in
 * [min, max]: only the bytes they can have set. */
static void
seen_reset (guint8 *seen, guint32 min, guint32 max)
{
  guint lo = (min & 0xffff) >> 3, hi = (max & 0xffff) >> 3;

  if (max - min >= 65536 - 8)
    memset (seen, 0, 65536 / 8);
  else if (lo <= hi)
    memset (seen + lo, 0, hi - lo + 1);
  else
    {
      memset (seen + lo, 0, 65536 / 8 - lo);
      memset (seen, 0, hi + 1);
    }
}

void
cs_rtp_step_table_init (CsRtpStepTable *t)
{
  t->n_values = t->last = 0;
  t->value[0] = 0; /* matches no step: steps are > 0 */
  t->count[0] = 0;
  t->overflow = FALSE;
}

void
cs_rtp_step_table_add (CsRtpStepTable *t, guint32 step)
{
  guint i;

  for (i = 0; i < t->n_values && t->value[i] != step; i++)
    ;
  if (i == t->n_values)
    {
      if (t->n_values == CS_RTP_STEP_TABLE_SIZE)
        {
          t->overflow = TRUE;
          return;
        }
      t->value[i] = step;
      t->count[i] = 0;
      t->n_values++;
    }
  t->count[i]++;
  t->last = i;
}

void
cs_rtp_analyser_init (CsRtpAnalyser *a)
{
  memset (a, 0, sizeof *a);
  a->run.min_delta_ms = a->run.min_jitter_ms = INFINITY;
  cs_rtp_step_table_init (&a->steps);
}

void
cs_rtp_analyser_clear (CsRtpAnalyser *a)
{
  g_clear_pointer (&a->seen, g_free);
}

/* Own duplicate / reorder bookkeeping over a 65536-bit window; returns the extended
 * sequence number, and sets *duplicate. */
static guint32
track_order (CsRtpAnalyser *a, guint16 seq, gboolean *duplicate)
{
  guint32 ext;

  *duplicate = FALSE;
  if (a->seen == NULL)
    a->seen = g_malloc0 (65536 / 8);
  if (!a->started)
    {
      a->max_ext_seq = a->min_ext_seq = 0x10000u + seq;
      seen_set (a->seen, seq);
      return a->max_ext_seq;
    }
  ext = cs_rtp_extend_seq (a->max_ext_seq, seq);
  if (ext > a->max_ext_seq)
    {
      guint32 advance = ext - a->max_ext_seq;

      a->lost_before = advance - 1;
      if (advance >= 65536)
        memset (a->seen, 0, 65536 / 8);
      else
        seen_clear_range (a->seen, a->max_ext_seq + 1, ext);
      a->max_ext_seq = ext;
      seen_set (a->seen, seq);
    }
  else if (seen_get (a->seen, seq))
    {
      a->flags |= CS_RTP_STEP_DUPLICATE;
      a->stats.duplicates++;
      *duplicate = TRUE;
    }
  else
    {
      a->flags |= CS_RTP_STEP_OUT_OF_ORDER;
      a->stats.out_of_order++;
      a->min_ext_seq = MIN (a->min_ext_seq, ext);
      seen_set (a->seen, seq);
    }
  return ext;
}

static void
feed_first (CsRtpAnalyser *a, const CsRtpPacket *p)
{
  CsRtpRunning *r = &a->run;

  r->first_ns = p->arrival_ns;
  a->start_seq = a->stop_seq = a->last_seq = p->seq;
  r->time_ms = 0.0;
  r->first_timestamp = p->timestamp;
  r->last_nominal = 0.0;
  a->pt = a->reg_pt = p->payload_type;
  a->reg_pt_set = TRUE;
  r->delta_ms = r->jitter_ms = r->skew_ms = 0.0;
  r->total_nr = 1;
  a->flags |= CS_RTP_STEP_FIRST;
  if (p->flags & CS_RTP_FLAG_MARKER)
    a->flags |= CS_RTP_STEP_MARKER;
  a->stats.payload_type = p->payload_type;
  a->stats.first_frame = p->frame;
  a->stats.first_ns = p->arrival_ns;
  r->peak_jitter_ms = 0.0;
  a->peak_jitter_frame = p->frame;
}

/* Notes a packet after a gap, or out of sequence, in the marks. */
static void
mark (CsRtpMarks *marks, guint32 frame, guint32 lost_before, guint flags)
{
  if (lost_before > 0)
    {
      marks->gaps++;
      if (lost_before > marks->largest_gap)
        {
          marks->largest_gap = lost_before;
          marks->largest_gap_frame = frame;
        }
      if (marks->n_gap_frames < marks->max_frames)
        marks->gap_frames[marks->n_gap_frames++] = frame;
    }
  /* a jump forward is a gap above (loss), not a packet out of sequence */
  if ((flags & (CS_RTP_STEP_DUPLICATE | CS_RTP_STEP_OUT_OF_ORDER))
      && marks->n_order_frames < marks->max_frames)
    marks->order_frames[marks->n_order_frames++] = frame;
}

/* One packet, any packet: the recurrence as Wireshark writes it. */
static void
feed_one (CsRtpAnalyser *a, const CsRtpPacket *p, const CsRtpClockMap *clocks)
{
  CsRtpRunning *r = &a->run;
  guint8 pt = p->payload_type & 0x7f;
  double now_ms;
  guint clock_rate;
  gboolean in_time_sequence, duplicate;
  guint32 step, ext;

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
  ext = track_order (a, p->seq, &duplicate);
  if (a->jb != NULL)
    cs_jitter_buffer_feed (a->jb, p, ext, duplicate);

  if (!a->started)
    {
      feed_first (a, p);
      a->started = TRUE;
      a->prev_seq = p->seq;
      a->prev_timestamp = p->timestamp;
      return;
    }

  /* timestamp steps between neighbours (packetisation) */
  step = p->timestamp - a->prev_timestamp;
  if ((guint16) (p->seq - a->prev_seq) == 1 && p->payload_type == a->pt && step > 0)
    cs_rtp_step_table_count (&a->steps, step);
  a->prev_seq = p->seq;
  a->prev_timestamp = p->timestamp;

  a->payload_bytes_after_first += p->payload_len;
  now_ms = (double) (p->arrival_ns - r->first_ns) / 1e6;

  /* "In time sequence" = at most 2^31 timestamp units after the first packet's
   * timestamp, modulo 2^32 (Wireshark 4.0); anything else is "in the past". */
  in_time_sequence = (guint32) (p->timestamp - r->first_timestamp) < 0x80000000u;
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
  if (clocks->comfort_noise_pt[a->pt & 0x7f])
    a->flags |= CS_RTP_STEP_FOLLOW_PT_CN;
  if (pt != a->pt)
    {
      a->flags |= CS_RTP_STEP_PT_CHANGE;
      a->mixed_payload_types = TRUE;
    }
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
      r->delta_ms = now_ms - r->time_ms;
      /* Wireshark divides by clock_rate/1000 in integers (44100 Hz → 44). */
      if (clock_rate / 1000 != 0)
        {
          double nominal = (double) (guint32) (p->timestamp - r->first_timestamp)
                           / (double) (clock_rate / 1000);

          a->stats.clock_rate = clock_rate;
          /* expected spacing counts from the last packet WITH a clock (not events) */
          cs_rtp_running_clock (r, a, now_ms, nominal, p->frame, TRUE);
        }
    }

  if (p->flags & CS_RTP_FLAG_MARKER)
    a->flags |= CS_RTP_STEP_MARKER;

  /* Only "regular" packets enter the delta and jitter statistics (always in time sequence:
   * a packet that is not has a wrong timestamp). */
  if (!(a->flags
        & (CS_RTP_STEP_MARKER | CS_RTP_STEP_PT_CN | CS_RTP_STEP_WRONG_TIMESTAMP
           | CS_RTP_STEP_FOLLOW_PT_CN)))
    {
      cs_rtp_running_delta (r, a, p->frame);
      if (clock_rate / 1000 != 0)
        cs_rtp_running_jitter (r);
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
    r->time_ms = now_ms;
  a->stop_seq = p->seq;
  r->total_nr++;
  if (a->flags & (CS_RTP_STEP_WRONG_SEQ | CS_RTP_STEP_WRONG_TIMESTAMP))
    a->stats.problem = TRUE;
  if (a->marks != NULL)
    mark (a->marks, p->frame, a->lost_before, a->flags);
}

/* The usual packet, fed in a loop that keeps the state in registers: the next sequence
 * number (below the top of the extended range, where extending it gives max_ext + 1), in
 * time, the same payload type as the last packet (also the registered one, neither comfort
 * noise nor an event, with a clock of at least 1000 Hz), no marker. For such a packet
 * feed_one only does what this loop does. Returns how many packets it fed (maybe 0). */
/* with_jb: also feeds a->jb (a constant: one copy of the loop each way). */
static inline __attribute__ ((always_inline)) gsize
feed_usual_with (CsRtpAnalyser *a, const CsRtpPacket *packets, gsize n, const CsRtpClockMap *clocks,
                 const gboolean with_jb)
{
  CsJitterBuffer *jb = a->jb;
  CsJitterBufferHot hot;
  gboolean judge = FALSE;
  guint8 pt = a->pt;
  guint clock_rate;
  guint32 max_ext = a->max_ext_seq;
  guint32 prev_timestamp = a->prev_timestamp;
  CsRtpRunning r;
  double clock_khz;
  guint64 payload_bytes = a->payload_bytes_after_first;
  /* the step counted last, and how many more times it was seen here */
  guint32 last_step = a->steps.value[a->steps.last], last_step_more = 0;
  gsize i;

  if (!cs_rtp_usual_run_may_start (a, clocks, pt, a->prev_seq, &n))
    return 0;
  if (with_jb)
    {
      /* the jitter buffer's usual packet: right after the highest (as here) */
      if (!cs_jitter_buffer_can_feed_next (jb))
        return 0;
      hot = jb->hot;
      judge = jb->judge_lateness && pt == jb->media_pt;
    }
  clock_rate = clocks->clock_rate_by_pt[pt];
  clock_khz = (double) (clock_rate / 1000);
  r = a->run;

  for (i = 0; i < n; i++)
    {
      const CsRtpPacket *p = &packets[i];
      guint32 step = p->timestamp - prev_timestamp;
      double now_ms;

      if (p->payload_type != pt || (p->flags & CS_RTP_FLAG_MARKER)
          || p->seq != (guint16) (max_ext + 1)
          || (guint32) (p->timestamp - r.first_timestamp) >= 0x80000000u)
        break;

      max_ext++;
      /* seq follows the last packet's: a step between neighbours when forward */
      if (step == last_step) /* 0 only while the table is empty: not counted then */
        last_step_more++;
      else if (step > 0)
        {
          if (last_step != 0)
            a->steps.count[a->steps.last] += last_step_more;
          cs_rtp_step_table_add (&a->steps, step);
          last_step = a->steps.value[a->steps.last];
          last_step_more = 0;
        }
      prev_timestamp = p->timestamp;
      payload_bytes += p->payload_len;

      now_ms = cs_rtp_running_step (&r, a, p->arrival_ns, p->timestamp, clock_khz, p->frame);
      if (with_jb)
        cs_jitter_buffer_feed_next (jb, &hot, p, max_ext, now_ms, judge);
    }
  if (last_step != 0)
    a->steps.count[a->steps.last] += last_step_more;
  if (i == 0)
    return 0;
  if (with_jb)
    {
      hot.received += (guint32) i;
      jb->hot = hot;
      jb->max_ext = max_ext;
    }
  cs_rtp_usual_run_end (a, &r, max_ext, prev_timestamp, clock_rate, packets[i - 1].frame,
                        packets[i - 1].arrival_ns);
  a->payload_bytes_after_first = payload_bytes;
  return i;
}

CS_NO_SLP_VECTORIZE static gsize
feed_usual (CsRtpAnalyser *a, const CsRtpPacket *packets, gsize n, const CsRtpClockMap *clocks)
{
  return feed_usual_with (a, packets, n, clocks, FALSE);
}

CS_NO_SLP_VECTORIZE static gsize
feed_usual_jb (CsRtpAnalyser *a, const CsRtpPacket *packets, gsize n, const CsRtpClockMap *clocks)
{
  return feed_usual_with (a, packets, n, clocks, TRUE);
}

/* Feeds packets[0..n): runs of usual packets in feed_usual's loop, the rest one by one. */
static void
feed_all (CsRtpAnalyser *a, const CsRtpPacket *packets, gsize n, const CsRtpClockMap *clocks)
{
  gsize i = 0;

  while (i < n)
    {
      i += a->jb != NULL ? feed_usual_jb (a, packets + i, n - i, clocks)
                         : feed_usual (a, packets + i, n - i, clocks);
      if (i < n)
        feed_one (a, &packets[i++], clocks);
    }
}

void
cs_rtp_analyser_feed (CsRtpAnalyser *a, const CsRtpPacket *p, const CsRtpClockMap *clocks)
{
  feed_one (a, p, clocks);
}

/* A minimum not seen yet reads 0, as in Wireshark. */
static double
seen_min (double value)
{
  return isinf (value) ? 0.0 : value;
}

static void
finish_stats (const CsRtpAnalyser *a, CsRtpStats *out)
{
  const CsRtpRunning *r = &a->run;
  double duration_ms, n;

  *out = a->stats;
  out->packets = r->total_nr;
  out->max_skew_ms = r->max_skew_ms;
  out->min_delta_ms = seen_min (r->min_delta_ms);
  out->mean_delta_ms = r->mean_delta_ms;
  out->max_delta_ms = r->max_delta_ms;
  out->max_delta_frame = a->max_delta_frame;
  out->min_jitter_ms = seen_min (r->min_jitter_ms);
  out->mean_jitter_ms = r->mean_jitter_ms;
  out->max_jitter_ms = r->max_jitter_ms;
  if (r->total_nr == 0)
    return;
  out->expected = ((guint32) a->stop_seq + a->seq_cycles * 0x10000u) - a->start_seq + 1;
  out->lost = (gint32) (out->expected - r->total_nr);
  out->last_jitter_ms = r->jitter_ms;
  out->last_skew_ms = r->skew_ms;

  /* Least-squares slope of nominal vs arrival time, as tap-rtp-common.c. */
  n = r->total_nr;
  duration_ms = r->time_ms; /* since the first packet's arrival */
  if (r->sum_t2 > 0)
    {
      double denom = n * r->sum_t2 - r->sum_t * r->sum_t;

      if (denom != 0)
        {
          double drift = (n * r->sum_tts - r->sum_t * r->sum_ts) / denom;

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
cs_rtp_stats_compute_marks (const CsRtpPacket *packets, gsize n, const CsRtpClockMap *clocks,
                            CsRtpStats *out, CsRtpMarks *marks)
{
  cs_rtp_stats_compute_with_buffer (packets, n, clocks, out, marks, NULL);
}

/* One window per thread, all zero between passes: zeroing a whole window (or allocating one)
 * costs more than a short stream. */
static _Thread_local guint8 stats_seen[65536 / 8];

void
cs_rtp_pass_begin (CsRtpAnalyser *a, CsRtpMarks *marks, CsJitterBuffer *jb)
{
  cs_rtp_analyser_init (a);
  a->seen = stats_seen;
  a->jb = jb;
  if (marks != NULL)
    {
      marks->n_gap_frames = marks->n_order_frames = 0;
      marks->gaps = marks->largest_gap = marks->largest_gap_frame = 0;
      a->marks = marks;
    }
}

void
cs_rtp_pass_end (CsRtpAnalyser *a, const CsRtpClockMap *clocks, CsRtpStats *out, CsRtpMarks *marks)
{
  if (a->started)
    seen_reset (stats_seen, a->min_ext_seq, a->max_ext_seq);
  finish_stats (a, out);
  if (a->started && !clocks->telephone_event_pt[out->payload_type]
      && clocks->clock_rate_by_pt[out->payload_type] != 0)
    out->clock_rate = clocks->clock_rate_by_pt[out->payload_type];
  if (marks != NULL)
    {
      marks->max_jitter_frame = a->peak_jitter_frame;
      marks->mixed_payload_types = a->mixed_payload_types;
      if (marks->steps != NULL)
        *marks->steps = a->steps;
    }
}

void
cs_rtp_stats_compute_with_buffer (const CsRtpPacket *packets, gsize n, const CsRtpClockMap *clocks,
                                  CsRtpStats *out, CsRtpMarks *marks, CsJitterBuffer *jb)
{
  CsRtpAnalyser a;

  cs_rtp_pass_begin (&a, marks, jb);
  feed_all (&a, packets, n, clocks);
  cs_rtp_pass_end (&a, clocks, out, marks);
}

void
cs_rtp_stats_compute (const CsRtpPacket *packets, gsize n, const CsRtpClockMap *clocks,
                      CsRtpStats *out)
{
  cs_rtp_stats_compute_marks (packets, n, clocks, out, NULL);
}
