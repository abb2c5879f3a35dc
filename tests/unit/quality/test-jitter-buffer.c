/* test-jitter-buffer.c — fixed/adaptive/off buffer emulation on crafted streams */
#include "quality/cs-jitter-buffer.h"
#include "quality/cs-rtp-metrics.h"

#include <string.h>

static CsRtpPacket *
stream (gsize n, guint8 pt)
{
  CsRtpPacket *p = g_new0 (CsRtpPacket, n);

  for (gsize i = 0; i < n; i++)
    {
      p[i].arrival_ns = G_GINT64_CONSTANT (5000000000) + (gint64) i * 20000000;
      p[i].frame = (guint32) (i + 1);
      p[i].seq = (guint16) (65500 + i); /* crosses the wrap */
      p[i].timestamp = 0xffff0000u + (guint32) (i * 160);
      p[i].payload_type = pt;
      p[i].payload_len = 160;
    }
  return p;
}

static CsJitterBufferConfig
config (CsJitterBufferKind kind, guint delay)
{
  CsJitterBufferConfig cfg = { kind, delay, 200 };

  return cfg;
}

static void
test_perfect_stream (void)
{
  g_autofree CsRtpPacket *p = stream (50, 0);
  CsJitterBufferConfig cfg;
  CsJitterBufferResult r;

  cs_jitter_buffer_config_init_default (&cfg);
  g_assert_cmpint (cfg.kind, ==, CS_JITTER_BUFFER_FIXED);
  g_assert_cmpuint (cfg.delay_ms, ==, 50);
  cs_jitter_buffer_emulate (p, 50, 8000, &cfg, &r);
  g_assert_cmpuint (r.expected, ==, 50);
  g_assert_cmpuint (r.received, ==, 50);
  g_assert_cmpuint (r.played, ==, 50);
  g_assert_cmpuint (r.lost_network, ==, 0);
  g_assert_cmpuint (r.discarded_late, ==, 0);
  g_assert_cmpfloat (r.effective_loss_pct, ==, 0.0);
  g_assert_cmpuint (r.max_burst, ==, 0);
  g_assert_cmpfloat (r.burst_ratio, ==, 1.0);
}

static void
test_late_packet (void)
{
  g_autofree CsRtpPacket *p = stream (50, 0);
  guint8 verdicts[50];
  CsJitterBufferConfig fixed = config (CS_JITTER_BUFFER_FIXED, 50);
  CsJitterBufferConfig off = config (CS_JITTER_BUFFER_OFF, 0);
  CsJitterBufferResult r;

  p[5].arrival_ns += 60000000;  /* due at 100 + 50 ms, arrives at 160 */
  p[20].arrival_ns += 40000000; /* 10 ms inside the buffer */
  cs_jitter_buffer_emulate_verdicts (p, 50, 8000, &fixed, verdicts, &r);
  g_assert_cmpuint (verdicts[5], ==, CS_JITTER_BUFFER_LATE);
  g_assert_cmpuint (verdicts[20], ==, CS_JITTER_BUFFER_PLAYED);
  g_assert_cmpuint (r.discarded_late, ==, 1);
  g_assert_cmpuint (r.lost_network, ==, 0);
  g_assert_cmpuint (r.played, ==, 49);
  g_assert_cmpfloat_with_epsilon (r.effective_loss_pct, 2.0, 1e-9);
  g_assert_cmpuint (r.max_burst, ==, 1);

  /* no buffer: only network loss counts */
  cs_jitter_buffer_emulate (p, 50, 8000, &off, &r);
  g_assert_cmpuint (r.discarded_late, ==, 0);
  g_assert_cmpfloat (r.effective_loss_pct, ==, 0.0);
}

static void
test_network_loss_and_bursts (void)
{
  g_autofree CsRtpPacket *all = stream (50, 8);
  CsRtpPacket kept[50];
  CsJitterBufferConfig cfg = config (CS_JITTER_BUFFER_FIXED, 50);
  CsJitterBufferResult r;
  gsize k = 0;

  for (gsize i = 0; i < 50; i++)
    if (!(i >= 10 && i <= 12) && i != 30)
      kept[k++] = all[i];
  cs_jitter_buffer_emulate (kept, k, 8000, &cfg, &r);
  g_assert_cmpuint (r.expected, ==, 50);
  g_assert_cmpuint (r.received, ==, 46);
  g_assert_cmpuint (r.lost_network, ==, 4);
  g_assert_cmpuint (r.max_burst, ==, 3);
  /* mean burst 2 packets, random loss at p = 0.08 would average 1/0.92 */
  g_assert_cmpfloat_with_epsilon (r.burst_ratio, 2.0 * 0.92, 1e-9);
  g_assert_cmpfloat_with_epsilon (r.effective_loss_pct, 8.0, 1e-9);
}

