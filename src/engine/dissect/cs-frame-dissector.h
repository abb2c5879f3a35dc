/* cs-frame-dissector.h — the frames of an analysis dissected on demand: what the analysis
 * knows (which flows are RTP streams, their codecs and events, the RTCP it read, each
 * packet's delta, jitter, skew, loss and jitter-buffer verdict) joined to the bytes */
#pragma once

#include "loader/cs-analysis.h"
#include "cs-proto-tree.h"

G_BEGIN_DECLS

typedef struct _CsFrameDissector CsFrameDissector;

/* Keeps a reference to analysis. Use from one thread at a time. */
CsFrameDissector *cs_frame_dissector_new (CsAnalysis *analysis);
void cs_frame_dissector_free (CsFrameDissector *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsFrameDissector, cs_frame_dissector_free)

/* The whole tree of frame number (1-based); NULL when there is no such frame. */
CsProtoTree *cs_frame_dissector_tree (CsFrameDissector *self, guint32 number);
/* Only the list columns (cheap: no field is stored); NULL when there is no such frame. */
CsProtoTree *cs_frame_dissector_summary (CsFrameDissector *self, guint32 number);
/* The frame's record and bytes (NULL when there is no such frame). */
const guint8 *cs_frame_dissector_bytes (CsFrameDissector *self, guint32 number, CsFrame *frame);
/* Frame number's time relative to the first frame, in seconds (Wireshark's Time column). */
double cs_frame_dissector_relative_time (CsFrameDissector *self, const CsFrame *frame);

G_END_DECLS
