/* cs-redact.c — consistent replacements and the frame half of redaction: IP headers,
 * RTCP SDES items and checksums (the SIP/SDP text half is cs-redact-text.c) */
#include "cs-redact-private.h"

#include <string.h>

#include "net/cs-decode.h"
#include "rtp/cs-rtp.h"
#include "sip/cs-sip-message.h"

#define CS_REDACT_MAX_TRIES 64

static guint
cs_addr_hash_cb (gconstpointer a)
{
  return cs_addr_hash (a);
}

static gboolean
cs_addr_equal_cb (gconstpointer a, gconstpointer b)
{
  return cs_addr_equal (a, b);
}

CsRedactor *
cs_redactor_new (void)
{
  CsRedactor *r = g_new0 (CsRedactor, 1);

  /* A fresh seed per export: the mapping cannot be replayed from another file. */
  r->rand = g_rand_new ();
  r->original_addrs = g_hash_table_new_full (cs_addr_hash_cb, cs_addr_equal_cb, g_free, NULL);
  r->addr_map = g_hash_table_new_full (cs_addr_hash_cb, cs_addr_equal_cb, g_free, g_free);
  r->used_addrs = g_hash_table_new_full (cs_addr_hash_cb, cs_addr_equal_cb, g_free, NULL);
  r->original_users = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r->user_map = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  r->used_users = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r->mac_map = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  return r;
}

void
cs_redactor_free (CsRedactor *r)
{
  if (r == NULL)
    return;
  g_rand_free (r->rand);
  g_hash_table_unref (r->original_addrs);
  g_hash_table_unref (r->addr_map);
  g_hash_table_unref (r->used_addrs);
  g_hash_table_unref (r->original_users);
  g_hash_table_unref (r->user_map);
  g_hash_table_unref (r->used_users);
  g_hash_table_unref (r->mac_map);
  g_free (r);
}

gboolean
cs_redact_addr_is_public (const CsAddr *a)
{
  static const guint8 zeros[16];

  if (a->family == 4)
    {
      const guint8 *b = a->bytes;

      if (b[0] == 0 || b[0] == 127 || b[0] >= 224)
        return FALSE;
      return TRUE;
    }
  if (a->family == 6)
    {
      if (a->bytes[0] == 0xff)
        return FALSE;
      if (memcmp (a->bytes, zeros, 15) == 0 && a->bytes[15] <= 1)
        return FALSE;
      return TRUE;
    }
  return FALSE;
}

/* A random value with the same number of significant digits (base 10 or 16) as v. */
static guint
cs_random_same_width (GRand *rand, guint v, guint base, guint max)
{
  guint low = 1, high = base - 1;

  if (v == 0)
    return g_rand_int_range (rand, 0, (gint32) base);
  while (v >= base)
    {
      v /= base;
      low *= base;
      high = high * base + (base - 1);
    }
  high = MIN (high, max);
  return g_rand_int_range (rand, (gint32) low, (gint32) high + 1);
}

static void
cs_generate_addr (CsRedactor *r, const CsAddr *original, CsAddr *out)
{
  *out = *original;
  if (original->family == 4)
    for (guint i = 0; i < 4; i++)
      out->bytes[i]
          = (guint8) cs_random_same_width (r->rand, original->bytes[i], 10, i == 0 ? 223 : 255);
  else
    for (guint g = 0; g < 8; g++)
      {
        guint v = ((guint) original->bytes[2 * g] << 8) | original->bytes[2 * g + 1];

        /* Zero groups stay zero so that "::" compresses the same groups. */
        if (v != 0)
          v = cs_random_same_width (r->rand, v, 16, g == 0 ? 0xfeff : 0xffff);
        out->bytes[2 * g] = (guint8) (v >> 8);
        out->bytes[2 * g + 1] = (guint8) v;
      }
}

void
cs_redactor_map_addr (CsRedactor *r, const CsAddr *original, CsAddr *out)
{
  const CsAddr *known;

  *out = *original;
  if (!cs_redact_addr_is_public (original))
    return;
  if (r->observing)
    {
      if (!g_hash_table_contains (r->original_addrs, original))
        g_hash_table_add (r->original_addrs, g_memdup2 (original, sizeof *original));
      return;
    }
  known = g_hash_table_lookup (r->addr_map, original);
  if (known != NULL)
    {
      *out = *known;
      return;
    }
  for (guint tries = 0; tries < CS_REDACT_MAX_TRIES; tries++)
    {
      cs_generate_addr (r, original, out);
      if (cs_redact_addr_is_public (out) && !g_hash_table_contains (r->original_addrs, out)
          && !g_hash_table_contains (r->used_addrs, out) && !cs_addr_equal (out, original))
        break;
    }
  g_hash_table_insert (r->addr_map, g_memdup2 (original, sizeof *original),
                       g_memdup2 (out, sizeof *out));
  g_hash_table_add (r->used_addrs, g_memdup2 (out, sizeof *out));
}

