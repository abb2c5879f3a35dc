/* cs-decode-tunnel.c — the encapsulations carriers and mobile networks put around VoIP
 * (GTP-U, VXLAN, Geneve, GRE with ERSPAN, ESP with NULL encryption), peeled so that calls and
 * streams see the inner packet while the frame keeps every layer */
#include "cs-decode-private.h"

#define ETHERTYPE_TEB 0x6558 /* transparent Ethernet bridging */
#define ETHERTYPE_ERSPAN_2 0x88be
#define ETHERTYPE_ERSPAN_3 0x22eb

#define GTP_G_PDU 255
#define GTP_MAX_EXTENSIONS 16 /* a real G-PDU has one or two (PDU session container, …) */

#define GRE_CHECKSUM 0x8000
#define GRE_ROUTING 0x4000
#define GRE_KEY 0x2000
#define GRE_SEQUENCE 0x1000

#define ESP_HEADER 8  /* SPI and sequence number */
#define ESP_TRAILER 2 /* pad length and next header */

/* The inner packet of a G-PDU (3GPP TS 29.281 §5): flags (version 1, protocol type GTP),
 * message type 255, length of what follows the first 8 bytes, TEID; with any of E, S or PN
 * set, a sequence number, N-PDU number and next extension type follow, then the extension
 * headers (length in 4-byte units, content, next type). FALSE for anything else. */
static gboolean
decode_gtp_u (CsDecodeCtx *ctx, CsCursor *c, CsDecodeStatus *status)
{
  const guint8 *header = cs_cursor_here (c);
  guint8 flags, type, next = 0;
  guint16 length;
  guint32 teid;
  CsCursor body;

  /* version 1 with PT set: a first byte of 0x30..0x37, never RTP's 0x80 */
  if (!cs_cursor_u8 (c, &flags) || (flags & 0xf0) != 0x30 || !cs_cursor_u8 (c, &type)
      || type != GTP_G_PDU || !cs_cursor_u16be (c, &length) || !cs_cursor_u32be (c, &teid))
    return FALSE;
  cs_cursor_init (&body, cs_cursor_here (c), MIN ((gsize) length, cs_cursor_remaining (c)));
  if (flags & 0x07)
    {
      if (!cs_cursor_skip (&body, 3) || !cs_cursor_u8 (&body, &next))
        goto malformed;
    }
  for (guint i = 0; next != 0; i++)
    {
      guint8 units;

      if (i == GTP_MAX_EXTENSIONS || !cs_cursor_u8 (&body, &units) || units == 0
          || !cs_cursor_skip (&body, (gsize) units * 4 - 2) || !cs_cursor_u8 (&body, &next))
        goto malformed;
    }
  if (!cs_decode_push_tunnel (ctx, CS_TUNNEL_GTP_U, header))
    *status = CS_DECODE_UNSUPPORTED;
  else
    *status = cs_decode_ip_layer (ctx, &body);
  return TRUE;
malformed:
  *status = CS_DECODE_MALFORMED;
  return TRUE;
}

/* VXLAN (RFC 7348): flags with I (valid VNI) set, reserved, VNI, reserved; Ethernet inside. */
static gboolean
decode_vxlan (CsDecodeCtx *ctx, CsCursor *c, CsDecodeStatus *status)
{
  const guint8 *header = cs_cursor_here (c);
  guint8 flags;

  /* the I flag (0x08) is clear in RTP's 0x80 */
  if (!cs_cursor_peek_u8 (c, 0, &flags) || (flags & 0x08) == 0 || !cs_cursor_skip (c, 8))
    return FALSE;
  if (!cs_decode_push_tunnel (ctx, CS_TUNNEL_VXLAN, header))
    *status = CS_DECODE_UNSUPPORTED;
  else
    *status = cs_decode_ethernet_layer (ctx, c);
  return TRUE;
}

