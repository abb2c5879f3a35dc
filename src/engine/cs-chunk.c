/* cs-chunk.c — the map step: decode a range of frames into SIP messages and RTP runs */
#include "cs-chunk.h"

#include "cs-decode.h"
#include "cs-hep.h"

#include <unistd.h>

#define CS_HEP_PORT 9060
#define CS_CANCEL_CHECK_INTERVAL 4096

gboolean
cs_rtp_stream_key_equal (gconstpointer a, gconstpointer b)
{
  const CsRtpStreamKey *x = a, *y = b;

  return x->ssrc == y->ssrc && cs_endpoint_equal (&x->src, &y->src)
         && cs_endpoint_equal (&x->dst, &y->dst);
}

static void cs_chunk_drop_rtp_scratch (CsChunk *chunk);

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
  g_free (chunk->rtp_runs);
  g_free (chunk->rtp_pack_bytes);
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

static CsSipMessage *cs_sip_message_stamp (CsSipMessage *msg, const CsEndpoint *src,
                                           const CsEndpoint *dst, CsSipTransport transport,
                                           guint32 frame, gint64 ts_ns);

CsSipMessage *
cs_sip_message_from_payload (const guint8 *data, gsize len, const CsEndpoint *src,
                             const CsEndpoint *dst, CsSipTransport transport, guint32 frame,
                             gint64 ts_ns)
{
  return cs_sip_message_stamp (cs_sip_message_parse (data, len, NULL), src, dst, transport, frame,
                               ts_ns);
}

static CsSipMessage *
cs_sip_message_stamp (CsSipMessage *msg, const CsEndpoint *src, const CsEndpoint *dst,
                      CsSipTransport transport, guint32 frame, gint64 ts_ns)
{
  if (msg == NULL)
    return NULL;
  msg->frame = frame;
  msg->first_frame = frame;
  msg->ts_ns = ts_ns;
  msg->src = *src;
  msg->dst = *dst;
  msg->transport = transport;
  return msg;
}

/* A slot of the run table: the key's hash in the high half, the index of its run + 1 in
 * the low one (0 = free). Eight bytes, so the table of a chunk with tens of thousands of
 * live streams stays small enough for the caches (it is read at random, once a packet). */
typedef guint64 CsChunkRtpSlot;

#define CS_CHUNK_RTP_MIN_SLOTS 1024u

/* A run while the chunk is filled, in the order of its first packet. */
typedef struct
{
  guint64 words[2]; /* the key packed (exact for IPv4: addresses, then ports and SSRC) */
  guint32 hash;     /* top bit set: both ends IPv4, so the words alone identify the key */
  guint32 slot;     /* in the table */
  guint32 first;    /* index of its first record; its pack's offset once packed */
  guint32 last;     /* index of its last record */
  guint32 n_packets;
  guint32 unused;
} CsChunkRtpRunPlace;

/* A thread's tables for building runs, kept between its chunks: a chunk borrows them while
 * it is filled, so thousands of interleaved streams cost no allocation, zeroing or page
 * faults per chunk. The slots are left free again when the chunk is grouped. */
struct _CsChunkRtpScratch
{
  CsChunkRtpSlot *slots;      /* at most half full */
  guint32 slot_mask;          /* slots - 1 (a power of two) */
  CsChunkRtpRunPlace *places; /* of each run of the chunk */
  guint32 places_capacity;
  CsRtpPacket *records; /* capture order */
  guint32 *next_record; /* index of the next record of the same run */
  guint32 n_records;
  guint32 records_capacity;
  guint8 *packed; /* the chunk's packs while they are made */
  gsize packed_capacity;
};

static void
cs_chunk_rtp_scratch_free (gpointer data)
{
  CsChunkRtpScratch *scratch = data;

  g_free (scratch->slots);
  g_free (scratch->places);
  g_free (scratch->records);
  g_free (scratch->next_record);
  g_free (scratch->packed);
  g_free (scratch);
}

/* The calling thread's spare scratch (freed when the thread ends). */
static GPrivate cs_chunk_rtp_scratch_key = G_PRIVATE_INIT (cs_chunk_rtp_scratch_free);

