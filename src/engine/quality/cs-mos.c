/* cs-mos.c — E-model (ITU-T G.107) simplified as in docs/metrics.md */
#include "cs-mos.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double
cs_mos_from_r (double r)
{
  double mos;

  if (r < 0)
    return 1.0;
  if (r > 100)
    return 4.5;
  mos = 1.0 + 0.035 * r + 7e-6 * r * (r - 60.0) * (100.0 - r);
  return CLAMP (mos, 1.0, 4.5);
}

double
cs_mos_delay_impairment (double d)
{
  double id;

  if (d < 0)
    d = 0;
  id = 0.024 * d;
  if (d > 177.3)
    id += 0.11 * (d - 177.3);
  return id;
}

void
cs_mos_compute (const CsCodecInfo *codec, double ppl_percent, double burst_ratio,
                double one_way_delay_ms, CsMos *out)
{
  memset (out, 0, sizeof *out);
  out->ie = codec != NULL ? codec->ie : 0.0;
  out->bpl = codec != NULL && codec->bpl > 0 ? codec->bpl : 25.1;
  out->ppl = CLAMP (ppl_percent, 0.0, 100.0);
  out->burst_ratio = burst_ratio >= 1e-6 ? burst_ratio : 1.0;
  out->delay_ms = one_way_delay_ms;
  out->id = cs_mos_delay_impairment (one_way_delay_ms);
  out->ie_eff = out->ie + (95.0 - out->ie) * out->ppl / (out->ppl / out->burst_ratio + out->bpl);
  /* the model's ranges (G.107): Ie,eff from Ie up to 95, R from 0 to 100 (a huge BurstR
   * would take Ie,eff past 95, a long delay R below 0) */
  out->ie_eff = CLAMP (out->ie_eff, out->ie, MAX (out->ie, 95.0));
  out->r = CLAMP (93.2 - out->id - out->ie_eff, 0.0, 100.0);
  out->mos = cs_mos_from_r (out->r);
}

