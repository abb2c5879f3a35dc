/* cs-decode.c — link layer, IPv4/IPv6 and UDP/TCP headers, read in place through CsCursor */
#include "cs-decode-fast.h"

#include "cs-decode-private.h"

#include <string.h>

#define ETHERTYPE_IPV4 0x0800
#define ETHERTYPE_IPV6 0x86dd
#define ETHERTYPE_VLAN 0x8100
#define ETHERTYPE_QINQ 0x88a8
#define ETHERTYPE_QINQ_OLD 0x9100
#define ETHERTYPE_MPLS 0x8847
#define ETHERTYPE_MPLS_MCAST 0x8848
#define ETHERTYPE_PPPOE_SESSION 0x8864

#define PPP_IPV4 0x0021
#define PPP_IPV6 0x0057

#define IPPROTO_V6_HOPOPTS 0
#define IPPROTO_V4_IN_IP 4
#define IPPROTO_V6_IN_IP 41
#define IPPROTO_GRE 47
#define IPPROTO_ESP 50
#define IPPROTO_V6_ROUTING 43
#define IPPROTO_V6_FRAGMENT 44
#define IPPROTO_V6_AH 51
#define IPPROTO_V6_NONE 59
#define IPPROTO_V6_DSTOPTS 60
#define IPPROTO_V6_MOBILITY 135
#define IPPROTO_V6_HIP 139
#define IPPROTO_V6_SHIM6 140

typedef CsDecodeCtx DecodeCtx;

gboolean
cs_decode_push_tunnel (CsDecodeCtx *ctx, CsTunnelKind kind, const guint8 *header)
{
  CsPacket *p = ctx->packet;

  if (p->n_tunnels >= CS_DECODE_MAX_TUNNELS)
    return FALSE;
  p->tunnels[p->n_tunnels].kind = (guint8) kind;
  p->tunnels[p->n_tunnels].offset = (guint16) MIN ((gsize) (header - ctx->base), G_MAXUINT16);
  p->n_tunnels++;
  return TRUE;
}

static CsDecodeStatus
decode_udp (DecodeCtx *ctx, CsCursor *c)
{
  CsPacket *p = ctx->packet;
  CsDecodeStatus tunnelled;
  guint16 sport, dport, udp_len, checksum;

  cs_decode_push_layer (ctx, CS_LAYER_UDP, cs_cursor_here (c));
  if (!cs_cursor_u16be (c, &sport) || !cs_cursor_u16be (c, &dport) || !cs_cursor_u16be (c, &udp_len)
      || !cs_cursor_u16be (c, &checksum))
    return CS_DECODE_MALFORMED;
  p->src.port = sport;
  p->dst.port = dport;

  gsize avail = cs_cursor_remaining (c);
  gsize len = avail;
  /* A zero length comes from jumbograms or checksum/segmentation offload: trust the IP length. */
  if (udp_len != 0)
    {
      if (udp_len < 8)
        return CS_DECODE_MALFORMED;
      len = MIN ((gsize) udp_len - 8, avail);
    }
  p->payload = cs_cursor_here (c);
  p->payload_len = len;
  if (cs_decode_udp_port_is_tunnel (sport) || cs_decode_udp_port_is_tunnel (dport))
    {
      CsCursor body;

      cs_cursor_init (&body, p->payload, len);
      if (cs_decode_udp_tunnel (ctx, sport, dport, &body, &tunnelled))
        return tunnelled;
    }
  return CS_DECODE_OK;
}

