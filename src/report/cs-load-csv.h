/* cs-load-csv.h — a load report as CSV, one row per interval (CLI and the Load page) */
#pragma once

#include <stdio.h>

#include "callscope-engine.h"

G_BEGIN_DECLS

/* Header row, then one row per interval; FALSE when writing failed. */
gboolean cs_load_write_csv (const CsLoadReport *report, FILE *out);
/* The interval's symptoms as "retransmissions|slow_trying", "" when none. */
char *cs_load_symptoms_keys (guint symptoms);
/* The count of key in a string → count table (0 when absent). */
guint cs_load_count_of (GHashTable *table, const char *key);

G_END_DECLS
