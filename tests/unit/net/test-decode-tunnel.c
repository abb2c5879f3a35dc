/* test-decode-tunnel.c — tunnels peeled to the inner packet (hand-built frames whose inner
 * addresses, ports and payload are known), what is not a tunnel left alone, encrypted ESP
 * reported, nesting bounded, and every cut of every frame decoded without reading past it */
#include "net/cs-decode.h"

#include "frame-bytes.h"

#include <string.h>

/* An IPv4 header for body (protocol proto) from 10.9.0.a to 10.9.0.b. */
static GByteArray *
ipv4 (guint8 a, guint8 b, guint8 proto, const GByteArray *body)
{
  GByteArray *ip = g_byte_array_new ();

  put16 (ip, 0x4500);
  put16 (ip, (guint16) (20 + body->len));
  put32 (ip, 0);
  put8 (ip, 64);
  put8 (ip, proto);
  put16 (ip, 0);
  put_bytes (ip, (guint8[]){ 10, 9, 0, a, 10, 9, 0, b }, 8);
  put_bytes (ip, body->data, body->len);
  return ip;
}

/* An IPv6 header for body from 2001:db8::a to 2001:db8::b. */
static GByteArray *
ipv6 (guint8 a, guint8 b, guint8 next, const GByteArray *body)
{
  GByteArray *ip = g_byte_array_new ();
  guint8 src[16] = { 0x20, 0x01, 0x0d, 0xb8 }, dst[16] = { 0x20, 0x01, 0x0d, 0xb8 };

  src[15] = a;
  dst[15] = b;
  put32 (ip, 0x60000000u);
  put16 (ip, (guint16) body->len);
  put8 (ip, next);
  put8 (ip, 64);
  put_bytes (ip, src, 16);
  put_bytes (ip, dst, 16);
  put_bytes (ip, body->data, body->len);
  return ip;
}

static GByteArray *
udp (guint16 sport, guint16 dport, const void *payload, gsize n)
{
  GByteArray *b = g_byte_array_new ();

  put16 (b, sport);
  put16 (b, dport);
  put16 (b, (guint16) (8 + n));
  put16 (b, 0);
  put_bytes (b, payload, n);
  return b;
}

static GByteArray *
ethernet (guint16 type, const GByteArray *body)
{
  GByteArray *f = g_byte_array_new ();

  put_bytes (f, (guint8[]){ 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1 }, 12);
  put16 (f, type);
  put_bytes (f, body->data, body->len);
  return f;
}

static GByteArray *
concat (const void *header, gsize n, const GByteArray *body)
{
  GByteArray *b = g_byte_array_new ();

  put_bytes (b, header, n);
  put_bytes (b, body->data, body->len);
  return b;
}

static const char payload[] = "INVITE sip:bob@example.com SIP/2.0\r\n";

/* The inner packet every tunnel carries: 10.9.0.1:5060 -> 10.9.0.2:5062, the SIP line. */
static GByteArray *
inner_ip (void)
{
  g_autoptr (GByteArray) u = udp (5060, 5062, payload, strlen (payload));

  return ipv4 (1, 2, 17, u);
}

/* Decodes an Ethernet frame and checks the inner packet and the layer list. */
static void
assert_inner (const GByteArray *frame, guint n_tunnels, const CsTunnelKind *kinds)
{
  CsPacket p;

  g_assert_cmpint (cs_decode_frame (CS_LINKTYPE_ETHERNET, frame->data, frame->len, &p), ==,
                   CS_DECODE_OK);
  g_assert_cmpuint (p.ip_proto, ==, 17);
  g_assert_cmpuint (p.src.addr.family, ==, 4);
  g_assert_cmpmem (p.src.addr.bytes, 4, ((guint8[]){ 10, 9, 0, 1 }), 4);
  g_assert_cmpmem (p.dst.addr.bytes, 4, ((guint8[]){ 10, 9, 0, 2 }), 4);
  g_assert_cmpuint (p.src.port, ==, 5060);
  g_assert_cmpuint (p.dst.port, ==, 5062);
  g_assert_cmpmem (p.payload, p.payload_len, payload, strlen (payload));
  /* the payload is the frame's own bytes, the transport offset points at the inner UDP */
  g_assert_true (p.payload >= frame->data && p.payload + p.payload_len <= frame->data + frame->len);
  g_assert_cmpuint (p.transport_offset + 8, ==, (gsize) (p.payload - frame->data));
  g_assert_cmpuint (p.n_tunnels, ==, n_tunnels);
  for (guint i = 0; i < n_tunnels; i++)
    g_assert_cmpuint (p.tunnels[i].kind, ==, kinds[i]);
}

