/* cs-analysis.h — everything one load found: captures, calls, streams, findings, totals */
#pragma once

#include <gio/gio.h>

#include "cs-call-list.h"
#include "capture/cs-capture-set.h"
#include "base/cs-limits.h"

G_BEGIN_DECLS

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
  guint64 ip_fragments_evicted, tcp_streams_evicted;
  /* What the caps dropped (each reported as a dropped-state finding); limits: the caps in force. */
  CsLimits limits;
  guint64 call_limit_messages;   /* SIP messages of new calls refused at limits.max_calls */
  guint64 call_messages_dropped; /* messages not stored beyond limits.max_messages_per_call */
  guint64 rtp_flows_evicted;     /* single-packet flows evicted at limits.max_streams */
  guint64 rtp_packets_dropped;   /* packets of flows refused or evicted at limits.max_streams */
  guint64 orphan_messages_dropped;
  guint64 rtcp_packets_dropped; /* beyond CS_MAX_RTCP_PACKETS */
} CsCaptureStats;

#define CS_TYPE_ANALYSIS (cs_analysis_get_type ())
G_DECLARE_FINAL_TYPE (CsAnalysis, cs_analysis, CS, ANALYSIS, GObject)

CsCaptureSet *cs_analysis_get_capture_set (CsAnalysis *self);
/* GListModel of CsCall (a CsCallList) */
GListModel *cs_analysis_get_calls (CsAnalysis *self);
/* GListModel of CsStream */
GListModel *cs_analysis_get_streams (CsAnalysis *self);
/* GListModel of CsFinding, sorted by first frame */
GListModel *cs_analysis_get_findings (CsAnalysis *self);
const CsCaptureStats *cs_analysis_get_stats (CsAnalysis *self);
/* RTCP packets seen (CsRtcpRef of cs-chunk.h), capture order; for trimmed exports. */
const GArray *cs_analysis_get_rtcp (CsAnalysis *self);
/* Non-NULL when reading stopped early because of damaged input. */
const GError *cs_analysis_get_damage (CsAnalysis *self);
/* TRUE once every call found is in the calls model ("published" notifies). */
gboolean cs_analysis_get_published (CsAnalysis *self);
/* Display name: "file.pcap" or "file.pcap + 2 more" */
char *cs_analysis_dup_title (CsAnalysis *self);

G_END_DECLS
