/* cs-hep-listener.c — HEP over UDP and TCP: decode, authenticate, synthesize frames */
#include "cs-hep-listener.h"

#include <sys/socket.h>

#include "net/cs-decode.h"
#include "net/cs-hep.h"
#include "cs-live-frame.h"
#include "cs-source-filter.h"
#include "export/cs-pcapng-writer.h"

#define CS_HEP_MAX_TCP_CLIENTS 64
#define CS_HEP_TCP_BUFFER_MAX (128u * 1024) /* two maximal HEP3 frames */
#define CS_HEP_POLL_MS 100
#define CS_HEP3_HEADER_LEN 6
#define CS_HEP_UDP_RCVBUF (8 * 1024 * 1024) /* bursts from many agents must not overflow */

typedef struct
{
  GSocket *socket;
  GByteArray *buffer;
  gboolean finished;
} CsHepClient;

struct _CsHepListener
{
  GSocket *udp;
  GSocket *tcp;
  guint16 port;
  char *auth_key;
  CsSourceFilter *sources; /* allow-list and rate cap, listener thread only once started */
  GPtrArray *clients;      /* CsHepClient*, listener thread only */
  CsLiveTcpSeq *tcp_seq;
  CsLiveSession *session;
  GThread *thread;
  gint stop; /* atomic */

  GMutex lock; /* counters */
  CsHepCounters counters;
};

static void
cs_hep_client_free (CsHepClient *client)
{
  g_socket_close (client->socket, NULL);
  g_object_unref (client->socket);
  g_byte_array_unref (client->buffer);
  g_free (client);
}

gboolean
cs_hep_parse_listen_address (const char *text, char **address, guint16 *port, GError **error)
{
  g_autofree char *host = NULL;
  const char *colon;
  guint64 value = CS_HEP_DEFAULT_PORT;

  if (text == NULL || *text == '\0')
    text = CS_HEP_DEFAULT_ADDRESS;
  if (text[0] == '[')
    {
      const char *end = strchr (text, ']');

      if (end == NULL)
        goto bad;
      host = g_strndup (text + 1, end - text - 1);
      colon = end[1] == ':' ? end + 1 : NULL;
      if (end[1] != '\0' && colon == NULL)
        goto bad;
    }
  else
    {
      colon = strrchr (text, ':');
      if (colon != NULL && strchr (text, ':') != colon)
        colon = NULL; /* a bare IPv6 address */
      host = colon != NULL ? g_strndup (text, colon - text) : g_strdup (text);
    }
  if (colon != NULL && !g_ascii_string_to_unsigned (colon + 1, 10, 0, 65535, &value, NULL))
    goto bad;
  if (*host == '\0')
    {
      g_free (host);
      host = g_strdup (CS_HEP_DEFAULT_ADDRESS);
    }
  if (!g_hostname_is_ip_address (host))
    goto bad;
  *address = g_steal_pointer (&host);
  *port = (guint16) value;
  return TRUE;

bad:
  g_set_error (error, CS_LIVE_ERROR, CS_LIVE_ERROR_ADDRESS,
               "“%s” is not a listen address (use ADDRESS:PORT, e.g. 127.0.0.1:9060)", text);
  return FALSE;
}

static GSocket *
cs_hep_bind (GInetAddress *inet, guint16 port, GSocketType type, GSocketProtocol protocol,
             GError **error)
{
  g_autoptr (GSocketAddress) address = g_inet_socket_address_new (inet, port);
  g_autoptr (GSocket) socket = NULL;
  g_autoptr (GError) local = NULL;

  socket = g_socket_new (g_inet_address_get_family (inet), type, protocol, &local);
  if (socket == NULL || !g_socket_bind (socket, address, TRUE, &local)
      || (type == G_SOCKET_TYPE_STREAM && !g_socket_listen (socket, &local)))
    {
      g_autofree char *where = g_inet_address_to_string (inet);

      g_set_error (error, CS_LIVE_ERROR, CS_LIVE_ERROR_ADDRESS,
                   "Cannot listen for HEP on %s:%u (%s): %s", where, port,
                   type == G_SOCKET_TYPE_STREAM ? "TCP" : "UDP", local->message);
      return NULL;
    }
  g_socket_set_blocking (socket, FALSE);
  return g_steal_pointer (&socket);
}

static guint16
cs_hep_local_port (GSocket *socket)
{
  g_autoptr (GSocketAddress) local = g_socket_get_local_address (socket, NULL);

  return local != NULL ? g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (local)) : 0;
}

