/* cs-call.c — one SIP call or out-of-dialog exchange, and its state machine */
#include "cs-call-private.h"

/* the messages' fields as reads: the merge thread's per-message path (measured) */
#include "sip/cs-sip-message-layout.h"

#include "sip/cs-sip-headers.h"

#include <string.h>

/* RFC 3261 Timer B/F: a transaction with no final response after 64·T1 has failed. */
#define CS_TRANSACTION_TIMEOUT_NS (G_GINT64_CONSTANT (32) * G_TIME_SPAN_SECOND * 1000)

G_DEFINE_FINAL_TYPE (CsCall, cs_call, G_TYPE_OBJECT)

/* A copy of a message between the same endpoints this soon after the last one is the same
 * transmission captured again (a mirror and the host, "any" on loopback, a second capture
 * point on the same segment), not a retransmission. 5 ms, not T1: an overloaded sender
 * (SIPp behind a saturated proxy) can send two timer retransmissions tens of ms apart when
 * its loop catches up, and those are real retransmissions. */
#define CS_CALL_SIGHTING_WINDOW_NS (G_GINT64_CONSTANT (5) * 1000000)
/* Between capture points (clocks aligned): under half of T1, the first retransmission's
 * 500 ms, so the next transmission never falls in it. */
#define CS_CALL_POINT_SIGHTING_WINDOW_NS (G_GINT64_CONSTANT (200) * 1000000)

/* The call's strings are mostly those of a message it holds (no copy): only the others
 * are its own. */
static void
cs_call_free_unless_borrowed (char *text, const char *in_message)
{
  if (text != in_message)
    g_free (text);
}

static void
cs_call_finalize (GObject *object)
{
  CsCall *self = CS_CALL (object);

  cs_call_free_unless_borrowed (
      self->call_id, self->first != NULL ? cs_sip_message_get_call_id (self->first) : NULL);
  cs_call_free_unless_borrowed (
      self->from, self->first != NULL ? cs_sip_message_get_from_user (self->first) : NULL);
  cs_call_free_unless_borrowed (
      self->to, self->first != NULL ? cs_sip_message_get_to_user (self->first) : NULL);
  cs_call_free_unless_borrowed (self->user_agent,
                                self->user_agent_source != NULL
                                    ? cs_sip_message_get_user_agent (self->user_agent_source)
                                    : NULL);
  g_clear_pointer (&self->user_agent_source, cs_sip_message_unref);
  g_clear_pointer (&self->first, cs_sip_message_unref);
  g_clear_pointer (&self->initial_request, cs_sip_message_unref);
  g_clear_pointer (&self->final_response, cs_sip_message_unref);
  for (guint i = 0; i < self->n_messages; i++)
    cs_sip_message_unref (cs_call_message_at (self, i));
  if (self->messages != self->first_messages)
    g_free (self->messages);
  if (self->quick != self->first_quick)
    g_free (self->quick);
  g_clear_pointer (&self->signatures, g_hash_table_unref);
  cs_transaction_log_clear (&self->transactions);
  g_clear_pointer (&self->stream_ids, g_array_unref);
  g_clear_pointer (&self->dtmf, g_array_unref);
  g_free (self->sdp_formats);
  G_OBJECT_CLASS (cs_call_parent_class)->finalize (object);
}

static void
cs_call_class_init (CsCallClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cs_call_finalize;
}

static void
cs_call_init (CsCall *self)
{
  cs_transaction_log_init (&self->transactions);
  self->messages = self->first_messages;
  self->quick = self->first_quick;
  self->messages_cap = G_N_ELEMENTS (self->first_messages);
  self->first_provisional_ns = -1;
  self->answer_ns = -1;
  self->ack_ns = -1;
  self->bye_ns = -1;
  self->mos = -1;
}