/* What a GRE or Geneve protocol type carries: Ethernet (bridging), else an EtherType. */
static CsDecodeStatus
decode_protocol_type (CsDecodeCtx *ctx, guint16 type, CsCursor *c)
{
  if (type == ETHERTYPE_TEB)
    return cs_decode_ethernet_layer (ctx, c);
  return cs_decode_ethertype_layer (ctx, type, c);
}

/* Geneve (RFC 8926): version 0 and the options' length, flags, protocol type, VNI, options. */
static gboolean
decode_geneve (CsDecodeCtx *ctx, CsCursor *c, CsDecodeStatus *status)
{
  const guint8 *header = cs_cursor_here (c);
  guint8 first, flags;
  guint16 type;
  guint32 vni;

  /* version 0: a first byte below 0x40, never RTP's 0x80 */
  if (!cs_cursor_u8 (c, &first) || (first >> 6) != 0 || !cs_cursor_u8 (c, &flags)
      || !cs_cursor_u16be (c, &type) || !cs_cursor_u32be (c, &vni))
    return FALSE;
  if (!cs_cursor_skip (c, (gsize) (first & 0x3f) * 4))
    *status = CS_DECODE_MALFORMED;
  else if (!cs_decode_push_tunnel (ctx, CS_TUNNEL_GENEVE, header))
    *status = CS_DECODE_UNSUPPORTED;
  else
    *status = decode_protocol_type (ctx, type, c);
  return TRUE;
}

gboolean
cs_decode_udp_tunnel (CsDecodeCtx *ctx, guint16 sport, guint16 dport, CsCursor *c,
                      CsDecodeStatus *status)
{
  CsCursor peek = *c;

  if ((sport == CS_UDP_PORT_GTP_U || dport == CS_UDP_PORT_GTP_U)
      && decode_gtp_u (ctx, &peek, status))
    return TRUE;
  peek = *c;
  if ((sport == CS_UDP_PORT_VXLAN || dport == CS_UDP_PORT_VXLAN)
      && decode_vxlan (ctx, &peek, status))
    return TRUE;
  peek = *c;
  return (sport == CS_UDP_PORT_GENEVE || dport == CS_UDP_PORT_GENEVE)
         && decode_geneve (ctx, &peek, status);
}

/* ERSPAN type II (version 1, an 8-byte header) or III (version 2, 12 bytes and an 8-byte
 * platform subheader when O is set) before the mirrored Ethernet frame. */
static CsDecodeStatus
decode_erspan (CsDecodeCtx *ctx, guint16 type, CsCursor *c)
{
  guint8 version;

  if (!cs_cursor_peek_u8 (c, 0, &version))
    return CS_DECODE_MALFORMED;
  version >>= 4;
  if (type == ETHERTYPE_ERSPAN_2)
    {
      if (version != 1 || !cs_cursor_skip (c, 8))
        return CS_DECODE_MALFORMED;
    }
  else
    {
      guint8 last;

      if (version != 2 || !cs_cursor_peek_u8 (c, 11, &last) || !cs_cursor_skip (c, 12))
        return CS_DECODE_MALFORMED;
      if ((last & 0x01) && !cs_cursor_skip (c, 8))
        return CS_DECODE_MALFORMED;
    }
  return cs_decode_ethernet_layer (ctx, c);
}

CsDecodeStatus
cs_decode_gre (CsDecodeCtx *ctx, CsCursor *c)
{
  const guint8 *header = cs_cursor_here (c);
  guint16 flags, type;
  gboolean erspan;

  if (!cs_cursor_u16be (c, &flags) || !cs_cursor_u16be (c, &type))
    return CS_DECODE_MALFORMED;
  /* version 0 only (1 is PPTP's PPP); source routing (RFC 1701) is long obsolete */
  if ((flags & 0x0007) != 0 || (flags & GRE_ROUTING) != 0)
    return CS_DECODE_UNSUPPORTED;
  if (((flags & GRE_CHECKSUM) && !cs_cursor_skip (c, 4))
      || ((flags & GRE_KEY) && !cs_cursor_skip (c, 4)))
    return CS_DECODE_MALFORMED;
  if ((flags & GRE_SEQUENCE) && !cs_cursor_skip (c, 4))
    return CS_DECODE_MALFORMED;
  erspan = type == ETHERTYPE_ERSPAN_2 || type == ETHERTYPE_ERSPAN_3;
  if (!cs_decode_push_tunnel (ctx, erspan ? CS_TUNNEL_ERSPAN : CS_TUNNEL_GRE, header))
    return CS_DECODE_UNSUPPORTED;
  if (!erspan)
    return decode_protocol_type (ctx, type, c);
  /* type I is 0x88be without a sequence number and without an ERSPAN header */
  if (type == ETHERTYPE_ERSPAN_2 && (flags & GRE_SEQUENCE) == 0)
    return cs_decode_ethernet_layer (ctx, c);
  return decode_erspan (ctx, type, c);
}

