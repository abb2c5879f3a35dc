/* cs-hep.c — HEP v2 and v3 (HEP3/EEP) decapsulation, and a HEP3 encoder */
#include "cs-hep.h"

#include "base/cs-cursor.h"

#include <string.h>

#define HEP3_MAGIC "HEP3"
#define HEP3_HEADER_LEN 6
#define HEP3_CHUNK_HEADER_LEN 6

/* HEP3 chunk types of vendor 0 (the generic vendor). */
enum
{
  CHUNK_IP_FAMILY = 0x0001,
  CHUNK_IP_PROTO = 0x0002,
  CHUNK_IPV4_SRC = 0x0003,
  CHUNK_IPV4_DST = 0x0004,
  CHUNK_IPV6_SRC = 0x0005,
  CHUNK_IPV6_DST = 0x0006,
  CHUNK_SRC_PORT = 0x0007,
  CHUNK_DST_PORT = 0x0008,
  CHUNK_TS_SEC = 0x0009,
  CHUNK_TS_USEC = 0x000a,
  CHUNK_PROTO_TYPE = 0x000b,
  CHUNK_CAPTURE_ID = 0x000c,
  CHUNK_AUTH_KEY = 0x000e,
  CHUNK_PAYLOAD = 0x000f,
  CHUNK_COMPRESSED_PAYLOAD = 0x0010,
  CHUNK_CORRELATION_ID = 0x0011,
};

/* HEP v1/v2 carry the sender's AF_* value; Linux's are the ones seen in practice. */
#define HEP2_AF_INET 2
#define HEP2_AF_INET6 10
#define HEP2_HEADER_LEN 8
#define HEP2_V4_LEN (HEP2_HEADER_LEN + 8)
#define HEP2_V6_LEN (HEP2_HEADER_LEN + 32)
/* struct hep_timehdr { u32 sec; u32 usec; u16 captid; } as C lays it out: padded to 12. */
#define HEP2_TIME_LEN 12

static gboolean
hep_fail (GError **error, CsDecodeError code, const char *what)
{
  g_set_error (error, CS_DECODE_ERROR, code, "HEP: %s", what);
  return FALSE;
}

static gboolean
hep2_header_plausible (const guint8 *data, gsize len)
{
  if (len < HEP2_HEADER_LEN)
    return FALSE;
  guint8 version = data[0], header_len = data[1], family = data[2], proto = data[3];
  if (version != 1 && version != 2)
    return FALSE;
  if (!((header_len == HEP2_V4_LEN && family == HEP2_AF_INET)
        || (header_len == HEP2_V6_LEN && family == HEP2_AF_INET6)))
    return FALSE;
  if (proto != 6 && proto != 17 && proto != 132)
    return FALSE;
  return len >= (gsize) header_len + (version == 2 ? HEP2_TIME_LEN : 0);
}

gboolean
cs_hep_looks_like (const guint8 *data, gsize len)
{
  if (data == NULL)
    return FALSE;
  if (len >= HEP3_HEADER_LEN && memcmp (data, HEP3_MAGIC, 4) == 0)
    return TRUE;
  return hep2_header_plausible (data, len);
}