const char *
cs_call_state_to_string (CsCallState state)
{
  switch (state)
    {
    case CS_CALL_STATE_SETUP:
      return "setup";
    case CS_CALL_STATE_RINGING:
      return "ringing";
    case CS_CALL_STATE_IN_CALL:
      return "in-call";
    case CS_CALL_STATE_COMPLETED:
      return "completed";
    case CS_CALL_STATE_CANCELLED:
      return "cancelled";
    case CS_CALL_STATE_REJECTED:
      return "rejected";
    case CS_CALL_STATE_FAILED:
      return "failed";
    }
  return "unknown";
}

/* What a person calls a party: the URI's user part (the message's own string, which the
 * call holds), else the URI without parameters. */
static char *
cs_call_party_label (const char *header, const char *user)
{
  CsSipNameAddr na;
  char *label;

  if (user != NULL)
    return (char *) user;
  if (header == NULL || !cs_sip_name_addr_parse (header, &na))
    return g_strdup (header);
  label = g_strndup (na.uri, strcspn (na.uri, ";?"));
  cs_sip_name_addr_clear (&na);
  return label;
}

CsCall *
cs_call_new (guint number, const CsSipMessage *first)
{
  /* no properties: straight to the instance (g_object_new would walk its varargs first) */
  CsCall *self = (CsCall *) g_object_new_with_properties (CS_TYPE_CALL, 0, NULL, NULL);
  gboolean is_request = cs_sip_message_is_request (first);

  self->number = number;
  self->method = cs_sip_message_get_transaction_method (first);
  self->first = cs_sip_message_ref ((CsSipMessage *) first);
  self->method_name = is_request ? cs_sip_message_get_method_name (first)
                                 : cs_sip_message_get_cseq_method_name (first);
  self->call_id = (char *) cs_sip_message_get_call_id (
      first); /* first is held: see cs_call_free_unless_borrowed */
  self->from
      = cs_call_party_label (cs_sip_message_get_from (first), cs_sip_message_get_from_user (first));
  self->to
      = cs_call_party_label (cs_sip_message_get_to (first), cs_sip_message_get_to_user (first));
  self->from_tag = cs_sip_message_get_from_tag (first);
  self->initial_request = cs_sip_message_ref ((CsSipMessage *) first);
  self->initial_branch = cs_sip_message_get_via_branch (first);
  self->initial_cseq = cs_sip_message_get_cseq (first);
  self->start_ns = self->end_ns = cs_sip_message_get_ts_ns (first);
  self->state = CS_CALL_STATE_SETUP;
  return self;
}

/* A signature identifies one transmission of a message within its transaction
 * (cs_sip_message_signature_equal): seeing it twice means the sender retransmitted. */

/* Calls keep few messages: a linear scan up to this many, a set keyed by the stored
 * messages (same lifetime as the call) beyond. */
#define CS_CALL_SIGNATURE_SCAN 16

/* The latest stored message with msg's signature, or NULL; the stored messages are exactly
 * the signatures seen (over the cap nothing is stored and nothing was added either). */
static CsSipMessage *
cs_call_seen_signature (CsCall *self, const CsSipMessage *msg, guint32 quick)
{
  gpointer latest = NULL;

  if (self->signatures != NULL)
    return g_hash_table_lookup_extended (self->signatures, msg, &latest, NULL) ? latest : NULL;
  for (guint i = self->n_messages; i-- > 0;)
    if (self->quick[i] == quick
        && cs_sip_message_signature_equal (cs_call_message_at (self, i), msg))
      return cs_call_message_at (self, i);
  return NULL;
}

/* msg repeats earlier (same signature): the same transmission seen again, or sent again?
 * Within one capture point: the same endpoints within a few ms (a mirror of the same hop). */
static gboolean
cs_call_is_sighting_at_one_point (const CsSipMessage *earlier, const CsSipMessage *msg)
{
  return cs_endpoint_equal (cs_sip_message_get_src (earlier), cs_sip_message_get_src (msg))
         && cs_endpoint_equal (cs_sip_message_get_dst (earlier), cs_sip_message_get_dst (msg))
         && cs_sip_message_get_ts_ns (msg) - cs_sip_message_get_ts_ns (earlier)
                < CS_CALL_SIGHTING_WINDOW_NS;
}

