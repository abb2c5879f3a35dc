/* cs-homer-load.h — open a window of a Homer 7 store as a capture */
#pragma once

#include <gio/gio.h>

#include "cs-homer-query.h"
#include "loader/cs-loader.h"

G_BEGIN_DECLS

typedef struct
{
  guint64 rows;                              /* rows read (good and bad) */
  guint64 rows_per_table[CS_HOMER_N_TABLES]; /* of those, per cs_homer_tables */
  guint64 bad_rows;                          /* rows skipped as malformed */
  GPtrArray *bad_row_messages;               /* char*: the first CS_HOMER_MAX_BAD_MESSAGES */
  double fetch_seconds;                      /* reading the rows */
  double load_seconds;                       /* the engine's load of them */
} CsHomerStats;

#define CS_HOMER_MAX_BAD_MESSAGES 20

void cs_homer_stats_clear (CsHomerStats *stats);

/* Progress while reading rows (from the thread that reads them). */
typedef void (*CsHomerProgressFunc) (guint64 rows, double rows_per_second, gpointer user_data);

/* Reads the query's window into a pcapng file at path: one frame per row in capture order
 * (cs_homer_row_to_frame), each with a comment naming its node, table and row id. Rows that
 * cannot be right are skipped and counted in stats. CS_HOMER_ERROR_NO_ROWS when the window
 * holds no row. */
gboolean cs_homer_spool (const CsHomerQuery *query, const char *path, CsHomerProgressFunc progress,
                         gpointer user_data, GCancellable *cancellable, CsHomerStats *stats,
                         GError **error);

/* cs_homer_spool into a temporary file, then the loader's ordinary load of it (the same
 * parallel engine and caps as for a file; the file is removed, its mapping stays). */
CsAnalysis *cs_homer_load (CsLoader *loader, const CsHomerQuery *query,
                           CsHomerProgressFunc progress, gpointer user_data,
                           GCancellable *cancellable, CsHomerStats *stats, GError **error);

G_END_DECLS
