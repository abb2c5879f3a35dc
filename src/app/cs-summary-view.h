/* cs-summary-view.h — capture totals, calls by state and final code, MOS, top findings */
#pragma once

#include <gtk/gtk.h>

#include "callscope-engine.h"

G_BEGIN_DECLS

#define CS_TYPE_SUMMARY_VIEW (cs_summary_view_get_type ())
G_DECLARE_FINAL_TYPE (CsSummaryView, cs_summary_view, CS, SUMMARY_VIEW, GtkWidget)

GtkWidget *cs_summary_view_new (void);
/* Shows the totals of a finished load; NULL shows that nothing is loaded. */
void cs_summary_view_set_analysis (CsSummaryView *self, CsAnalysis *analysis);

G_END_DECLS
