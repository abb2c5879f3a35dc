/* cs-analysis-private.h — how the loader fills a CsAnalysis */
#pragma once

#include "cs-analysis.h"

G_BEGIN_DECLS

CsAnalysis *cs_analysis_new (CsCaptureSet *set);
CsCaptureStats *cs_analysis_get_stats_mutable (CsAnalysis *self);
void cs_analysis_set_damage (CsAnalysis *self, const GError *damage);
/* Calls found by the merge, kept until published to the model. */
void cs_analysis_take_calls (CsAnalysis *self, GPtrArray *calls);
/* The same, moving the array's references in (calls is left empty). */
void cs_analysis_adopt_calls (CsAnalysis *self, GPtrArray *calls);
/* Streams (CsStream*) found by the merge; bound to their calls. */
void cs_analysis_take_streams (CsAnalysis *self, GPtrArray *streams);
/* Findings (CsFinding*); counted on their calls. */
void cs_analysis_take_findings (CsAnalysis *self, GPtrArray *findings);
/* The same, moving the array's references in instead of taking new ones (findings is
 * left empty): no visit to each finding only to count its references up and down. */
void cs_analysis_adopt_findings (CsAnalysis *self, GPtrArray *findings);
/* RTCP references kept by the merge (a GArray of CsRtcpRef; a reference is taken). */
void cs_analysis_set_rtcp (CsAnalysis *self, GArray *rtcp);
/* Load thread: copies of the calls changed since the last call, for the
 * GUI to show while loading. Returns how many were staged. */
guint cs_analysis_stage_snapshots (CsAnalysis *self, const GPtrArray *calls);
/* While loading, main context only: shows the copies staged since the last time (a few
 * items-changed, whatever their number); nothing once the real calls are known. */
void cs_analysis_publish_snapshots (CsAnalysis *self);
/* Main context only, once the load is complete: streams and findings, then the real calls
 * in place of the copies shown, then the calls not yet in the model. */
void cs_analysis_publish (CsAnalysis *self);
/* The same for a window: the real calls take their rows in slices, from idles within a time
 * budget; "published" turns TRUE after the last one. */
void cs_analysis_publish_in_slices (CsAnalysis *self);

G_END_DECLS
