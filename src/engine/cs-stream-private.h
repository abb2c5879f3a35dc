/* cs-stream-private.h — construction of CsStream by the stream binder */
#pragma once

#include "cs-stream.h"

G_BEGIN_DECLS

/* Takes ownership of packets; computes metrics and MOS at once. */
CsStream *cs_stream_new (guint id, const CsEndpoint *src, const CsEndpoint *dst, guint32 ssrc,
                         guint call_number, GArray *packets, const CsRtpClockMap *clocks,
                         const char *const *encoding_by_pt);
void cs_stream_set_id (CsStream *self, guint id);

G_END_DECLS
