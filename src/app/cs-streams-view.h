/* cs-streams-view.h — every RTP stream of the capture with its metrics, sortable; selects streams
 */
#pragma once

#include <gtk/gtk.h>

#include "callscope-engine.h"
#include "cs-selection.h"
#include "cs-view.h"

G_BEGIN_DECLS

#define CS_TYPE_STREAMS_VIEW (cs_streams_view_get_type ())
G_DECLARE_FINAL_TYPE (CsStreamsView, cs_streams_view, CS, STREAMS_VIEW, CsView)

GtkWidget *cs_streams_view_new (void);
/* Every stream of the view's analysis (associated and not); NULL shows the empty state.
 * Selecting a row sets the selection's stream (and its call); the row follows the selection's
 * stream when another view changes it. */
/* The streams as shown (sorted). */
GListModel *cs_streams_view_get_shown_model (CsStreamsView *self);
/* Selects the row of a stream id; FALSE when not listed. */
gboolean cs_streams_view_select_stream (CsStreamsView *self, guint stream_id);
/* "good", "degraded", "bad" or "unknown" for a MOS (< 0: unknown); shared with the summary. */
const char *cs_streams_view_mos_css_class (double mos);
/* The colour of a stream's MOS cell: its MOS class, no better than its timing (max jitter
 * and arrival gaps against the findings' thresholds). */
const char *cs_streams_view_quality_css_class (CsStream *stream);

G_END_DECLS
