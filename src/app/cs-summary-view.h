/* cs-summary-view.h — capture totals, calls by state and final code, MOS, top findings */
#pragma once

#include <gtk/gtk.h>

#include "callscope-engine.h"
#include "cs-view.h"

G_BEGIN_DECLS

#define CS_TYPE_SUMMARY_VIEW (cs_summary_view_get_type ())
G_DECLARE_FINAL_TYPE (CsSummaryView, cs_summary_view, CS, SUMMARY_VIEW, CsView)

/* Shows the totals of the view's analysis (a finished load); NULL shows that nothing is
 * loaded. */
GtkWidget *cs_summary_view_new (void);

G_END_DECLS
