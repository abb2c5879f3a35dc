/* cs-live-decoder.c — the file path's per-frame decode, for frames that arrive one by one */
#include "cs-live-decoder.h"

#include "net/cs-decode.h"
#include "net/cs-ip-reassembly.h"
#include "net/cs-tcp-reassembly.h"

/* The same caps the file merge uses (cs-merge.c). */
#define CS_LIVE_IP_MAX_BYTES (64u * 1024 * 1024)
#define CS_LIVE_IP_MAX_DATAGRAMS 65536
#define CS_LIVE_TCP_MAX_BYTES_PER_STREAM (1024u * 1024)
#define CS_LIVE_TCP_MAX_STREAMS 65536

struct _CsLiveDecoder
{
  CsIpReassembler *ip;
  CsTcpReassembler *tcp;
};

CsLiveDecoder *
cs_live_decoder_new (void)
{
  CsLiveDecoder *decoder = g_new0 (CsLiveDecoder, 1);

  decoder->ip = cs_ip_reassembler_new (CS_LIVE_IP_MAX_BYTES, CS_LIVE_IP_MAX_DATAGRAMS);
  decoder->tcp = cs_tcp_reassembler_new (CS_LIVE_TCP_MAX_BYTES_PER_STREAM, CS_LIVE_TCP_MAX_STREAMS);
  return decoder;
}

void
cs_live_decoder_free (CsLiveDecoder *decoder)
{
  if (decoder == NULL)
    return;
  cs_ip_reassembler_free (decoder->ip);
  cs_tcp_reassembler_free (decoder->tcp);
  g_free (decoder);
}

guint64
cs_live_decoder_get_ip_fragments_evicted (CsLiveDecoder *decoder)
{
  return cs_ip_reassembler_get_evicted (decoder->ip);
}

guint64
cs_live_decoder_get_tcp_streams_evicted (CsLiveDecoder *decoder)
{
  return cs_tcp_reassembler_get_evicted (decoder->tcp);
}

static void
cs_live_add_sip (CsChunk *chunk, const guint8 *data, gsize len, const CsEndpoint *src,
                 const CsEndpoint *dst, CsSipTransport transport, guint32 first_frame,
                 guint32 frame, gint64 ts_ns)
{
  CsSipMessage *msg = cs_sip_message_from_payload (data, len, src, dst, transport, frame, ts_ns);

  if (msg == NULL)
    return;
  cs_sip_message_set_first_frame (msg, first_frame);
  g_ptr_array_add (chunk->sip, msg);
}

/* A datagram rebuilt from fragments: the file merge looks only for SIP and RTP in it. */
static void
cs_live_add_reassembled_udp (CsChunk *chunk, const CsPacket *pkt, guint32 first_frame,
                             guint32 frame, gint64 ts_ns)
{
  switch (cs_udp_payload_classify (pkt->payload, pkt->payload_len, pkt->src.port, pkt->dst.port))
    {
    case CS_UDP_PAYLOAD_SIP:
      cs_live_add_sip (chunk, pkt->payload, pkt->payload_len, &pkt->src, &pkt->dst,
                       CS_SIP_TRANSPORT_UDP, first_frame, frame, ts_ns);
      break;
    case CS_UDP_PAYLOAD_RTP:
      cs_chunk_add_rtp (chunk, pkt, frame, ts_ns);
      break;
    default:
      break;
    }
}

static void
cs_live_on_tcp_message (const guint8 *data, gsize len, const CsPacket *packet, guint32 first_frame,
                        guint32 last_frame, gint64 ts_ns, gpointer user_data)
{
  cs_live_add_sip (user_data, data, len, &packet->src, &packet->dst, CS_SIP_TRANSPORT_TCP,
                   first_frame, last_frame, ts_ns);
}

static void
cs_live_add_fragment (CsLiveDecoder *decoder, CsChunk *chunk, CsPacket *pkt, guint32 number,
                      gint64 ts_ns)
{
  guint32 first_frame = number;
  g_autoptr (GBytes) datagram
      = cs_ip_reassembler_add (decoder->ip, pkt, number, ts_ns, &first_frame);
  gsize len;
  const guint8 *data;

  if (datagram == NULL)
    return;
  data = g_bytes_get_data (datagram, &len);
  if (cs_decode_transport (data, len, pkt) != CS_DECODE_OK)
    return;
  if (pkt->ip_proto == CS_IP_PROTO_UDP)
    cs_live_add_reassembled_udp (chunk, pkt, first_frame, number, ts_ns);
  else if (pkt->ip_proto == CS_IP_PROTO_TCP)
    cs_tcp_reassembler_add (decoder->tcp, pkt, number, ts_ns, cs_live_on_tcp_message, chunk);
}

gboolean
cs_live_decoder_add_frame (CsLiveDecoder *decoder, CsChunk *chunk, guint32 number, guint linktype,
                           const guint8 *data, gsize caplen, gint64 ts_ns)
{
  CsPacket pkt;
  CsDecodeStatus status;

  chunk->n_frames++;
  chunk->bytes += caplen;
  memset (&pkt, 0, sizeof pkt);
  status = cs_decode_frame (linktype, data, caplen, &pkt);
  if (status == CS_DECODE_FRAGMENT)
    cs_live_add_fragment (decoder, chunk, &pkt, number, ts_ns);
  else if (status == CS_DECODE_OK && pkt.ip_proto == CS_IP_PROTO_TCP)
    cs_tcp_reassembler_add (decoder->tcp, &pkt, number, ts_ns, cs_live_on_tcp_message, chunk);
  else if (status == CS_DECODE_OK && pkt.ip_proto == CS_IP_PROTO_UDP)
    cs_chunk_add_udp (chunk, &pkt, number, ts_ns);
  else if (status == CS_DECODE_ENCRYPTED)
    chunk->encrypted++;
  else if (status == CS_DECODE_MALFORMED)
    {
      chunk->undecodable++;
      return FALSE;
    }
  return TRUE;
}
