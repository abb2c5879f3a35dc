/* test-decode.c — link layer to UDP/TCP decoding on crafted frames */
#include "net/cs-decode-fast.h"

#include "frame-bytes.h"

#include <string.h>

/* ---- frame builders ---- */

static void
put_addr (GByteArray *b, const char *text)
{
  CsAddr a;

  g_assert_true (cs_addr_parse (&a, text));
  put_bytes (b, a.bytes, a.family == 4 ? 4 : 16);
}

static GByteArray *
udp_segment (guint16 sport, guint16 dport, const char *payload)
{
  GByteArray *b = g_byte_array_new ();
  gsize n = strlen (payload);

  put16 (b, sport);
  put16 (b, dport);
  put16 (b, (guint16) (8 + n));
  put16 (b, 0);
  put_bytes (b, payload, n);
  return b;
}

/* options_len: bytes of TCP options (multiple of 4), filled with NOPs. */
static GByteArray *
tcp_segment (guint16 sport, guint16 dport, guint32 seq, guint32 ack, guint8 flags,
             guint options_len, const char *payload)
{
  GByteArray *b = g_byte_array_new ();

  put16 (b, sport);
  put16 (b, dport);
  put32 (b, seq);
  put32 (b, ack);
  put8 (b, (guint8) (((20 + options_len) / 4) << 4));
  put8 (b, flags);
  put16 (b, 65535);
  put16 (b, 0);
  put16 (b, 0);
  for (guint i = 0; i < options_len; i++)
    put8 (b, 1);
  put_bytes (b, payload, strlen (payload));
  return b;
}

/* IPv4 header (options_len NOP bytes, multiple of 4) followed by l4. */
static GByteArray *
ipv4_packet (const char *src, const char *dst, guint8 proto, guint16 id, guint16 flags_offset,
             guint options_len, const GByteArray *l4)
{
  GByteArray *b = g_byte_array_new ();
  guint header_len = 20 + options_len;

  put8 (b, (guint8) (0x40 | (header_len / 4)));
  put8 (b, 0);
  put16 (b, (guint16) (header_len + l4->len));
  put16 (b, id);
  put16 (b, flags_offset);
  put8 (b, 64);
  put8 (b, proto);
  put16 (b, 0);
  put_addr (b, src);
  put_addr (b, dst);
  for (guint i = 0; i < options_len; i++)
    put8 (b, 1);
  put_bytes (b, l4->data, l4->len);
  return b;
}

/* IPv6 header; ext holds the extension headers (already chained), first_next their first type. */
static GByteArray *
ipv6_packet (const char *src, const char *dst, guint8 first_next, const GByteArray *ext,
             const GByteArray *l4)
{
  GByteArray *b = g_byte_array_new ();
  guint ext_len = ext != NULL ? ext->len : 0;

  put32 (b, 0x60000000);
  put16 (b, (guint16) (ext_len + l4->len));
  put8 (b, first_next);
  put8 (b, 64);
  put_addr (b, src);
  put_addr (b, dst);
  if (ext != NULL)
    put_bytes (b, ext->data, ext->len);
  put_bytes (b, l4->data, l4->len);
  return b;
}

/* An 8-byte hop-by-hop / destination options header (PadN). */
static void
put_ext_options (GByteArray *b, guint8 next)
{
  put8 (b, next);
  put8 (b, 0);
  put8 (b, 1);
  put8 (b, 4);
  put32 (b, 0);
}

static void
put_ext_fragment (GByteArray *b, guint8 next, guint16 offset, gboolean more, guint32 id)
{
  put8 (b, next);
  put8 (b, 0);
  put16 (b, (guint16) (offset | (more ? 1 : 0)));
  put32 (b, id);
}

/* Ethernet header with the given VLAN tags (tpid, vid pairs) then ethertype and the packet. */
static GByteArray *
ethernet_frame (const guint16 *tags, guint n_tags, guint16 type, const GByteArray *packet)
{
  static const guint8 macs[12] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
  GByteArray *b = g_byte_array_new ();

  put_bytes (b, macs, 12);
  for (guint i = 0; i < n_tags; i++)
    {
      put16 (b, tags[2 * i]);
      put16 (b, (guint16) (0x2000 | tags[2 * i + 1])); /* priority 1 */
    }
  put16 (b, type);
  put_bytes (b, packet->data, packet->len);
  return b;
}

static GByteArray *
prefixed (const guint8 *prefix, gsize prefix_len, const GByteArray *packet)
{
  GByteArray *b = g_byte_array_new ();

  put_bytes (b, prefix, prefix_len);
  put_bytes (b, packet->data, packet->len);
  return b;
}

