/* cs-loadtest-calls.c — one call's contribution to the load statistics */
#include "cs-loadtest-private.h"

#include <math.h>
#include <string.h>

/* A flow pattern lists at most this many messages; longer calls end in "…". */
#define CS_LOAD_PATTERN_MAX_MESSAGES 24

typedef struct
{
  CsEndpoint endpoint;
  guint64 requests, answered, failed, timeouts, retransmissions;
  GArray *final_ms; /* double */
} CsLoadEndpointAcc;

typedef struct
{
  guint64 calls, answered, failed;
  GArray *setup_ms; /* double */
} CsLoadPatternAcc;

typedef struct
{
  gint64 ts_ns;
  int delta; /* +1 call starts, -1 call ends */
} CsLoadCallEvent;

static void
cs_load_endpoint_acc_free (CsLoadEndpointAcc *acc)
{
  g_array_unref (acc->final_ms);
  g_free (acc);
}

static void
cs_load_pattern_acc_free (CsLoadPatternAcc *acc)
{
  g_array_unref (acc->setup_ms);
  g_free (acc);
}

void
cs_load_builder_init_groups (CsLoadBuilder *b)
{
  b->endpoints
      = g_hash_table_new_full ((GHashFunc) cs_endpoint_hash, (GEqualFunc) cs_endpoint_equal, NULL,
                               (GDestroyNotify) cs_load_endpoint_acc_free);
  b->patterns = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                       (GDestroyNotify) cs_load_pattern_acc_free);
  b->call_events = g_array_new (FALSE, FALSE, sizeof (CsLoadCallEvent));
}

void
cs_load_builder_clear_groups (CsLoadBuilder *b)
{
  g_clear_pointer (&b->endpoints, g_hash_table_unref);
  g_clear_pointer (&b->patterns, g_hash_table_unref);
  g_clear_pointer (&b->call_events, g_array_unref);
}

void
cs_load_count_type (GHashTable **table, const char *key)
{
  gpointer count;

  if (*table == NULL)
    *table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  count = g_hash_table_lookup (*table, key);
  if (count == NULL)
    g_hash_table_insert (*table, g_strdup (key), GUINT_TO_POINTER (1));
  else
    g_hash_table_insert (*table, g_strdup (key), GUINT_TO_POINTER (GPOINTER_TO_UINT (count) + 1));
}

/* "INVITE" for requests, "200" for responses. */
static const char *
cs_load_message_type (const CsSipMessage *msg, char *buf, gsize size)
{
  if (cs_sip_message_is_request (msg))
    return cs_sip_message_get_method_name (msg) != NULL ? cs_sip_message_get_method_name (msg)
                                                        : "UNKNOWN";
  g_snprintf (buf, size, "%u", cs_sip_message_get_status_code (msg));
  return buf;
}

/* The same transaction key as cs-transaction.c: RFC 3261 branches name the
 * transaction; older ones need the CSeq too. */
static char *
cs_load_transaction_key (const CsSipMessage *msg)
{
  const char *method = cs_sip_message_is_request (msg) ? cs_sip_message_get_method_name (msg)
                                                       : cs_sip_message_get_cseq_method_name (msg);

  if (cs_sip_message_get_via_branch (msg) != NULL
      && g_str_has_prefix (cs_sip_message_get_via_branch (msg), "z9hG4bK"))
    return g_strdup_printf ("%s|%s", cs_sip_message_get_via_branch (msg),
                            method != NULL ? method : "");
  return g_strdup_printf (
      "%s|%u|%s",
      cs_sip_message_get_via_branch (msg) != NULL ? cs_sip_message_get_via_branch (msg) : "",
      cs_sip_message_get_cseq (msg), method != NULL ? method : "");
}

