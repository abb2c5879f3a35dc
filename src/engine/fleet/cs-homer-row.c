/* cs-homer-row.c — a Homer row read back into the frame a capture would have held */
#include "cs-homer-row.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "cs-homer-query.h"
#include "net/cs-hep.h"

#define CS_HOMER_HEP_PORT 9060
#define ETH_LEN 14
#define IPV4_LEN 20
#define IPV6_LEN 40
#define UDP_LEN 8

static gboolean
row_error (GError **error, const char *const values[CS_HOMER_N_COLS], const char *what,
           const char *value)
{
  guint table = (guint) g_ascii_strtoull (values[CS_HOMER_COL_TABLE], NULL, 10);

  g_set_error (error, CS_HOMER_ERROR, CS_HOMER_ERROR_ROW, "%s row %s: %s \"%s\"",
               table < CS_HOMER_N_TABLES ? cs_homer_tables[table] : "?",
               values[CS_HOMER_COL_ID] != NULL ? values[CS_HOMER_COL_ID] : "?", what,
               value != NULL ? value : "(null)");
  return FALSE;
}

static gboolean
parse_u64 (const char *text, guint64 max, guint64 *out)
{
  char *end = NULL;

  if (text == NULL || *text == '\0' || *text == '-')
    return FALSE;
  *out = g_ascii_strtoull (text, &end, 10);
  return end != NULL && *end == '\0' && *out <= max;
}

gboolean
cs_homer_row_parse (const char *const values[CS_HOMER_N_COLS], const int lengths[CS_HOMER_N_COLS],
                    CsHomerRow *row, GError **error)
{
  guint64 sec, usec, port, proto;

  memset (row, 0, sizeof *row);
  row->table = (guint) g_ascii_strtoull (values[CS_HOMER_COL_TABLE], NULL, 10);
  row->id = values[CS_HOMER_COL_ID];
  if (parse_u64 (values[CS_HOMER_COL_TS_SEC], G_MAXUINT32, &sec)
      && parse_u64 (values[CS_HOMER_COL_TS_USEC], 999999, &usec) && sec > 0)
    row->ts_us = (gint64) (sec * G_USEC_PER_SEC + usec);
  else if (values[CS_HOMER_COL_CREATED_US] != NULL)
    row->ts_us = g_ascii_strtoll (values[CS_HOMER_COL_CREATED_US], NULL, 10);
  if (!cs_addr_parse (&row->src.addr,
                      values[CS_HOMER_COL_SRC_IP] ? values[CS_HOMER_COL_SRC_IP] : ""))
    return row_error (error, values, "protocol_header srcIp is not an IP address",
                      values[CS_HOMER_COL_SRC_IP]);
  if (!cs_addr_parse (&row->dst.addr,
                      values[CS_HOMER_COL_DST_IP] ? values[CS_HOMER_COL_DST_IP] : ""))
    return row_error (error, values, "protocol_header dstIp is not an IP address",
                      values[CS_HOMER_COL_DST_IP]);
  if (row->src.addr.family != row->dst.addr.family)
    return row_error (error, values, "protocol_header srcIp and dstIp are of two families",
                      values[CS_HOMER_COL_DST_IP]);
  if (!parse_u64 (values[CS_HOMER_COL_SRC_PORT], G_MAXUINT16, &port))
    return row_error (error, values, "protocol_header srcPort is not a port",
                      values[CS_HOMER_COL_SRC_PORT]);
  row->src.port = (guint16) port;
  if (!parse_u64 (values[CS_HOMER_COL_DST_PORT], G_MAXUINT16, &port))
    return row_error (error, values, "protocol_header dstPort is not a port",
                      values[CS_HOMER_COL_DST_PORT]);
  row->dst.port = (guint16) port;
  /* heplify-server always writes "protocol"; an older row without it was UDP */
  if (values[CS_HOMER_COL_PROTO] == NULL)
    proto = 17;
  else if (!parse_u64 (values[CS_HOMER_COL_PROTO], 255, &proto))
    return row_error (error, values, "protocol_header protocol is not an IP protocol number",
                      values[CS_HOMER_COL_PROTO]);
  row->ip_proto = (guint8) proto;
  row->node = values[CS_HOMER_COL_NODE] != NULL ? values[CS_HOMER_COL_NODE] : "";
  row->raw = values[CS_HOMER_COL_RAW];
  row->raw_len = lengths[CS_HOMER_COL_RAW];
  if (row->raw == NULL || row->raw_len == 0)
    return row_error (error, values, "raw is empty", "");
  return TRUE;
}