static void
free_arrays (GByteArray *a, GByteArray *b, GByteArray *c)
{
  g_byte_array_unref (a);
  if (b != NULL)
    g_byte_array_unref (b);
  if (c != NULL)
    g_byte_array_unref (c);
}

#define SIP_PING "OPTIONS sip:a@b SIP/2.0\r\n\r\n"

static void
assert_endpoint (const CsEndpoint *ep, const char *expected)
{
  char buf[CS_ENDPOINT_STRLEN];

  g_assert_cmpstr (cs_endpoint_to_string (ep, buf), ==, expected);
}

static void
assert_payload (const CsPacket *p, const char *expected)
{
  g_assert_cmpuint (p->payload_len, ==, strlen (expected));
  g_assert_cmpmem (p->payload, p->payload_len, expected, strlen (expected));
}

/* ---- tests ---- */

static void
test_ethernet_ipv4_udp (void)
{
  GByteArray *udp = udp_segment (5060, 5080, SIP_PING);
  GByteArray *ip = ipv4_packet ("10.0.0.1", "10.0.0.2", 17, 1, 0x4000, 0, udp);
  GByteArray *frame = ethernet_frame (NULL, 0, 0x0800, ip);
  CsPacket p;

  g_assert_cmpint (cs_decode_frame (1, frame->data, frame->len, &p), ==, CS_DECODE_OK);
  assert_endpoint (&p.src, "10.0.0.1:5060");
  assert_endpoint (&p.dst, "10.0.0.2:5080");
  g_assert_cmpuint (p.ip_version, ==, 4);
  g_assert_cmpuint (p.ip_proto, ==, 17);
  g_assert_cmpuint (p.vlan, ==, 0);
  g_assert_cmpuint (p.transport_offset, ==, 34);
  assert_payload (&p, SIP_PING);
  g_assert_true (p.payload == frame->data + 42);
  free_arrays (udp, ip, frame);
}

static void
test_ethernet_padding_trimmed (void)
{
  GByteArray *udp = udp_segment (1000, 2000, "hi");
  GByteArray *ip = ipv4_packet ("192.168.1.1", "192.168.1.2", 17, 7, 0, 0, udp);
  GByteArray *frame = ethernet_frame (NULL, 0, 0x0800, ip);
  CsPacket p;

  /* Pad to the 60-byte Ethernet minimum with bytes that must not show up in the payload. */
  while (frame->len < 60)
    put8 (frame, 0xee);
  g_assert_cmpint (cs_decode_frame (1, frame->data, frame->len, &p), ==, CS_DECODE_OK);
  assert_payload (&p, "hi");
  free_arrays (udp, ip, frame);
}

static void
test_ipv4_options_tcp_options (void)
{
  GByteArray *tcp = tcp_segment (40000, 5060, 1000, 2000, CS_TCP_ACK | CS_TCP_PSH, 12, SIP_PING);
  GByteArray *ip = ipv4_packet ("10.1.1.1", "10.2.2.2", 6, 2, 0, 8, tcp);
  GByteArray *frame = ethernet_frame (NULL, 0, 0x0800, ip);
  CsPacket p;

  g_assert_cmpint (cs_decode_frame (1, frame->data, frame->len, &p), ==, CS_DECODE_OK);
  g_assert_cmpuint (p.ip_proto, ==, CS_IP_PROTO_TCP);
  assert_endpoint (&p.src, "10.1.1.1:40000");
  assert_endpoint (&p.dst, "10.2.2.2:5060");
  g_assert_cmpuint (p.tcp_seq, ==, 1000);
  g_assert_cmpuint (p.tcp_ack, ==, 2000);
  g_assert_cmpuint (p.tcp_flags, ==, CS_TCP_ACK | CS_TCP_PSH);
  g_assert_cmpuint (p.transport_offset, ==, 14 + 28);
  assert_payload (&p, SIP_PING);
  free_arrays (tcp, ip, frame);
}

