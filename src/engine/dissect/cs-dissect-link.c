/* cs-dissect-link.c — link-layer headers (Ethernet, 802.1Q, MPLS, Linux cooked v1/v2,
 * BSD loopback, raw IP) and the IPv4, IPv6, UDP and TCP headers, field by field */
#include "cs-dissect-private.h"

#include "net/cs-decode.h"

static void
cs_dissect_mac (CsProtoTree *tree, const char *name, const guint8 *p, guint32 offset,
                const char *label)
{
  char text[18];

  g_snprintf (text, sizeof text, "%02x:%02x:%02x:%02x:%02x:%02x", p[0], p[1], p[2], p[3], p[4],
              p[5]);
  cs_proto_tree_add (tree, name, offset, 6, text, label);
}

/* 802.1Q tags and MPLS label stacks after an EtherType at type_at; returns where the network
 * header starts. */
static guint32
cs_dissect_ethertype_stack (CsProtoTree *tree, const guint8 *data, guint32 caplen, guint32 type_at)
{
  guint16 type = cs_dissect_u16 (data + type_at);
  guint32 at = type_at + 2;

  while ((type == 0x8100 || type == 0x88a8 || type == 0x9100) && at + 4 <= caplen)
    {
      guint16 tci = cs_dissect_u16 (data + at);

      type = cs_dissect_u16 (data + at + 2);
      if (cs_dissect_u16 (data + at - 2) == 0x88a8)
        {
          /* an 802.1ad service tag (QinQ's outer one) */
          cs_proto_tree_layer (tree, "ieee8021ad", at, 4, "IEEE 802.1ad, ID: %u", tci & 0xfff);
          cs_proto_tree_add_uint (tree, "ieee8021ad.priority", at, 2, tci >> 13, "Priority");
          cs_proto_tree_add_uint (tree, "ieee8021ad.dei", at, 2, (tci >> 12) & 1, "DEI");
          cs_proto_tree_add_uint (tree, "ieee8021ad.id", at, 2, tci & 0xfff, "ID");
          at += 4;
          continue;
        }
      cs_proto_tree_layer (tree, "vlan", at, 4, "802.1Q Virtual LAN, PRI: %u, DEI: %u, ID: %u",
                           tci >> 13, (tci >> 12) & 1, tci & 0xfff);
      cs_proto_tree_add_uint (tree, "vlan.priority", at, 2, tci >> 13, "Priority");
      cs_proto_tree_add_uint (tree, "vlan.dei", at, 2, (tci >> 12) & 1, "DEI");
      cs_proto_tree_add_uint (tree, "vlan.id", at, 2, tci & 0xfff, "ID");
      cs_proto_tree_add_hex (tree, "vlan.etype", at + 2, 2, type, 4, "Type");
      at += 4;
    }
  if (type == 0x8847 || type == 0x8848)
    while (at + 4 <= caplen)
      {
        guint32 entry = cs_dissect_u32 (data + at);
        gboolean bottom = (entry >> 8) & 1;

        cs_proto_tree_layer (tree, "mpls", at, 4, "MultiProtocol Label Switching Header, Label: %u",
                             entry >> 12);
        cs_proto_tree_add_uint (tree, "mpls.label", at, 3, entry >> 12, "MPLS Label");
        cs_proto_tree_add_uint (tree, "mpls.exp", at + 2, 1, (entry >> 9) & 7,
                                "MPLS Experimental Bits");
        cs_proto_tree_add_uint (tree, "mpls.bottom", at + 2, 1, bottom,
                                "MPLS Bottom Of Label Stack");
        cs_proto_tree_add_uint (tree, "mpls.ttl", at + 3, 1, entry & 0xff, "MPLS TTL");
        at += 4;
        if (bottom)
          break;
      }
  return at;
}

