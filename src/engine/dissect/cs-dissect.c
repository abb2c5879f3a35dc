/* cs-dissect.c — one frame from its record down to the application: the frame layer, the
 * link layer, the headers the decoder walked (IP, tunnels, UDP, TCP) and the payload */
#include "cs-dissect-private.h"

#include <string.h>

#include "net/cs-decode.h"

static void
cs_dissect_frame_layer (CsProtoTree *tree, const CsFrame *frame, const CsDissectHints *hints)
{
  gint64 rel = frame->ts_ns - hints->origin_ns;
  char text[48];

  cs_proto_tree_layer (tree, "frame", 0, frame->caplen,
                       "Frame %u: %u bytes on wire, %u bytes captured", hints->number,
                       frame->origlen, frame->caplen);
  if (!cs_proto_tree_wants_fields (tree))
    return;
  cs_proto_tree_add_uint (tree, "frame.number", 0, 0, hints->number, "Frame Number");
  if (hints->file_name != NULL)
    cs_proto_tree_add (tree, "callscope.file", 0, 0, hints->file_name, "File");
  cs_proto_tree_add_uint (tree, "callscope.file_offset", 0, 0, frame->offset,
                          "Byte offset in file");
  cs_proto_tree_add_uint (tree, "frame.interface_id", 0, 0, hints->interface_id, "Interface id");
  g_snprintf (text, sizeof text, "%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT,
              frame->ts_ns / G_GINT64_CONSTANT (1000000000),
              frame->ts_ns % G_GINT64_CONSTANT (1000000000));
  cs_proto_tree_add (tree, "frame.time_epoch", 0, 0, text, "Epoch Time");
  g_snprintf (text, sizeof text, "%s%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT, rel < 0 ? "-" : "",
              ABS (rel) / G_GINT64_CONSTANT (1000000000),
              ABS (rel) % G_GINT64_CONSTANT (1000000000));
  cs_proto_tree_add (tree, "frame.time_relative", 0, 0, text,
                     "Time since reference or first frame");
  cs_proto_tree_add_uint (tree, "frame.len", 0, 0, frame->origlen, "Frame Length");
  cs_proto_tree_add_uint (tree, "frame.cap_len", 0, 0, frame->caplen, "Capture Length");
  cs_proto_tree_add_uint (tree, "callscope.linktype", 0, 0, frame->linktype, "Link type");
  if (hints->comment != NULL)
    cs_proto_tree_add (tree, "frame.comment", 0, 0, hints->comment, "Comment");
}

/* The encapsulation headers the decoder peeled, as layers of their own. */
/* Where the Ethernet frame a tunnel carries starts (VXLAN, Geneve and GRE bridging, ERSPAN),
 * or G_MAXUINT32 when it carries IP. */
static guint32
cs_dissect_tunnel_ethernet (const guint8 *data, const CsTunnelLayer *layer, guint32 end)
{
  guint32 at = layer->offset;
  guint16 flags, type;

  if (at + 8 > end)
    return G_MAXUINT32;
  switch (layer->kind)
    {
    case CS_TUNNEL_VXLAN:
      return at + 8;
    case CS_TUNNEL_GENEVE:
      return cs_dissect_u16 (data + at + 2) == 0x6558 ? at + 8 + (data[at] & 0x3f) * 4u
                                                      : G_MAXUINT32;
    case CS_TUNNEL_GRE:
    case CS_TUNNEL_ERSPAN:
      flags = cs_dissect_u16 (data + at);
      type = cs_dissect_u16 (data + at + 2);
      at += 4 + ((flags & 0x8000) ? 4 : 0) + ((flags & 0x2000) ? 4 : 0)
            + ((flags & 0x1000) ? 4 : 0);
      if (type == 0x6558 || (type == 0x88be && (flags & 0x1000) == 0))
        return at;
      if (type == 0x88be)
        return at + 8; /* ERSPAN II */
      if (type == 0x22eb && at + 12 <= end)
        return at + 12 + ((data[at + 11] & 1) ? 8 : 0); /* ERSPAN III, O bit: a subheader */
      return G_MAXUINT32;
    default:
      return G_MAXUINT32;
    }
}

