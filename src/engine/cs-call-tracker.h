/* cs-call-tracker.h — turns SIP messages, in capture order, into calls */
#pragma once

#include "cs-call.h"

G_BEGIN_DECLS

typedef struct _CsCallTracker CsCallTracker;

CsCallTracker *cs_call_tracker_new (void);
void cs_call_tracker_free (CsCallTracker *tracker);
/* Feeds one message (capture order). Returns the call it joined, or NULL for
 * messages that belong to no call (no Call-ID). Takes its own reference. */
CsCall *cs_call_tracker_add (CsCallTracker *tracker, CsSipMessage *msg);
/* Settles states at capture end; returns the calls in order of their first
 * message (transfer container: the array owns references to the calls). */
GPtrArray *cs_call_tracker_finish (CsCallTracker *tracker, gint64 capture_end_ns);
/* Calls created so far, in order. */
const GPtrArray *cs_call_tracker_get_calls (CsCallTracker *tracker);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsCallTracker, cs_call_tracker_free)

G_END_DECLS
