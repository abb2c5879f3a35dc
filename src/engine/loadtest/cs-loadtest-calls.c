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
cs_load_track_transaction (GArray *txns, GHashTable *index, const CsSipMessage *msg,
                           const CsLoadLegs *legs)
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
      fresh.legs = cs_load_legs_of (legs, msg);
      fresh.from_client = cs_endpoint_equal (cs_sip_message_get_src (msg), &legs->client);
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
cs_load_add_response_time (CsLoadBuilder *b, guint legs, CsLoadResponseKind kind, gint64 from_ns,
                           gint64 to_ns)
{
  double ms = (double) (to_ns - from_ns) / 1e6;

  if (legs & CS_LOAD_LEG_CLIENT)
    g_array_append_val (b->response_ms[kind], ms);
  if (legs & CS_LOAD_LEG_SERVER)
    g_array_append_val (b->server_response_ms[kind], ms);
}

void
cs_load_append_ms (GArray **values, double ms)
{
  if (*values == NULL)
    *values = g_array_new (FALSE, FALSE, sizeof (double));
  g_array_append_val (*values, ms);
}

void
cs_load_note_symptom (CsLoadBuilder *b, CsLoadSymptom symptom, gint64 ts_ns)
{
  CsLoadScratch *scratch = &b->scratch[cs_load_builder_index (b, ts_ns)];

  scratch->symptom_first_ns[symptom] = MIN (scratch->symptom_first_ns[symptom], ts_ns);
}

/* The client-leg curves, the slow 100 Trying and 5xx/408 symptoms of an INVITE. */
static void
cs_load_add_invite_curves (CsLoadBuilder *b, const CsLoadTransaction *t, guint index)
{
  CsLoadScratch *scratch = &b->scratch[index];
  CsLoadInterval *interval = &g_array_index (b->report->intervals, CsLoadInterval, index);
  gint64 slow_ns = (gint64) (CS_LOAD_SLOW_TRYING_MS * 1e6);
  gint64 answer_ns = t->final_ns >= 0 ? t->final_ns : b->report->end_ns;

  if (t->provisional_ns >= 0)
    cs_load_append_ms (&scratch->curve_ms[CS_LOAD_CURVE_TRYING],
                       (double) (t->provisional_ns - t->request_ns) / 1e6);
  if (t->ringing_ns >= 0)
    cs_load_append_ms (&scratch->curve_ms[CS_LOAD_CURVE_RINGING],
                       (double) (t->ringing_ns - t->request_ns) / 1e6);
  if (t->final_ns >= 0 && t->final_status < 300)
    cs_load_append_ms (&scratch->curve_ms[CS_LOAD_CURVE_ANSWER],
                       (double) (t->final_ns - t->request_ns) / 1e6);
  /* no 1xx within 500 ms, and no final answer either by then */
  if (t->provisional_ns >= 0 ? t->provisional_ns - t->request_ns > slow_ns
                             : answer_ns - t->request_ns > slow_ns)
    {
      interval->slow_trying++;
      cs_load_note_symptom (b, CS_LOAD_SYMPTOM_SLOW_TRYING, t->request_ns + slow_ns);
    }
  if (t->final_ns >= 0 && (t->final_status >= 500 || t->final_status == 408))
    {
      cs_load_builder_interval (b, t->final_ns)->server_errors++;
      cs_load_note_symptom (b, CS_LOAD_SYMPTOM_SERVER_ERRORS, t->final_ns);
    }
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
      const char *method = cs_sip_method_to_string (t->method);

      interval->timeouts++;
      b->report->totals.timeouts++;
      acc->timeouts++;
      cs_load_count_type (&interval->timeouts_by_type, method);
      cs_load_count_type (&b->report->totals.timeouts_by_type, method);
      cs_load_note_symptom (b, CS_LOAD_SYMPTOM_TIMEOUTS, t->request_ns + b->timeout_ns);
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
        cs_load_add_response_time (b, t->legs, CS_LOAD_RT_INVITE_PROVISIONAL, t->request_ns,
                                   t->provisional_ns);
      if (t->ringing_ns >= 0)
        cs_load_add_response_time (b, t->legs, CS_LOAD_RT_INVITE_18X, t->request_ns, t->ringing_ns);
      if (t->legs & CS_LOAD_LEG_CLIENT)
        cs_load_add_invite_curves (b, t, index);
      if ((t->legs & CS_LOAD_LEG_SERVER) && t->final_ns >= 0)
        {
          cs_load_builder_interval (b, t->final_ns)->handled++;
          b->report->totals.handled++;
        }
      if (t->final_ns >= 0)
        {
          cs_load_add_response_time (
              b, t->legs, t->final_status < 300 ? CS_LOAD_RT_INVITE_2XX : CS_LOAD_RT_INVITE_ERROR,
              t->request_ns, t->final_ns);
          final_ms = (double) (t->final_ns - t->request_ns) / 1e6;
        }
      else if (expired)
        final_ms = (double) b->timeout_ns / 1e6; /* an unanswered INVITE counts as the timeout */
      if (final_ms >= 0 && (t->legs & CS_LOAD_LEG_CLIENT))
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
            cs_load_add_response_time (b, t->legs, CS_LOAD_RT_BYE_2XX, t->request_ns, t->final_ns);
        }
      else
        cs_load_add_response_time (b, t->legs, CS_LOAD_RT_NON_INVITE, t->request_ns, t->final_ns);
    }
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

