/* test-rtp.c — RTP header parsing and RTCP recognition on crafted bytes */
#include "rtp/cs-rtp.h"

static void
test_plain_header (void)
{
  const guint8 pkt[]
      = { 0x80, 0x88, 0x12, 0x34, 0x00, 0x00, 0x0f, 0xa0, 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4 };
  CsRtpHeader h;
  CsRtpPacket p;

  g_assert_true (cs_rtp_parse_header (pkt, sizeof pkt, &h));
  g_assert_cmpuint (h.version, ==, 2);
  g_assert_cmpuint (h.marker, ==, 1);
  g_assert_cmpuint (h.payload_type, ==, 8);
  g_assert_cmpuint (h.seq, ==, 0x1234);
  g_assert_cmpuint (h.timestamp, ==, 4000);
  g_assert_cmpuint (h.ssrc, ==, 0xdeadbeef);
  g_assert_cmpuint (h.header_len, ==, 12);
  g_assert_cmpuint (h.payload_len, ==, 4);

  cs_rtp_packet_from_header (&h, 123456789, 7, &p);
  g_assert_cmpint (p.arrival_ns, ==, 123456789);
  g_assert_cmpuint (p.frame, ==, 7);
  g_assert_cmpuint (p.seq, ==, 0x1234);
  g_assert_cmpuint (p.payload_type, ==, 8);
  g_assert_cmpuint (p.payload_len, ==, 4);
  g_assert_cmpuint (p.flags, ==, CS_RTP_FLAG_MARKER);
}

static void
test_csrc_extension_padding (void)
{
  /* CC=1, X=1, P=1: header 12 + 4 (CSRC) + 4 + 4 (ext, 1 word); payload 3; padding 3 */
  const guint8 pkt[] = { 0xb1, 0x00, 0,    1, 0,    0,    0, 0, 0, 0, 0, 1, /* fixed */
                         0,    0,    0,    9,                               /* CSRC */
                         0xbe, 0xde, 0,    1, 0x10, 0xff, 0, 0,             /* extension */
                         0xaa, 0xbb, 0xcc,                                  /* payload */
                         0,    0,    3 };                                   /* padding */
  CsRtpHeader h;

  g_assert_true (cs_rtp_parse_header (pkt, sizeof pkt, &h));
  g_assert_cmpuint (h.csrc_count, ==, 1);
  g_assert_cmpuint (h.extension, ==, 1);
  g_assert_cmpuint (h.padding, ==, 1);
  g_assert_cmpuint (h.header_len, ==, 24);
  g_assert_cmpuint (h.padding_len, ==, 3);
  g_assert_cmpuint (h.payload_len, ==, 3);
}

static void
test_rejects_bad_headers (void)
{
  const guint8 v1[] = { 0x40, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1 };
  const guint8 short_pkt[] = { 0x80, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0 };
  const guint8 csrc_overrun[] = { 0x8f, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0 };
  const guint8 ext_overrun[] = { 0x90, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0xbe, 0xde, 0, 5 };
  const guint8 pad_zero[] = { 0xa0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0 };
  const guint8 pad_too_big[] = { 0xa0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 9 };
  CsRtpHeader h;

  g_assert_false (cs_rtp_parse_header (v1, sizeof v1, &h));
  g_assert_false (cs_rtp_parse_header (short_pkt, sizeof short_pkt, &h));
  g_assert_false (cs_rtp_parse_header (csrc_overrun, sizeof csrc_overrun, &h));
  g_assert_false (cs_rtp_parse_header (ext_overrun, sizeof ext_overrun, &h));
  g_assert_false (cs_rtp_parse_header (pad_zero, sizeof pad_zero, &h));
  g_assert_false (cs_rtp_parse_header (pad_too_big, sizeof pad_too_big, &h));
  g_assert_false (cs_rtp_parse_header (NULL, 0, &h));
}

static void
test_rtcp_looks_like (void)
{
  /* RR (no blocks, 8 bytes) + SDES with one CNAME chunk (12 bytes) */
  const guint8 compound[]
      = { 0x80, 201, 0, 1, 0, 0, 0, 1, 0x81, 202, 0, 2, 0, 0, 0, 1, 1, 1, 'a', 0 };
  const guint8 bad_length[] = { 0x80, 201, 0, 2, 0, 0, 0, 1 };
  const guint8 rtp_like[] = { 0x80, 0x08, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1 };
  const guint8 trailing[] = { 0x80, 200, 0, 1, 0, 0, 0, 1, 0xff };

  g_assert_true (cs_rtcp_looks_like (compound, sizeof compound));
  g_assert_false (cs_rtcp_looks_like (bad_length, sizeof bad_length));
  g_assert_false (cs_rtcp_looks_like (rtp_like, sizeof rtp_like));
  g_assert_false (cs_rtcp_looks_like (trailing, sizeof trailing));
  g_assert_false (cs_rtcp_looks_like (compound, 4));
}

static void
test_random_bytes_never_overrun (void)
{
  GRand *rand = g_rand_new_with_seed (4733);

  for (guint i = 0; i < 20000; i++)
    {
      guint8 buf[64];
      gsize len = g_rand_int_range (rand, 0, sizeof buf + 1);
      CsRtpHeader h;

      for (gsize k = 0; k < len; k++)
        buf[k] = (guint8) g_rand_int (rand);
      buf[0] = (buf[0] & 0x3f) | 0x80;
      /* exact-size heap copy so any over-read is caught by sanitizers */
      g_autofree guint8 *copy = g_memdup2 (buf, len);
      if (cs_rtp_parse_header (copy, len, &h))
        g_assert_cmpuint (h.header_len + h.payload_len + h.padding_len, ==, len);
      cs_rtcp_looks_like (copy, len);
    }
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rtp/plain-header", test_plain_header);
  g_test_add_func ("/rtp/csrc-extension-padding", test_csrc_extension_padding);
  g_test_add_func ("/rtp/rejects-bad-headers", test_rejects_bad_headers);
  g_test_add_func ("/rtp/rtcp-looks-like", test_rtcp_looks_like);
  g_test_add_func ("/rtp/random-bytes", test_random_bytes_never_overrun);
  return g_test_run ();
}
