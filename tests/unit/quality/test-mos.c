/* test-mos.c — E-model arithmetic and stream → MOS */
#include "quality/cs-mos.h"

#include <stdlib.h>
#include <string.h>

static void
test_mos_from_r (void)
{
  g_assert_cmpfloat (cs_mos_from_r (-5), ==, 1.0);
  g_assert_cmpfloat (cs_mos_from_r (0), ==, 1.0);
  g_assert_cmpfloat (cs_mos_from_r (3), ==, 1.0); /* the cubic dips below 1 here */
  g_assert_cmpfloat (cs_mos_from_r (120), ==, 4.5);
  g_assert_cmpfloat_with_epsilon (cs_mos_from_r (50), 2.575, 1e-9);
  g_assert_cmpfloat_with_epsilon (cs_mos_from_r (93.2), 4.409285824, 1e-9);
  g_assert_cmpfloat_with_epsilon (cs_mos_from_r (100), 4.5, 1e-9);
}

static void
test_delay_impairment (void)
{
  g_assert_cmpfloat_with_epsilon (cs_mos_delay_impairment (100), 2.4, 1e-9);
  g_assert_cmpfloat_with_epsilon (cs_mos_delay_impairment (177.3), 0.024 * 177.3, 1e-9);
  g_assert_cmpfloat_with_epsilon (cs_mos_delay_impairment (200), 4.8 + 0.11 * 22.7, 1e-9);
  /* just past the knee: 0.024·180 + 0.11·2.7 */
  g_assert_cmpfloat_with_epsilon (cs_mos_delay_impairment (180), 4.32 + 0.297, 1e-9);
  g_assert_cmpfloat_with_epsilon (cs_mos_delay_impairment (177.2), 0.024 * 177.2, 1e-9);
}

