/* cs-rtp-metrics-private.h — the stats pass's pieces shared by its array and packed drivers */
#pragma once

#include "cs-rtp-metrics.h"

#include <math.h>

G_BEGIN_DECLS

/* GCC's SLP vectoriser pairs the usual-packet loops' doubles into vectors and spends more
 * shuffling them than it saves (−15 % instructions without it). */
#if defined(__GNUC__) && !defined(__clang__)
#define CS_NO_SLP_VECTORIZE __attribute__ ((optimize ("no-tree-slp-vectorize")))
#else
#define CS_NO_SLP_VECTORIZE
#endif

/* A whole-stream pass: the analyser on the thread's window of seen sequence numbers,
 * feeding jb (may be NULL) and filling marks (may be NULL) ... */
void cs_rtp_pass_begin (CsRtpAnalyser *a, CsRtpMarks *marks, CsJitterBuffer *jb);
/* ... and its results, the window zeroed again. */
void cs_rtp_pass_end (CsRtpAnalyser *a, const CsRtpClockMap *clocks, CsRtpStats *out,
                      CsRtpMarks *marks);
/* Marks the extended sequence numbers [from, to) seen (to − from < 65536). */
void cs_rtp_seen_set_range (guint8 *seen, guint32 from, guint32 to);

/* The statistics step, in parts (feed_one in cs-rtp-metrics.c takes them as a packet
 * qualifies for each; the usual-packet loops take them all, on a local copy of the running
 * figures that stays in registers). The arithmetic is Wireshark's, operation for operation:
 * reports are compared byte for byte. */

/* A packet in time sequence with a clock of at least 1000 Hz, now_ms after the first and
 * nominal (its timestamp in ms from the first's): jitter, skew and the drift sums. The frames
 * of the peaks go to a. keep_skew (a constant): the packet's skew is kept in r->skew_ms; a
 * loop over usual packets leaves it out and sets it once at the end, when it is the last
 * packet's last_nominal − time_ms. */
static inline __attribute__ ((always_inline)) void
cs_rtp_running_clock (CsRtpRunning *r, CsRtpAnalyser *a, double now_ms, double nominal,
                      guint32 frame, const gboolean keep_skew)
{
  double skew_ms;

  r->jitter_ms
      = (15.0 * r->jitter_ms + fabs (now_ms - (r->time_ms + (nominal - r->last_nominal)))) / 16.0;
  r->last_nominal = nominal;
  if (r->jitter_ms > r->peak_jitter_ms)
    {
      r->peak_jitter_ms = r->jitter_ms;
      a->peak_jitter_frame = frame;
    }
  skew_ms = nominal - now_ms; /* arrival = now_ms − start time, which is always 0 */
  if (keep_skew)
    r->skew_ms = skew_ms;
  if (fabs (skew_ms) > fabs (r->max_skew_ms))
    r->max_skew_ms = skew_ms;
  r->sum_t += now_ms;
  r->sum_ts += nominal;
  r->sum_t2 += now_ms * now_ms;
  r->sum_tts += now_ms * nominal;
}

/* A regular packet (no marker, comfort noise or wrong timestamp): its delta (r->delta_ms)
 * in the delta statistics; Wireshark's running mean divides by all packets so far. */
static inline __attribute__ ((always_inline)) void
cs_rtp_running_delta (CsRtpRunning *r, CsRtpAnalyser *a, guint32 frame)
{
  if (r->delta_ms > r->max_delta_ms)
    {
      r->max_delta_ms = r->delta_ms;
      a->max_delta_frame = frame;
    }
  if (r->delta_ms < r->min_delta_ms)
    r->min_delta_ms = r->delta_ms;
  r->mean_delta_ms = (r->mean_delta_ms * (r->total_nr - 1) + r->delta_ms) / r->total_nr;
}