static CsDecodeStatus
decode_tcp (DecodeCtx *ctx, CsCursor *c, CsPacket *p)
{
  guint16 sport, dport;
  guint32 seq, ack;
  guint8 offset_byte, flags;

  cs_decode_push_layer (ctx, CS_LAYER_TCP, cs_cursor_here (c));
  if (!cs_cursor_u16be (c, &sport) || !cs_cursor_u16be (c, &dport) || !cs_cursor_u32be (c, &seq)
      || !cs_cursor_u32be (c, &ack) || !cs_cursor_u8 (c, &offset_byte) || !cs_cursor_u8 (c, &flags))
    return CS_DECODE_MALFORMED;
  gsize header_len = (gsize) (offset_byte >> 4) * 4;
  /* 14 bytes read so far; window, checksum, urgent pointer and options follow. */
  if (header_len < 20 || !cs_cursor_skip (c, header_len - 14))
    return CS_DECODE_MALFORMED;
  p->src.port = sport;
  p->dst.port = dport;
  p->tcp_seq = seq;
  p->tcp_ack = ack;
  p->tcp_flags = flags;
  p->payload = cs_cursor_here (c);
  p->payload_len = cs_cursor_remaining (c);
  return CS_DECODE_OK;
}

/* IPv4's authentication header (IPv6 skips it as an extension header): transport mode keeps
 * the addresses, tunnel mode carries IP. */
static CsDecodeStatus
decode_ipv4_ah (DecodeCtx *ctx, CsCursor *c)
{
  guint8 next, len;

  if (!cs_cursor_peek_u8 (c, 0, &next) || !cs_cursor_peek_u8 (c, 1, &len)
      || !cs_cursor_skip (c, ((gsize) len + 2) * 4))
    return CS_DECODE_MALFORMED;
  if (next == 51)
    return CS_DECODE_MALFORMED; /* AH in AH: no recursion on hostile input */
  return cs_decode_ip_payload_layer (ctx, next, c);
}

/* c is positioned on the header of protocol proto, carried by IP. */
CsDecodeStatus
cs_decode_ip_payload_layer (DecodeCtx *ctx, guint8 proto, CsCursor *c)
{
  CsPacket *p = ctx->packet;

  p->ip_proto = proto;
  if (ctx->frame != NULL)
    p->transport_offset = (gsize) (cs_cursor_here (c) - ctx->frame);
  switch (proto)
    {
    case CS_IP_PROTO_UDP:
      return decode_udp (ctx, c);
    case CS_IP_PROTO_TCP:
      return decode_tcp (ctx, c, p);
    case IPPROTO_V4_IN_IP:
    case IPPROTO_V6_IN_IP:
      if (!cs_cursor_has (c, 20))
        return CS_DECODE_MALFORMED; /* not even an IPv4 header inside */
      if (!cs_decode_push_tunnel (ctx, CS_TUNNEL_IP_IN_IP, cs_cursor_here (c)))
        return CS_DECODE_UNSUPPORTED;
      /* The inner header's addresses replace the tunnel's. */
      return cs_decode_ip_layer (ctx, c);
    case IPPROTO_GRE:
      return cs_decode_gre (ctx, c);
    case IPPROTO_ESP:
      return cs_decode_esp (ctx, c);
    case IPPROTO_V6_AH:
      return decode_ipv4_ah (ctx, c);
    default:
      return CS_DECODE_UNSUPPORTED;
    }
}

static gboolean
is_ipv6_extension (guint8 next)
{
  switch (next)
    {
    case IPPROTO_V6_HOPOPTS:
    case IPPROTO_V6_ROUTING:
    case IPPROTO_V6_FRAGMENT:
    case IPPROTO_V6_AH:
    case IPPROTO_V6_DSTOPTS:
    case IPPROTO_V6_MOBILITY:
    case IPPROTO_V6_HIP:
    case IPPROTO_V6_SHIM6:
      return TRUE;
    default:
      return FALSE;
    }
}

/* Skips one IPv6 extension header other than the fragment header; sets *next to the following
 * header's protocol. */
