/* cs-hep-listener.h — receives HEP v2/v3 over UDP and TCP and feeds a live session */
#pragma once

#include <gio/gio.h>

#include "cs-live-session.h"

G_BEGIN_DECLS

#define CS_HEP_DEFAULT_ADDRESS "127.0.0.1"
#define CS_HEP_DEFAULT_PORT 9060
/* HEP packets per second taken before the rest is dropped (and counted): a busy proxy
 * sends a few thousand, a flood millions. */
#define CS_HEP_DEFAULT_MAX_RATE 50000

typedef struct
{
  guint64 received;      /* HEP packets read (UDP datagrams and TCP frames) */
  guint64 sip;           /* SIP payloads passed on */
  guint64 rtcp;          /* RTCP reports passed on */
  guint64 qos;           /* QoS/log reports (JSON and others) accepted, not analysed */
  guint64 malformed;     /* not HEP, lengths that lie, compressed, unusable addresses */
  guint64 auth_failures; /* wrong or missing authentication key */
  guint64 not_allowed;   /* from a source outside the allow-list (UDP packets, TCP connections) */
  guint64 rate_limited;  /* over the packets-per-second cap */
  guint64 tcp_connections;
} CsHepCounters;

typedef struct _CsHepListener CsHepListener;

/* Binds UDP and/or TCP on address:port (port 0 picks a free one; TCP then binds the port UDP
 * got). auth_key NULL accepts everything; otherwise packets must carry it (HEP3 chunk 14).
 * Errors: CS_LIVE_ERROR_ADDRESS. */
CsHepListener *cs_hep_listener_new (const char *address, guint16 port, gboolean udp, gboolean tcp,
                                    const char *auth_key, GError **error);
void cs_hep_listener_free (CsHepListener *listener);
/* Before start: accept only sources in these prefixes ("10.0.0.0/8", "2001:db8::/32", an
 * address); call once per prefix. Without any, every source is accepted (the default listen
 * address, loopback, only reaches local agents). Errors: CS_LIVE_ERROR_ADDRESS. */
gboolean cs_hep_listener_allow (CsHepListener *listener, const char *cidr, GError **error);
guint cs_hep_listener_get_n_allowed (CsHepListener *listener);
/* Before start: the cap in packets per second (CS_HEP_DEFAULT_MAX_RATE; 0: none). */
void cs_hep_listener_set_max_rate (CsHepListener *listener, guint per_second);
guint16 cs_hep_listener_get_port (CsHepListener *listener);

/* Receives on a thread of its own and pushes each SIP/RTCP payload to session as an Ethernet
 * frame with the original addresses, ports and time. */
void cs_hep_listener_start (CsHepListener *listener, CsLiveSession *session);
void cs_hep_listener_stop (CsHepListener *listener);
void cs_hep_listener_get_counters (CsHepListener *listener, CsHepCounters *out);

/* One HEP packet (a datagram, or one frame of a TCP stream): decoded, checked, pushed.
 * Returns FALSE when it was refused (and counted why). Thread: the listener's, or tests. */
gboolean cs_hep_listener_handle_packet (CsHepListener *listener, CsLiveSession *session,
                                        const guint8 *data, gsize len, gint64 arrival_ns);

/* Parses "ADDR:PORT", "[V6]:PORT", "ADDR" or ":PORT" (missing parts from the defaults). */
gboolean cs_hep_parse_listen_address (const char *text, char **address, guint16 *port,
                                      GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsHepListener, cs_hep_listener_free)

G_END_DECLS
