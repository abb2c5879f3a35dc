/* cs-decode.h — decoding captured frames from the link layer down to UDP/TCP */
#pragma once

#include <glib.h>
#include <string.h>

#include "base/cs-addr.h"

G_BEGIN_DECLS

typedef enum
{
  CS_DECODE_OK,          /* UDP or TCP found: see packet->payload */
  CS_DECODE_FRAGMENT,    /* an IP fragment: see packet->frag; feed it to CsIpReassembler */
  CS_DECODE_NOT_IP,      /* ARP, LLDP, …: nothing for us */
  CS_DECODE_UNSUPPORTED, /* link type or IP protocol we don't handle (ICMP, SCTP, ESP…) */
  CS_DECODE_MALFORMED,   /* headers cut short or inconsistent */
  CS_DECODE_ENCRYPTED,   /* ESP whose payload is not NULL-encrypted: nothing readable */
} CsDecodeStatus;

/* Encapsulations peeled on the way to the inner packet, outermost first. */
typedef enum
{
  CS_TUNNEL_NONE,
  CS_TUNNEL_IP_IN_IP, /* IPv4 or IPv6 in IPv4 or IPv6 (protocols 4 and 41) */
  CS_TUNNEL_GRE,      /* RFC 2784/2890, IP or transparent Ethernet bridging inside */
  CS_TUNNEL_ERSPAN,   /* GRE-carried ERSPAN type I, II or III (mirrored Ethernet) */
  CS_TUNNEL_GTP_U,    /* 3GPP TS 29.281 G-PDU on UDP 2152 */
  CS_TUNNEL_VXLAN,    /* RFC 7348, UDP 4789 */
  CS_TUNNEL_GENEVE,   /* RFC 8926, UDP 6081 */
  CS_TUNNEL_ESP_NULL, /* RFC 4303 with NULL encryption (RFC 2410) */
} CsTunnelKind;

/* How many encapsulations one frame may nest before the decoder gives up (UNSUPPORTED):
 * real networks stack two or three (GTP-U in IPsec in VLANs); hostile input is bounded. */
#define CS_DECODE_MAX_TUNNELS 4

/* One peeled encapsulation: its kind and where its header starts (bytes from the start of
 * the frame, or of the reassembled datagram for cs_decode_transport). */
typedef struct
{
  guint8 kind; /* CsTunnelKind */
  guint8 reserved;
  guint16 offset;
} CsTunnelLayer;

/* UDP ports whose datagrams carry a tunnel the decoder peels (GTP-U, VXLAN, Geneve). */
#define CS_UDP_PORT_GTP_U 2152
#define CS_UDP_PORT_VXLAN 4789
#define CS_UDP_PORT_GENEVE 6081

typedef enum
{
  CS_IP_PROTO_TCP = 6,
  CS_IP_PROTO_UDP = 17
} CsIpProto;

#define CS_TCP_FIN 0x01
#define CS_TCP_SYN 0x02
#define CS_TCP_RST 0x04
#define CS_TCP_PSH 0x08
#define CS_TCP_ACK 0x10

/* Link types (pcap LINKTYPE_* values) understood by cs_decode_frame. */
#define CS_LINKTYPE_NULL 0
#define CS_LINKTYPE_ETHERNET 1
#define CS_LINKTYPE_RAW_12 12 /* DLT_RAW on some BSDs */
#define CS_LINKTYPE_RAW_14 14 /* DLT_RAW on OpenBSD */
#define CS_LINKTYPE_RAW 101
#define CS_LINKTYPE_LOOP 108
#define CS_LINKTYPE_LINUX_SLL 113
#define CS_LINKTYPE_IPV4 228
#define CS_LINKTYPE_IPV6 229
#define CS_LINKTYPE_LINUX_SLL2 276

typedef struct
{
  CsEndpoint src, dst;   /* ports 0 until the transport is decoded */
  guint8 ip_proto;       /* 6 TCP, 17 UDP, … */
  guint8 ip_version;     /* 4 or 6 */
  guint16 vlan;          /* outermost 802.1Q VID or 0 */
  const guint8 *payload; /* UDP/TCP payload (points into the caller's buffer) */
  gsize payload_len;     /* UDP: min(udp length - 8, bytes captured) */
  guint32 tcp_seq, tcp_ack;
  guint8 tcp_flags;
  struct
  {                     /* valid when status == CS_DECODE_FRAGMENT */
    guint32 id;         /* IPv4 id or IPv6 fragment identification */
    guint32 offset;     /* byte offset of this fragment in the datagram */
    gboolean more;      /* MF flag */
    const guint8 *data; /* fragment payload */
    gsize len;
  } frag;
  /* Offset of the UDP/TCP header (or of the fragment payload) from the start of the frame; 0 after
   * cs_decode_transport on a reassembled buffer. */
  gsize transport_offset;
  /* The encapsulations peeled to reach src/dst (0 for a plain frame), outermost first. */
  guint8 n_tunnels;
  CsTunnelLayer tunnels[CS_DECODE_MAX_TUNNELS];
} CsPacket;

