/* cs-rtp-stats-packed.c — the stats pass (and the jitter buffer it feeds) read straight from a
 * stream's packed records: no array of the stream, and a run of records packed as "as
 * predicted" (next sequence number, same timestamp step, length, type and flags) needs none of
 * the per-packet tests of those fields. */
#include "cs-rtp-metrics-private.h"

#include "rtp/cs-rtp-pack.h"

#include <string.h>

/* The usual packet (as feed_usual in cs-rtp-metrics.c: the same step) from records packed as
 * predicted after the last packet fed, which is state->last. Feeds at most n records; returns how
 * many (maybe 0): the next record, if any, is for the caller to decode and feed. */
static inline __attribute__ ((always_inline)) gsize
feed_predicted_with (CsRtpAnalyser *a, const guint8 **in_p, CsRtpPackState *state, gsize n,
                     const CsRtpClockMap *clocks, const gboolean with_jb)
{
  CsJitterBuffer *jb = a->jb;
  CsJitterBufferHot hot;
  gboolean run_open = FALSE; /* the buffer's played run ends at the last packet fed */
  gboolean judge = FALSE;
  const guint8 *in = *in_p;
  CsRtpPacket cur = state->last; /* a local: its fields stay in registers */
  guint32 frame_step = state->frame_step, timestamp_step = state->timestamp_step;
  guint64 arrival_step = state->arrival_step;
  guint8 pt = a->pt;
  guint32 max_ext = a->max_ext_seq;
  CsRtpRunning r;
  double clock_khz;
  gsize i;

  /* feed_usual's conditions, and those on the packet's own fields read from the last
   * packet's (records packed as predicted repeat them) */
  if (pt != cur.payload_type || (cur.flags & CS_RTP_FLAG_MARKER)
      || !cs_rtp_usual_run_may_start (a, clocks, pt, cur.seq, &n))
    return 0;
  if (with_jb)
    {
      if (!cs_jitter_buffer_can_feed_next (jb))
        return 0;
      hot = jb->hot;
      run_open = hot.run_hi == max_ext;
      judge = jb->judge_lateness && pt == jb->media_pt;
    }
  clock_khz = (double) (clocks->clock_rate_by_pt[pt] / 1000);
  r = a->run;

  for (i = 0; i < n; i++)
    {
      double now_ms;

      /* not as predicted, or out of time sequence: left for the caller */
      if (in[0] < 0xf0u
          || (guint32) (cur.timestamp + timestamp_step - r.first_timestamp) >= 0x80000000u)
        break;
      in = cs_rtp_pack_read_steps (in, &frame_step, &arrival_step);
      cur.frame += frame_step;
      cur.arrival_ns = (gint64) ((guint64) cur.arrival_ns + arrival_step);
      cur.seq++;
      cur.timestamp += timestamp_step;

      max_ext++;
      now_ms = cs_rtp_running_step (&r, a, cur.arrival_ns, cur.timestamp, clock_khz, cur.frame);
      /* cs_jitter_buffer_feed_next, the open run's end written only when it closes */
      if (with_jb)
        {
          if (judge && cs_jitter_buffer_judge (jb, &hot, &cur, now_ms, FALSE))
            {
              hot.discarded_late++;
              if (run_open)
                hot.run_hi = max_ext - 1;
              run_open = FALSE;
            }
          else if (!run_open)
            {
              cs_jitter_buffer_new_run (jb, &hot, max_ext);
              run_open = TRUE;
            }
        }
    }
  *in_p = in;
  state->last = cur;
  state->frame_step = frame_step;
  state->arrival_step = arrival_step;
  if (i == 0)
    return 0;

  /* every step between these neighbours was timestamp_step: counted as one by one */
  if (timestamp_step > 0)
    {
      cs_rtp_step_table_count (&a->steps, timestamp_step);
      if (a->steps.value[a->steps.last] == timestamp_step)
        a->steps.count[a->steps.last] += (guint32) i - 1;
    }
  if (with_jb)
    {
      hot.received += (guint32) i;
      if (run_open)
        hot.run_hi = max_ext;
      jb->hot = hot;
      jb->max_ext = max_ext;
    }
  cs_rtp_usual_run_end (a, &r, max_ext, cur.timestamp, clocks->clock_rate_by_pt[pt], cur.frame,
                        cur.arrival_ns);
  a->payload_bytes_after_first += (guint64) cur.payload_len * i;
  return i;
}

CS_NO_SLP_VECTORIZE static gsize
feed_predicted (CsRtpAnalyser *a, const guint8 **in, CsRtpPackState *state, gsize n,
                const CsRtpClockMap *clocks)
{
  return feed_predicted_with (a, in, state, n, clocks, FALSE);
}

CS_NO_SLP_VECTORIZE static gsize
feed_predicted_jb (CsRtpAnalyser *a, const guint8 **in, CsRtpPackState *state, gsize n,
                   const CsRtpClockMap *clocks)
{
  return feed_predicted_with (a, in, state, n, clocks, TRUE);
}

void
cs_rtp_stats_compute_packed (const guint8 *packed, guint32 n, const CsRtpClockMap *clocks,
                             CsRtpStats *out, CsRtpMarks *marks, CsJitterBuffer *jb)
{
  CsRtpPackState state;
  const guint8 *in = packed;
  gsize left = n;
  CsRtpAnalyser a;

  memset (&state, 0, sizeof state);
  cs_rtp_pass_begin (&a, marks, jb);
  while (left > 0)
    {
      left -= jb != NULL ? feed_predicted_jb (&a, &in, &state, left, clocks)
                         : feed_predicted (&a, &in, &state, left, clocks);
      if (left > 0)
        {
          in = cs_rtp_pack_decode_one (in, &state);
          cs_rtp_analyser_feed (&a, &state.last, clocks);
          left--;
        }
    }
  cs_rtp_pass_end (&a, clocks, out, marks);
}
