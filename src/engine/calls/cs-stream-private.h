/* cs-stream-private.h — construction of CsStream by the stream binder */
#pragma once

#include "cs-stream.h"

G_BEGIN_DECLS

/* Takes ownership of packets; encoding_by_pt (may be NULL) must stay valid
 * until cs_stream_measure (). Copies clocks. */
CsStream *cs_stream_new (guint id, const CsEndpoint *src, const CsEndpoint *dst, guint32 ssrc,
                         guint call_number, GArray *packets, const CsRtpClockMap *clocks,
                         const char *const *encoding_by_pt);
/* The same, taking ownership of n_packets records packed in one g_malloc block
 * (CsRtpPack data, with its slack) and a reference to shared_clocks (a g_atomic_rc_box):
 * the streams of calls with the same SDP formats share one map instead of a 768-byte copy
 * each. */
CsStream *cs_stream_new_sharing_clocks (guint id, const CsEndpoint *src, const CsEndpoint *dst,
                                        guint32 ssrc, guint call_number, guint8 *packed,
                                        guint32 n_packets, CsRtpClockMap *shared_clocks,
                                        const char *const *encoding_by_pt);
/* Computes metrics, codec and MOS; streams can be measured in parallel. */
void cs_stream_measure (CsStream *self);
void cs_stream_set_id (CsStream *self, guint id);
/* Takes ownership of rtcp (cs-stream-rtcp.h), replacing any earlier one. */
void cs_stream_set_rtcp (CsStream *self, CsStreamRtcp *rtcp);

G_END_DECLS
