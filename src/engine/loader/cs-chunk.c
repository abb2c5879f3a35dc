/* cs-chunk.c — the map step: decode a range of frames into SIP messages and RTP runs */
#include "cs-chunk.h"

#include "cs-chunk-rtp-private.h"
#include "net/cs-decode-fast.h"
#include "net/cs-hep.h"

#include <unistd.h>

#define CS_HEP_PORT 9060
#define CS_CANCEL_CHECK_INTERVAL 4096

CsChunk *
cs_chunk_new (guint32 first_index, guint32 n_frames)
{
  CsChunk *chunk = g_new0 (CsChunk, 1);

  chunk->first_index = first_index;
  chunk->n_frames = n_frames;
  chunk->sip = g_ptr_array_new_with_free_func ((GDestroyNotify) cs_sip_message_unref);
  chunk->deferred = g_array_new (FALSE, FALSE, sizeof (CsDeferredFrame));
  chunk->rtcp = g_array_new (FALSE, FALSE, sizeof (CsRtcpRef));
  return chunk;
}

void
cs_chunk_free (CsChunk *chunk)
{
  if (chunk == NULL)
    return;
  g_ptr_array_unref (chunk->sip);
  g_array_unref (chunk->deferred);
  cs_chunk_drop_rtp_scratch (chunk);
  g_free (chunk->rtp_runs); /* and rtp_pack_bytes after them */
  g_array_unref (chunk->rtcp);
  g_free (chunk->frames);
  g_free (chunk);
}

void
cs_chunk_locate_frames (CsChunk *chunk, CsCaptureSet *set, gboolean pin)
{
  cs_capture_set_iter_init (set, chunk->first_index, &chunk->start);
  g_clear_pointer (&chunk->frames, g_free);
  if (pin)
    chunk->frames = cs_frame_iter_pin (&chunk->start, chunk->n_frames);
}

CsUdpPayloadKind
cs_udp_payload_classify (const guint8 *data, gsize len, guint16 sport, guint16 dport)
{
  /* SIP starts with a token character (ASCII): RTP's first byte (0x80…) is never one */
  if (len > 0 && data[0] < 0x80 && cs_sip_looks_like (data, len))
    return CS_UDP_PAYLOAD_SIP;
  if ((sport == CS_HEP_PORT || dport == CS_HEP_PORT || (len >= 4 && memcmp (data, "HEP3", 4) == 0))
      && cs_hep_looks_like (data, len))
    return CS_UDP_PAYLOAD_HEP;
  /* RTCP's first packet type is 200..207; RTP's second byte rarely is (marker + PT 72..79) */
  if (len >= 8 && data[1] >= 200 && data[1] <= 207 && cs_rtcp_looks_like (data, len))
    return CS_UDP_PAYLOAD_RTCP;
  if (len >= 12 && (data[0] >> 6) == 2)
    return CS_UDP_PAYLOAD_RTP;
  return CS_UDP_PAYLOAD_OTHER;
}

CsSipMessage *
cs_sip_message_from_payload (const guint8 *data, gsize len, const CsEndpoint *src,
                             const CsEndpoint *dst, CsSipTransport transport, guint32 frame,
                             gint64 ts_ns)
{
  return cs_sip_message_stamp (cs_sip_message_parse (data, len, NULL), src, dst, transport, frame,
                               ts_ns);
}

static void
cs_chunk_add_hep (CsChunk *chunk, const CsPacket *pkt, guint32 frame)
{
  CsHepPacket hep;
  CsSipMessage *msg;

  if (!cs_hep_decode (pkt->payload, pkt->payload_len, &hep, NULL) || hep.payload_type != 1)
    return;
  msg = cs_sip_message_from_payload (hep.payload, hep.payload_len, &hep.src, &hep.dst,
                                     CS_SIP_TRANSPORT_HEP, frame, hep.ts_ns);
  if (msg != NULL)
    g_ptr_array_add (chunk->sip, msg);
}