static void
test_duplicates_and_aux (void)
{
  g_autofree CsRtpPacket *p = stream (20, 8);
  CsRtpPacket with_dup[21];
  guint8 verdicts[21];
  CsJitterBufferConfig cfg = config (CS_JITTER_BUFFER_FIXED, 50);
  CsJitterBufferResult r;

  /* packets 3 and 4 are comfort noise, packet 7 arrives twice */
  p[3].payload_type = 13;
  p[4].payload_type = 13;
  memcpy (with_dup, p, 8 * sizeof (CsRtpPacket));
  with_dup[8] = p[7];
  with_dup[8].arrival_ns += 1000000;
  memcpy (with_dup + 9, p + 8, 12 * sizeof (CsRtpPacket));
  cs_jitter_buffer_emulate_verdicts (with_dup, 21, 8000, &cfg, verdicts, &r);
  g_assert_cmpuint (r.media_payload_type, ==, 8);
  g_assert_cmpuint (verdicts[3], ==, CS_JITTER_BUFFER_AUX);
  g_assert_cmpuint (verdicts[8], ==, CS_JITTER_BUFFER_DUPLICATE);
  g_assert_cmpuint (r.duplicates, ==, 1);
  g_assert_cmpuint (r.received, ==, 20);
  g_assert_cmpuint (r.expected, ==, 20);
  g_assert_cmpfloat (r.effective_loss_pct, ==, 0.0);
}

static void
test_marker_resyncs (void)
{
  g_autofree CsRtpPacket *p = stream (40, 0);
  CsJitterBufferConfig cfg = config (CS_JITTER_BUFFER_FIXED, 50);
  CsJitterBufferResult r;

  /* from packet 20 on everything arrives 300 ms later: a new talkspurt (marker)
   * restarts playout, so nothing is late */
  for (gsize i = 20; i < 40; i++)
    p[i].arrival_ns += 300000000;
  p[20].flags |= CS_RTP_FLAG_MARKER;
  cs_jitter_buffer_emulate (p, 40, 8000, &cfg, &r);
  g_assert_cmpuint (r.discarded_late, ==, 0);

  /* without the marker the buffer underruns: 5 late, then it restarts */
  p[20].flags = 0;
  cs_jitter_buffer_emulate (p, 40, 8000, &cfg, &r);
  g_assert_cmpuint (r.discarded_late, ==, 5);
  g_assert_cmpuint (r.max_burst, ==, 5);
}

static void
test_adaptive_beats_fixed_on_jitter (void)
{
  g_autofree CsRtpPacket *p = stream (400, 0);
  CsJitterBufferConfig fixed = config (CS_JITTER_BUFFER_FIXED, 30);
  CsJitterBufferConfig adaptive = config (CS_JITTER_BUFFER_ADAPTIVE, 30);
  CsJitterBufferResult rf, ra;

  /* every 3rd packet 45 ms late; a talkspurt every 50 packets */
  for (gsize i = 0; i < 400; i++)
    {
      if (i % 3 == 1)
        p[i].arrival_ns += 45000000;
      if (i % 50 == 0)
        p[i].flags |= CS_RTP_FLAG_MARKER;
    }
  cs_jitter_buffer_emulate (p, 400, 8000, &fixed, &rf);
  cs_jitter_buffer_emulate (p, 400, 8000, &adaptive, &ra);
  g_assert_cmpuint (rf.discarded_late, >, 90);
  g_assert_cmpuint (ra.discarded_late, <, rf.discarded_late / 4);
}

static void
test_empty_and_unknown_clock (void)
{
  g_autofree CsRtpPacket *p = stream (10, 96);
  CsJitterBufferConfig cfg = config (CS_JITTER_BUFFER_FIXED, 50);
  CsJitterBufferResult r;

  cs_jitter_buffer_emulate (p, 0, 8000, &cfg, &r);
  g_assert_cmpuint (r.expected, ==, 0);
  g_assert_cmpfloat (r.effective_loss_pct, ==, 0.0);

  p[4].arrival_ns += 500000000;
  cs_jitter_buffer_emulate (p, 10, 0, &cfg, &r); /* no clock: cannot judge lateness */
  g_assert_cmpuint (r.discarded_late, ==, 0);
  g_assert_cmpuint (r.played, ==, 10);
}

/* Reordering leaves the played numbers in runs out of order: 0-2, 5-6, 3-4, 9 (7 and 8
 * lost). One burst of two in ten. */