static gboolean
skip_ipv6_extension (CsCursor *c, guint8 type, guint8 *next)
{
  guint8 hdr_len;

  if (!cs_cursor_peek_u8 (c, 0, next) || !cs_cursor_peek_u8 (c, 1, &hdr_len))
    return FALSE;
  /* AH counts its length in 4-byte words minus 2, the others in 8-byte words minus 1. */
  gsize total = type == IPPROTO_V6_AH ? ((gsize) hdr_len + 2) * 4 : ((gsize) hdr_len + 1) * 8;
  return cs_cursor_skip (c, total);
}

/* An IPv4 or IPv6 fragment, its bytes in body: for the reassembler (a fragment not captured
 * whole could not be reassembled). */
static CsDecodeStatus
fragment (DecodeCtx *ctx, guint32 id, guint32 offset, gboolean more, const CsCursor *body,
          gboolean truncated)
{
  CsPacket *p = ctx->packet;

  if (truncated)
    return CS_DECODE_MALFORMED;
  p->frag.id = id;
  p->frag.offset = offset;
  p->frag.more = more;
  p->frag.data = cs_cursor_here (body);
  p->frag.len = cs_cursor_remaining (body);
  if (ctx->frame != NULL)
    p->transport_offset = (gsize) (p->frag.data - ctx->frame);
  return CS_DECODE_FRAGMENT;
}

static CsDecodeStatus
decode_ipv4 (DecodeCtx *ctx, CsCursor *c)
{
  CsPacket *p = ctx->packet;
  CsCursor ip = *c;
  guint8 version_ihl, tos, ttl, proto;
  guint16 total_len, id, flags_offset, checksum;
  const guint8 *src, *dst;

  cs_decode_push_layer (ctx, CS_LAYER_IPV4, cs_cursor_here (c));
  if (!cs_cursor_u8 (&ip, &version_ihl) || !cs_cursor_u8 (&ip, &tos)
      || !cs_cursor_u16be (&ip, &total_len) || !cs_cursor_u16be (&ip, &id)
      || !cs_cursor_u16be (&ip, &flags_offset) || !cs_cursor_u8 (&ip, &ttl)
      || !cs_cursor_u8 (&ip, &proto) || !cs_cursor_u16be (&ip, &checksum)
      || !cs_cursor_bytes (&ip, 4, &src) || !cs_cursor_bytes (&ip, 4, &dst))
    return CS_DECODE_MALFORMED;
  if (version_ihl >> 4 != 4)
    return CS_DECODE_MALFORMED;
  gsize header_len = (gsize) (version_ihl & 0x0f) * 4;
  if (header_len < 20)
    return CS_DECODE_MALFORMED;

  gsize avail = cs_cursor_remaining (c);
  gsize ip_len = avail;
  gboolean truncated = FALSE;
  /* Total length 0 is what segmentation offload leaves in captures: use what was captured. */
  if (total_len != 0)
    {
      if (total_len < header_len)
        return CS_DECODE_MALFORMED;
      truncated = total_len > avail;
      ip_len = MIN ((gsize) total_len, avail);
    }
  if (header_len > ip_len)
    return CS_DECODE_MALFORMED;

  cs_addr_set_v4 (&p->src.addr, src);
  cs_addr_set_v4 (&p->dst.addr, dst);
  p->ip_version = 4;
  p->ip_proto = proto;

  CsCursor body;
  cs_cursor_init (&body, cs_cursor_here (c) + header_len, ip_len - header_len);

  gboolean more = (flags_offset & 0x2000) != 0;
  guint32 frag_offset = (guint32) (flags_offset & 0x1fff) * 8;
  if (more || frag_offset != 0)
    {
      return fragment (ctx, id, frag_offset, more, &body, truncated);
    }
  return cs_decode_ip_payload_layer (ctx, proto, &body);
}