static CsChunkRtpScratch *
cs_chunk_rtp_scratch_take (void)
{
  CsChunkRtpScratch *scratch = g_private_get (&cs_chunk_rtp_scratch_key);

  if (scratch != NULL)
    {
      g_private_set (&cs_chunk_rtp_scratch_key, NULL);
      return scratch;
    }
  scratch = g_new0 (CsChunkRtpScratch, 1);
  scratch->slots = g_new0 (CsChunkRtpSlot, CS_CHUNK_RTP_MIN_SLOTS);
  scratch->slot_mask = CS_CHUNK_RTP_MIN_SLOTS - 1;
  return scratch;
}

/* Gives scratch (all slots free) back to the calling thread. */
static void
cs_chunk_rtp_scratch_give_back (CsChunkRtpScratch *scratch)
{
  scratch->n_records = 0;
  if (g_private_get (&cs_chunk_rtp_scratch_key) == NULL)
    g_private_set (&cs_chunk_rtp_scratch_key, scratch);
  else
    cs_chunk_rtp_scratch_free (scratch);
}

/* Gives the scratch of a chunk that was never grouped back (a cancelled decode). */
static void
cs_chunk_drop_rtp_scratch (CsChunk *chunk)
{
  CsChunkRtpScratch *scratch = chunk->rtp_scratch;

  if (scratch == NULL)
    return;
  for (guint32 r = 0; r < chunk->n_rtp_runs; r++)
    scratch->slots[scratch->places[r].slot] = 0;
  cs_chunk_rtp_scratch_give_back (scratch);
  chunk->rtp_scratch = NULL;
}

static inline gboolean
cs_rtp_stream_key_same (const CsRtpStreamKey *x, const CsEndpoint *src, const CsEndpoint *dst,
                        guint32 ssrc)
{
  return x->ssrc == ssrc && x->src.port == src->port && x->dst.port == dst->port
         && memcmp (&x->src.addr, &src->addr, sizeof x->src.addr) == 0
         && memcmp (&x->dst.addr, &dst->addr, sizeof x->dst.addr) == 0;
}

/* The run table's keys in two words when both ends are IPv4 (addresses, then ports and
 * SSRC): compared and hashed with a few instructions, once per packet. */
static inline void
cs_chunk_rtp_words (const CsEndpoint *src, const CsEndpoint *dst, guint32 ssrc, guint64 words[2])
{
  guint32 s, d;

  memcpy (&s, src->addr.bytes, sizeof s);
  memcpy (&d, dst->addr.bytes, sizeof d);
  words[0] = ((guint64) s << 32) | d;
  words[1] = ((guint64) src->port << 48) | ((guint64) dst->port << 32) | ssrc;
}

/* The run table's own hash: the two words, and for IPv6 the other address words. The top
 * bit (never part of a slot index) tells IPv4 keys, so for them equal hashes and words are
 * equal keys. */
static inline guint32
cs_chunk_rtp_hash (const CsEndpoint *src, const CsEndpoint *dst, const guint64 words[2],
                   gboolean v4)
{
  guint64 h = words[0] * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)
              ^ words[1] * G_GUINT64_CONSTANT (0xc2b2ae3d27d4eb4f);

  if (G_UNLIKELY (!v4))
    {
      guint32 s[4], d[4];

      memcpy (s, src->addr.bytes, sizeof s);
      memcpy (d, dst->addr.bytes, sizeof d);
      for (guint i = 1; i < 4; i++)
        h = (h ^ (((guint64) s[i] << 32) | d[i])) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
      h ^= ((guint64) src->addr.family << 8) | dst->addr.family;
    }
  return ((guint32) (h ^ (h >> 29)) & 0x7fffffffu) | (v4 ? 0x80000000u : 0u);
}

/* Doubles the slot table and moves the chunk's runs over. */
static void
cs_chunk_grow_rtp_slots (CsChunk *chunk, CsChunkRtpScratch *scratch)
{
  guint32 n_slots = 2 * (scratch->slot_mask + 1);

  g_free (scratch->slots);
  scratch->slots = g_new0 (CsChunkRtpSlot, n_slots);
  scratch->slot_mask = n_slots - 1;
  for (guint32 r = 0; r < chunk->n_rtp_runs; r++)
    {
      CsChunkRtpRunPlace *place = &scratch->places[r];
      guint32 slot;

      for (slot = place->hash & scratch->slot_mask; scratch->slots[slot] != 0;
           slot = (slot + 1) & scratch->slot_mask)
        ;
      scratch->slots[slot] = ((guint64) place->hash << 32) | (r + 1);
      place->slot = slot;
    }
}

