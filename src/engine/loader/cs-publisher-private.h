/* cs-publisher-private.h — a publisher's steps one by one, as its loader drives them (and
 * tests do, without a load) */
#pragma once

#include "cs-analysis.h"
#include "cs-publisher.h"

G_BEGIN_DECLS

/* Load thread: copies of the calls changed since the last time, for the analysis being
 * loaded; an idle on the publisher's context shows them. Returns how many were staged. */
guint cs_publisher_stage (CsPublisher *self, CsAnalysis *analysis, const GPtrArray *calls);
/* Main context: shows the copies staged so far (what that idle does): a few items-changed
 * within the time budget, the rest from a later idle; nothing once the real calls are known. */
void cs_publisher_show_staged (CsPublisher *self);
/* Main context, the load done: the real calls in place of the copies, at once or in slices
 * (cs_publisher_set_in_slices), then "published". */
void cs_publisher_publish (CsPublisher *self, CsAnalysis *analysis);

G_END_DECLS