static gboolean
hep2_decode (const guint8 *data, gsize len, CsHepPacket *out, GError **error)
{
  CsCursor c;
  guint8 version, header_len, family, proto;
  guint16 sport, dport;
  const guint8 *src, *dst;

  if (!hep2_header_plausible (data, len))
    return hep_fail (error, CS_DECODE_ERROR_MALFORMED, "not a HEP v1/v2 header");
  cs_cursor_init (&c, data, len);
  if (!cs_cursor_u8 (&c, &version) || !cs_cursor_u8 (&c, &header_len) || !cs_cursor_u8 (&c, &family)
      || !cs_cursor_u8 (&c, &proto) || !cs_cursor_u16be (&c, &sport)
      || !cs_cursor_u16be (&c, &dport))
    return hep_fail (error, CS_DECODE_ERROR_MALFORMED, "truncated header");
  gsize addr_len = family == HEP2_AF_INET ? 4 : 16;
  if (!cs_cursor_bytes (&c, addr_len, &src) || !cs_cursor_bytes (&c, addr_len, &dst))
    return hep_fail (error, CS_DECODE_ERROR_MALFORMED, "truncated addresses");
  if (addr_len == 4)
    {
      cs_addr_set_v4 (&out->src.addr, src);
      cs_addr_set_v4 (&out->dst.addr, dst);
    }
  else
    {
      cs_addr_set_v6 (&out->src.addr, src);
      cs_addr_set_v6 (&out->dst.addr, dst);
    }
  out->src.port = sport;
  out->dst.port = dport;
  out->version = version;
  out->ip_proto = proto;
  out->payload_type = CS_HEP_PROTO_SIP;
  if (version == 2)
    {
      guint32 sec, usec;
      guint16 capture_id;

      /* Senders copy the struct in host order, i.e. little-endian in practice. */
      if (!cs_cursor_u32le (&c, &sec) || !cs_cursor_u32le (&c, &usec)
          || !cs_cursor_u16le (&c, &capture_id) || !cs_cursor_skip (&c, HEP2_TIME_LEN - 10))
        return hep_fail (error, CS_DECODE_ERROR_MALFORMED, "truncated time header");
      out->ts_ns = (gint64) sec * G_GINT64_CONSTANT (1000000000) + (gint64) usec * 1000;
      out->capture_id = capture_id;
    }
  out->payload = cs_cursor_here (&c);
  out->payload_len = cs_cursor_remaining (&c);
  return TRUE;
}

static gboolean
chunk_u8 (CsCursor *body, guint8 *value)
{
  return cs_cursor_remaining (body) == 1 && cs_cursor_u8 (body, value);
}

static gboolean
chunk_u16 (CsCursor *body, guint16 *value)
{
  return cs_cursor_remaining (body) == 2 && cs_cursor_u16be (body, value);
}

static gboolean
chunk_u32 (CsCursor *body, guint32 *value)
{
  return cs_cursor_remaining (body) == 4 && cs_cursor_u32be (body, value);
}

static gboolean
chunk_addr (CsCursor *body, gsize addr_len, CsAddr *addr)
{
  const guint8 *bytes;

  if (cs_cursor_remaining (body) != addr_len || !cs_cursor_bytes (body, addr_len, &bytes))
    return FALSE;
  if (addr_len == 4)
    cs_addr_set_v4 (addr, bytes);
  else
    cs_addr_set_v6 (addr, bytes);
  return TRUE;
}