/* A new run for the key, whose first record is record, at the end of the order, in the
 * free slot at index slot. */
static G_GNUC_NO_INLINE void
cs_chunk_new_rtp_run (CsChunk *chunk, CsChunkRtpScratch *scratch, guint32 slot,
                      const CsEndpoint *src, const CsEndpoint *dst, guint32 ssrc,
                      const guint64 words[2], guint32 hash, guint32 record)
{
  guint32 run = chunk->n_rtp_runs;
  CsChunkRtpRunPlace *place;

  if (run == chunk->rtp_runs_capacity)
    {
      chunk->rtp_runs_capacity = MAX (16u, 2 * chunk->rtp_runs_capacity);
      chunk->rtp_runs = g_renew (CsChunkRtpRun, chunk->rtp_runs, chunk->rtp_runs_capacity);
    }
  if (run == scratch->places_capacity)
    {
      scratch->places_capacity = MAX (256u, 2 * scratch->places_capacity);
      scratch->places = g_renew (CsChunkRtpRunPlace, scratch->places, scratch->places_capacity);
    }
  chunk->rtp_runs[run].key.src = *src;
  chunk->rtp_runs[run].key.dst = *dst;
  chunk->rtp_runs[run].key.ssrc = ssrc;
  place = &scratch->places[run];
  place->words[0] = words[0];
  place->words[1] = words[1];
  place->hash = hash;
  place->slot = slot;
  place->first = record;
  place->last = record;
  place->n_packets = 1;
  scratch->slots[slot] = ((guint64) hash << 32) | (run + 1);
  chunk->n_rtp_runs++;
  if (2 * chunk->n_rtp_runs > scratch->slot_mask)
    cs_chunk_grow_rtp_slots (chunk, scratch);
}

/* Links record (the newest) to the chunk's run for the key, made when new. */
static inline void
cs_chunk_link_rtp_record (CsChunk *chunk, CsChunkRtpScratch *scratch, const CsEndpoint *src,
                          const CsEndpoint *dst, guint32 ssrc, guint32 record)
{
  guint64 words[2];
  gboolean v4 = src->addr.family == 4 && dst->addr.family == 4;
  guint32 hash, slot;
  CsChunkRtpSlot entry;

  cs_chunk_rtp_words (src, dst, ssrc, words);
  hash = cs_chunk_rtp_hash (src, dst, words, v4);
  for (slot = hash & scratch->slot_mask; (entry = scratch->slots[slot]) != 0;
       slot = (slot + 1) & scratch->slot_mask)
    {
      CsChunkRtpRunPlace *place;
      guint32 run = (guint32) entry - 1;

      if ((guint32) (entry >> 32) != hash)
        continue;
      place = &scratch->places[run];
      if (place->words[0] == words[0] && place->words[1] == words[1]
          && (v4 || cs_rtp_stream_key_same (&chunk->rtp_runs[run].key, src, dst, ssrc)))
        {
          scratch->next_record[place->last] = record;
          place->last = record;
          place->n_packets++;
          return;
        }
    }
  cs_chunk_new_rtp_run (chunk, scratch, slot, src, dst, ssrc, words, hash, record);
}

/* Room for one more record: as many as the chunk has frames at once, then doubling. */
static G_GNUC_NO_INLINE void
cs_chunk_reserve_rtp_record (CsChunk *chunk, CsChunkRtpScratch *scratch)
{
  gsize want
      = MAX ((gsize) chunk->n_frames, MAX ((gsize) 64, 2 * (gsize) scratch->records_capacity));

  want = MIN (want, (gsize) G_MAXUINT32);
  g_assert (want > scratch->records_capacity);
  scratch->records = g_renew (CsRtpPacket, scratch->records, want);
  scratch->next_record = g_renew (guint32, scratch->next_record, want);
  scratch->records_capacity = (guint32) want;
}

/* The record of an RTP packet; FALSE if the payload is not RTP. The usual header (version 2,
 * no padding, extension or CSRC) is read in place; the rest goes through cs_rtp_parse_header,
 * which gives the same record. */
