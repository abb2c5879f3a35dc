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
/* An RFC 4180 text field: quoted when it holds a comma, quote or line break, and a cell a
 * spreadsheet would run as a formula (starting with = + - @, tab or CR) neutralised as
 * OWASP recommends: quoted and prefixed with ' (so "=1+2" reads '=1+2 as text). */
void cs_csv_field (FILE *out, const char *value, gboolean last);
/* A numeric field, written as it is: "-1" stays a number a spreadsheet can sum. */
void cs_csv_number (FILE *out, const char *value, gboolean last);
/* TRUE when a spreadsheet would take the cell for a formula. */
gboolean cs_csv_cell_is_formula (const char *value);

G_END_DECLS