/* One transmission of a message: the engine's retransmission signature. */
static char *
cs_load_message_signature (const CsSipMessage *msg)
{
  if (cs_sip_message_is_request (msg))
    return g_strdup_printf (
        "Q|%s|%u|%s",
        cs_sip_message_get_via_branch (msg) ? cs_sip_message_get_via_branch (msg) : "",
        cs_sip_message_get_cseq (msg),
        cs_sip_message_get_method_name (msg) ? cs_sip_message_get_method_name (msg) : "");
  return g_strdup_printf (
      "R|%s|%u|%s|%u|%s",
      cs_sip_message_get_via_branch (msg) ? cs_sip_message_get_via_branch (msg) : "",
      cs_sip_message_get_cseq (msg),
      cs_sip_message_get_cseq_method_name (msg) ? cs_sip_message_get_cseq_method_name (msg) : "",
      cs_sip_message_get_status_code (msg),
      cs_sip_message_get_to_tag (msg) ? cs_sip_message_get_to_tag (msg) : "");
}

static void
cs_load_track_transaction (GArray *txns, GHashTable *index, const CsSipMessage *msg)
{
  g_autofree char *key = NULL;
  guint position;
  CsLoadTransaction *t;

  if (cs_sip_message_get_transaction_method (msg) == CS_SIP_METHOD_ACK)
    return;
  key = cs_load_transaction_key (msg);
  position = GPOINTER_TO_UINT (g_hash_table_lookup (index, key));
  if (position == 0)
    {
      CsLoadTransaction fresh = { 0 };

      if (!cs_sip_message_is_request (msg))
        return; /* its request was not captured */
      fresh.method = cs_sip_message_get_method (msg);
      fresh.cseq = cs_sip_message_get_cseq (msg);
      fresh.request_ns = cs_sip_message_get_ts_ns (msg);
      fresh.server = *cs_sip_message_get_dst (msg);
      fresh.provisional_ns = fresh.ringing_ns = fresh.final_ns = -1;
      g_array_append_val (txns, fresh);
      position = txns->len;
      g_hash_table_insert (index, g_steal_pointer (&key), GUINT_TO_POINTER (position));
    }
  t = &g_array_index (txns, CsLoadTransaction, position - 1);
  if (cs_sip_message_is_request (msg))
    {
      t->transmissions++;
      return;
    }
  if (cs_sip_message_get_status_code (msg) < 200)
    {
      if (t->provisional_ns < 0)
        t->provisional_ns = cs_sip_message_get_ts_ns (msg);
      if (cs_sip_message_get_status_code (msg) >= 180 && t->ringing_ns < 0)
        t->ringing_ns = cs_sip_message_get_ts_ns (msg);
    }
  else if (t->final_ns < 0)
    {
      t->final_ns = cs_sip_message_get_ts_ns (msg);
      t->final_status = cs_sip_message_get_status_code (msg);
    }
}

static void
cs_load_add_response_time (CsLoadBuilder *b, CsLoadResponseKind kind, gint64 from_ns, gint64 to_ns)
{
  double ms = (double) (to_ns - from_ns) / 1e6;

  g_array_append_val (b->response_ms[kind], ms);
}

static CsLoadEndpointAcc *
cs_load_endpoint_acc (CsLoadBuilder *b, const CsEndpoint *endpoint)
{
  CsLoadEndpointAcc *acc = g_hash_table_lookup (b->endpoints, endpoint);

  if (acc == NULL)
    {
      acc = g_new0 (CsLoadEndpointAcc, 1);
      acc->endpoint = *endpoint;
      acc->final_ms = g_array_new (FALSE, FALSE, sizeof (double));
      g_hash_table_insert (b->endpoints, &acc->endpoint, acc);
    }
  return acc;
}

