/* test-hep-listener.c — HEP over UDP/TCP into a live session; bad HEP never stops the listener */
#include <string.h>

#include "net/cs-decode.h"
#include "live/cs-hep-listener.h"
#include "live/cs-hep-sender.h"
#include "net/cs-hep.h"
#include "live-test-common.h"

#define WAIT_LIMIT_US (10 * G_USEC_PER_SEC)

/* Waits until the listener has read `received` packets (bounded). */
static void
wait_received (CsHepListener *listener, guint64 received)
{
  gint64 deadline = g_get_monotonic_time () + WAIT_LIMIT_US;
  CsHepCounters c;

  do
    {
      cs_hep_listener_get_counters (listener, &c);
      if (c.received >= received)
        return;
      g_usleep (2000);
    }
  while (g_get_monotonic_time () < deadline);
  g_assert_cmpuint (c.received, >=, received);
}

static void
replay_and_compare (const char *name, gboolean tcp)
{
  g_autofree char *path = live_sample_path (name);
  g_autofree char *dir = NULL;
  g_autofree char *out = NULL;
  g_autoptr (CsHepListener) listener = NULL;
  g_autoptr (CsHepSender) sender = NULL;
  g_autoptr (CsLiveSession) session = NULL;
  g_autoptr (CsAnalysis) file = NULL;
  g_autoptr (CsAnalysis) saved = NULL;
  CsHepCounters c;
  CsLiveCounters lc;
  GError *error = NULL;

  if (path == NULL)
    {
      g_test_skip ("sample capture not found (CS_SAMPLES_DIR)");
      return;
    }
  dir = live_tmp_dir ();
  out = g_build_filename (dir, "hep.pcapng", NULL);
  session = cs_live_session_new (out, 0, 0, &error);
  g_assert_no_error (error);
  listener = cs_hep_listener_new ("127.0.0.1", 0, !tcp, tcp, "k3y", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cs_hep_listener_get_port (listener), >, 0);
  cs_hep_listener_start (listener, session);
  sender
      = cs_hep_sender_new ("127.0.0.1", cs_hep_listener_get_port (listener), tcp, "k3y", 7, &error);
  g_assert_no_error (error);
  g_assert_true (cs_hep_sender_replay_file (sender, path, 32, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (cs_hep_sender_get_sent (sender), >, 0);
  wait_received (listener, cs_hep_sender_get_sent (sender));
  cs_hep_listener_stop (listener);
  cs_hep_listener_get_counters (listener, &c);
  g_assert_cmpuint (c.malformed, ==, 0);
  g_assert_cmpuint (c.auth_failures, ==, 0);
  g_assert_cmpuint (c.sip + c.rtcp, ==, cs_hep_sender_get_sent (sender));
  if (tcp)
    g_assert_cmpuint (c.tcp_connections, ==, 1);
  g_assert_true (cs_live_session_stop (session, &error));
  g_assert_no_error (error);

  file = live_load_one (path);
  cs_live_session_get_counters (session, &lc);
  g_assert_cmpuint (lc.sip_messages, ==, cs_analysis_get_stats (file)->sip_messages);
  g_assert_cmpuint (g_list_model_get_n_items (cs_live_session_get_calls (session)), ==,
                    g_list_model_get_n_items (cs_analysis_get_calls (file)));
  /* The HEP session, saved and reopened, has the calls and messages of the original file. */
  saved = cs_live_session_load_saved (session, &error);
  g_assert_no_error (error);
  live_assert_same_calls (file, saved);
  live_tmp_dir_remove (dir);
}

static void
test_replay_udp (gconstpointer name)
{
  replay_and_compare (name, FALSE);
}

static void
test_replay_tcp (gconstpointer name)
{
  replay_and_compare (name, TRUE);
}

static GByteArray *
make_hep (const char *key, guint8 payload_type)
{
  static const char sip[] = "OPTIONS sip:a@b SIP/2.0\r\nCall-ID: x1\r\nCSeq: 1 OPTIONS\r\n"
                            "From: <sip:a@b>;tag=1\r\nTo: <sip:b@c>\r\nVia: SIP/2.0/UDP "
                            "10.0.0.1;branch=z9hG4bK1\r\nContent-Length: 0\r\n\r\n";
  CsHepPacket in;

  memset (&in, 0, sizeof in);
  cs_addr_parse (&in.src.addr, "10.0.0.1");
  cs_addr_parse (&in.dst.addr, "10.0.0.2");
  in.src.port = 5060;
  in.dst.port = 5060;
  in.ip_proto = 17;
  in.ts_ns = G_GINT64_CONSTANT (1700000000000000000);
  in.payload_type = payload_type;
  in.payload = (const guint8 *) sip;
  in.payload_len = strlen (sip);
  if (key != NULL)
    {
      in.auth_key = key;
      in.auth_key_len = strlen (key);
    }
  return cs_hep3_encode (&in);
}

/* Appends a chunk of vendor/type with a body of len bytes (values 0x5a). */
static void
append_chunk (GByteArray *hep, guint16 vendor, guint16 type, guint16 len)
{
  guint8 hdr[6]
      = { vendor >> 8, vendor & 0xff, type >> 8, type & 0xff, (len + 6) >> 8, (len + 6) & 0xff };
  guint total;

  g_byte_array_append (hep, hdr, 6);
  for (guint i = 0; i < len; i++)
    g_byte_array_append (hep, (const guint8 *) "\x5a", 1);
  total = hep->len;
  hep->data[4] = total >> 8;
  hep->data[5] = total & 0xff;
}

static void
send_udp (GSocket *socket, GSocketAddress *to, const guint8 *data, gsize len)
{
  GError *error = NULL;

  g_assert_cmpint (g_socket_send_to (socket, to, (const char *) data, len, NULL, &error), ==, len);
  g_assert_no_error (error);
}

static void
test_bad_hep (void)
{
  g_autofree char *dir = live_tmp_dir ();
  g_autofree char *out = g_build_filename (dir, "bad.pcapng", NULL);
  g_autoptr (CsLiveSession) session = NULL;
  g_autoptr (CsHepListener) listener = NULL;
  g_autoptr (GSocket) socket = NULL;
  g_autoptr (GSocketAddress) to = NULL;
  g_autoptr (GInetAddress) lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GByteArray) good = make_hep ("secret", CS_HEP_PROTO_SIP);
  g_autoptr (GByteArray) wrong_key = make_hep ("guess", CS_HEP_PROTO_SIP);
  g_autoptr (GByteArray) no_key = make_hep (NULL, CS_HEP_PROTO_SIP);
  g_autoptr (GByteArray) qos = make_hep ("secret", 34);
  g_autoptr (GByteArray) unknown = make_hep ("secret", CS_HEP_PROTO_SIP);
  g_autoptr (GByteArray) lying = g_byte_array_new ();
  CsHepCounters c;
  CsLiveCounters lc;
  GError *error = NULL;
  guint64 sent = 0;

  session = cs_live_session_new (out, 0, 0, &error);
  g_assert_no_error (error);
  listener = cs_hep_listener_new ("127.0.0.1", 0, TRUE, FALSE, "secret", &error);
  g_assert_no_error (error);
  cs_hep_listener_start (listener, session);
  socket
      = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_DATAGRAM, G_SOCKET_PROTOCOL_UDP, &error);
  to = g_inet_socket_address_new (lo, cs_hep_listener_get_port (listener));

  /* Unknown vendor chunks and unknown types of vendor 0 are skipped, not refused. */
  append_chunk (unknown, 0x1234, 0x0001, 5);
  append_chunk (unknown, 0, 0x0099, 3);
  /* A chunk whose length runs past the packet; a header whose length lies. */
  g_byte_array_append (lying, good->data, good->len);
  append_chunk (lying, 0, 0x0013, 4);
  lying->data[lying->len - 5] = 0xff; /* chunk length low byte: now past the end */
  send_udp (socket, to, (const guint8 *) "garbage that is not HEP", 23), sent++;
  send_udp (socket, to, good->data, 10), sent++; /* truncated */
  send_udp (socket, to, lying->data, lying->len), sent++;
  send_udp (socket, to, wrong_key->data, wrong_key->len), sent++;
  send_udp (socket, to, no_key->data, no_key->len), sent++;
  send_udp (socket, to, qos->data, qos->len), sent++;
  send_udp (socket, to, unknown->data, unknown->len), sent++;
  for (guint i = 0; i < 1000; i++)
    {
      guint8 noise[64];

      for (guint j = 0; j < sizeof noise; j++)
        noise[j] = (guint8) g_test_rand_int ();
      if (i % 2 == 0)
        memcpy (noise, "HEP3", 4);
      send_udp (socket, to, noise, 1 + i % sizeof noise), sent++;
      if (i % 20 == 0)
        g_usleep (1000); /* paced: an unprivileged socket buffer holds only a few hundred */
    }
  /* After all that, a good packet still gets through. */
  send_udp (socket, to, good->data, good->len), sent++;
  wait_received (listener, sent);
  cs_hep_listener_stop (listener);
  cs_hep_listener_get_counters (listener, &c);
  g_assert_cmpuint (c.received, ==, sent);
  g_assert_cmpuint (c.auth_failures, ==, 2);
  g_assert_cmpuint (c.qos, ==, 1);
  g_assert_cmpuint (c.sip, ==, 2);
  g_assert_cmpuint (c.malformed, ==, sent - 5);
  cs_live_session_stop (session, NULL);
  cs_live_session_get_counters (session, &lc);
  g_assert_cmpuint (lc.sip_messages, ==, 2);
  g_assert_cmpuint (lc.packets, ==, 2);
  live_tmp_dir_remove (dir);
}

