/* cs-calls-view.h — the sortable, filterable list of calls (a GtkColumnView) */
#pragma once

#include <gtk/gtk.h>

#include "callscope-engine.h"
#include "cs-view.h"

G_BEGIN_DECLS

#define CS_TYPE_CALLS_VIEW (cs_calls_view_get_type ())
G_DECLARE_FINAL_TYPE (CsCallsView, cs_calls_view, CS, CALLS_VIEW, CsView)

/* Shows the calls of the view's analysis; its streams and findings fill the codec and findings
 * columns and the filter's codec: and has: terms. */
GtkWidget *cs_calls_view_new (void);
/* Shows another list of CsCall instead (a live session's), or NULL. */
void cs_calls_view_set_calls (CsCallsView *self, GListModel *calls);
/* Restores and saves the visible columns ("calls-visible-columns"). */
void cs_calls_view_set_settings (CsCallsView *self, GSettings *settings);
/* Shows the other SIP exchanges (REGISTER, OPTIONS, SUBSCRIBE/NOTIFY, MESSAGE, PUBLISH…)
 * besides the calls (the "show-other-exchanges" property, "calls-show-other-exchanges" in
 * the settings, Other SIP Exchanges in the column menu). */
void cs_calls_view_set_show_other_exchanges (CsCallsView *self, gboolean show);
gboolean cs_calls_view_get_show_other_exchanges (CsCallsView *self);
/* While loading, an empty list says calls are still being looked for. */
void cs_calls_view_set_loading (CsCallsView *self, gboolean loading);
/* Filters with the filter language of cs-calls-filter.h ("state:rejected mos<3.5", or plain
 * words searched in From, To, Call-ID and User-Agent). A mistake is shown above the list and
 * the last good filter stays. */
void cs_calls_view_set_filter_text (CsCallsView *self, const char *text);
/* Shows only calls started in [from_ns, to_ns) (cs_loadtest_call_started_in), together with
 * the filter text; from == to clears. "has-time-range" is notified when a range comes or goes
 * (the bar above the list also clears it). */
void cs_calls_view_set_time_range (CsCallsView *self, gint64 from_ns, gint64 to_ns);
gboolean cs_calls_view_get_time_range (CsCallsView *self, gint64 *from_ns, gint64 *to_ns);
/* Selects only this call and scrolls to it; FALSE when it is not shown (filtered out).
 * NULL unselects everything. */
gboolean cs_calls_view_select_call (CsCallsView *self, CsCall *call);
/* Scrolls the row at this position (of the shown model) into view. */
void cs_calls_view_scroll_to (CsCallsView *self, guint position);
/* Sorts by the column with this id ("from", "mos", …; see calls-visible-columns). */
/* TRUE when a column sorts the list (else rows are in the calls' order). */
gboolean cs_calls_view_is_sorted (CsCallsView *self);
gboolean cs_calls_view_sort_by (CsCallsView *self, const char *column_id, GtkSortType order);
/* The mistake in the filter text, or NULL. */
const char *cs_calls_view_get_filter_error (CsCallsView *self);
/* The rows as shown: filtered and sorted. */
GListModel *cs_calls_view_get_shown_model (CsCallsView *self);
/* The multi-selection over the shown model. */
GtkSelectionModel *cs_calls_view_get_selection (CsCallsView *self);
/* Selected calls (CsCall refs) in shown order, at most 32. */
GPtrArray *cs_calls_view_dup_selected_calls (CsCallsView *self);
/* The first selected call, or NULL. "selected-call" is notified on every selection change. */
CsCall *cs_calls_view_get_selected_call (CsCallsView *self);
/* Translated name of a call state: "In call", "Rejected"… */
const char *cs_calls_view_state_label (CsCallState state);
/* CSS class that colours a state: state-good, state-degraded, state-bad, state-unknown. */
const char *cs_calls_view_state_css_class (CsCallState state);

/* Live sessions: scroll to the newest row whenever rows are added. */
void cs_calls_view_set_follow_new_rows (CsCallsView *self, gboolean follow);
gboolean cs_calls_view_follows_new_rows (CsCallsView *self);

G_END_DECLS