/* Decodes a captured frame of the given link type down to UDP/TCP. Link types: DLT_EN10MB
 * (Ethernet II with 802.1Q/802.1ad/QinQ stacks, also 0x88a8 and 0x9100; MPLS label stacks),
 * DLT_LINUX_SLL (113), DLT_LINUX_SLL2 (276), DLT_RAW (12, 14, and LINKTYPE_RAW 101),
 * LINKTYPE_IPV4 (228), LINKTYPE_IPV6 (229), DLT_NULL (0) and DLT_LOOP (108) (4-byte AF family in
 * host or network order: 2 = IPv4; 24, 28, 30 = IPv6). IPv4 (options, header checksum not
 * required, total length trims Ethernet padding), IPv6 with extension headers (hop-by-hop,
 * routing, destination options, fragment 44; stop on 59). UDP and TCP (data offset, options).
 * A fragment whose bytes were not all captured is MALFORMED (it could not be reassembled).
 * Tunnels are peeled (at most CS_DECODE_MAX_TUNNELS deep) and listed in packet->tunnels: IP in
 * IP (4, 41), GRE (47) with IP, MPLS, VLAN or Ethernet (0x6558) inside and ERSPAN I-III, ESP
 * (50) with NULL encryption (else ENCRYPTED), IPv4 AH (51), and on UDP GTP-U (2152), VXLAN
 * (4789) and Geneve (6081); src/dst and the payload are then the inner packet's. */
CsDecodeStatus cs_decode_frame (guint linktype, const guint8 *data, gsize caplen, CsPacket *packet);
/* cs_decode_frame without its fast path (cs-decode-fast.h): the layered decoder alone, which
 * the tests hold the fast path against. */
CsDecodeStatus cs_decode_frame_layered (guint linktype, const guint8 *data, gsize caplen,
                                        CsPacket *packet);

static inline guint16
cs_decode_u16be (const guint8 *p)
{
  return (guint16) ((p[0] << 8) | p[1]);
}

/* Whether a UDP port is one the decoder looks for a tunnel behind: the fast path
 * (cs-decode-fast.h) and the chunk decoder leave such datagrams to the layered decoder. (A
 * tunnel header never starts with RTP's 0x80, so RTP on such a port stays RTP either way.) */
static inline gboolean
cs_decode_udp_port_is_tunnel (guint16 port)
{
  return port == CS_UDP_PORT_GTP_U || port == CS_UDP_PORT_VXLAN || port == CS_UDP_PORT_GENEVE;
}

/* The headers a frame's decode walked through, outermost first, by kind and offset in the
 * frame: what a rewriter needs to fix lengths and checksums after changing a payload. */
typedef enum
{
  CS_LAYER_PPPOE,
  CS_LAYER_IPV4,
  CS_LAYER_IPV6,
  CS_LAYER_IPV6_FRAGMENT, /* the fragment extension header */
  CS_LAYER_UDP,
  CS_LAYER_TCP,
} CsLayerKind;

#define CS_DECODE_MAX_LAYERS 16

typedef struct
{
  guint n;
  struct
  {
    guint8 kind; /* CsLayerKind */
    guint32 offset;
  } layers[CS_DECODE_MAX_LAYERS];
} CsDecodeLayers;

/* cs_decode_frame, also listing the headers it decoded (the same status and packet). */
CsDecodeStatus cs_decode_frame_layers (guint linktype, const guint8 *data, gsize caplen,
                                       CsPacket *packet, CsDecodeLayers *layers);

/* Decodes a UDP/TCP header from a reassembled IP payload (after fragment reassembly);
 * packet->src/dst addresses, ip_version and ip_proto are kept and used. For IPv6, extension
 * headers that followed the fragment header (e.g. destination options) are skipped. */
CsDecodeStatus cs_decode_transport (const guint8 *data, gsize len, CsPacket *packet);

/* A short English name of a status ("ok", "fragment", …) for logs and tests. */
const char *cs_decode_status_to_string (CsDecodeStatus status);

G_END_DECLS
