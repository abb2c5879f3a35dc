/* cs-dissect-payload.c — what UDP and TCP carry: the payload dissectors in the order they are
 * tried, and HEP (v2 and HEP3 chunks) with the SIP or RTCP it encapsulates */
#include "cs-dissect-private.h"

#include "net/cs-hep.h"

/* Tried in order on every payload. A new protocol (TLS, DTLS-SRTP, T.38 …) adds its entry;
 * what the analysis named (hints->as) goes first, then what has a signature, RTP last (it has
 * none). */
static const CsPayloadDissector cs_dissect_payloads[] = {
  { "hep", cs_dissect_hep },
  { "sip", cs_dissect_sip },
  { "rtcp", cs_dissect_rtcp },
  { "rtp", cs_dissect_rtp },
};

void
cs_dissect_payload (CsProtoTree *tree, const CsDissectPayload *payload)
{
  if (payload->hints->as == CS_DISSECT_AS_RTP && cs_dissect_rtp (tree, payload))
    return;
  if (payload->hints->as == CS_DISSECT_AS_RTCP && cs_dissect_rtcp (tree, payload))
    return;
  for (guint i = 0; i < G_N_ELEMENTS (cs_dissect_payloads); i++)
    if (cs_dissect_payloads[i].dissect (tree, payload))
      return;
  cs_dissect_data (tree, payload->frame, payload->offset, payload->length);
}

static const char *
cs_hep_chunk_field (guint type)
{
  static const char *const names[] = {
    NULL,
    "hep.ip_family",
    "hep.ip_proto",
    "hep.src_ip",
    "hep.dst_ip",
    "hep.src_ip",
    "hep.dst_ip",
    "hep.src_port",
    "hep.dst_port",
    "hep.timestamp_sec",
    "hep.timestamp_usec",
    "hep.proto_type",
    "hep.capture_id",
    "hep.keep_alive",
    "hep.auth_key",
    "hep.payload",
    "hep.compressed_payload",
    "hep.correlation_id",
    "hep.vlan_id",
  };

  return type < G_N_ELEMENTS (names) && names[type] != NULL ? names[type] : "hep.chunk";
}

static void
cs_dissect_hep3_chunk (CsProtoTree *tree, const guint8 *f, guint32 at, guint type, guint32 len)
{
  const char *field = cs_hep_chunk_field (type);
  const guint8 *d = f + at;

  if ((type == 1 || type == 2 || type == 11) && len == 1)
    cs_proto_tree_add_uint (tree, field, at, 1, d[0], field + 4);
  else if ((type == 7 || type == 8 || type == 13 || type == 18) && len == 2)
    cs_proto_tree_add_uint (tree, field, at, 2, cs_dissect_u16 (d), field + 4);
  else if ((type == 9 || type == 10 || type == 12) && len == 4)
    cs_proto_tree_add_uint (tree, field, at, 4, cs_dissect_u32 (d), field + 4);
  else if ((type == 3 || type == 4) && len == 4)
    {
      char text[16];

      g_snprintf (text, sizeof text, "%u.%u.%u.%u", d[0], d[1], d[2], d[3]);
      cs_proto_tree_add (tree, field, at, 4, text, field + 4);
    }
  else if ((type == 5 || type == 6) && len == 16)
    {
      CsAddr addr;
      char text[CS_ADDR_STRLEN];

      cs_addr_set_v6 (&addr, d);
      cs_proto_tree_add (tree, field, at, 16, cs_addr_to_string (&addr, text), field + 4);
    }
  else if (type == 14 || type == 17)
    {
      g_autofree char *text = g_strndup ((const char *) d, len);

      cs_proto_tree_add (tree, field, at, len, g_utf8_validate (text, -1, NULL) ? text : "?",
                         field + 4);
    }
  else
    cs_proto_tree_add_text (tree, field, at, len, "%s: %u bytes", field + 4, len);
}

gboolean
cs_dissect_hep (CsProtoTree *tree, const CsDissectPayload *payload)
{
  const guint8 *f = payload->frame;
  guint32 at = payload->offset, end = payload->offset + payload->length;
  CsHepPacket hep;
  CsDissectPayload inner = *payload;
  char src[CS_ENDPOINT_STRLEN], dst[CS_ENDPOINT_STRLEN];

  if (!cs_hep_looks_like (f + at, payload->length)
      || !cs_hep_decode (f + at, payload->length, &hep, NULL))
    return FALSE;
  cs_proto_tree_layer (tree, "hep", at, payload->length, "HEP%u, Src: %s, Dst: %s", hep.version,
                       cs_endpoint_to_string (&hep.src, src),
                       cs_endpoint_to_string (&hep.dst, dst));
  cs_proto_tree_set_protocol (tree, "HEP");
  cs_proto_tree_set_info (tree, "HEP%u %s → %s", hep.version, src, dst);
  cs_proto_tree_add_uint (tree, "hep.version", at, hep.version == 3 ? 4 : 1, hep.version,
                          "Version");
  if (hep.version == 3 && at + 6 <= end)
    {
      guint32 pos = at + 6;

      cs_proto_tree_add_uint (tree, "hep.length", at + 4, 2, cs_dissect_u16 (f + at + 4), "Length");
      while (pos + 6 <= end)
        {
          guint vendor = cs_dissect_u16 (f + pos), type = cs_dissect_u16 (f + pos + 2);
          guint len = cs_dissect_u16 (f + pos + 4);

          if (len < 6 || pos + len > end)
            break;
          if (vendor == 0)
            cs_dissect_hep3_chunk (tree, f, pos + 6, type, len - 6);
          else
            cs_proto_tree_add_text (tree, "hep.chunk", pos, len, "Vendor %u chunk %u: %u bytes",
                                    vendor, type, len - 6);
          pos += len;
        }
    }
  else
    {
      cs_proto_tree_add (tree, "hep.src_ip", at, 0, src, "Source");
      cs_proto_tree_add (tree, "hep.dst_ip", at, 0, dst, "Destination");
    }
  if (hep.payload == NULL || hep.payload < f + at || hep.payload + hep.payload_len > f + end)
    return TRUE;
  /* what HEP carries is dissected in place: its offsets stay the frame's */
  inner.offset = (guint32) (hep.payload - f);
  inner.length = (guint32) hep.payload_len;
  inner.udp = hep.ip_proto != 6;
  inner.src = hep.src;
  inner.dst = hep.dst;
  if (hep.payload_type == CS_HEP_PROTO_RTCP && cs_dissect_rtcp (tree, &inner))
    return TRUE;
  if (!cs_dissect_sip (tree, &inner))
    cs_dissect_data (tree, f, inner.offset, inner.length);
  return TRUE;
}
