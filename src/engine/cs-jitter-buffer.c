/* cs-jitter-buffer.c — see docs/metrics.md "Jitter buffer emulation" for the model */
#include "cs-jitter-buffer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A buffer that ran dry for this many packets in a row restarts playout. */
#define UNDERRUN_RESYNC_PACKETS 5
/* A packet due this much later than (arrival + delay) is a timestamp jump. */
#define TIMESTAMP_JUMP_MS 1000.0
#define ADAPTIVE_MIN_DELAY_MS 20.0

void
cs_jitter_buffer_config_init_default (CsJitterBufferConfig *cfg)
{
  cfg->kind = CS_JITTER_BUFFER_FIXED;
  cfg->delay_ms = CS_JITTER_BUFFER_DEFAULT_DELAY_MS;
  cfg->max_delay_ms = CS_JITTER_BUFFER_DEFAULT_MAX_DELAY_MS;
}

guint8
cs_jitter_buffer_media_payload_type (const CsRtpPacket *packets, gsize n)
{
  gsize counts[128] = { 0 };
  guint8 best = n > 0 ? packets[0].payload_type & 0x7f : 0;

  for (gsize i = 0; i < n; i++)
    counts[packets[i].payload_type & 0x7f]++;
  for (guint pt = 0; pt < 128; pt++)
    if (counts[pt] > counts[best])
      best = (guint8) pt;
  return best;
}

/* The played extended sequence numbers as runs of consecutive numbers, in arrival order:
 * a clean stream is one run, so nothing is stored per packet. */
typedef struct
{
  guint32 lo, hi;
} CsSeqRun;

typedef struct
{
  CsSeqRun *runs; /* local, or a heap copy once local is full */
  guint len, cap;
  gboolean sorted; /* every run starts after the previous one ended */
  CsSeqRun local[32];
} CsPlayedRuns;

static void
played_runs_init (CsPlayedRuns *r)
{
  r->runs = r->local;
  r->len = 0;
  r->cap = G_N_ELEMENTS (r->local);
  r->sorted = TRUE;
}

static void
played_runs_clear (CsPlayedRuns *r)
{
  if (r->runs != r->local)
    g_free (r->runs);
}

static void
played_runs_append (CsPlayedRuns *r, guint32 lo, guint32 hi)
{
  if (r->len > 0 && lo <= r->runs[r->len - 1].hi)
    r->sorted = FALSE;
  if (r->len == r->cap)
    {
      r->cap *= 2;
      if (r->runs == r->local)
        r->runs = g_memdup2 (r->local, sizeof r->local[0] * r->len);
      r->runs = g_renew (CsSeqRun, r->runs, r->cap);
    }
  r->runs[r->len].lo = lo;
  r->runs[r->len].hi = hi;
  r->len++;
}

static int
compare_run_lo (gconstpointer a, gconstpointer b)
{
  guint32 x = ((const CsSeqRun *) a)->lo, y = ((const CsSeqRun *) b)->lo;

  return x < y ? -1 : x > y;
}

/* Runs of unplayed sequence numbers between min and max (inclusive): the gaps between the
 * played numbers in ascending order, walked run by run (a run's numbers at or below the
 * highest seen so far add nothing). */
static void
compute_bursts (CsPlayedRuns *played, guint32 min_ext, guint32 max_ext, CsJitterBufferResult *out)
{
  guint32 prev = min_ext - 1, unplayed = 0, bursts = 0;

  if (!played->sorted)
    qsort (played->runs, played->len, sizeof (CsSeqRun), compare_run_lo);
  for (guint i = 0; i <= played->len; i++)
    {
      guint32 lo = i < played->len ? played->runs[i].lo : max_ext + 1;
      guint32 hi = i < played->len ? played->runs[i].hi : max_ext + 1;

      if (hi <= prev)
        continue;
      if (lo > prev)
        {
          guint32 gap = lo - prev - 1;

          if (gap > 0)
            {
              bursts++;
              unplayed += gap;
              out->max_burst = MAX (out->max_burst, gap);
            }
        }
      prev = hi;
    }
  out->burst_ratio = 1.0;
  if (bursts > 0 && unplayed < out->expected)
    {
      double p = (double) unplayed / out->expected;

      /* Under random loss bursts average 1/(1−p) packets. */
      out->burst_ratio = ((double) unplayed / bursts) * (1.0 - p);
    }
}

