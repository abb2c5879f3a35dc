/* cs-homer-store.h — a Homer 7 PostgreSQL store read through libpq, never written to */
#pragma once

#include <gio/gio.h>

#include "cs-homer-query.h"
#include "cs-homer-row.h"

G_BEGIN_DECLS

typedef struct _CsHomerStore CsHomerStore;

/* Connects (libpq URI or key=value string) and checks the Homer 7 schema: the SIP tables
 * with the columns heplify-server writes (id, sid, create_date, protocol_header,
 * data_header, raw); the RTCP table is read when present. Errors: CS_HOMER_ERROR_CONNECT,
 * _SCHEMA. */
CsHomerStore *cs_homer_store_open (const char *uri, GError **error);
void cs_homer_store_close (CsHomerStore *store);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsHomerStore, cs_homer_store_close)

/* How many tables the store's window reads (CS_HOMER_N_TABLES, or the SIP ones only). */
guint cs_homer_store_get_n_tables (CsHomerStore *store);

/* CS_HOMER_ERROR_PARTITION naming the table and the first stretch of [from, to) that no
 * partition holds (heplify-server's rotator had not made it, or has dropped it). */
gboolean cs_homer_store_check_window (CsHomerStore *store, const CsHomerQuery *query,
                                      GError **error);

/* Called for each row in capture order with its text columns (CS_HOMER_COL_*); return FALSE
 * with an error to stop. */
typedef gboolean (*CsHomerRowFunc) (const char *const values[CS_HOMER_N_COLS],
                                    const int lengths[CS_HOMER_N_COLS], gpointer user_data,
                                    GError **error);

/* Runs the window's query in a read-only transaction through a server-side cursor, fetching
 * batch rows at a time (memory stays one batch whatever the window). Cancellation gives
 * G_IO_ERROR_CANCELLED (a running fetch is cancelled on the server). */
gboolean cs_homer_store_read (CsHomerStore *store, const CsHomerQuery *query, guint batch,
                              CsHomerRowFunc func, gpointer user_data, GCancellable *cancellable,
                              GError **error);

G_END_DECLS
