/* cs-live-frame.h — synthesized Ethernet/IP/UDP|TCP frames for messages that arrived without one */
#pragma once

#include <glib.h>

#include "base/cs-addr.h"

G_BEGIN_DECLS

/* The largest payload a synthesized frame carries (IPv4's 16-bit total length). */
#define CS_LIVE_FRAME_MAX_PAYLOAD (65535u - 20u - 20u)

/* Per-direction TCP sequence numbers, so consecutive messages of one flow form a stream. */
typedef struct _CsLiveTcpSeq CsLiveTcpSeq;

CsLiveTcpSeq *cs_live_tcp_seq_new (void);
void cs_live_tcp_seq_free (CsLiveTcpSeq *seq);

/* Builds an Ethernet II frame (LINKTYPE_ETHERNET) carrying payload from src to dst over UDP
 * (ip_proto 17) or TCP (ip_proto 6, PSH|ACK, sequence from seq). The addresses' families must
 * match (4 or 6). Returns NULL when they do not, or the payload is too large. */
GByteArray *cs_live_frame_build (const CsEndpoint *src, const CsEndpoint *dst, guint8 ip_proto,
                                 const guint8 *payload, gsize len, CsLiveTcpSeq *seq);

G_END_DECLS
