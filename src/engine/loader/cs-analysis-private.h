/* cs-analysis-private.h — how the loader fills a CsAnalysis */
#pragma once

#include "cs-analysis.h"

G_BEGIN_DECLS

CsAnalysis *cs_analysis_new (CsCaptureSet *set);
CsCaptureStats *cs_analysis_get_stats_mutable (CsAnalysis *self);
void cs_analysis_set_damage (CsAnalysis *self, const GError *damage);
/* Where the index's clock aligner leaves the estimate (cs_point_clock_align's user data). */
CsPointClock **cs_analysis_point_clock_slot (CsAnalysis *self);
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
/* The real calls known so far, borrowed (the analysis keeps them): any thread. */
GPtrArray *cs_analysis_dup_calls (CsAnalysis *self);
gboolean cs_analysis_has_calls (CsAnalysis *self);
/* Main context only, once the load is complete: streams and findings into their models. */
void cs_analysis_publish_results (CsAnalysis *self);
/* Main context only: "published" turns TRUE (every real call is in the calls model). */
void cs_analysis_set_published (CsAnalysis *self);
/* Main context only, once the load is complete, all at once: streams and findings, then the
 * calls not yet in the model (a window's publisher, cs-publisher.c, paces its own). */
void cs_analysis_publish (CsAnalysis *self);

G_END_DECLS
