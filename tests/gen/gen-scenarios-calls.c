/* gen-scenarios-calls.c — call-flow scenarios: outcomes, re-INVITE, forking */
#include "gen-scenarios.h"

#define CT_SDP "application/sdp"
#define T0 (GEN_EPOCH + GEN_MS (100))

/* alice calls bob through the proxy, G.711 µ-law */
static void
default_plan (GenCast *cast, GenCallPlan *plan)
{
  gen_cast_init (cast);
  gen_plan_init (plan, T0, &cast->alice, &cast->bob, &cast->proxy);
}

/* loss-burst for stream of call: the packet after every gap; error from 5 % of the expected
 * packets lost, warning from 1 % (docs/findings.md) */
static void
loss_finding (GenCapture *cap, GenExpectCall *call, GenExpectStream *stream)
{
  gint64 expected = stream->max_index - stream->first_index + 1;
  double share = (double) (expected - (gint64) (stream->packets - stream->duplicates)) / expected;
  GenExpectFinding *f = gen_expect_add_finding (cap->expect, "loss-burst",
                                                share >= 0.05   ? "error"
                                                : share >= 0.01 ? "warning"
                                                                : "info",
                                                call, stream);

  gen_expect_finding_after_gaps (f, stream, 64);
}

void
gen_scn_clean (GenCapture *cap)
{
  GenCast cast;
  GenCallPlan plan;

  default_plan (&cast, &plan);
  gen_call_clean (cap, &plan, GEN_S (10));
}

void
gen_scn_loss_jitter (GenCapture *cap)
{
  GenCast cast;
  GenCallPlan plan;

  default_plan (&cast, &plan);
  plan.pt = 8;
  gen_call_loss_jitter (cap, &plan, GEN_S (10));
  /* the down stream's bursts: the packet after each one; error from 5 % lost */
  loss_finding (cap, gen_expect_call (cap->expect, 0), gen_expect_stream (cap->expect, 1));
}

void
gen_scn_one_way (GenCapture *cap)
{
  GenCast cast;
  GenCallPlan plan;

  default_plan (&cast, &plan);
  gen_call_one_way (cap, &plan, GEN_S (8));
  {
    GenExpectStream *up = gen_expect_stream (cap->expect, 0);
    GenExpectFinding *f = gen_expect_add_finding (cap->expect, "one-way-audio", "error",
                                                  gen_expect_call (cap->expect, 0), up);

    gen_expect_finding_frame (f, gen_expect_stream_first (up));
    gen_expect_finding_frame (f, gen_expect_stream_last (up));
  }
}

void
gen_scn_busy (GenCapture *cap)
{
  GenCast cast;
  GenCallPlan plan;

  default_plan (&cast, &plan);
  gen_call_busy (cap, &plan);
  gen_expect_call_finding (cap->expect, "failed-call", "warning", gen_expect_call (cap->expect, 0),
                           "INVITE", 486);
}

void
gen_scn_cancel (GenCapture *cap)
{
  GenCast cast;
  GenCallPlan plan;

  default_plan (&cast, &plan);
  gen_call_cancel (cap, &plan);
}

void
gen_scn_slow_ring (GenCapture *cap)
{
  GenCast cast;
  GenCallPlan plan;

  default_plan (&cast, &plan);
  gen_call_slow_ring (cap, &plan, GEN_S (5));
  {
    /* 6.1 s to the 180: the INVITE and the 180 */
    GenExpectCall *call = gen_expect_call (cap->expect, 0);
    GenExpectFinding *f = gen_expect_add_finding (cap->expect, "slow-pdd", "warning", call, NULL);

    gen_expect_finding_frame (f, gen_expect_call_packet (call, "INVITE", 0, 0));
    gen_expect_finding_frame (f, gen_expect_call_packet (call, "INVITE", 180, 0));
  }
}

void
gen_scn_retransmit (GenCapture *cap)
{
  GenCast cast;
  GenCallPlan plan;

  default_plan (&cast, &plan);
  gen_call_retransmit (cap, &plan, GEN_S (5));
  /* two INVITE copies and a 200 copy: three, a warning */
  gen_expect_finding_copies (gen_expect_add_finding (cap->expect, "retransmissions", "warning",
                                                     gen_expect_call (cap->expect, 0), NULL),
                             gen_expect_call (cap->expect, 0));
}