static void
put_u16 (guint8 *p, guint v)
{
  p[0] = (guint8) (v >> 8);
  p[1] = (guint8) v;
}

static void
put_u32 (GByteArray *out, guint32 v)
{
  guint8 b[4] = { v >> 24, (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff };
  g_byte_array_append (out, b, 4);
}

/* Ethernet + IPv4/IPv6 + UDP headers for a datagram of len bytes. */
static void
write_udp_headers (GByteArray *out, const CsEndpoint *src, const CsEndpoint *dst, gsize len)
{
  static const guint8 eth[12] = { 0, 0, 0x5e, 0, 0, 2, 0, 0, 0x5e, 0, 0, 1 };
  gboolean v6 = src->addr.family == 6;
  guint8 ip[IPV6_LEN], udp[UDP_LEN];
  guint8 type[2];

  g_byte_array_append (out, eth, sizeof eth);
  put_u16 (type, v6 ? 0x86dd : 0x0800);
  g_byte_array_append (out, type, 2);
  memset (ip, 0, sizeof ip);
  if (v6)
    {
      ip[0] = 0x60;
      put_u16 (ip + 4, (guint) (UDP_LEN + len));
      ip[6] = 17;
      ip[7] = 64;
      memcpy (ip + 8, src->addr.bytes, 16);
      memcpy (ip + 24, dst->addr.bytes, 16);
      g_byte_array_append (out, ip, IPV6_LEN);
    }
  else
    {
      guint32 sum = 0;

      ip[0] = 0x45;
      put_u16 (ip + 2, (guint) (IPV4_LEN + UDP_LEN + len));
      ip[8] = 64;
      ip[9] = 17;
      memcpy (ip + 12, src->addr.bytes, 4);
      memcpy (ip + 16, dst->addr.bytes, 4);
      for (guint i = 0; i < IPV4_LEN; i += 2)
        sum += (guint32) (ip[i] << 8 | ip[i + 1]);
      while (sum >> 16)
        sum = (sum & 0xffff) + (sum >> 16);
      put_u16 (ip + 10, ~sum & 0xffff);
      g_byte_array_append (out, ip, IPV4_LEN);
    }
  put_u16 (udp, src->port);
  put_u16 (udp + 2, dst->port);
  put_u16 (udp + 4, (guint) (UDP_LEN + len));
  put_u16 (udp + 6, 0); /* no checksum: the bytes are a copy, not what a wire carried */
  g_byte_array_append (out, udp, UDP_LEN);
}

static guint32
member_u32 (JsonObject *object, const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_INT64)
    return 0;
  return (guint32) json_node_get_int (node);
}

/* One RTCP SR or RR from heplify's JSON of it (protos/rtcp.go's field names); FALSE for a
 * packet of another type (SDES, BYE, XR: Homer keeps none of what callscope reads there). */
static gboolean
encode_rtcp_packet (JsonObject *packet, GByteArray *out)
{
  JsonObject *sender = json_object_has_member (packet, "sender_information")
                           ? json_object_get_object_member (packet, "sender_information")
                           : NULL;
  JsonArray *blocks = json_object_has_member (packet, "report_blocks")
                          ? json_object_get_array_member (packet, "report_blocks")
                          : NULL;
  guint type = member_u32 (packet, "type");
  guint n_blocks = blocks != NULL ? MIN (json_array_get_length (blocks), 31u) : 0;
  guint start = out->len;
  guint8 header[4];

  if (type == 0)
    type = member_u32 (sender, "ntp_timestamp_sec") != 0 ? 200 : 201;
  if (type != 200 && type != 201)
    return FALSE;
  header[0] = (guint8) (0x80 | n_blocks);
  header[1] = (guint8) type;
  put_u16 (header + 2, 0);
  g_byte_array_append (out, header, 4);
  put_u32 (out, member_u32 (packet, "ssrc"));
  if (type == 200)
    {
      put_u32 (out, member_u32 (sender, "ntp_timestamp_sec"));
      put_u32 (out, member_u32 (sender, "ntp_timestamp_usec")); /* the NTP fraction word */
      put_u32 (out, member_u32 (sender, "rtp_timestamp"));
      put_u32 (out, member_u32 (sender, "packets"));
      put_u32 (out, member_u32 (sender, "octets"));
    }
  for (guint i = 0; i < n_blocks; i++)
    {
      JsonObject *block = json_array_get_object_element (blocks, i);
      gint64 lost = block != NULL && json_object_has_member (block, "packets_lost")
                        ? json_object_get_int_member (block, "packets_lost")
                        : 0;

      put_u32 (out, member_u32 (block, "source_ssrc"));
      put_u32 (out,
               (member_u32 (block, "fraction_lost") & 0xff) << 24 | ((guint32) lost & 0xffffff));
      put_u32 (out, member_u32 (block, "highest_seq_no"));
      put_u32 (out, member_u32 (block, "ia_jitter"));
      put_u32 (out, member_u32 (block, "lsr"));
      put_u32 (out, member_u32 (block, "dlsr"));
    }
  put_u16 (out->data + start + 2, (out->len - start) / 4 - 1);
  return TRUE;
}