void
cs_chunk_add_udp (CsChunk *chunk, const CsPacket *pkt, guint32 frame, gint64 ts_ns)
{
  CsSipMessage *msg;
  CsRtcpRef rtcp;

  switch (cs_udp_payload_classify (pkt->payload, pkt->payload_len, pkt->src.port, pkt->dst.port))
    {
    case CS_UDP_PAYLOAD_SIP:
      /* a datagram read straight from the mapped file need not be copied */
      msg = chunk->mapped != NULL
                ? cs_sip_message_stamp (
                    cs_sip_message_parse_mapped_sip (chunk->mapped, chunk->sip_share, pkt->payload,
                                                     pkt->payload_len),
                    &pkt->src, &pkt->dst, CS_SIP_TRANSPORT_UDP, frame, ts_ns)
                : cs_sip_message_from_payload (pkt->payload, pkt->payload_len, &pkt->src, &pkt->dst,
                                               CS_SIP_TRANSPORT_UDP, frame, ts_ns);
      if (msg != NULL)
        g_ptr_array_add (chunk->sip, msg);
      break;
    case CS_UDP_PAYLOAD_HEP:
      cs_chunk_add_hep (chunk, pkt, frame);
      break;
    case CS_UDP_PAYLOAD_RTCP:
      rtcp.src = pkt->src;
      rtcp.dst = pkt->dst;
      rtcp.frame = frame;
      g_array_append_val (chunk->rtcp, rtcp);
      break;
    case CS_UDP_PAYLOAD_RTP:
      cs_chunk_add_rtp (chunk, pkt, frame, ts_ns);
      break;
    case CS_UDP_PAYLOAD_OTHER:
      break;
    }
}

/* What cs_udp_payload_classify calls RTP, decided from two bytes and the ports: a first
 * byte of 0x80 is neither a SIP token character nor "HEP3", and a second byte outside
 * 200..207 is no RTCP packet type. */
static inline gboolean
cs_chunk_is_plain_rtp (const CsPacket *pkt)
{
  return pkt->payload_len >= 12 && pkt->payload[0] == 0x80
         && (pkt->payload[1] < 200 || pkt->payload[1] > 207) && pkt->src.port != CS_HEP_PORT
         && pkt->dst.port != CS_HEP_PORT;
}

/* cs_chunk_add_udp for the UDP datagram (len bytes) of the IPv4 header at ip (ip_offset
 * into its frame), with the packet the layered decoder would make of it. */
static G_GNUC_NO_INLINE void
cs_chunk_add_ipv4_udp (CsChunk *chunk, const guint8 *ip, guint32 ip_offset, guint32 len,
                       guint32 frame, gint64 ts_ns)
{
  CsPacket pkt;

  memset (&pkt, 0, sizeof pkt);
  cs_decode_ipv4_udp_packet (ip, ip_offset, len, &pkt);
  cs_chunk_add_udp (chunk, &pkt, frame, ts_ns);
}

/* The usual RTP packet of a VoIP capture, decided and recorded from the 40 bytes from its IP
 * header on (caplen of them captured, checked once unless the caller did): IPv4 without
 * options or fragments, UDP, then an RTP header of version 2 without padding, extension or
 * CSRC, no RTCP packet type and neither port HEP's (RTP on a tunnel port too: no tunnel header
 * starts with 0x80). The layered decoder (cs_decode_frame, or
 * its shortcut cs_decode_frame_fast), cs_udp_payload_classify and cs_chunk_add_rtp
 * take that packet the same way, to the same record and key. Another datagram of such an
 * IPv4 header goes to cs_chunk_add_udp as the layered decoder would give it, unless a port is
 * a tunnel's (cs_decode_udp_port_is_tunnel); FALSE (nothing
 * added) for any other frame, which then takes the general path. */
