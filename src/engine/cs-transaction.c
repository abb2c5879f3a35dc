/* cs-transaction.c — SIP transactions matched by top Via branch, CSeq and method */
#include "cs-transaction.h"

#include <string.h>

struct _CsTransactionLog
{
  GArray *transactions; /* CsTransaction */
  GArray *requests;     /* CsSipMessage* that opened each transaction (its key); a GArray
                         * because a GPtrArray reserves 16 slots, calls have 2–4 */
  GHashTable *index;    /* NULL, or for long logs: request (by key) → position + 1 */
};

double
cs_transaction_first_response_ms (const CsTransaction *t)
{
  return t->first_response_frame != 0 ? (t->first_response_ns - t->request_ns) / 1e6 : -1;
}

double
cs_transaction_final_response_ms (const CsTransaction *t)
{
  return t->final_status != 0 ? (t->final_ns - t->request_ns) / 1e6 : -1;
}

static void
cs_transaction_clear_request (gpointer element)
{
  cs_sip_message_unref (*(CsSipMessage **) element);
}

CsTransactionLog *
cs_transaction_log_new (void)
{
  CsTransactionLog *log = g_new0 (CsTransactionLog, 1);

  log->transactions = g_array_new (FALSE, TRUE, sizeof (CsTransaction));
  log->requests = g_array_new (FALSE, FALSE, sizeof (CsSipMessage *));
  g_array_set_clear_func (log->requests, cs_transaction_clear_request);
  return log;
}

void
cs_transaction_log_free (CsTransactionLog *log)
{
  if (log == NULL)
    return;
  g_array_unref (log->transactions);
  g_clear_pointer (&log->index, g_hash_table_unref);
  g_array_unref (log->requests);
  g_free (log);
}

/* A transaction's key: an RFC 3261 branch names the transaction on its own (with the
 * method), even when a broken CSeq in the request no longer matches its responses;
 * otherwise branch, CSeq and method. NULL and "" alike. Compared field by field, so
 * nothing is allocated per message. */
static const char *
or_empty (const char *s)
{
  return s != NULL ? s : "";
}

static const char *
key_method (const CsSipMessage *msg)
{
  return or_empty (msg->is_request ? msg->method_name : msg->cseq_method_name);
}

static gboolean
key_is_rfc3261 (const CsSipMessage *msg)
{
  return msg->via_branch != NULL && g_str_has_prefix (msg->via_branch, "z9hG4bK");
}

static guint
key_hash (gconstpointer data)
{
  const CsSipMessage *msg = data;
  guint h = g_str_hash (or_empty (msg->via_branch)) * 31u + g_str_hash (key_method (msg));

  return key_is_rfc3261 (msg) ? h : h * 31u + msg->cseq + 1u;
}

static gboolean
key_equal (gconstpointer a_data, gconstpointer b_data)
{
  const CsSipMessage *a = a_data, *b = b_data;

  if (strcmp (or_empty (a->via_branch), or_empty (b->via_branch)) != 0
      || strcmp (key_method (a), key_method (b)) != 0)
    return FALSE;
  return key_is_rfc3261 (a) || a->cseq == b->cseq; /* same branch: same prefix test */
}

/* Calls have few transactions: a linear scan up to this many, a hash table beyond. */
#define CS_TRANSACTION_SCAN 16

/* position + 1 of msg's transaction, 0 when none */
static guint
cs_transaction_log_find (CsTransactionLog *log, const CsSipMessage *msg)
{
  if (log->index != NULL)
    return GPOINTER_TO_UINT (g_hash_table_lookup (log->index, msg));
  for (guint i = 0; i < log->requests->len; i++)
    if (key_equal (g_array_index (log->requests, CsSipMessage *, i), msg))
      return i + 1;
  return 0;
}

static void
cs_transaction_log_index (CsTransactionLog *log, const CsSipMessage *request)
{
  CsSipMessage *ref = cs_sip_message_ref ((CsSipMessage *) request);

  g_array_append_val (log->requests, ref);
  if (log->index == NULL && log->requests->len > CS_TRANSACTION_SCAN)
    {
      log->index = g_hash_table_new (key_hash, key_equal);
      for (guint i = 0; i + 1 < log->requests->len; i++)
        g_hash_table_insert (log->index, g_array_index (log->requests, CsSipMessage *, i),
                             GUINT_TO_POINTER (i + 1));
    }
  if (log->index != NULL)
    g_hash_table_insert (log->index, (gpointer) request, GUINT_TO_POINTER (log->requests->len));
}

void
cs_transaction_log_add (CsTransactionLog *log, const CsSipMessage *msg)
{
  guint position;
  CsTransaction *t;

  if ((msg->is_request ? msg->method : msg->cseq_method) == CS_SIP_METHOD_ACK)
    return;
  position = cs_transaction_log_find (log, msg);
  if (position == 0)
    {
      CsTransaction fresh = { 0 };

      if (!msg->is_request)
        return; /* a response whose request was not captured */
      fresh.method = msg->method;
      fresh.method_name = g_intern_string (msg->method_name);
      fresh.cseq = msg->cseq;
      fresh.request_frame = msg->frame;
      fresh.request_ns = msg->ts_ns;
      g_array_append_val (log->transactions, fresh);
      position = log->transactions->len;
      cs_transaction_log_index (log, msg);
    }
  t = &g_array_index (log->transactions, CsTransaction, position - 1);
  if (msg->is_request)
    {
      t->transmissions++;
      return;
    }
  if (t->first_response_frame == 0)
    {
      t->first_response_frame = msg->frame;
      t->first_response_ns = msg->ts_ns;
      t->first_response_status = msg->status_code;
    }
  if (msg->status_code >= 200 && t->final_status == 0)
    {
      t->final_status = msg->status_code;
      t->final_frame = msg->frame;
      t->final_ns = msg->ts_ns;
    }
}

guint
cs_transaction_log_get_n (CsTransactionLog *log)
{
  return log->transactions->len;
}

const CsTransaction *
cs_transaction_log_get (CsTransactionLog *log, guint index)
{
  g_return_val_if_fail (index < log->transactions->len, NULL);
  return &g_array_index (log->transactions, CsTransaction, index);
}