static gboolean
encode_rtcp (const CsHomerRow *row, GByteArray *rtcp, GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) local = NULL;
  JsonNode *root;

  if (!json_parser_load_from_data (parser, row->raw, (gssize) row->raw_len, &local))
    {
      g_set_error (error, CS_HOMER_ERROR, CS_HOMER_ERROR_ROW,
                   "%s row %s: raw is not heplify's RTCP JSON: %s", cs_homer_tables[row->table],
                   row->id, local->message);
      return FALSE;
    }
  root = json_parser_get_root (parser);
  if (JSON_NODE_HOLDS_OBJECT (root))
    encode_rtcp_packet (json_node_get_object (root), rtcp);
  else if (JSON_NODE_HOLDS_ARRAY (root))
    {
      JsonArray *packets = json_node_get_array (root);
      for (guint i = 0; i < json_array_get_length (packets); i++)
        if (JSON_NODE_HOLDS_OBJECT (json_array_get_element (packets, i)))
          encode_rtcp_packet (json_array_get_object_element (packets, i), rtcp);
    }
  if (rtcp->len == 0)
    {
      g_set_error (error, CS_HOMER_ERROR, CS_HOMER_ERROR_ROW,
                   "%s row %s: raw holds no RTCP sender or receiver report",
                   cs_homer_tables[row->table], row->id);
      return FALSE;
    }
  return TRUE;
}

gboolean
cs_homer_row_to_frame (const CsHomerRow *row, GByteArray *out, GError **error)
{
  g_byte_array_set_size (out, 0);
  if (row->table >= CS_HOMER_N_SIP_TABLES)
    {
      g_autoptr (GByteArray) rtcp = g_byte_array_new ();

      if (!encode_rtcp (row, rtcp, error))
        return FALSE;
      write_udp_headers (out, &row->src, &row->dst, rtcp->len);
      g_byte_array_append (out, rtcp->data, rtcp->len);
      return TRUE;
    }
  if (row->ip_proto == 17)
    {
      if (row->raw_len > G_MAXUINT16 - IPV6_LEN - UDP_LEN)
        {
          g_set_error (error, CS_HOMER_ERROR, CS_HOMER_ERROR_ROW,
                       "%s row %s: a SIP message of %" G_GSIZE_FORMAT " bytes does not fit in UDP",
                       cs_homer_tables[row->table], row->id, row->raw_len);
          return FALSE;
        }
      write_udp_headers (out, &row->src, &row->dst, row->raw_len);
      g_byte_array_append (out, (const guint8 *) row->raw, (guint) row->raw_len);
      return TRUE;
    }
  /* a stream transport: one whole message, as heplify-server received it */
  {
    CsHepPacket hep = { 0 };
    g_autoptr (GByteArray) packet = NULL;
    CsEndpoint outer_src = row->src, outer_dst = row->dst;

    hep.version = 3;
    hep.ip_proto = row->ip_proto;
    hep.src = row->src;
    hep.dst = row->dst;
    hep.ts_ns = row->ts_us * 1000;
    hep.payload_type = CS_HEP_PROTO_SIP;
    hep.payload = (const guint8 *) row->raw;
    hep.payload_len = row->raw_len;
    packet = cs_hep3_encode (&hep);
    if (packet == NULL || packet->len > G_MAXUINT16 - IPV6_LEN - UDP_LEN)
      {
        g_set_error (error, CS_HOMER_ERROR, CS_HOMER_ERROR_ROW,
                     "%s row %s: a SIP message of %" G_GSIZE_FORMAT " bytes does not fit in HEP",
                     cs_homer_tables[row->table], row->id, row->raw_len);
        return FALSE;
      }
    outer_src.port = outer_dst.port = CS_HOMER_HEP_PORT;
    write_udp_headers (out, &outer_src, &outer_dst, packet->len);
    g_byte_array_append (out, packet->data, packet->len);
  }
  return TRUE;
}

char *
cs_homer_row_describe (const CsHomerRow *row)
{
  return g_strdup_printf ("Homer node %s, %s row %s", *row->node != '\0' ? row->node : "(none)",
                          cs_homer_tables[row->table], row->id);
}