static inline __attribute__ ((always_inline)) gboolean
cs_chunk_append_ipv4_rtp (CsChunk *chunk, const guint8 *data, guint32 caplen, guint32 ip_offset,
                          guint32 frame, gint64 ts_ns, gboolean checked)
{
  enum
  {
    IP = 0,
    UDP = IP + 20,
    RTP = UDP + 8,
    END = RTP + 12
  };
  CsChunkRtpScratch *scratch;
  CsChunkRtpRunPlace *place;
  CsRtpPacket rec;
  guint32 len, payload_len, hash, slot;
  guint64 words[2];

  /* IPv4 with a 20-byte header (known when checked, and 40 bytes captured), no fragment, UDP
   * with room for an RTP header */
  if (!checked && caplen < END)
    return FALSE;
  if (!cs_decode_ipv4_udp_at (data, caplen, checked, 12, &len))
    return FALSE;
  scratch = chunk->rtp_scratch;
  if (data[RTP] != 0x80 || (guint8) (data[RTP + 1] - 200) < 8
      || cs_decode_u16be (data + UDP) == CS_HEP_PORT
      || cs_decode_u16be (data + UDP + 2) == CS_HEP_PORT)
    {
      /* a tunnel (GTP-U, VXLAN, Geneve) is the layered decoder's to peel */
      if (cs_decode_udp_port_is_tunnel (cs_decode_u16be (data + UDP))
          || cs_decode_udp_port_is_tunnel (cs_decode_u16be (data + UDP + 2)))
        return FALSE;
      /* a datagram the layered decoder would hand to cs_chunk_add_udp as it is */
      cs_chunk_add_ipv4_udp (chunk, data, ip_offset, len, frame, ts_ns);
      return TRUE;
    }
  if (G_UNLIKELY (scratch == NULL))
    {
      if (chunk->rtp_grouped)
        return FALSE;
      scratch = chunk->rtp_scratch = cs_chunk_rtp_scratch_take ();
    }
  payload_len = MIN (len - 12, G_MAXUINT16);
  rec.arrival_ns = ts_ns;
  rec.frame = frame;
  rec.timestamp = GUINT32_FROM_BE (cs_decode_load32 (data + RTP + 4));
  rec.seq = cs_decode_u16be (data + RTP + 2);
  rec.payload_len = (guint16) payload_len;
  rec.payload_type = data[RTP + 1] & 0x7f;
  rec.flags = data[RTP + 1] >> 7; /* CS_RTP_FLAG_MARKER */
  rec.reserved = 0;
  words[0]
      = cs_chunk_rtp_word (cs_decode_load32 (data + IP + 12), cs_decode_load32 (data + IP + 16));
  words[1] = cs_chunk_rtp_word (cs_decode_load32 (data + UDP), cs_decode_load32 (data + RTP + 8));
  hash = cs_chunk_rtp_hash (NULL, NULL, words, TRUE);
  place = cs_chunk_find_rtp_run (chunk, scratch, words, hash, NULL, NULL, 0, &slot);
  if (G_UNLIKELY (place == NULL))
    {
      /* an IPv4 key: its words are enough */
      cs_chunk_new_rtp_run (chunk, scratch, slot, NULL, words, hash, &rec);
      return TRUE;
    }
  cs_chunk_rtp_pack_record (scratch, place, &rec);
  chunk->rtp_packets++;
  return TRUE;
}

/* cs_chunk_append_ipv4_rtp for a frame of linktype. */
static inline __attribute__ ((always_inline)) gboolean
cs_chunk_append_frame_rtp (CsChunk *chunk, guint linktype, const guint8 *data, guint32 caplen,
                           guint32 frame, gint64 ts_ns)
{
  guint32 ip;

  /* the usual frame first: EtherType 0x0800 and version 4 with a 20-byte header */
  if (G_LIKELY (linktype == CS_LINKTYPE_ETHERNET && caplen >= 14 + 40
                && (GUINT32_FROM_LE (cs_decode_load32 (data + 12)) & 0xffffffu) == 0x450008u))
    return cs_chunk_append_ipv4_rtp (chunk, data + 14, caplen - 14, 14, frame, ts_ns, TRUE);
  ip = cs_decode_plain_ipv4_offset (linktype, data, caplen);
  return ip != G_MAXUINT32
         && cs_chunk_append_ipv4_rtp (chunk, data + ip, caplen - ip, ip, frame, ts_ns, FALSE);
}

/* One frame the usual RTP path did not take. */
static G_GNUC_NO_INLINE void
cs_chunk_decode_frame (CsChunk *chunk, const CsFrame *frame, const guint8 *data, guint32 number)
{
  CsPacket pkt;
  CsDecodeStatus status;

  if (cs_decode_frame_fast (frame->linktype, data, frame->caplen, &pkt))
    {
      /* the common case without the general decoder's zeroing and dispatch */
      if (cs_chunk_is_plain_rtp (&pkt))
        cs_chunk_add_rtp (chunk, &pkt, number, frame->ts_ns);
      else
        cs_chunk_add_udp (chunk, &pkt, number, frame->ts_ns);
      return;
    }
  status = cs_decode_frame (frame->linktype, data, frame->caplen, &pkt);
  if (status == CS_DECODE_FRAGMENT || (status == CS_DECODE_OK && pkt.ip_proto == CS_IP_PROTO_TCP))
    {
      CsDeferredFrame deferred = { *frame, number };

      g_array_append_val (chunk->deferred, deferred);
    }
  else if (status == CS_DECODE_OK && pkt.ip_proto == CS_IP_PROTO_UDP)
    cs_chunk_add_udp (chunk, &pkt, number, frame->ts_ns);
  else if (status == CS_DECODE_MALFORMED)
    chunk->undecodable++;
  else if (status == CS_DECODE_ENCRYPTED)
    chunk->encrypted++;
}

