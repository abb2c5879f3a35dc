/* cs-report-table.h — the calls table as aligned text or CSV */
#pragma once

#include <stdio.h>

#include "cs-analysis.h"

G_BEGIN_DECLS

void cs_report_table_calls_text (CsAnalysis *analysis, FILE *out);
void cs_report_table_calls_csv (CsAnalysis *analysis, FILE *out);
/* RFC 4180 field: quoted when it holds a comma, quote or line break. */
void cs_csv_field (FILE *out, const char *value, gboolean last);

G_END_DECLS
