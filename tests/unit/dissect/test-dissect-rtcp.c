/* test-dissect-rtcp.c — a crafted compound RTCP datagram (SR, SDES, BYE, APP, XR VoIP
 * metrics): each packet a layer, each field at the offset derived here from the bytes */
#include "dissect-test.h"

static GByteArray *
compound (void)
{
  g_autoptr (GByteArray) r = g_byte_array_new ();

  /* SR with one report block: 52 bytes, length 12 (at 0 of the payload) */
  put8 (r, 0x81);
  put8 (r, 200);
  put16 (r, 12);
  put32 (r, 0xaabbccdd);
  put32 (r, 3900000000u); /* NTP MSW */
  put32 (r, 0x80000000u); /* NTP LSW */
  put32 (r, 160000);
  put32 (r, 500);
  put32 (r, 80000);
  put32 (r, 0x01020304);
  put8 (r, 64);
  put8 (r, 0xff); /* cumulative lost -2, 24-bit two's complement */
  put16 (r, 0xfffe);
  put32 (r, 70000);
  put32 (r, 37);
  put32 (r, 0x11223344);
  put32 (r, 6553);
  /* SDES, one chunk: CNAME "alice", END: 16 bytes (at 52) */
  put8 (r, 0x81);
  put8 (r, 202);
  put16 (r, 3);
  put32 (r, 0xaabbccdd);
  put8 (r, 1);
  put8 (r, 5);
  put_bytes (r, "alice", 5);
  put8 (r, 0);
  /* BYE: 8 bytes (at 68) */
  put8 (r, 0x81);
  put8 (r, 203);
  put16 (r, 1);
  put32 (r, 0xaabbccdd);
  /* APP subtype 3 "TEST" with 4 data bytes: 16 bytes (at 76) */
  put8 (r, 0x83);
  put8 (r, 204);
  put16 (r, 3);
  put32 (r, 0xaabbccdd);
  put_bytes (r, "TEST", 4);
  put32 (r, 0xdeadbeef);
  /* XR with a VoIP metrics block: 44 bytes (at 92) */
  put8 (r, 0x80);
  put8 (r, 207);
  put16 (r, 10);
  put32 (r, 0xaabbccdd);
  put8 (r, 7);
  put8 (r, 0);
  put16 (r, 8);
  put32 (r, 0x01020304);
  put8 (r, 12);  /* loss rate */
  put8 (r, 3);   /* discard rate */
  put8 (r, 40);  /* burst density */
  put8 (r, 2);   /* gap density */
  put16 (r, 60); /* burst duration */
  put16 (r, 900);
  put16 (r, 150); /* round trip delay */
  put16 (r, 40);
  put32 (r, 0);
  put8 (r, 93); /* R factor */
  put8 (r, 127);
  put16 (r, 0);
  put32 (r, 0);
  put32 (r, 0);
  return dissect_test_udp_frame (0, 40001, 40003, r->data, r->len);
}

