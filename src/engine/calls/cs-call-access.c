/* cs-call-access.c — what a call says about itself: the getters of CsCall */
#include "cs-call-private.h"

#include "base/cs-prefetch.h"

guint
cs_call_get_number (CsCall *self)
{
  return self->number;
}

CsSipMethod
cs_call_get_method (CsCall *self)
{
  return self->method;
}

const char *
cs_call_get_method_name (CsCall *self)
{
  return self->method_name;
}

const char *
cs_call_get_call_id (CsCall *self)
{
  return self->call_id;
}

const char *
cs_call_get_from (CsCall *self)
{
  return self->from;
}

const char *
cs_call_get_to (CsCall *self)
{
  return self->to;
}

const char *
cs_call_get_from_tag (CsCall *self)
{
  return self->from_tag;
}

const char *
cs_call_get_user_agent (CsCall *self)
{
  return self->user_agent;
}

CsCallState
cs_call_get_state (CsCall *self)
{
  return self->state;
}

guint
cs_call_get_final_status (CsCall *self)
{
  return self->final_status;
}

const char *
cs_call_get_final_reason (CsCall *self)
{
  return self->final_reason;
}

gint64
cs_call_get_start_ns (CsCall *self)
{
  return self->start_ns;
}

gint64
cs_call_get_end_ns (CsCall *self)
{
  return self->end_ns;
}

static double
cs_call_span_ms (gint64 from_ns, gint64 to_ns)
{
  if (from_ns < 0 || to_ns < 0)
    return -1;
  return (double) (to_ns - from_ns) / 1e6;
}

double
cs_call_get_pdd_ms (CsCall *self)
{
  return self->method == CS_SIP_METHOD_INVITE
             ? cs_call_span_ms (self->start_ns, self->first_provisional_ns)
             : -1;
}

double
cs_call_get_setup_ms (CsCall *self)
{
  return self->method == CS_SIP_METHOD_INVITE ? cs_call_span_ms (self->start_ns, self->answer_ns)
                                              : -1;
}

double
cs_call_get_ring_ms (CsCall *self)
{
  return cs_call_span_ms (self->first_provisional_ns, self->answer_ns);
}

double
cs_call_get_duration_s (CsCall *self)
{
  double ms = cs_call_span_ms (self->answer_ns, self->bye_ns);

  return self->method == CS_SIP_METHOD_INVITE && ms >= 0 ? ms / 1000.0 : -1;
}

guint
cs_call_get_n_messages (CsCall *self)
{
  return self->n_messages;
}

CsSipMessage *
cs_call_get_message (CsCall *self, guint index)
{
  g_return_val_if_fail (index < self->n_messages, NULL);
  return cs_call_message_at (self, index);
}

gboolean
cs_call_message_is_retransmission (CsCall *self, guint index)
{
  g_return_val_if_fail (index < self->n_messages, FALSE);
  return (self->messages[index] & CS_CALL_MESSAGE_RETRANSMITTED) != 0;
}

gboolean
cs_call_message_is_sighting (CsCall *self, guint index)
{
  g_return_val_if_fail (index < self->n_messages, FALSE);
  return (self->messages[index] & CS_CALL_MESSAGE_SIGHTING) != 0;
}

guint
cs_call_get_retransmissions (CsCall *self)
{
  return self->retransmissions;
}

guint
cs_call_get_sightings (CsCall *self)
{
  return self->sightings;
}

guint32
cs_call_get_first_frame (CsCall *self)
{
  return self->n_messages > 0 ? self->first_stored_frame : 0;
}

guint32
cs_call_get_last_frame (CsCall *self)
{
  return self->n_messages > 0 ? self->last_stored_frame : 0;
}

const GArray *
cs_call_get_stream_ids (CsCall *self)
{
  /* most calls of a signalling capture never get a stream: one shared empty view */
  static const GArray no_ids = { NULL, 0 };

  return self->stream_ids != NULL ? self->stream_ids : &no_ids;
}

double
cs_call_get_mos (CsCall *self)
{
  return self->mos;
}

gint64
cs_call_get_answer_ns (CsCall *self)
{
  return self->answer_ns;
}

gint64
cs_call_get_bye_ns (CsCall *self)
{
  return self->bye_ns;
}

gboolean
cs_call_has_ack (CsCall *self)
{
  return self->ack_stored;
}

guint
cs_call_get_n_malformed (CsCall *self)
{
  return self->malformed_stored;
}

void
cs_call_prefetch (const CsCall *self, gboolean prefetch_strings)
{
  if (!prefetch_strings)
    {
      cs_prefetch_bytes (self, sizeof *self);
      return;
    }
  CS_PREFETCH (self->call_id);
  CS_PREFETCH (self->from);
  CS_PREFETCH (self->to);
  CS_PREFETCH (self->final_reason);
  CS_PREFETCH (self->user_agent);
}

guint
cs_call_get_n_findings (CsCall *self)
{
  return self->n_findings;
}

guint
cs_call_get_n_transactions (CsCall *self)
{
  return cs_transaction_log_get_n (&self->transactions);
}

const CsTransaction *
cs_call_get_transaction (CsCall *self, guint index)
{
  return cs_transaction_log_get (&self->transactions, index);
}