/* A regular packet with a clock: the running jitter in the jitter statistics. */
static inline __attribute__ ((always_inline)) void
cs_rtp_running_jitter (CsRtpRunning *r)
{
  if (r->jitter_ms > r->max_jitter_ms)
    r->max_jitter_ms = r->jitter_ms;
  r->mean_jitter_ms = (r->mean_jitter_ms * (r->total_nr - 1) + r->jitter_ms) / r->total_nr;
  if (r->jitter_ms < r->min_jitter_ms)
    r->min_jitter_ms = r->jitter_ms;
}

/* The whole step for the usual packet (in time sequence, regular, a clock of clock_khz):
 * every part, then the packet is the last in time sequence (its skew is left for
 * cs_rtp_usual_run_end). Returns its arrival in ms since the first. */
static inline __attribute__ ((always_inline)) double
cs_rtp_running_step (CsRtpRunning *r, CsRtpAnalyser *a, gint64 arrival_ns, guint32 timestamp,
                     double clock_khz, guint32 frame)
{
  double now_ms = (double) (arrival_ns - r->first_ns) / 1e6;
  double nominal = (double) (guint32) (timestamp - r->first_timestamp) / clock_khz;

  r->delta_ms = now_ms - r->time_ms;
  cs_rtp_running_clock (r, a, now_ms, nominal, frame, FALSE);
  cs_rtp_running_delta (r, a, frame);
  cs_rtp_running_jitter (r);
  r->time_ms = now_ms;
  r->total_nr++;
  return now_ms;
}

/* What the usual-packet loops of both drivers (packets in an array, packed records) need of
 * the analyser and the clocks before a run of usual packets after the last packet fed (of
 * payload type pt, sequence number last_seq): FALSE when the next packet cannot be a usual
 * one; else TRUE and *n bounded by the sequence numbers such a run may take (the next
 * sequence number each, staying above 0 and on the same side of the first packet's). */
static inline __attribute__ ((always_inline)) gboolean
cs_rtp_usual_run_may_start (const CsRtpAnalyser *a, const CsRtpClockMap *clocks, guint8 pt,
                            guint16 last_seq, gsize *n)
{
  guint32 max_ext = a->max_ext_seq;
  guint16 next_seq = (guint16) (max_ext + 1);

  if (!a->started || pt > 127 || pt != a->reg_pt || clocks->comfort_noise_pt[pt]
      || clocks->telephone_event_pt[pt] || clocks->clock_rate_by_pt[pt] / 1000 == 0
      || a->last_seq != (guint16) max_ext || last_seq != (guint16) max_ext || next_seq == 0
      || max_ext >= 0xffff0000u || (!a->under && next_seq < a->start_seq)
      || (a->under && next_seq >= a->start_seq))
    return FALSE;
  *n = MIN (*n, (gsize) (a->under ? (guint) a->start_seq - next_seq : 0x10000u - next_seq));
  return TRUE;
}

/* After i > 0 usual packets up to extended sequence number max_ext, the last one seq
 * (guint16) max_ext with timestamp last_timestamp, at last_frame and last_ns: the analyser's
 * state as feed_one would have left it (r: the running figures the loop updated). */
static inline __attribute__ ((always_inline)) void
cs_rtp_usual_run_end (CsRtpAnalyser *a, const CsRtpRunning *r, guint32 max_ext,
                      guint32 last_timestamp, guint clock_rate, guint32 last_frame, gint64 last_ns)
{
  /* the numbers the packets took, marked seen at once */
  cs_rtp_seen_set_range (a->seen, a->max_ext_seq + 1, max_ext + 1);
  a->flags = 0;
  a->lost_before = 0;
  a->max_ext_seq = max_ext;
  a->last_seq = a->stop_seq = a->prev_seq = (guint16) max_ext;
  a->prev_timestamp = last_timestamp;
  a->run = *r;
  a->run.skew_ms = r->last_nominal - r->time_ms; /* the last packet's, as the step had it */
  a->stats.clock_rate = clock_rate;
  a->stats.last_frame = last_frame;
  a->stats.last_ns = last_ns;
}

G_END_DECLS
