/* cs-call-private.h — fields of CsCall, filled by the call tracker */
#pragma once

#include "cs-call.h"
#include "cs-transaction.h"

G_BEGIN_DECLS

struct _CsCall
{
  GObject parent_instance;

  guint number;
  CsSipMethod method;
  char *method_name;
  char *call_id;
  char *from;
  char *to;
  char *from_tag;
  char *user_agent;
  CsCallState state;
  guint final_status;
  char *final_reason;

  /* Transaction that created the call: its branch and CSeq tell a
   * retransmission from a new call that reuses the Call-ID. */
  char *initial_branch;
  guint32 initial_cseq;

  gint64 start_ns;
  gint64 end_ns;
  gint64 first_provisional_ns; /* first 180/183 to the initial INVITE */
  gint64 answer_ns;            /* first 2xx to the initial INVITE */
  gint64 ack_ns;
  gint64 bye_ns;
  gboolean cancel_seen;
  gboolean final_seen;

  GPtrArray *messages;    /* CsSipMessage*, in capture order */
  GArray *retransmitted;  /* gboolean per message */
  GHashTable *signatures; /* transaction signatures seen, for retransmissions */
  guint retransmissions;
  CsTransactionLog *transactions;

  GArray *stream_ids; /* guint */
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
void cs_call_add_stream_id (CsCall *self, guint stream_id);
/* An independent copy of the call as it is now, safe to hand to another
 * thread while this one keeps changing (transactions and streams are not
 * copied: they are complete only at the end of a load). */
CsCall *cs_call_snapshot (CsCall *self);

G_END_DECLS