static inline gboolean
cs_chunk_rtp_record (const guint8 *data, gsize len, gint64 ts_ns, guint32 frame, CsRtpPacket *rec,
                     guint32 *ssrc)
{
  CsRtpHeader hdr;

  if (G_LIKELY (data != NULL && len >= 12 && data[0] == 0x80))
    {
      guint32 word;
      guint16 half;

      rec->arrival_ns = ts_ns;
      rec->frame = frame;
      memcpy (&word, data + 4, sizeof word);
      rec->timestamp = GUINT32_FROM_BE (word);
      memcpy (&half, data + 2, sizeof half);
      rec->seq = GUINT16_FROM_BE (half);
      rec->payload_len = (guint16) MIN (len - 12, G_MAXUINT16);
      rec->payload_type = data[1] & 0x7f;
      rec->flags = (data[1] & 0x80) != 0 ? CS_RTP_FLAG_MARKER : 0;
      rec->reserved = 0;
      memcpy (&word, data + 8, sizeof word);
      *ssrc = GUINT32_FROM_BE (word);
      return TRUE;
    }
  if (!cs_rtp_parse_header (data, len, &hdr))
    return FALSE;
  cs_rtp_packet_from_header (&hdr, ts_ns, frame, rec);
  *ssrc = hdr.ssrc;
  return TRUE;
}

/* cs_chunk_add_rtp, inline in the decode loop */
static inline __attribute__ ((always_inline)) void
cs_chunk_append_rtp (CsChunk *chunk, const CsPacket *pkt, guint32 frame, gint64 ts_ns)
{
  CsChunkRtpScratch *scratch = chunk->rtp_scratch;
  guint32 ssrc, n;

  if (G_UNLIKELY (scratch == NULL))
    {
      g_return_if_fail (!chunk->rtp_grouped);
      scratch = chunk->rtp_scratch = cs_chunk_rtp_scratch_take ();
    }
  n = scratch->n_records;
  if (G_UNLIKELY (n == scratch->records_capacity))
    cs_chunk_reserve_rtp_record (chunk, scratch);
  /* written in place; kept only if the payload is RTP */
  if (!cs_chunk_rtp_record (pkt->payload, pkt->payload_len, ts_ns, frame, &scratch->records[n],
                            &ssrc))
    return;
  cs_chunk_link_rtp_record (chunk, scratch, &pkt->src, &pkt->dst, ssrc, n);
  scratch->n_records = n + 1;
  chunk->rtp_packets++;
}

void
cs_chunk_add_rtp (CsChunk *chunk, const CsPacket *pkt, guint32 frame, gint64 ts_ns)
{
  cs_chunk_append_rtp (chunk, pkt, frame, ts_ns);
}