static void
test_vlan_stacks (void)
{
  GByteArray *udp = udp_segment (5060, 5060, SIP_PING);
  GByteArray *ip = ipv4_packet ("10.0.0.1", "10.0.0.2", 17, 1, 0, 0, udp);
  const guint16 single[] = { 0x8100, 100 };
  const guint16 qinq[] = { 0x88a8, 200, 0x8100, 300 };
  const guint16 old_qinq[] = { 0x9100, 7, 0x9100, 8, 0x8100, 9 };
  struct
  {
    const guint16 *tags;
    guint n;
    guint16 vlan;
  } cases[] = { { single, 1, 100 }, { qinq, 2, 200 }, { old_qinq, 3, 7 } };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GByteArray *frame = ethernet_frame (cases[i].tags, cases[i].n, 0x0800, ip);
      CsPacket p;

      g_assert_cmpint (cs_decode_frame (1, frame->data, frame->len, &p), ==, CS_DECODE_OK);
      g_assert_cmpuint (p.vlan, ==, cases[i].vlan);
      g_assert_cmpuint (p.transport_offset, ==, 14 + 4 * cases[i].n + 20);
      assert_payload (&p, SIP_PING);
      g_byte_array_unref (frame);
    }
  free_arrays (udp, ip, NULL);
}

static void
test_mpls_and_pppoe (void)
{
  GByteArray *udp = udp_segment (5060, 5060, SIP_PING);
  GByteArray *ip = ipv4_packet ("10.0.0.1", "10.0.0.2", 17, 1, 0, 0, udp);
  GByteArray *labels = g_byte_array_new ();
  CsPacket p;

  put32 (labels, (16 << 12) | 64);         /* label 16, not bottom */
  put32 (labels, (17 << 12) | 0x100 | 64); /* label 17, bottom of stack */
  put_bytes (labels, ip->data, ip->len);
  GByteArray *mpls = ethernet_frame (NULL, 0, 0x8847, labels);
  g_assert_cmpint (cs_decode_frame (1, mpls->data, mpls->len, &p), ==, CS_DECODE_OK);
  assert_payload (&p, SIP_PING);

  GByteArray *pppoe_body = g_byte_array_new ();
  put8 (pppoe_body, 0x11);
  put8 (pppoe_body, 0);
  put16 (pppoe_body, 0x1234);
  put16 (pppoe_body, (guint16) (ip->len + 2));
  put16 (pppoe_body, 0x0021);
  put_bytes (pppoe_body, ip->data, ip->len);
  GByteArray *pppoe = ethernet_frame (NULL, 0, 0x8864, pppoe_body);
  g_assert_cmpint (cs_decode_frame (1, pppoe->data, pppoe->len, &p), ==, CS_DECODE_OK);
  assert_endpoint (&p.dst, "10.0.0.2:5060");
  free_arrays (udp, ip, labels);
  free_arrays (mpls, pppoe_body, pppoe);
}