static CsDecodeStatus
decode_ipv6 (DecodeCtx *ctx, CsCursor *c)
{
  CsPacket *p = ctx->packet;
  CsCursor ip = *c;
  guint32 version_class_flow;
  guint16 payload_len;
  guint8 next, hop_limit;
  const guint8 *src, *dst;

  cs_decode_push_layer (ctx, CS_LAYER_IPV6, cs_cursor_here (c));
  if (!cs_cursor_u32be (&ip, &version_class_flow) || !cs_cursor_u16be (&ip, &payload_len)
      || !cs_cursor_u8 (&ip, &next) || !cs_cursor_u8 (&ip, &hop_limit)
      || !cs_cursor_bytes (&ip, 16, &src) || !cs_cursor_bytes (&ip, 16, &dst))
    return CS_DECODE_MALFORMED;
  if (version_class_flow >> 28 != 6)
    return CS_DECODE_MALFORMED;

  gsize avail = cs_cursor_remaining (&ip);
  gsize len = avail;
  gboolean truncated = FALSE;
  /* Payload length 0 means a jumbogram (or offload): use what was captured. */
  if (payload_len != 0)
    {
      truncated = payload_len > avail;
      len = MIN ((gsize) payload_len, avail);
    }

  cs_addr_set_v6 (&p->src.addr, src);
  cs_addr_set_v6 (&p->dst.addr, dst);
  p->ip_version = 6;
  p->ip_proto = next;

  CsCursor body;
  cs_cursor_init (&body, cs_cursor_here (&ip), len);
  while (is_ipv6_extension (next))
    {
      if (next == IPPROTO_V6_FRAGMENT)
        {
          guint8 frag_next, reserved;
          guint16 offset_flags;
          guint32 ident;

          cs_decode_push_layer (ctx, CS_LAYER_IPV6_FRAGMENT, cs_cursor_here (&body));
          if (!cs_cursor_u8 (&body, &frag_next) || !cs_cursor_u8 (&body, &reserved)
              || !cs_cursor_u16be (&body, &offset_flags) || !cs_cursor_u32be (&body, &ident))
            return CS_DECODE_MALFORMED;
          guint32 frag_offset = offset_flags & 0xfff8;
          gboolean more = (offset_flags & 0x0001) != 0;
          next = frag_next;
          p->ip_proto = next;
          /* An atomic fragment (RFC 6946) is a whole datagram: keep decoding. */
          if (frag_offset == 0 && !more)
            continue;
          return fragment (ctx, ident, frag_offset, more, &body, truncated);
        }
      if (!skip_ipv6_extension (&body, next, &next))
        return CS_DECODE_MALFORMED;
      p->ip_proto = next;
    }
  if (next == IPPROTO_V6_NONE)
    return CS_DECODE_UNSUPPORTED;
  return cs_decode_ip_payload_layer (ctx, next, &body);
}

/* Chooses IPv4 or IPv6 by the version nibble (raw IP link types, MPLS, tunnels). */
CsDecodeStatus
cs_decode_ip_layer (DecodeCtx *ctx, CsCursor *c)
{
  guint8 first;

  if (!cs_cursor_peek_u8 (c, 0, &first))
    return CS_DECODE_MALFORMED;
  switch (first >> 4)
    {
    case 4:
      return decode_ipv4 (ctx, c);
    case 6:
      return decode_ipv6 (ctx, c);
    default:
      return CS_DECODE_NOT_IP;
    }
}

static CsDecodeStatus
decode_mpls (DecodeCtx *ctx, CsCursor *c)
{
  guint32 label;

  do
    {
      if (!cs_cursor_u32be (c, &label))
        return CS_DECODE_MALFORMED;
    }
  while ((label & 0x100) == 0); /* bottom-of-stack bit */
  /* No protocol field: an IP packet is recognised by its version nibble. */
  return cs_decode_ip_layer (ctx, c);
}

