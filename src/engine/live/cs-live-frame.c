/* cs-live-frame.c — Ethernet/IPv4|IPv6/UDP|TCP headers around a payload */
#include "cs-live-frame.h"

#include "net/cs-decode.h"

#define CS_ETHERTYPE_IPV4 0x0800
#define CS_ETHERTYPE_IPV6 0x86dd
#define CS_TCP_MAX_FLOWS 65536

struct _CsLiveTcpSeq
{
  GHashTable *next; /* CsFlow* → GUINT_TO_POINTER (next sequence number) */
};

CsLiveTcpSeq *
cs_live_tcp_seq_new (void)
{
  CsLiveTcpSeq *seq = g_new0 (CsLiveTcpSeq, 1);

  seq->next = g_hash_table_new_full (cs_flow_hash, cs_flow_equal, g_free, NULL);
  return seq;
}

void
cs_live_tcp_seq_free (CsLiveTcpSeq *seq)
{
  if (seq == NULL)
    return;
  g_hash_table_unref (seq->next);
  g_free (seq);
}

/* Returns the sequence number for len bytes of this flow and advances it. */
static guint32
cs_live_tcp_seq_take (CsLiveTcpSeq *seq, const CsEndpoint *src, const CsEndpoint *dst, gsize len)
{
  CsFlow key;
  gpointer value;
  guint32 current = 1;

  if (seq == NULL)
    return current;
  memset (&key, 0, sizeof key);
  key.src = *src;
  key.dst = *dst;
  if (g_hash_table_lookup_extended (seq->next, &key, NULL, &value))
    current = GPOINTER_TO_UINT (value);
  else if (g_hash_table_size (seq->next) >= CS_TCP_MAX_FLOWS)
    g_hash_table_remove_all (seq->next); /* bounded: flows start again at 1 */
  g_hash_table_replace (seq->next, g_memdup2 (&key, sizeof key),
                        GUINT_TO_POINTER ((guint32) (current + len)));
  return current;
}

static void
put16 (guint8 *p, guint16 v)
{
  p[0] = v >> 8;
  p[1] = v & 0xff;
}

static void
put32 (guint8 *p, guint32 v)
{
  put16 (p, v >> 16);
  put16 (p + 2, v & 0xffff);
}

static guint16
cs_ipv4_checksum (const guint8 *hdr, gsize len)
{
  guint32 sum = 0;

  for (gsize i = 0; i + 1 < len; i += 2)
    sum += (guint32) (hdr[i] << 8 | hdr[i + 1]);
  while (sum >> 16)
    sum = (sum & 0xffff) + (sum >> 16);
  return (guint16) ~sum;
}

GByteArray *
cs_live_frame_build (const CsEndpoint *src, const CsEndpoint *dst, guint8 ip_proto,
                     const guint8 *payload, gsize len, CsLiveTcpSeq *seq)
{
  gboolean v6 = src->addr.family == 6;
  gsize l4 = ip_proto == CS_IP_PROTO_TCP ? 20 : 8;
  gsize l3 = v6 ? 40 : 20;
  gsize total;
  GByteArray *frame;
  guint8 *p;

  if (src->addr.family != dst->addr.family || (src->addr.family != 4 && !v6)
      || (ip_proto != CS_IP_PROTO_TCP && ip_proto != CS_IP_PROTO_UDP)
      || len > CS_LIVE_FRAME_MAX_PAYLOAD)
    return NULL;
  total = 14 + l3 + l4 + len;
  frame = g_byte_array_sized_new ((guint) total);
  g_byte_array_set_size (frame, (guint) total);
  p = frame->data;
  memset (p, 0, 14 + l3 + l4);
  /* Locally administered MACs: the original link layer is unknown. */
  p[0] = 0x02, p[5] = 0x02;
  p[6] = 0x02, p[11] = 0x01;
  put16 (p + 12, v6 ? CS_ETHERTYPE_IPV6 : CS_ETHERTYPE_IPV4);
  p += 14;
  if (v6)
    {
      p[0] = 0x60;
      put16 (p + 4, (guint16) (l4 + len));
      p[6] = ip_proto;
      p[7] = 64;
      memcpy (p + 8, src->addr.bytes, 16);
      memcpy (p + 24, dst->addr.bytes, 16);
    }
  else
    {
      p[0] = 0x45;
      put16 (p + 2, (guint16) (l3 + l4 + len));
      p[6] = 0x40; /* don't fragment */
      p[8] = 64;
      p[9] = ip_proto;
      memcpy (p + 12, src->addr.bytes, 4);
      memcpy (p + 16, dst->addr.bytes, 4);
      put16 (p + 10, cs_ipv4_checksum (p, 20));
    }
  p += l3;
  put16 (p, src->port);
  put16 (p + 2, dst->port);
  if (ip_proto == CS_IP_PROTO_UDP)
    put16 (p + 4, (guint16) (8 + len));
  else
    {
      put32 (p + 4, cs_live_tcp_seq_take (seq, src, dst, len));
      put32 (p + 8, 1);
      p[12] = 5 << 4;
      p[13] = CS_TCP_PSH | CS_TCP_ACK;
      put16 (p + 14, 65535);
    }
  p += l4;
  if (len > 0)
    memcpy (p, payload, len);
  return frame;
}
