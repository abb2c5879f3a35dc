/* test-dissect.c — the protocol tree of crafted frames: every field's value (as tshark prints
 * it), offset and length derived by hand from the bytes written here */
#include "dissect-test.h"

#include "net/cs-hep.h"

/* RTP with P, X and two CSRCs, marker, PT 0, an RFC 8285 one-byte extension with two elements,
 * 4 payload bytes and 4 bytes of padding; in a VLAN-tagged frame: RTP starts at 18+20+8 = 46. */
static GByteArray *
rtp_frame (guint8 pt, const guint8 *payload, gsize n, gboolean full)
{
  g_autoptr (GByteArray) rtp = g_byte_array_new ();
  static const guint8 ext[8] = { 0x10, 0xaa, 0x00, 0x33, 1, 2, 3, 4 };

  put8 (rtp, full ? 0xb2 : 0x80);
  put8 (rtp, (guint8) ((full ? 0x80 : 0) | pt));
  put16 (rtp, 1234);
  put32 (rtp, 160000);
  put32 (rtp, 0x1a2b3c4d);
  if (full)
    {
      put32 (rtp, 0x11111111);
      put32 (rtp, 0x22222222);
      put16 (rtp, 0xbede);
      put16 (rtp, 2);
      put_bytes (rtp, ext, sizeof ext);
    }
  put_bytes (rtp, payload, n);
  if (full)
    put32 (rtp, 4);
  return dissect_test_udp_frame (100, 40000, 40002, rtp->data, rtp->len);
}