/* Every prefix of the frame decodes to some status without reading past it (ASan watches). */
static void
assert_every_cut_safe (const GByteArray *frame)
{
  for (guint n = 0; n < frame->len; n++)
    {
      guint8 *copy = g_memdup2 (frame->data, n);
      CsPacket p;
      CsDecodeStatus status = cs_decode_frame (CS_LINKTYPE_ETHERNET, copy, n, &p);

      if (status == CS_DECODE_OK)
        g_assert_true (p.payload >= copy && p.payload + p.payload_len <= copy + n);
      g_free (copy);
    }
}

static void
test_gtp_u (void)
{
  g_autoptr (GByteArray) in = inner_ip ();
  g_autoptr (GByteArray) gtp = g_byte_array_new ();
  g_autoptr (GByteArray) u = NULL, ip = NULL, frame = NULL;
  const CsTunnelKind kinds[] = { CS_TUNNEL_GTP_U };

  /* E set: sequence, N-PDU, next type 0x85 (PDU session container, 1 word), then none */
  put_bytes (gtp, (guint8[]){ 0x34, 0xff }, 2);
  put16 (gtp, (guint16) (8 + in->len));
  put32 (gtp, 0x01020304);
  put_bytes (gtp, (guint8[]){ 0, 0, 0, 0x85, 1, 0x10, 5, 0 }, 8);
  put_bytes (gtp, in->data, in->len);
  u = udp (2152, 2152, gtp->data, gtp->len);
  ip = ipv4 (100, 200, 17, u);
  frame = ethernet (0x0800, ip);
  assert_inner (frame, 1, kinds);
  {
    CsPacket p;

    cs_decode_frame (CS_LINKTYPE_ETHERNET, frame->data, frame->len, &p);
    g_assert_cmpuint (p.tunnels[0].offset, ==, 14 + 20 + 8); /* the GTP header */
  }
  assert_every_cut_safe (frame);
}

static void
test_gtp_u_not_g_pdu (void)
{
  /* an echo request (type 1) on 2152 is GTP signalling: the datagram stays as it is */
  const guint8 echo[] = { 0x32, 1, 0, 4, 0, 0, 0, 0, 0, 7, 0, 0 };
  g_autoptr (GByteArray) u = udp (2152, 2152, echo, sizeof echo);
  g_autoptr (GByteArray) ip = ipv4 (100, 200, 17, u);
  g_autoptr (GByteArray) frame = ethernet (0x0800, ip);
  CsPacket p;

  g_assert_cmpint (cs_decode_frame (CS_LINKTYPE_ETHERNET, frame->data, frame->len, &p), ==,
                   CS_DECODE_OK);
  g_assert_cmpuint (p.n_tunnels, ==, 0);
  g_assert_cmpuint (p.payload_len, ==, sizeof echo);
  g_assert_cmpuint (p.src.addr.bytes[3], ==, 100);
}

static void
test_rtp_on_tunnel_ports (void)
{
  static const guint16 ports[] = { 2152, 4789, 6081 };
  guint8 rtp[172] = { 0x80, 0x08, 0, 1 };

  for (guint i = 0; i < G_N_ELEMENTS (ports); i++)
    {
      g_autoptr (GByteArray) u = udp (ports[i], ports[i], rtp, sizeof rtp);
      g_autoptr (GByteArray) ip = ipv4 (100, 200, 17, u);
      g_autoptr (GByteArray) frame = ethernet (0x0800, ip);
      CsPacket p;

      g_assert_cmpint (cs_decode_frame (CS_LINKTYPE_ETHERNET, frame->data, frame->len, &p), ==,
                       CS_DECODE_OK);
      g_assert_cmpuint (p.n_tunnels, ==, 0);
      g_assert_cmpuint (p.payload_len, ==, sizeof rtp);
      g_assert_cmpuint (p.payload[0], ==, 0x80);
    }
}

