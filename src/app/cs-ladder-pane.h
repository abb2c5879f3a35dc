/* cs-ladder-pane.h — the workspace's ladder: toolbar (legs, time column, export) over the view */
#pragma once

#include <gtk/gtk.h>

#include "callscope-engine.h"
#include "cs-calls-view.h"
#include "cs-detail-pane.h"
#include "cs-ladder-view.h"
#include "cs-view.h"

G_BEGIN_DECLS

#define CS_TYPE_LADDER_PANE (cs_ladder_pane_get_type ())
G_DECLARE_FINAL_TYPE (CsLadderPane, cs_ladder_pane, CS, LADDER_PANE, CsView)

/* The view's analysis gives the streams for the RTP lanes and the calls the legs are looked
 * for in. "calls-view" and "detail-pane" (set in cs-window.ui) are the two setters below. */
GtkWidget *cs_ladder_pane_new (void);
/* Shows these calls (CsCall*) merged; with one call and "Other legs" on, adds its legs. */
void cs_ladder_pane_set_calls (CsLadderPane *self, CsCall *const *calls, guint n_calls);
/* Follows the calls list's selection ("calls-view"). */
void cs_ladder_pane_follow_calls_view (CsLadderPane *self, CsCallsView *calls_view);
/* The selected message goes to this detail pane ("detail-pane"); Enter shows its Message tab.
 * The detail pane follows the analysis itself. */
void cs_ladder_pane_set_detail_pane (CsLadderPane *self, CsDetailPane *detail);
/* Restores and saves the time column ("ladder-time-mode"). */
void cs_ladder_pane_set_settings (CsLadderPane *self, GSettings *settings);
CsLadderView *cs_ladder_pane_get_view (CsLadderPane *self);
/* The line under the toolbar that says why each added leg is there, NULL while hidden. */
const char *cs_ladder_pane_get_leg_reasons (CsLadderPane *self);
/* Writes the ladder shown; the format follows the extension (.png .svg .pdf .txt). */
gboolean cs_ladder_pane_export (CsLadderPane *self, const char *path, GError **error);

G_END_DECLS