CsHepListener *
cs_hep_listener_new (const char *address, guint16 port, gboolean udp, gboolean tcp,
                     const char *auth_key, GError **error)
{
  g_autoptr (GInetAddress) inet = g_inet_address_new_from_string (address);
  CsHepListener *listener;

  if (inet == NULL)
    {
      g_set_error (error, CS_LIVE_ERROR, CS_LIVE_ERROR_ADDRESS, "“%s” is not an IP address",
                   address);
      return NULL;
    }
  listener = g_new0 (CsHepListener, 1);
  g_mutex_init (&listener->lock);
  listener->clients = g_ptr_array_new_with_free_func ((GDestroyNotify) cs_hep_client_free);
  listener->tcp_seq = cs_live_tcp_seq_new ();
  listener->auth_key = auth_key != NULL && *auth_key != '\0' ? g_strdup (auth_key) : NULL;
  listener->sources = cs_source_filter_new (CS_HEP_DEFAULT_MAX_RATE);
  listener->port = port;
  if (udp)
    {
      listener->udp
          = cs_hep_bind (inet, port, G_SOCKET_TYPE_DATAGRAM, G_SOCKET_PROTOCOL_UDP, error);
      if (listener->udp == NULL)
        goto fail;
      listener->port = cs_hep_local_port (listener->udp);
      /* SO_RCVBUFFORCE passes rmem_max when privileged; otherwise take what is allowed. */
      if (!g_socket_set_option (listener->udp, SOL_SOCKET, SO_RCVBUFFORCE, CS_HEP_UDP_RCVBUF, NULL))
        g_socket_set_option (listener->udp, SOL_SOCKET, SO_RCVBUF, CS_HEP_UDP_RCVBUF, NULL);
    }
  if (tcp)
    {
      listener->tcp
          = cs_hep_bind (inet, listener->port, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, error);
      if (listener->tcp == NULL)
        goto fail;
      listener->port = cs_hep_local_port (listener->tcp);
    }
  return listener;

fail:
  cs_hep_listener_free (listener);
  return NULL;
}

void
cs_hep_listener_free (CsHepListener *listener)
{
  if (listener == NULL)
    return;
  cs_hep_listener_stop (listener);
  if (listener->udp != NULL)
    g_socket_close (listener->udp, NULL);
  if (listener->tcp != NULL)
    g_socket_close (listener->tcp, NULL);
  g_clear_object (&listener->udp);
  g_clear_object (&listener->tcp);
  g_ptr_array_unref (listener->clients);
  cs_live_tcp_seq_free (listener->tcp_seq);
  g_free (listener->auth_key);
  cs_source_filter_free (listener->sources);
  g_mutex_clear (&listener->lock);
  g_free (listener);
}

gboolean
cs_hep_listener_allow (CsHepListener *listener, const char *cidr, GError **error)
{
  g_return_val_if_fail (listener->thread == NULL, FALSE);
  return cs_source_filter_allow (listener->sources, cidr, error);
}

guint
cs_hep_listener_get_n_allowed (CsHepListener *listener)
{
  return cs_source_filter_get_n_prefixes (listener->sources);
}

void
cs_hep_listener_set_max_rate (CsHepListener *listener, guint per_second)
{
  g_return_if_fail (listener->thread == NULL);
  cs_source_filter_set_max_rate (listener->sources, per_second);
}

guint16
cs_hep_listener_get_port (CsHepListener *listener)
{
  return listener->port;
}

void
cs_hep_listener_get_counters (CsHepListener *listener, CsHepCounters *out)
{
  g_mutex_lock (&listener->lock);
  *out = listener->counters;
  g_mutex_unlock (&listener->lock);
}

#define COUNT(listener, field)                                                                     \
  G_STMT_START                                                                                     \
  {                                                                                                \
    g_mutex_lock (&(listener)->lock);                                                              \
    (listener)->counters.field++;                                                                  \
    g_mutex_unlock (&(listener)->lock);                                                            \
  }                                                                                                \
  G_STMT_END

static gboolean
cs_hep_auth_ok (CsHepListener *listener, const CsHepPacket *hep)
{
  if (listener->auth_key == NULL)
    return TRUE;
  return hep->auth_key != NULL && hep->auth_key_len == strlen (listener->auth_key)
         && memcmp (hep->auth_key, listener->auth_key, hep->auth_key_len) == 0;
}

