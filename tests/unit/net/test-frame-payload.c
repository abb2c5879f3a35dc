/* test-frame-payload.c — cs_capture_set_read_payload gives a frame's bytes and the UDP or TCP
 * payload its layers carry, and nothing for frames that carry none of their own */
#include "capture-builder.h"
#include "capture/cs-capture-set.h"
#include "net/cs-frame-payload.h"

#include <string.h>

/* An Ethernet frame: IPv4 (protocol proto, fragment field frag) from 10.0.0.1:5060 to
 * 10.0.0.2:40000 with a UDP or TCP header before payload. */
static GByteArray *
frame_bytes (guint8 proto, guint16 frag, const char *payload)
{
  GByteArray *b = g_byte_array_new ();
  static const guint8 macs[12] = { 2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2 };
  static const guint8 addrs[8] = { 10, 0, 0, 1, 10, 0, 0, 2 };
  guint n = (guint) strlen (payload), l4 = proto == 6 ? 20 : 8;

  put_bytes (b, macs, sizeof macs);
  put_u16 (b, TRUE, 0x0800);
  put_bytes (b, (guint8[]){ 0x45, 0 }, 2);
  put_u16 (b, TRUE, (guint16) (20 + l4 + n));
  put_u16 (b, TRUE, 7);
  put_u16 (b, TRUE, frag);
  put_bytes (b, (guint8[]){ 64, proto, 0, 0 }, 4);
  put_bytes (b, addrs, sizeof addrs);
  put_u16 (b, TRUE, 5060);
  put_u16 (b, TRUE, 40000);
  if (proto == 6)
    {
      put_u32 (b, TRUE, 1000);
      put_u32 (b, TRUE, 0);
      put_bytes (b, (guint8[]){ 0x50, 0x18 }, 2); /* 20-byte header, PSH ACK */
      put_u16 (b, TRUE, 65535);
      put_u32 (b, TRUE, 0);
    }
  else
    {
      put_u16 (b, TRUE, (guint16) (8 + n));
      put_u16 (b, TRUE, 0);
    }
  put_bytes (b, payload, n);
  return b;
}

static void
test_read_payload (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cs-frame-payload-XXXXXX", NULL);
  g_autoptr (GByteArray) file = g_byte_array_new ();
  g_autoptr (GByteArray) udp = frame_bytes (17, 0, "OPTIONS sip:a@b SIP/2.0\r\n\r\n");
  g_autoptr (GByteArray) tcp = frame_bytes (6, 0, "BYE sip:b@a SIP/2.0\r\n\r\n");
  g_autoptr (GByteArray) fragment = frame_bytes (17, 0x2000, "first part");
  static const guint8 arp[42]
      = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 2, 0, 0, 0, 0, 1, 0x08, 0x06 };
  g_autofree char *path = NULL;
  CsCaptureSet *set = cs_capture_set_new ();
  CsFramePayload p;

  pcap_header (file, FALSE, FALSE, 65535, 1);
  pcap_record_data (file, FALSE, 1, 0, udp->data, udp->len);
  pcap_record_data (file, FALSE, 2, 0, tcp->data, tcp->len);
  pcap_record_data (file, FALSE, 3, 0, fragment->data, fragment->len);
  pcap_record_data (file, FALSE, 4, 0, arp, sizeof arp);
  path = write_capture_file (dir, "payloads.pcap", file);
  g_assert_true (cs_capture_set_add_file (set, path, NULL));
  g_assert_true (cs_capture_set_index (set, NULL, NULL, NULL, NULL));

  /* UDP: 14 + 20 + 8 bytes of headers before the text */
  g_assert_true (cs_capture_set_read_payload (set, 1, &p));
  g_assert_true (p.udp);
  g_assert_cmpuint (p.frame.caplen, ==, udp->len);
  g_assert_cmpmem (p.data, p.frame.caplen, udp->data, udp->len);
  g_assert_cmpuint (p.payload_offset, ==, 42);
  g_assert_true (p.payload == p.data + 42);
  g_assert_cmpmem (p.payload, p.payload_len, "OPTIONS sip:a@b SIP/2.0\r\n\r\n", 27);
  g_assert_cmpuint (p.src.port, ==, 5060);
  g_assert_cmpuint (p.dst.port, ==, 40000);
  g_assert_cmpuint (p.dst.addr.bytes[3], ==, 2);
  /* TCP: a 20-byte header */
  g_assert_true (cs_capture_set_read_payload (set, 2, &p));
  g_assert_false (p.udp);
  g_assert_cmpuint (p.payload_offset, ==, 54);
  g_assert_cmpmem (p.payload, p.payload_len, "BYE sip:b@a SIP/2.0\r\n\r\n", 23);
  /* a fragment, ARP, no such frame: nothing of their own */
  g_assert_false (cs_capture_set_read_payload (set, 3, &p));
  g_assert_false (cs_capture_set_read_payload (set, 4, &p));
  g_assert_false (cs_capture_set_read_payload (set, 5, &p));
  g_assert_false (cs_capture_set_read_payload (set, 0, &p));
  g_assert_false (cs_capture_set_read_payload (NULL, 1, &p));
  cs_capture_set_free (set);
  remove_tmp_dir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/frame-payload/read", test_read_payload);
  return g_test_run ();
}
