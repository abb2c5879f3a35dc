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

/* The running sums of the usual-packet loops (array and packed drivers), held in a local so
 * that, with the step inlined, they stay in registers. A minimum not seen yet is +∞: every
 * delta and jitter is finite, so it gives what the have_min_* flags of feed_one give. */
typedef struct
{
  gint64 first_ns;
  guint32 first_timestamp, total_nr;
  double clock_khz;
  double time_ms, jitter_ms, last_nominal, delta_ms, peak_jitter_ms;
  double sum_t, sum_ts, sum_t2, sum_tts;
  double max_skew_ms, max_delta_ms, min_delta_ms, mean_delta_ms;
  double max_jitter_ms, min_jitter_ms, mean_jitter_ms;
} CsRtpRunSums;

static inline __attribute__ ((always_inline)) void
cs_rtp_run_sums_load (CsRtpRunSums *r, const CsRtpAnalyser *a, double clock_khz)
{
  const CsRtpStats *s = &a->stats;

  r->first_ns = a->first_ns;
  r->first_timestamp = a->first_timestamp;
  r->total_nr = a->total_nr;
  r->clock_khz = clock_khz;
  r->time_ms = a->time_ms;
  r->jitter_ms = a->jitter_ms;
  r->last_nominal = a->last_nominal;
  r->delta_ms = a->delta_ms;
  r->peak_jitter_ms = a->peak_jitter_ms;
  r->sum_t = a->sum_t;
  r->sum_ts = a->sum_ts;
  r->sum_t2 = a->sum_t2;
  r->sum_tts = a->sum_tts;
  r->max_skew_ms = s->max_skew_ms;
  r->max_delta_ms = s->max_delta_ms;
  r->min_delta_ms = a->have_min_delta ? s->min_delta_ms : INFINITY;
  r->mean_delta_ms = s->mean_delta_ms;
  r->max_jitter_ms = s->max_jitter_ms;
  r->min_jitter_ms = a->have_min_jitter ? s->min_jitter_ms : INFINITY;
  r->mean_jitter_ms = s->mean_jitter_ms;
}

/* The usual packet's statistics step (feed_one's arithmetic, operation for operation: reports
 * are compared byte for byte). Returns the packet's arrival in ms since the first. */
static inline __attribute__ ((always_inline)) double
cs_rtp_run_sums_step (CsRtpRunSums *r, CsRtpAnalyser *a, gint64 arrival_ns, guint32 timestamp,
                      guint32 frame)
{
  double now_ms = (double) (arrival_ns - r->first_ns) / 1e6;
  double delta_ms = now_ms - r->time_ms;
  double nominal = (double) (guint32) (timestamp - r->first_timestamp) / r->clock_khz;
  double skew_ms;
  guint32 total_nr = r->total_nr;

  r->jitter_ms
      = (15.0 * r->jitter_ms + fabs (now_ms - (r->time_ms + (nominal - r->last_nominal)))) / 16.0;
  r->last_nominal = nominal;
  if (r->jitter_ms > r->peak_jitter_ms)
    {
      r->peak_jitter_ms = r->jitter_ms;
      a->peak_jitter_frame = frame;
    }
  skew_ms = nominal - now_ms; /* arrival = now_ms − start_time_ms, which is always 0 */
  if (fabs (skew_ms) > fabs (r->max_skew_ms))
    r->max_skew_ms = skew_ms;
  r->sum_t += now_ms;
  r->sum_ts += nominal;
  r->sum_t2 += now_ms * now_ms;
  r->sum_tts += now_ms * nominal;

  if (delta_ms > r->max_delta_ms)
    {
      r->max_delta_ms = delta_ms;
      a->stats.max_delta_frame = frame;
    }
  if (delta_ms < r->min_delta_ms)
    r->min_delta_ms = delta_ms;
  r->mean_delta_ms = (r->mean_delta_ms * (total_nr - 1) + delta_ms) / total_nr;
  if (r->jitter_ms > r->max_jitter_ms)
    r->max_jitter_ms = r->jitter_ms;
  r->mean_jitter_ms = (r->mean_jitter_ms * (total_nr - 1) + r->jitter_ms) / total_nr;
  if (r->jitter_ms < r->min_jitter_ms)
    r->min_jitter_ms = r->jitter_ms;

  r->delta_ms = delta_ms;
  r->time_ms = now_ms;
  r->total_nr = total_nr + 1;
  return now_ms;
}

/* Writes the sums back after at least one step. */
static inline __attribute__ ((always_inline)) void
cs_rtp_run_sums_store (const CsRtpRunSums *r, CsRtpAnalyser *a)
{
  CsRtpStats *s = &a->stats;

  a->total_nr = r->total_nr;
  a->time_ms = r->time_ms;
  a->jitter_ms = r->jitter_ms;
  a->last_nominal = r->last_nominal;
  a->delta_ms = r->delta_ms;
  a->skew_ms = r->last_nominal - r->time_ms; /* the last packet's, as the step computed it */
  a->peak_jitter_ms = r->peak_jitter_ms;
  a->sum_t = r->sum_t;
  a->sum_ts = r->sum_ts;
  a->sum_t2 = r->sum_t2;
  a->sum_tts = r->sum_tts;
  s->max_skew_ms = r->max_skew_ms;
  s->max_delta_ms = r->max_delta_ms;
  s->min_delta_ms = r->min_delta_ms;
  s->mean_delta_ms = r->mean_delta_ms;
  s->max_jitter_ms = r->max_jitter_ms;
  s->min_jitter_ms = r->min_jitter_ms;
  s->mean_jitter_ms = r->mean_jitter_ms;
  a->have_min_delta = a->have_min_jitter = TRUE;
}

G_END_DECLS
