/* cs-jitter-buffer.c — see docs/metrics.md "Jitter buffer emulation" for the model */
#include "cs-jitter-buffer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

static void
runs_append (CsJitterBuffer *jb, guint32 lo, guint32 hi)
{
  if (jb->n_runs > 0 && lo <= jb->runs[jb->n_runs - 1].hi)
    jb->runs_sorted = FALSE;
  if (jb->n_runs == jb->runs_cap)
    {
      jb->runs_cap *= 2;
      if (jb->runs == jb->local_runs)
        jb->runs = g_memdup2 (jb->local_runs, sizeof jb->local_runs[0] * jb->n_runs);
      jb->runs = g_renew (CsJitterBufferRun, jb->runs, jb->runs_cap);
    }
  jb->runs[jb->n_runs].lo = lo;
  jb->runs[jb->n_runs].hi = hi;
  jb->n_runs++;
}

void
cs_jitter_buffer_new_run (CsJitterBuffer *jb, CsJitterBufferHot *hot, guint32 ext)
{
  if (jb->have_run)
    runs_append (jb, hot->run_lo, hot->run_hi);
  hot->run_lo = hot->run_hi = ext;
  jb->have_run = TRUE;
}

static int
compare_run_lo (gconstpointer a, gconstpointer b)
{
  guint32 x = ((const CsJitterBufferRun *) a)->lo, y = ((const CsJitterBufferRun *) b)->lo;

  return x < y ? -1 : x > y;
}

/* Runs of unplayed sequence numbers between min and max (inclusive): the gaps between the
 * played numbers in ascending order, walked run by run (a run's numbers at or below the
 * highest seen so far add nothing). */
