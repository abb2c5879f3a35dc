/* cs-findings-view.h — every finding with severity, kind, call, stream and text; filters; jumps to
 * frames */
#pragma once

#include <gtk/gtk.h>

#include "callscope-engine.h"
#include "cs-selection.h"
#include "cs-view.h"

G_BEGIN_DECLS

#define CS_TYPE_FINDINGS_VIEW (cs_findings_view_get_type ())
G_DECLARE_FINAL_TYPE (CsFindingsView, cs_findings_view, CS, FINDINGS_VIEW, CsView)

/* Every finding of the view's analysis. Signal "finding-activated" (CsFinding*): a row was
 * selected or activated, after the view's selection moved to its call, stream and first
 * frame. */
GtkWidget *cs_findings_view_new (void);
/* Filters: findings at least this severe; a kind (-1 = every kind). */
void cs_findings_view_set_min_severity (CsFindingsView *self, CsSeverity severity);
void cs_findings_view_set_kind_filter (CsFindingsView *self, int kind);
/* The rows as shown (filtered, sorted): identical findings (kind, severity, text) are one
 * row, their first, counting them ("▸ ×4500" in the Call column); activating it opens the
 * group (the others follow it) or closes it. */
GListModel *cs_findings_view_get_shown_model (CsFindingsView *self);
/* Opens or closes the group whose row is first; FALSE when first is no group's row. */
gboolean cs_findings_view_set_group_expanded (CsFindingsView *self, CsFinding *first,
                                              gboolean expanded);
/* How many findings the row of first stands for (1 when it is no group). */
guint cs_findings_view_get_group_size (CsFindingsView *self, CsFinding *first);
/* What activating a row does: selection ← (call, stream, first frame, its time). */
void cs_findings_view_activate (CsFindingsView *self, CsFinding *finding);
/* Selects the next row (direction 1) or the previous one (-1), wrapping round, and activates
 * its finding (win.next-finding / win.previous-finding: F8 / Shift+F8). */
void cs_findings_view_select_next (CsFindingsView *self, int direction);
/* "Loss burst" from "loss-burst". Free with g_free. */
char *cs_findings_view_kind_label (CsFindingKind kind);

G_END_DECLS