static void
test_vxlan_and_geneve (void)
{
  g_autoptr (GByteArray) in = inner_ip ();
  g_autoptr (GByteArray) eth = ethernet (0x0800, in);
  const guint8 vxlan[] = { 0x08, 0, 0, 0, 0, 0x13, 0x89, 0 };
  /* version 0, 2 words of options: class, type, 1 word of data */
  const guint8 geneve[] = { 0x02, 0, 0x65, 0x58, 0, 0, 7, 0, 1, 3, 1, 1, 0xde, 0xad, 0xbe, 0xef };
  const guint8 geneve_ip[] = { 0x00, 0, 0x08, 0x00, 0, 0, 7, 0 };
  g_autoptr (GByteArray) v = concat (vxlan, sizeof vxlan, eth);
  g_autoptr (GByteArray) g = concat (geneve, sizeof geneve, eth);
  g_autoptr (GByteArray) gi = concat (geneve_ip, sizeof geneve_ip, in);
  g_autoptr (GByteArray) vu = udp (51000, 4789, v->data, v->len);
  g_autoptr (GByteArray) gu = udp (51000, 6081, g->data, g->len);
  g_autoptr (GByteArray) giu = udp (6081, 51000, gi->data, gi->len);
  g_autoptr (GByteArray) vip = ipv4 (100, 200, 17, vu);
  g_autoptr (GByteArray) gip = ipv4 (100, 200, 17, gu);
  g_autoptr (GByteArray) giip = ipv4 (100, 200, 17, giu);
  g_autoptr (GByteArray) vf = ethernet (0x0800, vip);
  g_autoptr (GByteArray) gf = ethernet (0x0800, gip);
  g_autoptr (GByteArray) gif = ethernet (0x0800, giip);
  const CsTunnelKind vk[] = { CS_TUNNEL_VXLAN }, gk[] = { CS_TUNNEL_GENEVE };

  assert_inner (vf, 1, vk);
  assert_inner (gf, 1, gk);
  assert_inner (gif, 1, gk);
  assert_every_cut_safe (vf);
  assert_every_cut_safe (gf);
}

static void
test_gre_and_erspan (void)
{
  g_autoptr (GByteArray) in = inner_ip ();
  g_autoptr (GByteArray) eth = ethernet (0x0800, in);
  const guint8 gre_key[] = { 0x20, 0, 0x08, 0x00, 0, 0, 0, 42 };
  const guint8 gre_csum_seq[] = { 0x90, 0, 0x08, 0x00, 0, 0, 0, 0, 0, 0, 0, 9 };
  const guint8 teb[] = { 0, 0, 0x65, 0x58 };
  const guint8 erspan1[] = { 0, 0, 0x88, 0xbe };
  const guint8 erspan2[] = { 0x10, 0, 0x88, 0xbe, 0, 0, 0, 1, 0x10, 100, 0, 7, 0, 0, 0, 0 };
  const guint8 erspan3[]
      = { 0x10, 0, 0x22, 0xeb, 0, 0, 0, 1, 0x20, 100, 0, 7, 0, 0, 0, 9, 0, 0, 0, 0 };
  /* type III with O set: an 8-byte platform subheader before the frame */
  const guint8 erspan3_o[] = { 0x10, 0, 0x22, 0xeb, 0, 0, 0, 1, 0x20, 100, 0, 7, 0, 0,
                               0,    9, 0,    0,    0, 1, 1, 2, 3,    4,   5, 6, 7, 8 };
  struct
  {
    const guint8 *header;
    gsize n;
    gboolean ethernet_inside;
    CsTunnelKind kind;
  } cases[] = {
    { gre_key, sizeof gre_key, FALSE, CS_TUNNEL_GRE },
    { gre_csum_seq, sizeof gre_csum_seq, FALSE, CS_TUNNEL_GRE },
    { teb, sizeof teb, TRUE, CS_TUNNEL_GRE },
    { erspan1, sizeof erspan1, TRUE, CS_TUNNEL_ERSPAN },
    { erspan2, sizeof erspan2, TRUE, CS_TUNNEL_ERSPAN },
    { erspan3, sizeof erspan3, TRUE, CS_TUNNEL_ERSPAN },
    { erspan3_o, sizeof erspan3_o, TRUE, CS_TUNNEL_ERSPAN },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GByteArray) g
          = concat (cases[i].header, cases[i].n, cases[i].ethernet_inside ? eth : in);
      g_autoptr (GByteArray) ip = ipv4 (100, 200, 47, g);
      g_autoptr (GByteArray) frame = ethernet (0x0800, ip);

      assert_inner (frame, 1, &cases[i].kind);
      assert_every_cut_safe (frame);
    }
  /* GRE version 1 (PPTP) is not followed */
  {
    const guint8 pptp[] = { 0x30, 0x01, 0x88, 0x0b, 0, 4, 0, 0 };
    g_autoptr (GByteArray) g = concat (pptp, sizeof pptp, in);
    g_autoptr (GByteArray) ip = ipv4 (100, 200, 47, g);
    g_autoptr (GByteArray) frame = ethernet (0x0800, ip);
    CsPacket p;

    g_assert_cmpint (cs_decode_frame (CS_LINKTYPE_ETHERNET, frame->data, frame->len, &p), ==,
                     CS_DECODE_UNSUPPORTED);
  }
}

