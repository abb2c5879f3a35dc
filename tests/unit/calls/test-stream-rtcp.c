/* RTCP attached to streams (cs-stream-rtcp): which stream a report is about, loss and
 * jitter as reported, RTT from LSR/DLSR, XR VoIP metrics, CNAME — on crafted packets. */
#include <string.h>

#include "rtp/cs-rtcp.h"
#include "calls/cs-stream-private.h"
#include "calls/cs-stream-rtcp.h"

#define T0 G_GINT64_CONSTANT (1700000000000000000) /* 2023-11-14, ns */
#define MS G_GINT64_CONSTANT (1000000)
#define SSRC_X 0x11111111u
#define SSRC_Y 0x22222222u

typedef struct
{
  guint8 data[256];
  gsize len;
} Buf;

static void
put8 (Buf *b, guint v)
{
  g_assert_cmpuint (b->len, <, sizeof b->data);
  b->data[b->len++] = (guint8) v;
}

static void
put16 (Buf *b, guint v)
{
  put8 (b, v >> 8);
  put8 (b, v & 0xff);
}

static void
put32 (Buf *b, guint32 v)
{
  put16 (b, v >> 16);
  put16 (b, v & 0xffff);
}

static void
put_block (Buf *b, guint32 ssrc, guint8 fraction, gint32 cum, guint32 jitter, guint32 lsr,
           guint32 dlsr)
{
  put32 (b, ssrc);
  put8 (b, fraction);
  put8 (b, ((guint32) cum >> 16) & 0xff);
  put16 (b, (guint32) cum & 0xffff);
  put32 (b, 1000); /* extended highest sequence */
  put32 (b, jitter);
  put32 (b, lsr);
  put32 (b, dlsr);
}

/* SR with no report block, then SDES with a CNAME. */
static void
make_sr (Buf *b, guint32 ssrc, guint64 ntp, const char *cname)
{
  gsize name_len = strlen (cname);
  gsize sdes_words = (4 + 2 + name_len + 1 + 3) / 4;

  b->len = 0;
  put8 (b, 0x80);
  put8 (b, 200);
  put16 (b, 6);
  put32 (b, ssrc);
  put32 (b, ntp >> 32);
  put32 (b, ntp & 0xffffffffu);
  put32 (b, 160);  /* RTP timestamp */
  put32 (b, 10);   /* packets */
  put32 (b, 1600); /* octets */
  put8 (b, 0x81);
  put8 (b, 202);
  put16 (b, sdes_words);
  put32 (b, ssrc);
  put8 (b, 1);
  put8 (b, name_len);
  for (gsize i = 0; i < name_len; i++)
    put8 (b, cname[i]);
  put8 (b, 0); /* END */
  while (b->len % 4 != 0)
    put8 (b, 0);
}

static void
make_rr (Buf *b, guint32 sender, guint32 about, guint8 fraction, gint32 cum, guint32 jitter,
         guint32 lsr, guint32 dlsr)
{
  b->len = 0;
  put8 (b, 0x81);
  put8 (b, 201);
  put16 (b, 7);
  put32 (b, sender);
  put_block (b, about, fraction, cum, jitter, lsr, dlsr);
}

/* Empty RR, then an XR with one VoIP metrics block about `about`. */
static void
make_xr (Buf *b, guint32 sender, guint32 about)
{
  b->len = 0;
  put8 (b, 0x80);
  put8 (b, 201);
  put16 (b, 1);
  put32 (b, sender);
  put8 (b, 0x80);
  put8 (b, 207);
  put16 (b, 10);
  put32 (b, sender);
  put8 (b, 7); /* BT: VoIP metrics */
  put8 (b, 0);
  put16 (b, 8);
  put32 (b, about);
  put8 (b, 13);  /* loss rate */
  put8 (b, 2);   /* discard rate */
  put8 (b, 128); /* burst density */
  put8 (b, 64);  /* gap density */
  put16 (b, 120);
  put16 (b, 3000);
  put16 (b, 45);  /* round trip */
  put16 (b, 30);  /* end system delay */
  put8 (b, 0xf0); /* signal level */
  put8 (b, 0xc0); /* noise level */
  put8 (b, 127);  /* RERL */
  put8 (b, 16);   /* Gmin */
  put8 (b, 82);   /* R factor */
  put8 (b, 127);  /* external R factor: unavailable */
  put8 (b, 39);   /* MOS-LQ 3.9 */
  put8 (b, 127);  /* MOS-CQ unavailable */
  put8 (b, 0);
  put8 (b, 0);
  put16 (b, 40);
  put16 (b, 80);
  put16 (b, 200);
}

