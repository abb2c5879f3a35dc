/* cs-dissect-rtp.c — RTP (RFC 3550: CSRCs, RFC 8285 header extensions, padding), RFC 4733
 * events, and what callscope computed for the packet */
#include "cs-dissect-private.h"

#include "rtp/cs-codec.h"
#include "rtp/cs-dtmf.h"
#include "rtp/cs-rtp.h"

/* Wireshark's name of a payload type without a codec: "DynamicRTP-Type-96". */
static const char *
cs_rtp_pt_name (guint pt, const CsDissectHints *hints, char *buf, gsize size)
{
  const CsCodecInfo *codec = cs_codec_lookup_static (pt);

  if (hints->event_pt >= 0 && (guint) hints->event_pt == pt)
    return "telephone-event";
  if (hints->codec != NULL)
    return hints->codec;
  if (codec != NULL)
    return codec->encoding;
  g_snprintf (buf, size, pt >= 96 ? "DynamicRTP-Type-%u" : "Unknown-%u", pt);
  return buf;
}

/* RFC 8285 one-byte (0xBEDE) and two-byte (0x100x) header extension elements. */
static void
cs_dissect_rtp_extensions (CsProtoTree *tree, const guint8 *frame, guint32 at, guint32 len,
                           guint16 profile)
{
  gboolean one_byte = profile == 0xbede;
  guint32 end = at + len;

  if (!one_byte && (profile & 0xfff0) != 0x1000)
    return;
  cs_proto_tree_add_text (tree, "rtp.hdr_exts", at, len, "RFC 8285 header extensions");
  cs_proto_tree_push (tree);
  while (at < end)
    {
      guint id, elen, hdr = one_byte ? 1 : 2;

      if (frame[at] == 0)
        {
          at++; /* padding between elements */
          continue;
        }
      if (one_byte)
        {
          id = frame[at] >> 4;
          elen = (frame[at] & 0x0f) + 1u;
          if (id == 15)
            break;
        }
      else
        {
          if (at + 2 > end)
            break;
          id = frame[at];
          elen = frame[at + 1];
        }
      if (at + hdr + elen > end)
        break;
      cs_proto_tree_add_text (tree, "rtp.ext.rfc5285", at, hdr + elen,
                              "Header extension element: ID %u, %u bytes", id, elen);
      cs_proto_tree_push (tree);
      cs_proto_tree_add_uint (tree, "rtp.ext.rfc5285.id", at, 1, id, "Identifier");
      cs_proto_tree_add_uint (tree, "rtp.ext.rfc5285.len", at + (one_byte ? 0 : 1), 1, elen,
                              "Length");
      if (cs_proto_tree_wants_fields (tree))
        {
          GString *hex = g_string_new (NULL);

          for (guint i = 0; i < elen; i++)
            g_string_append_printf (hex, "%02x", frame[at + hdr + i]);
          cs_proto_tree_add (tree, "rtp.ext.rfc5285.data", at + hdr, elen, hex->str,
                             "Extension Data");
          g_string_free (hex, TRUE);
        }
      cs_proto_tree_pop (tree);
      at += hdr + elen;
    }
  cs_proto_tree_pop (tree);
}

static void
cs_dissect_rtp_event (CsProtoTree *tree, const guint8 *frame, guint32 at, guint32 len)
{
  CsDtmfEvent event;
  char digit[2] = { 0, 0 };

  if (!cs_dtmf_parse_event (frame + at, len, &event))
    return;
  digit[0] = cs_dtmf_event_char (event.event);
  cs_proto_tree_layer (tree, "rtpevent", at, 4, "RFC 2833 RTP Event");
  cs_proto_tree_set_protocol (tree, "RTP EVENT");
  cs_proto_tree_set_info (tree, "DTMF %s%s", digit[0] != 0 ? digit : "?", event.end ? " End" : "");
  cs_proto_tree_add_uint_named (tree, "rtpevent.event_id", at, 1, event.event,
                                digit[0] != 0 ? digit : NULL, "Event ID");
  cs_proto_tree_add_bool (tree, "rtpevent.end_of_event", at + 1, 1, event.end, "End of Event");
  cs_proto_tree_add_bool (tree, "rtpevent.reserved", at + 1, 1, (frame[at + 1] >> 6) & 1,
                          "Reserved");
  cs_proto_tree_add_uint (tree, "rtpevent.volume", at + 1, 1, frame[at + 1] & 0x3f, "Volume");
  cs_proto_tree_add_uint (tree, "rtpevent.duration", at + 2, 2, event.duration, "Event Duration");
}

static void
cs_dissect_rtp_figures (CsProtoTree *tree, const CsDissectRtpFigures *f)
{
  char text[32];
  guint first = cs_proto_tree_get_n_nodes (tree);

  cs_proto_tree_add_text (tree, "callscope.rtp", 0, 0, "[callscope: stream %u]", f->stream_id);
  cs_proto_tree_push (tree);
  g_snprintf (text, sizeof text, "%.3f", f->delta_ms);
  cs_proto_tree_add (tree, "callscope.rtp.delta", 0, 0, text, "Arrival delta (ms)");
  g_snprintf (text, sizeof text, "%.3f", f->jitter_ms);
  cs_proto_tree_add (tree, "callscope.rtp.jitter", 0, 0, text, "Jitter (ms)");
  g_snprintf (text, sizeof text, "%.3f", f->skew_ms);
  cs_proto_tree_add (tree, "callscope.rtp.skew", 0, 0, text, "Skew (ms)");
  cs_proto_tree_add_uint (tree, "callscope.rtp.lost_before", 0, 0, f->lost_before,
                          "Packets lost before it");
  cs_proto_tree_add (tree, "callscope.rtp.jitter_buffer", 0, 0,
                     f->verdict != NULL ? f->verdict : "not judged", "Jitter buffer");
  cs_proto_tree_pop (tree);
  for (guint i = first; i < cs_proto_tree_get_n_nodes (tree); i++)
    ((CsProtoNode *) cs_proto_tree_get_node (tree, i))->computed = TRUE;
}