/* What the client leg shows of a call: its first INVITE transaction, the caller's
 * CANCEL, its BYE, and the last message the caller sent. */
typedef struct
{
  const CsLoadTransaction *invite;
  gint64 cancel_ns;  /* the caller's first CANCEL, -1 */
  gint64 bye_ns;     /* the first BYE on the client leg, -1 */
  gint64 bye_2xx_ns; /* its 2xx, -1 */
  gint64 last_ns;    /* the last message the caller sent */
  gboolean any_bye;
} CsLoadClientView;

static void
cs_load_client_view (CsCall *call, const CsLoadLegs *legs, GArray *txns, CsLoadClientView *view)
{
  guint n = cs_call_get_n_messages (call);

  memset (view, 0, sizeof *view);
  view->cancel_ns = view->bye_ns = view->bye_2xx_ns = -1;
  view->last_ns = cs_call_get_start_ns (call);
  for (guint i = 0; i < txns->len; i++)
    {
      const CsLoadTransaction *t = &g_array_index (txns, CsLoadTransaction, i);

      if (!(t->legs & CS_LOAD_LEG_CLIENT))
        continue;
      if (t->method == CS_SIP_METHOD_INVITE && view->invite == NULL)
        view->invite = t;
      else if (t->method == CS_SIP_METHOD_BYE && !view->any_bye)
        {
          view->any_bye = TRUE;
          view->bye_ns = t->request_ns;
          if (t->final_ns >= 0 && t->final_status < 300)
            view->bye_2xx_ns = t->final_ns;
        }
      else if (t->method == CS_SIP_METHOD_CANCEL && t->from_client && view->cancel_ns < 0)
        view->cancel_ns = t->request_ns;
    }
  for (guint i = 0; i < n; i++)
    {
      CsSipMessage *msg = cs_call_get_message (call, i);
      if (cs_endpoint_equal (cs_sip_message_get_src (msg), &legs->client))
        view->last_ns = MAX (view->last_ns, cs_sip_message_get_ts_ns (msg));
    }
}

static void
cs_load_count_reason (CsLoadTotals *totals, const char *reason)
{
  cs_load_count_type (&totals->failed_by_reason, reason);
}

/* Outcome of an INVITE call as its caller saw it (the client leg), counted when it
 * happened; concurrency events: a call is in progress from its first INVITE until the
 * caller's last word (the BYE's 2xx, a CANCEL, a last retransmission), or to the end of
 * the capture while it is answered and not hung up. */