static CsDecodeStatus
decode_pppoe (DecodeCtx *ctx, CsCursor *c)
{
  guint8 version_type, code;
  guint16 session, length, ppp_proto;

  cs_decode_push_layer (ctx, CS_LAYER_PPPOE, cs_cursor_here (c));
  if (!cs_cursor_u8 (c, &version_type) || !cs_cursor_u8 (c, &code) || !cs_cursor_u16be (c, &session)
      || !cs_cursor_u16be (c, &length) || !cs_cursor_u16be (c, &ppp_proto))
    return CS_DECODE_MALFORMED;
  if (ppp_proto == PPP_IPV4)
    return decode_ipv4 (ctx, c);
  if (ppp_proto == PPP_IPV6)
    return decode_ipv6 (ctx, c);
  return CS_DECODE_NOT_IP;
}

/* c is positioned after an EtherType field holding type; follows VLAN tags. */
CsDecodeStatus
cs_decode_ethertype_layer (DecodeCtx *ctx, guint16 type, CsCursor *c)
{
  while (type == ETHERTYPE_VLAN || type == ETHERTYPE_QINQ || type == ETHERTYPE_QINQ_OLD)
    {
      guint16 tci;

      if (!cs_cursor_u16be (c, &tci) || !cs_cursor_u16be (c, &type))
        return CS_DECODE_MALFORMED;
      if (ctx->packet->vlan == 0)
        ctx->packet->vlan = tci & 0x0fff;
    }
  switch (type)
    {
    case ETHERTYPE_IPV4:
      return decode_ipv4 (ctx, c);
    case ETHERTYPE_IPV6:
      return decode_ipv6 (ctx, c);
    case ETHERTYPE_MPLS:
    case ETHERTYPE_MPLS_MCAST:
      return decode_mpls (ctx, c);
    case ETHERTYPE_PPPOE_SESSION:
      return decode_pppoe (ctx, c);
    default:
      return CS_DECODE_NOT_IP; /* ARP, LLDP, 802.3 lengths (LLC), … */
    }
}

CsDecodeStatus
cs_decode_ethernet_layer (DecodeCtx *ctx, CsCursor *c)
{
  guint16 type;

  if (!cs_cursor_skip (c, 12) || !cs_cursor_u16be (c, &type))
    return CS_DECODE_MALFORMED;
  return cs_decode_ethertype_layer (ctx, type, c);
}

static CsDecodeStatus
decode_linux_sll (DecodeCtx *ctx, CsCursor *c)
{
  guint16 type;

  /* packet type, ARPHRD type, address length, 8 address bytes, then the protocol */
  if (!cs_cursor_skip (c, 14) || !cs_cursor_u16be (c, &type))
    return CS_DECODE_MALFORMED;
  return cs_decode_ethertype_layer (ctx, type, c);
}

static CsDecodeStatus
decode_linux_sll2 (DecodeCtx *ctx, CsCursor *c)
{
  guint16 type;

  /* protocol first, then reserved, interface index, ARPHRD type, packet type, address */
  if (!cs_cursor_u16be (c, &type) || !cs_cursor_skip (c, 18))
    return CS_DECODE_MALFORMED;
  return cs_decode_ethertype_layer (ctx, type, c);
}

static gboolean
is_bsd_af_inet6 (guint32 family)
{
  /* AF_INET6 differs between BSDs: 24 (NetBSD, OpenBSD), 28 (FreeBSD), 30 (macOS). */
  return family == 24 || family == 28 || family == 30;
}

static CsDecodeStatus
decode_null (DecodeCtx *ctx, CsCursor *c)
{
  guint32 family_be;
  CsCursor peek = *c;

  if (!cs_cursor_u32be (&peek, &family_be))
    return CS_DECODE_MALFORMED;
  /* DLT_NULL is in the capturing host's order, DLT_LOOP in network order; accept both. */
  guint32 family_le = GUINT32_SWAP_LE_BE (family_be);
  cs_cursor_skip (c, 4);
  if (family_be == 2 || family_le == 2)
    return decode_ipv4 (ctx, c);
  if (is_bsd_af_inet6 (family_be) || is_bsd_af_inet6 (family_le))
    return decode_ipv6 (ctx, c);
  return CS_DECODE_NOT_IP;
}

