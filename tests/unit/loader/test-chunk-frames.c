/* test-chunk-frames.c — a chunk decoded from a capture file (classic pcap records read in
 * place, pcapng through the frame iterator; the usual RTP frame decided from its first bytes)
 * equals the same frames through the layered decoder, whatever their lengths say. */
#include "capture-builder.h"
#include "loader/cs-chunk.h"

/* One Ethernet frame of the test: what to write and how to bend it. */
typedef struct
{
  guint16 ethertype;  /* 0x0800 unless set */
  guint8 version_ihl; /* 0x45 unless set */
  guint8 proto;       /* UDP unless set */
  guint16 frag;       /* flags and fragment offset */
  gint total_len;     /* -1: the right one */
  gint udp_len;       /* -1: the right one */
  guint16 sport, dport;
  const guint8 *payload;
  guint payload_len;
  guint padding;   /* bytes after the IP packet (Ethernet padding) */
  guint cut;       /* bytes not captured at the end */
  gboolean no_udp; /* the payload follows the IP header (GRE, ESP) */
} TestFrame;

static GByteArray *
test_frame_bytes (const TestFrame *f)
{
  GByteArray *b = g_byte_array_new ();
  guint ihl = ((f->version_ihl ? f->version_ihl : 0x45) & 0x0f) * 4;
  guint total = ihl + (f->no_udp ? 0 : 8) + f->payload_len;
  guint udp = 8 + f->payload_len;
  guint8 mac[12] = { 2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2 };
  guint8 addrs[8] = { 10, 0, 0, (guint8) (f->sport & 0xff), 10, 0, 1, 9 };

  put_bytes (b, mac, sizeof mac);
  put_u16 (b, TRUE, f->ethertype ? f->ethertype : 0x0800);
  put_bytes (b, (guint8[]){ f->version_ihl ? f->version_ihl : 0x45, 0 }, 2);
  put_u16 (b, TRUE, f->total_len >= 0 ? (guint16) f->total_len : (guint16) total);
  put_u16 (b, TRUE, 0x1234);
  put_u16 (b, TRUE, f->frag);
  put_bytes (b, (guint8[]){ 64, f->proto ? f->proto : 17, 0, 0 }, 4);
  put_bytes (b, addrs, sizeof addrs);
  put_zeros (b, ihl - 20);
  if (!f->no_udp)
    {
      put_u16 (b, TRUE, f->sport);
      put_u16 (b, TRUE, f->dport);
      put_u16 (b, TRUE, f->udp_len >= 0 ? (guint16) f->udp_len : (guint16) udp);
      put_u16 (b, TRUE, 0);
    }
  put_bytes (b, f->payload, f->payload_len);
  put_zeros (b, f->padding);
  g_byte_array_set_size (b, b->len - MIN (f->cut, b->len));
  return b;
}

/* An RTP packet: version 2 (first byte first), type byte, seq, timestamp, SSRC, n bytes. */
static guint8 *
test_rtp (guint8 first, guint8 type, guint16 seq, guint32 ssrc, guint n)
{
  guint8 *p = g_malloc0 (12 + n);

  p[0] = first;
  p[1] = type;
  p[2] = (guint8) (seq >> 8);
  p[3] = (guint8) seq;
  p[4] = (guint8) (seq * 160u >> 8);
  p[5] = (guint8) (seq * 160u);
  p[8] = (guint8) (ssrc >> 24);
  p[9] = (guint8) (ssrc >> 16);
  p[10] = (guint8) (ssrc >> 8);
  p[11] = (guint8) ssrc;
  for (guint i = 0; i < n; i++)
    p[12 + i] = (guint8) (first + i);
  return p;
}

/* tunnel header + an inner Ethernet frame (from its 14th byte on when ip_only) */
static GByteArray *
test_tunnel_payload (const guint8 *header, guint header_len, const TestFrame *inner,
                     gboolean ip_only)
{
  g_autoptr (GByteArray) frame = test_frame_bytes (inner);
  GByteArray *b = g_byte_array_new ();
  guint skip = ip_only ? 14 : 0;

  put_bytes (b, header, header_len);
  put_bytes (b, frame->data + skip, frame->len - skip);
  return b;
}

