/* cs-tls-stream.h — TLS connections over TCP: recognised by their ClientHello on any port,
 * their handshake read (SNI, version, cipher), their records decrypted with a key log and
 * handed on as the plain bytes of the TCP stream */
#pragma once

#include <glib.h>

#include "cs-decode.h"
#include "cs-tls-keylog.h"

G_BEGIN_DECLS

/* One TLS session as the capture shows it, whether or not it could be opened. */
typedef struct
{
  CsEndpoint client, server;
  char sni[64];            /* server name from the ClientHello ("" if none) */
  guint16 version;         /* 0x0303 TLS 1.2, 0x0304 TLS 1.3 (0 until the ServerHello) */
  guint16 cipher;          /* IANA number of the negotiated suite */
  const char *cipher_name; /* its name when callscope can decrypt it, else NULL */
  guint64 bytes[2];        /* record bytes client → server, server → client */
  guint32 first_frame;     /* the ClientHello's */
  gboolean keys_found;     /* the key log had this session's secrets */
  guint32 records_decrypted, records_failed;
  guint32 first_failed_frame;
  gboolean lost_bytes; /* a gap or overlap the tracker could not follow */
} CsTlsSessionInfo;

/* Called with decrypted application data of one direction: packet carries that direction's
 * addresses and ports; tcp_seq is where the plain bytes continue the direction's TCP
 * sequence space (the first plain byte at the first payload byte's number). */
typedef void (*CsTlsPlainFunc) (const CsPacket *packet, const guint8 *plain, gsize len,
                                guint32 frame, gint64 ts_ns, gpointer user_data);

typedef struct _CsTlsTracker CsTlsTracker;

/* keylog may be NULL (sessions are still listed); max_connections bounds the table. */
CsTlsTracker *cs_tls_tracker_new (CsTlsKeylog *keylog, guint max_connections);
void cs_tls_tracker_free (CsTlsTracker *tracker);
/* A TCP segment in capture order: TRUE when it belongs to a TLS connection (it was taken:
 * the SIP reassembler must not see its ciphertext). */
gboolean cs_tls_tracker_add (CsTlsTracker *tracker, const CsPacket *packet, guint32 frame,
                             gint64 ts_ns, CsTlsPlainFunc func, gpointer user_data);
/* The sessions seen (CsTlsSessionInfo), in order of their ClientHello. */
const GArray *cs_tls_tracker_get_sessions (CsTlsTracker *tracker);
/* TLS sessions beyond the connection cap, not followed. */
guint cs_tls_tracker_get_dropped (CsTlsTracker *tracker);

/* "TLS 1.2", "TLS 1.3", or "TLS" for anything else */
const char *cs_tls_version_to_string (guint16 version);

G_END_DECLS
