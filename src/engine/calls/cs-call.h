/* cs-call.h — one SIP call (INVITE dialog) or out-of-dialog non-INVITE exchange */
#pragma once

#include <glib-object.h>

#include "sip/cs-sip-message.h"
#include "cs-transaction.h"

G_BEGIN_DECLS

typedef enum
{
  CS_CALL_STATE_SETUP,     /* INVITE sent, nothing but 100 yet */
  CS_CALL_STATE_RINGING,   /* 18x seen */
  CS_CALL_STATE_IN_CALL,   /* 2xx seen, no BYE yet */
  CS_CALL_STATE_COMPLETED, /* BYE seen (or non-INVITE with 2xx) */
  CS_CALL_STATE_CANCELLED, /* CANCEL + 487 */
  CS_CALL_STATE_REJECTED,  /* 3xx–6xx final response */
  CS_CALL_STATE_FAILED,    /* no final response at all */
} CsCallState;

#define CS_TYPE_CALL (cs_call_get_type ())
G_DECLARE_FINAL_TYPE (CsCall, cs_call, CS, CALL, GObject)

const char *cs_call_state_to_string (CsCallState state);

guint cs_call_get_number (CsCall *self);       /* 1-based, in order of first message */
CsSipMethod cs_call_get_method (CsCall *self); /* INVITE for calls; REGISTER, OPTIONS… otherwise */
const char *cs_call_get_method_name (CsCall *self);
const char *cs_call_get_call_id (CsCall *self);
const char *cs_call_get_from (CsCall *self); /* user part of From (or whole URI) */
const char *cs_call_get_to (CsCall *self);   /* user part of To */
const char *cs_call_get_from_tag (CsCall *self);
const char *cs_call_get_user_agent (CsCall *self);
CsCallState cs_call_get_state (CsCall *self);
guint cs_call_get_final_status (CsCall *self); /* 0 when none */
const char *cs_call_get_final_reason (CsCall *self);
gint64 cs_call_get_start_ns (CsCall *self);
gint64 cs_call_get_end_ns (CsCall *self);     /* time of the last message */
double cs_call_get_pdd_ms (CsCall *self);     /* INVITE → first 180/183; < 0 when n/a */
double cs_call_get_setup_ms (CsCall *self);   /* INVITE → 2xx; < 0 when n/a */
double cs_call_get_ring_ms (CsCall *self);    /* first 18x → 2xx; < 0 when n/a */
double cs_call_get_duration_s (CsCall *self); /* 2xx (ACK) → BYE; < 0 when n/a */
guint cs_call_get_n_messages (CsCall *self);
CsSipMessage *cs_call_get_message (CsCall *self, guint index);
guint cs_call_get_retransmissions (CsCall *self);
guint32 cs_call_get_first_frame (CsCall *self);
guint32 cs_call_get_last_frame (CsCall *self);
gint64 cs_call_get_answer_ns (CsCall *self);  /* first 2xx to the initial INVITE; < 0 when none */
gint64 cs_call_get_bye_ns (CsCall *self);     /* the BYE; < 0 when none */
gboolean cs_call_has_ack (CsCall *self);      /* an ACK is among the stored messages */
guint cs_call_get_n_malformed (CsCall *self); /* stored messages that did not parse cleanly */
/* Asks the memory system for the call's object (prefetch_strings: and the strings its
 * getters return), for walks over many calls that would otherwise wait for each. */
void cs_call_prefetch (const CsCall *self, gboolean prefetch_strings);
/* Stream ids (CsStream numbers) bound to this call */
const GArray *cs_call_get_stream_ids (CsCall *self);
double cs_call_get_mos (CsCall *self); /* worst direction; < 0 when no media */
guint cs_call_get_n_findings (CsCall *self);
/* Transactions (request + responses), in order of their first request. */
guint cs_call_get_n_transactions (CsCall *self);
const CsTransaction *cs_call_get_transaction (CsCall *self, guint index);
/* Is the message at index a retransmission (the sender sent it again)? */
gboolean cs_call_message_is_retransmission (CsCall *self, guint index);
/* Is it a sighting: the same transmission captured again (between the same endpoints
 * within 200 ms of the last copy: another capture point, a mirror and the host), counted
 * neither as a retransmission nor as a transmission of its transaction? */
gboolean cs_call_message_is_sighting (CsCall *self, guint index);
/* How many stored messages are sightings. */
guint cs_call_get_sightings (CsCall *self);

G_END_DECLS
