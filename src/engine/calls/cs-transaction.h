/* cs-transaction.h — one SIP transaction of a call: request, responses, timing */
#pragma once

#include "sip/cs-sip-message.h"

G_BEGIN_DECLS

/* Fields ordered so the struct has no padding (64 bytes). */
typedef struct
{
  CsSipMethod method;
  guint32 cseq;
  const char *method_name; /* interned (or a constant for known methods) */
  guint transmissions;     /* request sent this many times (1 = no retransmission) */
  guint32 request_frame;   /* first transmission */
  gint64 request_ns;
  guint32 first_response_frame; /* 0 = no response */
  guint first_response_status;
  gint64 first_response_ns;
  guint final_status; /* 0 = no final response */
  guint32 final_frame;
  gint64 final_ns;
} CsTransaction;

/* Time from the request to its first response / final response; < 0 when none. */
double cs_transaction_first_response_ms (const CsTransaction *t);
double cs_transaction_final_response_ms (const CsTransaction *t);

typedef struct _CsTransactionEntry CsTransactionEntry;

/* Transactions of one call, in order of their first request. Embedded in its call
 * (no allocation until the first transaction); the requests that key the
 * transactions are not referenced: the call keeps them. */
typedef struct
{
  CsTransactionEntry *entries;
  guint n, cap;
  GHashTable *index; /* NULL, or for long logs: request (by key) → position + 1 */
} CsTransactionLog;

void cs_transaction_log_init (CsTransactionLog *log);
void cs_transaction_log_clear (CsTransactionLog *log);
/* Feeds a message of the call, which must outlive the log; ACKs (no responses) are not
 * transactions. */
void cs_transaction_log_add (CsTransactionLog *log, const CsSipMessage *msg);
guint cs_transaction_log_get_n (const CsTransactionLog *log);
const CsTransaction *cs_transaction_log_get (const CsTransactionLog *log, guint index);

G_END_DECLS