/* The same kinds of datagrams inside GTP-U, VXLAN, Geneve, GRE and ESP-NULL (the shortcuts
 * must leave them to the layered decoder), RTP on a tunnel port (no tunnel header starts with
 * 0x80: it stays RTP), a GTP-U echo and a cut tunnel header. */
static void
test_add_tunnelled (GPtrArray *frames, guint16 *seq, const char *sip)
{
  g_autofree guint8 *rtp = test_rtp (0x80, 8, (*seq)++, 0x7e57, 160);
  const TestFrame inner_rtp = {
    .total_len = -1, .udp_len = -1, .sport = 7000, .dport = 7002, .payload = rtp, .payload_len = 172
  };
  const TestFrame inner_sip = { .total_len = -1,
                                .udp_len = -1,
                                .sport = 5060,
                                .dport = 5060,
                                .payload = (const guint8 *) sip,
                                .payload_len = (guint) strlen (sip) };
  const guint8 gtp[] = { 0x34, 0xff, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0x85, 1, 0x10, 5, 0 };
  const guint8 gtp_echo[] = { 0x32, 1, 0, 4, 0, 0, 0, 0, 0, 1, 0, 0 };
  const guint8 vxlan[] = { 0x08, 0, 0, 0, 0, 0x13, 0x89, 0 };
  const guint8 geneve[] = { 0x01, 0, 0x65, 0x58, 0, 0, 7, 0, 1, 3, 1, 0 };
  const guint8 gre[] = { 0x20, 0, 0x08, 0, 0, 0, 0, 42 };
  const guint8 esp[] = { 0xc0, 0xff, 0xee, 1, 0, 0, 0, 1 };
  struct
  {
    const guint8 *header;
    guint header_len;
    const TestFrame *inner;
    gboolean ip_only, no_udp;
    guint16 port;
  } wrapped[] = {
    { gtp, sizeof gtp, &inner_rtp, TRUE, FALSE, 2152 },
    { gtp, sizeof gtp, &inner_sip, TRUE, FALSE, 2152 },
    { vxlan, sizeof vxlan, &inner_rtp, FALSE, FALSE, 4789 },
    { geneve, sizeof geneve, &inner_sip, FALSE, FALSE, 6081 },
    { geneve, sizeof geneve, &inner_rtp, FALSE, FALSE, 6081 },
    { gre, sizeof gre, &inner_rtp, TRUE, TRUE, 0 },
    { esp, sizeof esp, &inner_rtp, TRUE, TRUE, 0 },
    { gtp_echo, sizeof gtp_echo, NULL, FALSE, FALSE, 2152 },
    { gtp, 5, NULL, FALSE, FALSE, 2152 },
    { vxlan, 4, NULL, FALSE, FALSE, 4789 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (wrapped); i++)
    {
      g_autoptr (GByteArray) body
          = wrapped[i].inner != NULL ? test_tunnel_payload (
                wrapped[i].header, wrapped[i].header_len, wrapped[i].inner, wrapped[i].ip_only)
                                     : g_byte_array_new ();
      TestFrame f = { .total_len = -1, .udp_len = -1, .sport = 40000, .dport = wrapped[i].port };

      if (wrapped[i].inner == NULL)
        put_bytes (body, wrapped[i].header, wrapped[i].header_len);
      if (wrapped[i].header == gtp && body->len >= 8)
        {
          /* GTP's length: what follows its first 8 bytes */
          body->data[2] = (guint8) ((body->len - 8) >> 8);
          body->data[3] = (guint8) (body->len - 8);
        }
      if (wrapped[i].header == esp)
        {
          /* NULL encryption: no padding (172 + 28 + 2 is a multiple of 4), IPv4 inside, ICV */
          put_bytes (body, (guint8[]){ 0, 4 }, 2);
          put_zeros (body, 12);
        }
      f.payload = body->data;
      f.payload_len = body->len;
      f.no_udp = wrapped[i].no_udp;
      f.proto = wrapped[i].header == gre ? 47 : wrapped[i].header == esp ? 50 : 0;
      g_ptr_array_add (frames, test_frame_bytes (&f));
    }
  /* plain RTP on each tunnel port, either way */
  for (guint i = 0; i < 3; i++)
    {
      static const guint16 ports[] = { 2152, 4789, 6081 };
      TestFrame f = { .total_len = -1,
                      .udp_len = -1,
                      .sport = ports[i],
                      .dport = 9000,
                      .payload = rtp,
                      .payload_len = 172 };

      g_ptr_array_add (frames, test_frame_bytes (&f));
      f.sport = 9000;
      f.dport = ports[i];
      g_ptr_array_add (frames, test_frame_bytes (&f));
    }
}

static GPtrArray *
test_frames (void)
{
  static const char sip[]
      = "OPTIONS sip:a@b SIP/2.0\r\nVia: SIP/2.0/UDP 10.0.0.1;branch=z9hG4bK1\r\n"
        "Call-ID: x\r\nCSeq: 1 OPTIONS\r\nFrom: <sip:a@b>;tag=1\r\n"
        "To: <sip:a@b>\r\nContent-Length: 0\r\n\r\n";
  static const guint8 rtcp_sr[28] = { 0x80, 200, 0, 6 };
  GPtrArray *frames = g_ptr_array_new_with_free_func ((GDestroyNotify) g_byte_array_unref);
  guint16 seq = 1;

  for (guint round = 0; round < 3; round++)
    {
      /* plain RTP of three streams (two sharing the ports), interleaved */
      for (guint s = 0; s < 3; s++)
        {
          g_autofree guint8 *rtp
              = test_rtp (0x80, (guint8) (s == 2 && round == 1 ? 0x88 : 8), seq++, 100 + s, 160);
          TestFrame f = { .total_len = -1,
                          .udp_len = -1,
                          .sport = (guint16) (4000 + 2 * (s % 2)),
                          .dport = 5000,
                          .payload = rtp,
                          .payload_len = 172 };

          g_ptr_array_add (frames, test_frame_bytes (&f));
        }
      /* the same stream with lengths that are not the usual ones */
      {
        g_autofree guint8 *rtp = test_rtp (0x80, 0, seq++, 7, 40);
        const TestFrame bent[] = {
          { .total_len = -1, .udp_len = -1, .sport = 6000, .dport = 6002, .padding = 6 },
          { .total_len = 0, .udp_len = -1, .sport = 6000, .dport = 6002, .padding = 4 },
          { .total_len = -1, .udp_len = 0, .sport = 6000, .dport = 6002, .padding = 3 },
          { .total_len = 0, .udp_len = 0, .sport = 6000, .dport = 6002 },
          { .total_len = -1, .udp_len = 30, .sport = 6000, .dport = 6002 },  /* UDP short */
          { .total_len = -1, .udp_len = 400, .sport = 6000, .dport = 6002 }, /* UDP long */
          { .total_len = 500, .udp_len = -1, .sport = 6000, .dport = 6002 }, /* IP long */
          { .total_len = 40, .udp_len = -1, .sport = 6000, .dport = 6002 },  /* IP short */
          { .total_len = -1, .udp_len = -1, .sport = 6000, .dport = 6002, .cut = 10 },
          { .total_len = -1, .udp_len = -1, .sport = 6000, .dport = 6002, .cut = 35 },
          { .total_len = -1, .udp_len = 19, .sport = 6000, .dport = 6002 }, /* 11 bytes */
          { .total_len = -1, .udp_len = 20, .sport = 6000, .dport = 6002 }, /* 12 bytes */
          { .total_len = -1, .udp_len = 5, .sport = 6000, .dport = 6002 },  /* malformed */
          { .total_len = 10, .udp_len = -1, .sport = 6000, .dport = 6002 }, /* malformed */
          { .total_len = -1, .udp_len = -1, .sport = 9060, .dport = 6002 }, /* HEP port */
          { .total_len = -1, .udp_len = -1, .sport = 6000, .dport = 9060 },
          { .total_len = -1, .udp_len = -1, .sport = 6000, .dport = 6002, .version_ihl = 0x46 },
          { .total_len = -1, .udp_len = -1, .sport = 6000, .dport = 6002, .frag = 0x4000 },
          { .total_len = -1, .udp_len = -1, .sport = 6000, .dport = 6002, .frag = 0x2000 },
          { .total_len = -1, .udp_len = -1, .sport = 6000, .dport = 6002, .ethertype = 0x0806 },
          { .total_len = -1, .udp_len = -1, .sport = 6000, .dport = 6002, .proto = 6 },
        };

        for (guint i = 0; i < G_N_ELEMENTS (bent); i++)
          {
            TestFrame f = bent[i];

            f.payload = rtp;
            f.payload_len = 52;
            g_ptr_array_add (frames, test_frame_bytes (&f));
          }
      }
      /* RTP that is not the usual header, RTCP, RTP whose type byte looks like RTCP's */
      {
        g_autofree guint8 *csrc = test_rtp (0x81, 8, seq++, 7, 20);
        g_autofree guint8 *odd_type = test_rtp (0x80, 201, seq++, 7, 20);
        const TestFrame other[] = {
          { .total_len = -1,
            .udp_len = -1,
            .sport = 6000,
            .dport = 6002,
            .payload = csrc,
            .payload_len = 32 },
          { .total_len = -1,
            .udp_len = -1,
            .sport = 6001,
            .dport = 6003,
            .payload = rtcp_sr,
            .payload_len = sizeof rtcp_sr },
          { .total_len = -1,
            .udp_len = -1,
            .sport = 6000,
            .dport = 6002,
            .payload = odd_type,
            .payload_len = 32 },
          { .total_len = -1,
            .udp_len = -1,
            .sport = 5060,
            .dport = 5060,
            .payload = (const guint8 *) sip,
            .payload_len = sizeof sip - 1 },
        };

        for (guint i = 0; i < G_N_ELEMENTS (other); i++)
          g_ptr_array_add (frames, test_frame_bytes (&other[i]));
      }
      test_add_tunnelled (frames, &seq, sip);
    }
  return frames;
}

/* The Ethernet frames with another link header: one 802.1Q tag (CS_LINKTYPE_ETHERNET with
 * vlan), Linux cooked v1 or v2, or none (raw IP). */
static GPtrArray *
test_relink (GPtrArray *frames, guint linktype, gboolean vlan)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) g_byte_array_unref);

  for (guint i = 0; i < frames->len; i++)
    {
      GByteArray *f = frames->pdata[i], *b = g_byte_array_new ();
      guint16 type = (guint16) ((f->data[12] << 8) | f->data[13]);

      switch (linktype)
        {
        case CS_LINKTYPE_ETHERNET:
          put_bytes (b, f->data, 12);
          if (vlan)
            put_bytes (b, (guint8[]){ 0x81, 0x00, 0x00, 0x05 }, 4);
          put_u16 (b, TRUE, type);
          break;
        case CS_LINKTYPE_LINUX_SLL:
          put_bytes (b, (guint8[]){ 0, 0, 0, 1, 0, 6 }, 6);
          put_bytes (b, f->data + 6, 6);
          put_zeros (b, 2);
          put_u16 (b, TRUE, type);
          break;
        case CS_LINKTYPE_LINUX_SLL2:
          put_u16 (b, TRUE, type);
          put_zeros (b, 2);
          put_bytes (b, (guint8[]){ 0, 0, 0, 3, 0, 1, 0, 6 }, 8);
          put_bytes (b, f->data + 6, 6);
          put_zeros (b, 2);
          break;
        default: /* raw IP */
          break;
        }
      put_bytes (b, f->data + 14, f->len - 14);
      g_ptr_array_add (out, b);
    }
  return out;
}