/* Sends n good packets from loopback to a listener that allows `allow` (NULL: no list) at
 * max_rate per second, and returns its counters. */
static void
send_through (const char *allow, guint max_rate, guint n, gboolean tcp, CsHepCounters *c)
{
  g_autofree char *dir = live_tmp_dir ();
  g_autofree char *out = g_build_filename (dir, "gate.pcapng", NULL);
  g_autoptr (CsLiveSession) session = NULL;
  g_autoptr (CsHepListener) listener = NULL;
  g_autoptr (GSocket) socket = NULL;
  g_autoptr (GSocketAddress) to = NULL;
  g_autoptr (GInetAddress) lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GByteArray) good = make_hep (NULL, CS_HEP_PROTO_SIP);
  GError *error = NULL;

  session = cs_live_session_new (out, 0, 0, &error);
  g_assert_no_error (error);
  listener = cs_hep_listener_new ("127.0.0.1", 0, !tcp, tcp, NULL, &error);
  g_assert_no_error (error);
  if (allow != NULL)
    g_assert_true (cs_hep_listener_allow (listener, allow, &error));
  g_assert_no_error (error);
  cs_hep_listener_set_max_rate (listener, max_rate);
  cs_hep_listener_start (listener, session);
  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, tcp ? G_SOCKET_TYPE_STREAM : G_SOCKET_TYPE_DATAGRAM,
                         tcp ? G_SOCKET_PROTOCOL_TCP : G_SOCKET_PROTOCOL_UDP, &error);
  to = g_inet_socket_address_new (lo, cs_hep_listener_get_port (listener));
  if (tcp)
    {
      g_assert_true (g_socket_connect (socket, to, NULL, &error));
      for (guint i = 0; i < n; i++)
        g_socket_send (socket, (const char *) good->data, good->len, NULL, NULL);
      g_usleep (300000); /* the listener refuses or reads; either is counted */
    }
  else
    {
      for (guint i = 0; i < n; i++)
        {
          send_udp (socket, to, good->data, good->len);
          if (i % 20 == 0)
            g_usleep (200); /* an unprivileged socket buffer holds only a few hundred */
        }
      wait_received (listener, n);
    }
  cs_hep_listener_stop (listener);
  cs_hep_listener_get_counters (listener, c);
  cs_live_session_stop (session, NULL);
  live_tmp_dir_remove (dir);
}

