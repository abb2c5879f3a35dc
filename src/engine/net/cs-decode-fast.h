/* cs-decode-fast.h — the fast path of cs_decode_frame, beside it: a frame whose link header
 * says IPv4 plainly, IPv4 without options or fragments, then UDP (nearly every packet of a
 * VoIP capture) read with a few bounds checks. What it accepts, the layered decoder of
 * cs-decode.c decodes to the same packet (tests/unit/net/test-decode.c and
 * tests/unit/loader/test-chunk-frames.c compare them); anything else it leaves to it. */
#pragma once

#include "cs-decode.h"

G_BEGIN_DECLS

static inline guint32
cs_decode_load32 (const guint8 *p)
{
  guint32 v;

  memcpy (&v, p, sizeof v);
  return v;
}

/* Where the IPv4 header of a frame starts when its link header says IPv4 plainly (Ethernet II
 * with at most one 802.1Q tag, Linux cooked v1 and v2, raw IP), or G_MAXUINT32: the layered
 * decoder reads those headers the same way. */
static inline guint32
cs_decode_plain_ipv4_offset (guint linktype, const guint8 *data, gsize caplen)
{
  switch (linktype)
    {
    case CS_LINKTYPE_ETHERNET:
      if (caplen >= 14 && data[12] == 0x08 && data[13] == 0x00)
        return 14;
      if (caplen >= 18 && data[12] == 0x81 && data[13] == 0x00 && data[16] == 0x08
          && data[17] == 0x00)
        return 18;
      return G_MAXUINT32;
    case CS_LINKTYPE_LINUX_SLL:
      return caplen >= 16 && data[14] == 0x08 && data[15] == 0x00 ? 16 : G_MAXUINT32;
    case CS_LINKTYPE_LINUX_SLL2:
      return caplen >= 20 && data[0] == 0x08 && data[1] == 0x00 ? 20 : G_MAXUINT32;
    case CS_LINKTYPE_RAW_12:
    case CS_LINKTYPE_RAW_14:
    case CS_LINKTYPE_RAW:
    case CS_LINKTYPE_IPV4:
      return 0;
    default:
      return G_MAXUINT32;
    }
}

/* The IPv4 header at ip (caplen bytes captured from it on, a frame's) when it is version 4
 * with 20 bytes (known already when header_checked: then caplen is at least 28), no fragment,
 * protocol UDP, with a UDP header the layered decoder accepts and a payload of at least
 * min_payload bytes: TRUE and *len, the UDP payload's length as it gives it (the payload
 * starts 28 bytes after ip). FALSE for anything else. */
static inline __attribute__ ((always_inline)) gboolean
cs_decode_ipv4_udp_at (const guint8 *ip, gsize caplen, gboolean header_checked, guint min_payload,
                       guint32 *len)
{
  enum
  {
    IP = 20,
    UDP = 8
  };
  guint32 udp_len, total_len;
  gsize ip_len;

  if (!header_checked && (caplen < IP + UDP || ip[0] != 0x45))
    return FALSE;
  /* flags and fragment offset (but DF) zero, any TTL, protocol UDP: one word */
  if ((GUINT32_FROM_LE (cs_decode_load32 (ip + 6)) & 0xff00ff3fu) != 0x11000000u)
    return FALSE;
  total_len = cs_decode_u16be (ip + 2);
  udp_len = cs_decode_u16be (ip + IP + 4);
  /* usually the UDP length fills the IP length, which was captured whole */
  if (G_LIKELY (udp_len >= UDP + min_payload && udp_len + IP == total_len && total_len <= caplen))
    {
      *len = udp_len - UDP;
      return TRUE;
    }
  /* as decode_ipv4 and decode_udp: a length of 0 (offload) means what was captured */
  ip_len = total_len != 0 ? MIN ((gsize) total_len, caplen) : caplen;
  if (ip_len < IP + UDP || (udp_len != 0 && udp_len < UDP))
    return FALSE;
  /* a frame's bytes fit 32 bits (its record's caplen) */
  *len = (guint32) (udp_len != 0 ? MIN ((gsize) udp_len - UDP, ip_len - (IP + UDP))
                                 : ip_len - (IP + UDP));
  return *len >= min_payload;
}

/* The packet the layered decoder makes of the UDP datagram of the IPv4 header at ip,
 * ip_offset bytes into its frame, with a payload of len bytes (cs_decode_ipv4_udp_at): its
 * addresses, ports, versions, transport offset and payload (vlan and the TCP and fragment
 * fields are the caller's). */
static inline void
cs_decode_ipv4_udp_packet (const guint8 *ip, gsize ip_offset, guint32 len, CsPacket *p)
{
  p->src.addr = (CsAddr){ .family = 4 };
  memcpy (p->src.addr.bytes, ip + 12, 4);
  p->dst.addr = (CsAddr){ .family = 4 };
  memcpy (p->dst.addr.bytes, ip + 16, 4);
  p->src.port = cs_decode_u16be (ip + 20);
  p->dst.port = cs_decode_u16be (ip + 22);
  p->ip_version = 4;
  p->ip_proto = CS_IP_PROTO_UDP;
  p->transport_offset = ip_offset + 20;
  p->payload = ip + 28;
  p->payload_len = len;
}

/* cs_decode_frame for the usual frame: TRUE when the link header says IPv4 plainly and the
 * IPv4 header carries UDP as cs_decode_ipv4_udp_at takes it on ports that are not a tunnel's
 * (cs_decode_udp_port_is_tunnel); then p holds what
 * cs_decode_frame would give (src, dst, ip_version, ip_proto, vlan, transport_offset, payload,
 * payload_len; the TCP and fragment fields are left as they were). FALSE for anything else. */
static inline gboolean
cs_decode_frame_fast (guint linktype, const guint8 *data, gsize caplen, CsPacket *p)
{
  guint32 ip = data != NULL ? cs_decode_plain_ipv4_offset (linktype, data, caplen) : G_MAXUINT32;
  guint32 len;

  if (ip == G_MAXUINT32 || !cs_decode_ipv4_udp_at (data + ip, caplen - ip, FALSE, 0, &len))
    return FALSE;
  /* a tunnel (GTP-U, VXLAN, Geneve) is the layered decoder's to peel */
  if (cs_decode_udp_port_is_tunnel (cs_decode_u16be (data + ip + 20))
      || cs_decode_udp_port_is_tunnel (cs_decode_u16be (data + ip + 22)))
    return FALSE;
  cs_decode_ipv4_udp_packet (data + ip, ip, len, p);
  /* the one 802.1Q tag the plain header may have */
  p->vlan = linktype == CS_LINKTYPE_ETHERNET && ip == 18 ? cs_decode_u16be (data + 14) & 0x0fff : 0;
  return TRUE;
}

G_END_DECLS
