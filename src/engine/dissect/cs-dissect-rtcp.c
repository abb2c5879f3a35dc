/* cs-dissect-rtcp.c — compound RTCP: SR, RR, SDES, BYE, APP (RFC 3550), XR (RFC 3611) and
 * the feedback messages' headers (RFC 4585), one layer per packet as Wireshark shows them */
#include "cs-dissect-private.h"

#include "rtp/cs-rtp.h"

static const char *
cs_rtcp_type_name (guint pt)
{
  switch (pt)
    {
    case 200:
      return "Sender Report";
    case 201:
      return "Receiver Report";
    case 202:
      return "Source description";
    case 203:
      return "Goodbye";
    case 204:
      return "Application specific";
    case 205:
      return "Generic RTP Feedback";
    case 206:
      return "Payload-specific Feedback";
    case 207:
      return "Extended report (RFC 3611)";
    default:
      return NULL;
    }
}

static void
cs_dissect_rtcp_report_blocks (CsProtoTree *tree, const guint8 *f, guint32 at, guint count,
                               guint32 end)
{
  for (guint i = 0; i < count && at + 24 <= end; i++, at += 24)
    {
      guint32 cum = cs_dissect_u32 (f + at + 4) & 0xffffff;
      gint32 cum_signed = cum & 0x800000 ? (gint32) cum - 0x1000000 : (gint32) cum;
      char text[16];

      cs_proto_tree_add_text (tree, "rtcp.ssrc", at, 24, "Source %u", i + 1);
      cs_proto_tree_push (tree);
      cs_proto_tree_add_hex (tree, "rtcp.ssrc.identifier", at, 4, cs_dissect_u32 (f + at), 8,
                             "Identifier");
      cs_proto_tree_add_uint (tree, "rtcp.ssrc.fraction", at + 4, 1, f[at + 4], "Fraction lost");
      g_snprintf (text, sizeof text, "%d", cum_signed);
      cs_proto_tree_add (tree, "rtcp.ssrc.cum_nr", at + 5, 3, text,
                         "Cumulative number of packets lost");
      cs_proto_tree_add_uint (tree, "rtcp.ssrc.ext_high", at + 8, 4, cs_dissect_u32 (f + at + 8),
                              "Extended highest sequence number received");
      cs_proto_tree_add_uint (tree, "rtcp.ssrc.jitter", at + 12, 4, cs_dissect_u32 (f + at + 12),
                              "Interarrival jitter");
      cs_proto_tree_add_uint (tree, "rtcp.ssrc.lsr", at + 16, 4, cs_dissect_u32 (f + at + 16),
                              "Last SR timestamp");
      cs_proto_tree_add_uint (tree, "rtcp.ssrc.dlsr", at + 20, 4, cs_dissect_u32 (f + at + 20),
                              "Delay since last SR timestamp");
      cs_proto_tree_pop (tree);
    }
}

static void
cs_dissect_rtcp_sdes (CsProtoTree *tree, const guint8 *f, guint32 at, guint count, guint32 end)
{
  for (guint c = 0; c < count && at + 4 <= end; c++)
    {
      cs_proto_tree_add_text (tree, "rtcp.sdes.ssrc_csrc", at, 4, "Chunk %u, SSRC/CSRC 0x%08X",
                              c + 1, cs_dissect_u32 (f + at));
      cs_proto_tree_push (tree);
      cs_proto_tree_add_hex (tree, "rtcp.ssrc.identifier", at, 4, cs_dissect_u32 (f + at), 8,
                             "Identifier");
      at += 4;
      while (at < end && f[at] != 0 && at + 2 <= end && at + 2u + f[at + 1] <= end)
        {
          g_autofree char *text = g_strndup ((const char *) f + at + 2, f[at + 1]);

          cs_proto_tree_add_uint (tree, "rtcp.sdes.type", at, 1, f[at], "Type");
          cs_proto_tree_add_uint (tree, "rtcp.sdes.length", at + 1, 1, f[at + 1], "Length");
          cs_proto_tree_add (tree, "rtcp.sdes.text", at + 2, f[at + 1],
                             g_utf8_validate (text, -1, NULL) ? text : "(not UTF-8)", "Text");
          at += 2u + f[at + 1];
        }
      if (at < end && f[at] == 0)
        cs_proto_tree_add_uint (tree, "rtcp.sdes.type", at, 1, 0, "Type (END)");
      cs_proto_tree_pop (tree);
      at = (at + 4) & ~3u; /* the END item, then padding to a word */
    }
}

