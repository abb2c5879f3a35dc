/* cs-tcp-reassembly.h — per-direction TCP stream reassembly with SIP message framing */
#pragma once

#include <glib.h>

#include "cs-decode.h"

G_BEGIN_DECLS

typedef struct _CsTcpReassembler CsTcpReassembler;

/* msg/len: one complete SIP message (start line through body per Content-Length / compact `l:`;
 * no Content-Length on TCP means body length 0). first_frame/last_frame: frames that carried its
 * first and last byte. packet: the segment that completed it (for addresses/ports). */
typedef void (*CsTcpMessageFunc) (const guint8 *msg, gsize len, const CsPacket *packet,
                                  guint32 first_frame, guint32 last_frame, gint64 ts_ns,
                                  gpointer user_data);

/* max_bytes_per_stream bounds both the unframed bytes and the out-of-order segments one direction
 * may hold; max_streams bounds the directions tracked (least recently used evicted). 0 means a
 * default (256 KiB, 4096). */
CsTcpReassembler *cs_tcp_reassembler_new (gsize max_bytes_per_stream, guint max_streams);
void cs_tcp_reassembler_free (CsTcpReassembler *r);

/* Feeds one TCP segment in capture order. Several messages in one segment, one message over
 * several segments, retransmitted/overlapping segments (dropped by sequence number), out-of-order
 * segments (held until the gap is filled, bounded), SYN/FIN/RST. Leading CRLF keep-alives skipped.
 * A stream whose bytes are not SIP (first line is not a SIP request/status line) is marked non-SIP
 * and ignored after that, holding no memory. A stream picked up without its SYN, or one that lost
 * bytes (a gap never filled, a cap exceeded), resynchronises on the next segment that starts with
 * a SIP start line. msg points into the reassembler's buffer: valid during the call only, and func
 * must not feed this reassembler. */
void cs_tcp_reassembler_add (CsTcpReassembler *r, const CsPacket *packet, guint32 frame,
                             gint64 ts_ns, CsTcpMessageFunc func, gpointer user_data);

/* Streams dropped for the stream cap while holding bytes, plus streams that lost bytes to the
 * per-stream cap. */
guint64 cs_tcp_reassembler_get_evicted (CsTcpReassembler *r);
/* Directions currently tracked (including closed and non-SIP ones, which hold no buffers). */
guint cs_tcp_reassembler_get_stream_count (CsTcpReassembler *r);

/* Whether data begins (after CR/LF) with something that can be a SIP request or status line:
 * 1 yes, 0 no, -1 not enough bytes to tell. Exposed for tests. */
int cs_tcp_sip_start_line_check (const guint8 *data, gsize len);

G_END_DECLS