static void
endpoint (CsEndpoint *ep, guint8 last_octet, guint16 port)
{
  const guint8 ip[4] = { 10, 0, 0, last_octet };

  memset (ep, 0, sizeof *ep);
  cs_addr_set_v4 (&ep->addr, ip);
  ep->port = port;
}

/* A measured PCMU stream of a few packets, so that its clock rate (8 kHz) is known. */
static CsStream *
make_stream (guint id, guint8 src_host, guint16 src_port, guint8 dst_host, guint16 dst_port,
             guint32 ssrc)
{
  GArray *packets = g_array_new (FALSE, TRUE, sizeof (CsRtpPacket));
  CsRtpClockMap clocks;
  CsEndpoint src, dst;
  CsStream *s;

  for (guint i = 0; i < 10; i++)
    {
      CsRtpPacket p = { 0 };

      p.arrival_ns = T0 + i * 20 * MS;
      p.frame = 1 + i;
      p.timestamp = i * 160;
      p.seq = i;
      p.payload_len = 160;
      g_array_append_val (packets, p);
    }
  cs_rtp_clock_map_init_static (&clocks);
  endpoint (&src, src_host, src_port);
  endpoint (&dst, dst_host, dst_port);
  s = cs_stream_new (id, &src, &dst, ssrc, 1, packets, &clocks, NULL);
  cs_stream_measure (s);
  return s;
}

typedef struct
{
  CsEndpoint src[8], dst[8];
  Buf bufs[8];
  CsRtcpDatagram d[8];
  gsize n;
} Datagrams;

static Buf *
add_datagram (Datagrams *ds, guint8 src_host, guint16 src_port, guint8 dst_host, guint16 dst_port,
              guint32 frame, gint64 arrival_ns)
{
  gsize i = ds->n++;

  g_assert_cmpuint (ds->n, <=, G_N_ELEMENTS (ds->d));
  endpoint (&ds->src[i], src_host, src_port);
  endpoint (&ds->dst[i], dst_host, dst_port);
  ds->d[i].src = &ds->src[i];
  ds->d[i].dst = &ds->dst[i];
  ds->d[i].frame = frame;
  ds->d[i].arrival_ns = arrival_ns;
  return &ds->bufs[i];
}

static void
finish_datagrams (Datagrams *ds)
{
  for (gsize i = 0; i < ds->n; i++)
    {
      ds->d[i].data = ds->bufs[i].data;
      ds->d[i].len = ds->bufs[i].len;
      g_assert_true (cs_rtcp_looks_like (ds->d[i].data, ds->d[i].len));
    }
}

/* X flows 10.0.0.1:5000 → 10.0.0.2:6000. Its source sends an SR on 5001 → 6001; 0.5 s
 * later the receiver answers with DLSR 0.5 s plus the 40 ms the round trip took. */
