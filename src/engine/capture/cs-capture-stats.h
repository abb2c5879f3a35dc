/* cs-capture-stats.h — the totals of one load: frames, bytes, SIP and RTP counts, and what
 * the caps on state dropped */
#pragma once

#include <glib.h>

#include "base/cs-limits.h"

G_BEGIN_DECLS

#define CS_CAPTURE_STATS_TRANSPORTS 8

typedef struct
{
  guint n_files;
  guint64 packets; /* frames in all files */
  guint64 bytes;   /* captured bytes */
  guint64 sip_messages;
  guint64 rtp_packets;
  gint64 first_ns, last_ns;
  GHashTable *sip_methods;  /* method name (char*) → GUINT_TO_POINTER(count of requests) */
  GHashTable *sip_statuses; /* status code (GUINT_TO_POINTER) → GUINT_TO_POINTER(count) */
  guint64 malformed_sip;
  guint64 sip_transports[CS_CAPTURE_STATS_TRANSPORTS]; /* messages by CsSipTransport */
  guint64 ip_fragments_evicted, tcp_streams_evicted;
  guint64 esp_encrypted_packets; /* ESP whose payload is ciphertext: its SIP/RTP unreadable */
  /* What the caps dropped (each reported as a dropped-state finding); limits: the caps in force. */
  CsLimits limits;
  guint64 call_limit_messages;   /* SIP messages of new calls refused at limits.max_calls */
  guint64 call_messages_dropped; /* messages not stored beyond limits.max_messages_per_call */
  guint64 rtp_flows_evicted;     /* single-packet flows evicted at limits.max_streams */
  guint64 rtp_packets_dropped;   /* packets of flows refused or evicted at limits.max_streams */
  guint64 orphan_messages_dropped;
  guint64 rtcp_packets_dropped; /* beyond CS_MAX_RTCP_PACKETS */
} CsCaptureStats;

G_END_DECLS