static void
cs_dissect_tunnel (CsProtoTree *tree, const guint8 *data, const CsTunnelLayer *layer, guint32 end)
{
  guint32 eth;

  static const struct
  {
    const char *name, *title;
  } kinds[] = {
    [CS_TUNNEL_IP_IN_IP] = { "ip", "IP in IP" },
    [CS_TUNNEL_GRE] = { "gre", "Generic Routing Encapsulation" },
    [CS_TUNNEL_ERSPAN] = { "erspan", "Encapsulated Remote Switch Packet ANalysis" },
    [CS_TUNNEL_GTP_U] = { "gtp", "GPRS Tunneling Protocol" },
    [CS_TUNNEL_VXLAN] = { "vxlan", "Virtual eXtensible Local Area Network" },
    [CS_TUNNEL_GENEVE] = { "geneve", "Generic Network Virtualization Encapsulation" },
    [CS_TUNNEL_ESP_NULL] = { "esp", "Encapsulating Security Payload (NULL encryption)" },
  };

  if (layer->kind == CS_TUNNEL_IP_IN_IP || layer->kind >= G_N_ELEMENTS (kinds)
      || kinds[layer->kind].name == NULL)
    return; /* the inner IP header is a layer of its own */
  eth = cs_dissect_tunnel_ethernet (data, layer, end);
  cs_proto_tree_layer (tree, kinds[layer->kind].name, layer->offset,
                       (eth < end ? eth : end) - layer->offset, "%s", kinds[layer->kind].title);
  if (eth < end)
    cs_dissect_ethernet (tree, data, end, eth);
}

/* The decoder's headers and tunnels in the frame's order. */
static void
cs_dissect_network (CsProtoTree *tree, const guint8 *data, guint32 caplen,
                    const CsDecodeLayers *layers, const CsPacket *packet)
{
  guint t = 0;

  for (guint i = 0; i < layers->n; i++)
    {
      guint32 offset = layers->layers[i].offset;

      while (t < packet->n_tunnels && packet->tunnels[t].offset < offset)
        cs_dissect_tunnel (tree, data, &packet->tunnels[t++], offset);
      switch (layers->layers[i].kind)
        {
        case CS_LAYER_IPV4:
          cs_dissect_ipv4 (tree, data, caplen, offset);
          break;
        case CS_LAYER_IPV6:
          cs_dissect_ipv6 (tree, data, caplen, offset);
          break;
        case CS_LAYER_IPV6_FRAGMENT:
          cs_dissect_ipv6_fragment (tree, data, caplen, offset);
          break;
        case CS_LAYER_UDP:
          cs_dissect_udp (tree, data, caplen, offset);
          break;
        case CS_LAYER_TCP:
          cs_dissect_tcp (tree, data, caplen, offset,
                          i + 1 == layers->n ? (guint32) packet->payload_len : 0);
          break;
        default:
          cs_proto_tree_layer (tree, "pppoes", offset, 6, "PPP-over-Ethernet Session");
          break;
        }
    }
}

/* Where the other fragments of an IP datagram are. */
static void
cs_dissect_fragment_notes (CsProtoTree *tree, const CsDissectHints *hints)
{
  GString *list;

  if (hints->n_fragment_frames == 0 || !cs_proto_tree_wants_fields (tree))
    return;
  list = g_string_new (NULL);
  for (guint i = 0; i < hints->n_fragment_frames; i++)
    g_string_append_printf (list, "%s%u", i > 0 ? ", " : "", hints->fragment_frames[i]);
  cs_proto_tree_add_text (tree, "ip.fragments", 0, 0, "[Fragments in frames %s]", list->str);
  if (hints->reassembled_in != 0)
    cs_proto_tree_add_uint (tree, "ip.reassembled_in", 0, 0, hints->reassembled_in,
                            "[Reassembled in frame]");
  g_string_free (list, TRUE);
}