guint32
cs_dissect_ethernet (CsProtoTree *tree, const guint8 *data, guint32 caplen, guint32 at)
{
  const guint8 *p = data + at;
  char src[18], dst[18];
  guint16 type;

  if (at + 14 > caplen)
    return G_MAXUINT32;
  type = cs_dissect_u16 (p + 12);
  g_snprintf (dst, sizeof dst, "%02x:%02x:%02x:%02x:%02x:%02x", p[0], p[1], p[2], p[3], p[4], p[5]);
  g_snprintf (src, sizeof src, "%02x:%02x:%02x:%02x:%02x:%02x", p[6], p[7], p[8], p[9], p[10],
              p[11]);
  /* below 0x0600 the field is an IEEE 802.3 length (LLC follows): not IP */
  cs_proto_tree_layer (tree, "eth", at, 14, "%s, Src: %s, Dst: %s",
                       type >= 0x0600 ? "Ethernet II" : "IEEE 802.3 Ethernet", src, dst);
  cs_proto_tree_set_protocol (tree, type >= 0x0600 ? "Ethernet" : "LLC");
  cs_proto_tree_set_addresses (tree, src, dst);
  cs_proto_tree_add (tree, "eth.dst", at, 6, dst, "Destination");
  cs_proto_tree_add (tree, "eth.src", at + 6, 6, src, "Source");
  if (type < 0x0600)
    {
      cs_proto_tree_add_uint (tree, "eth.len", at + 12, 2, type, "Length");
      return G_MAXUINT32;
    }
  cs_proto_tree_add_hex (tree, "eth.type", at + 12, 2, type, 4, "Type");
  return cs_dissect_ethertype_stack (tree, data, caplen, at + 12);
}

guint32
cs_dissect_link (CsProtoTree *tree, guint linktype, const guint8 *data, guint32 caplen)
{
  switch (linktype)
    {
    case CS_LINKTYPE_ETHERNET:
      if (caplen < 14)
        break;
      return cs_dissect_ethernet (tree, data, caplen, 0);
    case CS_LINKTYPE_LINUX_SLL:
      if (caplen < 16)
        break;
      cs_proto_tree_layer (tree, "sll", 0, 16, "Linux cooked capture v1");
      cs_proto_tree_add_uint (tree, "sll.pkttype", 0, 2, cs_dissect_u16 (data), "Packet type");
      cs_proto_tree_add_uint (tree, "sll.hatype", 2, 2, cs_dissect_u16 (data + 2),
                              "Link-layer address type");
      cs_proto_tree_add_uint (tree, "sll.halen", 4, 2, cs_dissect_u16 (data + 4),
                              "Link-layer address length");
      if (cs_dissect_u16 (data + 4) == 6)
        cs_dissect_mac (tree, "sll.src.eth", data + 6, 6, "Source");
      cs_proto_tree_add_hex (tree, "sll.etype", 14, 2, cs_dissect_u16 (data + 14), 4, "Protocol");
      return cs_dissect_ethertype_stack (tree, data, caplen, 14);
    case CS_LINKTYPE_LINUX_SLL2:
      if (caplen < 20)
        break;
      cs_proto_tree_layer (tree, "sll", 0, 20, "Linux cooked capture v2");
      cs_proto_tree_add_hex (tree, "sll.etype", 0, 2, cs_dissect_u16 (data), 4, "Protocol");
      cs_proto_tree_add_uint (tree, "sll.ifindex", 4, 4, cs_dissect_u32 (data + 4),
                              "Interface index");
      cs_proto_tree_add_uint (tree, "sll.hatype", 8, 2, cs_dissect_u16 (data + 8),
                              "Link-layer address type");
      cs_proto_tree_add_uint (tree, "sll.pkttype", 10, 1, data[10], "Packet type");
      cs_proto_tree_add_uint (tree, "sll.halen", 11, 1, data[11], "Link-layer address length");
      if (data[11] == 6)
        cs_dissect_mac (tree, "sll.src.eth", data + 12, 12, "Source");
      return 20;
    case CS_LINKTYPE_NULL:
    case CS_LINKTYPE_LOOP:
      if (caplen < 4)
        break;
      {
        guint32 family = cs_dissect_u32 (data);

        /* DLT_NULL writes the family in the capturing host's order */
        if (linktype == CS_LINKTYPE_NULL && family > 0xffff)
          family = GUINT32_SWAP_LE_BE (family);
        cs_proto_tree_layer (tree, "null", 0, 4, "Null/Loopback");
        cs_proto_tree_add_uint (tree, "null.family", 0, 4, family, "Family");
      }
      return 4;
    case CS_LINKTYPE_RAW:
    case CS_LINKTYPE_RAW_12:
    case CS_LINKTYPE_RAW_14:
    case CS_LINKTYPE_IPV4:
    case CS_LINKTYPE_IPV6:
      cs_proto_tree_layer (tree, "raw", 0, 0, "Raw packet data");
      return 0;
    default:
      cs_dissect_data (tree, data, 0, caplen);
      return G_MAXUINT32;
    }
  cs_proto_tree_layer (tree, "_ws.malformed", 0, caplen, "[Malformed Packet: link layer]");
  cs_proto_tree_set_info (tree, "[Malformed Packet]");
  return G_MAXUINT32;
}