static void
cs_load_add_call_outcome (CsLoadBuilder *b, CsCall *call, const CsLoadLegs *legs, GArray *txns,
                          const char *pattern, const char *final_reason)
{
  CsLoadTotals *totals = &b->report->totals;
  gint64 start_ns = cs_call_get_start_ns (call);
  gint64 end_ns;
  const CsLoadTransaction *inv;
  CsLoadClientView view;
  gboolean answered = FALSE, failed = FALSE;
  double setup_ms = -1;
  CsLoadCallEvent event;

  cs_load_client_view (call, legs, txns, &view);
  inv = view.invite;
  end_ns = view.last_ns;
  cs_load_builder_interval (b, start_ns)->calls_started++;
  totals->calls++;
  totals->proxied += legs->proxied;
  if (inv != NULL && inv->final_ns >= 0 && inv->final_status < 300
      && (view.cancel_ns < 0 || inv->final_ns < view.cancel_ns))
    {
      answered = TRUE;
      setup_ms = (double) (inv->final_ns - start_ns) / 1e6;
      cs_load_builder_interval (b, inv->final_ns)->answered++;
      totals->answered++;
      if (view.bye_2xx_ns >= 0)
        {
          totals->completed++;
          end_ns = MAX (end_ns, view.bye_2xx_ns);
        }
      else if (view.any_bye)
        {
          totals->dropped++;
          cs_load_count_reason (totals, "BYE not answered");
        }
      else
        end_ns = b->report->end_ns; /* still up when the capture stopped */
    }
  else if (view.cancel_ns >= 0)
    {
      cs_load_builder_interval (b, view.cancel_ns)->cancelled++;
      totals->cancelled++;
      cs_load_count_reason (totals, "cancelled by the caller");
    }
  else if (inv != NULL && inv->final_ns >= 0)
    {
      g_autofree char *reason
          = g_strdup_printf ("%u %s", inv->final_status, final_reason != NULL ? final_reason : "");

      failed = TRUE;
      cs_load_builder_interval (b, inv->final_ns)->failed++;
      g_hash_table_insert (
          totals->failed_by_code, GUINT_TO_POINTER (inv->final_status),
          GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (
                                totals->failed_by_code, GUINT_TO_POINTER (inv->final_status)))
                            + 1));
      cs_load_count_reason (totals, g_strstrip (reason));
    }
  else if (b->report->end_ns - start_ns >= b->timeout_ns)
    {
      /* no final answer before Timer B expired: the caller gave up at its last word */
      failed = TRUE;
      cs_load_builder_interval (b, end_ns)->failed++;
      cs_load_count_reason (totals, "no final response");
    }
  else
    totals->unfinished++;
  if (failed)
    {
      totals->failed++;
      b->scratch[cs_load_builder_index (b, start_ns)].calls_failed++;
    }
  event = (CsLoadCallEvent){ start_ns, +1 };
  g_array_append_val (b->call_events, event);
  event = (CsLoadCallEvent){ end_ns, -1 };
  g_array_append_val (b->call_events, event);
  cs_load_add_pattern (b, pattern, answered, failed, setup_ms);
}

/* Client-leg INVITE → its first forwarded copy on the server leg. */
static void
cs_load_add_forwarding (CsLoadBuilder *b, const CsLoadLegs *legs, GArray *txns)
{
  gint64 client_ns = -1, server_ns = -1;

  if (!legs->proxied)
    return;
  for (guint i = 0; i < txns->len; i++)
    {
      const CsLoadTransaction *t = &g_array_index (txns, CsLoadTransaction, i);

      if (t->method != CS_SIP_METHOD_INVITE)
        continue;
      if ((t->legs & CS_LOAD_LEG_CLIENT) && client_ns < 0)
        client_ns = t->request_ns;
      if ((t->legs & CS_LOAD_LEG_SERVER) && server_ns < 0)
        server_ns = t->request_ns;
    }
  if (client_ns >= 0 && server_ns >= client_ns)
    {
      double ms = (double) (server_ns - client_ns) / 1e6;
      g_array_append_val (b->forwarding_ms, ms);
    }
}

