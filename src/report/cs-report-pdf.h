/* cs-report-pdf.h — the call report as PDF (cairo + Pango, A4): the same content as the
 * HTML report, vector ladders and graphs, each call starting on a new page */
#pragma once

#include <stdio.h>

#include "callscope-engine.h"
#include "cs-report.h"

G_BEGIN_DECLS

#define CS_REPORT_PDF_PAGE_WIDTH 595.0 /* A4 portrait, points */
#define CS_REPORT_PDF_PAGE_HEIGHT 842.0
#define CS_REPORT_PDF_MARGIN 40.0

/* Writes the PDF to out. n_calls == 0: every call (sections capped as in HTML). *n_pages (may
 * be NULL) gets the page count. progress (may be NULL) runs after each call section. */
gboolean cs_report_pdf_write (CsAnalysis *analysis, const guint *call_numbers, guint n_calls,
                              FILE *out, guint *n_pages, CsReportProgressFunc progress,
                              gpointer user_data, GError **error);

G_END_DECLS