static void
test_rtp_fields (void)
{
  static const guint8 voice[4] = { 0xff, 0xfe, 0xfd, 0xfc };
  g_autoptr (GByteArray) bytes = rtp_frame (0, voice, sizeof voice, TRUE);
  CsDissectRtpFigures figures = { 7, 20.0, 0.5, -1.25, 3, "played" };
  CsDissectHints hints = { .number = 9, .as = CS_DISSECT_AS_RTP, .event_pt = -1, .rtp = &figures };
  g_autoptr (CsProtoTree) tree = dissect_test_run (bytes, &hints);
  int at;

  g_assert_cmpstr (cs_proto_tree_get_protocol (tree), ==, "RTP");
  g_assert_cmpstr (cs_proto_tree_get_info (tree), ==,
                   "PT=PCMU, SSRC=0x1A2B3C4D, Seq=1234, Time=160000, Mark");
  g_assert_cmpstr (cs_proto_tree_get_source (tree), ==, "10.0.0.1");
  g_assert_cmpstr (cs_proto_tree_get_destination (tree), ==, "10.0.0.2");
  dissect_test_field (tree, "frame.number", 0, "9", 0, 0);
  dissect_test_field (tree, "frame.time_epoch", 0, "1700000000.123456789", 0, 0);
  dissect_test_field (tree, "frame.len", 0, "86", 0, 0);
  dissect_test_field (tree, "eth.dst", 0, "02:00:00:00:00:01", 0, 6);
  dissect_test_field (tree, "eth.src", 0, "02:00:00:00:00:02", 6, 6);
  dissect_test_field (tree, "eth.type", 0, "0x8100", 12, 2);
  dissect_test_field (tree, "vlan.priority", 0, "5", 14, 2);
  dissect_test_field (tree, "vlan.id", 0, "100", 14, 2);
  dissect_test_field (tree, "vlan.etype", 0, "0x0800", 16, 2);
  dissect_test_field (tree, "ip.hdr_len", 0, "20", 18, 1);
  dissect_test_field (tree, "ip.dsfield", 0, "0xb8", 19, 1);
  dissect_test_field (tree, "ip.dsfield.dscp", 0, "46", 19, 1);
  dissect_test_field (tree, "ip.len", 0, "68", 20, 2);
  dissect_test_field (tree, "ip.id", 0, "0x1234", 22, 2);
  dissect_test_field (tree, "ip.flags", 0, "0x02", 24, 1);
  dissect_test_field (tree, "ip.flags.df", 0, "1", 24, 1);
  dissect_test_field (tree, "ip.flags.mf", 0, "0", 24, 1);
  dissect_test_field (tree, "ip.ttl", 0, "64", 26, 1);
  dissect_test_field (tree, "ip.proto", 0, "17", 27, 1);
  dissect_test_field (tree, "ip.checksum", 0, "0xbeef", 28, 2);
  dissect_test_field (tree, "ip.src", 0, "10.0.0.1", 30, 4);
  dissect_test_field (tree, "ip.dst", 0, "10.0.0.2", 34, 4);
  dissect_test_field (tree, "udp.srcport", 0, "40000", 38, 2);
  dissect_test_field (tree, "udp.dstport", 0, "40002", 40, 2);
  dissect_test_field (tree, "udp.length", 0, "48", 42, 2);
  dissect_test_field (tree, "rtp.version", 0, "2", 46, 1);
  dissect_test_field (tree, "rtp.padding", 0, "1", 46, 1);
  dissect_test_field (tree, "rtp.ext", 0, "1", 46, 1);
  dissect_test_field (tree, "rtp.cc", 0, "2", 46, 1);
  dissect_test_field (tree, "rtp.marker", 0, "1", 47, 1);
  dissect_test_field (tree, "rtp.p_type", 0, "0", 47, 1);
  dissect_test_field (tree, "rtp.seq", 0, "1234", 48, 2);
  dissect_test_field (tree, "rtp.timestamp", 0, "160000", 50, 4);
  dissect_test_field (tree, "rtp.ssrc", 0, "0x1a2b3c4d", 54, 4);
  dissect_test_field (tree, "rtp.csrc.item", 0, "0x11111111", 58, 4);
  dissect_test_field (tree, "rtp.csrc.item", 1, "0x22222222", 62, 4);
  dissect_test_field (tree, "rtp.ext.profile", 0, "0xbede", 66, 2);
  dissect_test_field (tree, "rtp.ext.len", 0, "2", 68, 2);
  g_assert_cmpuint (dissect_test_count (tree, "rtp.ext.rfc5285.id"), ==, 2);
  dissect_test_field (tree, "rtp.ext.rfc5285.id", 0, "1", 70, 1);
  dissect_test_field (tree, "rtp.ext.rfc5285.data", 0, "aa", 71, 1);
  /* the zero byte at 72 pads between the elements */
  dissect_test_field (tree, "rtp.ext.rfc5285.id", 1, "3", 73, 1);
  dissect_test_field (tree, "rtp.ext.rfc5285.len", 1, "4", 73, 1);
  dissect_test_field (tree, "rtp.ext.rfc5285.data", 1, "01020304", 74, 4);
  dissect_test_field (tree, "rtp.payload", 0, "fffefdfc", 78, 4);
  dissect_test_field (tree, "rtp.padding.count", 0, "4", 85, 1);
  dissect_test_field (tree, "callscope.rtp.delta", 0, "20.000", 0, 0);
  dissect_test_field (tree, "callscope.rtp.skew", 0, "-1.250", 0, 0);
  dissect_test_field (tree, "callscope.rtp.lost_before", 0, "3", 0, 0);
  dissect_test_field (tree, "callscope.rtp.jitter_buffer", 0, "played", 0, 0);
  g_assert_true (dissect_test_nth (tree, "callscope.rtp.jitter", 0)->computed);
  g_assert_false (dissect_test_nth (tree, "rtp.seq", 0)->computed);

  /* a click on the sequence number's second byte selects it; on the TTL, ip.ttl */
  at = cs_proto_tree_node_at_offset (tree, 49);
  g_assert_cmpint (at, >=, 0);
  g_assert_cmpstr (cs_proto_tree_get_node (tree, (guint) at)->name, ==, "rtp.seq");
  at = cs_proto_tree_node_at_offset (tree, 26);
  g_assert_cmpstr (cs_proto_tree_get_node (tree, (guint) at)->name, ==, "ip.ttl");
  {
    g_autofree char *filter = cs_dissect_display_filter (dissect_test_nth (tree, "rtp.seq", 0));
    g_autofree char *ssrc = cs_dissect_display_filter (dissect_test_nth (tree, "rtp.ssrc", 0));
    g_autofree char *mine
        = cs_dissect_display_filter (dissect_test_nth (tree, "callscope.rtp.delta", 0));

    g_assert_cmpstr (filter, ==, "rtp.seq == 1234");
    g_assert_cmpstr (ssrc, ==, "rtp.ssrc == 0x1a2b3c4d");
    g_assert_null (mine); /* not a Wireshark field */
  }
}

static void
test_rtp_event (void)
{
  static const guint8 event[4] = { 5, 0x80, 0x03, 0x20 };
  g_autoptr (GByteArray) bytes = rtp_frame (101, event, sizeof event, FALSE);
  CsDissectHints hints = { .as = CS_DISSECT_AS_RTP, .event_pt = 101 };
  g_autoptr (CsProtoTree) tree = dissect_test_run (bytes, &hints);

  g_assert_cmpstr (cs_proto_tree_get_protocol (tree), ==, "RTP EVENT");
  g_assert_cmpstr (cs_proto_tree_get_info (tree), ==, "DTMF 5 End");
  /* RTP at 46, its 12-byte header, the event at 58 */
  dissect_test_field (tree, "rtpevent.event_id", 0, "5", 58, 1);
  dissect_test_field (tree, "rtpevent.end_of_event", 0, "1", 59, 1);
  dissect_test_field (tree, "rtpevent.volume", 0, "0", 59, 1);
  dissect_test_field (tree, "rtpevent.duration", 0, "800", 60, 2);
}