gboolean
cs_hep_listener_handle_packet (CsHepListener *listener, CsLiveSession *session, const guint8 *data,
                               gsize len, gint64 arrival_ns)
{
  CsHepPacket hep;
  g_autoptr (GByteArray) frame = NULL;
  guint8 ip_proto;

  COUNT (listener, received);
  if (!cs_hep_decode (data, len, &hep, NULL))
    {
      COUNT (listener, malformed);
      return FALSE;
    }
  if (!cs_hep_auth_ok (listener, &hep))
    {
      COUNT (listener, auth_failures);
      return FALSE;
    }
  if (hep.payload_type != CS_HEP_PROTO_SIP && hep.payload_type != CS_HEP_PROTO_RTCP)
    {
      /* QoS and log reports carry no packet to rebuild; they are accepted and counted. */
      COUNT (listener, qos);
      return TRUE;
    }
  /* RTCP always travels over UDP; SIP keeps the transport the agent saw. */
  ip_proto = hep.payload_type == CS_HEP_PROTO_SIP && hep.ip_proto == CS_IP_PROTO_TCP
                 ? CS_IP_PROTO_TCP
                 : CS_IP_PROTO_UDP;
  frame = cs_live_frame_build (&hep.src, &hep.dst, ip_proto, hep.payload, hep.payload_len,
                               listener->tcp_seq);
  if (frame == NULL)
    {
      COUNT (listener, malformed);
      return FALSE;
    }
  if (hep.payload_type == CS_HEP_PROTO_SIP)
    COUNT (listener, sip);
  else
    COUNT (listener, rtcp);
  cs_live_session_push_frame (session, CS_LINKTYPE_ETHERNET, hep.ts_ns > 0 ? hep.ts_ns : arrival_ns,
                              frame->data, frame->len, frame->len);
  return TRUE;
}

static gint64
cs_hep_now_ns (void)
{
  return g_get_real_time () * 1000;
}

/* The sender's address, NULL-safe; FALSE when it is not an IP address. */
static gboolean
cs_hep_source (GSocketAddress *from, CsAddr *out)
{
  GInetAddress *inet;
  gsize size;

  if (!G_IS_INET_SOCKET_ADDRESS (from))
    return FALSE;
  inet = g_inet_socket_address_get_address (G_INET_SOCKET_ADDRESS (from));
  size = g_inet_address_get_native_size (inet);
  if (size == 4)
    cs_addr_set_v4 (out, g_inet_address_to_bytes (inet));
  else if (size == 16)
    cs_addr_set_v6 (out, g_inet_address_to_bytes (inet));
  else
    return FALSE;
  return TRUE;
}

static gboolean
cs_hep_source_allowed (CsHepListener *listener, GSocketAddress *from)
{
  CsAddr addr;

  if (cs_source_filter_get_n_prefixes (listener->sources) == 0)
    return TRUE;
  return cs_hep_source (from, &addr) && cs_source_filter_allows (listener->sources, &addr);
}

/* The rate cap, before any decoding: a flood costs a counter, not a parse. */
static gboolean
cs_hep_within_rate (CsHepListener *listener)
{
  if (cs_source_filter_take (listener->sources, g_get_monotonic_time ()))
    return TRUE;
  COUNT (listener, received);
  COUNT (listener, rate_limited);
  return FALSE;
}

static void
cs_hep_read_udp (CsHepListener *listener)
{
  static guint8 buf[65536]; /* the listener thread is the only reader */
  gssize n;
  GSocketAddress *from = NULL;

  while ((n = g_socket_receive_from (listener->udp, &from, (char *) buf, sizeof buf, NULL, NULL))
         > 0)
    {
      if (!cs_hep_source_allowed (listener, from))
        {
          COUNT (listener, received);
          COUNT (listener, not_allowed);
        }
      else if (cs_hep_within_rate (listener))
        cs_hep_listener_handle_packet (listener, listener->session, buf, (gsize) n,
                                       cs_hep_now_ns ());
      g_clear_object (&from);
    }
  g_clear_object (&from);
}

/* Splits a TCP byte stream into HEP3 frames; garbage is skipped to the next "HEP3". */
static void
cs_hep_drain_tcp_buffer (CsHepListener *listener, CsHepClient *client)
{
  GByteArray *b = client->buffer;

  while (b->len >= CS_HEP3_HEADER_LEN)
    {
      guint total;

      if (memcmp (b->data, "HEP3", 4) != 0)
        {
          const guint8 *next = memmem (b->data + 1, b->len - 1, "HEP3", 4);
          guint skip = next != NULL ? (guint) (next - b->data) : b->len - 3;

          COUNT (listener, received);
          COUNT (listener, malformed);
          g_byte_array_remove_range (b, 0, skip);
          continue;
        }
      total = (guint) b->data[4] << 8 | b->data[5];
      if (total < CS_HEP3_HEADER_LEN)
        {
          COUNT (listener, received);
          COUNT (listener, malformed);
          g_byte_array_remove_range (b, 0, 4);
          continue;
        }
      if (b->len < total)
        return;
      if (cs_hep_within_rate (listener))
        cs_hep_listener_handle_packet (listener, listener->session, b->data, total,
                                       cs_hep_now_ns ());
      g_byte_array_remove_range (b, 0, total);
    }
}