static void
test_compound (void)
{
  g_autoptr (GByteArray) bytes = compound ();
  g_autoptr (CsProtoTree) tree = dissect_test_run (bytes, NULL);
  const guint32 p = 42; /* 14 + 20 + 8 */

  g_assert_cmpuint (bytes->len, ==, p + 136);
  g_assert_cmpstr (cs_proto_tree_get_protocol (tree), ==, "RTCP");
  g_assert_cmpstr (cs_proto_tree_get_info (tree), ==,
                   "Sender Report   Source description   Goodbye   Application specific   "
                   "Extended report (RFC 3611)");
  g_assert_cmpuint (dissect_test_count (tree, "rtcp"), ==, 5);
  /* SR */
  dissect_test_field (tree, "rtcp.version", 0, "2", p, 1);
  dissect_test_field (tree, "rtcp.rc", 0, "1", p, 1);
  dissect_test_field (tree, "rtcp.pt", 0, "200", p + 1, 1);
  dissect_test_field (tree, "rtcp.length", 0, "12", p + 2, 2);
  dissect_test_field (tree, "rtcp.senderssrc", 0, "0xaabbccdd", p + 4, 4);
  dissect_test_field (tree, "rtcp.timestamp.ntp.msw", 0, "3900000000", p + 8, 4);
  dissect_test_field (tree, "rtcp.timestamp.ntp.lsw", 0, "2147483648", p + 12, 4);
  dissect_test_field (tree, "rtcp.timestamp.rtp", 0, "160000", p + 16, 4);
  dissect_test_field (tree, "rtcp.sender.packetcount", 0, "500", p + 20, 4);
  dissect_test_field (tree, "rtcp.sender.octetcount", 0, "80000", p + 24, 4);
  dissect_test_field (tree, "rtcp.ssrc.identifier", 0, "0x01020304", p + 28, 4);
  dissect_test_field (tree, "rtcp.ssrc.fraction", 0, "64", p + 32, 1);
  dissect_test_field (tree, "rtcp.ssrc.cum_nr", 0, "-2", p + 33, 3);
  dissect_test_field (tree, "rtcp.ssrc.ext_high", 0, "70000", p + 36, 4);
  dissect_test_field (tree, "rtcp.ssrc.jitter", 0, "37", p + 40, 4);
  dissect_test_field (tree, "rtcp.ssrc.lsr", 0, "287454020", p + 44, 4);
  dissect_test_field (tree, "rtcp.ssrc.dlsr", 0, "6553", p + 48, 4);
  /* SDES: the chunk's SSRC, CNAME, END */
  dissect_test_field (tree, "rtcp.sc", 0, "1", p + 52, 1);
  dissect_test_field (tree, "rtcp.ssrc.identifier", 1, "0xaabbccdd", p + 56, 4);
  dissect_test_field (tree, "rtcp.sdes.type", 0, "1", p + 60, 1);
  dissect_test_field (tree, "rtcp.sdes.length", 0, "5", p + 61, 1);
  dissect_test_field (tree, "rtcp.sdes.text", 0, "alice", p + 62, 5);
  dissect_test_field (tree, "rtcp.sdes.type", 1, "0", p + 67, 1);
  /* BYE */
  dissect_test_field (tree, "rtcp.pt", 2, "203", p + 69, 1);
  dissect_test_field (tree, "rtcp.ssrc.identifier", 2, "0xaabbccdd", p + 72, 4);
  /* APP */
  dissect_test_field (tree, "rtcp.app.subtype", 0, "3", p + 76, 1);
  dissect_test_field (tree, "rtcp.senderssrc", 1, "0xaabbccdd", p + 80, 4);
  dissect_test_field (tree, "rtcp.app.name", 0, "TEST", p + 84, 4);
  /* XR VoIP metrics */
  dissect_test_field (tree, "rtcp.senderssrc", 2, "0xaabbccdd", p + 96, 4);
  dissect_test_field (tree, "rtcp.xr.bt", 0, "7", p + 100, 1);
  dissect_test_field (tree, "rtcp.xr.bl", 0, "8", p + 102, 2);
  dissect_test_field (tree, "rtcp.ssrc.identifier", 3, "0x01020304", p + 104, 4);
  dissect_test_field (tree, "rtcp.ssrc.fraction", 1, "12", p + 108, 1);
  dissect_test_field (tree, "rtcp.ssrc.discarded", 0, "3", p + 109, 1);
  dissect_test_field (tree, "rtcp.xr.voipmetrics.burstdensity", 0, "40", p + 110, 1);
  dissect_test_field (tree, "rtcp.xr.voipmetrics.rtdelay", 0, "150", p + 116, 2);
  dissect_test_field (tree, "rtcp.xr.voipmetrics.rfactor", 0, "93", p + 124, 1);
}

/* A report whose length runs past the datagram is shown up to the end, never past it. */
static void
test_truncated (void)
{
  g_autoptr (GByteArray) bytes = compound ();
  CsDissectHints hints = { .as = CS_DISSECT_AS_RTCP, .event_pt = -1 };

  for (guint cut = 42 + 4; cut < bytes->len; cut += 3)
    {
      g_autoptr (GByteArray) part = g_byte_array_new ();
      g_autoptr (CsProtoTree) tree = NULL;

      put_bytes (part, bytes->data, cut);
      /* keep the IP and UDP lengths of the whole datagram: the capture cut it */
      tree = dissect_test_run (part, &hints);
      g_assert_nonnull (cs_proto_tree_find (tree, "frame"));
      for (guint i = 0; i < cs_proto_tree_get_n_nodes (tree); i++)
        {
          const CsProtoNode *node = cs_proto_tree_get_node (tree, i);

          g_assert_cmpuint (node->offset + node->length, <=, cut);
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/dissect-rtcp/compound", test_compound);
  g_test_add_func ("/dissect-rtcp/truncated", test_truncated);
  return g_test_run ();
}