/* Without the analysis, a datagram with a valid RTP header on an unknown port is RTP. */
static void
test_rtp_guessed (void)
{
  static const guint8 voice[2] = { 1, 2 };
  g_autoptr (GByteArray) bytes = rtp_frame (8, voice, sizeof voice, FALSE);
  g_autoptr (CsProtoTree) tree = dissect_test_run (bytes, NULL);

  g_assert_cmpstr (cs_proto_tree_get_info (tree), ==,
                   "PT=PCMA, SSRC=0x1A2B3C4D, Seq=1234, Time=160000");
  g_assert_null (cs_proto_tree_find (tree, "callscope.rtp"));
}

static const char sip_invite[] = "INVITE sip:bob@example.com SIP/2.0\r\n"
                                 "Via: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK1\r\n"
                                 "i: abc@host\r\n"
                                 "Subject: hello\r\n"
                                 "  world\r\n"
                                 "\tagain\r\n"
                                 "CSeq: 1 INVITE\r\n"
                                 "X-Custom: yes\r\n"
                                 "Content-Type: application/sdp\r\n"
                                 "l: 84\r\n"
                                 "\r\n"
                                 "v=0\r\n"
                                 "c=IN IP4 10.0.0.1\r\n"
                                 "m=audio 4000 RTP/AVP 0 101\r\n"
                                 "a=rtpmap:0 PCMU/8000\r\n"
                                 "a=sendrecv"; /* no line break: the body ends the datagram */

static void
test_sip_invite (void)
{
  g_autoptr (GByteArray) bytes
      = dissect_test_udp_frame (0, 5060, 5060, (const guint8 *) sip_invite, strlen (sip_invite));
  g_autoptr (CsProtoTree) tree = dissect_test_run (bytes, NULL);
  guint32 sip = 42; /* 14 + 20 + 8 */
  const char *body = strstr (sip_invite, "v=0");
  guint32 m = sip + (guint32) (strstr (sip_invite, "m=audio") - sip_invite);

  g_assert_cmpuint (strlen (body), ==, 84);
  g_assert_cmpstr (cs_proto_tree_get_protocol (tree), ==, "SIP/SDP");
  g_assert_cmpstr (cs_proto_tree_get_info (tree), ==, "Request: INVITE sip:bob@example.com");
  dissect_test_field (tree, "sip.Request-Line", 0, "INVITE sip:bob@example.com SIP/2.0", sip, 34);
  dissect_test_field (tree, "sip.Method", 0, "INVITE", sip, 6);
  dissect_test_field (tree, "sip.r-uri", 0, "sip:bob@example.com", sip + 7, 19);
  dissect_test_field (tree, "sip.Via", 0, "SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK1", sip + 36,
                      46);
  /* the compact form is named by its long form; a folded value is unfolded */
  dissect_test_field (tree, "sip.Call-ID", 0, "abc@host", sip + 84, 11);
  g_assert_cmpstr (dissect_test_nth (tree, "sip.Subject", 0)->value, ==, "hello world again");
  g_assert_cmpstr (dissect_test_nth (tree, "sip.unknown_header", 0)->label, ==, "X-Custom: yes");
  g_assert_cmpstr (dissect_test_nth (tree, "sip.Content-Length", 0)->value, ==, "84");
  dissect_test_field (tree, "sdp.version", 0, "0", sip + (guint32) (body - sip_invite), 3);
  dissect_test_field (tree, "sdp.connection_info", 0, "IN IP4 10.0.0.1",
                      sip + (guint32) (body - sip_invite) + 5, 17);
  dissect_test_field (tree, "sdp.media", 0, "audio 4000 RTP/AVP 0 101", m, 26);
  dissect_test_field (tree, "sdp.media.media", 0, "audio", m + 2, 5);
  dissect_test_field (tree, "sdp.media.port", 0, "4000", m + 8, 4);
  dissect_test_field (tree, "sdp.media.proto", 0, "RTP/AVP", m + 13, 7);
  g_assert_cmpuint (dissect_test_count (tree, "sdp.media_attr"), ==, 2);
  g_assert_cmpstr (dissect_test_nth (tree, "sdp.media_attr", 1)->value, ==, "sendrecv");
  g_assert_cmpstr (dissect_test_nth (tree, "sdp.media_attribute.value", 0)->value, ==,
                   "0 PCMU/8000");
  {
    g_autofree char *filter = cs_dissect_display_filter (dissect_test_nth (tree, "sip.Call-ID", 0));

    g_assert_cmpstr (filter, ==, "sip.Call-ID == \"abc@host\"");
  }
}