gboolean
cs_dissect_rtp (CsProtoTree *tree, const CsDissectPayload *payload)
{
  const guint8 *frame = payload->frame;
  guint32 at = payload->offset;
  CsRtpHeader h;
  char ptbuf[32];
  const char *pt_name;
  guint32 pos;

  if (!payload->udp || !cs_rtp_parse_header (frame + at, payload->length, &h))
    return FALSE;
  /* a guess keeps away from RTCP's payload types (72-76 with the marker) */
  if (payload->hints->as == CS_DISSECT_GUESS && h.payload_type >= 72 && h.payload_type <= 76)
    return FALSE;
  pt_name = cs_rtp_pt_name (h.payload_type, payload->hints, ptbuf, sizeof ptbuf);
  cs_proto_tree_layer (tree, "rtp", at, payload->length, "Real-Time Transport Protocol");
  cs_proto_tree_set_protocol (tree, "RTP");
  cs_proto_tree_set_info (tree, "PT=%s, SSRC=0x%08X, Seq=%u, Time=%u%s", pt_name, h.ssrc, h.seq,
                          h.timestamp, h.marker ? ", Mark" : "");
  cs_proto_tree_add_uint (tree, "rtp.version", at, 1, h.version, "Version");
  cs_proto_tree_add_bool (tree, "rtp.padding", at, 1, h.padding, "Padding");
  cs_proto_tree_add_bool (tree, "rtp.ext", at, 1, h.extension, "Extension");
  cs_proto_tree_add_uint (tree, "rtp.cc", at, 1, h.csrc_count,
                          "Contributing source identifiers count");
  cs_proto_tree_add_bool (tree, "rtp.marker", at + 1, 1, h.marker, "Marker");
  cs_proto_tree_add_uint_named (tree, "rtp.p_type", at + 1, 1, h.payload_type, pt_name,
                                "Payload type");
  cs_proto_tree_add_uint (tree, "rtp.seq", at + 2, 2, h.seq, "Sequence number");
  cs_proto_tree_add_uint (tree, "rtp.timestamp", at + 4, 4, h.timestamp, "Timestamp");
  cs_proto_tree_add_hex (tree, "rtp.ssrc", at + 8, 4, h.ssrc, 8,
                         "Synchronization Source identifier");
  pos = at + 12;
  if (h.csrc_count > 0)
    {
      cs_proto_tree_add_text (tree, "rtp.csrc.items", pos, h.csrc_count * 4u,
                              "Contributing Source identifiers");
      cs_proto_tree_push (tree);
      for (guint i = 0; i < h.csrc_count; i++, pos += 4)
        cs_proto_tree_add_hex (tree, "rtp.csrc.item", pos, 4, cs_dissect_u32 (frame + pos), 8,
                               "CSRC item");
      cs_proto_tree_pop (tree);
    }
  if (h.extension)
    {
      guint16 profile = cs_dissect_u16 (frame + pos);
      guint16 words = cs_dissect_u16 (frame + pos + 2);

      cs_proto_tree_add_hex (tree, "rtp.ext.profile", pos, 2, profile, 4, "Defined by profile");
      cs_proto_tree_add_uint (tree, "rtp.ext.len", pos + 2, 2, words, "Extension length");
      cs_dissect_rtp_extensions (tree, frame, pos + 4, words * 4u, profile);
    }
  pos = at + (guint32) h.header_len;
  if (h.payload_len > 0 && cs_proto_tree_wants_fields (tree))
    {
      GString *hex = g_string_sized_new (h.payload_len * 2);

      for (gsize i = 0; i < h.payload_len; i++)
        g_string_append_printf (hex, "%02x", frame[pos + i]);
      cs_proto_tree_add (tree, "rtp.payload", pos, (guint32) h.payload_len, hex->str, NULL);
      g_free (cs_proto_tree_last (tree)->label);
      cs_proto_tree_last (tree)->label
          = g_strdup_printf ("Payload: %.32s%s (%" G_GSIZE_FORMAT " bytes)", hex->str,
                             hex->len > 32 ? "…" : "", h.payload_len);
      g_string_free (hex, TRUE);
    }
  if (h.padding_len > 0)
    cs_proto_tree_add_uint (tree, "rtp.padding.count", at + payload->length - 1, 1, h.padding_len,
                            "Padding count");
  if (payload->hints->rtp != NULL)
    cs_dissect_rtp_figures (tree, payload->hints->rtp);
  if (payload->hints->event_pt >= 0 && (guint) payload->hints->event_pt == h.payload_type)
    cs_dissect_rtp_event (tree, frame, pos, (guint32) h.payload_len);
  return TRUE;
}