static void
test_allow_list (void)
{
  CsHepCounters c;
  g_autoptr (CsHepListener) listener
      = cs_hep_listener_new ("127.0.0.1", 0, TRUE, FALSE, NULL, NULL);
  GError *error = NULL;

  /* loopback is not in 10.0.0.0/8: every packet is refused and counted */
  send_through ("10.0.0.0/8", 0, 50, FALSE, &c);
  g_assert_cmpuint (c.received, ==, 50);
  g_assert_cmpuint (c.not_allowed, ==, 50);
  g_assert_cmpuint (c.sip, ==, 0);
  /* in 127.0.0.0/8 (and as one address): accepted */
  send_through ("127.0.0.0/8", 0, 50, FALSE, &c);
  g_assert_cmpuint (c.sip, ==, 50);
  g_assert_cmpuint (c.not_allowed, ==, 0);
  send_through ("127.0.0.1", 0, 5, FALSE, &c);
  g_assert_cmpuint (c.sip, ==, 5);
  /* an IPv6 prefix does not admit an IPv4 agent; a TCP agent outside is turned away */
  send_through ("::1/128", 0, 5, FALSE, &c);
  g_assert_cmpuint (c.not_allowed, ==, 5);
  send_through ("192.0.2.0/24", 0, 5, TRUE, &c);
  g_assert_cmpuint (c.not_allowed, ==, 1);
  g_assert_cmpuint (c.tcp_connections, ==, 0);
  g_assert_cmpuint (c.sip, ==, 0);
  /* what is not a prefix is an error naming it */
  g_assert_false (cs_hep_listener_allow (listener, "10.0.0.0/33", &error));
  g_assert_error (error, CS_LIVE_ERROR, CS_LIVE_ERROR_ADDRESS);
  g_clear_error (&error);
  g_assert_false (cs_hep_listener_allow (listener, "not-an-address", &error));
  g_clear_error (&error);
  g_assert_true (cs_hep_listener_allow (listener, "2001:db8::/32", NULL));
  g_assert_cmpuint (cs_hep_listener_get_n_allowed (listener), ==, 1);
}