static void
test_sip_response (void)
{
  static const char ok[] = "SIP/2.0 200 OK\r\nCSeq: 1 INVITE\r\nContent-Length: 0\r\n\r\n";
  g_autoptr (GByteArray) bytes
      = dissect_test_udp_frame (0, 5060, 5060, (const guint8 *) ok, strlen (ok));
  g_autoptr (CsProtoTree) tree = dissect_test_run (bytes, NULL);

  g_assert_cmpstr (cs_proto_tree_get_protocol (tree), ==, "SIP");
  g_assert_cmpstr (cs_proto_tree_get_info (tree), ==, "Status: 200 OK (INVITE)");
  dissect_test_field (tree, "sip.Status-Code", 0, "200", 50, 3);
  dissect_test_field (tree, "sip.Status-Line", 0, "SIP/2.0 200 OK", 42, 14);
}

/* IPv6 (raw link type) and TCP carrying two SIP messages back to back. */
static void
test_ipv6_tcp (void)
{
  static const char two[] = "OPTIONS sip:a SIP/2.0\r\nContent-Length: 0\r\n\r\n"
                            "SIP/2.0 200 OK\r\nContent-Length: 0\r\n\r\n";
  g_autoptr (GByteArray) b = g_byte_array_new ();
  g_autoptr (CsProtoTree) tree = NULL;
  CsAddr src, dst;
  gsize n = strlen (two);

  g_assert_true (cs_addr_parse (&src, "2001:db8::1"));
  g_assert_true (cs_addr_parse (&dst, "2001:db8::2"));
  put32 (b, 0x6012345a); /* traffic class 0x01, flow 0x2345a */
  put16 (b, (guint16) (20 + n));
  put8 (b, 6);
  put8 (b, 60);
  put_bytes (b, src.bytes, 16);
  put_bytes (b, dst.bytes, 16);
  put16 (b, 5060);
  put16 (b, 40001);
  put32 (b, 1000);
  put32 (b, 2000);
  put16 (b, 0x5018); /* data offset 5, PSH ACK */
  put16 (b, 512);
  put16 (b, 0xabcd);
  put16 (b, 0);
  put_bytes (b, two, n);
  tree = dissect_test_run_link (b, 101, NULL);
  dissect_test_field (tree, "ipv6.tclass", 0, "0x00000001", 0, 2);
  dissect_test_field (tree, "ipv6.flow", 0, "0x02345a", 1, 3);
  dissect_test_field (tree, "ipv6.plen", 0, "101", 4, 2);
  dissect_test_field (tree, "ipv6.nxt", 0, "6", 6, 1);
  dissect_test_field (tree, "ipv6.hlim", 0, "60", 7, 1);
  dissect_test_field (tree, "ipv6.src", 0, "2001:db8::1", 8, 16);
  dissect_test_field (tree, "tcp.seq_raw", 0, "1000", 44, 4);
  dissect_test_field (tree, "tcp.ack_raw", 0, "2000", 48, 4);
  dissect_test_field (tree, "tcp.flags", 0, "0x0018", 52, 2);
  dissect_test_field (tree, "tcp.flags.push", 0, "1", 53, 1);
  dissect_test_field (tree, "tcp.flags.syn", 0, "0", 53, 1);
  dissect_test_field (tree, "tcp.window_size_value", 0, "512", 54, 2);
  dissect_test_field (tree, "tcp.len", 0, "81", 60, 81);
  g_assert_cmpuint (dissect_test_count (tree, "sip"), ==, 2);
  dissect_test_field (tree, "sip.Method", 0, "OPTIONS", 60, 7);
  dissect_test_field (tree, "sip.Status-Code", 0, "200", 60 + 44 + 8, 3);
  g_assert_cmpstr (cs_proto_tree_get_info (tree), ==, "Status: 200 OK");
}

