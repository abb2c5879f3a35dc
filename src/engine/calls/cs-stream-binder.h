/* cs-stream-binder.h — binds RTP streams to calls through the SDP they announced */
#pragma once

#include "cs-call.h"
#include "rtp/cs-rtp-run.h"
#include "cs-stream.h"

G_BEGIN_DECLS

typedef struct _CsStreamBinder CsStreamBinder;

CsStreamBinder *cs_stream_binder_new (void);
void cs_stream_binder_free (CsStreamBinder *binder);
/* Records the media endpoints a message's SDP announces for its call (capture order). */
void cs_stream_binder_add_sdp (CsStreamBinder *binder, CsCall *call, const CsSipMessage *msg);
/* Turns RTP runs into streams: a flow whose source or destination was
 * announced by SDP before its packets belongs to that call (packets before the
 * announcement are not counted, as Wireshark does); other flows are
 * unassociated streams found by a heuristic. Stream ids are given in order of
 * first packet and recorded on their calls. Steals the runs' packet arrays.
 * Streams are measured on n_threads threads (0 = one per processor).
 * Returns CsStream* (transfer full). */
GPtrArray *cs_stream_binder_build (CsStreamBinder *binder, GPtrArray *runs, guint n_threads);
/* cs_stream_binder_build in two steps, for a load that builds its streams once: the plan
 * binds the runs and steals their packets, so the runs and the binder itself can be freed
 * before cs_stream_plan_build (which frees the plan) allocates the streams. */
typedef struct _CsStreamPlan CsStreamPlan;
CsStreamPlan *cs_stream_binder_plan (CsStreamBinder *binder, GPtrArray *runs);
GPtrArray *cs_stream_plan_build (CsStreamPlan *plan, guint n_threads);
/* Live eviction: the call whose SDP announced an endpoint of run by its newest packet, or NULL. */
CsCall *cs_stream_binder_get_run_call (CsStreamBinder *binder, const CsRtpRun *run);
/* Live eviction: forgets what the calls (a set of CsCall*) announced, so they may be freed. */
void cs_stream_binder_forget_calls (CsStreamBinder *binder, GHashTable *calls);

G_END_DECLS
