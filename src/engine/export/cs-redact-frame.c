/* cs-redact-frame.c — one frame rewritten: link addresses, every IP header's addresses, the
 * payload (SIP text, HEP, RTCP SDES; TCP segments and fragments from cs-redact-stream.c),
 * then every enclosing length, fragment offset, sequence number and checksum */
#include "cs-redact-private.h"

#include <string.h>

#include "net/cs-decode.h"
#include "net/cs-hep.h"
#include "rtp/cs-rtp.h"
#include "sip/cs-sip-message.h"

static guint32
cs_get_u32 (const guint8 *p)
{
  return (guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8 | p[3];
}

static void
cs_put_u32 (guint8 *p, guint32 v)
{
  cs_put_u16 (p, (guint16) (v >> 16));
  cs_put_u16 (p + 2, (guint16) v);
}

static guint32
cs_sum_bytes (guint32 sum, const guint8 *p, gsize len)
{
  for (gsize i = 0; i + 1 < len; i += 2)
    sum += cs_get_u16 (p + i);
  if (len & 1)
    sum += (guint32) p[len - 1] << 8;
  return sum;
}

static guint16
cs_fold_sum (guint32 sum)
{
  while (sum >> 16)
    sum = (sum & 0xffff) + (sum >> 16);
  return (guint16) ~sum;
}

guint16
cs_redact_transport_checksum (const guint8 *ip_src, const guint8 *ip_dst, guint addr_len,
                              guint8 proto, const guint8 *seg, gsize len, gsize field)
{
  guint32 sum = 0;

  sum = cs_sum_bytes (sum, ip_src, addr_len);
  sum = cs_sum_bytes (sum, ip_dst, addr_len);
  sum += proto;
  sum += (guint32) (len & 0xffff) + (guint32) (len >> 16);
  sum = cs_sum_bytes (sum, seg, field);
  sum = cs_sum_bytes (sum, seg + field + 2, len - field - 2);
  /* the bytes after the field start on an odd boundary only for odd fields: never here */
  return cs_fold_sum (sum);
}

void
cs_redact_map_mac (CsRedactor *r, guint8 *mac)
{
  gint64 key = 0;
  gint64 *known;

  if (r->observing || (mac[0] & 0x01) != 0)
    return;
  for (guint i = 0; i < 6; i++)
    key = (key << 8) | mac[i];
  known = g_hash_table_lookup (r->mac_map, &key);
  if (known == NULL)
    {
      gint64 value = 0x02;

      for (guint i = 1; i < 6; i++)
        value = (value << 8) | (gint64) g_rand_int_range (r->rand, 0, 256);
      known = g_memdup2 (&value, sizeof value);
      g_hash_table_insert (r->mac_map, g_memdup2 (&key, sizeof key), known);
    }
  for (guint i = 0; i < 6; i++)
    mac[i] = (guint8) (*known >> (8 * (5 - i)));
}

static void
cs_map_link_addresses (CsRedactor *r, guint linktype, guint8 *data, gsize caplen)
{
  if (linktype == CS_LINKTYPE_ETHERNET && caplen >= 14)
    {
      cs_redact_map_mac (r, data);
      cs_redact_map_mac (r, data + 6);
    }
  else if (linktype == CS_LINKTYPE_LINUX_SLL && caplen >= 16 && data[4] == 0 && data[5] == 6)
    cs_redact_map_mac (r, data + 6);
  else if (linktype == CS_LINKTYPE_LINUX_SLL2 && caplen >= 20 && data[11] == 6)
    cs_redact_map_mac (r, data + 12);
}

void
cs_redact_rtcp_sdes (CsRedactor *r, guint8 *data, gsize len)
{
  for (gsize pos = 0; pos + 4 <= len;)
    {
      guint count = data[pos] & 0x1f;
      gsize plen = ((gsize) cs_get_u16 (data + pos + 2) + 1) * 4;
      gsize end = MIN (pos + plen, len);
      gsize p = pos + 4;

      if (r->observing)
        return;
      if (data[pos + 1] == 202)
        for (guint c = 0; c < count && p + 4 <= end; c++)
          {
            p += 4; /* SSRC */
            while (p < end && data[p] != 0)
              {
                gsize item_len;

                if (p + 2 > end || p + 2 + (item_len = data[p + 1]) > end)
                  return;
                memset (data + p + 2, 'x', item_len);
                p += 2 + item_len;
              }
            p = (p + 4) & ~(gsize) 3; /* the null item, then padding to 32 bits */
          }
      else if (data[pos + 1] == 203)
        {
          /* BYE: SSRCs, then an optional reason text */
          gsize reason = pos + 4 + 4 * (gsize) count;

          if (reason < end && reason + 1 + data[reason] <= end)
            memset (data + reason + 1, 'x', data[reason]);
        }
      else if (data[pos + 1] == 204 && pos + 12 < end)
        memset (data + pos + 12, 0, end - pos - 12); /* APP: application data */
      pos += plen;
    }
}

/* A UDP payload that is not SIP, HEP or RTCP: RTP is kept (the payload policy is the
 * export's), text is scanned, anything else is zeroed. */
static GByteArray *
cs_redact_other_udp (CsRedactor *r, const guint8 *payload, gsize len)
{
  CsRtpHeader rtp;
  GByteArray *out;
  gboolean text = TRUE;

  if (cs_rtp_parse_header (payload, len, &rtp))
    return g_byte_array_append (g_byte_array_new (), payload, (guint) len);
  for (gsize i = 0; i < len && text; i++)
    text = payload[i] >= 0x20 || payload[i] == '\r' || payload[i] == '\n' || payload[i] == '\t';
  if (text)
    return cs_redact_sip_text (r, payload, len, NULL);
  out = g_byte_array_sized_new ((guint) len);
  g_byte_array_set_size (out, (guint) len);
  cs_redact_zero (out);
  return out;
}

GByteArray *
cs_redact_udp_payload (CsRedactor *r, const guint8 *payload, gsize len)
{
  if (len >= 4 && memcmp (payload, "HEP3", 4) == 0)
    return cs_redact_hep (r, payload, len);
  if (cs_sip_looks_like (payload, len))
    return cs_redact_sip_text (r, payload, len, NULL);
  if (cs_rtcp_looks_like (payload, len))
    {
      GByteArray *out = g_byte_array_append (g_byte_array_new (), payload, (guint) len);

      cs_redact_rtcp_sdes (r, out->data, out->len);
      return out;
    }
  if (cs_hep_looks_like (payload, len))
    return cs_redact_hep (r, payload, len);
  return cs_redact_other_udp (r, payload, len);
}

static void
cs_map_ip_addresses (CsRedactor *r, guint8 *ip, gboolean v6)
{
  CsAddr a, mapped;
  guint n = v6 ? 16 : 4;

  for (guint i = 0; i < 2; i++)
    {
      guint8 *at = ip + (v6 ? 8 : 12) + i * n;

      if (v6)
        cs_addr_set_v6 (&a, at);
      else
        cs_addr_set_v4 (&a, at);
      cs_redactor_map_addr (r, &a, &mapped);
      if (!r->observing)
        memcpy (at, mapped.bytes, n);
    }
}

/* The IP layer that encloses the header at layer index i. */
static gint
cs_enclosing_ip (const CsDecodeLayers *layers, guint i)
{
  for (gint k = (gint) i - 1; k >= 0; k--)
    if (layers->layers[k].kind == CS_LAYER_IPV4 || layers->layers[k].kind == CS_LAYER_IPV6)
      return k;
  return -1;
}

/* Lengths, fragment offsets, sequence numbers and checksums after the payload changed by
 * delta bytes (layers are all in front of the payload, so their offsets still hold). */
static void
cs_fix_layers (CsRedactor *r, GByteArray *f, const CsDecodeLayers *layers, gssize delta,
               const CsPacket *pkt, const CsRedactPiece *piece)
{
  for (guint i = 0; i < layers->n; i++)
    {
      guint8 *h = f->data + layers->layers[i].offset;
      guint16 v;

      switch (layers->layers[i].kind)
        {
        case CS_LAYER_PPPOE:
          cs_put_u16 (h + 4, (guint16) (cs_get_u16 (h + 4) + delta));
          break;
        case CS_LAYER_IPV4:
          cs_map_ip_addresses (r, h, FALSE);
          if ((v = cs_get_u16 (h + 2)) != 0)
            cs_put_u16 (h + 2, (guint16) (v + delta));
          if (piece != NULL && (cs_get_u16 (h + 6) & 0x3fff) != 0)
            cs_put_u16 (h + 6, (guint16) ((cs_get_u16 (h + 6) & 0xe000) | piece->frag_offset / 8));
          break;
        case CS_LAYER_IPV6:
          cs_map_ip_addresses (r, h, TRUE);
          if ((v = cs_get_u16 (h + 4)) != 0)
            cs_put_u16 (h + 4, (guint16) (v + delta));
          break;
        case CS_LAYER_IPV6_FRAGMENT:
          if (piece != NULL)
            cs_put_u16 (h + 2, (guint16) ((cs_get_u16 (h + 2) & 0x0007) | piece->frag_offset));
          break;
        case CS_LAYER_UDP:
          if ((v = cs_get_u16 (h + 4)) != 0)
            cs_put_u16 (h + 4, (guint16) (v + delta));
          break;
        case CS_LAYER_TCP:
          if (piece != NULL)
            cs_put_u32 (h + 4, piece->seq);
          else
            cs_put_u32 (h + 4,
                        cs_redact_stream_map_seq (r, &pkt->src, &pkt->dst, cs_get_u32 (h + 4)));
          if ((h[13] & 0x10) != 0)
            cs_put_u32 (h + 8,
                        cs_redact_stream_map_seq (r, &pkt->dst, &pkt->src, cs_get_u32 (h + 8)));
          break;
        default:
          break;
        }
    }
  /* checksums, innermost first: an outer UDP checksum covers the inner headers */
  for (guint i = layers->n; i-- > 0;)
    {
      guint8 *h = f->data + layers->layers[i].offset;
      gsize avail = f->len - layers->layers[i].offset;
      gint ip = cs_enclosing_ip (layers, i);
      guint8 *iph = ip >= 0 ? f->data + layers->layers[ip].offset : NULL;
      gboolean v6 = ip >= 0 && layers->layers[ip].kind == CS_LAYER_IPV6;
      guint kind = layers->layers[i].kind;

      if (kind == CS_LAYER_IPV4)
        {
          gsize hl = (gsize) (h[0] & 0x0f) * 4;

          if (hl >= 20 && hl <= avail)
            {
              cs_put_u16 (h + 10, 0);
              cs_put_u16 (h + 10, cs_fold_sum (cs_sum_bytes (0, h, hl)));
            }
        }
      else if ((kind == CS_LAYER_UDP || kind == CS_LAYER_TCP) && iph != NULL)
        {
          gsize seg_len, field = kind == CS_LAYER_UDP ? 6 : 16;
          guint8 *src = iph + (v6 ? 8 : 12), *dst = iph + (v6 ? 24 : 16);
          guint16 sum;

          if (kind == CS_LAYER_UDP)
            seg_len = cs_get_u16 (h + 4);
          else
            seg_len = v6 ? (gsize) cs_get_u16 (iph + 4) + layers->layers[ip].offset + 40
                               - layers->layers[i].offset
                         : (gsize) cs_get_u16 (iph + 2) + layers->layers[ip].offset
                               - layers->layers[i].offset;
          if (kind == CS_LAYER_UDP && !v6 && cs_get_u16 (h + 6) == 0)
            continue; /* no checksum before, none after */
          if (avail < field + 2)
            continue;
          if (seg_len < field + 2 || seg_len > avail)
            {
              /* not all captured: it cannot be recomputed (IPv4 UDP may go without) */
              if (kind == CS_LAYER_UDP && !v6)
                cs_put_u16 (h + 6, 0);
              continue;
            }
          sum = cs_redact_transport_checksum (src, dst, v6 ? 16 : 4, kind == CS_LAYER_UDP ? 17 : 6,
                                              h, seg_len, field);
          cs_put_u16 (h + field, kind == CS_LAYER_UDP && sum == 0 ? 0xffff : sum);
        }
    }
}

/* Tunnel headers with lengths or checksums of their own (the decoder lists where they are):
 * GTP-U's length of what follows its first 8 bytes; GRE's optional checksum, over the GRE
 * header and everything after it in the enclosing IP packet. */
static void
cs_fix_tunnels (GByteArray *f, const CsDecodeLayers *layers, gssize delta, const CsPacket *pkt)
{
  for (guint t = 0; t < pkt->n_tunnels; t++)
    {
      gsize off = pkt->tunnels[t].offset;
      guint8 *h = f->data + off;
      gsize end = 0;

      if (off + 8 > f->len)
        continue;
      if (pkt->tunnels[t].kind == CS_TUNNEL_GTP_U)
        cs_put_u16 (h + 2, (guint16) (cs_get_u16 (h + 2) + delta));
      if (pkt->tunnels[t].kind != CS_TUNNEL_GRE || (h[0] & 0x80) == 0)
        continue;
      for (guint i = 0; i < layers->n; i++)
        {
          const guint8 *ip = f->data + layers->layers[i].offset;

          if (layers->layers[i].offset >= off)
            break;
          if (layers->layers[i].kind == CS_LAYER_IPV4)
            end = layers->layers[i].offset + cs_get_u16 (ip + 2);
          else if (layers->layers[i].kind == CS_LAYER_IPV6)
            end = layers->layers[i].offset + 40 + cs_get_u16 (ip + 4);
        }
      if (end > off + 4 && end <= f->len)
        {
          cs_put_u16 (h + 4, 0);
          cs_put_u16 (h + 4, cs_fold_sum (cs_sum_bytes (0, h, end - off)));
        }
    }
}

/* Every letter and digit of [s, e) blanked in place: nothing readable is left. */
static void
cs_blank_in_place (guint8 *data, gsize s, gsize e)
{
  for (gsize i = s; i < e; i++)
    if (cs_redact_is_word_byte (data[i]))
      data[i] = 'x';
}

static gboolean
cs_rewrite_decoded (CsRedactor *r, guint32 number, guint linktype, const guint8 *data, gsize caplen,
                    GByteArray **out, gssize *delta)
{
  CsPacket pkt, again;
  CsDecodeLayers layers;
  CsDecodeStatus status = cs_decode_frame_layers (linktype, data, caplen, &pkt, &layers);
  const CsRedactPiece *piece = NULL;
  g_autoptr (GByteArray) payload = NULL;
  const guint8 *old;
  gsize old_len;
  GByteArray *f;

  if (status == CS_DECODE_FRAGMENT)
    {
      old = pkt.frag.data;
      old_len = pkt.frag.len;
      piece = cs_redact_stream_piece (r, number);
      if (piece == NULL)
        return FALSE;
      payload = g_byte_array_ref (piece->payload);
    }
  else if (status == CS_DECODE_OK)
    {
      old = pkt.payload;
      old_len = pkt.payload_len;
      if (pkt.ip_proto == CS_IP_PROTO_TCP)
        {
          piece = old_len > 0 ? cs_redact_stream_piece (r, number) : NULL;
          if (old_len > 0 && piece == NULL)
            return FALSE;
          payload = piece != NULL ? g_byte_array_ref (piece->payload) : g_byte_array_new ();
        }
      else
        payload = cs_redact_udp_payload (r, old, old_len);
    }
  else
    return FALSE;
  if (r->observing)
    return TRUE;
  f = g_byte_array_sized_new ((guint) (caplen + payload->len));
  g_byte_array_append (f, data, (guint) (old - data));
  g_byte_array_append (f, payload->data, payload->len);
  g_byte_array_append (f, old + old_len, (guint) (caplen - (gsize) (old - data) - old_len));
  *delta = (gssize) payload->len - (gssize) old_len;
  cs_map_link_addresses (r, linktype, f->data, f->len);
  cs_fix_layers (r, f, &layers, *delta, &pkt, piece);
  cs_fix_tunnels (f, &layers, *delta, &pkt);
  /* The new frame must read back as the same packet with its new payload; a tunnel header
   * whose length we do not know (GTP-U…) would not: then the frame is blanked instead. */
  if (cs_decode_frame (linktype, f->data, f->len, &again) != status
      || (status == CS_DECODE_OK
          && (again.payload_len != payload->len || again.src.port != pkt.src.port))
      || (status == CS_DECODE_FRAGMENT && again.frag.len != payload->len))
    {
      g_byte_array_unref (f);
      return FALSE;
    }
  *out = f;
  return TRUE;
}

void
cs_redactor_observe_frame (CsRedactor *r, guint32 number, guint linktype, const guint8 *data,
                           gsize caplen)
{
  CsPacket pkt;
  CsDecodeLayers layers;
  CsDecodeStatus status = cs_decode_frame_layers (linktype, data, caplen, &pkt, &layers);
  GByteArray *ignored = NULL;
  gssize delta;

  r->observing = TRUE;
  for (guint i = 0; i < layers.n; i++)
    {
      gboolean v6 = layers.layers[i].kind == CS_LAYER_IPV6;
      gsize header = v6 ? 40 : 20;

      if ((v6 || layers.layers[i].kind == CS_LAYER_IPV4)
          && layers.layers[i].offset + header <= caplen)
        {
          g_autofree guint8 *copy = g_memdup2 (data + layers.layers[i].offset, header);

          cs_map_ip_addresses (r, copy, v6);
        }
    }
  if (status == CS_DECODE_FRAGMENT)
    cs_redact_stream_observe_fragment (r, number, &pkt.src.addr, &pkt.dst.addr, pkt.ip_version,
                                       pkt.ip_proto, pkt.frag.id, pkt.frag.offset, pkt.frag.more,
                                       pkt.frag.data, pkt.frag.len);
  else if (status == CS_DECODE_OK && pkt.ip_proto == CS_IP_PROTO_TCP && pkt.payload_len > 0)
    cs_redact_stream_observe_tcp (r, number, &pkt.src, &pkt.dst, pkt.tcp_seq, pkt.payload,
                                  pkt.payload_len);
  else if (status == CS_DECODE_OK)
    cs_rewrite_decoded (r, number, linktype, data, caplen, &ignored, &delta);
  r->observing = FALSE;
}

GByteArray *
cs_redactor_rewrite_frame (CsRedactor *r, guint32 number, guint linktype, const guint8 *data,
                           gsize caplen, gsize *origlen)
{
  GByteArray *out = NULL;
  gssize delta = 0;

  g_return_val_if_fail (r->sealed, NULL);
  r->observing = FALSE;
  if (cs_rewrite_decoded (r, number, linktype, data, caplen, &out, &delta))
    {
      *origlen = (gsize) MAX ((gssize) *origlen + delta, (gssize) out->len);
      return out;
    }
  /* Not rewritable as a whole: every letter and digit goes, link addresses too. */
  r->n_blanked++;
  out = g_byte_array_append (g_byte_array_new (), data, (guint) caplen);
  cs_map_link_addresses (r, linktype, out->data, out->len);
  {
    CsPacket pkt;
    CsDecodeLayers layers;
    CsDecodeStatus status = cs_decode_frame_layers (linktype, out->data, out->len, &pkt, &layers);

    if (status == CS_DECODE_OK || status == CS_DECODE_FRAGMENT)
      {
        const guint8 *body = status == CS_DECODE_OK ? pkt.payload : pkt.frag.data;

        cs_blank_in_place (out->data, (gsize) (body - out->data), out->len);
        cs_fix_layers (r, out, &layers, 0, &pkt, NULL);
      }
    else
      cs_redact_zero (out);
  }
  return out;
}
