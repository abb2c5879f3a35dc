/* cs-call-tracker.h — turns SIP messages, in capture order, into calls */
#pragma once

#include "cs-call.h"

G_BEGIN_DECLS

typedef struct _CsCallTracker CsCallTracker;

CsCallTracker *cs_call_tracker_new (void);
void cs_call_tracker_free (CsCallTracker *tracker);
/* Caps (0 = none, the default): calls created — messages that would start a
 * call beyond it are refused (NULL) and counted — and messages stored per call. */
void cs_call_tracker_set_limits (CsCallTracker *tracker, guint max_calls,
                                 guint max_messages_per_call);
/* Messages refused at the call cap. */
guint64 cs_call_tracker_get_refused_messages (CsCallTracker *tracker);
/* Messages not stored in their call at the per-call cap (they still moved its state). */
guint64 cs_call_tracker_get_dropped_messages (CsCallTracker *tracker);
/* Feeds one message (capture order). Returns the call it joined, or NULL for
 * messages that belong to no call (no Call-ID) or refused at the call cap. Takes its own reference.
 */
CsCall *cs_call_tracker_add (CsCallTracker *tracker, CsSipMessage *msg);
/* Settles states at capture end; returns the calls in order of their first
 * message (transfer container: the array owns references to the calls). */
GPtrArray *cs_call_tracker_finish (CsCallTracker *tracker, gint64 capture_end_ns);
/* Calls created so far, in order. */
const GPtrArray *cs_call_tracker_get_calls (CsCallTracker *tracker);

/* Calls numbered so far (evicted ones included). */
guint cs_call_tracker_get_n_created (CsCallTracker *tracker);

/* Live sessions keep memory bounded with this; file loads never call it.
 * Removes calls that are over (completed, cancelled, rejected, failed) and whose last message
 * is before older_than_ns, oldest first, until no more than keep_max calls remain (0: every
 * such call). Later messages of an evicted dialog start a new call; the remaining calls keep
 * their numbers and new ones go on counting. Each evicted call's reference is appended to
 * evicted_out (give it g_object_unref as free func), or dropped when it is NULL, so that what
 * points at them (stream binder, lists) can let go. Returns how many were evicted. */
guint cs_call_tracker_evict_finished (CsCallTracker *tracker, gint64 older_than_ns, guint keep_max,
                                      GPtrArray *evicted_out);
/* Calls evicted so far. */
guint64 cs_call_tracker_get_evicted_calls (CsCallTracker *tracker);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsCallTracker, cs_call_tracker_free)

G_END_DECLS