static void
test_sr_rr_rtt (void)
{
  g_autoptr (GPtrArray) streams = g_ptr_array_new_with_free_func (g_object_unref);
  Datagrams ds = { 0 };
  guint64 sr_ntp = cs_rtcp_ntp_from_unix_ns (T0 + 100 * MS) + 12345; /* sender's own clock */
  guint32 lsr = (guint32) (sr_ntp >> 16);
  CsStream *x, *y;
  const CsStreamRtcp *rx, *ry;
  const CsStreamRtcpReport *rep;

  x = make_stream (1, 1, 5000, 2, 6000, SSRC_X);
  y = make_stream (2, 2, 6000, 1, 5000, SSRC_Y);
  g_ptr_array_add (streams, x);
  g_ptr_array_add (streams, y);
  make_sr (add_datagram (&ds, 1, 5001, 2, 6001, 100, T0 + 100 * MS), SSRC_X, sr_ntp,
           "alice@10.0.0.1");
  make_rr (add_datagram (&ds, 2, 6001, 1, 5001, 200, T0 + 640 * MS), SSRC_Y, SSRC_X, 64, 12, 80,
           lsr, 32768);
  finish_datagrams (&ds);
  cs_stream_rtcp_attach (streams, ds.d, ds.n);

  rx = cs_stream_get_rtcp (x);
  g_assert_nonnull (rx);
  g_assert_cmpuint (rx->n_sr, ==, 1);
  g_assert_cmpuint (rx->n_rr, ==, 1);
  g_assert_cmpstr (rx->cname, ==, "alice@10.0.0.1");
  g_assert_cmpuint (rx->last_fraction_lost, ==, 64);
  g_assert_cmpuint (rx->max_fraction_lost, ==, 64);
  g_assert_cmpint (rx->last_cumulative_lost, ==, 12);
  g_assert_cmpfloat_with_epsilon (rx->last_jitter_ms, 10.0, 1e-9); /* 80 / 8 kHz */
  g_assert_cmpuint (rx->n_rtt, ==, 1);
  /* 16.16 fixed point: within two 1/65536 s steps of 40 ms */
  g_assert_cmpfloat_with_epsilon (rx->min_rtt_ms, 40.0, 0.04);
  g_assert_cmpfloat (rx->mean_rtt_ms, ==, rx->min_rtt_ms);
  g_assert_cmpfloat (rx->max_rtt_ms, ==, rx->min_rtt_ms);
  g_assert_cmpuint (rx->reports->len, ==, 1);
  rep = &g_array_index (rx->reports, CsStreamRtcpReport, 0);
  g_assert_cmpuint (rep->frame, ==, 200);
  g_assert_cmpuint (rep->sr_frame, ==, 100);
  g_assert_cmpuint (rx->frames->len, ==, 2);
  g_assert_cmpuint (g_array_index (rx->frames, guint32, 0), ==, 100);
  g_assert_cmpuint (g_array_index (rx->frames, guint32, 1), ==, 200);
  /* The RR came from Y's source: attached to Y, but it holds no SR and no report about Y. */
  ry = cs_stream_get_rtcp (y);
  g_assert_nonnull (ry);
  g_assert_cmpuint (ry->n_sr, ==, 0);
  g_assert_cmpuint (ry->n_rr, ==, 0);
  g_assert_null (ry->cname);
  g_assert_cmpuint (ry->frames->len, ==, 1);
  g_assert_cmpuint (g_array_index (ry->frames, guint32, 0), ==, 200);
}

/* A report block names X, but comes from a host that does not receive X: not X's. A second
 * stream with the same SSRC on another flow gets only what its own flow carries. */
static void
test_flow_must_match (void)
{
  g_autoptr (GPtrArray) streams = g_ptr_array_new_with_free_func (g_object_unref);
  Datagrams ds = { 0 };
  CsStream *x, *x_other_leg;
  const CsStreamRtcp *r;

  x = make_stream (1, 1, 5000, 2, 6000, SSRC_X);
  x_other_leg = make_stream (2, 2, 7000, 3, 8000, SSRC_X);
  g_ptr_array_add (streams, x);
  g_ptr_array_add (streams, x_other_leg);
  make_rr (add_datagram (&ds, 9, 6001, 1, 5001, 10, T0), SSRC_Y, SSRC_X, 10, 1, 8, 0, 0);
  make_rr (add_datagram (&ds, 3, 8001, 2, 7001, 11, T0 + MS), SSRC_Y, SSRC_X, 20, 2, 16, 0, 0);
  /* LSR naming an SR the capture does not hold: no RTT */
  make_rr (add_datagram (&ds, 3, 8001, 2, 7001, 12, T0 + 2 * MS), SSRC_Y, SSRC_X, 5, 3, 24,
           0x12345678, 100);
  finish_datagrams (&ds);
  cs_stream_rtcp_attach (streams, ds.d, ds.n);

  g_assert_null (cs_stream_get_rtcp (x));
  r = cs_stream_get_rtcp (x_other_leg);
  g_assert_nonnull (r);
  g_assert_cmpuint (r->n_rr, ==, 2);
  g_assert_cmpuint (r->last_fraction_lost, ==, 5);
  g_assert_cmpuint (r->max_fraction_lost, ==, 20);
  g_assert_cmpint (r->last_cumulative_lost, ==, 3);
  g_assert_cmpfloat_with_epsilon (r->max_jitter_ms, 3.0, 1e-9);
  g_assert_cmpuint (r->n_rtt, ==, 0);
  g_assert_cmpfloat (r->mean_rtt_ms, <, 0);
  g_assert_cmpuint (g_array_index (r->reports, CsStreamRtcpReport, 1).sr_frame, ==, 0);
}

