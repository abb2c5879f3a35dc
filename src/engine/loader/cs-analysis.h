/* cs-analysis.h — everything one load found: captures, calls, streams, findings, totals */
#pragma once

#include <gio/gio.h>

#include "cs-call-list.h"
#include "calls/cs-stream.h"
#include "capture/cs-capture-set.h"
#include "capture/cs-capture-stats.h"
#include "points/cs-point-clock.h"

G_BEGIN_DECLS

#define CS_TYPE_ANALYSIS (cs_analysis_get_type ())
G_DECLARE_FINAL_TYPE (CsAnalysis, cs_analysis, CS, ANALYSIS, GObject)

CsCaptureSet *cs_analysis_get_capture_set (CsAnalysis *self);
/* GListModel of CsCall (a CsCallList) */
GListModel *cs_analysis_get_calls (CsAnalysis *self);
/* Of those, the calls proper (INVITE dialogs) and the other SIP exchanges (REGISTER,
 * OPTIONS, SUBSCRIBE/NOTIFY, MESSAGE, PUBLISH…): every count of "calls" uses these. */
guint cs_analysis_get_n_calls (CsAnalysis *self);
guint cs_analysis_get_n_other_exchanges (CsAnalysis *self);
/* GListModel of CsStream */
GListModel *cs_analysis_get_streams (CsAnalysis *self);
/* GListModel of CsFinding, sorted by first frame */
GListModel *cs_analysis_get_findings (CsAnalysis *self);
const CsCaptureStats *cs_analysis_get_stats (CsAnalysis *self);
/* RTCP packets seen (CsRtcpRef of rtp/cs-rtp-run.h), capture order; for trimmed exports. */
const GArray *cs_analysis_get_rtcp (CsAnalysis *self);
/* Non-NULL when reading stopped early because of damaged input. */
const GError *cs_analysis_get_damage (CsAnalysis *self);
/* The capture points' clocks when the files were read as points (cs_loader_set_points and
 * several files), else NULL. */
const CsPointClock *cs_analysis_get_point_clock (CsAnalysis *self);
/* TRUE once every call found is in the calls model ("published" notifies). */
gboolean cs_analysis_get_published (CsAnalysis *self);
/* Lookups in what the models hold (the app, the CLI and the reports use these), borrowed
 * from the models; NULL when there is none. A stream by id, a call by number, and a call
 * by number ("4") or else by Call-ID. */
CsStream *cs_analysis_lookup_stream (CsAnalysis *self, guint id);
CsCall *cs_analysis_lookup_call (CsAnalysis *self, guint number);
CsCall *cs_analysis_find_call (CsAnalysis *self, const char *number_or_call_id);
/* A call by Call-ID only (the first with it). */
CsCall *cs_analysis_find_call_id (CsAnalysis *self, const char *call_id);
/* Display name: "file.pcap" or "file.pcap + 2 more" */
char *cs_analysis_dup_title (CsAnalysis *self);

G_END_DECLS