void
gen_scn_reinvite (GenCapture *cap)
{
  GenCast cast;
  GenCallPlan plan;
  GenCall c;
  gint64 t;
  char *sdp;
  CsEndpoint moved;

  default_plan (&cast, &plan);
  gen_call_init (&c, cap, &plan);
  gen_call_invite (&c, TRUE);
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (70), 180, NULL, NULL);
  t = gen_call_answer (&c, T0 + GEN_MS (2000));
  gen_call_talk (&c, t, GEN_S (4), FALSE, NULL);
  t += GEN_S (4) + GEN_MS (30);

  /* hold: alice offers sendonly, bob answers recvonly; only alice's media flows */
  sdp = gen_call_offer (&c, "sendonly");
  gen_dialog_request (c.d, t, GEN_CALLER, "INVITE", NULL, CT_SDP, sdp);
  g_free (sdp);
  gen_dialog_respond_invite (c.d, t + GEN_MS (10), 100, NULL, NULL);
  sdp = gen_call_answer_sdp (&c, "recvonly");
  gen_dialog_respond_invite (c.d, t + GEN_MS (40), 200, CT_SDP, sdp);
  g_free (sdp);
  gen_dialog_ack (c.d, t + GEN_MS (45), TRUE);
  c.up.tone = GEN_TONE_RINGBACK; /* music on hold */
  gen_rtp_send_audio (&c.up, t + GEN_MS (60), GEN_S (3), NULL);
  t += GEN_S (3) + GEN_MS (100);

  /* resume on a new local port: both directions become new streams */
  c.caller_media.port = 40100;
  sdp = gen_call_offer (&c, "sendrecv");
  gen_dialog_request (c.d, t, GEN_CALLER, "INVITE", NULL, CT_SDP, sdp);
  g_free (sdp);
  gen_dialog_respond_invite (c.d, t + GEN_MS (10), 100, NULL, NULL);
  sdp = gen_call_answer_sdp (&c, "sendrecv");
  gen_dialog_respond_invite (c.d, t + GEN_MS (40), 200, CT_SDP, sdp);
  g_free (sdp);
  gen_dialog_ack (c.d, t + GEN_MS (45), TRUE);
  moved = c.caller_media;
  gen_rtp_stream_move (&c.up, &moved, &c.callee_media);
  gen_rtp_stream_move (&c.down, &c.callee_media, &moved);
  c.up.tone = GEN_TONE_DUAL;
  t += GEN_MS (60);
  gen_call_talk (&c, t, GEN_S (4), FALSE, NULL);
  gen_call_hangup (&c, t + GEN_S (4) + GEN_MS (40), GEN_CALLEE);
  gen_call_clear (&c);
}

void
gen_scn_early_media (GenCapture *cap)
{
  GenCast cast;
  GenCallPlan plan;
  GenCall c;
  g_autofree char *answer = NULL;
  gint64 t;

  default_plan (&cast, &plan);
  plan.pt = 8;
  gen_call_init (&c, cap, &plan);
  gen_call_invite (&c, TRUE);
  answer = gen_call_answer_sdp (&c, "sendrecv");
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (150), 183, CT_SDP, answer);
  /* ring-back tone from the far end before the answer */
  gen_rtp_stream_init (&c.down, cap, &c.callee_media, &c.caller_media, plan.pt, GEN_TONE_RINGBACK,
                       T0 + GEN_MS (170), TRUE);
  t = gen_rtp_send_audio (&c.down, T0 + GEN_MS (170), GEN_S (4), NULL);
  gen_dialog_respond_invite (c.d, t, 200, CT_SDP, answer);
  gen_dialog_ack (c.d, t + GEN_MS (6), TRUE);
  c.down.tone = GEN_TONE_SWEEP;
  gen_rtp_stream_init (&c.up, cap, &c.caller_media, &c.callee_media, plan.pt, GEN_TONE_DUAL,
                       t + GEN_MS (15), TRUE);
  gen_rtp_send_audio (&c.up, t + GEN_MS (15), GEN_S (5), NULL);
  gen_rtp_send_audio (&c.down, t, GEN_S (5), NULL);
  gen_call_hangup (&c, t + GEN_S (5) + GEN_MS (40), GEN_CALLER);
  gen_call_clear (&c);
}

void
gen_scn_forking (GenCapture *cap)
{
  GenCast cast;
  GenCallPlan plan;
  GenCall c;
  gint64 t;

  default_plan (&cast, &plan);
  gen_call_init (&c, cap, &plan);
  gen_call_invite (&c, TRUE);
  /* the proxy forks to two of bob's phones; both ring, the first one answers */
  gen_dialog_set_to_tag (c.d, "desk-5f1e2a");
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (90), 180, NULL, NULL);
  gen_dialog_set_to_tag (c.d, "mobile-9c44b0");
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (240), 180, NULL, NULL);
  gen_dialog_set_to_tag (c.d, "desk-5f1e2a");
  t = gen_call_answer (&c, T0 + GEN_MS (3100));
  gen_call_talk (&c, t, GEN_S (4), FALSE, NULL);
  gen_call_hangup (&c, t + GEN_S (4) + GEN_MS (40), GEN_CALLER);
  gen_call_clear (&c);
}

