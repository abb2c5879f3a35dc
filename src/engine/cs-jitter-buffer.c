/* cs-jitter-buffer.c — see docs/metrics.md "Jitter buffer emulation" for the model */
#include "cs-jitter-buffer.h"

#include <math.h>
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

static guint8
most_frequent_payload_type (const CsRtpPacket *packets, gsize n)
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

static int
compare_u32 (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

/* Runs of unplayed sequence numbers between min and max (inclusive). */
static void
compute_bursts (GArray *played_seqs, guint32 min_ext, guint32 max_ext, CsJitterBufferResult *out)
{
  guint32 prev = min_ext - 1, unplayed = 0, bursts = 0;

  g_array_sort (played_seqs, compare_u32);
  for (guint i = 0; i <= played_seqs->len; i++)
    {
      guint32 seq = i < played_seqs->len ? g_array_index (played_seqs, guint32, i) : max_ext + 1;
      guint32 gap;

      if (seq <= prev)
        continue;
      gap = seq - prev - 1;
      if (gap > 0)
        {
          bursts++;
          unplayed += gap;
          out->max_burst = MAX (out->max_burst, gap);
        }
      prev = seq;
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
cs_jitter_buffer_emulate_verdicts (const CsRtpPacket *packets, gsize n, guint clock_rate,
                                   const CsJitterBufferConfig *cfg, guint8 *verdicts,
                                   CsJitterBufferResult *out)
{
  guint8 *seen;
  GArray *played_seqs;
  guint32 max_ext = 0, min_ext = 0;
  gint64 ts_ref = 0, anchor_ts = 0;
  double anchor_ms = 0.0;
  gboolean anchored = FALSE;
  double delay_ms, max_delay_ms, pending_delay_ms, jitter_ms = 0.0, prev_transit_ms = 0.0;
  gboolean have_transit = FALSE;
  guint late_run = 0;
  CsJitterBufferKind kind = cfg != NULL ? cfg->kind : CS_JITTER_BUFFER_FIXED;

  memset (out, 0, sizeof *out);
  out->burst_ratio = 1.0;
  if (n == 0)
    return;
  delay_ms = cfg != NULL ? cfg->delay_ms : CS_JITTER_BUFFER_DEFAULT_DELAY_MS;
  max_delay_ms = cfg != NULL && cfg->max_delay_ms != 0 ? cfg->max_delay_ms
                                                       : CS_JITTER_BUFFER_DEFAULT_MAX_DELAY_MS;
  max_delay_ms = MAX (max_delay_ms, delay_ms);
  pending_delay_ms = delay_ms;
  out->media_payload_type = most_frequent_payload_type (packets, n);

  seen = g_malloc0 (65536 / 8);
  played_seqs = g_array_sized_new (FALSE, FALSE, sizeof (guint32), (guint) MIN (n, 1u << 20));
  for (gsize i = 0; i < n; i++)
    {
      const CsRtpPacket *p = &packets[i];
      guint8 verdict = CS_JITTER_BUFFER_PLAYED;
      guint32 ext;

      if (i == 0)
        {
          max_ext = min_ext = 0x10000u + p->seq;
          ts_ref = (gint64) 1 << 32 | p->timestamp;
        }
      ext = cs_rtp_extend_seq (max_ext, p->seq);
      if (ext > max_ext)
        {
          guint32 advance = ext - max_ext;

          if (advance >= 65536)
            memset (seen, 0, 65536 / 8);
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

      if ((p->payload_type & 0x7f) != out->media_payload_type)
        verdict = CS_JITTER_BUFFER_AUX;
      else if (kind != CS_JITTER_BUFFER_OFF && clock_rate != 0)
        {
          gint64 ts = cs_rtp_extend_timestamp (ts_ref, p->timestamp);
          double arrival_ms = (double) (p->arrival_ns - packets[0].arrival_ns) / 1e6;
          double transit_ms = arrival_ms - (double) ts * 1000.0 / clock_rate;
          double due_ms = 0.0;

          ts_ref = ts;
          if (have_transit)
            jitter_ms += (fabs (transit_ms - prev_transit_ms) - jitter_ms) / 16.0;
          prev_transit_ms = transit_ms;
          have_transit = TRUE;

          if (anchored)
            due_ms = anchor_ms + (double) (ts - anchor_ts) * 1000.0 / clock_rate + delay_ms;
          /* Talkspurt starts, underruns and timestamp jumps re-anchor playout, as receivers do. */
          if (!anchored || (p->flags & CS_RTP_FLAG_MARKER) || late_run >= UNDERRUN_RESYNC_PACKETS
              || (double) (anchor_ts - ts) * 1000.0 / clock_rate > TIMESTAMP_JUMP_MS
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
      else
        g_array_append_val (played_seqs, ext);
      if (verdicts != NULL)
        verdicts[i] = verdict;
    }

  out->expected = max_ext - min_ext + 1;
  out->lost_network = out->expected > out->received ? out->expected - out->received : 0;
  out->played = out->received - out->discarded_late;
  if (out->expected > 0)
    out->effective_loss_pct
        = 100.0 * (double) (out->expected - MIN (out->played, out->expected)) / out->expected;
  compute_bursts (played_seqs, min_ext, max_ext, out);
  g_array_unref (played_seqs);
  g_free (seen);
}

void
cs_jitter_buffer_emulate (const CsRtpPacket *packets, gsize n, guint clock_rate,
                          const CsJitterBufferConfig *cfg, CsJitterBufferResult *out)
{
  cs_jitter_buffer_emulate_verdicts (packets, n, clock_rate, cfg, NULL, out);
}
