/* cs-ws-stream.h — SIP over WebSocket (RFC 7118, RFC 6455): connections recognised by their
 * HTTP Upgrade offering the "sip" subprotocol on any port, their frames unmasked, fragments
 * joined, control frames set aside, permessage-deflate (RFC 7692) inflated; each WebSocket
 * message is handed on as one SIP message */
#pragma once

#include <glib.h>

#include "cs-decode.h"
#include "cs-tcp-reassembly.h"

G_BEGIN_DECLS

/* What one WebSocket connection showed. */
typedef struct
{
  CsEndpoint client, server;
  guint32 first_frame; /* the Upgrade request's */
  gboolean deflate;    /* permessage-deflate was negotiated */
  guint32 messages;    /* messages handed on */
  guint32 control_frames;
  guint32 bad_frames;      /* reserved opcodes, bad control frames, stray continuations */
  guint32 oversized;       /* messages over the size cap (frames skipped) */
  guint32 inflate_failed;  /* compressed messages that did not inflate, or inflated too big */
  guint32 first_bad_frame; /* capture frame of the first of the three above */
  gboolean lost_bytes;     /* a gap in the TCP stream: the rest is not followed */
} CsWsSessionInfo;

typedef struct _CsWsTracker CsWsTracker;

/* max_connections bounds the table; max_message bounds one message before and after
 * inflating (0: 256 KiB). */
CsWsTracker *cs_ws_tracker_new (guint max_connections, gsize max_message);
void cs_ws_tracker_free (CsWsTracker *tracker);
/* A TCP segment (or decrypted TLS bytes) in capture order: TRUE when it belongs to a
 * WebSocket connection, or to an HTTP request that may still become one (taken: the SIP
 * reassembler must not see it). func gets each whole message (packet: the segment that
 * completed it; first_frame: the segment that carried its first frame header). */
gboolean cs_ws_tracker_add (CsWsTracker *tracker, const CsPacket *packet, guint32 frame,
                            gint64 ts_ns, CsTcpMessageFunc func, gpointer user_data);
/* The connections upgraded (CsWsSessionInfo), in order of the server's 101. */
const GArray *cs_ws_tracker_get_sessions (CsWsTracker *tracker);

G_END_DECLS