/* Reads one vendor-0 chunk into out; FALSE when its length does not fit its type. */
static gboolean
hep3_read_chunk (guint16 type, CsCursor *body, CsHepPacket *out, gboolean *have_payload,
                 gboolean *have_compressed)
{
  guint8 u8;
  guint16 u16;
  guint32 u32;
  gsize n = cs_cursor_remaining (body);

  switch (type)
    {
    case CHUNK_IP_FAMILY:
      return chunk_u8 (body, &u8);
    case CHUNK_IP_PROTO:
      return chunk_u8 (body, &out->ip_proto);
    case CHUNK_IPV4_SRC:
      return chunk_addr (body, 4, &out->src.addr);
    case CHUNK_IPV4_DST:
      return chunk_addr (body, 4, &out->dst.addr);
    case CHUNK_IPV6_SRC:
      return chunk_addr (body, 16, &out->src.addr);
    case CHUNK_IPV6_DST:
      return chunk_addr (body, 16, &out->dst.addr);
    case CHUNK_SRC_PORT:
      return chunk_u16 (body, &out->src.port);
    case CHUNK_DST_PORT:
      return chunk_u16 (body, &out->dst.port);
    case CHUNK_TS_SEC:
      if (!chunk_u32 (body, &u32))
        return FALSE;
      out->ts_ns += (gint64) u32 * G_GINT64_CONSTANT (1000000000);
      return TRUE;
    case CHUNK_TS_USEC:
      if (!chunk_u32 (body, &u32))
        return FALSE;
      out->ts_ns += (gint64) u32 * 1000;
      return TRUE;
    case CHUNK_PROTO_TYPE:
      return chunk_u8 (body, &out->payload_type);
    case CHUNK_CAPTURE_ID:
      /* Some agents send a 16-bit capture id. */
      if (n == 2 && chunk_u16 (body, &u16))
        {
          out->capture_id = u16;
          return TRUE;
        }
      return chunk_u32 (body, &out->capture_id);
    case CHUNK_AUTH_KEY:
      out->auth_key = (const char *) cs_cursor_here (body);
      out->auth_key_len = n;
      return TRUE;
    case CHUNK_PAYLOAD:
      out->payload = cs_cursor_here (body);
      out->payload_len = n;
      *have_payload = TRUE;
      return TRUE;
    case CHUNK_COMPRESSED_PAYLOAD:
      *have_compressed = TRUE;
      return TRUE;
    case CHUNK_CORRELATION_ID:
      out->correlation_id = (const char *) cs_cursor_here (body);
      out->correlation_id_len = n;
      return TRUE;
    default:
      return TRUE; /* keep-alive timer, VLAN, MACs, QoS values…: not needed */
    }
}

static gboolean
hep3_decode (const guint8 *data, gsize len, CsHepPacket *out, GError **error)
{
  CsCursor c, chunks;
  guint16 total_len;
  gboolean have_payload = FALSE, have_compressed = FALSE;

  cs_cursor_init (&c, data, len);
  if (!cs_cursor_skip (&c, 4) || !cs_cursor_u16be (&c, &total_len))
    return hep_fail (error, CS_DECODE_ERROR_MALFORMED, "truncated HEP3 header");
  if (total_len < HEP3_HEADER_LEN || total_len > len)
    return hep_fail (error, CS_DECODE_ERROR_MALFORMED, "HEP3 length does not match the datagram");
  cs_cursor_init (&chunks, data + HEP3_HEADER_LEN, total_len - HEP3_HEADER_LEN);
  out->version = 3;

  while (cs_cursor_remaining (&chunks) > 0)
    {
      guint16 vendor, type, chunk_len;
      CsCursor body;

      if (!cs_cursor_u16be (&chunks, &vendor) || !cs_cursor_u16be (&chunks, &type)
          || !cs_cursor_u16be (&chunks, &chunk_len))
        return hep_fail (error, CS_DECODE_ERROR_MALFORMED, "truncated chunk header");
      if (chunk_len < HEP3_CHUNK_HEADER_LEN
          || !cs_cursor_sub (&chunks, chunk_len - HEP3_CHUNK_HEADER_LEN, &body))
        return hep_fail (error, CS_DECODE_ERROR_MALFORMED, "chunk length runs past the packet");
      if (vendor != 0)
        continue;
      if (!hep3_read_chunk (type, &body, out, &have_payload, &have_compressed))
        return hep_fail (error, CS_DECODE_ERROR_MALFORMED, "chunk length does not fit its type");
    }
  if (!have_payload)
    {
      if (have_compressed)
        return hep_fail (error, CS_DECODE_ERROR_UNSUPPORTED, "compressed payload");
      return hep_fail (error, CS_DECODE_ERROR_MALFORMED, "no payload chunk");
    }
  return TRUE;
}

gboolean
cs_hep_decode (const guint8 *data, gsize len, CsHepPacket *out, GError **error)
{
  g_return_val_if_fail (out != NULL, FALSE);
  memset (out, 0, sizeof *out);
  if (data == NULL || len < 4)
    return hep_fail (error, CS_DECODE_ERROR_MALFORMED, "too short");
  if (memcmp (data, HEP3_MAGIC, 4) == 0)
    return hep3_decode (data, len, out, error);
  return hep2_decode (data, len, out, error);
}