void
cs_dissect_frame (CsProtoTree *tree, const CsFrame *frame, const guint8 *data,
                  const CsDissectHints *hints)
{
  static const CsDissectHints none = { .event_pt = -1 };
  CsDecodeLayers layers = { 0 };
  CsPacket packet;
  CsDecodeStatus status;
  guint32 caplen = frame->caplen;
  guint32 network;

  if (hints == NULL)
    hints = &none;
  cs_dissect_frame_layer (tree, frame, hints);
  cs_proto_tree_set_protocol (tree, "Frame");
  network = cs_dissect_link (tree, frame->linktype, data, caplen);
  if (network == G_MAXUINT32)
    return;
  status = cs_decode_frame_layers (frame->linktype, data, caplen, &packet, &layers);
  cs_dissect_network (tree, data, caplen, &layers, &packet);
  if (status == CS_DECODE_FRAGMENT)
    {
      guint32 at = (guint32) (packet.frag.data - data);

      cs_dissect_fragment_notes (tree, hints);
      cs_proto_tree_set_info (tree, "Fragmented IP protocol (proto=%u, off=%u, ID=%04x)%s",
                              packet.ip_proto, packet.frag.offset, packet.frag.id,
                              hints->reassembled_in != 0 ? "" : " [not reassembled]");
      cs_dissect_data (tree, data, at, (guint32) packet.frag.len);
      if (hints->reassembled == NULL
          || cs_decode_transport (g_bytes_get_data (hints->reassembled, NULL),
                                  g_bytes_get_size (hints->reassembled), &packet)
                 != CS_DECODE_OK)
        return;
      /* this frame completes the datagram: its transport and payload, from the datagram */
      data = g_bytes_get_data (hints->reassembled, NULL);
      caplen = (guint32) g_bytes_get_size (hints->reassembled);
      cs_proto_tree_set_reassembled (tree, hints->reassembled);
      if (packet.ip_proto == CS_IP_PROTO_UDP)
        cs_dissect_udp (tree, data, caplen, 0);
      else
        cs_dissect_tcp (tree, data, caplen, 0, (guint32) packet.payload_len);
      status = CS_DECODE_OK;
    }
  if (status != CS_DECODE_OK)
    {
      if (status == CS_DECODE_MALFORMED)
        {
          cs_proto_tree_layer (tree, "_ws.malformed", 0, 0, "[Malformed Packet]");
          cs_proto_tree_set_info (tree, "[Malformed Packet]");
        }
      return;
    }
  if (packet.payload_len > 0 && packet.payload >= data && packet.payload < data + caplen)
    {
      CsDissectPayload payload = {
        .frame = data,
        .offset = (guint32) (packet.payload - data),
        .length = (guint32) packet.payload_len,
        .udp = packet.ip_proto == CS_IP_PROTO_UDP,
        .src = packet.src,
        .dst = packet.dst,
        .hints = hints,
      };

      cs_dissect_payload (tree, &payload);
    }
}

void
cs_dissect_data (CsProtoTree *tree, const guint8 *data, guint32 offset, guint32 length)
{
  cs_proto_tree_layer (tree, "data", offset, length, "Data (%u bytes)", length);
  if (!cs_proto_tree_wants_fields (tree) || length == 0)
    return;
  {
    GString *hex = g_string_sized_new (length * 2);

    for (guint32 i = 0; i < length; i++)
      g_string_append_printf (hex, "%02x", data[offset + i]);
    cs_proto_tree_add (tree, "data.data", offset, length, hex->str, NULL);
    g_free (cs_proto_tree_last (tree)->label);
    cs_proto_tree_last (tree)->label
        = g_strdup_printf ("Data: %.*s%s", 64, hex->str, length > 32 ? "…" : "");
    g_string_free (hex, TRUE);
  }
  cs_proto_tree_add_uint (tree, "data.len", offset, length, length, "Length");
}

char *
cs_dissect_hex (const guint8 *data, gsize len)
{
  GString *s = g_string_sized_new (len * 3);

  for (gsize i = 0; i < len; i++)
    g_string_append_printf (s, i == 0 ? "%02x" : " %02x", data[i]);
  return g_string_free (s, FALSE);
}

char *
cs_dissect_display_filter (const CsProtoNode *node)
{
  const char *v = node->value;
  gboolean numeric = v != NULL && *v != '\0';

  if (node->name == NULL || *node->name == '\0' || g_str_has_prefix (node->name, "callscope."))
    return NULL;
  if (node->depth == 0 || v == NULL || *v == '\0')
    return g_strdup (node->name);
  /* numbers, 0x…, addresses: unquoted */
  numeric = g_ascii_isdigit (v[0]) || strchr (v, ':') != NULL;
  for (const char *p = v; *p != '\0' && numeric; p++)
    numeric = g_ascii_isxdigit (*p) || *p == '.' || *p == ':' || *p == 'x' || *p == '-';
  if (numeric)
    return g_strdup_printf ("%s == %s", node->name, v);
  {
    GString *s = g_string_new (NULL);

    g_string_append_printf (s, "%s == \"", node->name);
    for (const char *p = v; *p != '\0'; p++)
      {
        if (*p == '"' || *p == '\\')
          g_string_append_c (s, '\\');
        g_string_append_c (s, *p);
      }
    g_string_append_c (s, '"');
    return g_string_free (s, FALSE);
  }
}