static void
test_rate_cap (void)
{
  CsHepCounters c;

  /* 100 per second with a one-second bucket: of 2000 sent in well under two seconds, at most
   * the bucket and what refilled meanwhile get through; the rest is counted, not lost */
  gint64 start = g_get_monotonic_time ();
  double seconds;

  send_through (NULL, 100, 2000, FALSE, &c);
  seconds = (g_get_monotonic_time () - start) / 1e6;
  g_assert_cmpuint (c.received, ==, 2000);
  g_assert_cmpuint (c.sip + c.rate_limited, ==, 2000);
  g_assert_cmpuint (c.sip, >=, 100);
  g_assert_cmpuint (c.sip, <=, 100 + (guint64) (seconds * 100) + 1);
  g_assert_cmpuint (c.rate_limited, >, 0);
  /* the default cap lets a normal burst through untouched */
  send_through (NULL, CS_HEP_DEFAULT_MAX_RATE, 500, FALSE, &c);
  g_assert_cmpuint (c.sip, ==, 500);
  g_assert_cmpuint (c.rate_limited, ==, 0);
}

static void
test_tcp_stream_garbage (void)
{
  g_autofree char *dir = live_tmp_dir ();
  g_autofree char *out = g_build_filename (dir, "tcp.pcapng", NULL);
  g_autoptr (CsLiveSession) session = NULL;
  g_autoptr (CsHepListener) listener = NULL;
  g_autoptr (GSocketClient) client = g_socket_client_new ();
  g_autoptr (GSocketConnection) conn = NULL;
  g_autoptr (GByteArray) good = make_hep (NULL, CS_HEP_PROTO_SIP);
  g_autoptr (GByteArray) stream = g_byte_array_new ();
  GOutputStream *os;
  CsHepCounters c;
  GError *error = NULL;
  gint64 deadline;

  session = cs_live_session_new (out, 0, 0, &error);
  listener = cs_hep_listener_new ("127.0.0.1", 0, FALSE, TRUE, NULL, &error);
  g_assert_no_error (error);
  cs_hep_listener_start (listener, session);
  conn = g_socket_client_connect_to_host (client, "127.0.0.1", cs_hep_listener_get_port (listener),
                                          NULL, &error);
  g_assert_no_error (error);
  /* good, garbage, good split across writes, good */
  g_byte_array_append (stream, good->data, good->len);
  g_byte_array_append (stream, (const guint8 *) "xxxxxxxxxx", 10);
  g_byte_array_append (stream, good->data, good->len);
  g_byte_array_append (stream, good->data, good->len);
  os = g_io_stream_get_output_stream (G_IO_STREAM (conn));
  g_assert_true (g_output_stream_write_all (os, stream->data, 30, NULL, NULL, &error));
  g_usleep (20000);
  g_assert_true (
      g_output_stream_write_all (os, stream->data + 30, stream->len - 30, NULL, NULL, &error));
  g_io_stream_close (G_IO_STREAM (conn), NULL, NULL);
  deadline = g_get_monotonic_time () + WAIT_LIMIT_US;
  do
    {
      cs_hep_listener_get_counters (listener, &c);
      g_usleep (2000);
    }
  while (c.sip < 3 && g_get_monotonic_time () < deadline);
  cs_hep_listener_stop (listener);
  g_assert_cmpuint (c.sip, ==, 3);
  g_assert_cmpuint (c.malformed, ==, 1);
  g_assert_cmpuint (c.tcp_connections, ==, 1);
  cs_live_session_stop (session, NULL);
  live_tmp_dir_remove (dir);
}

