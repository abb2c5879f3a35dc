/* cs-rtp-metrics-private.h — the stats pass's pieces shared by its array and packed drivers */
#pragma once

#include "cs-rtp-metrics.h"

G_BEGIN_DECLS

/* GCC's SLP vectoriser pairs the usual-packet loops' doubles into vectors and spends more
 * shuffling them than it saves (−15 % instructions without it). */
#if defined(__GNUC__) && !defined(__clang__)
#define CS_NO_SLP_VECTORIZE __attribute__ ((optimize ("no-tree-slp-vectorize")))
#else
#define CS_NO_SLP_VECTORIZE
#endif

/* A whole-stream pass: the analyser on the thread's window of seen sequence numbers,
 * feeding jb (may be NULL) and filling marks (may be NULL) ... */
void cs_rtp_pass_begin (CsRtpAnalyser *a, CsRtpMarks *marks, CsJitterBuffer *jb);
/* ... and its results, the window zeroed again. */
void cs_rtp_pass_end (CsRtpAnalyser *a, const CsRtpClockMap *clocks, CsRtpStats *out,
                      CsRtpMarks *marks);
/* Marks the extended sequence numbers [from, to) seen (to − from < 65536). */
void cs_rtp_seen_set_range (guint8 *seen, guint32 from, guint32 to);

G_END_DECLS