/* Pages of a single mapped file are dropped behind the decode walk this often (about
 * half a MiB of a VoIP capture's frames; counted in frames, the test is one bit mask). */
#define CS_CHUNK_RELEASE_EVERY_FRAMES 2048
G_STATIC_ASSERT (CS_CANCEL_CHECK_INTERVAL % CS_CHUNK_RELEASE_EVERY_FRAMES == 0);

/* Where the pages behind a chunk's decode walk are released from. */
typedef struct
{
  CsCapture *file; /* NULL: nothing to release (not one mapped file) */
  guint64 first_offset;
  guint64 page_mask;
} CsChunkRelease;

/* Called every CS_CHUNK_RELEASE_EVERY_FRAMES frames with the frame's offset. */
static void
cs_chunk_release_step (CsChunkRelease *release, guint32 i, guint64 offset)
{
  if (i == 0)
    release->first_offset = offset;
  else if (release->file != NULL)
    {
      /* a chunk is megabytes of file: its pages go as the walk leaves them (from
       * first_offset on, the page under this frame included, they are still held) */
      cs_capture_release_range (release->file, release->first_offset, offset);
      release->first_offset = offset & release->page_mask;
    }
}

/* The frames of a chunk of a single classic pcap file without a filter, read from its
 * records without the frame iterator's copies; big_endian and nanoseconds are constants in
 * each copy of it. FALSE if cancelled. */
static inline __attribute__ ((always_inline)) gboolean
cs_chunk_decode_pcap (CsChunk *chunk, const CsFrameIter *iter, CsChunkRelease *release,
                      GCancellable *cancellable, guint64 *end_offset, gboolean big_endian,
                      gboolean nanoseconds)
{
  const guint8 *base = iter->records.data;
  guint64 size = iter->records.size, offset = iter->position.offset, bytes = 0;
  guint64 last_header = size >= 16 ? size - 16 : 0;
  guint32 n_frames = size >= 16 ? chunk->n_frames : 0; /* no header fits otherwise */
  guint32 max_caplen = iter->records.max_caplen;
  guint linktype = iter->records.linktype;
  guint32 i;

#define CS_CHUNK_PCAP_U32(p)                                                                       \
  (big_endian ? GUINT32_FROM_BE (cs_decode_load32 (p)) : GUINT32_FROM_LE (cs_decode_load32 (p)))
  for (i = 0; i < n_frames; i++)
    {
      guint32 index = chunk->first_index + i, caplen, frac;
      const guint8 *header = base + offset, *data;
      gint64 ts_ns;

      if (G_UNLIKELY (i % CS_CHUNK_RELEASE_EVERY_FRAMES == 0))
        {
          if (i % CS_CANCEL_CHECK_INTERVAL == 0 && g_cancellable_is_cancelled (cancellable))
            {
              chunk->bytes += bytes;
              return FALSE;
            }
          if (offset <= last_header && CS_CHUNK_PCAP_U32 (header + 8) <= max_caplen
              && CS_CHUNK_PCAP_U32 (header + 8) <= last_header - offset)
            cs_chunk_release_step (release, i, offset + 16);
        }
      /* as cs_pcap_records_read (last_header: where the last whole header may start) */
      if (offset > last_header)
        break;
      caplen = CS_CHUNK_PCAP_U32 (header + 8);
      if (caplen > max_caplen || caplen > last_header - offset)
        break;
      data = header + 16;
      __builtin_prefetch (data + 2048); /* frames are reads of a cold mapping */
      frac = CS_CHUNK_PCAP_U32 (header + 4);
      ts_ns = (gint64) ((guint64) CS_CHUNK_PCAP_U32 (header) * G_GUINT64_CONSTANT (1000000000)
                        + (nanoseconds ? frac : (guint64) frac * 1000u));
      offset += 16 + (guint64) caplen;
      bytes += caplen;
      if (cs_chunk_append_frame_rtp (chunk, linktype, data, caplen, index + 1, ts_ns))
        continue;
      {
        CsFrame frame = { .offset = (guint64) (data - base),
                          .ts_ns = ts_ns,
                          .caplen = caplen,
                          .origlen = CS_CHUNK_PCAP_U32 (header + 12),
                          .linktype = iter->records.linktype };

        cs_chunk_decode_frame (chunk, &frame, data, index + 1);
      }
    }
#undef CS_CHUNK_PCAP_U32
  chunk->bytes += bytes;
  if (i > 0)
    *end_offset = offset; /* the end of the last frame read */
  return TRUE;
}

