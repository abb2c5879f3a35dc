/* cs-ip-reassembly.h — IPv4/IPv6 fragment reassembly with bounded memory */
#pragma once

#include <glib.h>

#include "cs-decode.h"

G_BEGIN_DECLS

/* Capture-time age after which an incomplete datagram is dropped. */
#define CS_IP_REASSEMBLY_TIMEOUT_NS (30 * G_GINT64_CONSTANT (1000000000))

typedef struct _CsIpReassembler CsIpReassembler;

/* max_bytes: total bytes held by incomplete datagrams; max_datagrams: how many may be pending.
 * When a cap would be exceeded the oldest datagram is evicted (and counted). 0 means a default
 * (16 MiB, 4096 datagrams). */
CsIpReassembler *cs_ip_reassembler_new (gsize max_bytes, guint max_datagrams);
void cs_ip_reassembler_free (CsIpReassembler *r);

/* Feeds a fragment (packet decoded with status FRAGMENT). When the datagram is complete returns
 * a new GBytes holding the whole IP payload (transport header included) and sets *first_frame
 * to the frame of its first fragment (the one at offset 0, which carries the transport header);
 * otherwise NULL. Datagrams are keyed by IP version, protocol, addresses and identification.
 * Out-of-order fragments, duplicates and overlaps (bytes already received win) are handled;
 * an incomplete datagram older than 30 s of capture time is dropped. first_frame may be NULL. */
GBytes *cs_ip_reassembler_add (CsIpReassembler *r, const CsPacket *packet, guint32 frame,
                               gint64 ts_ns, guint32 *first_frame);

/* Datagrams dropped to respect the caps. */
guint64 cs_ip_reassembler_get_evicted (CsIpReassembler *r);
/* Incomplete datagrams dropped after the timeout. */
guint64 cs_ip_reassembler_get_timed_out (CsIpReassembler *r);
/* Datagrams waiting for more fragments, and the bytes they hold. */
guint cs_ip_reassembler_get_pending (CsIpReassembler *r);
gsize cs_ip_reassembler_get_pending_bytes (CsIpReassembler *r);

G_END_DECLS