static void
test_reordered_runs (void)
{
  static const guint16 order[] = { 0, 1, 2, 5, 6, 3, 4, 9 };
  CsRtpPacket p[G_N_ELEMENTS (order)];
  CsJitterBufferConfig off = config (CS_JITTER_BUFFER_OFF, 0);
  CsJitterBufferResult r;

  memset (p, 0, sizeof p);
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      p[i].arrival_ns = (gint64) i * 20000000;
      p[i].seq = (guint16) (65531 + order[i]); /* across the wrap */
      p[i].timestamp = order[i] * 160u;
    }
  cs_jitter_buffer_emulate (p, G_N_ELEMENTS (order), 8000, &off, &r);
  g_assert_cmpuint (r.expected, ==, 10);
  g_assert_cmpuint (r.played, ==, 8);
  g_assert_cmpuint (r.max_burst, ==, 2);
  g_assert_cmpfloat_with_epsilon (r.burst_ratio, 2.0 * (1.0 - 0.2), 1e-12);

  /* and more runs than fit on the stack: every other number, backwards */
  {
    CsRtpPacket q[200];

    memset (q, 0, sizeof q);
    for (guint i = 0; i < 200; i++)
      {
        q[i].arrival_ns = (gint64) i * 20000000;
        q[i].seq = (guint16) (1000 - 2 * i);
      }
    cs_jitter_buffer_emulate (q, 200, 8000, &off, &r);
    g_assert_cmpuint (r.expected, ==, 399);
    g_assert_cmpuint (r.played, ==, 200);
    g_assert_cmpuint (r.max_burst, ==, 1);
    g_assert_cmpfloat_with_epsilon (r.burst_ratio, 1.0 * (1.0 - 199.0 / 399.0), 1e-12);
  }
}

/* The stats pass feeding a buffer finds what the buffer alone finds, bit for bit, on streams
 * with loss, reordering, duplicates, late packets, markers, other payload types, timestamp
 * jumps and the sequence wrap, for each kind of buffer. */
static void
test_fed_by_stats_pass (void)
{
  static const CsJitterBufferKind kinds[]
      = { CS_JITTER_BUFFER_FIXED, CS_JITTER_BUFFER_ADAPTIVE, CS_JITTER_BUFFER_OFF };
  CsRtpClockMap clocks;
  GRand *rand = g_rand_new_with_seed (5);

  cs_rtp_clock_map_init_static (&clocks);
  for (guint round = 0; round < 300; round++)
    {
      gsize n = 1 + g_rand_int_range (rand, 0, 400);
      g_autofree CsRtpPacket *p = stream (n, 0);
      guint odd = g_rand_int_range (rand, 0, 6); /* how unusual: 0 = clean */

      for (gsize i = 0; i < n && odd > 0; i++)
        {
          guint32 r = g_rand_int_range (rand, 0, 1000);

          if (r < 30 * odd)
            p[i].arrival_ns += g_rand_int_range (rand, 0, 120) * 1000000; /* late or jittery */
          else if (r < 30 * odd + 5 * odd && i > 0)
            p[i] = p[i - 1]; /* duplicate */
          else if (r < 45 * odd && i > 0)
            {
              CsRtpPacket t = p[i]; /* swapped with the previous */

              p[i] = p[i - 1];
              p[i - 1] = t;
            }
          else if (r < 50 * odd)
            p[i].flags |= CS_RTP_FLAG_MARKER;
          else if (r < 53 * odd)
            p[i].payload_type = round % 2 ? 13 : 8; /* comfort noise, another codec */
          else if (r < 55 * odd)
            p[i].seq += (guint16) g_rand_int_range (rand, 2, 40000); /* lost or wild */
          else if (r < 57 * odd)
            p[i].timestamp += (guint32) g_rand_int (rand); /* timestamp jump */
        }
      for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
        {
          CsJitterBufferConfig cfg = config (kinds[k], 40);
          CsJitterBufferResult alone, fed;
          CsJitterBuffer jb;
          CsRtpStats stats;

          cs_jitter_buffer_emulate_media (p, n, 0, 8000, &cfg, NULL, &alone);
          cs_jitter_buffer_init (&jb, 0, 8000, &cfg);
          cs_rtp_stats_compute_with_buffer (p, n, &clocks, &stats, NULL, &jb);
          cs_jitter_buffer_finish (&jb, &fed);
          cs_jitter_buffer_clear (&jb);
          g_assert_cmpmem (&alone, sizeof alone, &fed, sizeof fed);
        }
    }
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/jitter-buffer/perfect", test_perfect_stream);
  g_test_add_func ("/jitter-buffer/late-packet", test_late_packet);
  g_test_add_func ("/jitter-buffer/network-loss-bursts", test_network_loss_and_bursts);
  g_test_add_func ("/jitter-buffer/duplicates-aux", test_duplicates_and_aux);
  g_test_add_func ("/jitter-buffer/marker-resync", test_marker_resyncs);
  g_test_add_func ("/jitter-buffer/adaptive", test_adaptive_beats_fixed_on_jitter);
  g_test_add_func ("/jitter-buffer/empty-unknown-clock", test_empty_and_unknown_clock);
  g_test_add_func ("/jitter-buffer/reordered-runs", test_reordered_runs);
  g_test_add_func ("/jitter-buffer/fed-by-stats-pass", test_fed_by_stats_pass);
  return g_test_run ();
}
