/* cs-call-loading.h — what the loader does to the calls it builds, beyond the tracker:
 * binding streams, keeping the worst MOS, copies for another thread (engine-internal) */
#pragma once

#include "cs-call.h"

G_BEGIN_DECLS

/* Binds stream stream_id to the call; a call sounds as bad as its worst direction, so
 * mos (< 0: none) replaces the call's when it is lower. */
void cs_call_add_stream (CsCall *self, guint stream_id, double mos);
/* One more finding is about the call. */
void cs_call_count_finding (CsCall *self);
/* TRUE once after each change since the last time it returned TRUE (the load thread only):
 * which calls need a fresh copy for another thread. */
gboolean cs_call_take_changed (CsCall *self);
/* An independent copy of the call as it is now, safe to hand to another
 * thread while this one keeps changing (transactions and streams are not
 * copied: they are complete only at the end of a load). */
CsCall *cs_call_snapshot (CsCall *self);

G_END_DECLS