static void
test_listen_address (void)
{
  char *address = NULL;
  guint16 port = 0;
  GError *error = NULL;

  g_assert_true (cs_hep_parse_listen_address ("0.0.0.0:9061", &address, &port, &error));
  g_assert_cmpstr (address, ==, "0.0.0.0");
  g_assert_cmpuint (port, ==, 9061);
  g_free (address);
  g_assert_true (cs_hep_parse_listen_address ("[::1]:19060", &address, &port, &error));
  g_assert_cmpstr (address, ==, "::1");
  g_assert_cmpuint (port, ==, 19060);
  g_free (address);
  g_assert_true (cs_hep_parse_listen_address (":9999", &address, &port, &error));
  g_assert_cmpstr (address, ==, "127.0.0.1");
  g_assert_cmpuint (port, ==, 9999);
  g_free (address);
  g_assert_true (cs_hep_parse_listen_address (NULL, &address, &port, &error));
  g_assert_cmpuint (port, ==, CS_HEP_DEFAULT_PORT);
  g_free (address);
  g_assert_false (cs_hep_parse_listen_address ("host.example:99999", &address, &port, &error));
  g_assert_error (error, CS_LIVE_ERROR, CS_LIVE_ERROR_ADDRESS);
  g_clear_error (&error);
}

static void
test_address_in_use (void)
{
  GError *error = NULL;
  g_autoptr (CsHepListener) first = cs_hep_listener_new ("127.0.0.1", 0, FALSE, TRUE, NULL, &error);
  CsHepListener *second;

  g_assert_no_error (error);
  second = cs_hep_listener_new ("127.0.0.1", cs_hep_listener_get_port (first), FALSE, TRUE, NULL,
                                &error);
  g_assert_null (second);
  g_assert_error (error, CS_LIVE_ERROR, CS_LIVE_ERROR_ADDRESS);
  g_assert_nonnull (strstr (error->message, "TCP"));
  g_clear_error (&error);
}

int
main (int argc, char **argv)
{
  static const char *samples[]
      = { "sip-rtp-g711.pcap",       "sip_call.pcap",    "sip-over-tcp.pcap",
          "sip-register.pcap",       "DTMFsipinfo.pcap", "sip-488-codec-reject.pcapng",
          "sip-auth-failure.pcapng", "sip-proxy.pcap" };

  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *udp = g_strdup_printf ("/hep/listener/replay-udp/%s", samples[i]);
      g_autofree char *tcp = g_strdup_printf ("/hep/listener/replay-tcp/%s", samples[i]);

      g_test_add_data_func (udp, samples[i], test_replay_udp);
      g_test_add_data_func (tcp, samples[i], test_replay_tcp);
    }
  g_test_add_func ("/hep/listener/bad-hep", test_bad_hep);
  g_test_add_func ("/hep/listener/allow-list", test_allow_list);
  g_test_add_func ("/hep/listener/rate-cap", test_rate_cap);
  g_test_add_func ("/hep/listener/tcp-stream-garbage", test_tcp_stream_garbage);
  g_test_add_func ("/hep/listener/listen-address", test_listen_address);
  g_test_add_func ("/hep/listener/address-in-use", test_address_in_use);
  return g_test_run ();
}
