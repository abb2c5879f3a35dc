/* test-rtcp.c — compound RTCP parsing, RTT, and hostile input */
#include "rtp/cs-rtcp.h"

#include "rtp/cs-rtp.h"

#include <string.h>

static GBytes *
from_hex (const char *hex)
{
  gsize n = strlen (hex) / 2;
  guint8 *buf = g_malloc (n);

  for (gsize i = 0; i < n; i++)
    buf[i] = (guint8) ((g_ascii_xdigit_value (hex[2 * i]) << 4)
                       | g_ascii_xdigit_value (hex[2 * i + 1]));
  return g_bytes_new_take (buf, n);
}

/* SIP_CALL_RTP_G711 frame 529: SR + RR + SDES. tshark 4.0.17 reads sender
 * 0xd2bd4e3e, 4 packets / 640 octets, RTP ts 640, blocks for 0xd2bd4e3e
 * (4 cycles, highest seq 4) and 0x58f33dea (highest seq 11332), LSR 2262103621, DLSR 1,
 * CNAME "unknown@200.57.7.204". The SDES length is 2 bytes short: two stray
 * zero bytes follow it, which Wireshark (and we) accept. */
static const char frame_529[]
    = "81c8000cd2bd4e3ec59286d4f645a1cb000002800000000400000280d2bd4e3e000000000004000400000000"
      "86d4f6450000000181c90007d2bd4e3e58f33dea0000000000002c440000000086d4f6450000000181ca0007"
      "d2bd4e3e0114756e6b6e6f776e403230302e35372e372e32303400000000";

static void
test_real_compound (void)
{
  g_autoptr (GBytes) bytes = from_hex (frame_529);
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  CsRtcpCompound c;

  g_assert_true (cs_rtcp_looks_like (data, len));
  g_assert_true (cs_rtcp_parse (data, len, &c));
  g_assert_cmpuint (c.n_packets, ==, 3);
  g_assert_true (c.has_sr);
  g_assert_true (c.has_rr);
  g_assert_true (c.has_sdes);
  g_assert_false (c.has_bye);
  g_assert_cmphex (c.sender_ssrc, ==, 0xd2bd4e3e);
  g_assert_cmpuint (c.sender_info.packet_count, ==, 4);
  g_assert_cmpuint (c.sender_info.octet_count, ==, 640);
  g_assert_cmpuint (c.sender_info.rtp_timestamp, ==, 640);
  g_assert_cmphex (c.sender_info.ntp >> 32, ==, 0xc59286d4);
  g_assert_cmpuint (c.n_blocks, ==, 2);
  g_assert_cmphex (c.blocks[0].ssrc, ==, 0xd2bd4e3e);
  g_assert_cmpuint (c.blocks[0].ext_highest_seq, ==, 0x00040004); /* 4 cycles, seq 4 */
  g_assert_cmphex (c.blocks[1].ssrc, ==, 0x58f33dea);
  g_assert_cmpuint (c.blocks[1].ext_highest_seq, ==, 11332);
  g_assert_cmpuint (c.blocks[1].lsr, ==, 2262103621u);
  g_assert_cmpuint (c.blocks[1].dlsr, ==, 1);
  g_assert_cmpstr (c.cname, ==, "unknown@200.57.7.204");
}