static void
test_e_model (void)
{
  const CsCodecInfo *g711 = cs_codec_lookup_static (0);
  const CsCodecInfo *g729 = cs_codec_lookup_static (18);
  CsMos m;

  cs_mos_compute (g711, 0, 1, 0, &m);
  g_assert_cmpfloat_with_epsilon (m.r, 93.2, 1e-9);
  g_assert_cmpfloat_with_epsilon (m.mos, 4.409285824, 1e-9);

  cs_mos_compute (g711, 2.0, 1.0, 0, &m);
  g_assert_cmpfloat_with_epsilon (m.ie_eff, 95.0 * 2.0 / (2.0 + 25.1), 1e-9);
  g_assert_cmpfloat_with_epsilon (m.r, 93.2 - 95.0 * 2.0 / 27.1, 1e-9);

  cs_mos_compute (g729, 2.0, 1.0, 100, &m);
  g_assert_cmpfloat_with_epsilon (m.ie_eff, 19.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (m.id, 2.4, 1e-9);
  g_assert_cmpfloat_with_epsilon (m.r, 93.2 - 2.4 - 19.0, 1e-9);
  g_assert_cmpfloat (m.ie, ==, 11.0);
  g_assert_cmpfloat (m.bpl, ==, 19.0);

  /* bursty loss hurts more than random loss at the same rate */
  {
    CsMos bursty;

    cs_mos_compute (g711, 5.0, 1.0, 0, &m);
    cs_mos_compute (g711, 5.0, 3.0, 0, &bursty);
    g_assert_cmpfloat (bursty.ie_eff, >, m.ie_eff);
    g_assert_cmpfloat (bursty.mos, <, m.mos);
  }

  /* 100 % loss */
  cs_mos_compute (g711, 100.0, 1.0, 0, &m);
  g_assert_cmpfloat (m.mos, <, 1.6);
}

static CsRtpPacket *
stream (gsize n)
{
  CsRtpPacket *p = g_new0 (CsRtpPacket, n);

  for (gsize i = 0; i < n; i++)
    {
      p[i].arrival_ns = (gint64) i * 20000000;
      p[i].frame = (guint32) (i + 1);
      p[i].seq = (guint16) i;
      p[i].timestamp = (guint32) (i * 160);
      p[i].payload_type = 0;
      p[i].payload_len = 160;
    }
  return p;
}

static void
test_for_stream (void)
{
  g_autofree CsRtpPacket *p = stream (600);
  CsRtpClockMap clocks;
  CsRtpPacket lossy[600];
  CsMos m;
  gsize k = 0;

  cs_rtp_clock_map_init_static (&clocks);
  g_assert_cmpfloat_with_epsilon (cs_mos_packetisation_ms (p, 600, 8000), 20.0, 1e-9);
  cs_mos_for_stream (p, 600, &clocks, cs_codec_lookup_static (0), NULL, &m);
  /* 50 ms buffer + 20 ms packets + 20 ms network */
  g_assert_cmpfloat_with_epsilon (m.delay_ms, 90.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (m.id, 2.16, 1e-9);
  g_assert_cmpfloat_with_epsilon (m.r, 91.04, 1e-9);
  g_assert_cmpfloat_with_epsilon (m.mos, 4.363639293952, 1e-9);
  g_assert_cmpfloat (m.ppl, ==, 0.0);

  /* lose every 50th packet: 2 % random loss */
  for (gsize i = 0; i < 600; i++)
    if (i % 50 != 25)
      lossy[k++] = p[i];
  cs_mos_for_stream (lossy, k, &clocks, cs_codec_lookup_static (0), NULL, &m);
  g_assert_cmpfloat_with_epsilon (m.ppl, 2.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (m.burst_ratio, 0.98, 1e-9);
  g_assert_cmpfloat (m.mos, <, 4.2);
}

static void
test_windows (void)
{
  g_autofree CsRtpPacket *p = stream (600); /* 12 s */
  CsRtpClockMap clocks;
  g_autoptr (GArray) w = NULL;

  cs_rtp_clock_map_init_static (&clocks);
  w = cs_mos_windows (p, 600, &clocks, cs_codec_lookup_static (0), NULL, 5.0, 0);
  g_assert_cmpuint (w->len, ==, 3);
  g_assert_cmpfloat (g_array_index (w, CsMosWindow, 0).start_s, ==, 0.0);
  g_assert_cmpfloat (g_array_index (w, CsMosWindow, 2).start_s, ==, 10.0);
  g_assert_cmpuint (g_array_index (w, CsMosWindow, 0).packets, ==, 250);
  g_assert_cmpuint (g_array_index (w, CsMosWindow, 2).packets, ==, 100);
  g_assert_cmpfloat_with_epsilon (g_array_index (w, CsMosWindow, 1).mos.r, 91.04, 1e-9);
}

static int
compare_u32 (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

/* The median step without sorting every step: more distinct steps than the table holds
 * fall back to sorting; steps of a quarter second or more do not count. */
static void
test_packetisation_steps (void)
{
  CsRtpPacket p[400];
  guint32 steps[400];
  CsRtpStepTable table;
  guint count = 0;
  double ms;

  memset (p, 0, sizeof p);
  for (guint i = 1; i < 400; i++)
    {
      p[i].seq = (guint16) i;
      p[i].timestamp = p[i - 1].timestamp + 100 + (i * 7) % 41; /* 41 distinct steps */
    }
  for (guint i = 1; i < 400; i++)
    steps[count++] = p[i].timestamp - p[i - 1].timestamp;
  qsort (steps, count, sizeof (guint32), compare_u32);
  g_assert_cmpfloat (cs_mos_packetisation_ms (p, 400, 8000), ==, steps[count / 2] * 1000.0 / 8000);

  cs_rtp_step_table_init (&table);
  for (guint i = 0; i < 30; i++)
    cs_rtp_step_table_count (&table, i < 10 ? 160 : i < 25 ? 320 : 4000);
  g_assert_false (table.overflow);
  /* at 8000 Hz 4000 is half a second: the median of ten 160s and fifteen 320s */
  g_assert_true (cs_mos_packetisation_from_steps (&table, 8000, &ms));
  g_assert_cmpfloat (ms, ==, 40.0);
  /* at 48000 Hz all three count: 320 is the 15th of 30 */
  g_assert_true (cs_mos_packetisation_from_steps (&table, 48000, &ms));
  g_assert_cmpfloat (ms, ==, 320 * 1000.0 / 48000);
  for (guint32 v = 1; v <= CS_RTP_STEP_TABLE_SIZE; v++)
    cs_rtp_step_table_count (&table, 1000 + v);
  g_assert_true (table.overflow);
  g_assert_false (cs_mos_packetisation_from_steps (&table, 8000, &ms));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/mos/from-r", test_mos_from_r);
  g_test_add_func ("/mos/delay-impairment", test_delay_impairment);
  g_test_add_func ("/mos/e-model", test_e_model);
  g_test_add_func ("/mos/for-stream", test_for_stream);
  g_test_add_func ("/mos/windows", test_windows);
  g_test_add_func ("/mos/packetisation-steps", test_packetisation_steps);
  return g_test_run ();
}