/* The frame's time: microseconds, so that every format keeps it exactly. */
static guint64
test_frame_us (guint i)
{
  return G_GUINT64_CONSTANT (1700000000000000) + (guint64) i * 20011u + (i % 7) * 3u;
}

static char *
test_write_pcap (const char *dir, GPtrArray *frames, guint linktype, gboolean be, gboolean ns)
{
  GByteArray *b = g_byte_array_new ();
  char *path;

  pcap_header (b, be, ns, 65535, linktype);
  for (guint i = 0; i < frames->len; i++)
    {
      GByteArray *frame = frames->pdata[i];
      guint64 us = test_frame_us (i);

      pcap_record_data (b, be, (guint32) (us / 1000000),
                        (guint32) (us % 1000000) * (ns ? 1000u : 1u), frame->data, frame->len);
    }
  path = write_capture_file (dir, be ? "be.pcap" : "le.pcap", b);
  g_byte_array_unref (b);
  return path;
}

static char *
test_write_pcapng (const char *dir, GPtrArray *frames, guint linktype)
{
  GByteArray *b = g_byte_array_new ();
  GByteArray *body = g_byte_array_new ();
  char *path;

  ng_shb (b, FALSE, NULL);
  ng_idb (b, FALSE, (guint16) linktype, 65535, -1, 0);
  for (guint i = 0; i < frames->len; i++)
    {
      GByteArray *frame = frames->pdata[i];
      guint64 us = test_frame_us (i);

      put_u32 (body, FALSE, 0);
      put_u32 (body, FALSE, (guint32) (us >> 32));
      put_u32 (body, FALSE, (guint32) us);
      put_u32 (body, FALSE, frame->len);
      put_u32 (body, FALSE, frame->len);
      put_bytes (body, frame->data, frame->len);
      put_zeros (body, (4 - frame->len % 4) % 4);
      ng_block (b, FALSE, 6, body);
    }
  path = write_capture_file (dir, "frames.pcapng", b);
  g_byte_array_unref (body);
  g_byte_array_unref (b);
  return path;
}

