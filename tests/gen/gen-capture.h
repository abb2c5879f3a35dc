/* gen-capture.h — a capture under construction: packets, links, IP/UDP/TCP */
#pragma once

#include "base/cs-addr.h"
#include "export/cs-pcapng-writer.h"

#include <glib.h>

G_BEGIN_DECLS

#define GEN_MS(x) ((gint64) (x) *G_GINT64_CONSTANT (1000000))
#define GEN_S(x) ((gint64) (x) *G_GINT64_CONSTANT (1000000000))
/* 2024-03-01 10:00:00 UTC: every scenario starts here (plus its own offset). */
#define GEN_EPOCH GEN_S (1709287200)

typedef struct _GenExpect GenExpect;

/* splitmix64: tiny, and the same on every platform and GLib version. */
typedef struct
{
  guint64 state;
} GenRand;

void gen_rand_seed (GenRand *rand, const char *text);
guint64 gen_rand_next (GenRand *rand);
/* Uniform in [0, 1). */
double gen_rand_double (GenRand *rand);
/* Uniform in [lo, hi]. */
gint64 gen_rand_range (GenRand *rand, gint64 lo, gint64 hi);

typedef enum
{
  GEN_LINK_ETHERNET,
  GEN_LINK_VLAN, /* 802.1Q, vlan_id */
  GEN_LINK_QINQ, /* 802.1ad outer 0x88a8 + 802.1Q inner */
  GEN_LINK_SLL,
  GEN_LINK_SLL2,
  GEN_LINK_NULL,
  GEN_LINK_RAW,
} GenLink;

/* An encapsulation every IP packet of the capture is wrapped in (gen-tunnel.c). */
typedef enum
{
  GEN_TUNNEL_NONE,
  GEN_TUNNEL_GTP_U,    /* IPv4/UDP 2152, G-PDU with a PDU session container extension */
  GEN_TUNNEL_ESP_NULL, /* IPv4 ESP tunnel mode, NULL encryption, 12-byte ICV */
  GEN_TUNNEL_GRE,      /* IPv4 GRE with a key, IPv4 inside */
  GEN_TUNNEL_GRE_TEB,  /* IPv4 GRE, transparent Ethernet bridging (0x6558) */
  GEN_TUNNEL_ERSPAN1,  /* GRE 0x88be without sequence number: Ethernet inside */
  GEN_TUNNEL_ERSPAN2,  /* GRE 0x88be with sequence number and the type II header */
  GEN_TUNNEL_ERSPAN3,  /* GRE 0x22eb and the type III header */
  GEN_TUNNEL_VXLAN,    /* IPv4/UDP 4789, Ethernet inside */
  GEN_TUNNEL_GENEVE,   /* IPv4/UDP 6081 with one option, Ethernet inside */
  GEN_TUNNEL_IP_IN_IP, /* IPv4 protocol 4 or 41 (6in4) by the inner version */
  GEN_TUNNEL_IN_IPV6,  /* IPv6 next header 4 or 41 (4in6) */
} GenTunnel;

typedef struct
{
  gint64 time_ns;
  guint iface;
  guint id;    /* order of creation */
  guint frame; /* 1-based, set when written */
  GBytes *data;
  char *comment;
} GenPacket;

typedef struct _GenCapture
{
  CsCaptureFileFormat format;
  gboolean nanosecond;
  gboolean big_endian;
  GArray *link_types; /* guint16 per interface */
  GPtrArray *packets; /* GenPacket, by id */
  /* how the next packets are framed */
  guint iface;
  GenLink link;
  guint16 vlan_id;
  gboolean ipv6_hop_by_hop; /* next IPv6 packets carry a hop-by-hop header */
  CsAddr local_addr;        /* SLL "outgoing" when the source is this address */
  guint16 next_ip_id;
  GenTunnel tunnel; /* what the next IP packets are wrapped in */
  guint32 tunnel_seq;
  GenRand rand;
  GenExpect *expect;
  gsize truncate_bytes; /* the file written loses this many bytes at its end (damage) */
} GenCapture;

GenCapture *gen_capture_new (const char *seed_text);
void gen_capture_free (GenCapture *cap);
/* Selects the framing for the next packets; adds an interface for the link
 * type when none has it yet. */
void gen_capture_set_link (GenCapture *cap, GenLink link);
/* Adds a second interface with the same link type (multi-interface files). */
void gen_capture_add_interface (GenCapture *cap, GenLink link);
/* Frames an IP packet on the current link and stores it; returns its id. */
guint gen_capture_add_ip (GenCapture *cap, gint64 time_ns, const guint8 *ip, gsize len);
void gen_capture_add_raw_frame (GenCapture *cap, gint64 time_ns, const guint8 *frame, gsize len);
void gen_capture_comment_last (GenCapture *cap, const char *comment);
GenPacket *gen_capture_packet (GenCapture *cap, guint id);
/* Sorts by time (stable), numbers frames and writes the file. */
/* The id of the packet added last. */
guint gen_capture_last_packet (GenCapture *cap);
gboolean gen_capture_write (GenCapture *cap, const char *path, GError **error);

guint16 gen_inet_checksum (const guint8 *data, gsize len, guint32 sum);
/* An IPv4 or IPv6 packet (family from src) around a segment of protocol proto. */
GByteArray *gen_build_ip (GenCapture *cap, const CsEndpoint *src, const CsEndpoint *dst,
                          guint8 proto, const guint8 *segment, gsize len);
/* A whole IPv4 or IPv6 packet holding one UDP datagram (family from src). */
GByteArray *gen_build_ip_udp (GenCapture *cap, const CsEndpoint *src, const CsEndpoint *dst,
                              const guint8 *payload, gsize len);
GByteArray *gen_build_ip_tcp (GenCapture *cap, const CsEndpoint *src, const CsEndpoint *dst,
                              guint32 seq, guint32 ack, guint8 flags, const guint8 *payload,
                              gsize len);
/* Splits an IPv4 packet into fragments whose payload is at most mtu - 20. */
GPtrArray *gen_ipv4_fragment (const guint8 *ip, gsize len, gsize mtu);
guint gen_send_udp (GenCapture *cap, gint64 time_ns, const CsEndpoint *src, const CsEndpoint *dst,
                    const guint8 *payload, gsize len);

void gen_endpoint (CsEndpoint *ep, const char *ip, guint16 port);

#define GEN_TCP_FIN 0x01
#define GEN_TCP_SYN 0x02
#define GEN_TCP_PSH 0x08
#define GEN_TCP_ACK 0x10

/* One TCP connection: side 0 is the opener (a), side 1 the listener (b). */
typedef struct
{
  GenCapture *cap;
  CsEndpoint ends[2];
  guint32 next_seq[2];
  guint32 last_seq[2]; /* seq of the last data segment per side */
  GByteArray *last_data[2];
} GenTcpConn;

void gen_tcp_open (GenTcpConn *conn, GenCapture *cap, gint64 time_ns, const CsEndpoint *a,
                   const CsEndpoint *b);
void gen_tcp_send (GenTcpConn *conn, gint64 time_ns, int side, const guint8 *data, gsize len);
void gen_tcp_ack (GenTcpConn *conn, gint64 time_ns, int side);
/* Sends the last data segment of side again, same sequence number. */
void gen_tcp_retransmit_last (GenTcpConn *conn, gint64 time_ns, int side);
void gen_tcp_close (GenTcpConn *conn, gint64 time_ns);
void gen_tcp_clear (GenTcpConn *conn);

G_END_DECLS
