/* cs-load-view.h — the Load page: a load test over time, its breaking point, a
 * before/after comparison, and brushing a time range to pick the calls started in it */
#pragma once

#include <gtk/gtk.h>

#include "callscope-engine.h"
#include "cs-view.h"

G_BEGIN_DECLS

#define CS_TYPE_LOAD_VIEW (cs_load_view_get_type ())
G_DECLARE_FINAL_TYPE (CsLoadView, cs_load_view, CS, LOAD_VIEW, CsView)

/* Shows the load statistics of the view's analysis (a finished load), computed when the view
 * is first mapped or asked for its report; NULL empties the view. */
GtkWidget *cs_load_view_new (void);
/* The statistics shown (NULL when empty). */
const CsLoadReport *cs_load_view_get_report (CsLoadView *self);
/* Writes the load report as one HTML file (html) or the intervals as CSV; with a
 * comparison shown, the HTML report holds both runs and the verdict. */
gboolean cs_load_view_export (CsLoadView *self, const char *path, gboolean html, GError **error);
/* Shows a second capture's statistics on the same axes as the first, with a verdict
 * (NULL hides it). */
void cs_load_view_set_comparison (CsLoadView *self, CsAnalysis *other);
/* The brushed range; FALSE when none. */
gboolean cs_load_view_get_range (CsLoadView *self, gint64 *from_ns, gint64 *to_ns);
/* Selects a range as if brushed (from == to clears); emits "range-changed". */
void cs_load_view_select_range (CsLoadView *self, gint64 from_ns, gint64 to_ns);

/* Signal "range-changed" (gint64 from_ns, gint64 to_ns): the user brushed a time range
 * of the main capture; from == to == 0 when cleared. A calls list filters with
 * cs_loadtest_call_started_in (call, from_ns, to_ns). */

/* The first SIP retransmission (lowest frame) of any call in [from_ns, to_ns); 0 when none:
 * what a double click on an interval selects on the Packets page. */
guint32 cs_load_view_first_retransmission (CsLoadView *self, gint64 from_ns, gint64 to_ns);

G_END_DECLS