void
cs_dissect_ipv4 (CsProtoTree *tree, const guint8 *data, guint32 caplen, guint32 offset)
{
  const guint8 *p = data + offset;
  char src[CS_ADDR_STRLEN], dst[CS_ADDR_STRLEN];
  guint hlen, flags;

  if (offset + 20 > caplen)
    return;
  hlen = (p[0] & 0x0f) * 4u;
  flags = p[6] >> 5;
  g_snprintf (src, sizeof src, "%u.%u.%u.%u", p[12], p[13], p[14], p[15]);
  g_snprintf (dst, sizeof dst, "%u.%u.%u.%u", p[16], p[17], p[18], p[19]);
  cs_proto_tree_layer (tree, "ip", offset, MIN (hlen, caplen - offset),
                       "Internet Protocol Version 4, Src: %s, Dst: %s", src, dst);
  cs_proto_tree_set_protocol (tree, "IPv4");
  cs_proto_tree_set_addresses (tree, src, dst);
  cs_proto_tree_add_uint (tree, "ip.version", offset, 1, p[0] >> 4, "Version");
  cs_proto_tree_add_uint (tree, "ip.hdr_len", offset, 1, hlen, "Header Length");
  cs_proto_tree_add_hex (tree, "ip.dsfield", offset + 1, 1, p[1], 2,
                         "Differentiated Services Field");
  cs_proto_tree_push (tree);
  cs_proto_tree_add_uint (tree, "ip.dsfield.dscp", offset + 1, 1, p[1] >> 2,
                          "Differentiated Services Codepoint");
  cs_proto_tree_add_uint (tree, "ip.dsfield.ecn", offset + 1, 1, p[1] & 3,
                          "Explicit Congestion Notification");
  cs_proto_tree_pop (tree);
  cs_proto_tree_add_uint (tree, "ip.len", offset + 2, 2, cs_dissect_u16 (p + 2), "Total Length");
  cs_proto_tree_add_hex (tree, "ip.id", offset + 4, 2, cs_dissect_u16 (p + 4), 4, "Identification");
  cs_proto_tree_add_hex (tree, "ip.flags", offset + 6, 1, flags, 2, "Flags");
  cs_proto_tree_push (tree);
  cs_proto_tree_add_bool (tree, "ip.flags.rb", offset + 6, 1, flags & 4, "Reserved bit");
  cs_proto_tree_add_bool (tree, "ip.flags.df", offset + 6, 1, flags & 2, "Don't fragment");
  cs_proto_tree_add_bool (tree, "ip.flags.mf", offset + 6, 1, flags & 1, "More fragments");
  cs_proto_tree_pop (tree);
  /* in 8-byte units, as tshark prints it */
  cs_proto_tree_add_uint (tree, "ip.frag_offset", offset + 6, 2, cs_dissect_u16 (p + 6) & 0x1fff,
                          "Fragment Offset");
  cs_proto_tree_add_uint (tree, "ip.ttl", offset + 8, 1, p[8], "Time to Live");
  cs_proto_tree_add_uint (tree, "ip.proto", offset + 9, 1, p[9], "Protocol");
  cs_proto_tree_add_hex (tree, "ip.checksum", offset + 10, 2, cs_dissect_u16 (p + 10), 4,
                         "Header Checksum");
  cs_proto_tree_add (tree, "ip.src", offset + 12, 4, src, "Source Address");
  cs_proto_tree_add (tree, "ip.dst", offset + 16, 4, dst, "Destination Address");
}