/* With capture points a point sees each transmission once: a copy is a sighting when its
 * point has seen fewer copies of the message than another point has, and the latest copy is
 * recent (the points' clocks are aligned; the window covers the delay between them). */
static gboolean
cs_call_is_sighting_at_points (CsCall *self, const CsSipMessage *earlier, const CsSipMessage *msg,
                               guint32 quick)
{
  guint point = cs_sip_message_get_point (msg), here = 0;
  g_autoptr (GHashTable) per_point = NULL;
  guint most = 0;

  if (cs_sip_message_get_ts_ns (msg) - cs_sip_message_get_ts_ns (earlier)
      >= CS_CALL_POINT_SIGHTING_WINDOW_NS)
    return FALSE;
  per_point = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint i = 0; i < self->n_messages; i++)
    {
      const CsSipMessage *copy = cs_call_message_at (self, i);
      guint n;

      if (self->quick[i] != quick || !cs_sip_message_signature_equal (copy, msg))
        continue;
      n = GPOINTER_TO_UINT (
              g_hash_table_lookup (per_point, GUINT_TO_POINTER (cs_sip_message_get_point (copy))))
          + 1;
      g_hash_table_insert (per_point, GUINT_TO_POINTER (cs_sip_message_get_point (copy)),
                           GUINT_TO_POINTER (n));
      most = MAX (most, n);
      if (cs_sip_message_get_point (copy) == point)
        here = n;
    }
  return here < most;
}

static gboolean
cs_call_is_sighting (CsCall *self, const CsSipMessage *earlier, const CsSipMessage *msg,
                     guint32 quick)
{
  if (cs_sip_message_get_point (msg) != 0)
    return cs_call_is_sighting_at_points (self, earlier, msg, quick);
  return cs_call_is_sighting_at_one_point (earlier, msg);
}

/* Records a newly stored message (already in self->messages); a repeat takes the place of
 * the copy before it, so the next one is compared with the latest. */
static void
cs_call_remember_signature (CsCall *self, CsSipMessage *msg)
{
  if (self->signatures == NULL && self->n_messages > CS_CALL_SIGNATURE_SCAN)
    {
      self->signatures
          = g_hash_table_new (cs_sip_message_signature_hash, cs_sip_message_signature_equal);
      for (guint i = 0; i + 1 < self->n_messages; i++)
        g_hash_table_add (self->signatures, cs_call_message_at (self, i));
    }
  if (self->signatures != NULL)
    g_hash_table_add (self->signatures, msg);
}

static gboolean
cs_call_is_initial_transaction (CsCall *self, const CsSipMessage *msg)
{
  return cs_sip_message_get_cseq (msg) == self->initial_cseq
         && cs_sip_message_get_cseq_method (msg) == self->method;
}

/* The final answer's reason phrase, kept by holding the message. */
static void
cs_call_set_final_response (CsCall *self, const CsSipMessage *msg)
{
  if (self->final_response != msg)
    {
      g_clear_pointer (&self->final_response, cs_sip_message_unref);
      self->final_response = cs_sip_message_ref ((CsSipMessage *) msg);
    }
  self->final_reason = cs_sip_message_get_reason (msg);
}

static void
cs_call_apply_invite_response (CsCall *self, const CsSipMessage *msg)
{
  guint code = cs_sip_message_get_status_code (msg);

  if (!cs_call_is_initial_transaction (self, msg))
    return; /* a re-INVITE's outcome does not change the call's state */
  if ((code == 180 || code == 183) && self->first_provisional_ns < 0)
    self->first_provisional_ns = cs_sip_message_get_ts_ns (msg);
  if (code >= 101 && code < 200 && self->state == CS_CALL_STATE_SETUP)
    self->state = CS_CALL_STATE_RINGING;
  if (code < 200 || self->answer_ns >= 0)
    return;
  if (code < 300)
    {
      self->answer_ns = cs_sip_message_get_ts_ns (msg);
      self->state = CS_CALL_STATE_IN_CALL;
    }
  else if (!self->final_seen)
    self->state
        = (code == 487 && self->cancel_seen) ? CS_CALL_STATE_CANCELLED : CS_CALL_STATE_REJECTED;
  self->final_seen = TRUE;
  self->final_status = code;
  cs_call_set_final_response (self, msg);
}