void
cs_jitter_buffer_emulate_media (const CsRtpPacket *packets, gsize n, guint8 media_pt,
                                guint clock_rate, const CsJitterBufferConfig *cfg, guint8 *verdicts,
                                CsJitterBufferResult *out)
{
  guint8 seen[65536 / 8]; /* on the stack: a heap window costs more than a short stream */
  CsPlayedRuns played;
  guint32 max_ext, min_ext, run_lo = 0, run_hi = 0;
  gboolean have_run = FALSE;
  gint64 ts_ref, anchor_ts = 0;
  double anchor_ms = 0.0, clock_hz = clock_rate;
  gboolean anchored = FALSE;
  double delay_ms, max_delay_ms, pending_delay_ms, jitter_ms = 0.0, prev_transit_ms = 0.0;
  gboolean have_transit = FALSE;
  guint late_run = 0;
  CsJitterBufferKind kind = cfg != NULL ? cfg->kind : CS_JITTER_BUFFER_FIXED;
  gboolean judge_lateness = kind != CS_JITTER_BUFFER_OFF && clock_rate != 0;
  gint64 first_arrival_ns;

  memset (out, 0, sizeof *out);
  out->burst_ratio = 1.0;
  if (n == 0)
    return;
  delay_ms = cfg != NULL ? cfg->delay_ms : CS_JITTER_BUFFER_DEFAULT_DELAY_MS;
  max_delay_ms = cfg != NULL && cfg->max_delay_ms != 0 ? cfg->max_delay_ms
                                                       : CS_JITTER_BUFFER_DEFAULT_MAX_DELAY_MS;
  max_delay_ms = MAX (max_delay_ms, delay_ms);
  pending_delay_ms = delay_ms;
  out->media_payload_type = media_pt;

  memset (seen, 0, sizeof seen);
  played_runs_init (&played);
  max_ext = min_ext = 0x10000u + packets[0].seq;
  ts_ref = (gint64) 1 << 32 | packets[0].timestamp;
  first_arrival_ns = packets[0].arrival_ns;
  for (gsize i = 0; i < n; i++)
    {
      const CsRtpPacket *p = &packets[i];
      guint8 verdict = CS_JITTER_BUFFER_PLAYED;
      guint32 ext;

      /* The next sequence number (below the top of the extended range, where extending it
       * gives max_ext + 1): nothing to clear, never a duplicate. */
      if (p->seq == (guint16) (max_ext + 1) && max_ext < 0xffff0000u)
        ext = ++max_ext;
      else if ((ext = cs_rtp_extend_seq (max_ext, p->seq)) > max_ext)
        {
          guint32 advance = ext - max_ext;

          if (advance >= 65536)
            memset (seen, 0, sizeof seen);
          else
            for (guint32 s = max_ext + 1; s < ext; s++)
              seen[(s & 0xffff) >> 3] &= (guint8) ~(1u << (s & 7));
          max_ext = ext;
        }
      else if (i > 0 && (seen[p->seq >> 3] >> (p->seq & 7)) & 1)
        {
          out->duplicates++;
          if (verdicts != NULL)
            verdicts[i] = CS_JITTER_BUFFER_DUPLICATE;
          continue;
        }
      seen[p->seq >> 3] |= (guint8) (1u << (p->seq & 7));
      min_ext = MIN (min_ext, ext);
      out->received++;

      if ((p->payload_type & 0x7f) != media_pt)
        verdict = CS_JITTER_BUFFER_AUX;
      else if (judge_lateness)
        {
          gint64 ts = ts_ref + (gint32) (p->timestamp - (guint32) ts_ref);
          double arrival_ms = (double) (p->arrival_ns - first_arrival_ns) / 1e6;
          double due_ms = 0.0;

          ts_ref = ts;
          /* Only the adaptive buffer reads the jitter estimate. */
          if (kind == CS_JITTER_BUFFER_ADAPTIVE)
            {
              double transit_ms = arrival_ms - (double) ts * 1000.0 / clock_hz;

              if (have_transit)
                jitter_ms += (fabs (transit_ms - prev_transit_ms) - jitter_ms) / 16.0;
              prev_transit_ms = transit_ms;
              have_transit = TRUE;
            }

          /* ms of media since the anchor; the jump test negates it (exactly) for the ms
           * the timestamp went back */
          double since_anchor_ms = (double) (ts - anchor_ts) * 1000.0 / clock_hz;

          if (anchored)
            due_ms = anchor_ms + since_anchor_ms + delay_ms;
          /* Talkspurt starts, underruns and timestamp jumps re-anchor playout, as receivers do. */
          if (!anchored || (p->flags & CS_RTP_FLAG_MARKER) || late_run >= UNDERRUN_RESYNC_PACKETS
              || -since_anchor_ms > TIMESTAMP_JUMP_MS
              || due_ms - arrival_ms > delay_ms + TIMESTAMP_JUMP_MS)
            {
              if (kind == CS_JITTER_BUFFER_ADAPTIVE)
                delay_ms = CLAMP (MAX (pending_delay_ms, 4.0 * jitter_ms), ADAPTIVE_MIN_DELAY_MS,
                                  max_delay_ms);
              anchor_ms = arrival_ms;
              anchor_ts = ts;
              anchored = TRUE;
              late_run = 0;
            }
          else if (arrival_ms > due_ms + 1e-9)
            {
              verdict = CS_JITTER_BUFFER_LATE;
              late_run++;
              /* The adaptive buffer grows by what it missed, from the next talkspurt. */
              pending_delay_ms = MAX (pending_delay_ms, delay_ms + (arrival_ms - due_ms));
            }
          else
            late_run = 0;
        }

      if (verdict == CS_JITTER_BUFFER_LATE)
        out->discarded_late++;
      else if (have_run && ext == run_hi + 1 && ext > run_hi)
        run_hi = ext;
      else
        {
          if (have_run)
            played_runs_append (&played, run_lo, run_hi);
          run_lo = run_hi = ext;
          have_run = TRUE;
        }
      if (verdicts != NULL)
        verdicts[i] = verdict;
    }
  if (have_run)
    played_runs_append (&played, run_lo, run_hi);

  out->expected = max_ext - min_ext + 1;
  out->lost_network = out->expected > out->received ? out->expected - out->received : 0;
  out->played = out->received - out->discarded_late;
  if (out->expected > 0)
    out->effective_loss_pct
        = 100.0 * (double) (out->expected - MIN (out->played, out->expected)) / out->expected;
  compute_bursts (&played, min_ext, max_ext, out);
  played_runs_clear (&played);
}

void
cs_jitter_buffer_emulate_verdicts (const CsRtpPacket *packets, gsize n, guint clock_rate,
                                   const CsJitterBufferConfig *cfg, guint8 *verdicts,
                                   CsJitterBufferResult *out)
{
  cs_jitter_buffer_emulate_media (packets, n, cs_jitter_buffer_media_payload_type (packets, n),
                                  clock_rate, cfg, verdicts, out);
}

void
cs_jitter_buffer_emulate (const CsRtpPacket *packets, gsize n, guint clock_rate,
                          const CsJitterBufferConfig *cfg, CsJitterBufferResult *out)
{
  cs_jitter_buffer_emulate_verdicts (packets, n, clock_rate, cfg, NULL, out);
}