static char
cs_random_other_char (GRand *rand, char c)
{
  char first, n;

  if (g_ascii_isdigit (c))
    first = '0', n = 10;
  else if (g_ascii_islower (c))
    first = 'a', n = 26;
  else if (g_ascii_isupper (c))
    first = 'A', n = 26;
  else
    return c;
  /* Never the same character: a replacement cannot leak any original digit in place. */
  return (char) (first + (c - first + g_rand_int_range (rand, 1, n)) % n);
}

const char *
cs_redactor_map_user (CsRedactor *r, const char *original, gsize len)
{
  g_autofree char *key = g_strndup (original, len);
  char *known;
  char *out;

  if (r->observing)
    {
      if (!g_hash_table_contains (r->original_users, key))
        g_hash_table_add (r->original_users, g_strdup (key));
      return g_hash_table_lookup (r->original_users, key);
    }
  known = g_hash_table_lookup (r->user_map, key);
  if (known != NULL)
    return known;
  out = g_strdup (key);
  for (guint tries = 0; tries < CS_REDACT_MAX_TRIES; tries++)
    {
      for (gsize i = 0; i < len; i++)
        out[i] = cs_random_other_char (r->rand, key[i]);
      if (!g_hash_table_contains (r->original_users, out)
          && !g_hash_table_contains (r->used_users, out))
        break;
    }
  g_hash_table_add (r->used_users, g_strdup (out));
  g_hash_table_insert (r->user_map, g_steal_pointer (&key), out);
  return out;
}

guint
cs_redactor_get_n_addresses (CsRedactor *r)
{
  return g_hash_table_size (r->addr_map);
}

guint
cs_redactor_get_n_users (CsRedactor *r)
{
  return g_hash_table_size (r->user_map);
}

static guint16
cs_get_u16 (const guint8 *p)
{
  return (guint16) ((p[0] << 8) | p[1]);
}

static void
cs_put_u16 (guint8 *p, guint16 v)
{
  p[0] = (guint8) (v >> 8);
  p[1] = (guint8) v;
}

/* The IP header that carries this packet: decode gives the transport offset and the
 * addresses, so walk back to the header whose addresses match. -1 when not found. */
