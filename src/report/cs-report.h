/* cs-report.h — analysis results as JSON, text and CSV (the CLI contract) */
#pragma once

#include <stdio.h>

#include "cs-analysis.h"
#include "cs-report-table.h"

G_BEGIN_DECLS

typedef enum
{
  CS_REPORT_FORMAT_TEXT,
  CS_REPORT_FORMAT_CSV,
  CS_REPORT_FORMAT_JSON,
} CsReportFormat;

gboolean cs_report_format_parse (const char *name, CsReportFormat *out);

/* The full report: capture totals, calls, streams, findings. CSV gives the calls table. */
gboolean cs_report_write (CsAnalysis *analysis, CsReportFormat format, FILE *out);
/* One table: calls, streams or findings. */
gboolean cs_report_write_table (CsAnalysis *analysis, CsTableKind kind, CsReportFormat format,
                                FILE *out);

G_END_DECLS
