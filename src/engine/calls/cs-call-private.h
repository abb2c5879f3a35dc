/* cs-call-private.h — fields of CsCall, filled by the call tracker */
#pragma once

#include "cs-call-loading.h"
#include "cs-transaction.h"

G_BEGIN_DECLS

/* Bits of a stored message's pointer (messages are at least 8-byte aligned). */
#define CS_CALL_MESSAGE_RETRANSMITTED ((guintptr) 1) /* the sender sent it again */
#define CS_CALL_MESSAGE_SIGHTING ((guintptr) 2)      /* the same transmission seen again */
#define CS_CALL_MESSAGE_BITS (CS_CALL_MESSAGE_RETRANSMITTED | CS_CALL_MESSAGE_SIGHTING)

/* Call-ID and From-tag (NULL and "" alike) with their hashes, so a message's Call-ID is
 * hashed once however many tables it is looked up in. */
typedef struct
{
  guint64 call_id_hash;
  guint64 tag_hash;
  const char *call_id;
  const char *tag;
} CsCallKey;

struct _CsCall
{
  GObject parent_instance;

  guint number;
  CsSipMethod method;
  const char *method_name; /* inside first */
  /* The next four are strings of the messages below when they are equal (first's Call-ID
   * and users, user_agent_source's User-Agent): only other values are the call's own. */
  char *call_id;
  char *from;
  char *to;
  const char *from_tag; /* inside first */
  char *user_agent;
  CsCallState state;
  guint final_status;
  const char *final_reason; /* inside final_response */

  /* Transaction that created the call: its branch and CSeq tell a
   * retransmission from a new call that reuses the Call-ID. */
  const char *initial_branch; /* inside initial_request */
  guint32 initial_cseq;

  /* Held so the borrowed strings above need no copies (messages are immutable). */
  CsSipMessage *first;
  CsSipMessage *initial_request;
  CsSipMessage *final_response;
  CsSipMessage *user_agent_source; /* NULL until a request with a User-Agent */

  gint64 start_ns;
  gint64 end_ns;
  gint64 first_provisional_ns; /* first 180/183 to the initial INVITE */
  gint64 answer_ns;            /* first 2xx to the initial INVITE */
  gint64 ack_ns;
  gint64 bye_ns;
  gboolean cancel_seen;
  gboolean final_seen;
  gboolean ack_stored;    /* an ACK is among the stored messages */
  guint malformed_stored; /* stored messages with ->malformed set */

  /* The call tracker's key, its Call-ID and From-tag: next to the stored messages, so that
   * finding the call and adding a message to it read the same cache line. */
  CsCallKey tracker_key;
  /* Stored messages in capture order, one reference each; bit 0 of each pointer is set
   * when the sender sent the message again (a retransmission), bit 1 when the same
   * transmission was captured again (a sighting; messages are at least 8-byte aligned). */
  guintptr *messages; /* first_messages until more are stored */
  guint n_messages, messages_cap;
  guintptr first_messages[8]; /* most calls have fewer: no allocation for them */
  /* Per stored message, the numbers of its signature mixed (cs_call_quick_signature):
   * the retransmission scan reads a stored message only when they match. */
  guint32 *quick;
  guint32 first_quick[8];
  GHashTable *signatures; /* NULL, or for long calls: signatures seen, for retransmissions */
  guint retransmissions;
  guint sightings; /* messages seen again at another point, not sent again */
  /* Read from the stored messages when they are stored: findings and DTMF then need not
   * visit every call's messages again. */
  guint32 first_stored_frame, last_stored_frame;
  guint info_requests_stored; /* INFO requests (DTMF may be in them) */
  CsTransactionLog transactions;

  gpointer sdp_formats; /* the stream binder's record of the call's rtpmaps (one block) */

  GArray *stream_ids; /* guint; NULL until a stream is bound */
  GArray *dtmf;       /* CsCallDtmf (cs-call-dtmf.c); NULL until collected */
  double mos;
  guint n_findings;
  guint version;           /* bumped by every message (load thread only) */
  guint published_version; /* version of the last snapshot handed to the GUI */

  /* Cap on stored messages (0 = none) and what it dropped (CsLimits). */
  guint max_messages;
  guint dropped_messages;
};

CsCall *cs_call_new (guint number, const CsSipMessage *first);
/* Adds a message; returns TRUE when it repeats one already in the call. */
gboolean cs_call_add_message (CsCall *self, CsSipMessage *msg);
/* Settles the state once the capture has ended at end_ns. */
void cs_call_finish (CsCall *self, gint64 capture_end_ns);
gboolean cs_call_is_over (CsCall *self);
/* The INVITE was answered 401/407: the next INVITE with credentials
 * (same Call-ID and From-tag, higher CSeq) continues the same call. */
gboolean cs_call_is_auth_challenged (CsCall *self);
void cs_call_restart_after_challenge (CsCall *self, const CsSipMessage *invite);
/* Sets one of the call's call_id, from, to or user_agent (field) to text, taken: for
 * calls made by hand (tests); the old value is freed when it is the call's own. */
void cs_call_take_text (CsCall *self, char **field, char *text);

/* Stored message i without its bits (i < n_messages). */
static inline CsSipMessage *
cs_call_message_at (const CsCall *self, guint i)
{
  return (CsSipMessage *) (self->messages[i] & ~CS_CALL_MESSAGE_BITS);
}

G_END_DECLS