static gssize
cs_find_ip_header (const guint8 *data, gsize caplen, const CsPacket *pkt, gsize transport)
{
  if (transport > caplen)
    return -1;
  if (pkt->ip_version == 4)
    {
      for (gsize hl = 20; hl <= 60 && hl <= transport; hl += 4)
        {
          const guint8 *ip = data + transport - hl;

          if (ip[0] >> 4 == 4 && (gsize) (ip[0] & 0x0f) * 4 == hl
              && memcmp (ip + 12, pkt->src.addr.bytes, 4) == 0
              && memcmp (ip + 16, pkt->dst.addr.bytes, 4) == 0)
            return (gssize) (transport - hl);
        }
    }
  else if (pkt->ip_version == 6)
    {
      /* Extension headers come in multiples of 8 bytes. */
      for (gsize back = 40; back <= transport && back <= 40 + 8 * 64; back += 8)
        {
          const guint8 *ip = data + transport - back;

          if (ip[0] >> 4 == 6 && memcmp (ip + 8, pkt->src.addr.bytes, 16) == 0
              && memcmp (ip + 24, pkt->dst.addr.bytes, 16) == 0)
            return (gssize) (transport - back);
        }
    }
  return -1;
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

static void
cs_fix_ipv4_header_checksum (guint8 *ip, gsize available)
{
  gsize hl = (gsize) (ip[0] & 0x0f) * 4;

  if (hl < 20 || hl > available)
    return;
  cs_put_u16 (ip + 10, 0);
  cs_put_u16 (ip + 10, cs_fold_sum (cs_sum_bytes (0, ip, hl)));
}

/* Transport checksum over the pseudo-header and segment [seg, seg + len); the field at
 * seg + field is zeroed first. */
static guint16
cs_transport_checksum (const guint8 *ip, guint version, guint8 proto, guint8 *seg, gsize len,
                       gsize field)
{
  guint32 sum = 0;

  cs_put_u16 (seg + field, 0);
  if (version == 4)
    sum = cs_sum_bytes (sum, ip + 12, 8);
  else
    sum = cs_sum_bytes (sum, ip + 8, 32);
  sum += proto;
  sum += (guint32) (len & 0xffff) + (guint32) (len >> 16);
  sum = cs_sum_bytes (sum, seg, len);
  return cs_fold_sum (sum);
}

/* Blanks the text of every SDES item (CNAME often holds user@address). */
static void
cs_scrub_rtcp_sdes (CsRedactor *r, guint8 *data, gsize len)
{
  gsize pos = 0;

  while (pos + 4 <= len)
    {
      guint count = data[pos] & 0x1f;
      gsize plen = ((gsize) cs_get_u16 (data + pos + 2) + 1) * 4;
      gsize end = MIN (pos + plen, len);

      if (data[pos + 1] == 202 && !r->observing)
        {
          gsize p = pos + 4;

          for (guint c = 0; c < count && p + 4 <= end; c++)
            {
              p += 4; /* SSRC */
              while (p < end && data[p] != 0)
                {
                  gsize item_len;

                  if (p + 2 > end)
                    return;
                  item_len = data[p + 1];
                  if (p + 2 + item_len > end)
                    return;
                  memset (data + p + 2, 'x', item_len);
                  p += 2 + item_len;
                }
              p = (p + 4) & ~(gsize) 3; /* the null item, then padding to 32 bits */
            }
        }
      pos += plen;
    }
}

/* HEPv3 (HOMER encapsulation): the addresses of the carried packet, its SIP text and the
 * auth key live in chunks (vendor 0: 3/4 IPv4, 5/6 IPv6 addresses, 14 auth key, 15 payload,
 * 17 correlation id). */
static void
cs_redact_hep3 (CsRedactor *r, guint8 *data, gsize len)
{
  gsize pos = 6;

  while (pos + 6 <= len)
    {
      guint16 vendor = cs_get_u16 (data + pos), type = cs_get_u16 (data + pos + 2);
      gsize chunk_len = cs_get_u16 (data + pos + 4);
      guint8 *value = data + pos + 6;
      gsize value_len;
      CsAddr addr, mapped;

      if (chunk_len < 6 || pos + chunk_len > len)
        return;
      value_len = chunk_len - 6;
      if (vendor == 0 && (type == 3 || type == 4) && value_len == 4)
        {
          cs_addr_set_v4 (&addr, value);
          cs_redactor_map_addr (r, &addr, &mapped);
          if (!r->observing)
            memcpy (value, mapped.bytes, 4);
        }
      else if (vendor == 0 && (type == 5 || type == 6) && value_len == 16)
        {
          cs_addr_set_v6 (&addr, value);
          cs_redactor_map_addr (r, &addr, &mapped);
          if (!r->observing)
            memcpy (value, mapped.bytes, 16);
        }
      else if (vendor == 0 && type == 14 && !r->observing)
        memset (value, 'x', value_len);
      else if (vendor == 0 && (type == 15 || type == 17))
        cs_redactor_rewrite_text (r, value, value_len);
      pos += chunk_len;
    }
}

static void
cs_redact_payload (CsRedactor *r, const CsPacket *pkt, guint8 *payload, gsize len,
                   gboolean is_fragment)
{
  if (len == 0)
    return;
  if (pkt->ip_proto == CS_IP_PROTO_UDP && !is_fragment && len >= 6
      && memcmp (payload, "HEP3", 4) == 0)
    {
      cs_redact_hep3 (r, payload, MIN (len, (gsize) cs_get_u16 (payload + 4)));
      return;
    }
  if (pkt->ip_proto == CS_IP_PROTO_UDP && !is_fragment && cs_rtcp_looks_like (payload, len))
    cs_scrub_rtcp_sdes (r, payload, len);
  else if (pkt->ip_proto == CS_IP_PROTO_TCP || is_fragment || cs_sip_looks_like (payload, len))
    cs_redactor_rewrite_text (r, payload, len);
}

/* MAC addresses often embed the host (or, in lab captures, its IP address): replaced by
 * random locally administered ones; group (multicast, broadcast) addresses are kept. */
static void
cs_map_mac (CsRedactor *r, guint8 *mac)
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
cs_rewrite_link_addresses (CsRedactor *r, guint linktype, guint8 *data, gsize caplen)
{
  if (linktype == CS_LINKTYPE_ETHERNET && caplen >= 14)
    {
      cs_map_mac (r, data);
      cs_map_mac (r, data + 6);
    }
  else if (linktype == CS_LINKTYPE_LINUX_SLL && caplen >= 16 && data[4] == 0 && data[5] == 6)
    cs_map_mac (r, data + 6);
  else if (linktype == CS_LINKTYPE_LINUX_SLL2 && caplen >= 20 && data[11] == 6)
    cs_map_mac (r, data + 12);
}

static void
cs_rewrite_frame (CsRedactor *r, guint linktype, guint8 *data, gsize caplen, gboolean *ok)
{
  CsPacket pkt;
  CsDecodeStatus status = cs_decode_frame (linktype, data, caplen, &pkt);
  gboolean fragment = status == CS_DECODE_FRAGMENT;
  gsize transport;
  gssize ip_off;
  guint8 *ip;
  CsAddr src, dst;

  *ok = FALSE;
  if (status != CS_DECODE_OK && !fragment)
    return;
  transport = pkt.transport_offset;
  ip_off = cs_find_ip_header (data, caplen, &pkt, transport);
  if (ip_off < 0)
    return;
  ip = data + ip_off;
  *ok = TRUE;

  cs_redactor_map_addr (r, &pkt.src.addr, &src);
  cs_redactor_map_addr (r, &pkt.dst.addr, &dst);
  if (fragment)
    {
      gsize start = (gsize) (pkt.frag.data - data);
      gsize end = MIN (start + pkt.frag.len, caplen);

      if (pkt.frag.offset == 0 && pkt.ip_proto == CS_IP_PROTO_UDP)
        start += 8; /* the first fragment starts with the UDP header */
      if (start < end)
        cs_redact_payload (r, &pkt, data + start, end - start, TRUE);
    }
  else
    {
      gsize start = (gsize) (pkt.payload - data);

      if (start <= caplen && pkt.payload_len <= caplen - start)
        cs_redact_payload (r, &pkt, data + start, pkt.payload_len, FALSE);
    }
  if (r->observing)
    return;

  cs_rewrite_link_addresses (r, linktype, data, caplen);
  if (pkt.ip_version == 4)
    {
      memcpy (ip + 12, src.bytes, 4);
      memcpy (ip + 16, dst.bytes, 4);
      cs_fix_ipv4_header_checksum (ip, caplen - (gsize) ip_off);
    }
  else
    {
      memcpy (ip + 8, src.bytes, 16);
      memcpy (ip + 24, dst.bytes, 16);
    }

  if (fragment)
    {
      /* The UDP checksum covers the whole datagram: drop it (IPv4 allows that). */
      if (pkt.frag.offset == 0 && pkt.ip_proto == CS_IP_PROTO_UDP && pkt.ip_version == 4
          && transport + 8 <= caplen)
        cs_put_u16 (data + transport + 6, 0);
      return;
    }
  if (pkt.ip_proto == CS_IP_PROTO_UDP && transport + 8 <= caplen)
    {
      guint8 *udp = data + transport;
      gsize udp_len = cs_get_u16 (udp + 4);

      if (pkt.ip_version == 4 && cs_get_u16 (udp + 6) == 0)
        return; /* no checksum before, none after */
      if (udp_len >= 8 && transport + udp_len <= caplen)
        {
          guint16 sum = cs_transport_checksum (ip, pkt.ip_version, 17, udp, udp_len, 6);

          cs_put_u16 (udp + 6, sum == 0 ? 0xffff : sum);
        }
      else if (pkt.ip_version == 4)
        cs_put_u16 (udp + 6, 0);
    }
  else if (pkt.ip_proto == CS_IP_PROTO_TCP && transport + 20 <= caplen)
    {
      gsize ip_end = pkt.ip_version == 4 ? (gsize) ip_off + cs_get_u16 (ip + 2)
                                         : (gsize) ip_off + 40 + cs_get_u16 (ip + 4);

      if (ip_end <= caplen && ip_end >= transport + 20)
        cs_put_u16 (data + transport + 16,
                    cs_transport_checksum (ip, pkt.ip_version, 6, data + transport,
                                           ip_end - transport, 16));
    }
}

void
cs_redactor_observe_frame (CsRedactor *r, guint linktype, const guint8 *data, gsize caplen)
{
  g_autofree guint8 *scratch = g_memdup2 (data, caplen);
  gboolean ok;

  r->observing = TRUE;
  cs_rewrite_frame (r, linktype, scratch, caplen, &ok);
  r->observing = FALSE;
}

gboolean
cs_redactor_rewrite_frame (CsRedactor *r, guint linktype, guint8 *data, gsize caplen)
{
  gboolean ok;

  r->observing = FALSE;
  cs_rewrite_frame (r, linktype, data, caplen, &ok);
  return ok;
}
