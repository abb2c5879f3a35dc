/* cs-chunk.c — the map step: decode a range of frames into SIP messages and RTP runs */
#include "cs-chunk.h"

#include "cs-decode.h"
#include "cs-hep.h"

#define CS_HEP_PORT 9060
#define CS_CANCEL_CHECK_INTERVAL 4096

/* Word-wise rather than cs_endpoint_hash's byte loop: this runs once per RTP packet.
 * Fields only (never padding), so equal keys hash alike. */
static inline guint32
cs_hash_mix (guint32 h, guint32 value)
{
  h = (h ^ value) * 0x9e3779b1u;
  return h ^ (h >> 15);
}

static inline guint32
cs_hash_endpoint (guint32 h, const CsEndpoint *ep)
{
  guint32 words[4];

  memcpy (words, ep->addr.bytes, sizeof words);
  h = cs_hash_mix (h, words[0]);
  if (ep->addr.family == 6)
    {
      h = cs_hash_mix (h, words[1]);
      h = cs_hash_mix (h, words[2]);
      h = cs_hash_mix (h, words[3]);
    }
  return cs_hash_mix (h, ((guint32) ep->addr.family << 16) | ep->port);
}

guint
cs_rtp_stream_key_hash (gconstpointer key)
{
  const CsRtpStreamKey *k = key;

  return cs_hash_mix (cs_hash_endpoint (cs_hash_endpoint (0x811c9dc5u, &k->src), &k->dst), k->ssrc);
}

gboolean
cs_rtp_stream_key_equal (gconstpointer a, gconstpointer b)
{
  const CsRtpStreamKey *x = a, *y = b;

  return x->ssrc == y->ssrc && cs_endpoint_equal (&x->src, &y->src)
         && cs_endpoint_equal (&x->dst, &y->dst);
}

static void
cs_rtp_run_free (CsRtpRun *run)
{
  g_array_unref (run->packets);
  g_free (run);
}

CsChunk *
cs_chunk_new (guint32 first_index, guint32 n_frames)
{
  CsChunk *chunk = g_new0 (CsChunk, 1);

  chunk->first_index = first_index;
  chunk->n_frames = n_frames;
  chunk->sip = g_ptr_array_new_with_free_func ((GDestroyNotify) cs_sip_message_unref);
  chunk->deferred = g_array_new (FALSE, FALSE, sizeof (guint32));
  chunk->rtp_runs = g_hash_table_new (cs_rtp_stream_key_hash, cs_rtp_stream_key_equal);
  chunk->rtp_order = g_ptr_array_new_with_free_func ((GDestroyNotify) cs_rtp_run_free);
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
  g_hash_table_unref (chunk->rtp_runs);
  g_ptr_array_unref (chunk->rtp_order);
  g_array_unref (chunk->rtcp);
  g_free (chunk->frames);
  g_free (chunk);
}

void
cs_chunk_copy_frames (CsChunk *chunk, const CsFrame *frames)
{
  g_free (chunk->frames);
  chunk->frames = g_memdup2 (frames, (gsize) chunk->n_frames * sizeof (CsFrame));
}

CsUdpPayloadKind
cs_udp_payload_classify (const guint8 *data, gsize len, guint16 sport, guint16 dport)
{
  if (cs_sip_looks_like (data, len))
    return CS_UDP_PAYLOAD_SIP;
  if ((sport == CS_HEP_PORT || dport == CS_HEP_PORT || (len >= 4 && memcmp (data, "HEP3", 4) == 0))
      && cs_hep_looks_like (data, len))
    return CS_UDP_PAYLOAD_HEP;
  if (cs_rtcp_looks_like (data, len))
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
  CsSipMessage *msg = cs_sip_message_parse (data, len, NULL);

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

void
cs_chunk_add_rtp (CsChunk *chunk, const CsPacket *pkt, guint32 frame, gint64 ts_ns)
{
  CsRtpHeader hdr;
  CsRtpStreamKey key;
  CsRtpRun *run;
  CsRtpPacket rec;

  if (!cs_rtp_parse_header (pkt->payload, pkt->payload_len, &hdr))
    return;
  memset (&key, 0, sizeof key);
  key.src = pkt->src;
  key.dst = pkt->dst;
  key.ssrc = hdr.ssrc;
  run = g_hash_table_lookup (chunk->rtp_runs, &key);
  if (run == NULL)
    {
      run = g_new0 (CsRtpRun, 1);
      run->key = key;
      run->packets = g_array_sized_new (FALSE, FALSE, sizeof (CsRtpPacket), 64);
      g_hash_table_insert (chunk->rtp_runs, &run->key, run);
      g_ptr_array_add (chunk->rtp_order, run);
    }
  cs_rtp_packet_from_header (&hdr, ts_ns, frame, &rec);
  g_array_append_val (run->packets, rec);
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
      msg = cs_sip_message_from_payload (pkt->payload, pkt->payload_len, &pkt->src, &pkt->dst,
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

void
cs_chunk_decode (CsChunk *chunk, CsCaptureSet *set, GCancellable *cancellable)
{
  const CsFrame *frames = chunk->frames != NULL
                              ? chunk->frames
                              : cs_capture_set_get_frames (set) + chunk->first_index;

  for (guint32 i = 0; i < chunk->n_frames; i++)
    {
      guint32 index = chunk->first_index + i;
      const CsFrame *frame = &frames[i];
      guint32 number = index + 1;
      CsPacket pkt;
      CsDecodeStatus status;

      if (i % CS_CANCEL_CHECK_INTERVAL == 0 && g_cancellable_is_cancelled (cancellable))
        return;
      /* frames are scattered reads of a cold mapping: fetch a few ahead */
      if (i + 8 < chunk->n_frames)
        __builtin_prefetch (cs_capture_set_frame_data (set, &frames[i + 8]));
      chunk->bytes += frame->caplen;
      if (frame->flags & CS_FRAME_FILTERED_OUT)
        continue;
      memset (&pkt, 0, sizeof pkt);
      status = cs_decode_frame (frame->linktype, cs_capture_set_frame_data (set, frame),
                                frame->caplen, &pkt);
      if (status == CS_DECODE_FRAGMENT
          || (status == CS_DECODE_OK && pkt.ip_proto == CS_IP_PROTO_TCP))
        g_array_append_val (chunk->deferred, number);
      else if (status == CS_DECODE_OK && pkt.ip_proto == CS_IP_PROTO_UDP)
        cs_chunk_add_udp (chunk, &pkt, number, frame->ts_ns);
      else if (status == CS_DECODE_MALFORMED)
        chunk->undecodable++;
    }
  /* Drop the chunk's pages now rather than after its merge: workers may run ahead of
   * the merge, and the few frames the merge reads again fault back from the page cache. */
  if (chunk->n_frames > 0 && cs_capture_set_get_n_files (set) == 1)
    {
      const CsFrame *first = &frames[0];
      const CsFrame *last = &frames[chunk->n_frames - 1];

      cs_capture_release_range (cs_capture_set_get_file (set, 0), first->offset,
                                last->offset + last->caplen);
    }
}