/* ESP: SPI, sequence, payload, default padding, pad length, next header, ICV. */
static GByteArray *
esp (const GByteArray *body, guint8 next, guint icv, gboolean random_padding)
{
  GByteArray *b = g_byte_array_new ();
  guint8 pad = (guint8) ((4 - (body->len + 2) % 4) % 4) + 4;

  put32 (b, 0x11223344);
  put32 (b, 1);
  put_bytes (b, body->data, body->len);
  for (guint8 i = 1; i <= pad; i++)
    put8 (b, random_padding ? 0x5a : i);
  put8 (b, pad);
  put8 (b, next);
  for (guint i = 0; i < icv; i++)
    put8 (b, (guint8) (0xa0 + i));
  return b;
}

static void
test_esp_null (void)
{
  g_autoptr (GByteArray) in = inner_ip ();
  g_autoptr (GByteArray) u = udp (5060, 5062, payload, strlen (payload));
  const CsTunnelKind kinds[] = { CS_TUNNEL_ESP_NULL };
  const guint icvs[] = { 12, 16, 0 };

  for (guint i = 0; i < G_N_ELEMENTS (icvs); i++)
    {
      /* tunnel mode: IPv4 inside */
      g_autoptr (GByteArray) e = esp (in, 4, icvs[i], FALSE);
      g_autoptr (GByteArray) ip = ipv4 (100, 200, 50, e);
      g_autoptr (GByteArray) frame = ethernet (0x0800, ip);
      /* transport mode: the UDP of the outer addresses, here the inner ones' */
      g_autoptr (GByteArray) te = esp (u, 17, icvs[i], FALSE);
      g_autoptr (GByteArray) tip = ipv4 (1, 2, 50, te);
      g_autoptr (GByteArray) tframe = ethernet (0x0800, tip);

      assert_inner (frame, 1, kinds);
      assert_inner (tframe, 1, kinds);
      assert_every_cut_safe (frame);
    }
}

static void
test_esp_encrypted (void)
{
  g_autoptr (GByteArray) in = inner_ip ();
  g_autoptr (GByteArray) random = g_byte_array_new ();
  GRand *rand = g_rand_new_with_seed (20);
  guint encrypted = 0;

  /* padding that is not RFC 4303's default, and an inner length that does not fit */
  {
    g_autoptr (GByteArray) e = esp (in, 4, 12, TRUE);
    g_autoptr (GByteArray) ip = ipv4 (100, 200, 50, e);
    g_autoptr (GByteArray) frame = ethernet (0x0800, ip);
    CsPacket p;

    g_assert_cmpint (cs_decode_frame (CS_LINKTYPE_ETHERNET, frame->data, frame->len, &p), ==,
                     CS_DECODE_ENCRYPTED);
  }
  /* ciphertext: 2000 random payloads, none mistaken for a NULL-encrypted packet */
  for (guint n = 0; n < 2000; n++)
    {
      g_autoptr (GByteArray) ip = NULL, frame = NULL;
      CsPacket p;

      g_byte_array_set_size (random, 0);
      for (guint i = 0; i < 16 + n % 200; i++)
        put8 (random, (guint8) g_rand_int (rand));
      ip = ipv4 (100, 200, 50, random);
      frame = ethernet (0x0800, ip);
      encrypted += cs_decode_frame (CS_LINKTYPE_ETHERNET, frame->data, frame->len, &p)
                   == CS_DECODE_ENCRYPTED;
    }
  g_assert_cmpuint (encrypted, ==, 2000);
  g_rand_free (rand);
}

static void
test_ip_in_ip_both_ways (void)
{
  g_autoptr (GByteArray) in = inner_ip ();
  g_autoptr (GByteArray) u6 = udp (5060, 5062, payload, strlen (payload));
  g_autoptr (GByteArray) in6 = ipv6 (1, 2, 17, u6);
  g_autoptr (GByteArray) four_in_six = ipv6 (100, 200, 4, in);
  g_autoptr (GByteArray) six_in_four = ipv4 (100, 200, 41, in6);
  g_autoptr (GByteArray) f46 = ethernet (0x86dd, four_in_six);
  g_autoptr (GByteArray) f64 = ethernet (0x0800, six_in_four);
  const CsTunnelKind kinds[] = { CS_TUNNEL_IP_IN_IP };
  CsPacket p;

  assert_inner (f46, 1, kinds);
  g_assert_cmpint (cs_decode_frame (CS_LINKTYPE_ETHERNET, f64->data, f64->len, &p), ==,
                   CS_DECODE_OK);
  g_assert_cmpuint (p.ip_version, ==, 6);
  g_assert_cmpuint (p.src.addr.bytes[15], ==, 1);
  g_assert_cmpuint (p.dst.port, ==, 5062);
  g_assert_cmpuint (p.n_tunnels, ==, 1);
}