static int
compare_u32 (const void *a, const void *b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

/* Timestamp steps that count: consecutive sequence numbers, same payload type, forward
 * by less than a quarter second. */
static inline gboolean
packetisation_step (const CsRtpPacket *prev, const CsRtpPacket *p, guint clock_rate, guint32 *step)
{
  *step = p->timestamp - prev->timestamp;
  return (guint16) (p->seq - prev->seq) == 1 && p->payload_type == prev->payload_type && *step > 0
         && *step < clock_rate / 4;
}

/* The step of rank k (0-based, ascending) among the steps that count, by sorting them
 * all: for streams whose steps take too many values for a step table. */
static guint32
packetisation_step_by_sorting (const CsRtpPacket *packets, gsize n, guint clock_rate, gsize k)
{
  guint32 *steps = g_new (guint32, n), result;
  gsize count = 0;

  for (gsize i = 1; i < n; i++)
    if (packetisation_step (&packets[i - 1], &packets[i], clock_rate, &steps[count]))
      count++;
  qsort (steps, count, sizeof (guint32), compare_u32);
  result = steps[k];
  g_free (steps);
  return result;
}

gboolean
cs_mos_packetisation_from_steps (const CsRtpStepTable *steps, guint clock_rate, double *out_ms)
{
  guint32 limit = clock_rate / 4, median = 0;
  guint64 count = 0, below = 0;
  gboolean taken[CS_RTP_STEP_TABLE_SIZE] = { FALSE };

  if (steps->overflow)
    return FALSE;
  *out_ms = 20.0;
  for (guint i = 0; i < steps->n_values; i++)
    if (steps->value[i] < limit)
      count += steps->count[i];
  if (count == 0)
    return TRUE;
  /* The median: the smallest step with more than count / 2 steps at or below it. */
  while (below <= count / 2)
    {
      guint best = G_MAXUINT;

      for (guint i = 0; i < steps->n_values; i++)
        if (!taken[i] && steps->value[i] < limit
            && (best == G_MAXUINT || steps->value[i] < steps->value[best]))
          best = i;
      taken[best] = TRUE;
      below += steps->count[best];
      median = steps->value[best];
    }
  *out_ms = median * 1000.0 / clock_rate;
  return TRUE;
}

double
cs_mos_packetisation_ms (const CsRtpPacket *packets, gsize n, guint clock_rate)
{
  CsRtpStepTable steps;
  gsize count = 0;
  double ms;

  if (n < 2 || clock_rate == 0)
    return 20.0;
  cs_rtp_step_table_init (&steps);
  for (gsize i = 1; i < n; i++)
    {
      guint32 step;

      if (packetisation_step (&packets[i - 1], &packets[i], clock_rate, &step))
        {
          cs_rtp_step_table_count (&steps, step);
          count++;
        }
    }
  if (cs_mos_packetisation_from_steps (&steps, clock_rate, &ms))
    return ms;
  return packetisation_step_by_sorting (packets, n, clock_rate, count / 2) * 1000.0 / clock_rate;
}

guint
cs_mos_clock_rate (const CsRtpClockMap *clocks, const CsCodecInfo *codec, guint8 pt)
{
  if (clocks != NULL && clocks->clock_rate_by_pt[pt & 0x7f] != 0)
    return clocks->clock_rate_by_pt[pt & 0x7f];
  return codec != NULL ? codec->clock_rate : 8000;
}

void
cs_mos_for_stream_at (const CsRtpPacket *packets, gsize n, guint8 media_pt, guint clock_rate,
                      double packetisation_ms, const CsCodecInfo *codec,
                      const CsJitterBufferConfig *jb, CsMos *out)
{
  CsJitterBufferConfig default_jb;
  CsJitterBufferResult result;

  if (jb == NULL)
    {
      cs_jitter_buffer_config_init_default (&default_jb);
      jb = &default_jb;
    }
  cs_jitter_buffer_emulate_media (packets, n, media_pt, clock_rate, jb, NULL, &result);
  cs_mos_for_buffer_result (&result, packetisation_ms, codec, jb, out);
}

void
cs_mos_for_buffer_result (const CsJitterBufferResult *result, double packetisation_ms,
                          const CsCodecInfo *codec, const CsJitterBufferConfig *jb, CsMos *out)
{
  CsJitterBufferConfig default_jb;
  double delay_ms;

  if (jb == NULL)
    {
      cs_jitter_buffer_config_init_default (&default_jb);
      jb = &default_jb;
    }
  delay_ms = (jb->kind == CS_JITTER_BUFFER_OFF ? 0.0 : jb->delay_ms) + packetisation_ms
             + CS_MOS_NETWORK_DELAY_MS;
  cs_mos_compute (codec, result->effective_loss_pct, result->burst_ratio, delay_ms, out);
}

void
cs_mos_for_stream (const CsRtpPacket *packets, gsize n, const CsRtpClockMap *clocks,
                   const CsCodecInfo *codec, const CsJitterBufferConfig *jb, CsMos *out)
{
  guint8 media_pt = cs_jitter_buffer_media_payload_type (packets, n);
  guint clock_rate = cs_mos_clock_rate (clocks, codec, media_pt);

  cs_mos_for_stream_at (packets, n, media_pt, clock_rate,
                        cs_mos_packetisation_ms (packets, n, clock_rate), codec, jb, out);
}

/* One window's MOS from its packets, counting as lost the missing packets the sequence
 * numbers say were due in it before its first or after its last packet (a gap that runs
 * across its edge). */
static void
cs_mos_window_compute (const CsRtpPacket *packets, gsize n, guint32 missing,
                       const CsRtpClockMap *clocks, const CsCodecInfo *codec,
                       const CsJitterBufferConfig *jb, CsMos *out)
{
  guint8 media_pt = cs_jitter_buffer_media_payload_type (packets, n);
  guint clock_rate = cs_mos_clock_rate (clocks, codec, media_pt);
  CsJitterBufferConfig default_jb;
  CsJitterBufferResult result;
  guint64 expected;

  if (jb == NULL)
    {
      cs_jitter_buffer_config_init_default (&default_jb);
      jb = &default_jb;
    }
  cs_jitter_buffer_emulate_media (packets, n, media_pt, clock_rate, jb, NULL, &result);
  expected = (guint64) result.expected + missing;
  if (missing > 0 && expected > 0)
    result.effective_loss_pct
        = 100.0 * (double) (expected - MIN (result.played, expected)) / (double) expected;
  cs_mos_for_buffer_result (&result, cs_mos_packetisation_ms (packets, n, clock_rate), codec, jb,
                            out);
}

GArray *
cs_mos_windows (const CsRtpPacket *packets, gsize n, const CsRtpClockMap *clocks,
                const CsCodecInfo *codec, const CsJitterBufferConfig *jb, double window_s,
                gint64 origin_ns)
{
  GArray *windows = g_array_new (FALSE, TRUE, sizeof (CsMosWindow));
  gint64 window_ns, index = 0;
  gsize start = 0;
  double delay_ms = 0; /* the last window's, for the windows that lost everything */

  if (window_s <= 0)
    window_s = CS_MOS_DEFAULT_WINDOW_S;
  window_ns = (gint64) (window_s * 1e9);
  while (start < n)
    {
      gint64 first_index = (packets[start].arrival_ns - origin_ns) / window_ns;
      gint64 end_ns;
      gsize end = start;
      guint32 missing = 0;
      CsMosWindow w;

      if (packets[start].arrival_ns < origin_ns)
        first_index = -1 + (packets[start].arrival_ns - origin_ns + 1) / window_ns;
      if (start > 0)
        {
          guint16 step = (guint16) (packets[start].seq - packets[start - 1].seq);

          /* forward by less than half the sequence space: that many minus one went missing */
          missing = step > 0 && step < 0x8000 ? step - 1u : 0;
        }
      /* Windows the stream sent into but that got none of its packets: all lost (the
       * sequence numbers say so). Without such a gap the sender paused: left out. */
      for (; start > 0 && missing > 0 && index < first_index; index++)
        {
          memset (&w, 0, sizeof w);
          w.start_s = (double) index * window_s;
          cs_mos_compute (codec, 100.0, 1.0, delay_ms, &w.mos); /* a window came before */
          g_array_append_val (windows, w);
        }
      /* of the missing packets, those due in this window (before its first arrival): a
       * share of the gap by time */
      if (missing > 0)
        {
          gint64 gap_from = packets[start - 1].arrival_ns;
          gint64 window_from = origin_ns + first_index * window_ns;
          gint64 gap_ns = packets[start].arrival_ns - gap_from;

          if (window_from > gap_from && gap_ns > 0)
            missing
                = (guint32) ((double) missing * (double) (packets[start].arrival_ns - window_from)
                                 / (double) gap_ns
                             + 0.5);
        }
      index = first_index;
      end_ns = origin_ns + (index + 1) * window_ns;
      /* Capture order is arrival order; a packet stamped earlier stays in this window. */
      while (end < n && packets[end].arrival_ns < end_ns)
        end++;
      if (end == start)
        end++;
      /* and those due after its last packet, when the gap runs on past its end */
      if (end < n && packets[end].arrival_ns >= end_ns)
        {
          guint16 step = (guint16) (packets[end].seq - packets[end - 1].seq);
          gint64 gap_ns = packets[end].arrival_ns - packets[end - 1].arrival_ns;

          if (step > 1 && step < 0x8000 && gap_ns > 0)
            missing
                += (guint32) ((double) (step - 1u) * (double) (end_ns - packets[end - 1].arrival_ns)
                                  / (double) gap_ns
                              + 0.5);
        }
      w.start_s = (double) index * window_s;
      w.packets = (guint32) (end - start);
      cs_mos_window_compute (packets + start, end - start, missing, clocks, codec, jb, &w.mos);
      delay_ms = w.mos.delay_ms;
      g_array_append_val (windows, w);
      start = end;
      index++;
    }
  return windows;
}
