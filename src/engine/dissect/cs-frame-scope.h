/* cs-frame-scope.h — the frames a view lists: of a call, a stream, a finding, a time range,
 * or those a BPF filter keeps (frame numbers, ascending, no duplicates) */
#pragma once

#include "calls/cs-call.h"
#include "calls/cs-stream.h"
#include "findings/cs-finding.h"
#include "loader/cs-analysis.h"

G_BEGIN_DECLS

/* Each returns a new GArray of guint32 frame numbers (free with g_array_unref). */

/* The stream's RTP packets (events included) and the RTCP frames attached to it. */
GArray *cs_frame_scope_stream (CsStream *stream);
/* The call's SIP messages (every frame of a message a TCP stream spread) and its streams. */
GArray *cs_frame_scope_call (CsAnalysis *analysis, CsCall *call);
/* Exactly the finding's frames. */
GArray *cs_frame_scope_finding (CsFinding *finding);
/* The frames captured in [from_ns, to_ns]. */
GArray *cs_frame_scope_time_range (CsCaptureSet *set, gint64 from_ns, gint64 to_ns);
/* The frames the set's filter marks keep (cs_capture_set_apply_filter). */
GArray *cs_frame_scope_kept (CsCaptureSet *set);

/* Writes frames (n numbers of set) to a pcapng file at path, one interface per link type, in
 * the order given: what "Open in Wireshark" hands over when it cannot open the whole file. */
gboolean cs_frame_scope_write_pcapng (CsCaptureSet *set, const guint32 *frames, guint n,
                                      const char *path, GError **error);

G_END_DECLS
