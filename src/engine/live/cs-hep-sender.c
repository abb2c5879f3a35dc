/* cs-hep-sender.c — HEP3 over UDP or TCP, from payloads or from captured frames */
#include "cs-hep-sender.h"

#include "capture/cs-capture-set.h"
#include "loader/cs-chunk.h"
#include "net/cs-decode.h"
#include "net/cs-hep.h"
#include "net/cs-ip-reassembly.h"
#include "net/cs-tcp-reassembly.h"

struct _CsHepSender
{
  GSocket *socket;
  gboolean tcp;
  char *auth_key;
  guint32 capture_id;
  guint64 sent;
  CsIpReassembler *ip;
  CsTcpReassembler *tcp_streams;
  GError *callback_error; /* first error sending from the TCP reassembly callback */
};

CsHepSender *
cs_hep_sender_new (const char *host, guint16 port, gboolean tcp, const char *auth_key,
                   guint32 capture_id, GError **error)
{
  g_autoptr (GInetAddress) inet = g_inet_address_new_from_string (host);
  g_autoptr (GSocketAddress) address = NULL;
  g_autoptr (GSocket) socket = NULL;
  CsHepSender *sender;

  if (inet == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "“%s” is not an IP address",
                   host);
      return NULL;
    }
  address = g_inet_socket_address_new (inet, port);
  socket = g_socket_new (g_inet_address_get_family (inet),
                         tcp ? G_SOCKET_TYPE_STREAM : G_SOCKET_TYPE_DATAGRAM,
                         tcp ? G_SOCKET_PROTOCOL_TCP : G_SOCKET_PROTOCOL_UDP, error);
  if (socket == NULL || !g_socket_connect (socket, address, NULL, error))
    return NULL;
  sender = g_new0 (CsHepSender, 1);
  sender->socket = g_steal_pointer (&socket);
  sender->tcp = tcp;
  sender->auth_key = auth_key != NULL && *auth_key != '\0' ? g_strdup (auth_key) : NULL;
  sender->capture_id = capture_id;
  sender->ip = cs_ip_reassembler_new (0, 0);
  sender->tcp_streams = cs_tcp_reassembler_new (0, 0);
  return sender;
}

void
cs_hep_sender_free (CsHepSender *sender)
{
  if (sender == NULL)
    return;
  g_socket_close (sender->socket, NULL);
  g_object_unref (sender->socket);
  cs_ip_reassembler_free (sender->ip);
  cs_tcp_reassembler_free (sender->tcp_streams);
  g_clear_error (&sender->callback_error);
  g_free (sender->auth_key);
  g_free (sender);
}

guint64
cs_hep_sender_get_sent (CsHepSender *sender)
{
  return sender->sent;
}

gboolean
cs_hep_sender_send (CsHepSender *sender, const CsEndpoint *src, const CsEndpoint *dst,
                    guint8 ip_proto, guint8 payload_type, gint64 ts_ns, const guint8 *payload,
                    gsize len, GError **error)
{
  CsHepPacket hep;
  g_autoptr (GByteArray) bytes = NULL;

  memset (&hep, 0, sizeof hep);
  hep.version = 3;
  hep.ip_proto = ip_proto;
  hep.src = *src;
  hep.dst = *dst;
  hep.ts_ns = ts_ns;
  hep.payload_type = payload_type;
  hep.capture_id = sender->capture_id;
  hep.payload = payload;
  hep.payload_len = len;
  if (sender->auth_key != NULL)
    {
      hep.auth_key = sender->auth_key;
      hep.auth_key_len = strlen (sender->auth_key);
    }
  bytes = cs_hep3_encode (&hep);
  if (bytes == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                   "A %zu-byte message does not fit in a HEP packet", len);
      return FALSE;
    }
  if (sender->tcp)
    {
      if (!g_socket_send_with_blocking (sender->socket, (const char *) bytes->data, bytes->len,
                                        TRUE, NULL, error))
        return FALSE;
    }
  else if (g_socket_send (sender->socket, (const char *) bytes->data, bytes->len, NULL, error) < 0)
    return FALSE;
  sender->sent++;
  return TRUE;
}

static void
cs_hep_sender_on_tcp_message (const guint8 *msg, gsize len, const CsPacket *packet,
                              guint32 first_frame, guint32 last_frame, gint64 ts_ns,
                              gpointer user_data)
{
  CsHepSender *sender = user_data;

  if (sender->callback_error == NULL)
    cs_hep_sender_send (sender, &packet->src, &packet->dst, CS_IP_PROTO_TCP, CS_HEP_PROTO_SIP,
                        ts_ns, msg, len, &sender->callback_error);
}

static gboolean
cs_hep_sender_send_udp (CsHepSender *sender, const CsPacket *pkt, gint64 ts_ns, gboolean rtcp_too,
                        GError **error)
{
  switch (cs_udp_payload_classify (pkt->payload, pkt->payload_len, pkt->src.port, pkt->dst.port))
    {
    case CS_UDP_PAYLOAD_SIP:
      return cs_hep_sender_send (sender, &pkt->src, &pkt->dst, CS_IP_PROTO_UDP, CS_HEP_PROTO_SIP,
                                 ts_ns, pkt->payload, pkt->payload_len, error);
    case CS_UDP_PAYLOAD_RTCP:
      if (rtcp_too)
        return cs_hep_sender_send (sender, &pkt->src, &pkt->dst, CS_IP_PROTO_UDP, CS_HEP_PROTO_RTCP,
                                   ts_ns, pkt->payload, pkt->payload_len, error);
      return TRUE;
    default:
      return TRUE;
    }
}

