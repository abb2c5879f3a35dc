/* cs-report.h — analysis results as JSON, text and CSV (the CLI contract) */
#pragma once

#include <stdio.h>

#include "cs-analysis.h"

G_BEGIN_DECLS

typedef enum {
  CS_REPORT_FORMAT_TEXT,
  CS_REPORT_FORMAT_CSV,
  CS_REPORT_FORMAT_JSON,
} CsReportFormat;

gboolean cs_report_format_parse (const char *name, CsReportFormat *out);

/* The full report: capture totals, calls (and later streams, findings). */
gboolean cs_report_write (CsAnalysis *analysis, CsReportFormat format, FILE *out);
/* Only the calls table. */
gboolean cs_report_write_calls (CsAnalysis *analysis, CsReportFormat format, FILE *out);

G_END_DECLS