/* GTP-U in ESP-NULL in GRE in VXLAN, then one more: the limit holds. */
static void
test_nesting_bounded (void)
{
  g_autoptr (GByteArray) packet = inner_ip ();
  const CsTunnelKind kinds[]
      = { CS_TUNNEL_IP_IN_IP, CS_TUNNEL_IP_IN_IP, CS_TUNNEL_IP_IN_IP, CS_TUNNEL_IP_IN_IP };
  CsPacket p;

  for (guint depth = 1; depth <= CS_DECODE_MAX_TUNNELS + 1; depth++)
    {
      GByteArray *outer = ipv4 (100, (guint8) depth, 4, packet);
      g_autoptr (GByteArray) frame = ethernet (0x0800, outer);

      g_byte_array_unref (packet);
      packet = outer;
      if (depth <= CS_DECODE_MAX_TUNNELS)
        assert_inner (frame, depth, kinds);
      else
        g_assert_cmpint (cs_decode_frame (CS_LINKTYPE_ETHERNET, frame->data, frame->len, &p), ==,
                         CS_DECODE_UNSUPPORTED);
    }
  /* several kinds stacked: VXLAN carrying GRE carrying ESP-NULL carrying GTP-U */
  {
    g_autoptr (GByteArray) in = inner_ip ();
    g_autoptr (GByteArray) gtp = g_byte_array_new ();
    const guint8 gre[] = { 0, 0, 0x08, 0x00 };
    const guint8 vxlan[] = { 0x08, 0, 0, 0, 0, 0, 1, 0 };
    const CsTunnelKind stack[]
        = { CS_TUNNEL_VXLAN, CS_TUNNEL_GRE, CS_TUNNEL_ESP_NULL, CS_TUNNEL_GTP_U };

    put_bytes (gtp, (guint8[]){ 0x30, 0xff }, 2);
    put16 (gtp, (guint16) in->len);
    put32 (gtp, 1);
    put_bytes (gtp, in->data, in->len);
    {
      g_autoptr (GByteArray) gu = udp (2152, 2152, gtp->data, gtp->len);
      g_autoptr (GByteArray) gip = ipv4 (30, 31, 17, gu);
      g_autoptr (GByteArray) e = esp (gip, 4, 12, FALSE);
      g_autoptr (GByteArray) eip = ipv4 (20, 21, 50, e);
      g_autoptr (GByteArray) g = concat (gre, sizeof gre, eip);
      g_autoptr (GByteArray) grip = ipv4 (10, 11, 47, g);
      g_autoptr (GByteArray) eth = ethernet (0x0800, grip);
      g_autoptr (GByteArray) v = concat (vxlan, sizeof vxlan, eth);
      g_autoptr (GByteArray) vu = udp (50000, 4789, v->data, v->len);
      g_autoptr (GByteArray) vip = ipv4 (100, 200, 17, vu);
      g_autoptr (GByteArray) frame = ethernet (0x0800, vip);

      assert_inner (frame, 4, stack);
      assert_every_cut_safe (frame);
    }
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/decode-tunnel/gtp-u", test_gtp_u);
  g_test_add_func ("/decode-tunnel/gtp-u-not-g-pdu", test_gtp_u_not_g_pdu);
  g_test_add_func ("/decode-tunnel/rtp-on-tunnel-ports", test_rtp_on_tunnel_ports);
  g_test_add_func ("/decode-tunnel/vxlan-geneve", test_vxlan_and_geneve);
  g_test_add_func ("/decode-tunnel/gre-erspan", test_gre_and_erspan);
  g_test_add_func ("/decode-tunnel/esp-null", test_esp_null);
  g_test_add_func ("/decode-tunnel/esp-encrypted", test_esp_encrypted);
  g_test_add_func ("/decode-tunnel/ip-in-ip", test_ip_in_ip_both_ways);
  g_test_add_func ("/decode-tunnel/nesting-bounded", test_nesting_bounded);
  return g_test_run ();
}