void
cs_chunk_group_rtp (CsChunk *chunk)
{
  CsChunkRtpScratch *scratch = chunk->rtp_scratch;
  guint8 *out;
  gsize want, used;

  chunk->rtp_grouped = TRUE;
  if (scratch == NULL)
    return;
  chunk->rtp_scratch = NULL;
  if (scratch->n_records == 0) /* only payloads that were not RTP */
    {
      cs_chunk_rtp_scratch_give_back (scratch);
      return;
    }
  /* the encoder stores whole 8-byte words: room for the last record's */
  want = (gsize) scratch->n_records * CS_RTP_PACK_MAX_RECORD + CS_RTP_PACK_SLACK;
  if (want > scratch->packed_capacity)
    {
      g_free (scratch->packed);
      scratch->packed = g_malloc (want);
      scratch->packed_capacity = want;
    }
  /* every run packed from nothing, as a pack of its own would be, one after the other */
  out = scratch->packed;
  for (guint32 r = 0; r < chunk->n_rtp_runs; r++)
    {
      CsChunkRtpRunPlace *place = &scratch->places[r];
      CsRtpPack *pack = &chunk->rtp_runs[r].pack;
      guint32 record = place->first;
      guint8 *start = out;

      memset (pack, 0, sizeof *pack);
      for (guint32 k = 0;;)
        {
          out = cs_rtp_pack_encode_one (out, &pack->tail, &scratch->records[record]);
          if (++k == place->n_packets)
            break;
          record = scratch->next_record[record];
        }
      pack->n_packets = place->n_packets;
      pack->n_bytes = pack->capacity = (gsize) (out - start);
      place->first = (guint32) (start - scratch->packed);
      scratch->slots[place->slot] = 0;
    }
  /* a few bytes a record: the chunk keeps just those (the scratch's block is its worst case) */
  used = (gsize) (out - scratch->packed);
  chunk->rtp_pack_bytes = g_malloc (used + CS_RTP_PACK_SLACK);
  memcpy (chunk->rtp_pack_bytes, scratch->packed, used);
  memset (chunk->rtp_pack_bytes + used, 0, CS_RTP_PACK_SLACK);
  for (guint32 r = 0; r < chunk->n_rtp_runs; r++)
    chunk->rtp_runs[r].pack.data = chunk->rtp_pack_bytes + scratch->places[r].first;
  cs_chunk_rtp_scratch_give_back (scratch);
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
                ? cs_sip_message_stamp (cs_sip_message_parse_mapped (chunk->mapped,
                                                                     chunk->sip_share, pkt->payload,
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

/* Pages of a single mapped file are dropped behind the decode walk this often (about
 * half a MiB of a VoIP capture's frames; counted in frames, the test is one bit mask). */
#define CS_CHUNK_RELEASE_EVERY_FRAMES 2048

void
cs_chunk_decode (CsChunk *chunk, CsCaptureSet *set, GCancellable *cancellable)
{
  CsFrameIter iter = chunk->start;
  guint64 first_offset = 0, end_offset = 0;

  if (cs_capture_set_get_n_files (set) == 1)
    {
      CsCapture *file = cs_capture_set_get_file (set, 0);
      chunk->mapped = cs_capture_get_mapped_bytes (file);
      chunk->sip_share = cs_capture_get_sip_share (file);
    }
  for (guint32 i = 0; i < chunk->n_frames; i++)
    {
      guint32 number = chunk->first_index + i + 1;
      CsFrame frame;
      const guint8 *data;
      CsPacket pkt;
      CsDecodeStatus status;

      if (i % CS_CANCEL_CHECK_INTERVAL == 0 && g_cancellable_is_cancelled (cancellable))
        {
          chunk->mapped = NULL;
          chunk->sip_share = NULL;
          return;
        }
      if (!cs_frame_iter_next (&iter, &frame, &data))
        break;
      /* frames are reads of a cold mapping: fetch ahead */
      if (data != NULL)
        __builtin_prefetch (data + 2048);
      if (G_UNLIKELY (i % CS_CHUNK_RELEASE_EVERY_FRAMES == 0))
        {
          if (i == 0)
            first_offset = frame.offset;
          else if (chunk->mapped != NULL)
            {
              /* a chunk is megabytes of file: its pages go as the walk leaves them (from
               * first_offset on, the page under this frame included, they are still held) */
              cs_capture_release_range (cs_capture_set_get_file (set, 0), first_offset,
                                        frame.offset);
              first_offset = frame.offset & ~((guint64) sysconf (_SC_PAGESIZE) - 1);
            }
        }
      end_offset = frame.offset + frame.caplen;
      chunk->bytes += frame.caplen;
      if (frame.flags & CS_FRAME_FILTERED_OUT)
        continue;
      if (frame.linktype == CS_LINKTYPE_ETHERNET
          && cs_decode_ethernet_ipv4_udp (data, frame.caplen, &pkt))
        {
          /* the common case without the general decoder's zeroing and dispatch */
          if (cs_chunk_is_plain_rtp (&pkt))
            cs_chunk_append_rtp (chunk, &pkt, number, frame.ts_ns);
          else
            cs_chunk_add_udp (chunk, &pkt, number, frame.ts_ns);
          continue;
        }
      status = cs_decode_frame (frame.linktype, data, frame.caplen, &pkt);
      if (status == CS_DECODE_FRAGMENT
          || (status == CS_DECODE_OK && pkt.ip_proto == CS_IP_PROTO_TCP))
        {
          CsDeferredFrame deferred = { frame, number };

          g_array_append_val (chunk->deferred, deferred);
        }
      else if (status == CS_DECODE_OK && pkt.ip_proto == CS_IP_PROTO_UDP)
        cs_chunk_add_udp (chunk, &pkt, number, frame.ts_ns);
      else if (status == CS_DECODE_MALFORMED)
        chunk->undecodable++;
    }
  chunk->mapped = NULL;
  chunk->sip_share = NULL;
  /* Drop the chunk's pages now rather than after its merge: workers may run ahead of
   * the merge, and the few frames the merge reads again fault back from the page cache. */
  if (chunk->n_frames > 0 && cs_capture_set_get_n_files (set) == 1)
    cs_capture_release_range (cs_capture_set_get_file (set, 0), first_offset, end_offset);
  /* packed here on the worker, so the merge only copies */
  cs_chunk_group_rtp (chunk);
}
