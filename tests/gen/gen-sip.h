/* gen-sip.h — SIP user agents and dialogs that write real SIP onto the wire */
#pragma once

#include "gen-capture.h"
#include "gen-expect.h"

G_BEGIN_DECLS

#define CT_SDP "application/sdp"

#define GEN_DOMAIN "example.com"

typedef struct
{
  char name[64]; /* long enough for the hostile scenario's names */
  char user[64];
  CsEndpoint sip;
  const char *agent;
} GenUa;

void gen_ua_init (GenUa *ua, const char *name, const char *user, const char *ip, guint16 port,
                  const char *agent);

typedef enum
{
  GEN_CALLER = 0, /* the side that sent the first request (wire end 0) */
  GEN_CALLEE = 1,
} GenSide;

typedef struct _GenDialog GenDialog;

/* Where rendered messages go: UDP by default, TCP when a connection is set. */
typedef void (*GenSipSink) (GenDialog *d, gint64 time_ns, GenSide from, const char *text, gsize len,
                            gpointer user_data);

typedef struct
{
  char method[16];
  guint32 cseq;
  char branch[32];
  GenExpectNonInvite *non_invite; /* when the request is outside an INVITE dialog */
  gboolean initial_invite;
} GenTxn;

struct _GenDialog
{
  GenCapture *cap;
  const GenUa *ua[2]; /* caller, callee (From/To users and agents) */
  CsEndpoint ends[2]; /* wire endpoints: caller's UA, then proxy or callee */
  gboolean is_call;   /* an INVITE dialog: messages count for one call */
  char *call_id;
  char *from_tag; /* the caller's tag */
  char *to_tag;   /* the callee's tag, set by the first response > 100 */
  guint32 cseq[2];
  GenTxn txn[2];      /* last request from each side */
  GenTxn invite_txn;  /* last INVITE from the caller */
  char *last_text[2]; /* last message each side sent, for retransmissions */
  GenExpectNonInvite *last_non_invite[2];
  GenExpectMessage last_message[2]; /* what last_text was, for the call's expectation */
  GenExpectCall *expect;
  const char *transport; /* "UDP" or "TCP" */
  GenTcpConn *tcp;
  GenSipSink sink;
  gpointer sink_data;
  /* damage for the malformed scenario, applied to the next message only */
  gboolean omit_call_id;
  gboolean bad_cseq;
  int content_length_lie;
  const char *reason; /* the next response's reason phrase instead of the usual one */
};

GenDialog *gen_dialog_new (GenCapture *cap, const GenUa *caller, const GenUa *callee,
                           const CsEndpoint *remote, gboolean is_call);
void gen_dialog_free (GenDialog *d);
void gen_dialog_set_call_id (GenDialog *d, const char *call_id);
void gen_dialog_set_from_tag (GenDialog *d, const char *tag);
void gen_dialog_set_to_tag (GenDialog *d, const char *tag);
void gen_dialog_use_tcp (GenDialog *d, GenTcpConn *conn);
void gen_dialog_set_state (GenDialog *d, const char *state);

/* A new request from side (new CSeq and branch). */
void gen_dialog_request (GenDialog *d, gint64 time_ns, GenSide side, const char *method,
                         const char *extra_headers, const char *content_type, const char *body);
/* ACK for the last INVITE: for a 2xx a new transaction, else the INVITE's branch. */
void gen_dialog_ack (GenDialog *d, gint64 time_ns, gboolean for_2xx);
void gen_dialog_cancel (GenDialog *d, gint64 time_ns);
/* A response to the last request from request_side. */
void gen_dialog_respond (GenDialog *d, gint64 time_ns, GenSide request_side, guint status,
                         const char *extra_headers, const char *content_type, const char *body);
void gen_dialog_respond_invite (GenDialog *d, gint64 time_ns, guint status,
                                const char *content_type, const char *body);
/* The last message of side, sent again and counted as a retransmission. */
void gen_dialog_retransmit (GenDialog *d, gint64 time_ns, GenSide side);

char *gen_random_hex (GenRand *rand, guint digits);
const char *gen_sip_reason (guint status);

/* SDP body. pts: payload types offered (0, 8, 101 known). */
char *gen_sdp (const GenUa *ua, const CsAddr *media_addr, guint16 port, const guint8 *pts,
               guint n_pts, const char *direction, guint64 session_id, guint version);

G_END_DECLS