/* ---- encoder ---- */

static void
put_u16 (GByteArray *buf, guint16 value)
{
  guint8 bytes[2] = { value >> 8, value & 0xff };
  g_byte_array_append (buf, bytes, 2);
}

static void
put_chunk (GByteArray *buf, guint16 type, const void *body, gsize len)
{
  put_u16 (buf, 0);
  put_u16 (buf, type);
  put_u16 (buf, (guint16) MIN (len + HEP3_CHUNK_HEADER_LEN, G_MAXUINT16));
  if (len > 0)
    g_byte_array_append (buf, body, (guint) len);
}

static void
put_chunk_u8 (GByteArray *buf, guint16 type, guint8 value)
{
  put_chunk (buf, type, &value, 1);
}

static void
put_chunk_u16 (GByteArray *buf, guint16 type, guint16 value)
{
  guint8 bytes[2] = { value >> 8, value & 0xff };
  put_chunk (buf, type, bytes, 2);
}

static void
put_chunk_u32 (GByteArray *buf, guint16 type, guint32 value)
{
  guint8 bytes[4] = { value >> 24, (value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff };
  put_chunk (buf, type, bytes, 4);
}

GByteArray *
cs_hep3_encode (const CsHepPacket *in)
{
  g_return_val_if_fail (in != NULL, NULL);
  gsize estimate = 128 + in->payload_len + in->auth_key_len + in->correlation_id_len;
  if (estimate > G_MAXUINT16 + (gsize) 128)
    return NULL;

  GByteArray *buf = g_byte_array_sized_new ((guint) estimate);
  g_byte_array_append (buf, (const guint8 *) HEP3_MAGIC, 4);
  put_u16 (buf, 0); /* total length, filled in below */

  gboolean v6 = in->src.addr.family == 6;
  put_chunk_u8 (buf, CHUNK_IP_FAMILY, v6 ? HEP2_AF_INET6 : HEP2_AF_INET);
  put_chunk_u8 (buf, CHUNK_IP_PROTO, in->ip_proto);
  put_chunk (buf, v6 ? CHUNK_IPV6_SRC : CHUNK_IPV4_SRC, in->src.addr.bytes, v6 ? 16 : 4);
  put_chunk (buf, v6 ? CHUNK_IPV6_DST : CHUNK_IPV4_DST, in->dst.addr.bytes, v6 ? 16 : 4);
  put_chunk_u16 (buf, CHUNK_SRC_PORT, in->src.port);
  put_chunk_u16 (buf, CHUNK_DST_PORT, in->dst.port);
  gint64 ts = MAX (in->ts_ns, 0);
  put_chunk_u32 (buf, CHUNK_TS_SEC, (guint32) (ts / G_GINT64_CONSTANT (1000000000)));
  put_chunk_u32 (buf, CHUNK_TS_USEC, (guint32) ((ts % G_GINT64_CONSTANT (1000000000)) / 1000));
  put_chunk_u8 (buf, CHUNK_PROTO_TYPE, in->payload_type != 0 ? in->payload_type : CS_HEP_PROTO_SIP);
  put_chunk_u32 (buf, CHUNK_CAPTURE_ID, in->capture_id);
  if (in->auth_key != NULL)
    put_chunk (buf, CHUNK_AUTH_KEY, in->auth_key, in->auth_key_len);
  if (in->correlation_id != NULL)
    put_chunk (buf, CHUNK_CORRELATION_ID, in->correlation_id, in->correlation_id_len);
  put_chunk (buf, CHUNK_PAYLOAD, in->payload, in->payload_len);

  if (buf->len > G_MAXUINT16)
    {
      g_byte_array_unref (buf);
      return NULL;
    }
  buf->data[4] = (guint8) (buf->len >> 8);
  buf->data[5] = (guint8) (buf->len & 0xff);
  return buf;
}