/* Whether len bytes (header first) are a whole packet of protocol next by its own length
 * fields: what tells NULL-encrypted ESP from ciphertext that happens to end like a trailer. */
static gboolean
esp_inner_fits (guint8 next, const guint8 *p, gsize len)
{
  switch (next)
    {
    case 17: /* UDP: its length is the rest exactly */
      return len >= 8 && cs_decode_u16be (p + 4) == len;
    case 6: /* TCP: a header of 20..60 bytes inside */
      return len >= 20 && (gsize) (p[12] >> 4) * 4 >= 20 && (gsize) (p[12] >> 4) * 4 <= len;
    case 4: /* IPv4: version, header length and total length */
      return len >= 20 && (p[0] >> 4) == 4 && (p[0] & 0x0f) >= 5 && cs_decode_u16be (p + 2) == len;
    case 41: /* IPv6: payload length */
      return len >= 40 && (p[0] >> 4) == 6 && (gsize) cs_decode_u16be (p + 4) + 40 == len;
    default:
      return FALSE;
    }
}

/* RFC 4303 §2.4's default padding: the bytes 1, 2, 3, … */
static gboolean
esp_padding_is_default (const guint8 *pad, guint8 n)
{
  for (guint8 i = 0; i < n; i++)
    if (pad[i] != i + 1)
      return FALSE;
  return TRUE;
}

CsDecodeStatus
cs_decode_esp (CsDecodeCtx *ctx, CsCursor *c)
{
  /* ICV lengths tried, Wireshark's heuristic's first (HMAC-96), then HMAC-SHA-256-128 and none */
  static const guint8 icv_lengths[] = { 12, 16, 0 };
  const guint8 *header = cs_cursor_here (c);
  gsize len = cs_cursor_remaining (c);

  if (len < ESP_HEADER + ESP_TRAILER)
    return CS_DECODE_MALFORMED;
  for (guint i = 0; i < G_N_ELEMENTS (icv_lengths); i++)
    {
      gsize icv = icv_lengths[i], trailer, inner_len;
      guint8 pad_len, next;
      CsCursor inner;

      if (len < ESP_HEADER + ESP_TRAILER + icv)
        continue;
      trailer = len - icv - ESP_TRAILER;
      pad_len = header[trailer];
      next = header[trailer + 1];
      if (trailer < ESP_HEADER + (gsize) pad_len)
        continue;
      inner_len = trailer - ESP_HEADER - pad_len;
      if (!esp_padding_is_default (header + ESP_HEADER + inner_len, pad_len)
          || !esp_inner_fits (next, header + ESP_HEADER, inner_len))
        continue;
      if (!cs_decode_push_tunnel (ctx, CS_TUNNEL_ESP_NULL, header))
        return CS_DECODE_UNSUPPORTED;
      cs_cursor_init (&inner, header + ESP_HEADER, inner_len);
      /* transport mode keeps the outer addresses; tunnel mode (4, 41) carries IP */
      if (next == 4 || next == 41)
        return cs_decode_ip_layer (ctx, &inner);
      return cs_decode_ip_payload_layer (ctx, next, &inner);
    }
  return CS_DECODE_ENCRYPTED;
}
