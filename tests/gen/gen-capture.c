/* gen-capture.c — a capture under construction: packets, links, IP/UDP/TCP */
#include "gen-capture.h"

#include "gen-expect.h"
#include "gen-tunnel.h"

#include <string.h>

#define ETHERTYPE_IPV4 0x0800
#define ETHERTYPE_IPV6 0x86DD
#define ETHERTYPE_VLAN 0x8100
#define ETHERTYPE_QINQ 0x88A8

void
gen_rand_seed (GenRand *rand, const char *text)
{
  guint64 h = G_GUINT64_CONSTANT (1469598103934665603);

  /* FNV-1a of the text: a fixed seed per scenario name */
  for (const char *p = text; *p != '\0'; p++)
    {
      h ^= (guint8) *p;
      h *= G_GUINT64_CONSTANT (1099511628211);
    }
  rand->state = h;
}

guint64
gen_rand_next (GenRand *rand)
{
  guint64 z = (rand->state += G_GUINT64_CONSTANT (0x9E3779B97F4A7C15));

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94D049BB133111EB);
  return z ^ (z >> 31);
}

double
gen_rand_double (GenRand *rand)
{
  return (gen_rand_next (rand) >> 11) * (1.0 / 9007199254740992.0);
}

gint64
gen_rand_range (GenRand *rand, gint64 lo, gint64 hi)
{
  if (hi <= lo)
    return lo;
  return lo + (gint64) (gen_rand_next (rand) % (guint64) (hi - lo + 1));
}

void
gen_endpoint (CsEndpoint *ep, const char *ip, guint16 port)
{
  memset (ep, 0, sizeof *ep);
  if (!cs_addr_parse (&ep->addr, ip))
    g_error ("bad address %s", ip);
  ep->port = port;
}

static void
packet_free (gpointer data)
{
  GenPacket *p = data;

  g_bytes_unref (p->data);
  g_free (p->comment);
  g_free (p);
}

GenCapture *
gen_capture_new (const char *seed_text)
{
  GenCapture *cap = g_new0 (GenCapture, 1);

  cap->format = CS_CAPTURE_FILE_PCAPNG;
  cap->link_types = g_array_new (FALSE, FALSE, sizeof (guint16));
  cap->packets = g_ptr_array_new_with_free_func (packet_free);
  cap->vlan_id = 100;
  cap->next_ip_id = 0x1000;
  gen_rand_seed (&cap->rand, seed_text);
  cap->expect = gen_expect_new ();
  return cap;
}

void
gen_capture_free (GenCapture *cap)
{
  if (cap == NULL)
    return;
  g_array_unref (cap->link_types);
  g_ptr_array_unref (cap->packets);
  gen_expect_free (cap->expect);
  g_free (cap);
}

static guint16
link_type_of (GenLink link)
{
  switch (link)
    {
    case GEN_LINK_SLL:
      return CS_LINKTYPE_LINUX_SLL;
    case GEN_LINK_SLL2:
      return CS_LINKTYPE_LINUX_SLL2;
    case GEN_LINK_NULL:
      return CS_LINKTYPE_NULL;
    case GEN_LINK_RAW:
      return CS_LINKTYPE_RAW;
    default:
      return CS_LINKTYPE_ETHERNET;
    }
}

void
gen_capture_add_interface (GenCapture *cap, GenLink link)
{
  guint16 type = link_type_of (link);

  g_array_append_val (cap->link_types, type);
  cap->iface = cap->link_types->len - 1;
  cap->link = link;
}

void
gen_capture_set_link (GenCapture *cap, GenLink link)
{
  guint16 type = link_type_of (link);

  cap->link = link;
  for (guint i = 0; i < cap->link_types->len; i++)
    if (g_array_index (cap->link_types, guint16, i) == type)
      {
        cap->iface = i;
        return;
      }
  gen_capture_add_interface (cap, link);
}

static guint
store_packet (GenCapture *cap, gint64 time_ns, GByteArray *frame)
{
  GenPacket *p = g_new0 (GenPacket, 1);

  if (cap->link_types->len == 0)
    gen_capture_set_link (cap, cap->link);
  p->time_ns = time_ns;
  p->iface = cap->iface;
  p->id = cap->packets->len;
  p->data = g_byte_array_free_to_bytes (frame);
  g_ptr_array_add (cap->packets, p);
  return p->id;
}