/* SIP inside HEP3: the chunks, then the message at its offset in the frame. */
static void
test_hep (void)
{
  static const char msg[] = "BYE sip:a@b SIP/2.0\r\nContent-Length: 0\r\n\r\n";
  CsHepPacket in = { 0 };
  g_autoptr (GByteArray) hep = NULL;
  g_autoptr (GByteArray) bytes = NULL;
  g_autoptr (CsProtoTree) tree = NULL;
  const CsProtoNode *method;

  in.ip_proto = 17;
  g_assert_true (cs_addr_parse (&in.src.addr, "192.0.2.1"));
  g_assert_true (cs_addr_parse (&in.dst.addr, "192.0.2.2"));
  in.src.port = 5060;
  in.dst.port = 5062;
  in.ts_ns = G_GINT64_CONSTANT (1700000000000000000);
  in.payload_type = CS_HEP_PROTO_SIP;
  in.capture_id = 2001;
  in.payload = (const guint8 *) msg;
  in.payload_len = strlen (msg);
  hep = cs_hep3_encode (&in);
  bytes = dissect_test_udp_frame (0, 9060, 9060, hep->data, hep->len);
  tree = dissect_test_run (bytes, NULL);
  g_assert_cmpstr (cs_proto_tree_get_protocol (tree), ==, "SIP");
  dissect_test_field (tree, "hep.version", 0, "3", 42, 4);
  g_assert_cmpstr (dissect_test_nth (tree, "hep.src_ip", 0)->value, ==, "192.0.2.1");
  g_assert_cmpstr (dissect_test_nth (tree, "hep.dst_port", 0)->value, ==, "5062");
  g_assert_cmpstr (dissect_test_nth (tree, "hep.capture_id", 0)->value, ==, "2001");
  g_assert_cmpstr (dissect_test_nth (tree, "hep.timestamp_sec", 0)->value, ==, "1700000000");
  /* the message is the HEP packet's last bytes */
  method = dissect_test_nth (tree, "sip.Method", 0);
  g_assert_cmpstr (method->value, ==, "BYE");
  g_assert_cmpuint (method->offset, ==, bytes->len - strlen (msg));
}

/* Damage: a frame cut inside its UDP header, a link type nobody knows, an empty frame. */
static void
test_damaged (void)
{
  static const guint8 payload[4] = { 0x80, 0, 0, 1 };
  g_autoptr (GByteArray) bytes = dissect_test_udp_frame (0, 1, 2, payload, sizeof payload);
  g_autoptr (GByteArray) empty = g_byte_array_new ();

  for (guint cut = 0; cut < bytes->len; cut++)
    {
      g_autoptr (GByteArray) part = g_byte_array_new ();
      g_autoptr (CsProtoTree) tree = NULL;

      put_bytes (part, bytes->data, cut);
      tree = dissect_test_run (part, NULL);
      g_assert_nonnull (cs_proto_tree_find (tree, "frame"));
      if (cut < 14)
        g_assert_nonnull (cs_proto_tree_find (tree, "_ws.malformed"));
    }
  {
    g_autoptr (CsProtoTree) tree = dissect_test_run_link (bytes, 4242, NULL);

    dissect_test_field (tree, "data.len", 0, "46", 0, 46);
  }
  {
    g_autoptr (CsProtoTree) tree = dissect_test_run (empty, NULL);

    g_assert_cmpstr (cs_proto_tree_get_info (tree), ==, "[Malformed Packet]");
  }
}

/* A summary tree keeps the list columns only. */
static void
test_summary (void)
{
  static const guint8 voice[2] = { 1, 2 };
  g_autoptr (GByteArray) bytes = rtp_frame (0, voice, sizeof voice, TRUE);
  g_autoptr (CsProtoTree) tree = cs_proto_tree_new_summary ();
  CsFrame frame = { 0 };

  frame.caplen = frame.origlen = bytes->len;
  frame.linktype = 1;
  cs_dissect_frame (tree, &frame, bytes->data, NULL);
  g_assert_cmpuint (cs_proto_tree_get_n_nodes (tree), ==, 0);
  g_assert_cmpstr (cs_proto_tree_get_protocol (tree), ==, "RTP");
  g_assert_cmpstr (cs_proto_tree_get_info (tree), ==,
                   "PT=PCMU, SSRC=0x1A2B3C4D, Seq=1234, Time=160000, Mark");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/dissect/rtp-fields", test_rtp_fields);
  g_test_add_func ("/dissect/rtp-event", test_rtp_event);
  g_test_add_func ("/dissect/rtp-guessed", test_rtp_guessed);
  g_test_add_func ("/dissect/sip-invite", test_sip_invite);
  g_test_add_func ("/dissect/sip-response", test_sip_response);
  g_test_add_func ("/dissect/ipv6-tcp", test_ipv6_tcp);
  g_test_add_func ("/dissect/hep", test_hep);
  g_test_add_func ("/dissect/damaged", test_damaged);
  g_test_add_func ("/dissect/summary", test_summary);
  return g_test_run ();
}
