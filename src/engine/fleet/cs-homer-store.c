/* cs-homer-store.c — libpq: connect, check the schema and partitions, read through a cursor */
#include "cs-homer-store.h"

#include <libpq-fe.h>
#include <string.h>

struct _CsHomerStore
{
  PGconn *conn;
  guint n_tables;
};

/* libpq's message without its trailing newline, first line only. */
static char *
server_message (PGconn *conn, PGresult *result)
{
  const char *text = result != NULL ? PQresultErrorMessage (result) : NULL;
  char *copy;

  if (text == NULL || *text == '\0')
    text = PQerrorMessage (conn);
  copy = g_strdup (text != NULL ? text : "");
  g_strstrip (copy);
  return copy;
}

static PGresult *
exec_params (CsHomerStore *store, const char *sql, int n, const char *const *params,
             ExecStatusType want, CsHomerError code, const char *what, GError **error)
{
  PGresult *result = PQexecParams (store->conn, sql, n, NULL, params, NULL, NULL, 0);

  if (PQresultStatus (result) != want)
    {
      g_autofree char *msg = server_message (store->conn, result);
      g_set_error (error, CS_HOMER_ERROR, code, "Homer database: %s failed: %s", what, msg);
      PQclear (result);
      return NULL;
    }
  return result;
}

static const char *const homer_columns[]
    = { "id", "sid", "create_date", "protocol_header", "data_header", "raw" };

/* TRUE when table exists; FALSE with *error set when it lacks a column, FALSE without one
 * when it is absent. */
static gboolean
check_table (CsHomerStore *store, const char *table, GError **error)
{
  const char *params[1] = { table };
  PGresult *result = exec_params (store,
                                  "SELECT a.attname FROM pg_attribute a JOIN pg_class c ON "
                                  "c.oid = a.attrelid WHERE c.relname = $1 AND c.relkind IN "
                                  "('r', 'p') AND pg_table_is_visible(c.oid) AND a.attnum > 0 "
                                  "AND NOT a.attisdropped",
                                  1, params, PGRES_TUPLES_OK, CS_HOMER_ERROR_SCHEMA,
                                  "reading the schema", error);
  gboolean found = TRUE;

  if (result == NULL)
    return FALSE;
  if (PQntuples (result) == 0)
    {
      PQclear (result);
      return FALSE;
    }
  for (guint c = 0; c < G_N_ELEMENTS (homer_columns) && found; c++)
    {
      found = FALSE;
      for (int r = 0; r < PQntuples (result) && !found; r++)
        found = strcmp (PQgetvalue (result, r, 0), homer_columns[c]) == 0;
      if (!found)
        g_set_error (error, CS_HOMER_ERROR, CS_HOMER_ERROR_SCHEMA,
                     "not a Homer 7 database: table %s has no column %s (heplify-server writes "
                     "id, sid, create_date, protocol_header, data_header, raw)",
                     table, homer_columns[c]);
    }
  PQclear (result);
  return found;
}