static void
cs_call_apply_other (CsCall *self, const CsSipMessage *msg)
{
  guint code;

  if (cs_sip_message_is_request (msg))
    return;
  code = cs_sip_message_get_status_code (msg);
  if (code < 200)
    {
      if (self->state == CS_CALL_STATE_SETUP)
        self->state = CS_CALL_STATE_RINGING;
      return;
    }
  /* Out-of-dialog exchanges (REGISTER, OPTIONS…) take the last final answer:
   * REGISTER → 401 → REGISTER → 200 ends as 200. */
  self->final_seen = TRUE;
  self->final_status = code;
  cs_call_set_final_response (self, msg);
  self->state = code < 300 ? CS_CALL_STATE_COMPLETED : CS_CALL_STATE_REJECTED;
  if (self->answer_ns < 0 && code < 300)
    self->answer_ns = cs_sip_message_get_ts_ns (msg);
}

static void
cs_call_apply_invite_dialog (CsCall *self, const CsSipMessage *msg)
{
  if (!cs_sip_message_is_request (msg))
    {
      if (cs_sip_message_get_cseq_method (msg) == CS_SIP_METHOD_INVITE)
        cs_call_apply_invite_response (self, msg);
      return;
    }
  switch (cs_sip_message_get_method (msg))
    {
    case CS_SIP_METHOD_CANCEL:
      self->cancel_seen = TRUE;
      break;
    case CS_SIP_METHOD_ACK:
      if (self->ack_ns < 0 && self->answer_ns >= 0)
        self->ack_ns = cs_sip_message_get_ts_ns (msg);
      break;
    case CS_SIP_METHOD_BYE:
      if (self->bye_ns < 0)
        self->bye_ns = cs_sip_message_get_ts_ns (msg);
      /* only an answered call completes: a BYE after a 3xx–6xx (or with no answer at
       * all) leaves the outcome the INVITE had */
      if (self->state == CS_CALL_STATE_IN_CALL)
        self->state = CS_CALL_STATE_COMPLETED;
      break;
    default:
      break;
    }
}

static void
cs_call_store_message (CsCall *self, CsSipMessage *msg, guint32 quick, guintptr bits)
{
  CsSipMethod request; /* the request's method, UNKNOWN for a response */
  guint32 frame;

  if (self->n_messages == self->messages_cap)
    {
      self->messages_cap *= 2;
      if (self->messages == self->first_messages)
        {
          self->messages = g_new (guintptr, self->messages_cap);
          memcpy (self->messages, self->first_messages, sizeof self->first_messages);
          self->quick = g_new (guint32, self->messages_cap);
          memcpy (self->quick, self->first_quick, sizeof self->first_quick);
        }
      else
        {
          self->messages = g_renew (guintptr, self->messages, self->messages_cap);
          self->quick = g_renew (guint32, self->quick, self->messages_cap);
        }
    }
  self->quick[self->n_messages] = quick;
  frame = cs_sip_message_get_frame (msg);
  if (self->n_messages == 0)
    self->first_stored_frame = frame;
  self->last_stored_frame = frame;
  request
      = cs_sip_message_is_request (msg) ? cs_sip_message_get_method (msg) : CS_SIP_METHOD_UNKNOWN;
  if (request == CS_SIP_METHOD_INFO)
    self->info_requests_stored++;
  self->messages[self->n_messages++] = (guintptr) cs_sip_message_ref (msg) | bits;
  if (request == CS_SIP_METHOD_ACK)
    self->ack_stored = TRUE;
  if (cs_sip_message_get_malformed (msg) != NULL)
    self->malformed_stored++;
}