static void
cs_dissect_rtcp_xr (CsProtoTree *tree, const guint8 *f, guint32 at, guint32 end)
{
  while (at + 4 <= end)
    {
      guint bt = f[at], words = cs_dissect_u16 (f + at + 2);
      guint32 block_end = at + 4 + words * 4u;

      if (block_end > end)
        break;
      cs_proto_tree_add_uint (tree, "rtcp.xr.bt", at, 1, bt, "Type");
      cs_proto_tree_push (tree);
      cs_proto_tree_add_uint (tree, "rtcp.xr.bs", at + 1, 1, f[at + 1], "Type Specific");
      cs_proto_tree_add_uint (tree, "rtcp.xr.bl", at + 2, 2, words, "Length");
      if ((bt == 1 || bt == 2 || bt == 3 || bt == 6) && words >= 1)
        cs_proto_tree_add_hex (tree, "rtcp.ssrc.identifier", at + 4, 4, cs_dissect_u32 (f + at + 4),
                               8, "Identifier");
      else if (bt == 5)
        for (guint32 sub = at + 4; sub + 12 <= block_end; sub += 12)
          {
            cs_proto_tree_add_hex (tree, "rtcp.ssrc.identifier", sub, 4, cs_dissect_u32 (f + sub),
                                   8, "Identifier");
            cs_proto_tree_add_uint (tree, "rtcp.xr.lrr", sub + 4, 4, cs_dissect_u32 (f + sub + 4),
                                    "Last RR timestamp");
            cs_proto_tree_add_uint (tree, "rtcp.xr.dlrr", sub + 8, 4, cs_dissect_u32 (f + sub + 8),
                                    "Delay since last RR timestamp");
          }
      if (bt == 7 && words == 8)
        {
          const guint8 *b = f + at + 4;
          guint32 o = at + 4;

          cs_proto_tree_add_hex (tree, "rtcp.ssrc.identifier", o, 4, cs_dissect_u32 (b), 8,
                                 "Identifier");
          cs_proto_tree_add_uint (tree, "rtcp.ssrc.fraction", o + 4, 1, b[4], "Fraction lost");
          cs_proto_tree_add_uint (tree, "rtcp.ssrc.discarded", o + 5, 1, b[5],
                                  "Fraction Discarded");
          cs_proto_tree_add_uint (tree, "rtcp.xr.voipmetrics.burstdensity", o + 6, 1, b[6],
                                  "Burst Density");
          cs_proto_tree_add_uint (tree, "rtcp.xr.voipmetrics.gapdensity", o + 7, 1, b[7],
                                  "Gap Density");
          cs_proto_tree_add_uint (tree, "rtcp.xr.voipmetrics.burstduration", o + 8, 2,
                                  cs_dissect_u16 (b + 8), "Burst Duration (ms)");
          cs_proto_tree_add_uint (tree, "rtcp.xr.voipmetrics.gapduration", o + 10, 2,
                                  cs_dissect_u16 (b + 10), "Gap Duration (ms)");
          cs_proto_tree_add_uint (tree, "rtcp.xr.voipmetrics.rtdelay", o + 12, 2,
                                  cs_dissect_u16 (b + 12), "Round Trip Delay (ms)");
          cs_proto_tree_add_uint (tree, "rtcp.xr.voipmetrics.esdelay", o + 14, 2,
                                  cs_dissect_u16 (b + 14), "End System Delay (ms)");
          cs_proto_tree_add_uint (tree, "rtcp.xr.voipmetrics.rfactor", o + 20, 1, b[20],
                                  "R Factor");
          cs_proto_tree_add_uint (tree, "rtcp.xr.voipmetrics.extrfactor", o + 21, 1, b[21],
                                  "External R Factor");
          cs_proto_tree_add_uint (tree, "rtcp.xr.voipmetrics.jbnominal", o + 26, 2,
                                  cs_dissect_u16 (b + 26), "Nominal Jitter Buffer Size");
          cs_proto_tree_add_uint (tree, "rtcp.xr.voipmetrics.jbmax", o + 28, 2,
                                  cs_dissect_u16 (b + 28), "Maximum Jitter Buffer Size");
          cs_proto_tree_add_uint (tree, "rtcp.xr.voipmetrics.jbabsmax", o + 30, 2,
                                  cs_dissect_u16 (b + 30), "Absolute Maximum Jitter Buffer Size");
        }
      cs_proto_tree_pop (tree);
      at = block_end;
    }
}