/* The frames of any other set, through the frame iterator. FALSE if cancelled. */
static gboolean
cs_chunk_decode_listed (CsChunk *chunk, CsFrameIter *iter, CsChunkRelease *release,
                        GCancellable *cancellable, guint64 *end_offset)
{
  for (guint32 i = 0; i < chunk->n_frames; i++)
    {
      CsFrame frame;
      const guint8 *data;

      if (i % CS_CANCEL_CHECK_INTERVAL == 0 && g_cancellable_is_cancelled (cancellable))
        return FALSE;
      if (!cs_frame_iter_next (iter, &frame, &data))
        break;
      if (data != NULL)
        __builtin_prefetch (data + 2048);
      if (G_UNLIKELY (i % CS_CHUNK_RELEASE_EVERY_FRAMES == 0))
        cs_chunk_release_step (release, i, frame.offset);
      *end_offset = frame.offset + frame.caplen;
      chunk->bytes += frame.caplen;
      if (frame.flags & CS_FRAME_FILTERED_OUT)
        continue;
      if (data != NULL
          && cs_chunk_append_frame_rtp (chunk, frame.linktype, data, frame.caplen,
                                        chunk->first_index + i + 1, frame.ts_ns))
        continue;
      cs_chunk_decode_frame (chunk, &frame, data, chunk->first_index + i + 1);
    }
  return TRUE;
}

void
cs_chunk_decode (CsChunk *chunk, CsCaptureSet *set, CsSipShare *sip_share,
                 GCancellable *cancellable)
{
  CsFrameIter iter = chunk->start;
  CsChunkRelease release = { NULL, 0, ~((guint64) sysconf (_SC_PAGESIZE) - 1) };
  guint64 end_offset = 0;
  gboolean done;

  if (cs_capture_set_get_n_files (set) == 1)
    {
      CsCapture *file = cs_capture_set_get_file (set, 0);
      chunk->mapped = cs_capture_get_mapped_bytes (file);
      chunk->sip_share = sip_share;
      if (chunk->mapped != NULL)
        release.file = file;
    }
  if (iter.records.data == NULL || iter.filtered != NULL)
    done = cs_chunk_decode_listed (chunk, &iter, &release, cancellable, &end_offset);
  else if (!iter.records.big_endian)
    done = iter.records.nanoseconds ? cs_chunk_decode_pcap (chunk, &iter, &release, cancellable,
                                                            &end_offset, FALSE, TRUE)
                                    : cs_chunk_decode_pcap (chunk, &iter, &release, cancellable,
                                                            &end_offset, FALSE, FALSE);
  else
    done = iter.records.nanoseconds
               ? cs_chunk_decode_pcap (chunk, &iter, &release, cancellable, &end_offset, TRUE, TRUE)
               : cs_chunk_decode_pcap (chunk, &iter, &release, cancellable, &end_offset, TRUE,
                                       FALSE);
  chunk->mapped = NULL;
  chunk->sip_share = NULL;
  if (!done)
    return;
  /* Drop the chunk's pages now rather than after its merge: workers may run ahead of
   * the merge, and the few frames the merge reads again fault back from the page cache. */
  if (chunk->n_frames > 0 && cs_capture_set_get_n_files (set) == 1)
    cs_capture_release_range (cs_capture_set_get_file (set, 0), release.first_offset, end_offset);
  /* packed here on the worker, so the merge only copies */
  cs_chunk_group_rtp (chunk);
}
