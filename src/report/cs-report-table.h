/* cs-report-table.h — calls, streams and findings as aligned text tables or CSV */
#pragma once

#include <stdio.h>

#include "callscope-engine.h"

G_BEGIN_DECLS

typedef enum
{
  CS_TABLE_CALLS,
  CS_TABLE_STREAMS,
  CS_TABLE_FINDINGS,
} CsTableKind;

void cs_report_table_text (CsAnalysis *analysis, CsTableKind kind, FILE *out);
void cs_report_table_csv (CsAnalysis *analysis, CsTableKind kind, FILE *out);
/* RFC 4180 field: quoted when it holds a comma, quote or line break. */
void cs_csv_field (FILE *out, const char *value, gboolean last);

G_END_DECLS