/* Response times, timeouts and endpoints of one transaction. */
static void
cs_load_add_transaction (CsLoadBuilder *b, const CsLoadTransaction *t)
{
  CsLoadEndpointAcc *acc = cs_load_endpoint_acc (b, &t->server);
  guint index = cs_load_builder_index (b, t->request_ns);
  CsLoadInterval *interval = &g_array_index (b->report->intervals, CsLoadInterval, index);
  gboolean late = t->final_ns >= 0 && t->final_ns - t->request_ns > b->timeout_ns;
  gboolean expired = t->final_ns < 0 && b->report->end_ns - t->request_ns >= b->timeout_ns;

  interval->transactions++;
  b->report->totals.transactions++;
  acc->requests++;
  acc->retransmissions += t->transmissions > 1 ? t->transmissions - 1 : 0;
  if (late || expired)
    {
      interval->timeouts++;
      b->report->totals.timeouts++;
      acc->timeouts++;
    }
  if (t->final_ns >= 0)
    {
      double ms = (double) (t->final_ns - t->request_ns) / 1e6;

      g_array_append_val (acc->final_ms, ms);
      if (t->final_status < 300)
        acc->answered++;
      else
        acc->failed++;
    }
  if (t->method == CS_SIP_METHOD_INVITE)
    {
      CsLoadScratch *scratch = &b->scratch[index];
      double final_ms = -1;

      if (t->provisional_ns >= 0)
        cs_load_add_response_time (b, CS_LOAD_RT_INVITE_PROVISIONAL, t->request_ns,
                                   t->provisional_ns);
      if (t->ringing_ns >= 0)
        cs_load_add_response_time (b, CS_LOAD_RT_INVITE_18X, t->request_ns, t->ringing_ns);
      if (t->final_ns >= 0)
        {
          cs_load_add_response_time (
              b, t->final_status < 300 ? CS_LOAD_RT_INVITE_2XX : CS_LOAD_RT_INVITE_ERROR,
              t->request_ns, t->final_ns);
          final_ms = (double) (t->final_ns - t->request_ns) / 1e6;
        }
      else if (expired)
        final_ms = (double) b->timeout_ns / 1e6; /* an unanswered INVITE counts as the timeout */
      if (final_ms >= 0)
        {
          if (scratch->invite_final_ms == NULL)
            scratch->invite_final_ms = g_array_new (FALSE, FALSE, sizeof (double));
          g_array_append_val (scratch->invite_final_ms, final_ms);
        }
    }
  else if (t->final_ns >= 0)
    {
      if (t->method == CS_SIP_METHOD_BYE)
        {
          if (t->final_status < 300)
            cs_load_add_response_time (b, CS_LOAD_RT_BYE_2XX, t->request_ns, t->final_ns);
        }
      else
        cs_load_add_response_time (b, CS_LOAD_RT_NON_INVITE, t->request_ns, t->final_ns);
    }
}

/* When the call's own INVITE transaction got the final answer the call ended with. */
static gint64
cs_load_call_final_ns (CsCall *call, GArray *txns)
{
  guint status = cs_call_get_final_status (call);

  for (guint i = 0; i < txns->len; i++)
    {
      const CsLoadTransaction *t = &g_array_index (txns, CsLoadTransaction, i);
      if (t->method == CS_SIP_METHOD_INVITE && t->final_status == status && t->final_ns >= 0)
        return t->final_ns;
    }
  return cs_call_get_end_ns (call);
}

static void
cs_load_add_pattern (CsLoadBuilder *b, const char *pattern, gboolean answered, gboolean failed,
                     double setup_ms)
{
  CsLoadPatternAcc *acc = g_hash_table_lookup (b->patterns, pattern);

  if (acc == NULL)
    {
      acc = g_new0 (CsLoadPatternAcc, 1);
      acc->setup_ms = g_array_new (FALSE, FALSE, sizeof (double));
      g_hash_table_insert (b->patterns, g_strdup (pattern), acc);
    }
  acc->calls++;
  acc->answered += answered;
  acc->failed += failed;
  if (setup_ms >= 0)
    g_array_append_val (acc->setup_ms, setup_ms);
}