static void
test_bye_xr_and_lost (void)
{
  /* RR with one block (fraction 64/256, cumulative lost -2), BYE, XR VoIP metrics */
  const guint8 pkt[] = {
    0x81, 201,  0,   7,    0,  0,    0,    0x0a, /* RR, sender 0x0a */
    0,    0,    0,   0x0b, 64, 0xff, 0xff, 0xfe, /* ssrc 0x0b, fraction, lost -2 */
    0,    0,    0,   100,  0,  0,    0,    80,   0x12, 0x34, 0x56, 0x78, 0,
    1,    0,    0,                                                     /* seq, jitter, lsr, dlsr */
    0x81, 203,  0,   1,    0,  0,    0,    0x0a,                       /* BYE 0x0a */
    0x80, 207,  0,   10,   0,  0,    0,    0x0a,                       /* XR from 0x0a */
    7,    0,    0,   8,    0,  0,    0,    0x0b,                       /* VoIP metrics about 0x0b */
    12,   3,    50,  5,    0,  40,   1,    0x2c, 0,    150,  0,    60, /* loss, discard, densities,
                                                                          durations, RTD, ESD */
    0xec, 0xb0, 127, 16,   85, 127,  41,   35,  /* signal -20, noise -80, RERL, Gmin, R, extR,
                                                   MOS-LQ, MOS-CQ */
    0x20, 0,    0,   60,   0,  120,  0,    200, /* RX config, reserved, JB nominal/max/abs max */
  };
  CsRtcpCompound c;

  g_assert_true (cs_rtcp_looks_like (pkt, sizeof pkt));
  g_assert_true (cs_rtcp_parse (pkt, sizeof pkt, &c));
  g_assert_cmpuint (c.n_packets, ==, 3);
  g_assert_cmpuint (c.blocks[0].fraction_lost, ==, 64);
  g_assert_cmpint (c.blocks[0].cumulative_lost, ==, -2);
  g_assert_cmpuint (c.blocks[0].ext_highest_seq, ==, 100);
  g_assert_cmpuint (c.blocks[0].jitter, ==, 80);
  g_assert_true (c.has_bye);
  g_assert_cmphex (c.bye_ssrc, ==, 0x0a);
  g_assert_true (c.has_xr_voip);
  g_assert_cmphex (c.xr_voip.ssrc, ==, 0x0b);
  g_assert_cmpuint (c.xr_voip.loss_rate, ==, 12);
  g_assert_cmpuint (c.xr_voip.burst_duration, ==, 40);
  g_assert_cmpuint (c.xr_voip.gap_duration, ==, 300);
  g_assert_cmpuint (c.xr_voip.round_trip_delay, ==, 150);
  g_assert_cmpint (c.xr_voip.signal_level, ==, -20);
  g_assert_cmpint (c.xr_voip.noise_level, ==, -80);
  g_assert_cmpuint (c.xr_voip.r_factor, ==, 85);
  g_assert_cmpuint (c.xr_voip.mos_lq, ==, 41);
  g_assert_cmpuint (c.xr_voip.jb_abs_max, ==, 200);
}

static void
test_rtt (void)
{
  /* SR sent at NTP 1000.5 s; the peer held it 0.25 s; RR arrives at 1001.0 s → 250 ms */
  guint64 sr_ntp = (G_GUINT64_CONSTANT (1000) << 32) | 0x80000000u;
  guint32 lsr = (guint32) (sr_ntp >> 16);
  guint32 dlsr = 65536 / 4;
  guint64 arrival = G_GUINT64_CONSTANT (1001) << 32;

  g_assert_cmpfloat_with_epsilon (cs_rtcp_rtt_ms (lsr, dlsr, arrival), 250.0, 1e-9);
  g_assert_cmpfloat (cs_rtcp_rtt_ms (0, dlsr, arrival), <, 0);
  g_assert_cmpfloat (cs_rtcp_rtt_ms (lsr, 65536 * 2, arrival), <, 0);
  /* 1970-01-01 is NTP second 2208988800; half a second is 0x80000000 */
  g_assert_cmphex (cs_rtcp_ntp_from_unix_ns (500000000), ==,
                   (G_GUINT64_CONSTANT (2208988800) << 32) | 0x80000000u);
}

static void
test_truncated_and_random (void)
{
  g_autoptr (GBytes) bytes = from_hex (frame_529);
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  GRand *rand = g_rand_new_with_seed (3550);
  CsRtcpCompound c;

  for (gsize cut = 0; cut < len; cut++)
    {
      g_autofree guint8 *copy = g_memdup2 (data, cut);
      /* a cut at a sub-packet boundary (SR ends at 52, RR at 84, SDES at 116,
       * then one stray zero byte) is still a whole compound */
      gboolean boundary = cut == 52 || cut == 84 || cut == 116 || cut == 117;

      g_assert_cmpint (cs_rtcp_parse (copy, cut, &c), ==, boundary);
      g_assert_cmpint (cs_rtcp_looks_like (copy, cut), ==, boundary);
    }
  for (guint i = 0; i < 20000; i++)
    {
      gsize n = g_rand_int_range (rand, 0, 96);
      g_autofree guint8 *buf = g_malloc (MAX (n, 1));

      for (gsize k = 0; k < n; k++)
        buf[k] = (guint8) g_rand_int (rand);
      if (n >= 2)
        {
          buf[0] = 0x80 | (buf[0] & 0x3f);
          buf[1] = 200 + (buf[1] & 7);
        }
      if (cs_rtcp_parse (buf, n, &c))
        g_assert_cmpuint (c.n_blocks, <=, CS_RTCP_MAX_REPORT_BLOCKS);
    }
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rtcp/real-compound", test_real_compound);
  g_test_add_func ("/rtcp/bye-xr-lost", test_bye_xr_and_lost);
  g_test_add_func ("/rtcp/rtt", test_rtt);
  g_test_add_func ("/rtcp/truncated-random", test_truncated_and_random);
  return g_test_run ();
}