/* Counts a retransmission in the leg tables of its interval and of the totals. */
static void
cs_load_count_leg_retransmission (CsLoadBuilder *b, CsLoadInterval *interval, guint legs,
                                  const char *type)
{
  CsLoadTotals *totals = &b->report->totals;

  if (legs & CS_LOAD_LEG_CLIENT)
    {
      interval->client_retransmissions++;
      cs_load_count_type (&interval->client_retransmissions_by_type, type);
      cs_load_count_type (&totals->client_retransmissions_by_type, type);
    }
  if (legs & CS_LOAD_LEG_SERVER)
    {
      interval->server_retransmissions++;
      cs_load_count_type (&interval->server_retransmissions_by_type, type);
      cs_load_count_type (&totals->server_retransmissions_by_type, type);
    }
}

void
cs_load_add_call (CsLoadBuilder *b, CsCall *call)
{
  guint n = cs_call_get_n_messages (call);
  g_autoptr (GArray) txns = g_array_new (FALSE, FALSE, sizeof (CsLoadTransaction));
  g_autoptr (GHashTable) txn_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) first_sent = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GString) pattern = g_string_new (NULL);
  g_autofree char *final_reason = NULL;
  guint pattern_messages = 0;
  CsLoadTotals *totals = &b->report->totals;
  CsLoadLegs legs;
  char buf[16];

  cs_load_legs_find (call, &legs);
  for (guint i = 0; i < n; i++)
    {
      CsSipMessage *msg = cs_call_get_message (call, i);
      CsLoadInterval *interval = cs_load_builder_interval (b, cs_sip_message_get_ts_ns (msg));
      const char *type = cs_load_message_type (msg, buf, sizeof buf);
      g_autofree char *signature = cs_load_message_signature (msg);
      guint on_legs = cs_load_legs_of (&legs, msg);
      gpointer original;

      if (cs_call_message_is_sighting (call, i))
        continue; /* one message seen at another capture point: not another on the wire */
      interval->messages++;
      totals->messages++;
      cs_load_count_type (&interval->messages_by_type, type);
      cs_load_count_type (&totals->messages_by_type, type);
      cs_load_track_transaction (txns, txn_index, msg, &legs);
      original = g_hash_table_lookup (first_sent, signature);
      if (cs_call_message_is_retransmission (call, i))
        {
          interval->retransmissions++;
          totals->retransmissions++;
          cs_load_count_type (&interval->retransmissions_by_type, type);
          cs_load_count_type (&totals->retransmissions_by_type, type);
          cs_load_count_leg_retransmission (b, interval, on_legs, type);
          cs_load_note_symptom (b, CS_LOAD_SYMPTOM_RETRANSMISSIONS, cs_sip_message_get_ts_ns (msg));
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
      if ((on_legs & CS_LOAD_LEG_CLIENT) && !cs_sip_message_is_request (msg)
          && cs_sip_message_get_status_code (msg) >= 300 && final_reason == NULL
          && cs_sip_message_get_cseq_method (msg) == CS_SIP_METHOD_INVITE)
        final_reason = g_strdup (cs_sip_message_get_reason (msg));
      /* the flow as the caller saw it */
      if (!(on_legs & CS_LOAD_LEG_CLIENT))
        continue;
      if (pattern_messages < CS_LOAD_PATTERN_MAX_MESSAGES)
        g_string_append_printf (pattern, "%s%s", pattern->len > 0 ? " " : "", type);
      else if (pattern_messages == CS_LOAD_PATTERN_MAX_MESSAGES)
        g_string_append (pattern, " …");
      pattern_messages++;
    }
  for (guint i = 0; i < txns->len; i++)
    cs_load_add_transaction (b, &g_array_index (txns, CsLoadTransaction, i));
  if (cs_call_get_method (call) == CS_SIP_METHOD_INVITE)
    {
      cs_load_add_call_outcome (b, call, &legs, txns, pattern->str, final_reason);
      cs_load_add_forwarding (b, &legs, txns);
    }
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
      gint64 end_ns = interval->end_ns;
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
      interval->concurrent_end = (guint) MAX (current, 0);
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