/* The frames first .. first + n - 1 of path, decoded by one chunk. */
static CsChunk *
test_decode (const char *path, guint32 first, guint32 n, CsCaptureSet **set_out)
{
  CsCaptureSet *set = cs_capture_set_new ();
  GError *error = NULL;
  CsChunk *chunk;

  g_assert_true (cs_capture_set_add_file (set, path, &error));
  g_assert_true (cs_capture_set_index (set, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (first + n, <=, cs_capture_set_get_n_frames (set));
  chunk = cs_chunk_new (first, n);
  cs_chunk_locate_frames (chunk, set, FALSE);
  cs_chunk_decode (chunk, set, NULL, NULL);
  *set_out = set;
  return chunk;
}

/* The same frames through the layered decoder (without the fast path of cs-decode-fast.h) and
 * cs_chunk_add_udp, one by one: what the
 * chunk's shortcuts must give. */
static CsChunk *
test_decode_layered (GPtrArray *frames, guint linktype, guint32 first, guint32 n)
{
  CsChunk *chunk = cs_chunk_new (first, n);

  for (guint32 i = first; i < first + n; i++)
    {
      GByteArray *frame = frames->pdata[i];
      CsPacket pkt;
      CsDecodeStatus status = cs_decode_frame_layered (linktype, frame->data, frame->len, &pkt);
      gint64 ts_ns = (gint64) test_frame_us (i) * 1000;

      chunk->bytes += frame->len;
      if (status == CS_DECODE_FRAGMENT
          || (status == CS_DECODE_OK && pkt.ip_proto == CS_IP_PROTO_TCP))
        {
          CsDeferredFrame deferred = { .number = i + 1 };

          deferred.frame.ts_ns = ts_ns;
          deferred.frame.caplen = deferred.frame.origlen = frame->len;
          g_array_append_val (chunk->deferred, deferred);
        }
      else if (status == CS_DECODE_OK && pkt.ip_proto == CS_IP_PROTO_UDP)
        cs_chunk_add_udp (chunk, &pkt, i + 1, ts_ns);
      else if (status == CS_DECODE_MALFORMED)
        chunk->undecodable++;
    }
  cs_chunk_group_rtp (chunk);
  return chunk;
}

static void
test_assert_same_chunks (const CsChunk *a, const CsChunk *b)
{
  g_assert_cmpuint (a->bytes, ==, b->bytes);
  g_assert_cmpuint (a->undecodable, ==, b->undecodable);
  g_assert_cmpuint (a->rtp_packets, ==, b->rtp_packets);
  g_assert_cmpuint (a->n_rtp_runs, ==, b->n_rtp_runs);
  for (guint r = 0; r < a->n_rtp_runs; r++)
    {
      const CsChunkRtpRun *x = &a->rtp_runs[r], *y = &b->rtp_runs[r];

      g_assert_true (cs_rtp_stream_key_equal (&x->key, &y->key));
      g_assert_cmpuint (x->pack.n_packets, ==, y->pack.n_packets);
      g_assert_cmpmem (x->pack.data, x->pack.n_bytes, y->pack.data, y->pack.n_bytes);
      g_assert_cmpmem (&x->pack.tail, sizeof x->pack.tail, &y->pack.tail, sizeof y->pack.tail);
    }
  g_assert_cmpuint (a->sip->len, ==, b->sip->len);
  for (guint i = 0; i < a->sip->len; i++)
    {
      const CsSipMessage *x = a->sip->pdata[i], *y = b->sip->pdata[i];

      g_assert_cmpuint (cs_sip_message_get_frame (x), ==, cs_sip_message_get_frame (y));
      g_assert_cmpint (cs_sip_message_get_ts_ns (x), ==, cs_sip_message_get_ts_ns (y));
      g_assert_true (cs_endpoint_equal (cs_sip_message_get_src (x), cs_sip_message_get_src (y)));
      g_assert_true (cs_endpoint_equal (cs_sip_message_get_dst (x), cs_sip_message_get_dst (y)));
    }
  g_assert_cmpuint (a->rtcp->len, ==, b->rtcp->len);
  for (guint i = 0; i < a->rtcp->len; i++)
    {
      const CsRtcpRef *x = &g_array_index (a->rtcp, CsRtcpRef, i);
      const CsRtcpRef *y = &g_array_index (b->rtcp, CsRtcpRef, i);

      g_assert_cmpuint (x->frame, ==, y->frame);
      g_assert_true (cs_endpoint_equal (&x->src, &y->src));
      g_assert_true (cs_endpoint_equal (&x->dst, &y->dst));
    }
  g_assert_cmpuint (a->deferred->len, ==, b->deferred->len);
  for (guint i = 0; i < a->deferred->len; i++)
    {
      const CsDeferredFrame *x = &g_array_index (a->deferred, CsDeferredFrame, i);
      const CsDeferredFrame *y = &g_array_index (b->deferred, CsDeferredFrame, i);

      g_assert_cmpuint (x->number, ==, y->number);
      g_assert_cmpint (x->frame.ts_ns, ==, y->frame.ts_ns);
      g_assert_cmpuint (x->frame.caplen, ==, y->frame.caplen);
      g_assert_cmpuint (x->frame.origlen, ==, y->frame.origlen);
    }
}

/* The RTP inside GTP-U, VXLAN, Geneve, GRE and ESP-NULL: one run by its inner addresses. */
static void
test_assert_inner_rtp (const CsChunk *chunk)
{
  guint found = 0;

  for (guint r = 0; r < chunk->n_rtp_runs; r++)
    {
      const CsChunkRtpRun *run = &chunk->rtp_runs[r];

      if (run->key.src.port == 7000 && run->key.dst.port == 7002 && run->key.ssrc == 0x7e57)
        {
          g_assert_cmpuint (run->pack.n_packets, ==, 3 * 5);
          found++;
        }
    }
  g_assert_cmpuint (found, ==, 1);
}

/* Every range of frames of every file holding frames of linktype decodes like the reference. */
static void
test_link_type (GPtrArray *frames, guint linktype, gboolean check_counts)
{
  g_autofree char *dir = g_dir_make_tmp ("cs-chunk-frames-XXXXXX", NULL);
  g_autofree char *le = test_write_pcap (dir, frames, linktype, FALSE, FALSE);
  g_autofree char *be = test_write_pcap (dir, frames, linktype, TRUE, TRUE);
  g_autofree char *ng = test_write_pcapng (dir, frames, linktype);
  const guint32 ranges[][2] = { { 0, G_MAXUINT32 }, { 5, 17 }, { 30, 1 }, { 60, G_MAXUINT32 } };

  for (guint r = 0; r < G_N_ELEMENTS (ranges); r++)
    {
      guint32 first = ranges[r][0], n = MIN (ranges[r][1], frames->len - first);
      CsCaptureSet *set_le, *set_be, *set_ng;
      CsChunk *ref = test_decode_layered (frames, linktype, first, n);
      CsChunk *a = test_decode (le, first, n, &set_le);
      CsChunk *b = test_decode (be, first, n, &set_be);
      CsChunk *c = test_decode (ng, first, n, &set_ng);

      if (r == 0 && check_counts)
        {
          /* the three plain streams, the bent one, the ones with other ports */
          g_assert_cmpuint (ref->rtp_packets, >=, 30);
          g_assert_cmpuint (ref->rtcp->len, ==, 3);
          /* one plain, one in GTP-U and one in Geneve per round */
          g_assert_cmpuint (ref->sip->len, ==, 9);
          test_assert_inner_rtp (ref);
          g_assert_cmpuint (ref->deferred->len, >=, 3);
          g_assert_cmpuint (ref->undecodable, >=, 3);
        }
      test_assert_same_chunks (a, ref);
      test_assert_same_chunks (b, ref);
      test_assert_same_chunks (c, ref);
      cs_chunk_free (ref);
      cs_chunk_free (a);
      cs_chunk_free (b);
      cs_chunk_free (c);
      cs_capture_set_free (set_le);
      cs_capture_set_free (set_be);
      cs_capture_set_free (set_ng);
    }
  remove_tmp_dir (dir);
}

static void
test_shortcuts_equal_layered_decode (void)
{
  g_autoptr (GPtrArray) frames = test_frames ();
  g_autoptr (GPtrArray) vlan = test_relink (frames, CS_LINKTYPE_ETHERNET, TRUE);
  g_autoptr (GPtrArray) sll = test_relink (frames, CS_LINKTYPE_LINUX_SLL, FALSE);
  g_autoptr (GPtrArray) sll2 = test_relink (frames, CS_LINKTYPE_LINUX_SLL2, FALSE);
  g_autoptr (GPtrArray) raw = test_relink (frames, CS_LINKTYPE_RAW, FALSE);

  test_link_type (frames, CS_LINKTYPE_ETHERNET, TRUE);
  test_link_type (vlan, CS_LINKTYPE_ETHERNET, TRUE);
  test_link_type (sll, CS_LINKTYPE_LINUX_SLL, TRUE);
  test_link_type (sll2, CS_LINKTYPE_LINUX_SLL2, TRUE);
  /* raw IP reads the ARP frame's bytes as IP too: no counts */
  test_link_type (raw, CS_LINKTYPE_RAW, FALSE);
  test_link_type (raw, CS_LINKTYPE_IPV4, FALSE);
  test_link_type (raw, CS_LINKTYPE_RAW_12, FALSE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/chunk-frames/shortcuts-equal-layered-decode",
                   test_shortcuts_equal_layered_decode);
  return g_test_run ();
}