gboolean
cs_hep_sender_send_frame (CsHepSender *sender, guint linktype, gint64 ts_ns, const guint8 *data,
                          gsize caplen, GError **error)
{
  CsPacket pkt;
  CsDecodeStatus status;

  memset (&pkt, 0, sizeof pkt);
  status = cs_decode_frame (linktype, data, caplen, &pkt);
  if (status == CS_DECODE_FRAGMENT)
    {
      g_autoptr (GBytes) datagram = cs_ip_reassembler_add (sender->ip, &pkt, 0, ts_ns, NULL);
      gsize len;
      const guint8 *bytes;

      if (datagram == NULL)
        return TRUE;
      bytes = g_bytes_get_data (datagram, &len);
      if (cs_decode_transport (bytes, len, &pkt) != CS_DECODE_OK)
        return TRUE;
      status = CS_DECODE_OK;
      /* The file path ignores RTCP in reassembled datagrams; so does the replay. */
      if (pkt.ip_proto == CS_IP_PROTO_UDP)
        return cs_hep_sender_send_udp (sender, &pkt, ts_ns, FALSE, error);
    }
  if (status != CS_DECODE_OK)
    return TRUE;
  if (pkt.ip_proto == CS_IP_PROTO_UDP)
    return cs_hep_sender_send_udp (sender, &pkt, ts_ns, TRUE, error);
  if (pkt.ip_proto == CS_IP_PROTO_TCP)
    {
      cs_tcp_reassembler_add (sender->tcp_streams, &pkt, 0, ts_ns, cs_hep_sender_on_tcp_message,
                              sender);
      if (sender->callback_error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&sender->callback_error));
          return FALSE;
        }
    }
  return TRUE;
}

/* How a replay spaces its packets: at the capture's own pace (real_time), under a rate
 * (max_per_second > 0), and with a 1 ms rest after every pause_every-th packet sent (> 0),
 * which keeps a loopback receiver's socket buffer from overflowing. */
typedef struct
{
  gboolean real_time;
  double max_per_second;
  guint pause_every;
} CsHepReplayPace;

/* Sleeps until the later of the packet's own time (real_time) and the rate's next slot. */
static void
cs_hep_sender_pace (const CsHepReplayPace *pace, gint64 started_us, gint64 offset_ns, guint64 sent)
{
  gint64 due = started_us;
  gint64 now;

  if (!pace->real_time && pace->max_per_second <= 0)
    return;
  now = g_get_monotonic_time ();
  if (pace->real_time)
    due = started_us + offset_ns / 1000;
  if (pace->max_per_second > 0)
    due = MAX (due, started_us + (gint64) (sent * 1e6 / pace->max_per_second));
  if (due > now)
    g_usleep ((gulong) (due - now));
}

static gboolean
cs_hep_sender_replay (CsHepSender *sender, const char *path, const CsHepReplayPace *pace,
                      GCancellable *cancellable, GError **error)
{
  CsCaptureSet *set = cs_capture_set_new ();
  gboolean ok = cs_capture_set_add_file (set, path, error)
                && cs_capture_set_index (set, NULL, NULL, NULL, error);
  guint64 before = sender->sent;
  gint64 started_us = g_get_monotonic_time (), first_ns = 0;
  CsFrameIter iter;

  cs_capture_set_iter_init (set, 0, &iter);
  for (guint32 n = 1; ok && n <= cs_capture_set_get_n_frames (set); n++)
    {
      CsFrame frame;
      const guint8 *data;

      if (!cs_frame_iter_next (&iter, &frame, &data))
        break;
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ok = FALSE;
          break;
        }
      if (n == 1)
        first_ns = frame.ts_ns;
      cs_hep_sender_pace (pace, started_us, frame.ts_ns - first_ns, sender->sent - before);
      ok = cs_hep_sender_send_frame (sender, frame.linktype, frame.ts_ns, data, frame.caplen,
                                     error);
      if (pace->pause_every > 0 && sender->sent != before
          && (sender->sent - before) % pace->pause_every == 0)
        g_usleep (1000);
    }
  cs_capture_set_free (set);
  return ok;
}

gboolean
cs_hep_sender_replay_file (CsHepSender *sender, const char *path, guint pause_every, GError **error)
{
  const CsHepReplayPace pace = { .pause_every = pause_every };

  return cs_hep_sender_replay (sender, path, &pace, NULL, error);
}

gboolean
cs_hep_sender_replay_file_paced (CsHepSender *sender, const char *path, gboolean real_time,
                                 double max_per_second, GCancellable *cancellable, GError **error)
{
  const CsHepReplayPace pace = { .real_time = real_time, .max_per_second = max_per_second };

  return cs_hep_sender_replay (sender, path, &pace, cancellable, error);
}