/* Outcome of an INVITE call, counted when it happened; concurrency events. */
static void
cs_load_add_call_outcome (CsLoadBuilder *b, CsCall *call, GArray *txns, const char *pattern)
{
  CsLoadTotals *totals = &b->report->totals;
  gint64 start_ns = cs_call_get_start_ns (call);
  gint64 end_ns = cs_call_get_end_ns (call);
  double setup_ms = cs_call_get_setup_ms (call);
  CsCallState state = cs_call_get_state (call);
  guint status = cs_call_get_final_status (call);
  gboolean answered = FALSE, failed = FALSE;
  CsLoadCallEvent event;

  cs_load_builder_interval (b, start_ns)->calls_started++;
  totals->calls++;
  if (setup_ms >= 0)
    {
      answered = TRUE;
      cs_load_builder_interval (b, start_ns + (gint64) (setup_ms * 1e6))->answered++;
      totals->answered++;
    }
  else if (state == CS_CALL_STATE_CANCELLED)
    {
      cs_load_builder_interval (b, cs_load_call_final_ns (call, txns))->cancelled++;
      totals->cancelled++;
    }
  else if (status >= 300)
    {
      failed = TRUE;
      cs_load_builder_interval (b, cs_load_call_final_ns (call, txns))->failed++;
      g_hash_table_insert (totals->failed_by_code, GUINT_TO_POINTER (status),
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (
                                                 totals->failed_by_code, GUINT_TO_POINTER (status)))
                                             + 1));
    }
  else if (b->report->end_ns - start_ns >= b->timeout_ns)
    {
      /* no final answer before Timer B expired */
      failed = TRUE;
      end_ns = MAX (end_ns, start_ns + b->timeout_ns);
      cs_load_builder_interval (b, start_ns + b->timeout_ns)->failed++;
    }
  else
    totals->unfinished++;
  if (failed)
    {
      totals->failed++;
      b->scratch[cs_load_builder_index (b, start_ns)].calls_failed++;
    }
  /* A call still going when the capture stops stays in progress to the end. */
  if (!answered && !failed && state != CS_CALL_STATE_CANCELLED)
    end_ns = b->report->end_ns;
  else if (answered && (state == CS_CALL_STATE_IN_CALL))
    end_ns = b->report->end_ns;
  event = (CsLoadCallEvent){ start_ns, +1 };
  g_array_append_val (b->call_events, event);
  event = (CsLoadCallEvent){ end_ns, -1 };
  g_array_append_val (b->call_events, event);
  cs_load_add_pattern (b, pattern, answered, failed, setup_ms);
}

void
cs_load_add_call (CsLoadBuilder *b, CsCall *call)
{
  guint n = cs_call_get_n_messages (call);
  g_autoptr (GArray) txns = g_array_new (FALSE, FALSE, sizeof (CsLoadTransaction));
  g_autoptr (GHashTable) txn_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) first_sent = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GString) pattern = g_string_new (NULL);
  guint pattern_messages = 0;
  CsLoadTotals *totals = &b->report->totals;
  char buf[16];

  for (guint i = 0; i < n; i++)
    {
      CsSipMessage *msg = cs_call_get_message (call, i);
      CsLoadInterval *interval = cs_load_builder_interval (b, cs_sip_message_get_ts_ns (msg));
      const char *type = cs_load_message_type (msg, buf, sizeof buf);
      g_autofree char *signature = cs_load_message_signature (msg);
      gpointer original;

      if (cs_call_message_is_sighting (call, i))
        continue; /* one message seen at another capture point: not another on the wire */
      interval->messages++;
      totals->messages++;
      cs_load_count_type (&interval->messages_by_type, type);
      cs_load_count_type (&totals->messages_by_type, type);
      cs_load_track_transaction (txns, txn_index, msg);
      original = g_hash_table_lookup (first_sent, signature);
      if (cs_call_message_is_retransmission (call, i))
        {
          interval->retransmissions++;
          totals->retransmissions++;
          cs_load_count_type (&interval->retransmissions_by_type, type);
          cs_load_count_type (&totals->retransmissions_by_type, type);
          /* the loss happened when the first copy was sent */
          if (original != NULL)
            b->scratch[GPOINTER_TO_UINT (original) - 1].resent++;
          continue;
        }
      if (original == NULL)
        {
          guint index = cs_load_builder_index (b, cs_sip_message_get_ts_ns (msg));
          b->scratch[index].originals++;
          g_hash_table_insert (first_sent, g_steal_pointer (&signature),
                               GUINT_TO_POINTER (index + 1));
        }
      if (pattern_messages < CS_LOAD_PATTERN_MAX_MESSAGES)
        g_string_append_printf (pattern, "%s%s", pattern->len > 0 ? " " : "", type);
      else if (pattern_messages == CS_LOAD_PATTERN_MAX_MESSAGES)
        g_string_append (pattern, " …");
      pattern_messages++;
    }
  for (guint i = 0; i < txns->len; i++)
    cs_load_add_transaction (b, &g_array_index (txns, CsLoadTransaction, i));
  if (cs_call_get_method (call) == CS_SIP_METHOD_INVITE)
    cs_load_add_call_outcome (b, call, txns, pattern->str);
}

