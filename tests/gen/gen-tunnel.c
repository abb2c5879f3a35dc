/* gen-tunnel.c — GTP-U, ESP-NULL, GRE/ERSPAN, VXLAN, Geneve and IP-in-IP around the
 * scenario's packets, as a mobile core, an IPsec gateway or a mirror port sends them */
#include "gen-tunnel.h"

#include <string.h>

static void
put8 (GByteArray *a, guint8 v)
{
  g_byte_array_append (a, &v, 1);
}

static void
put16 (GByteArray *a, guint16 v)
{
  put8 (a, v >> 8);
  put8 (a, v & 0xff);
}

static void
put32 (GByteArray *a, guint32 v)
{
  put16 (a, v >> 16);
  put16 (a, v & 0xffff);
}

/* The tunnel's two ends (an eNodeB and a gateway, two VTEPs): the inner packet's direction
 * picks which one sends, so each side keeps its own end. */
static void
tunnel_ends (const guint8 *ip, gboolean v6, CsEndpoint *src, CsEndpoint *dst)
{
  gboolean inner_v6 = (ip[0] >> 4) == 6;
  const guint8 *a = inner_v6 ? ip + 8 : ip + 12, *b = inner_v6 ? ip + 24 : ip + 16;
  gboolean forward = memcmp (a, b, inner_v6 ? 16 : 4) < 0;
  const char *one = v6 ? "2001:db8:ffff::1" : "198.51.100.1";
  const char *two = v6 ? "2001:db8:ffff::2" : "198.51.100.2";

  gen_endpoint (src, forward ? one : two, 0);
  gen_endpoint (dst, forward ? two : one, 0);
}

/* An Ethernet header for the inner packet (bridged or mirrored traffic). */
static void
put_inner_ethernet (GByteArray *a, const guint8 *ip)
{
  static const guint8 macs[12] = { 0x02, 0xee, 0, 0, 0, 2, 0x02, 0xee, 0, 0, 0, 1 };

  g_byte_array_append (a, macs, sizeof macs);
  put16 (a, (ip[0] >> 4) == 6 ? 0x86dd : 0x0800);
}

/* A UDP datagram from src to dst port (checksum 0: allowed over IPv4). */
static GByteArray *
udp_around (GenCapture *cap, CsEndpoint *src, CsEndpoint *dst, guint16 sport, guint16 dport,
            const GByteArray *body)
{
  g_autoptr (GByteArray) udp = g_byte_array_new ();

  src->port = sport;
  dst->port = dport;
  put16 (udp, sport);
  put16 (udp, dport);
  put16 (udp, (guint16) (8 + body->len));
  put16 (udp, 0);
  g_byte_array_append (udp, body->data, body->len);
  return gen_build_ip (cap, src, dst, 17, udp->data, udp->len);
}

static void
put_gtp_u (GByteArray *b, GenCapture *cap, const guint8 *ip, gsize len)
{
  put8 (b, 0x34); /* version 1, GTP, E: an extension header follows */
  put8 (b, 255);  /* G-PDU */
  put16 (b, (guint16) (4 + 4 + len));
  put32 (b, 0x1d2c3b4a); /* TEID */
  put16 (b, 0);          /* sequence number (S clear) */
  put8 (b, 0);           /* N-PDU number */
  put8 (b, 0x85);        /* PDU session container */
  put8 (b, 1);           /* 4 bytes */
  put8 (b, 0x10);        /* uplink PDU session information */
  put8 (b, 5);           /* QFI 5: IMS signalling */
  put8 (b, 0);           /* no next extension */
  g_byte_array_append (b, ip, len);
}

static void
put_esp_null (GByteArray *b, GenCapture *cap, const guint8 *ip, gsize len)
{
  guint8 pad = (guint8) ((4 - (len + 2) % 4) % 4);

  put32 (b, 0xc0ffee01); /* SPI */
  put32 (b, ++cap->tunnel_seq);
  g_byte_array_append (b, ip, len);
  for (guint8 i = 1; i <= pad; i++)
    put8 (b, i);
  put8 (b, pad);
  put8 (b, (ip[0] >> 4) == 6 ? 41 : 4);
  for (guint i = 0; i < 12; i++) /* an HMAC-SHA1-96 ICV's worth of bytes */
    put8 (b, (guint8) gen_rand_next (&cap->rand));
}

