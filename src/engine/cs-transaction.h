/* cs-transaction.h — one SIP transaction of a call: request, responses, timing */
#pragma once

#include "cs-sip-message.h"

G_BEGIN_DECLS

typedef struct
{
  CsSipMethod method;
  const char *method_name; /* interned */
  guint32 cseq;
  guint transmissions;   /* request sent this many times (1 = no retransmission) */
  guint32 request_frame; /* first transmission */
  gint64 request_ns;
  guint32 first_response_frame; /* 0 = no response */
  gint64 first_response_ns;
  guint first_response_status;
  guint final_status; /* 0 = no final response */
  guint32 final_frame;
  gint64 final_ns;
} CsTransaction;

/* Time from the request to its first response / final response; < 0 when none. */
double cs_transaction_first_response_ms (const CsTransaction *t);
double cs_transaction_final_response_ms (const CsTransaction *t);

/* Transactions of one call, in order of their first request. */
typedef struct _CsTransactionLog CsTransactionLog;

CsTransactionLog *cs_transaction_log_new (void);
void cs_transaction_log_free (CsTransactionLog *log);
/* Feeds a message of the call; ACKs (no responses) are not transactions. */
void cs_transaction_log_add (CsTransactionLog *log, const CsSipMessage *msg);
guint cs_transaction_log_get_n (CsTransactionLog *log);
const CsTransaction *cs_transaction_log_get (CsTransactionLog *log, guint index);

G_END_DECLS
