/* cs-homer-row.h — one row of a Homer 7 table, and the frame it is replayed as */
#pragma once

#include <glib.h>

#include "base/cs-addr.h"

G_BEGIN_DECLS

/* The columns the store's cursor returns, in order (cs_homer_query_build_sql). */
enum
{
  CS_HOMER_COL_TABLE,
  CS_HOMER_COL_ID,
  CS_HOMER_COL_SID,
  CS_HOMER_COL_TS_SEC,
  CS_HOMER_COL_TS_USEC,
  CS_HOMER_COL_CREATED_US,
  CS_HOMER_COL_SRC_IP,
  CS_HOMER_COL_DST_IP,
  CS_HOMER_COL_SRC_PORT,
  CS_HOMER_COL_DST_PORT,
  CS_HOMER_COL_PROTO,
  CS_HOMER_COL_NODE,
  CS_HOMER_COL_RAW,
  CS_HOMER_N_COLS
};

typedef struct
{
  guint table;    /* index into cs_homer_tables */
  const char *id; /* the row's id (text, borrowed) */
  gint64 ts_us;   /* capture time: protocol_header timeSeconds/timeUseconds, else create_date */
  CsEndpoint src, dst;
  guint8 ip_proto;  /* protocol_header protocol: 17 UDP, 6 TCP, … */
  const char *node; /* protocol_header captureId, "" when absent (borrowed) */
  const char *raw;  /* the stored message (SIP text, or heplify's RTCP JSON) */
  gsize raw_len;
} CsHomerRow;

/* Fills row from the text columns of one result row (values[i] NULL for SQL NULL).
 * CS_HOMER_ERROR_ROW naming the table, row id and column when a value cannot be right. */
gboolean cs_homer_row_parse (const char *const values[CS_HOMER_N_COLS],
                             const int lengths[CS_HOMER_N_COLS], CsHomerRow *row, GError **error);

/* The frame the row is written as (Ethernet): SIP over UDP as the UDP datagram it was, SIP
 * over TCP or another transport as HEP3 on UDP 9060 (one whole message, as the collector got
 * it), RTCP rows as the binary RTCP heplify's JSON describes. Replaces out's contents. */
gboolean cs_homer_row_to_frame (const CsHomerRow *row, GByteArray *out, GError **error);

/* "Homer node N, hep_proto_1_call row 123": the frame comment that names where it came from. */
char *cs_homer_row_describe (const CsHomerRow *row);

G_END_DECLS
