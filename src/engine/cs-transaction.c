/* cs-transaction.c — SIP transactions matched by top Via branch, CSeq and method */
#include "cs-transaction.h"

struct _CsTransactionLog
{
  GArray *transactions; /* CsTransaction */
  GHashTable *index;    /* "branch|cseq|method" → position + 1 */
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

CsTransactionLog *
cs_transaction_log_new (void)
{
  CsTransactionLog *log = g_new0 (CsTransactionLog, 1);

  log->transactions = g_array_new (FALSE, TRUE, sizeof (CsTransaction));
  log->index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return log;
}

void
cs_transaction_log_free (CsTransactionLog *log)
{
  if (log == NULL)
    return;
  g_array_unref (log->transactions);
  g_hash_table_unref (log->index);
  g_free (log);
}

static char *
cs_transaction_key (const CsSipMessage *msg)
{
  const char *method = msg->is_request ? msg->method_name : msg->cseq_method_name;

  /* An RFC 3261 branch names the transaction on its own, even when a broken
   * CSeq in the request no longer matches its responses. */
  if (msg->via_branch != NULL && g_str_has_prefix (msg->via_branch, "z9hG4bK"))
    return g_strdup_printf ("%s|%s", msg->via_branch, method != NULL ? method : "");
  return g_strdup_printf ("%s|%u|%s", msg->via_branch != NULL ? msg->via_branch : "", msg->cseq,
                          method != NULL ? method : "");
}

void
cs_transaction_log_add (CsTransactionLog *log, const CsSipMessage *msg)
{
  g_autofree char *key = NULL;
  guint position;
  CsTransaction *t;

  if ((msg->is_request ? msg->method : msg->cseq_method) == CS_SIP_METHOD_ACK)
    return;
  key = cs_transaction_key (msg);
  position = GPOINTER_TO_UINT (g_hash_table_lookup (log->index, key));
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
      g_hash_table_insert (log->index, g_steal_pointer (&key), GUINT_TO_POINTER (position));
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