static void
test_link_types (void)
{
  GByteArray *udp = udp_segment (5060, 5062, SIP_PING);
  GByteArray *ip4 = ipv4_packet ("10.0.0.1", "10.0.0.2", 17, 1, 0, 0, udp);
  GByteArray *ip6 = ipv6_packet ("2001:db8::1", "2001:db8::2", 17, NULL, udp);
  const guint8 sll4[16] = { 0, 0, 0, 1, 0, 6, 1, 2, 3, 4, 5, 6, 0, 0, 0x08, 0x00 };
  const guint8 sll6[16] = { 0, 4, 0, 1, 0, 6, 1, 2, 3, 4, 5, 6, 0, 0, 0x86, 0xdd };
  const guint8 sll2_4[20] = { 0x08, 0x00, 0, 0, 0, 0, 0, 3, 0, 1, 0, 6, 1, 2, 3, 4, 5, 6, 0, 0 };
  const guint8 null_le4[4] = { 2, 0, 0, 0 };
  const guint8 null_be4[4] = { 0, 0, 0, 2 };
  const guint8 null_le30[4] = { 30, 0, 0, 0 };
  const guint8 null_be24[4] = { 0, 0, 0, 24 };
  const guint8 null_le28[4] = { 28, 0, 0, 0 };
  const guint8 null_other[4] = { 7, 0, 0, 0 };
  struct
  {
    guint linktype;
    const guint8 *prefix;
    gsize prefix_len;
    GByteArray *ip;
    CsDecodeStatus status;
    guint8 version;
  } cases[] = {
    { 113, sll4, 16, ip4, CS_DECODE_OK, 4 },         { 113, sll6, 16, ip6, CS_DECODE_OK, 6 },
    { 276, sll2_4, 20, ip4, CS_DECODE_OK, 4 },       { 0, null_le4, 4, ip4, CS_DECODE_OK, 4 },
    { 0, null_be4, 4, ip4, CS_DECODE_OK, 4 },        { 0, null_le30, 4, ip6, CS_DECODE_OK, 6 },
    { 108, null_be24, 4, ip6, CS_DECODE_OK, 6 },     { 108, null_le28, 4, ip6, CS_DECODE_OK, 6 },
    { 0, null_other, 4, ip4, CS_DECODE_NOT_IP, 0 },  { 12, NULL, 0, ip4, CS_DECODE_OK, 4 },
    { 14, NULL, 0, ip6, CS_DECODE_OK, 6 },           { 101, NULL, 0, ip4, CS_DECODE_OK, 4 },
    { 101, NULL, 0, ip6, CS_DECODE_OK, 6 },          { 228, NULL, 0, ip4, CS_DECODE_OK, 4 },
    { 229, NULL, 0, ip6, CS_DECODE_OK, 6 },          { 228, NULL, 0, ip6, CS_DECODE_MALFORMED, 0 },
    { 147, NULL, 0, ip4, CS_DECODE_UNSUPPORTED, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      GByteArray *frame = prefixed (cases[i].prefix, cases[i].prefix_len, cases[i].ip);
      CsPacket p;

      g_test_message ("case %u: linktype %u", i, cases[i].linktype);
      g_assert_cmpint (cs_decode_frame (cases[i].linktype, frame->data, frame->len, &p), ==,
                       cases[i].status);
      if (cases[i].status == CS_DECODE_OK)
        {
          g_assert_cmpuint (p.ip_version, ==, cases[i].version);
          g_assert_cmpuint (p.src.port, ==, 5060);
          g_assert_cmpuint (p.dst.port, ==, 5062);
          assert_endpoint (&p.dst, cases[i].version == 4 ? "10.0.0.2:5062" : "[2001:db8::2]:5062");
          assert_payload (&p, SIP_PING);
        }
      g_byte_array_unref (frame);
    }
  free_arrays (udp, ip4, ip6);
}

static void
test_ipv6_extension_headers (void)
{
  GByteArray *tcp = tcp_segment (5060, 5061, 7, 8, CS_TCP_ACK, 0, SIP_PING);
  GByteArray *ext = g_byte_array_new ();
  CsPacket p;

  put_ext_options (ext, 43); /* hop-by-hop -> routing */
  put8 (ext, 60);            /* routing (type 0 segments left 0, 16 bytes) -> dest options */
  put8 (ext, 1);
  put8 (ext, 0);
  put8 (ext, 0);
  put32 (ext, 0);
  put32 (ext, 0);
  put32 (ext, 0);
  put_ext_options (ext, 6); /* destination options -> TCP */
  GByteArray *ip = ipv6_packet ("fe80::1", "fe80::2", 0, ext, tcp);
  GByteArray *frame = ethernet_frame (NULL, 0, 0x86dd, ip);

  g_assert_cmpint (cs_decode_frame (1, frame->data, frame->len, &p), ==, CS_DECODE_OK);
  g_assert_cmpuint (p.ip_version, ==, 6);
  g_assert_cmpuint (p.ip_proto, ==, 6);
  g_assert_cmpuint (p.transport_offset, ==, 14 + 40 + 32);
  assert_endpoint (&p.src, "[fe80::1]:5060");
  assert_payload (&p, SIP_PING);
  free_arrays (tcp, ext, ip);
  g_byte_array_unref (frame);
}

static void
test_ipv6_no_next_header (void)
{
  GByteArray *empty = g_byte_array_new ();
  GByteArray *ip = ipv6_packet ("::1", "::1", 59, NULL, empty);
  CsPacket p;

  g_assert_cmpint (cs_decode_frame (229, ip->data, ip->len, &p), ==, CS_DECODE_UNSUPPORTED);
  g_assert_cmpuint (p.ip_proto, ==, 59);
  free_arrays (empty, ip, NULL);
}

static void
test_ipv6_fragment (void)
{
  GByteArray *udp = udp_segment (5060, 5060, SIP_PING);
  GByteArray *ext = g_byte_array_new ();
  CsPacket p;

  put_ext_options (ext, 44);
  put_ext_fragment (ext, 17, 0, TRUE, 0xdeadbeef);
  GByteArray *ip = ipv6_packet ("2001:db8::a", "2001:db8::b", 0, ext, udp);
  g_assert_cmpint (cs_decode_frame (229, ip->data, ip->len, &p), ==, CS_DECODE_FRAGMENT);
  g_assert_cmpuint (p.frag.id, ==, 0xdeadbeef);
  g_assert_cmpuint (p.frag.offset, ==, 0);
  g_assert_true (p.frag.more);
  g_assert_cmpuint (p.frag.len, ==, udp->len);
  g_assert_cmpmem (p.frag.data, p.frag.len, udp->data, udp->len);
  g_assert_cmpuint (p.ip_proto, ==, 17);
  g_assert_cmpuint (p.transport_offset, ==, 40 + 16);

  /* The reassembled payload decodes to UDP with the addresses kept. */
  g_assert_cmpint (cs_decode_transport (p.frag.data, p.frag.len, &p), ==, CS_DECODE_OK);
  assert_endpoint (&p.src, "[2001:db8::a]:5060");
  assert_payload (&p, SIP_PING);
  free_arrays (udp, ext, ip);
}

static void
test_ipv6_atomic_fragment (void)
{
  GByteArray *udp = udp_segment (5060, 5070, SIP_PING);
  GByteArray *ext = g_byte_array_new ();
  CsPacket p;

  put_ext_fragment (ext, 17, 0, FALSE, 42);
  GByteArray *ip = ipv6_packet ("2001:db8::a", "2001:db8::b", 44, ext, udp);
  g_assert_cmpint (cs_decode_frame (229, ip->data, ip->len, &p), ==, CS_DECODE_OK);
  g_assert_cmpuint (p.dst.port, ==, 5070);
  assert_payload (&p, SIP_PING);
  free_arrays (udp, ext, ip);
}

static void
test_ipv4_fragment (void)
{
  GByteArray *udp = udp_segment (5060, 5060, SIP_PING);
  GByteArray *ip = ipv4_packet ("10.0.0.1", "10.0.0.2", 17, 0x4242, 0x2000 | 185, 0, udp);
  CsPacket p;

  g_assert_cmpint (cs_decode_frame (228, ip->data, ip->len, &p), ==, CS_DECODE_FRAGMENT);
  g_assert_cmpuint (p.frag.id, ==, 0x4242);
  g_assert_cmpuint (p.frag.offset, ==, 185 * 8);
  g_assert_true (p.frag.more);
  g_assert_cmpuint (p.frag.len, ==, udp->len);
  g_assert_cmpuint (p.src.port, ==, 0);

  /* A fragment that was not captured whole cannot be reassembled. */
  g_assert_cmpint (cs_decode_frame (228, ip->data, ip->len - 1, &p), ==, CS_DECODE_MALFORMED);

  /* Last fragment: MF clear, offset set. */
  ip->data[6] = 0x00;
  g_assert_cmpint (cs_decode_frame (228, ip->data, ip->len, &p), ==, CS_DECODE_FRAGMENT);
  g_assert_false (p.frag.more);
  free_arrays (udp, ip, NULL);
}

static void
test_ip_in_ip (void)
{
  GByteArray *udp = udp_segment (5060, 5060, SIP_PING);
  GByteArray *inner = ipv4_packet ("172.16.0.1", "172.16.0.2", 17, 1, 0, 0, udp);
  GByteArray *outer = ipv4_packet ("10.0.0.1", "10.0.0.2", 4, 2, 0, 0, inner);
  CsPacket p;

  g_assert_cmpint (cs_decode_frame (101, outer->data, outer->len, &p), ==, CS_DECODE_OK);
  assert_endpoint (&p.src, "172.16.0.1:5060");
  assert_payload (&p, SIP_PING);
  free_arrays (udp, inner, outer);
}

static void
test_not_ip_and_unsupported (void)
{
  GByteArray *arp_body = g_byte_array_new ();
  CsPacket p;

  for (guint i = 0; i < 28; i++)
    put8 (arp_body, 0);
  GByteArray *arp = ethernet_frame (NULL, 0, 0x0806, arp_body);
  g_assert_cmpint (cs_decode_frame (1, arp->data, arp->len, &p), ==, CS_DECODE_NOT_IP);
  GByteArray *llc = ethernet_frame (NULL, 0, 46, arp_body); /* 802.3 length field */
  g_assert_cmpint (cs_decode_frame (1, llc->data, llc->len, &p), ==, CS_DECODE_NOT_IP);

  GByteArray *icmp = ipv4_packet ("10.0.0.1", "10.0.0.2", 1, 1, 0, 0, arp_body);
  g_assert_cmpint (cs_decode_frame (228, icmp->data, icmp->len, &p), ==, CS_DECODE_UNSUPPORTED);
  g_assert_cmpuint (p.ip_proto, ==, 1);
  assert_endpoint (&p.src, "10.0.0.1:0");
  free_arrays (arp_body, arp, llc);
  g_byte_array_unref (icmp);
}

static void
test_malformed_headers (void)
{
  GByteArray *udp = udp_segment (5060, 5060, SIP_PING);
  GByteArray *ip = ipv4_packet ("10.0.0.1", "10.0.0.2", 17, 1, 0, 0, udp);
  GByteArray *tcp = tcp_segment (1, 2, 3, 4, CS_TCP_ACK, 0, "x");
  GByteArray *ip_tcp = ipv4_packet ("10.0.0.1", "10.0.0.2", 6, 1, 0, 0, tcp);
  CsPacket p;

  ip->data[0] = 0x44; /* IHL 4 < 5 */
  g_assert_cmpint (cs_decode_frame (228, ip->data, ip->len, &p), ==, CS_DECODE_MALFORMED);
  ip->data[0] = 0x45;
  ip->data[2] = 0;
  ip->data[3] = 10; /* total length shorter than the header */
  g_assert_cmpint (cs_decode_frame (228, ip->data, ip->len, &p), ==, CS_DECODE_MALFORMED);
  ip->data[3] = (guint8) ip->len;
  ip->data[20 + 4] = 0;
  ip->data[20 + 5] = 4; /* UDP length < 8 */
  g_assert_cmpint (cs_decode_frame (228, ip->data, ip->len, &p), ==, CS_DECODE_MALFORMED);
  ip->data[20 + 5] = 12; /* UDP length shorter than the datagram: payload trimmed to 4 */
  g_assert_cmpint (cs_decode_frame (228, ip->data, ip->len, &p), ==, CS_DECODE_OK);
  g_assert_cmpuint (p.payload_len, ==, 4);
  ip->data[0] = 0x65; /* version 6 in an IPv4 link type */
  g_assert_cmpint (cs_decode_frame (228, ip->data, ip->len, &p), ==, CS_DECODE_MALFORMED);

  ip_tcp->data[20 + 12] = 0x40; /* TCP data offset 16 bytes */
  g_assert_cmpint (cs_decode_frame (228, ip_tcp->data, ip_tcp->len, &p), ==, CS_DECODE_MALFORMED);
  ip_tcp->data[20 + 12] = 0xf0; /* 60 bytes: more than the segment */
  g_assert_cmpint (cs_decode_frame (228, ip_tcp->data, ip_tcp->len, &p), ==, CS_DECODE_MALFORMED);
  free_arrays (udp, ip, tcp);
  g_byte_array_unref (ip_tcp);
}

/* Every prefix of a valid frame: headers cut short are MALFORMED; once the transport header is
 * complete the payload is exactly the captured part, never past the end. */
static void
check_all_prefixes (guint linktype, const GByteArray *frame, gsize transport_end,
                    gsize full_payload_len, CsDecodeStatus full_status)
{
  for (gsize n = 0; n <= frame->len; n++)
    {
      guint8 *copy = g_memdup2 (frame->data, n);
      CsPacket p;
      CsDecodeStatus status = cs_decode_frame (linktype, copy, n, &p);

      if (full_status == CS_DECODE_FRAGMENT)
        g_assert_cmpint (status, ==, n == frame->len ? CS_DECODE_FRAGMENT : CS_DECODE_MALFORMED);
      else if (n < transport_end)
        g_assert_cmpint (status, ==, CS_DECODE_MALFORMED);
      else
        {
          g_assert_cmpint (status, ==, full_status);
          g_assert_cmpuint (p.payload_len, ==, MIN (full_payload_len, n - transport_end));
          g_assert_true (p.payload == copy + transport_end);
        }
      g_free (copy);
    }
}

static void
test_truncated_prefixes (void)
{
  GByteArray *udp = udp_segment (5060, 5060, SIP_PING);
  GByteArray *ip4 = ipv4_packet ("10.0.0.1", "10.0.0.2", 17, 1, 0, 4, udp);
  const guint16 qinq[] = { 0x88a8, 10, 0x8100, 20 };
  GByteArray *eth4 = ethernet_frame (qinq, 2, 0x0800, ip4);
  check_all_prefixes (1, eth4, 14 + 8 + 24 + 8, strlen (SIP_PING), CS_DECODE_OK);

  GByteArray *tcp = tcp_segment (5060, 5060, 1, 2, CS_TCP_ACK, 8, SIP_PING);
  GByteArray *ext = g_byte_array_new ();
  put_ext_options (ext, 60);
  put_ext_options (ext, 6);
  GByteArray *ip6 = ipv6_packet ("2001:db8::1", "2001:db8::2", 0, ext, tcp);
  GByteArray *sll2 = g_byte_array_new ();
  const guint8 sll2_6[20] = { 0x86, 0xdd, 0, 0, 0, 0, 0, 3, 0, 1, 0, 6, 1, 2, 3, 4, 5, 6, 0, 0 };
  put_bytes (sll2, sll2_6, 20);
  put_bytes (sll2, ip6->data, ip6->len);
  check_all_prefixes (276, sll2, 20 + 40 + 16 + 28, strlen (SIP_PING), CS_DECODE_OK);

  GByteArray *frag_ext = g_byte_array_new ();
  put_ext_fragment (frag_ext, 17, 8, FALSE, 9);
  GByteArray *ip6_frag = ipv6_packet ("2001:db8::1", "2001:db8::2", 44, frag_ext, udp);
  check_all_prefixes (229, ip6_frag, 0, 0, CS_DECODE_FRAGMENT);

  free_arrays (udp, ip4, eth4);
  free_arrays (tcp, ext, ip6);
  free_arrays (sll2, frag_ext, ip6_frag);
}

static gsize
link_header_len (guint linktype)
{
  switch (linktype)
    {
    case 1:
      return 14;
    case 113:
      return 16;
    case 276:
      return 20;
    case 0:
    case 108:
      return 4;
    default:
      return 0;
    }
}

/* Random bytes behind every link type: any status, but a payload always inside the frame. */
static void
test_random_frames (void)
{
  static const guint linktypes[] = { 0, 1, 12, 101, 108, 113, 228, 229, 276 };
  GRand *rand = g_rand_new_with_seed (1234);
  guint8 buf[128];

  for (guint iter = 0; iter < 40000; iter++)
    {
      gsize n = g_rand_int_range (rand, 0, sizeof buf + 1);
      guint linktype = linktypes[iter % G_N_ELEMENTS (linktypes)];
      CsPacket p;

      for (gsize i = 0; i < n; i++)
        buf[i] = (guint8) g_rand_int (rand);
      /* Make the interesting paths likely: a plausible IP version nibble after the link header. */
      if (n > 40 && iter % 2 == 0)
        buf[link_header_len (linktype)] = (iter % 4 == 0) ? 0x45 : 0x60;
      guint8 *copy = g_memdup2 (buf, n);
      CsDecodeStatus status = cs_decode_frame (linktype, copy, n, &p);
      if (status == CS_DECODE_OK)
        {
          g_assert_true (p.payload >= copy && p.payload + p.payload_len <= copy + n);
          g_assert_true (p.ip_version == 4 || p.ip_version == 6);
        }
      else if (status == CS_DECODE_FRAGMENT)
        g_assert_true (p.frag.data >= copy && p.frag.data + p.frag.len <= copy + n);
      g_free (copy);
    }
  g_rand_free (rand);
}

/* The fast path (cs-decode-fast.h) against the layered decoder alone, over IPv4/UDP frames
 * bent in every way the fast path looks at (header length, flags and fragment offset,
 * protocol, both lengths, captured bytes) behind every link header it reads: whatever it
 * takes, the layered decoder decodes to the same packet. */
static void
test_fast_path_equals_layered (void)
{
  static const struct
  {
    guint linktype;
    guint8 header[20];
    guint len;
  } links[] = {
    { 1, { 2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2, 0x08, 0x00 }, 14 },
    { 1, { 2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2, 0x81, 0x00, 0x20, 0x64, 0x08, 0x00 }, 18 },
    { 113, { 0, 0, 0, 1, 0, 6, 2, 0, 0, 0, 0, 1, 0, 0, 0x08, 0x00 }, 16 },
    { 276, { 0x08, 0x00, 0, 0, 0, 0, 0, 2, 0, 1, 0, 6, 2, 0, 0, 0, 0, 1, 0, 0 }, 20 },
    { 101, { 0 }, 0 },
    { 228, { 0 }, 0 },
    { 12, { 0 }, 0 },
  };
  static const guint8 version_ihl[] = { 0x45, 0x46, 0x44, 0x55, 0x65 };
  static const guint16 frags[] = { 0, 0x4000, 0x8000, 0x2000, 0x0001, 0x1fff };
  static const guint8 protos[] = { 17, 6, 1 };
  static const int total_deltas[] = { 0, -1, 1, -20, 200, G_MININT };     /* G_MININT: 0 */
  static const int udp_deltas[] = { 0, -1, 1, -12, 300, G_MININT, -100 }; /* G_MININT: 0 */
  static const guint cuts[] = { 0, 1, 13, 40 };
  guint taken = 0, tried = 0;

  for (guint l = 0; l < G_N_ELEMENTS (links); l++)
    for (guint v = 0; v < G_N_ELEMENTS (version_ihl); v++)
      for (guint f = 0; f < G_N_ELEMENTS (frags); f++)
        for (guint pr = 0; pr < G_N_ELEMENTS (protos); pr++)
          for (guint t = 0; t < G_N_ELEMENTS (total_deltas); t++)
            for (guint u = 0; u < G_N_ELEMENTS (udp_deltas); u++)
              for (guint c = 0; c < G_N_ELEMENTS (cuts); c++)
                {
                  g_autoptr (GByteArray) b = g_byte_array_new ();
                  guint ihl = (version_ihl[v] & 0x0f) * 4;
                  guint payload = 32, total = MAX (ihl, 20) + 8 + payload;
                  int tl = total_deltas[t] == G_MININT ? 0 : (int) total + total_deltas[t];
                  int ul = udp_deltas[u] == G_MININT ? 0 : 8 + (int) payload + udp_deltas[u];
                  CsPacket fast, layered;
                  CsDecodeStatus status;

                  put_bytes (b, links[l].header, links[l].len);
                  put8 (b, version_ihl[v]);
                  put8 (b, 0);
                  put16 (b, (guint16) MAX (tl, 0));
                  put16 (b, 0x1234);
                  put16 (b, frags[f]);
                  put8 (b, 64);
                  put8 (b, protos[pr]);
                  put16 (b, 0);
                  put_addr (b, "10.0.0.1");
                  put_addr (b, "192.168.7.9");
                  for (guint i = 20; i < MAX (ihl, 20); i++)
                    put8 (b, 1);
                  put16 (b, 5060);
                  put16 (b, 40000);
                  put16 (b, (guint16) MAX (ul, 0));
                  put16 (b, 0);
                  for (guint i = 0; i < payload; i++)
                    put8 (b, (guint8) (0x80 + i));
                  g_byte_array_set_size (b, b->len - MIN (cuts[c], b->len));

                  tried++;
                  memset (&fast, 0xa5, sizeof fast);
                  if (!cs_decode_frame_fast (links[l].linktype, b->data, b->len, &fast))
                    continue;
                  taken++;
                  status = cs_decode_frame_layered (links[l].linktype, b->data, b->len, &layered);
                  g_assert_cmpint (status, ==, CS_DECODE_OK);
                  g_assert_true (cs_endpoint_equal (&fast.src, &layered.src));
                  g_assert_true (cs_endpoint_equal (&fast.dst, &layered.dst));
                  g_assert_cmpuint (fast.ip_version, ==, layered.ip_version);
                  g_assert_cmpuint (fast.ip_proto, ==, layered.ip_proto);
                  g_assert_cmpuint (fast.vlan, ==, layered.vlan);
                  g_assert_cmpuint (fast.transport_offset, ==, layered.transport_offset);
                  g_assert_true (fast.payload == layered.payload);
                  g_assert_cmpuint (fast.payload_len, ==, layered.payload_len);
                }
  /* the usual frames (and their bent lengths) take the fast path, the rest do not */
  g_assert_cmpuint (taken, >, 7 * 2 * 1 * 20);
  g_assert_cmpuint (taken, <, tried / 4);
  g_test_message ("%u of %u frames took the fast path", taken, tried);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/decode/ethernet-ipv4-udp", test_ethernet_ipv4_udp);
  g_test_add_func ("/decode/ethernet-padding", test_ethernet_padding_trimmed);
  g_test_add_func ("/decode/ipv4-options-tcp-options", test_ipv4_options_tcp_options);
  g_test_add_func ("/decode/vlan-qinq", test_vlan_stacks);
  g_test_add_func ("/decode/mpls-pppoe", test_mpls_and_pppoe);
  g_test_add_func ("/decode/link-types", test_link_types);
  g_test_add_func ("/decode/ipv6-extension-headers", test_ipv6_extension_headers);
  g_test_add_func ("/decode/ipv6-no-next-header", test_ipv6_no_next_header);
  g_test_add_func ("/decode/ipv6-fragment", test_ipv6_fragment);
  g_test_add_func ("/decode/ipv6-atomic-fragment", test_ipv6_atomic_fragment);
  g_test_add_func ("/decode/ipv4-fragment", test_ipv4_fragment);
  g_test_add_func ("/decode/ip-in-ip", test_ip_in_ip);
  g_test_add_func ("/decode/not-ip-unsupported", test_not_ip_and_unsupported);
  g_test_add_func ("/decode/malformed", test_malformed_headers);
  g_test_add_func ("/decode/truncated-prefixes", test_truncated_prefixes);
  g_test_add_func ("/decode/random-frames", test_random_frames);
  g_test_add_func ("/decode/fast-path-equals-layered", test_fast_path_equals_layered);
  return g_test_run ();
}