static int
cs_load_compare_events (gconstpointer a, gconstpointer b)
{
  const CsLoadCallEvent *x = a, *y = b;

  if (x->ts_ns != y->ts_ns)
    return x->ts_ns < y->ts_ns ? -1 : 1;
  return y->delta - x->delta; /* a call starting at the instant another ends overlaps it */
}

/* Peak number of calls in progress per interval. */
static void
cs_load_finish_concurrency (CsLoadBuilder *b)
{
  GArray *intervals = b->report->intervals;
  guint e = 0;
  int current = 0;

  g_array_sort (b->call_events, cs_load_compare_events);
  for (guint i = 0; i < intervals->len; i++)
    {
      CsLoadInterval *interval = &g_array_index (intervals, CsLoadInterval, i);
      gint64 end_ns = interval->start_ns + b->interval_ns;
      int peak = current;

      for (; e < b->call_events->len; e++)
        {
          const CsLoadCallEvent *event = &g_array_index (b->call_events, CsLoadCallEvent, e);
          if (event->ts_ns >= end_ns && i + 1 < intervals->len)
            break;
          current += event->delta;
          peak = MAX (peak, current);
        }
      interval->concurrent = (guint) MAX (peak, 0);
      b->report->totals.peak_concurrent
          = MAX (b->report->totals.peak_concurrent, interval->concurrent);
    }
}

static int
cs_load_compare_endpoints (gconstpointer a, gconstpointer b)
{
  const CsLoadEndpoint *x = *(CsLoadEndpoint *const *) a, *y = *(CsLoadEndpoint *const *) b;

  return (x->requests < y->requests) - (x->requests > y->requests);
}

static int
cs_load_compare_patterns (gconstpointer a, gconstpointer b)
{
  const CsLoadPattern *x = *(CsLoadPattern *const *) a, *y = *(CsLoadPattern *const *) b;

  if (x->calls != y->calls)
    return (x->calls < y->calls) - (x->calls > y->calls);
  return g_strcmp0 (x->pattern, y->pattern);
}

void
cs_load_finish_groups (CsLoadBuilder *b)
{
  GHashTableIter iter;
  gpointer key, value;

  cs_load_finish_concurrency (b);
  g_hash_table_iter_init (&iter, b->endpoints);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      CsLoadEndpointAcc *acc = value;
      CsLoadEndpoint *endpoint = g_new0 (CsLoadEndpoint, 1);

      endpoint->endpoint = acc->endpoint;
      endpoint->requests = acc->requests;
      endpoint->answered = acc->answered;
      endpoint->failed = acc->failed;
      endpoint->timeouts = acc->timeouts;
      endpoint->retransmissions = acc->retransmissions;
      cs_load_percentiles_compute ((double *) acc->final_ms->data, acc->final_ms->len,
                                   &endpoint->final_ms);
      g_ptr_array_add (b->report->endpoints, endpoint);
    }
  g_ptr_array_sort (b->report->endpoints, cs_load_compare_endpoints);
  g_hash_table_iter_init (&iter, b->patterns);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      CsLoadPatternAcc *acc = value;
      CsLoadPattern *pattern = g_new0 (CsLoadPattern, 1);

      pattern->pattern = g_strdup (key);
      pattern->calls = acc->calls;
      pattern->answered = acc->answered;
      pattern->failed = acc->failed;
      cs_load_percentiles_compute ((double *) acc->setup_ms->data, acc->setup_ms->len,
                                   &pattern->setup_ms);
      g_ptr_array_add (b->report->patterns, pattern);
    }
  g_ptr_array_sort (b->report->patterns, cs_load_compare_patterns);
}