/* FALSE when the connection is finished. */
static gboolean
cs_hep_read_client (CsHepListener *listener, CsHepClient *client)
{
  guint8 buf[16384];
  gssize n;
  g_autoptr (GError) error = NULL;

  while ((n = g_socket_receive (client->socket, (char *) buf, sizeof buf, NULL, &error)) > 0)
    {
      g_byte_array_append (client->buffer, buf, (guint) n);
      cs_hep_drain_tcp_buffer (listener, client);
      if (client->buffer->len > CS_HEP_TCP_BUFFER_MAX)
        return FALSE; /* cannot happen with HEP3 framing: a peer that lies */
    }
  if (n == 0)
    return FALSE;
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK);
}

static void
cs_hep_accept (CsHepListener *listener)
{
  GSocket *socket;

  while ((socket = g_socket_accept (listener->tcp, NULL, NULL)) != NULL)
    {
      CsHepClient *client;
      g_autoptr (GSocketAddress) peer = g_socket_get_remote_address (socket, NULL);

      if (!cs_hep_source_allowed (listener, peer))
        {
          COUNT (listener, not_allowed);
          g_socket_close (socket, NULL);
          g_object_unref (socket);
          continue;
        }
      if (listener->clients->len >= CS_HEP_MAX_TCP_CLIENTS)
        {
          g_socket_close (socket, NULL);
          g_object_unref (socket);
          continue;
        }
      g_socket_set_blocking (socket, FALSE);
      client = g_new0 (CsHepClient, 1);
      client->socket = socket;
      client->buffer = g_byte_array_new ();
      g_ptr_array_add (listener->clients, client);
      COUNT (listener, tcp_connections);
    }
}

static gpointer
cs_hep_listener_thread (gpointer user_data)
{
  CsHepListener *listener = user_data;

  while (!g_atomic_int_get (&listener->stop))
    {
      GPollFD fds[2 + CS_HEP_MAX_TCP_CLIENTS];
      guint n = 0, first_client;

      if (listener->udp != NULL)
        fds[n++] = (GPollFD){ g_socket_get_fd (listener->udp), G_IO_IN, 0 };
      if (listener->tcp != NULL)
        fds[n++] = (GPollFD){ g_socket_get_fd (listener->tcp), G_IO_IN, 0 };
      first_client = n;
      for (guint i = 0; i < listener->clients->len; i++)
        fds[n++] = (GPollFD){
          g_socket_get_fd (((CsHepClient *) g_ptr_array_index (listener->clients, i))->socket),
          G_IO_IN | G_IO_HUP | G_IO_ERR, 0
        };
      if (g_poll (fds, n, CS_HEP_POLL_MS) <= 0)
        continue;
      for (guint i = first_client; i < n; i++)
        if (fds[i].revents != 0)
          {
            CsHepClient *client = g_ptr_array_index (listener->clients, i - first_client);

            if (!cs_hep_read_client (listener, client))
              client->finished = TRUE;
          }
      for (guint i = listener->clients->len; i-- > 0;)
        if (((CsHepClient *) g_ptr_array_index (listener->clients, i))->finished)
          g_ptr_array_remove_index (listener->clients, i);
      if (listener->udp != NULL && fds[0].revents != 0)
        cs_hep_read_udp (listener);
      if (listener->tcp != NULL && fds[first_client - 1].revents != 0)
        cs_hep_accept (listener);
    }
  return NULL;
}

void
cs_hep_listener_start (CsHepListener *listener, CsLiveSession *session)
{
  g_return_if_fail (listener->thread == NULL);
  listener->session = g_object_ref (session);
  g_atomic_int_set (&listener->stop, 0);
  listener->thread = g_thread_new ("cs-hep-listener", cs_hep_listener_thread, listener);
}

void
cs_hep_listener_stop (CsHepListener *listener)
{
  if (listener->thread == NULL)
    return;
  g_atomic_int_set (&listener->stop, 1);
  g_thread_join (listener->thread);
  listener->thread = NULL;
  g_ptr_array_set_size (listener->clients, 0);
  g_clear_object (&listener->session);
}
