/* cs-transaction.c — SIP transactions matched by top Via branch, CSeq and method */
#include "cs-transaction.h"

/* the messages' fields as reads: the merge thread's per-message path (measured) */
#include "sip/cs-sip-message-layout.h"

#include <string.h>

struct _CsTransactionEntry
{
  CsTransaction t;             /* first: cs_transaction_log_get hands out &entry->t */
  const CsSipMessage *request; /* opened the transaction: its key */
  /* the request's branch and whether it is an RFC 3261 one, so that the linear scan
   * reads the request itself only for an unknown method */
  const char *branch;
  gboolean rfc3261;
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

void
cs_transaction_log_init (CsTransactionLog *log)
{
  memset (log, 0, sizeof *log);
}

void
cs_transaction_log_clear (CsTransactionLog *log)
{
  g_clear_pointer (&log->index, g_hash_table_unref);
  g_clear_pointer (&log->entries, g_free);
  log->n = log->cap = 0;
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
  return or_empty (cs_sip_message_is_request (msg) ? cs_sip_message_get_method_name (msg)
                                                   : cs_sip_message_get_cseq_method_name (msg));
}

static gboolean
key_is_rfc3261 (const CsSipMessage *msg)
{
  static const char cookie[] = "z9hG4bK";
  const char *b = cs_sip_message_get_via_branch (msg);

  if (b == NULL)
    return FALSE;
  /* byte by byte: a mismatch (or the end of a short branch) stops before reading on */
  for (guint i = 0; i < sizeof cookie - 1; i++)
    if (b[i] != cookie[i])
      return FALSE;
  return TRUE;
}

static inline gboolean
same_text (const char *a, const char *b)
{
  return a == b || strcmp (or_empty (a), or_empty (b)) == 0;
}

static guint
key_hash (gconstpointer data)
{
  const CsSipMessage *msg = data;
  guint h = g_str_hash (or_empty (cs_sip_message_get_via_branch (msg))) * 31u
            + g_str_hash (key_method (msg));

  return key_is_rfc3261 (msg) ? h : h * 31u + cs_sip_message_get_cseq (msg) + 1u;
}

static gboolean
key_equal (gconstpointer a_data, gconstpointer b_data)
{
  const CsSipMessage *a = a_data, *b = b_data;
  CsSipMethod ma = cs_sip_message_get_transaction_method (a);
  CsSipMethod mb = cs_sip_message_get_transaction_method (b);

  /* known methods are parsed from their exact names: different ones differ in name */
  if (ma != mb && ma != CS_SIP_METHOD_UNKNOWN && mb != CS_SIP_METHOD_UNKNOWN)
    return FALSE;
  /* a response's branch is often its request's own string */
  if (!same_text (cs_sip_message_get_via_branch (a), cs_sip_message_get_via_branch (b)))
    return FALSE;
  if ((ma == CS_SIP_METHOD_UNKNOWN || ma != mb) && strcmp (key_method (a), key_method (b)) != 0)
    return FALSE;
  return key_is_rfc3261 (a)
         || cs_sip_message_get_cseq (a)
                == cs_sip_message_get_cseq (b); /* same branch: same prefix test */
}

/* What the scan compares of the message looked for, read once. */
typedef struct
{
  const CsSipMessage *msg;
  const char *branch;
  guint32 cseq;
  CsSipMethod method;
} CsTransactionKey;

/* key_equal (entry->request, key->msg) from what the entry keeps (t.method and t.cseq are
 * the request's). */
static gboolean
entry_key_equal (const CsTransactionEntry *entry, const CsTransactionKey *key)
{
  CsSipMethod ma = entry->t.method;
  CsSipMethod mb = key->method;

  if (ma != mb && ma != CS_SIP_METHOD_UNKNOWN && mb != CS_SIP_METHOD_UNKNOWN)
    return FALSE;
  if (!same_text (entry->branch, key->branch))
    return FALSE;
  if ((ma == CS_SIP_METHOD_UNKNOWN || ma != mb)
      && strcmp (key_method (entry->request), key_method (key->msg)) != 0)
    return FALSE;
  return entry->rfc3261 || entry->t.cseq == key->cseq;
}

/* Calls have few transactions: a linear scan up to this many, a hash table beyond. */
#define CS_TRANSACTION_SCAN 16

/* position + 1 of msg's transaction, 0 when none */
static guint
cs_transaction_log_find (CsTransactionLog *log, const CsSipMessage *msg, CsSipMethod method)
{
  CsTransactionKey key;

  if (log->index != NULL)
    return GPOINTER_TO_UINT (g_hash_table_lookup (log->index, msg));
  key.msg = msg;
  key.branch = cs_sip_message_get_via_branch (msg);
  key.cseq = cs_sip_message_get_cseq (msg);
  key.method = method;
  for (guint i = 0; i < log->n; i++)
    if (entry_key_equal (&log->entries[i], &key))
      return i + 1;
  return 0;
}

/* Known methods are spelled exactly as their constant (names are case-sensitive):
 * only unknown tokens need the interning table. */
static const char *
cs_transaction_method_name (const CsSipMessage *request)
{
  CsSipMethod method = cs_sip_message_get_method (request);
  const char *known = cs_sip_method_to_string (method);
  const char *name = cs_sip_message_get_method_name (request);

  if (method != CS_SIP_METHOD_UNKNOWN && name != NULL && strcmp (name, known) == 0)
    return known;
  return g_intern_string (name);
}

static CsTransaction *
cs_transaction_log_open (CsTransactionLog *log, const CsSipMessage *request)
{
  CsTransactionEntry *entry;

  if (log->n == log->cap)
    {
      log->cap = log->cap < 2 ? 2 : log->cap + log->cap / 2;
      log->entries = g_renew (CsTransactionEntry, log->entries, log->cap);
    }
  entry = &log->entries[log->n++];
  memset (entry, 0, sizeof *entry);
  entry->request = request;
  entry->branch = cs_sip_message_get_via_branch (request);
  entry->rfc3261 = key_is_rfc3261 (request);
  entry->t.method = cs_sip_message_get_method (request);
  entry->t.method_name = cs_transaction_method_name (request);
  entry->t.cseq = cs_sip_message_get_cseq (request);
  entry->t.request_frame = cs_sip_message_get_frame (request);
  entry->t.request_ns = cs_sip_message_get_ts_ns (request);
  if (log->index == NULL && log->n > CS_TRANSACTION_SCAN)
    {
      log->index = g_hash_table_new (key_hash, key_equal);
      for (guint i = 0; i + 1 < log->n; i++)
        g_hash_table_insert (log->index, (gpointer) log->entries[i].request,
                             GUINT_TO_POINTER (i + 1));
    }
  if (log->index != NULL)
    g_hash_table_insert (log->index, (gpointer) request, GUINT_TO_POINTER (log->n));
  return &entry->t;
}

void
cs_transaction_log_add (CsTransactionLog *log, const CsSipMessage *msg)
{
  CsSipMethod method = cs_sip_message_get_transaction_method (msg);
  gboolean is_request;
  guint position, status;
  CsTransaction *t;

  if (method == CS_SIP_METHOD_ACK)
    return;
  is_request = cs_sip_message_is_request (msg);
  position = cs_transaction_log_find (log, msg, method);
  if (position == 0)
    {
      if (!is_request)
        return; /* a response whose request was not captured */
      t = cs_transaction_log_open (log, msg);
    }
  else
    t = &log->entries[position - 1].t;
  if (is_request)
    {
      t->transmissions++;
      return;
    }
  status = cs_sip_message_get_status_code (msg);
  if (t->first_response_frame == 0)
    {
      t->first_response_frame = cs_sip_message_get_frame (msg);
      t->first_response_ns = cs_sip_message_get_ts_ns (msg);
      t->first_response_status = status;
    }
  if (status >= 200 && t->final_status == 0)
    {
      t->final_status = status;
      t->final_frame = cs_sip_message_get_frame (msg);
      t->final_ns = cs_sip_message_get_ts_ns (msg);
    }
}

guint
cs_transaction_log_get_n (const CsTransactionLog *log)
{
  return log->n;
}

const CsTransaction *
cs_transaction_log_get (const CsTransactionLog *log, guint index)
{
  g_return_val_if_fail (index < log->n, NULL);
  return &log->entries[index].t;
}