/* One RTCP packet of a compound datagram at at (its header checked to fit). */
static void
cs_dissect_rtcp_packet (CsProtoTree *tree, const guint8 *f, guint32 at, guint32 end, GString *info)
{
  guint count = f[at] & 0x1f, pt = f[at + 1];
  const char *name = cs_rtcp_type_name (pt);

  cs_proto_tree_layer (tree, "rtcp", at, end - at, "Real-time Transport Control Protocol (%s)",
                       name != NULL ? name : "unknown type");
  g_string_append_printf (info, "%s%s", info->len > 0 ? "   " : "",
                          name != NULL ? name : "Unknown");
  cs_proto_tree_add_uint (tree, "rtcp.version", at, 1, f[at] >> 6, "Version");
  cs_proto_tree_add_bool (tree, "rtcp.padding", at, 1, (f[at] >> 5) & 1, "Padding");
  if (pt == 202 || pt == 203)
    cs_proto_tree_add_uint (tree, "rtcp.sc", at, 1, count, "Source count");
  else if (pt == 204)
    cs_proto_tree_add_uint (tree, "rtcp.app.subtype", at, 1, count, "Subtype");
  else if (pt == 205)
    cs_proto_tree_add_uint (tree, "rtcp.rtpfb.fmt", at, 1, count, "RTCP Feedback message type");
  else if (pt == 206)
    cs_proto_tree_add_uint (tree, "rtcp.psfb.fmt", at, 1, count, "RTCP Feedback message type");
  else if (pt != 207)
    cs_proto_tree_add_uint (tree, "rtcp.rc", at, 1, count, "Reception report count");
  cs_proto_tree_add_uint_named (tree, "rtcp.pt", at + 1, 1, pt, name, "Packet type");
  cs_proto_tree_add_uint (tree, "rtcp.length", at + 2, 2, cs_dissect_u16 (f + at + 2), "Length");
  if (pt == 202)
    {
      cs_dissect_rtcp_sdes (tree, f, at + 4, count, end);
      return;
    }
  if (at + 8 > end)
    return;
  if (pt == 203)
    {
      for (guint i = 0; i < count && at + 8 + i * 4 <= end; i++)
        cs_proto_tree_add_hex (tree, "rtcp.ssrc.identifier", at + 4 + i * 4, 4,
                               cs_dissect_u32 (f + at + 4 + i * 4), 8, "Identifier");
      return;
    }
  cs_proto_tree_add_hex (tree, "rtcp.senderssrc", at + 4, 4, cs_dissect_u32 (f + at + 4), 8,
                         "Sender SSRC");
  if (pt == 200 && at + 28 <= end)
    {
      cs_proto_tree_add_uint (tree, "rtcp.timestamp.ntp.msw", at + 8, 4,
                              cs_dissect_u32 (f + at + 8), "MSW and LSW as NTP timestamp: MSW");
      cs_proto_tree_add_uint (tree, "rtcp.timestamp.ntp.lsw", at + 12, 4,
                              cs_dissect_u32 (f + at + 12), "LSW");
      cs_proto_tree_add_uint (tree, "rtcp.timestamp.rtp", at + 16, 4, cs_dissect_u32 (f + at + 16),
                              "RTP timestamp");
      cs_proto_tree_add_uint (tree, "rtcp.sender.packetcount", at + 20, 4,
                              cs_dissect_u32 (f + at + 20), "Sender's packet count");
      cs_proto_tree_add_uint (tree, "rtcp.sender.octetcount", at + 24, 4,
                              cs_dissect_u32 (f + at + 24), "Sender's octet count");
      cs_dissect_rtcp_report_blocks (tree, f, at + 28, count, end);
    }
  else if (pt == 201)
    cs_dissect_rtcp_report_blocks (tree, f, at + 8, count, end);
  else if (pt == 204 && at + 12 <= end)
    {
      g_autofree char *app = g_strndup ((const char *) f + at + 8, 4);

      cs_proto_tree_add (tree, "rtcp.app.name", at + 8, 4,
                         g_utf8_validate (app, -1, NULL) ? app : "?", "Name (ASCII)");
      if (end > at + 12)
        cs_dissect_data (tree, f, at + 12, end - at - 12);
    }
  else if (pt == 205 || pt == 206)
    {
      if (at + 12 <= end)
        cs_proto_tree_add_hex (tree, "rtcp.mediassrc", at + 8, 4, cs_dissect_u32 (f + at + 8), 8,
                               "Media source SSRC");
    }
  else if (pt == 207)
    cs_dissect_rtcp_xr (tree, f, at + 8, end);
}

gboolean
cs_dissect_rtcp (CsProtoTree *tree, const CsDissectPayload *payload)
{
  const guint8 *f = payload->frame;
  guint32 at = payload->offset, end = payload->offset + payload->length;
  g_autoptr (GString) info = g_string_new (NULL);

  if (!payload->udp
      || (payload->hints->as != CS_DISSECT_AS_RTCP
          && !cs_rtcp_looks_like (f + at, payload->length)))
    return FALSE;
  if (payload->length < 4 || (f[at] >> 6) != 2)
    return FALSE;
  while (at + 4 <= end && (f[at] >> 6) == 2)
    {
      guint32 next = at + 4 + cs_dissect_u16 (f + at + 2) * 4u;

      if (next > end)
        next = end;
      cs_dissect_rtcp_packet (tree, f, at, next, info);
      at = next;
    }
  cs_proto_tree_set_protocol (tree, "RTCP");
  cs_proto_tree_set_info (tree, "%s", info->str);
  return TRUE;
}