static void
compute_bursts (CsJitterBuffer *jb, guint32 min_ext, guint32 max_ext, CsJitterBufferResult *out)
{
  guint32 prev = min_ext - 1, unplayed = 0, bursts = 0;

  if (!jb->runs_sorted)
    qsort (jb->runs, jb->n_runs, sizeof (CsJitterBufferRun), compare_run_lo);
  for (guint i = 0; i <= jb->n_runs; i++)
    {
      guint32 lo = i < jb->n_runs ? jb->runs[i].lo : max_ext + 1;
      guint32 hi = i < jb->n_runs ? jb->runs[i].hi : max_ext + 1;

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
cs_jitter_buffer_init (CsJitterBuffer *jb, guint8 media_pt, guint clock_rate,
                       const CsJitterBufferConfig *cfg)
{
  double delay_ms = cfg != NULL ? cfg->delay_ms : CS_JITTER_BUFFER_DEFAULT_DELAY_MS;
  double max_delay_ms = cfg != NULL && cfg->max_delay_ms != 0
                            ? cfg->max_delay_ms
                            : CS_JITTER_BUFFER_DEFAULT_MAX_DELAY_MS;

  memset (jb, 0, G_STRUCT_OFFSET (CsJitterBuffer, local_runs));
  jb->kind = cfg != NULL ? cfg->kind : CS_JITTER_BUFFER_FIXED;
  jb->judge_lateness = jb->kind != CS_JITTER_BUFFER_OFF && clock_rate != 0;
  jb->media_pt = media_pt;
  jb->max_delay_ms = MAX (max_delay_ms, delay_ms);
  jb->hot.clock_hz = clock_rate;
  jb->hot.delay_ms = jb->hot.pending_delay_ms = delay_ms;
  jb->hot.run_hi = G_MAXUINT32; /* ext (at least 0x8000) never follows it */
  jb->runs = jb->local_runs;
  jb->runs_cap = G_N_ELEMENTS (jb->local_runs);
  jb->runs_sorted = TRUE;
}

CsJitterBufferVerdict
cs_jitter_buffer_feed (CsJitterBuffer *jb, const CsRtpPacket *p, guint32 ext, gboolean duplicate)
{
  CsJitterBufferHot *h = &jb->hot;
  gboolean late = FALSE;

  if (!jb->started)
    {
      jb->started = TRUE;
      jb->min_ext = jb->max_ext = ext;
      h->ts_ref = (gint64) 1 << 32 | p->timestamp;
      jb->first_arrival_ns = p->arrival_ns;
    }
  else if (duplicate)
    {
      jb->duplicates++;
      return CS_JITTER_BUFFER_DUPLICATE;
    }
  jb->max_ext = MAX (jb->max_ext, ext);
  jb->min_ext = MIN (jb->min_ext, ext);
  h->received++;
  if ((p->payload_type & 0x7f) != jb->media_pt)
    {
      cs_jitter_buffer_play (jb, h, ext, FALSE);
      return CS_JITTER_BUFFER_AUX;
    }
  if (jb->judge_lateness)
    {
      double arrival_ms = (double) (p->arrival_ns - jb->first_arrival_ns) / 1e6;

      if (jb->kind == CS_JITTER_BUFFER_ADAPTIVE)
        late = cs_jitter_buffer_judge (jb, h, p, arrival_ms, TRUE);
      else
        late = cs_jitter_buffer_judge (jb, h, p, arrival_ms, FALSE);
    }
  cs_jitter_buffer_play (jb, h, ext, late);
  return late ? CS_JITTER_BUFFER_LATE : CS_JITTER_BUFFER_PLAYED;
}

void
cs_jitter_buffer_finish (CsJitterBuffer *jb, CsJitterBufferResult *out)
{
  memset (out, 0, sizeof *out);
  out->burst_ratio = 1.0;
  if (!jb->started)
    return;
  out->media_payload_type = jb->media_pt;
  out->received = jb->hot.received;
  out->duplicates = jb->duplicates;
  out->discarded_late = jb->hot.discarded_late;
  if (jb->have_run)
    {
      runs_append (jb, jb->hot.run_lo, jb->hot.run_hi);
      jb->have_run = FALSE; /* appended once, whatever follows */
    }
  out->expected = jb->max_ext - jb->min_ext + 1;
  out->lost_network = out->expected > out->received ? out->expected - out->received : 0;
  out->played = out->received - out->discarded_late;
  if (out->expected > 0)
    out->effective_loss_pct
        = 100.0 * (double) (out->expected - MIN (out->played, out->expected)) / out->expected;
  compute_bursts (jb, jb->min_ext, jb->max_ext, out);
}

void
cs_jitter_buffer_clear (CsJitterBuffer *jb)
{
  if (jb->runs != jb->local_runs)
    g_free (jb->runs);
  jb->runs = jb->local_runs;
  jb->n_runs = 0;
}

void
cs_jitter_buffer_emulate_media (const CsRtpPacket *packets, gsize n, guint8 media_pt,
                                guint clock_rate, const CsJitterBufferConfig *cfg, guint8 *verdicts,
                                CsJitterBufferResult *out)
{
  guint8 seen[65536 / 8]; /* on the stack: a heap window costs more than a short stream */
  CsJitterBuffer jb;
  guint32 max_ext;

  if (n == 0)
    {
      memset (out, 0, sizeof *out);
      out->burst_ratio = 1.0;
      return;
    }
  cs_jitter_buffer_init (&jb, media_pt, clock_rate, cfg);
  memset (seen, 0, sizeof seen);
  max_ext = 0x10000u + packets[0].seq;
  for (gsize i = 0; i < n; i++)
    {
      const CsRtpPacket *p = &packets[i];
      gboolean duplicate = FALSE;
      guint32 ext;
      guint8 verdict;

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
      else
        duplicate = i > 0 && (seen[p->seq >> 3] >> (p->seq & 7)) & 1;
      seen[p->seq >> 3] |= (guint8) (1u << (p->seq & 7));
      verdict = (guint8) cs_jitter_buffer_feed (&jb, p, ext, duplicate);
      if (verdicts != NULL)
        verdicts[i] = verdict;
    }
  cs_jitter_buffer_finish (&jb, out);
  cs_jitter_buffer_clear (&jb);
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
