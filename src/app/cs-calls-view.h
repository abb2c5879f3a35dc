/* cs-calls-view.h — the sortable, filterable list of calls (a GtkColumnView) */
#pragma once

#include <gtk/gtk.h>

#include "cs-call.h"

G_BEGIN_DECLS

#define CS_TYPE_CALLS_VIEW (cs_calls_view_get_type ())
G_DECLARE_FINAL_TYPE (CsCallsView, cs_calls_view, CS, CALLS_VIEW, GtkWidget)

GtkWidget *cs_calls_view_new (void);
/* A GListModel of CsCall (usually cs_analysis_get_calls ()), or NULL. */
void cs_calls_view_set_calls (CsCallsView *self, GListModel *calls);
/* While loading, an empty list says calls are still being looked for. */
void cs_calls_view_set_loading (CsCallsView *self, gboolean loading);
/* Shows only calls whose From, To, Call-ID or method contain `text` (any case). */
void cs_calls_view_set_filter_text (CsCallsView *self, const char *text);
/* The rows as shown: filtered and sorted. */
GListModel *cs_calls_view_get_shown_model (CsCallsView *self);
/* The selected call, or NULL. Notified through "selected-call". */
CsCall *cs_calls_view_get_selected_call (CsCallsView *self);
/* Translated name of a call state: "In call", "Rejected"… */
const char *cs_calls_view_state_label (CsCallState state);
/* CSS class that colours a state: state-good, state-degraded, state-bad, state-unknown. */
const char *cs_calls_view_state_css_class (CsCallState state);

G_END_DECLS
