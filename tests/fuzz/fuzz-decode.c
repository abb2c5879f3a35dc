/* fuzz-decode.c — link, IP, UDP and TCP decoding, IP fragment and TCP stream
 * reassembly across many packets, and classification of what UDP carries.
 *
 * Input: one byte choosing the link type, then records (fuzz-common.h), each
 * one captured frame. */
#include "fuzz-common.h"

#include "loader/cs-chunk.h"
#include "net/cs-decode.h"
#include "net/cs-ip-reassembly.h"
#include "net/cs-tcp-reassembly.h"

static const guint linktypes[] = {
  CS_LINKTYPE_ETHERNET, CS_LINKTYPE_NULL,       CS_LINKTYPE_RAW,       CS_LINKTYPE_RAW_12,
  CS_LINKTYPE_RAW_14,   CS_LINKTYPE_LOOP,       CS_LINKTYPE_LINUX_SLL, CS_LINKTYPE_IPV4,
  CS_LINKTYPE_IPV6,     CS_LINKTYPE_LINUX_SLL2, 147 /* unsupported */,
};

static void
on_tcp_message (const guint8 *msg, gsize len, const CsPacket *packet, guint32 first_frame,
                guint32 last_frame, gint64 ts_ns, gpointer user_data)
{
  CsSipMessage *sip;
  const guint32 *current_frame = user_data;

  /* Both frames were seen already. (first_frame > last_frame happens when the
   * last bytes came in an earlier, out-of-order segment.) */
  g_assert (first_frame >= 1 && first_frame <= *current_frame);
  g_assert (last_frame >= 1 && last_frame <= *current_frame);
  sip = cs_sip_message_from_payload (msg, len, &packet->src, &packet->dst, CS_SIP_TRANSPORT_TCP,
                                     last_frame, ts_ns);
  if (sip != NULL)
    cs_sip_message_unref (sip);
}

static void
look_at_transport (CsPacket *pkt, const guint8 *data, gsize len, CsTcpReassembler *tcp,
                   guint32 *frame, gint64 ts)
{
  if (pkt->ip_proto == CS_IP_PROTO_TCP)
    {
      cs_tcp_reassembler_add (tcp, pkt, *frame, ts, on_tcp_message, frame);
      return;
    }
  /* The payload must lie inside the buffer it was decoded from. */
  g_assert (pkt->payload_len == 0
            || (pkt->payload >= data && pkt->payload + pkt->payload_len <= data + len));
  cs_udp_payload_classify (pkt->payload, pkt->payload_len, pkt->src.port, pkt->dst.port);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  CsFuzzRecords records;
  const uint8_t *frame_data;
  size_t frame_len;
  guint linktype;
  guint32 frame = 0;
  gint64 ts = 1000000000;
  CsIpReassembler *ip = cs_ip_reassembler_new (32 * 1024, 8);
  CsTcpReassembler *tcp = cs_tcp_reassembler_new (8 * 1024, 8);

  cs_fuzz_init_once ();
  cs_fuzz_records_init (&records, data, size);
  linktype = linktypes[cs_fuzz_records_byte (&records) % G_N_ELEMENTS (linktypes)];
  while (cs_fuzz_records_next (&records, &frame_data, &frame_len))
    {
      CsPacket pkt;
      CsDecodeStatus status;

      memset (&pkt, 0, sizeof pkt);
      frame++;
      ts += (gint64) (frame_len % 7) * 20000000; /* sometimes the same instant */
      status = cs_decode_frame (linktype, frame_data, frame_len, &pkt);
      cs_decode_status_to_string (status);
      if (status == CS_DECODE_OK)
        look_at_transport (&pkt, frame_data, frame_len, tcp, &frame, ts);
      else if (status == CS_DECODE_FRAGMENT)
        {
          guint32 first = 0;
          GBytes *datagram;

          g_assert (pkt.frag.data >= frame_data
                    && pkt.frag.data + pkt.frag.len <= frame_data + frame_len);
          datagram = cs_ip_reassembler_add (ip, &pkt, frame, ts, &first);
          if (datagram != NULL)
            {
              gsize len;
              const guint8 *bytes = g_bytes_get_data (datagram, &len);

              g_assert (first >= 1 && first <= frame);
              if (cs_decode_transport (bytes, len, &pkt) == CS_DECODE_OK)
                look_at_transport (&pkt, bytes, len, tcp, &frame, ts);
              g_bytes_unref (datagram);
            }
          g_assert (cs_ip_reassembler_get_pending (ip) <= 8);
          g_assert (cs_ip_reassembler_get_pending_bytes (ip) <= 32 * 1024);
        }
    }
  g_assert (cs_tcp_reassembler_get_stream_count (tcp) <= 8);
  cs_ip_reassembler_free (ip);
  cs_tcp_reassembler_free (tcp);
  return 0;
}
