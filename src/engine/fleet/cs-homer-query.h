/* cs-homer-query.h — which rows of a Homer 7 store to open: a time window and search fields */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CS_HOMER_ERROR (cs_homer_error_quark ())

typedef enum
{
  CS_HOMER_ERROR_USAGE,     /* a query that cannot be asked (no window, bad time) */
  CS_HOMER_ERROR_CONNECT,   /* the server cannot be reached or refuses the login */
  CS_HOMER_ERROR_SCHEMA,    /* the database holds no Homer 7 tables, or other columns */
  CS_HOMER_ERROR_PARTITION, /* the window reaches time no partition holds */
  CS_HOMER_ERROR_QUERY,     /* the server failed the query or the fetch */
  CS_HOMER_ERROR_ROW,       /* a row that cannot be right (bad address, port, RTCP JSON) */
  CS_HOMER_ERROR_NO_ROWS,   /* nothing in the window matched */
} CsHomerError;

GQuark cs_homer_error_quark (void);

typedef struct
{
  char *uri;      /* libpq connection URI or "key=value" string */
  gint64 from_us; /* window [from, to) in microseconds since the Unix epoch */
  gint64 to_us;
  GPtrArray *call_ids; /* char*; rows whose sid (Call-ID, or RTCP correlation id) is one */
  char *from_user;     /* data_header fields heplify-server indexes */
  char *to_user;
  char *ruri_user;
  char *ip;   /* protocol_header srcIp or dstIp */
  char *node; /* protocol_header captureId: keeps only this capture point's rows */
} CsHomerQuery;

CsHomerQuery *cs_homer_query_new (const char *uri);
void cs_homer_query_free (CsHomerQuery *query);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsHomerQuery, cs_homer_query_free)

/* Parses a time for --from/--to: ISO 8601 ("2026-12-02T07:00:00Z", a space for the T, no
 * zone = UTC, fractions allowed) or Unix seconds ("1764658800.25"). */
gboolean cs_homer_parse_time (const char *text, gint64 *out_us, GError **error);
/* "2026-12-02 07:00:00.000000+00": a time as PostgreSQL reads a timestamptz (UTC). */
char *cs_homer_format_time (gint64 us);
/* Checks the window and the fields (CS_HOMER_ERROR_USAGE). */
gboolean cs_homer_query_check (const CsHomerQuery *query, GError **error);

/* The SELECT the cursor runs, its parameters in *params (char*, owned by the array), rows
 * ordered by capture time. Tables: the names of the Homer tables it reads, in its column
 * "tbl" order (the first n_tables of cs_homer_tables). */
char *cs_homer_query_build_sql (const CsHomerQuery *query, guint n_tables, GPtrArray **params);

/* The tables a window is read from: SIP (call, registration, default) then RTCP. */
extern const char *const cs_homer_tables[];
#define CS_HOMER_N_TABLES 4
#define CS_HOMER_N_SIP_TABLES 3

G_END_DECLS