static void
cs_dissect_ipv6_address (const guint8 *p, char *out)
{
  CsAddr addr;

  cs_addr_set_v6 (&addr, p);
  cs_addr_to_string (&addr, out);
}

void
cs_dissect_ipv6 (CsProtoTree *tree, const guint8 *data, guint32 caplen, guint32 offset)
{
  const guint8 *p = data + offset;
  char src[CS_ADDR_STRLEN], dst[CS_ADDR_STRLEN];
  guint32 first;

  if (offset + 40 > caplen)
    return;
  first = cs_dissect_u32 (p);
  cs_dissect_ipv6_address (p + 8, src);
  cs_dissect_ipv6_address (p + 24, dst);
  cs_proto_tree_layer (tree, "ipv6", offset, 40, "Internet Protocol Version 6, Src: %s, Dst: %s",
                       src, dst);
  cs_proto_tree_set_protocol (tree, "IPv6");
  cs_proto_tree_set_addresses (tree, src, dst);
  cs_proto_tree_add_uint (tree, "ipv6.version", offset, 1, first >> 28, "Version");
  cs_proto_tree_add_hex (tree, "ipv6.tclass", offset, 2, (first >> 20) & 0xff, 8, "Traffic Class");
  cs_proto_tree_add_hex (tree, "ipv6.flow", offset + 1, 3, first & 0xfffff, 6, "Flow Label");
  cs_proto_tree_add_uint (tree, "ipv6.plen", offset + 4, 2, cs_dissect_u16 (p + 4),
                          "Payload Length");
  cs_proto_tree_add_uint (tree, "ipv6.nxt", offset + 6, 1, p[6], "Next Header");
  cs_proto_tree_add_uint (tree, "ipv6.hlim", offset + 7, 1, p[7], "Hop Limit");
  cs_proto_tree_add (tree, "ipv6.src", offset + 8, 16, src, "Source Address");
  cs_proto_tree_add (tree, "ipv6.dst", offset + 24, 16, dst, "Destination Address");
}

void
cs_dissect_ipv6_fragment (CsProtoTree *tree, const guint8 *data, guint32 caplen, guint32 offset)
{
  const guint8 *p = data + offset;
  guint16 off;

  if (offset + 8 > caplen)
    return;
  off = cs_dissect_u16 (p + 2);
  cs_proto_tree_add_text (tree, "ipv6.fraghdr", offset, 8, "Fragment Header for IPv6");
  cs_proto_tree_push (tree);
  cs_proto_tree_add_uint (tree, "ipv6.fraghdr.nxt", offset, 1, p[0], "Next header");
  cs_proto_tree_add_uint (tree, "ipv6.fraghdr.offset", offset + 2, 2, off >> 3, "Offset");
  cs_proto_tree_add_bool (tree, "ipv6.fraghdr.more", offset + 3, 1, off & 1, "More Fragments");
  cs_proto_tree_add_hex (tree, "ipv6.fraghdr.ident", offset + 4, 4, cs_dissect_u32 (p + 4), 8,
                         "Identification");
  cs_proto_tree_pop (tree);
}

void
cs_dissect_udp (CsProtoTree *tree, const guint8 *data, guint32 caplen, guint32 offset)
{
  const guint8 *p = data + offset;
  guint16 sport, dport, len;

  if (offset + 8 > caplen)
    return;
  sport = cs_dissect_u16 (p);
  dport = cs_dissect_u16 (p + 2);
  len = cs_dissect_u16 (p + 4);
  cs_proto_tree_layer (tree, "udp", offset, 8, "User Datagram Protocol, Src Port: %u, Dst Port: %u",
                       sport, dport);
  cs_proto_tree_set_protocol (tree, "UDP");
  cs_proto_tree_set_info (tree, "%u → %u Len=%u", sport, dport, len >= 8 ? len - 8u : 0u);
  cs_proto_tree_add_uint (tree, "udp.srcport", offset, 2, sport, "Source Port");
  cs_proto_tree_add_uint (tree, "udp.dstport", offset + 2, 2, dport, "Destination Port");
  cs_proto_tree_add_uint (tree, "udp.length", offset + 4, 2, len, "Length");
  cs_proto_tree_add_hex (tree, "udp.checksum", offset + 6, 2, cs_dissect_u16 (p + 6), 4,
                         "Checksum");
}