/* GRE: flags, protocol type; then ERSPAN's header where the type has one. */
static void
put_gre (GByteArray *b, GenCapture *cap, const guint8 *ip, gsize len)
{
  switch (cap->tunnel)
    {
    case GEN_TUNNEL_GRE:
      put16 (b, 0x2000); /* K */
      put16 (b, (ip[0] >> 4) == 6 ? 0x86dd : 0x0800);
      put32 (b, 42);
      break;
    case GEN_TUNNEL_GRE_TEB:
      put16 (b, 0);
      put16 (b, 0x6558);
      put_inner_ethernet (b, ip);
      break;
    case GEN_TUNNEL_ERSPAN1:
      put16 (b, 0);
      put16 (b, 0x88be);
      put_inner_ethernet (b, ip);
      break;
    case GEN_TUNNEL_ERSPAN2:
      put16 (b, 0x1000); /* S */
      put16 (b, 0x88be);
      put32 (b, ++cap->tunnel_seq);
      put16 (b, 0x1000 | 100); /* version 1, VLAN 100 */
      put16 (b, 0x0007);       /* session 7 */
      put32 (b, 0);            /* index */
      put_inner_ethernet (b, ip);
      break;
    case GEN_TUNNEL_ERSPAN3:
      put16 (b, 0x1000);
      put16 (b, 0x22eb);
      put32 (b, ++cap->tunnel_seq);
      put16 (b, 0x2000 | 100);             /* version 2, VLAN 100 */
      put16 (b, 0x0007);                   /* session 7 */
      put32 (b, cap->tunnel_seq * 20000u); /* timestamp */
      put16 (b, 0);                        /* security group tag */
      put16 (b, 0);                        /* P, FT 0 (Ethernet), hardware id, D, Gra, O clear */
      put_inner_ethernet (b, ip);
      break;
    default:
      g_assert_not_reached ();
    }
  g_byte_array_append (b, ip, len);
}

GByteArray *
gen_tunnel_wrap (GenCapture *cap, const guint8 *ip, gsize len)
{
  g_autoptr (GByteArray) body = g_byte_array_new ();
  CsEndpoint src, dst;
  gboolean inner_v6 = (ip[0] >> 4) == 6;

  tunnel_ends (ip, cap->tunnel == GEN_TUNNEL_IN_IPV6, &src, &dst);
  switch (cap->tunnel)
    {
    case GEN_TUNNEL_GTP_U:
      put_gtp_u (body, cap, ip, len);
      return udp_around (cap, &src, &dst, 2152, 2152, body);
    case GEN_TUNNEL_VXLAN:
      put32 (body, 0x08000000); /* I: the VNI is valid */
      put32 (body, 5001 << 8);
      put_inner_ethernet (body, ip);
      g_byte_array_append (body, ip, len);
      /* the source port is a hash of the inner flow (RFC 7348 §5) */
      return udp_around (cap, &src, &dst, (guint16) (49152 + (ip[len > 23 ? 23 : 0] & 0xff)), 4789,
                         body);
    case GEN_TUNNEL_GENEVE:
      put8 (body, 2); /* version 0, 2 words of options */
      put8 (body, 0); /* O, C clear */
      put16 (body, 0x6558);
      put32 (body, 5002 << 8);
      put16 (body, 0x0103); /* option class */
      put8 (body, 0x01);    /* type */
      put8 (body, 1);       /* one word of data */
      put32 (body, 0xdeadbeef);
      put_inner_ethernet (body, ip);
      g_byte_array_append (body, ip, len);
      return udp_around (cap, &src, &dst, 50000, 6081, body);
    case GEN_TUNNEL_ESP_NULL:
      put_esp_null (body, cap, ip, len);
      return gen_build_ip (cap, &src, &dst, 50, body->data, body->len);
    case GEN_TUNNEL_IP_IN_IP:
    case GEN_TUNNEL_IN_IPV6:
      return gen_build_ip (cap, &src, &dst, inner_v6 ? 41 : 4, ip, len);
    case GEN_TUNNEL_NONE:
      break;
    default:
      put_gre (body, cap, ip, len);
      return gen_build_ip (cap, &src, &dst, 47, body->data, body->len);
    }
  g_assert_not_reached ();
  return NULL;
}