gboolean
cs_call_add_message (CsCall *self, CsSipMessage *msg)
{
  gboolean full = self->max_messages > 0 && self->n_messages >= self->max_messages;
  guint32 quick = cs_sip_message_quick_signature (msg);
  CsSipMessage *earlier = cs_call_seen_signature (self, msg, quick);
  gboolean sighting = earlier != NULL && cs_call_is_sighting (self, earlier, msg, quick);
  guintptr bits = earlier == NULL ? 0
                  : sighting      ? CS_CALL_MESSAGE_SIGHTING
                                  : CS_CALL_MESSAGE_RETRANSMITTED;
  gint64 ts_ns;

  self->version++;
  /* Over the cap a message still moves the state but nothing is stored. */
  if (full)
    self->dropped_messages++;
  else
    {
      cs_call_store_message (self, msg, quick, bits);
      cs_call_remember_signature (self, msg);
      if (!sighting)
        cs_transaction_log_add (&self->transactions, msg);
    }
  ts_ns = cs_sip_message_get_ts_ns (msg);
  if (ts_ns > self->end_ns)
    self->end_ns = ts_ns;
  if (self->user_agent == NULL && cs_sip_message_is_request (msg))
    {
      const char *user_agent = cs_sip_message_get_user_agent (msg);

      if (user_agent != NULL)
        {
          self->user_agent_source = cs_sip_message_ref (msg);
          self->user_agent = (char *) user_agent;
        }
    }
  if (sighting)
    {
      self->sightings++;
      return TRUE;
    }
  if (earlier != NULL)
    {
      self->retransmissions++;
      return TRUE;
    }
  if (self->method == CS_SIP_METHOD_INVITE)
    cs_call_apply_invite_dialog (self, msg);
  else
    cs_call_apply_other (self, msg);
  return FALSE;
}

gboolean
cs_call_is_over (CsCall *self)
{
  switch (self->state)
    {
    case CS_CALL_STATE_COMPLETED:
    case CS_CALL_STATE_CANCELLED:
    case CS_CALL_STATE_REJECTED:
    case CS_CALL_STATE_FAILED:
      return TRUE;
    default:
      return FALSE;
    }
}

gboolean
cs_call_is_auth_challenged (CsCall *self)
{
  return self->method == CS_SIP_METHOD_INVITE && self->state == CS_CALL_STATE_REJECTED
         && (self->final_status == 401 || self->final_status == 407);
}

void
cs_call_restart_after_challenge (CsCall *self, const CsSipMessage *invite)
{
  cs_sip_message_ref ((CsSipMessage *) invite);
  g_clear_pointer (&self->initial_request, cs_sip_message_unref);
  self->initial_request = (CsSipMessage *) invite;
  self->initial_branch = cs_sip_message_get_via_branch (invite);
  self->initial_cseq = cs_sip_message_get_cseq (invite);
  self->state = CS_CALL_STATE_SETUP;
  self->final_seen = FALSE;
  self->final_status = 0;
  self->final_reason = NULL;
  g_clear_pointer (&self->final_response, cs_sip_message_unref);
}

void
cs_call_finish (CsCall *self, gint64 capture_end_ns)
{
  /* Timer B runs from the INVITE that is still waiting (after a 401/407, the one with
   * credentials), not from the call's first message */
  gint64 sent_ns = self->initial_request != NULL ? cs_sip_message_get_ts_ns (self->initial_request)
                                                 : self->start_ns;
  gboolean timed_out = capture_end_ns - sent_ns >= CS_TRANSACTION_TIMEOUT_NS;

  if (self->final_seen)
    return;
  /* No final response: a failure once Timer B (Timer F for a non-INVITE: also 64·T1) has
   * expired within the capture, otherwise the request was still waiting when it stopped. */
  if (timed_out)
    {
      if (self->state == CS_CALL_STATE_SETUP || self->state == CS_CALL_STATE_RINGING)
        self->state = CS_CALL_STATE_FAILED;
    }
}

/* text itself when it is the string at offset in msg (which the copy holds), else a copy. */
static char *
cs_call_borrow_or_dup (const char *text, const CsSipMessage *msg, CsSipField field)
{
  if (msg != NULL && text == cs_sip_message_get_string (msg, field))
    return (char *) text;
  return g_strdup (text);
}