CsHomerStore *
cs_homer_store_open (const char *uri, GError **error)
{
  g_autoptr (CsHomerStore) store = g_new0 (CsHomerStore, 1);
  g_autoptr (GError) local = NULL;

  store->conn = PQconnectdb (uri);
  if (store->conn == NULL || PQstatus (store->conn) != CONNECTION_OK)
    {
      g_autofree char *msg
          = store->conn != NULL ? server_message (store->conn, NULL) : g_strdup ("out of memory");
      g_set_error (error, CS_HOMER_ERROR, CS_HOMER_ERROR_CONNECT,
                   "cannot connect to the Homer database: %s", msg);
      return NULL;
    }
  for (guint t = 0; t < CS_HOMER_N_TABLES; t++)
    {
      if (check_table (store, cs_homer_tables[t], &local))
        {
          store->n_tables = t + 1;
          continue;
        }
      if (local != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      if (t < CS_HOMER_N_SIP_TABLES)
        {
          g_set_error (error, CS_HOMER_ERROR, CS_HOMER_ERROR_SCHEMA,
                       "not a Homer 7 database: there is no table %s (database \"%s\"; "
                       "heplify-server creates it in its data database, usually homer_data)",
                       cs_homer_tables[t], PQdb (store->conn));
          return NULL;
        }
      break; /* no RTCP table: the SIP tables are read alone */
    }
  return g_steal_pointer (&store);
}

void
cs_homer_store_close (CsHomerStore *store)
{
  if (store == NULL)
    return;
  if (store->conn != NULL)
    PQfinish (store->conn);
  g_free (store);
}

guint
cs_homer_store_get_n_tables (CsHomerStore *store)
{
  return store->n_tables;
}

/* What of [$1, $2) no partition of table $3 holds, as a multirange's text ("{}" = all held);
 * NULL for a table that is not partitioned. The bounds are read from the partitions'
 * FOR VALUES FROM ('…') TO ('…') as heplify-server's rotator writes them. */
static const char coverage_sql[]
    = "WITH parts AS (SELECT pg_get_expr(c.relpartbound, c.oid) AS bound FROM pg_inherits i "
      "JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $3::regclass), "
      "ranges AS (SELECT CASE WHEN bound = 'DEFAULT' THEN tstzrange(NULL, NULL) ELSE "
      "tstzrange(substring(bound FROM 'FROM \\(''([^'']*)''\\)')::timestamptz, "
      "substring(bound FROM 'TO \\(''([^'']*)''\\)')::timestamptz) END AS r FROM parts) "
      "SELECT CASE WHEN (SELECT relkind FROM pg_class WHERE oid = $3::regclass) <> 'p' THEN NULL "
      "ELSE (tstzmultirange(tstzrange($1::timestamptz, $2::timestamptz)) - "
      "COALESCE((SELECT range_agg(r) FROM ranges), '{}'::tstzmultirange))::text END";

gboolean
cs_homer_store_check_window (CsHomerStore *store, const CsHomerQuery *query, GError **error)
{
  g_autofree char *from = cs_homer_format_time (query->from_us);
  g_autofree char *to = cs_homer_format_time (query->to_us);

  for (guint t = 0; t < store->n_tables; t++)
    {
      const char *params[3] = { from, to, cs_homer_tables[t] };
      PGresult *result = exec_params (store, coverage_sql, 3, params, PGRES_TUPLES_OK,
                                      CS_HOMER_ERROR_PARTITION, "reading the partitions", error);
      const char *gap;

      if (result == NULL)
        return FALSE;
      gap = PQgetisnull (result, 0, 0) ? "{}" : PQgetvalue (result, 0, 0);
      if (strcmp (gap, "{}") != 0)
        {
          g_set_error (error, CS_HOMER_ERROR, CS_HOMER_ERROR_PARTITION,
                       "no partition of %s holds %s of the window %s to %s: heplify-server's "
                       "rotator has not created it or has dropped it",
                       cs_homer_tables[t], gap, from, to);
          PQclear (result);
          return FALSE;
        }
      PQclear (result);
    }
  return TRUE;
}

static void
cancel_on_server (GCancellable *cancellable, gpointer user_data)
{
  char message[256];

  PQcancel (user_data, message, sizeof message);
}

static gboolean
read_cursor (CsHomerStore *store, guint batch, CsHomerRowFunc func, gpointer user_data,
             GCancellable *cancellable, GError **error)
{
  g_autofree char *fetch = g_strdup_printf ("FETCH FORWARD %u FROM cs_homer_window", batch);

  for (;;)
    {
      PGresult *result;
      int n;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      result = PQexec (store->conn, fetch);
      if (PQresultStatus (result) != PGRES_TUPLES_OK)
        {
          g_autofree char *msg = server_message (store->conn, result);
          PQclear (result);
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            return FALSE;
          g_set_error (error, CS_HOMER_ERROR, CS_HOMER_ERROR_QUERY,
                       "Homer database: fetching rows failed: %s", msg);
          return FALSE;
        }
      n = PQntuples (result);
      for (int r = 0; r < n; r++)
        {
          const char *values[CS_HOMER_N_COLS];
          int lengths[CS_HOMER_N_COLS];

          for (int c = 0; c < CS_HOMER_N_COLS; c++)
            {
              values[c] = PQgetisnull (result, r, c) ? NULL : PQgetvalue (result, r, c);
              lengths[c] = PQgetlength (result, r, c);
            }
          if (!func (values, lengths, user_data, error))
            {
              PQclear (result);
              return FALSE;
            }
        }
      PQclear (result);
      if (n < (int) batch)
        return TRUE;
    }
}

gboolean
cs_homer_store_read (CsHomerStore *store, const CsHomerQuery *query, guint batch,
                     CsHomerRowFunc func, gpointer user_data, GCancellable *cancellable,
                     GError **error)
{
  g_autoptr (GPtrArray) params = NULL;
  g_autofree char *select = cs_homer_query_build_sql (query, store->n_tables, &params);
  g_autofree char *declare
      = g_strdup_printf ("DECLARE cs_homer_window NO SCROLL CURSOR FOR %s", select);
  PGcancel *canceller = PQgetCancel (store->conn);
  gulong handler = 0;
  PGresult *result;
  gboolean ok;

  result = exec_params (store, "BEGIN TRANSACTION READ ONLY", 0, NULL, PGRES_COMMAND_OK,
                        CS_HOMER_ERROR_QUERY, "starting a read-only transaction", error);
  if (result == NULL)
    {
      PQfreeCancel (canceller);
      return FALSE;
    }
  PQclear (result);
  /* the window is sorted by time on the server: in memory rather than through temporary
   * files (140k rows: ~85 MB) — a setting of this transaction only, nothing is written */
  PQclear (PQexec (store->conn, "SET LOCAL work_mem = '256MB'"));
  if (cancellable != NULL && canceller != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (cancel_on_server), canceller, NULL);
  result = exec_params (store, declare, (int) params->len, (const char *const *) params->pdata,
                        PGRES_COMMAND_OK, CS_HOMER_ERROR_QUERY, "the window's query", error);
  ok = result != NULL && read_cursor (store, MAX (batch, 1u), func, user_data, cancellable, error);
  PQclear (result);
  if (handler != 0)
    g_cancellable_disconnect (cancellable, handler);
  PQfreeCancel (canceller);
  PQclear (PQexec (store->conn, "ROLLBACK"));
  return ok;
}