/* One call of the reused-Call-ID scenario; returns its end time. */
static gint64
reused_call (GenCapture *cap, GenCallPlan *plan, const char *call_id, const char *from_tag,
             guint32 cseq, int outcome)
{
  GenCall c;
  gint64 t0 = plan->t0, t;

  gen_call_init (&c, cap, plan);
  gen_dialog_set_call_id (c.d, call_id);
  gen_dialog_set_from_tag (c.d, from_tag);
  c.d->cseq[GEN_CALLER] = cseq;
  gen_call_invite (&c, TRUE);
  gen_dialog_respond_invite (c.d, t0 + GEN_MS (60), 180, NULL, NULL);
  if (outcome == 486)
    {
      gen_dialog_respond_invite (c.d, t0 + GEN_MS (900), 486, NULL, NULL);
      gen_dialog_ack (c.d, t0 + GEN_MS (905), FALSE);
      gen_dialog_set_state (c.d, "rejected");
      t = t0 + GEN_MS (910);
    }
  else if (outcome == 487)
    {
      t = t0 + GEN_MS (1500);
      gen_dialog_cancel (c.d, t);
      gen_dialog_respond (c.d, t + GEN_MS (8), GEN_CALLER, 200, NULL, NULL, NULL);
      gen_dialog_respond_invite (c.d, t + GEN_MS (10), 487, NULL, NULL);
      gen_dialog_ack (c.d, t + GEN_MS (14), FALSE);
      gen_dialog_set_state (c.d, "cancelled");
      t += GEN_MS (20);
    }
  else
    {
      t = gen_call_answer (&c, t0 + GEN_MS (1200));
      gen_call_talk (&c, t, GEN_S (2), FALSE, NULL);
      t = gen_call_hangup (&c, t + GEN_S (2) + GEN_MS (40), GEN_CALLER);
    }
  gen_call_clear (&c);
  return t;
}

void
gen_scn_reused_callid (GenCapture *cap)
{
  static const char call_id[] = "4a1f9c0e7b2d@10.0.0.10";
  GenCast cast;
  GenCallPlan plan;
  gint64 t;

  default_plan (&cast, &plan);
  /* three calls with one Call-ID and different From-tags ... */
  t = reused_call (cap, &plan, call_id, "tag-one", 100, 200);
  plan.t0 = t + GEN_S (1);
  plan.caller_rtp += 2;
  plan.callee_rtp += 2;
  t = reused_call (cap, &plan, call_id, "tag-two", 200, 486);
  plan.t0 = t + GEN_S (1);
  plan.caller_rtp += 2;
  plan.callee_rtp += 2;
  t = reused_call (cap, &plan, call_id, "tag-three", 300, 200);
  /* ... then two more reusing the first call's Call-ID and From-tag after its BYE */
  plan.t0 = t + GEN_S (1);
  plan.caller_rtp += 2;
  plan.callee_rtp += 2;
  t = reused_call (cap, &plan, call_id, "tag-one", 400, 200);
  plan.t0 = t + GEN_S (1);
  plan.caller_rtp += 2;
  plan.callee_rtp += 2;
  reused_call (cap, &plan, call_id, "tag-one", 500, 487);
  /* the second call was busy; the fifth was cancelled (487 after a CANCEL: no finding) */
  gen_expect_call_finding (cap->expect, "failed-call", "warning", gen_expect_call (cap->expect, 1),
                           "INVITE", 486);
}

void
gen_scn_no_answer (GenCapture *cap)
{
  static const int retransmit_ms[] = { 500, 1500, 3500, 7500, 15500, 31500 };
  GenCast cast;
  GenCallPlan plan;
  GenCall c;

  default_plan (&cast, &plan);
  /* straight to bob, who is gone: Timer A doubles until Timer B gives up */
  plan.remote = cast.bob.sip;
  gen_call_init (&c, cap, &plan);
  gen_call_invite (&c, FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (retransmit_ms); i++)
    gen_dialog_retransmit (c.d, T0 + GEN_MS (retransmit_ms[i]), GEN_CALLER);
  gen_dialog_set_state (c.d, "failed");
  /* every transmission of the INVITE, and its six copies (a warning) */
  gen_expect_call_finding (cap->expect, "unanswered-invite", "error", c.d->expect, "INVITE", 0);
  gen_expect_finding_copies (
      gen_expect_add_finding (cap->expect, "retransmissions", "warning", c.d->expect, NULL),
      c.d->expect);
  gen_call_clear (&c);
  /* the capture goes on past Timer B (64*T1 = 32 s), so the INVITE has failed */
  gen_options_ping (cap, T0 + GEN_S (40), &cast.alice, &cast.proxy);
}