CsCall *
cs_call_snapshot (CsCall *self)
{
  CsCall *copy = g_object_new (CS_TYPE_CALL, NULL);

  copy->number = self->number;
  copy->method = self->method;
  /* messages are immutable once parsed: sharing them (and strings inside them) is safe */
  copy->first = self->first != NULL ? cs_sip_message_ref (self->first) : NULL;
  copy->initial_request
      = self->initial_request != NULL ? cs_sip_message_ref (self->initial_request) : NULL;
  copy->final_response
      = self->final_response != NULL ? cs_sip_message_ref (self->final_response) : NULL;
  copy->method_name = self->method_name;
  copy->call_id = cs_call_borrow_or_dup (self->call_id, copy->first, CS_SIP_FIELD_CALL_ID);
  copy->from = cs_call_borrow_or_dup (self->from, copy->first, CS_SIP_FIELD_FROM_USER);
  copy->to = cs_call_borrow_or_dup (self->to, copy->first, CS_SIP_FIELD_TO_USER);
  copy->from_tag = self->from_tag;
  if (self->user_agent_source != NULL)
    copy->user_agent_source = cs_sip_message_ref (self->user_agent_source);
  copy->user_agent
      = cs_call_borrow_or_dup (self->user_agent, copy->user_agent_source, CS_SIP_FIELD_USER_AGENT);
  copy->state = self->state;
  copy->final_status = self->final_status;
  copy->final_reason = self->final_reason;
  copy->initial_branch = self->initial_branch;
  copy->initial_cseq = self->initial_cseq;
  copy->start_ns = self->start_ns;
  copy->end_ns = self->end_ns;
  copy->first_provisional_ns = self->first_provisional_ns;
  copy->answer_ns = self->answer_ns;
  copy->ack_ns = self->ack_ns;
  copy->bye_ns = self->bye_ns;
  copy->cancel_seen = self->cancel_seen;
  copy->final_seen = self->final_seen;
  copy->retransmissions = self->retransmissions;
  copy->sightings = self->sightings;
  copy->ack_stored = self->ack_stored;
  copy->malformed_stored = self->malformed_stored;
  if (self->n_messages > copy->messages_cap)
    {
      copy->messages = g_new (guintptr, self->n_messages);
      copy->quick = g_new (guint32, self->n_messages);
      copy->messages_cap = self->n_messages;
    }
  for (guint i = 0; i < self->n_messages; i++)
    {
      cs_sip_message_ref (cs_call_get_message (self, i));
      copy->messages[i] = self->messages[i]; /* with its bits */
      copy->quick[i] = self->quick[i];
    }
  copy->n_messages = self->n_messages;
  copy->first_stored_frame = self->first_stored_frame;
  copy->last_stored_frame = self->last_stored_frame;
  copy->info_requests_stored = self->info_requests_stored;
  copy->version = self->version;
  return copy;
}

void
cs_call_take_text (CsCall *self, char **field, char *text)
{
  const char *borrowed = NULL;

  if (self->first != NULL && field == &self->call_id)
    borrowed = cs_sip_message_get_call_id (self->first);
  else if (self->first != NULL && field == &self->from)
    borrowed = cs_sip_message_get_from_user (self->first);
  else if (self->first != NULL && field == &self->to)
    borrowed = cs_sip_message_get_to_user (self->first);
  else if (self->user_agent_source != NULL && field == &self->user_agent)
    borrowed = cs_sip_message_get_user_agent (self->user_agent_source);
  cs_call_free_unless_borrowed (*field, borrowed);
  *field = text;
}

void
cs_call_add_stream (CsCall *self, guint stream_id, double mos)
{
  if (self->stream_ids == NULL)
    self->stream_ids = g_array_new (FALSE, FALSE, sizeof (guint));
  g_array_append_val (self->stream_ids, stream_id);
  if (mos >= 0 && (self->mos < 0 || mos < self->mos))
    self->mos = mos;
}

void
cs_call_count_finding (CsCall *self)
{
  self->n_findings++;
}

gboolean
cs_call_take_changed (CsCall *self)
{
  if (self->version == self->published_version)
    return FALSE;
  self->published_version = self->version;
  return TRUE;
}
