/* cs-merge.h — the in-order reduce step: chunks, in capture order, into calls and streams */
#pragma once

#include "cs-analysis.h"
#include "calls/cs-call-tracker.h"
#include "cs-chunk.h"
#include "net/cs-tls-keylog.h"

G_BEGIN_DECLS

typedef struct _CsMerge CsMerge;

CsMerge *cs_merge_new (CsCaptureSet *set, CsCaptureStats *stats);
void cs_merge_free (CsMerge *merge);
/* Consumes chunk results; chunks must come in order. */
void cs_merge_add_chunk (CsMerge *merge, CsChunk *chunk);
CsCallTracker *cs_merge_get_tracker (CsMerge *merge);
/* TLS connections are decrypted with keylog (before the first chunk; NULL: listed only). */
void cs_merge_set_keylog (CsMerge *merge, CsTlsKeylog *keylog);
/* The TLS sessions seen (CsTlsSessionInfo, net/cs-tls-stream.h). */
const GArray *cs_merge_get_tls_sessions (CsMerge *merge);
/* RTP packets per stream key, in order of first packet (CsRtpRun*, owned by the merge). */
GPtrArray *cs_merge_get_rtp_runs (CsMerge *merge);
/* Threads used to measure streams (0 = one per processor). */
void cs_merge_set_threads (CsMerge *merge, guint n_threads);
/* Binds RTP runs to calls and computes their metrics (CsStream*, transfer full). */
GPtrArray *cs_merge_build_streams (CsMerge *merge);
/* Frees the RTP runs (~120 bytes each) once their streams are built, when the merge will
 * build no more (a live session builds again and keeps them). */
void cs_merge_drop_rtp_runs (CsMerge *merge);
/* cs_merge_build_streams then cs_merge_drop_rtp_runs, for a merge that builds no more
 * streams: the runs and the SDP announcements are freed before the streams are made, so
 * the streams and what follows reuse their memory. The merge takes later SDP afresh. */
GPtrArray *cs_merge_take_streams (CsMerge *merge);
/* SIP messages that belong to no call (no Call-ID). */
GPtrArray *cs_merge_get_orphans (CsMerge *merge);
/* Live sessions only: drops what the merge keeps for calls the tracker evicted (their SDP
 * announcements and the RTP runs bound to them). Returns the RTP packets dropped. */
guint64 cs_merge_forget_calls (CsMerge *merge, GPtrArray *calls);
/* RTCP packets seen (CsRtcpRef). */
GArray *cs_merge_get_rtcp (CsMerge *merge);

G_END_DECLS