/* rtcp-mux (RTCP on the RTP ports) and an XR VoIP metrics block about the stream. */
static void
test_mux_and_xr (void)
{
  g_autoptr (GPtrArray) streams = g_ptr_array_new_with_free_func (g_object_unref);
  Datagrams ds = { 0 };
  CsStream *x;
  const CsStreamRtcp *r;

  x = make_stream (1, 1, 5000, 2, 6000, SSRC_X);
  g_ptr_array_add (streams, x);
  make_xr (add_datagram (&ds, 2, 6000, 1, 5000, 42, T0), SSRC_Y, SSRC_X);
  finish_datagrams (&ds);
  cs_stream_rtcp_attach (streams, ds.d, ds.n);

  r = cs_stream_get_rtcp (x);
  g_assert_nonnull (r);
  g_assert_true (r->has_xr_voip);
  g_assert_cmpfloat_with_epsilon (r->xr_mos_lq, 3.9, 1e-9);
  g_assert_cmpfloat (r->xr_mos_cq, <, 0);
  g_assert_cmpfloat_with_epsilon (r->xr_r_factor, 82.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (r->xr_loss_rate, 13 / 256.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (r->xr_burst_density, 0.5, 1e-9);
  g_assert_cmpuint (r->xr_burst_duration_ms, ==, 120);
  g_assert_cmpuint (r->xr_gap_duration_ms, ==, 3000);
  g_assert_cmpuint (r->n_sr, ==, 0);
  g_assert_cmpuint (r->n_rr, ==, 0);
  g_assert_cmpuint (r->frames->len, ==, 1);
  g_assert_cmpuint (g_array_index (r->frames, guint32, 0), ==, 42);
}

/* Truncated and garbage datagrams attach nothing and do not crash. */
static void
test_damaged (void)
{
  g_autoptr (GPtrArray) streams = g_ptr_array_new_with_free_func (g_object_unref);
  CsStream *x = make_stream (1, 1, 5000, 2, 6000, SSRC_X);
  Buf rr;
  CsEndpoint src, dst;
  CsRtcpDatagram d = { 0 };
  GRand *rand = g_rand_new_with_seed (7);

  g_ptr_array_add (streams, x);
  endpoint (&src, 2, 6001);
  endpoint (&dst, 1, 5001);
  make_rr (&rr, SSRC_Y, SSRC_X, 1, 1, 1, 1, 1);
  d.src = &src;
  d.dst = &dst;
  d.data = rr.data;
  for (gsize len = 0; len < rr.len; len++)
    {
      d.len = len;
      cs_stream_rtcp_attach (streams, &d, 1);
    }
  g_assert_null (cs_stream_get_rtcp (x));
  for (guint i = 0; i < 2000; i++)
    {
      guint8 junk[64];

      for (guint k = 0; k < sizeof junk; k++)
        junk[k] = g_rand_int_range (rand, 0, 256);
      junk[0] = 0x80 | (junk[0] & 0x1f);
      d.data = junk;
      d.len = g_rand_int_range (rand, 0, sizeof junk + 1);
      cs_stream_rtcp_attach (streams, &d, 1);
    }
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stream-rtcp/sr-rr-rtt", test_sr_rr_rtt);
  g_test_add_func ("/stream-rtcp/flow-must-match", test_flow_must_match);
  g_test_add_func ("/stream-rtcp/mux-and-xr", test_mux_and_xr);
  g_test_add_func ("/stream-rtcp/damaged", test_damaged);
  return g_test_run ();
}