static CsDecodeStatus
decode_frame (DecodeCtx *ctx, guint linktype, const guint8 *data, gsize caplen)
{
  CsCursor c;

  cs_cursor_init (&c, data, caplen);
  switch (linktype)
    {
    case CS_LINKTYPE_ETHERNET:
      return cs_decode_ethernet_layer (ctx, &c);
    case CS_LINKTYPE_LINUX_SLL:
      return decode_linux_sll (ctx, &c);
    case CS_LINKTYPE_LINUX_SLL2:
      return decode_linux_sll2 (ctx, &c);
    case CS_LINKTYPE_RAW_12:
    case CS_LINKTYPE_RAW_14:
    case CS_LINKTYPE_RAW:
      return cs_decode_ip_layer (ctx, &c);
    case CS_LINKTYPE_IPV4:
      return decode_ipv4 (ctx, &c);
    case CS_LINKTYPE_IPV6:
      return decode_ipv6 (ctx, &c);
    case CS_LINKTYPE_NULL:
    case CS_LINKTYPE_LOOP:
      return decode_null (ctx, &c);
    default:
      return CS_DECODE_UNSUPPORTED;
    }
}

CsDecodeStatus
cs_decode_frame (guint linktype, const guint8 *data, gsize caplen, CsPacket *packet)
{
  DecodeCtx ctx = { data, data, packet, NULL };

  *packet = (CsPacket){ 0 }; /* inline stores rather than a memset call, once per frame */
  if (cs_decode_frame_fast (linktype, data, caplen, packet))
    return CS_DECODE_OK;
  return decode_frame (&ctx, linktype, data, caplen);
}

CsDecodeStatus
cs_decode_frame_layered (guint linktype, const guint8 *data, gsize caplen, CsPacket *packet)
{
  DecodeCtx ctx = { data, data, packet, NULL };

  *packet = (CsPacket){ 0 };
  return decode_frame (&ctx, linktype, data, caplen);
}

CsDecodeStatus
cs_decode_frame_layers (guint linktype, const guint8 *data, gsize caplen, CsPacket *packet,
                        CsDecodeLayers *layers)
{
  DecodeCtx ctx = { data, data, packet, layers };

  *packet = (CsPacket){ 0 };
  layers->n = 0;
  return decode_frame (&ctx, linktype, data, caplen);
}

CsDecodeStatus
cs_decode_transport (const guint8 *data, gsize len, CsPacket *packet)
{
  DecodeCtx ctx = { NULL, data, packet, NULL };
  CsCursor c;
  guint8 next = packet->ip_proto;

  cs_cursor_init (&c, data, len);
  packet->src.port = 0;
  packet->dst.port = 0;
  packet->payload = NULL;
  packet->payload_len = 0;
  packet->transport_offset = 0;
  /* In IPv6 the fragmentable part may begin with destination options or routing headers. */
  if (packet->ip_version == 6)
    {
      while (is_ipv6_extension (next))
        {
          if (next == IPPROTO_V6_FRAGMENT || !skip_ipv6_extension (&c, next, &next))
            return CS_DECODE_MALFORMED;
        }
      if (next == IPPROTO_V6_NONE)
        return CS_DECODE_UNSUPPORTED;
    }
  packet->transport_offset = c.pos;
  return cs_decode_ip_payload_layer (&ctx, next, &c);
}

const char *
cs_decode_status_to_string (CsDecodeStatus status)
{
  switch (status)
    {
    case CS_DECODE_OK:
      return "ok";
    case CS_DECODE_FRAGMENT:
      return "fragment";
    case CS_DECODE_NOT_IP:
      return "not-ip";
    case CS_DECODE_UNSUPPORTED:
      return "unsupported";
    case CS_DECODE_MALFORMED:
      return "malformed";
    case CS_DECODE_ENCRYPTED:
      return "encrypted";
    default:
      return "?";
    }
}
