/* cs-selection.h — the shared cursor: selected call, stream, frame and time, followed by every view
 */
#pragma once

#include <glib-object.h>

#include "callscope-engine.h"

G_BEGIN_DECLS

#define CS_TYPE_SELECTION (cs_selection_get_type ())
G_DECLARE_FINAL_TYPE (CsSelection, cs_selection, CS, SELECTION, GObject)

/* Properties (each notifies only when its value changes):
 *   "call"    CsCall*   the selected call, NULL for none
 *   "stream"  CsStream* the selected stream, NULL for none
 *   "frame"   guint     the selected frame (1-based), 0 for none
 *   "time-ns" gint64    capture time of the cursor (ns since the epoch), 0 for none
 * Views set what they know and listen to the rest; setting the same value
 * again does not notify, so views that follow each other do not loop. */
CsSelection *cs_selection_new (void);

CsCall *cs_selection_get_call (CsSelection *self);
void cs_selection_set_call (CsSelection *self, CsCall *call);
CsStream *cs_selection_get_stream (CsSelection *self);
void cs_selection_set_stream (CsSelection *self, CsStream *stream);
guint cs_selection_get_frame (CsSelection *self);
void cs_selection_set_frame (CsSelection *self, guint frame);
gint64 cs_selection_get_time_ns (CsSelection *self);
void cs_selection_set_time_ns (CsSelection *self, gint64 time_ns);

/* Frame and time together (one freeze/thaw: listeners see both new values). */
void cs_selection_set_cursor (CsSelection *self, guint frame, gint64 time_ns);
/* Everything at once, e.g. from a finding; NULL/0 clear that part. */
void cs_selection_select (CsSelection *self, CsCall *call, CsStream *stream, guint frame,
                          gint64 time_ns);
/* Back to nothing selected (a new capture). */
void cs_selection_clear (CsSelection *self);

G_END_DECLS