void
gen_capture_add_raw_frame (GenCapture *cap, gint64 time_ns, const guint8 *frame, gsize len)
{
  GByteArray *copy = g_byte_array_sized_new (len);

  g_byte_array_append (copy, frame, len);
  store_packet (cap, time_ns, copy);
}

static void
put16 (GByteArray *a, guint16 v)
{
  guint8 b[2] = { v >> 8, v & 0xff };
  g_byte_array_append (a, b, 2);
}

static void
put32 (GByteArray *a, guint32 v)
{
  guint8 b[4] = { v >> 24, (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff };
  g_byte_array_append (a, b, 4);
}

/* Locally administered MAC derived from the IP address, so hosts keep one MAC. */
static void
mac_for (guint8 mac[6], const guint8 *addr, gsize addr_len)
{
  mac[0] = 0x02;
  mac[1] = 0x00;
  memcpy (mac + 2, addr + addr_len - 4, 4);
}

/* Frames an IP packet on the current link and stores it. */
static guint
frame_ip (GenCapture *cap, gint64 time_ns, const guint8 *ip, gsize len)
{
  GByteArray *f = g_byte_array_sized_new (len + 24);
  gboolean v6 = (ip[0] >> 4) == 6;
  const guint8 *src = v6 ? ip + 8 : ip + 12;
  const guint8 *dst = v6 ? ip + 24 : ip + 16;
  gsize alen = v6 ? 16 : 4;
  guint16 ethertype = v6 ? ETHERTYPE_IPV6 : ETHERTYPE_IPV4;
  guint8 mac_src[6], mac_dst[6];
  gboolean outgoing = memcmp (src, cap->local_addr.bytes, alen) == 0;

  mac_for (mac_src, src, alen);
  mac_for (mac_dst, dst, alen);
  switch (cap->link)
    {
    case GEN_LINK_ETHERNET:
    case GEN_LINK_VLAN:
    case GEN_LINK_QINQ:
      g_byte_array_append (f, mac_dst, 6);
      g_byte_array_append (f, mac_src, 6);
      if (cap->link == GEN_LINK_QINQ)
        {
          put16 (f, ETHERTYPE_QINQ);
          put16 (f, 200); /* service tag */
        }
      if (cap->link != GEN_LINK_ETHERNET)
        {
          put16 (f, ETHERTYPE_VLAN);
          put16 (f, cap->vlan_id);
        }
      put16 (f, ethertype);
      break;
    case GEN_LINK_SLL:
      put16 (f, outgoing ? 4 : 0); /* PACKET_OUTGOING / PACKET_HOST */
      put16 (f, 1);                /* ARPHRD_ETHER */
      put16 (f, 6);
      g_byte_array_append (f, mac_src, 6);
      put16 (f, 0);
      put16 (f, ethertype);
      break;
    case GEN_LINK_SLL2:
      put16 (f, ethertype);
      put16 (f, 0);
      put32 (f, 2); /* interface index */
      put16 (f, 1); /* ARPHRD_ETHER */
      {
        guint8 type_len[2] = { outgoing ? 4 : 0, 6 };
        g_byte_array_append (f, type_len, 2);
      }
      g_byte_array_append (f, mac_src, 6);
      put16 (f, 0);
      break;
    case GEN_LINK_NULL:
      {
        /* host byte order of the writer; 24 is BSD's AF_INET6 */
        guint32 family = v6 ? 24 : 2;
        guint8 b[4];
        for (int i = 0; i < 4; i++)
          b[cap->big_endian ? 3 - i : i] = (family >> (8 * i)) & 0xff;
        g_byte_array_append (f, b, 4);
      }
      break;
    case GEN_LINK_RAW:
      break;
    }
  g_byte_array_append (f, ip, len);
  return store_packet (cap, time_ns, f);
}

guint
gen_capture_add_ip (GenCapture *cap, gint64 time_ns, const guint8 *ip, gsize len)
{
  g_autoptr (GByteArray) outer = NULL;

  if (cap->tunnel == GEN_TUNNEL_NONE)
    return frame_ip (cap, time_ns, ip, len);
  /* the tunnel's outer packet is what the link carries */
  outer = gen_tunnel_wrap (cap, ip, len);
  return frame_ip (cap, time_ns, outer->data, outer->len);
}

void
gen_capture_comment_last (GenCapture *cap, const char *comment)
{
  GenPacket *p = g_ptr_array_index (cap->packets, cap->packets->len - 1);

  g_free (p->comment);
  p->comment = g_strdup (comment);
}

GenPacket *
gen_capture_packet (GenCapture *cap, guint id)
{
  g_return_val_if_fail (id < cap->packets->len, NULL);
  return g_ptr_array_index (cap->packets, id);
}

static gint
compare_packets (gconstpointer a, gconstpointer b)
{
  const GenPacket *pa = *(GenPacket *const *) a;
  const GenPacket *pb = *(GenPacket *const *) b;

  if (pa->time_ns != pb->time_ns)
    return pa->time_ns < pb->time_ns ? -1 : 1;
  return pa->id < pb->id ? -1 : pa->id > pb->id;
}

/* Cuts n bytes off the end of the file at path. */
static gboolean
cut_tail (const char *path, gsize n, GError **error)
{
  g_autofree char *data = NULL;
  gsize len;

  if (!g_file_get_contents (path, &data, &len, error))
    return FALSE;
  return g_file_set_contents (path, data, len - MIN (n, len), error);
}

gboolean
gen_capture_write (GenCapture *cap, const char *path, GError **error)
{
  g_autoptr (GPtrArray) order = g_ptr_array_new ();
  g_autoptr (CsPcapngWriter) w = NULL;
  static const char *const names[] = { "eth0", "any", "lo" };

  w = cs_pcapng_writer_new_file (path, cap->format, cap->nanosecond, cap->big_endian, error);
  if (w == NULL)
    return FALSE;
  for (guint i = 0; i < cap->link_types->len; i++)
    if (cs_pcapng_writer_add_interface (w, g_array_index (cap->link_types, guint16, i),
                                        names[MIN (i, 2)], error)
        < 0)
      return FALSE;
  for (guint i = 0; i < cap->packets->len; i++)
    g_ptr_array_add (order, g_ptr_array_index (cap->packets, i));
  g_ptr_array_sort (order, compare_packets);
  for (guint i = 0; i < order->len; i++)
    {
      GenPacket *p = g_ptr_array_index (order, i);
      gsize len;
      const guint8 *data = g_bytes_get_data (p->data, &len);

      p->frame = i + 1;
      if (!cs_pcapng_writer_write_packet (w, p->iface, p->time_ns, data, len, len, p->comment,
                                          error))
        return FALSE;
    }
  if (!cs_pcapng_writer_close (w, error))
    return FALSE;
  return cap->truncate_bytes == 0 || cut_tail (path, cap->truncate_bytes, error);
}

guint16
gen_inet_checksum (const guint8 *data, gsize len, guint32 sum)
{
  for (gsize i = 0; i + 1 < len; i += 2)
    sum += (data[i] << 8) | data[i + 1];
  if (len % 2 == 1)
    sum += data[len - 1] << 8;
  while (sum >> 16)
    sum = (sum & 0xffff) + (sum >> 16);
  return (guint16) ~sum;
}

static guint32
pseudo_header_sum (const CsEndpoint *src, const CsEndpoint *dst, guint8 proto, gsize len)
{
  guint32 sum = 0;
  gsize alen = src->addr.family == 6 ? 16 : 4;

  for (gsize i = 0; i < alen; i += 2)
    {
      sum += (src->addr.bytes[i] << 8) | src->addr.bytes[i + 1];
      sum += (dst->addr.bytes[i] << 8) | dst->addr.bytes[i + 1];
    }
  sum += proto;
  sum += (guint32) (len >> 16) + (guint32) (len & 0xffff);
  return sum;
}

/* Wraps a transport segment (checksum already set) in IPv4 or IPv6. */
GByteArray *
gen_build_ip (GenCapture *cap, const CsEndpoint *src, const CsEndpoint *dst, guint8 proto,
              const guint8 *segment, gsize len)
{
  GByteArray *ip = g_byte_array_sized_new (len + 48);

  if (src->addr.family == 6)
    {
      gboolean hbh = cap->ipv6_hop_by_hop;
      /* hop-by-hop: next header, length 0 (8 bytes), PadN option of 4 bytes */
      const guint8 hop_by_hop[8] = { proto, 0, 1, 4, 0, 0, 0, 0 };

      put32 (ip, 0x60000000u);
      put16 (ip, (guint16) (len + (hbh ? 8 : 0)));
      {
        guint8 nh_hl[2] = { hbh ? 0 : proto, 64 };
        g_byte_array_append (ip, nh_hl, 2);
      }
      g_byte_array_append (ip, src->addr.bytes, 16);
      g_byte_array_append (ip, dst->addr.bytes, 16);
      if (hbh)
        g_byte_array_append (ip, hop_by_hop, 8);
    }
  else
    {
      guint8 hdr[20] = { 0x45, 0xb8 /* DSCP EF */, 0, 0, 0, 0, 0x40 /* DF */, 0, 64, proto };
      guint16 total = (guint16) (20 + len);
      guint16 sum;

      hdr[2] = total >> 8;
      hdr[3] = total & 0xff;
      hdr[4] = cap->next_ip_id >> 8;
      hdr[5] = cap->next_ip_id & 0xff;
      cap->next_ip_id++;
      memcpy (hdr + 12, src->addr.bytes, 4);
      memcpy (hdr + 16, dst->addr.bytes, 4);
      sum = gen_inet_checksum (hdr, 20, 0);
      hdr[10] = sum >> 8;
      hdr[11] = sum & 0xff;
      g_byte_array_append (ip, hdr, 20);
    }
  g_byte_array_append (ip, segment, len);
  return ip;
}

GByteArray *
gen_build_ip_udp (GenCapture *cap, const CsEndpoint *src, const CsEndpoint *dst,
                  const guint8 *payload, gsize len)
{
  g_autoptr (GByteArray) udp = g_byte_array_sized_new (len + 8);
  guint16 sum;

  put16 (udp, src->port);
  put16 (udp, dst->port);
  put16 (udp, (guint16) (len + 8));
  put16 (udp, 0);
  g_byte_array_append (udp, payload, len);
  sum = gen_inet_checksum (udp->data, udp->len, pseudo_header_sum (src, dst, 17, udp->len));
  if (sum == 0)
    sum = 0xffff;
  udp->data[6] = sum >> 8;
  udp->data[7] = sum & 0xff;
  return gen_build_ip (cap, src, dst, 17, udp->data, udp->len);
}

GByteArray *
gen_build_ip_tcp (GenCapture *cap, const CsEndpoint *src, const CsEndpoint *dst, guint32 seq,
                  guint32 ack, guint8 flags, const guint8 *payload, gsize len)
{
  g_autoptr (GByteArray) tcp = g_byte_array_sized_new (len + 20);
  guint8 off_flags[2] = { 5 << 4, flags };
  guint16 sum;

  put16 (tcp, src->port);
  put16 (tcp, dst->port);
  put32 (tcp, seq);
  put32 (tcp, ack);
  g_byte_array_append (tcp, off_flags, 2);
  put16 (tcp, 64240); /* window */
  put16 (tcp, 0);     /* checksum */
  put16 (tcp, 0);     /* urgent */
  g_byte_array_append (tcp, payload, len);
  sum = gen_inet_checksum (tcp->data, tcp->len, pseudo_header_sum (src, dst, 6, tcp->len));
  tcp->data[16] = sum >> 8;
  tcp->data[17] = sum & 0xff;
  return gen_build_ip (cap, src, dst, 6, tcp->data, tcp->len);
}

GPtrArray *
gen_ipv4_fragment (const guint8 *ip, gsize len, gsize mtu)
{
  GPtrArray *frags = g_ptr_array_new_with_free_func ((GDestroyNotify) g_byte_array_unref);
  gsize per = ((mtu - 20) / 8) * 8; /* fragment offsets count 8-byte units */
  const guint8 *payload = ip + 20;
  gsize payload_len = len - 20;

  for (gsize off = 0; off < payload_len; off += per)
    {
      gsize n = MIN (per, payload_len - off);
      gboolean more = off + n < payload_len;
      GByteArray *f = g_byte_array_sized_new (20 + n);
      guint8 hdr[20];
      guint16 field = (guint16) ((more ? 0x2000 : 0) | (off / 8));
      guint16 sum;

      memcpy (hdr, ip, 20);
      hdr[2] = (20 + n) >> 8;
      hdr[3] = (20 + n) & 0xff;
      hdr[6] = field >> 8;
      hdr[7] = field & 0xff;
      hdr[10] = hdr[11] = 0;
      sum = gen_inet_checksum (hdr, 20, 0);
      hdr[10] = sum >> 8;
      hdr[11] = sum & 0xff;
      g_byte_array_append (f, hdr, 20);
      g_byte_array_append (f, payload + off, n);
      g_ptr_array_add (frags, f);
    }
  return frags;
}

guint
gen_send_udp (GenCapture *cap, gint64 time_ns, const CsEndpoint *src, const CsEndpoint *dst,
              const guint8 *payload, gsize len)
{
  g_autoptr (GByteArray) ip = gen_build_ip_udp (cap, src, dst, payload, len);

  return gen_capture_add_ip (cap, time_ns, ip->data, ip->len);
}

static void
tcp_segment (GenTcpConn *conn, gint64 time_ns, int side, guint32 seq, guint8 flags,
             const guint8 *data, gsize len)
{
  g_autoptr (GByteArray) ip = NULL;

  ip = gen_build_ip_tcp (conn->cap, &conn->ends[side], &conn->ends[!side], seq,
                         flags & GEN_TCP_ACK ? conn->next_seq[!side] : 0, flags, data, len);
  gen_capture_add_ip (conn->cap, time_ns, ip->data, ip->len);
}

void
gen_tcp_open (GenTcpConn *conn, GenCapture *cap, gint64 time_ns, const CsEndpoint *a,
              const CsEndpoint *b)
{
  memset (conn, 0, sizeof *conn);
  conn->cap = cap;
  conn->ends[0] = *a;
  conn->ends[1] = *b;
  conn->next_seq[0] = (guint32) gen_rand_next (&cap->rand);
  conn->next_seq[1] = (guint32) gen_rand_next (&cap->rand);
  tcp_segment (conn, time_ns, 0, conn->next_seq[0]++, GEN_TCP_SYN, NULL, 0);
  tcp_segment (conn, time_ns + GEN_MS (1), 1, conn->next_seq[1]++, GEN_TCP_SYN | GEN_TCP_ACK, NULL,
               0);
  tcp_segment (conn, time_ns + GEN_MS (2), 0, conn->next_seq[0], GEN_TCP_ACK, NULL, 0);
}

void
gen_tcp_send (GenTcpConn *conn, gint64 time_ns, int side, const guint8 *data, gsize len)
{
  if (conn->last_data[side] == NULL)
    conn->last_data[side] = g_byte_array_new ();
  g_byte_array_set_size (conn->last_data[side], 0);
  g_byte_array_append (conn->last_data[side], data, len);
  conn->last_seq[side] = conn->next_seq[side];
  tcp_segment (conn, time_ns, side, conn->next_seq[side], GEN_TCP_PSH | GEN_TCP_ACK, data, len);
  conn->next_seq[side] += len;
}

void
gen_tcp_ack (GenTcpConn *conn, gint64 time_ns, int side)
{
  tcp_segment (conn, time_ns, side, conn->next_seq[side], GEN_TCP_ACK, NULL, 0);
}

void
gen_tcp_retransmit_last (GenTcpConn *conn, gint64 time_ns, int side)
{
  GByteArray *last = conn->last_data[side];

  g_return_if_fail (last != NULL);
  tcp_segment (conn, time_ns, side, conn->last_seq[side], GEN_TCP_PSH | GEN_TCP_ACK, last->data,
               last->len);
}

void
gen_tcp_close (GenTcpConn *conn, gint64 time_ns)
{
  tcp_segment (conn, time_ns, 0, conn->next_seq[0]++, GEN_TCP_FIN | GEN_TCP_ACK, NULL, 0);
  tcp_segment (conn, time_ns + GEN_MS (1), 1, conn->next_seq[1]++, GEN_TCP_FIN | GEN_TCP_ACK, NULL,
               0);
  tcp_segment (conn, time_ns + GEN_MS (2), 0, conn->next_seq[0], GEN_TCP_ACK, NULL, 0);
}

void
gen_tcp_clear (GenTcpConn *conn)
{
  for (int i = 0; i < 2; i++)
    g_clear_pointer (&conn->last_data[i], g_byte_array_unref);
}

guint
gen_capture_last_packet (GenCapture *cap)
{
  g_assert (cap->packets->len > 0);
  return cap->packets->len - 1;
}