void
cs_dissect_tcp (CsProtoTree *tree, const guint8 *data, guint32 caplen, guint32 offset,
                guint32 payload_len)
{
  static const char *flag_names[] = { "FIN", "SYN", "RST", "PSH", "ACK", "URG", "ECE", "CWR" };
  static const char *flag_fields[]
      = { "tcp.flags.fin", "tcp.flags.syn", "tcp.flags.reset", "tcp.flags.push",
          "tcp.flags.ack", "tcp.flags.urg", "tcp.flags.ece",   "tcp.flags.cwr" };
  const guint8 *p = data + offset;
  guint16 sport, dport, flags;
  guint hlen;
  GString *names;

  if (offset + 20 > caplen)
    return;
  sport = cs_dissect_u16 (p);
  dport = cs_dissect_u16 (p + 2);
  hlen = (p[12] >> 4) * 4u;
  flags = cs_dissect_u16 (p + 12) & 0x0fff;
  names = g_string_new (NULL);
  for (int i = 7; i >= 0; i--)
    if (flags & (1u << i))
      g_string_append_printf (names, "%s%s", names->len > 0 ? ", " : "", flag_names[i]);
  cs_proto_tree_layer (tree, "tcp", offset, MIN (hlen, caplen - offset),
                       "Transmission Control Protocol, Src Port: %u, Dst Port: %u, Seq: %u", sport,
                       dport, cs_dissect_u32 (p + 4));
  cs_proto_tree_set_protocol (tree, "TCP");
  cs_proto_tree_set_info (tree, "%u → %u [%s] Seq=%u Win=%u Len=%u", sport, dport, names->str,
                          cs_dissect_u32 (p + 4), cs_dissect_u16 (p + 14), payload_len);
  cs_proto_tree_add_uint (tree, "tcp.srcport", offset, 2, sport, "Source Port");
  cs_proto_tree_add_uint (tree, "tcp.dstport", offset + 2, 2, dport, "Destination Port");
  cs_proto_tree_add_uint (tree, "tcp.seq_raw", offset + 4, 4, cs_dissect_u32 (p + 4),
                          "Sequence Number (raw)");
  cs_proto_tree_add_uint (tree, "tcp.ack_raw", offset + 8, 4, cs_dissect_u32 (p + 8),
                          "Acknowledgment number (raw)");
  cs_proto_tree_add_uint (tree, "tcp.hdr_len", offset + 12, 1, hlen, "Header Length");
  cs_proto_tree_add_hex (tree, "tcp.flags", offset + 12, 2, flags, 4, "Flags");
  cs_proto_tree_push (tree);
  for (guint i = 0; i < G_N_ELEMENTS (flag_fields); i++)
    cs_proto_tree_add_bool (tree, flag_fields[i], offset + 13, 1, flags & (1u << i), flag_names[i]);
  cs_proto_tree_pop (tree);
  cs_proto_tree_add_uint (tree, "tcp.window_size_value", offset + 14, 2, cs_dissect_u16 (p + 14),
                          "Window");
  cs_proto_tree_add_hex (tree, "tcp.checksum", offset + 16, 2, cs_dissect_u16 (p + 16), 4,
                         "Checksum");
  cs_proto_tree_add_uint (tree, "tcp.urgent_pointer", offset + 18, 2, cs_dissect_u16 (p + 18),
                          "Urgent Pointer");
  cs_proto_tree_add_uint (tree, "tcp.len", offset + hlen, payload_len, payload_len,
                          "TCP Segment Len");
  g_string_free (names, TRUE);
}
