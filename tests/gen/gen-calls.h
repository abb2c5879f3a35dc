/* gen-calls.h — whole calls (INVITE to BYE with RTP) shared by scenarios and demo */
#pragma once

#include "gen-rtp.h"
#include "gen-sip.h"

G_BEGIN_DECLS

typedef struct
{
  gint64 t0;
  const GenUa *caller;
  const GenUa *callee;
  CsEndpoint remote; /* where the caller's SIP goes: a proxy or the callee */
  guint16 caller_rtp;
  guint16 callee_rtp;
  guint8 pt;               /* 0 = PCMU, 8 = PCMA, else codec->pt */
  const GenCodec *codec;   /* NULL: G.711 */
  const GenSrtpPlan *srtp; /* NULL: RTP/AVP */
} GenCallPlan;

typedef struct
{
  GenCapture *cap;
  GenCallPlan plan;
  GenDialog *d;
  CsEndpoint caller_media;
  CsEndpoint callee_media;
  GenRtpStream up;   /* caller -> callee */
  GenRtpStream down; /* callee -> caller */
  guint64 session_id[2];
  guint sdp_version[2];
  guint8 srtp_key[2][64]; /* caller's and callee's sending keys (plan.srtp) */
} GenCall;

/* The usual cast: alice 10.0.0.10 (1001), bob 10.0.0.20 (1002), the proxy 10.0.0.1. */
typedef struct
{
  GenUa alice, bob, carol, proxy;
} GenCast;

void gen_cast_init (GenCast *cast);
void gen_plan_init (GenCallPlan *plan, gint64 t0, const GenUa *caller, const GenUa *callee,
                    const GenUa *via);

void gen_call_init (GenCall *c, GenCapture *cap, const GenCallPlan *plan);
void gen_call_clear (GenCall *c);
char *gen_call_offer (GenCall *c, const char *direction);
char *gen_call_answer_sdp (GenCall *c, const char *direction);
/* Makes s (side 0: the caller's, 1: the callee's) leave as SRTP when plan.srtp says so,
 * before its first packet; its expectation says how it should be opened. */
void gen_call_protect_stream (GenCall *c, GenRtpStream *s, guint side);
/* INVITE with an SDP offer at t0; 100 after 10 ms unless no_trying. */
void gen_call_invite (GenCall *c, gboolean with_trying);
/* 200 with the answer, then the ACK; returns the time media starts. */
gint64 gen_call_answer (GenCall *c, gint64 t);
/* BYE from who, 200 from the other side; returns the time after. */
gint64 gen_call_hangup (GenCall *c, gint64 t, GenSide who);
/* Both directions unless one_way; the down direction gets impair. */
void gen_call_talk (GenCall *c, gint64 t, gint64 duration, gboolean one_way,
                    const GenRtpImpair *impair);

/* The demo's and the golden scenarios' call shapes. Each returns its end time. */
gint64 gen_call_clean (GenCapture *cap, const GenCallPlan *plan, gint64 talk);
gint64 gen_call_loss_jitter (GenCapture *cap, const GenCallPlan *plan, gint64 talk);
gint64 gen_call_one_way (GenCapture *cap, const GenCallPlan *plan, gint64 talk);
gint64 gen_call_busy (GenCapture *cap, const GenCallPlan *plan);
gint64 gen_call_cancel (GenCapture *cap, const GenCallPlan *plan);
gint64 gen_call_slow_ring (GenCapture *cap, const GenCallPlan *plan, gint64 talk);
gint64 gen_call_retransmit (GenCapture *cap, const GenCallPlan *plan, gint64 talk);
gint64 gen_register (GenCapture *cap, gint64 t, const GenUa *ua, const GenUa *registrar);
gint64 gen_options_ping (GenCapture *cap, gint64 t, const GenUa *from, const GenUa *to);

G_END_DECLS
