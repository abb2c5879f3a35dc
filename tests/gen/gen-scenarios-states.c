/* gen-scenarios-states.c — call-state edge cases: what the wire says decides the outcome
 * (a final 3xx–6xx rejects even when a BYE follows, only a 2xx completes, no final
 * response fails at Timer B or is still in setup when the capture ends sooner) */
#include "gen-scenarios.h"

#define CT_SDP "application/sdp"
#define T0 (GEN_EPOCH + GEN_MS (100))

/* alice calls bob through the proxy, G.711 µ-law, at t0 */
static void
states_plan (GenCast *cast, GenCallPlan *plan, gint64 t0)
{
  gen_cast_init (cast);
  gen_plan_init (plan, t0, &cast->alice, &cast->bob, &cast->proxy);
}

/* An INVITE answered by 100 Trying only; the capture ends at end (an OPTIONS ping). */
static void
trying_only (GenCapture *cap, gint64 end, const char *state)
{
  GenCast cast;
  GenCallPlan plan;
  GenCall c;

  states_plan (&cast, &plan, T0);
  gen_call_init (&c, cap, &plan);
  gen_call_invite (&c, TRUE);
  gen_dialog_set_state (c.d, state);
  /* past Timer B the INVITE (sent once: the 100 stopped its retransmissions) is unanswered */
  if (g_str_equal (state, "failed"))
    gen_expect_call_finding (cap->expect, "unanswered-invite", "error", c.d->expect, "INVITE", 0);
  gen_call_clear (&c);
  gen_options_ping (cap, end, &cast.alice, &cast.proxy);
}

/* 100 does not ring: the call is still being set up when the capture stops 5 s later */
void
gen_scn_state_trying_only (GenCapture *cap)
{
  trying_only (cap, T0 + GEN_S (5), "setup");
}

/* the same INVITE, but the capture runs past Timer B (64·T1 = 32 s): failed */
void
gen_scn_state_timer_b (GenCapture *cap)
{
  trying_only (cap, T0 + GEN_S (40), "failed");
}

/* 100, 180, then nothing until the capture ends 20 s later: still ringing */
void
gen_scn_state_ringing_only (GenCapture *cap)
{
  GenCast cast;
  GenCallPlan plan;
  GenCall c;

  states_plan (&cast, &plan, T0);
  gen_call_init (&c, cap, &plan);
  gen_call_invite (&c, TRUE);
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (90), 180, NULL, NULL);
  gen_dialog_set_state (c.d, "ringing");
  gen_call_clear (&c);
  gen_options_ping (cap, T0 + GEN_S (20), &cast.alice, &cast.proxy);
}

/* 487 with no CANCEL on the wire (the far end gave up by itself): rejected, not cancelled */
void
gen_scn_state_487_no_cancel (GenCapture *cap)
{
  GenCast cast;
  GenCallPlan plan;
  GenCall c;

  states_plan (&cast, &plan, T0);
  gen_call_init (&c, cap, &plan);
  gen_call_invite (&c, TRUE);
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (80), 180, NULL, NULL);
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (3000), 487, NULL, NULL);
  gen_dialog_ack (c.d, T0 + GEN_MS (3004), FALSE);
  gen_dialog_set_state (c.d, "rejected");
  gen_expect_call_finding (cap->expect, "failed-call", "warning", c.d->expect, "INVITE", 487);
  gen_call_clear (&c);
}

/* CANCEL crosses the 200: the answer wins (the CANCEL gets its own 200, no 487), the
 * caller ACKs, talks and hangs up */
void
gen_scn_state_cancel_crossing_200 (GenCapture *cap)
{
  GenCast cast;
  GenCallPlan plan;
  GenCall c;
  g_autofree char *answer = NULL;
  gint64 t = T0 + GEN_MS (3000);

  states_plan (&cast, &plan, T0);
  gen_call_init (&c, cap, &plan);
  gen_call_invite (&c, TRUE);
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (60), 180, NULL, NULL);
  gen_dialog_cancel (c.d, t);
  answer = gen_call_answer_sdp (&c, "sendrecv");
  gen_dialog_respond_invite (c.d, t + GEN_MS (2), 200, CT_SDP, answer);
  gen_dialog_respond (c.d, t + GEN_MS (9), GEN_CALLER, 200, NULL, NULL, NULL);
  gen_dialog_ack (c.d, t + GEN_MS (12), TRUE);
  gen_call_talk (&c, t + GEN_MS (30), GEN_S (3), FALSE, NULL);
  gen_call_hangup (&c, t + GEN_MS (30) + GEN_S (3) + GEN_MS (40), GEN_CALLER);
  gen_call_clear (&c);
}

/* Four calls rejected 302, 404, 503 and 603, each followed by a BYE the far end does not
 * know (481): the BYE does not complete a call that was never answered. */
void
gen_scn_state_rejected_then_bye (GenCapture *cap)
{
  static const struct
  {
    guint status;
    const char *reason;
  } finals[] = {
    { 302, "Moved Temporarily" },
    { 404, "Not Found" },
    { 503, "Service Unavailable" },
    { 603, "Decline" },
  };
  GenCast cast;
  GenCallPlan plan;
  gint64 t = T0;

  states_plan (&cast, &plan, T0);
  for (guint i = 0; i < G_N_ELEMENTS (finals); i++)
    {
      GenCall c;

      plan.t0 = t;
      plan.caller_rtp += 2;
      plan.callee_rtp += 2;
      gen_call_init (&c, cap, &plan);
      gen_call_invite (&c, TRUE);
      gen_dialog_respond_invite (c.d, t + GEN_MS (70), 180, NULL, NULL);
      c.d->reason = finals[i].reason;
      gen_dialog_respond_invite (c.d, t + GEN_MS (1200), finals[i].status, NULL, NULL);
      gen_dialog_ack (c.d, t + GEN_MS (1204), FALSE);
      gen_dialog_request (c.d, t + GEN_MS (2200), GEN_CALLER, "BYE", NULL, NULL, NULL);
      gen_dialog_respond (c.d, t + GEN_MS (2210), GEN_CALLER, 481, NULL, NULL, NULL);
      gen_dialog_set_state (c.d, "rejected");
      /* an error for 5xx and 6xx but 603 (a decline is the callee's choice), else a warning;
       * the BYE's 481 is no finding */
      gen_expect_call_finding (cap->expect, "failed-call",
                               finals[i].status >= 500 && finals[i].status != 603 ? "error"
                                                                                  : "warning",
                               c.d->expect, "INVITE", finals[i].status);
      gen_call_clear (&c);
      t += GEN_S (3);
    }
}

/* re-INVITE sent by side and refused with status (then ACKed); the call goes on */
static void
refused_reinvite (GenCall *c, gint64 t, guint status, const char *reason)
{
  g_autofree char *sdp = gen_call_offer (c, "sendrecv");

  gen_dialog_request (c->d, t, GEN_CALLER, "INVITE", NULL, CT_SDP, sdp);
  gen_dialog_respond_invite (c->d, t + GEN_MS (10), 100, NULL, NULL);
  c->d->reason = reason;
  gen_dialog_respond_invite (c->d, t + GEN_MS (30), status, NULL, NULL);
  gen_dialog_ack (c->d, t + GEN_MS (34), FALSE);
}

/* An answered call whose two re-INVITEs fail (491, 488): still the answered call it was,
 * completed by its BYE with the initial INVITE's 200 */
void
gen_scn_state_reinvite_refused (GenCapture *cap)
{
  GenCast cast;
  GenCallPlan plan;
  GenCall c;
  gint64 t;

  states_plan (&cast, &plan, T0);
  gen_call_init (&c, cap, &plan);
  gen_call_invite (&c, TRUE);
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (80), 180, NULL, NULL);
  t = gen_call_answer (&c, T0 + GEN_MS (1500));
  gen_call_talk (&c, t, GEN_S (2), FALSE, NULL);
  refused_reinvite (&c, t + GEN_S (2), 491, "Request Pending");
  refused_reinvite (&c, t + GEN_S (2) + GEN_MS (500), 488, NULL);
  gen_call_talk (&c, t + GEN_S (2), GEN_S (2), FALSE, NULL);
  gen_call_hangup (&c, t + GEN_S (4) + GEN_MS (40), GEN_CALLER);
  gen_call_clear (&c);
}

/* The proxy forks: 180 from bob's desk phone, 183 from his mobile, then 480 for both;
 * the first provisional is the post-dial delay */
void
gen_scn_state_fork_rejected (GenCapture *cap)
{
  GenCast cast;
  GenCallPlan plan;
  GenCall c;

  states_plan (&cast, &plan, T0);
  gen_call_init (&c, cap, &plan);
  gen_call_invite (&c, TRUE);
  gen_dialog_set_to_tag (c.d, "desk-31a7");
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (110), 180, NULL, NULL);
  gen_dialog_set_to_tag (c.d, "mobile-8e02");
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (260), 183, NULL, NULL);
  c.d->reason = "Temporarily Unavailable";
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (6260), 480, NULL, NULL);
  gen_dialog_ack (c.d, T0 + GEN_MS (6265), FALSE);
  gen_dialog_set_state (c.d, "rejected");
  gen_expect_call_finding (cap->expect, "failed-call", "warning", c.d->expect, "INVITE", 480);
  gen_call_clear (&c);
}

/* The 200 never reaches alice: bob retransmits it (T1 doubling to T2 = 4 s) for 64·T1,
 * gets no ACK and hangs up (RFC 3261 13.3.1.4). Answered, so completed by that BYE. */
void
gen_scn_state_ack_missing (GenCapture *cap)
{
  static const int retransmit_ms[]
      = { 500, 1500, 3500, 7500, 11500, 15500, 19500, 23500, 27500, 31500 };
  GenCast cast;
  GenCallPlan plan;
  GenCall c;
  g_autofree char *answer = NULL;
  gint64 t = T0 + GEN_MS (2000);

  states_plan (&cast, &plan, T0);
  gen_call_init (&c, cap, &plan);
  gen_call_invite (&c, TRUE);
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (70), 180, NULL, NULL);
  answer = gen_call_answer_sdp (&c, "sendrecv");
  gen_dialog_respond_invite (c.d, t, 200, CT_SDP, answer);
  for (guint i = 0; i < G_N_ELEMENTS (retransmit_ms); i++)
    gen_dialog_retransmit (c.d, t + GEN_MS (retransmit_ms[i]), GEN_CALLEE);
  gen_call_hangup (&c, t + GEN_S (32), GEN_CALLEE);
  /* answered without a packet of RTP (the INVITE); the 200 and its ten copies never ACKed;
   * ten copies, a warning */
  gen_expect_finding_frame (
      gen_expect_add_finding (cap->expect, "no-media", "error", c.d->expect, NULL),
      gen_expect_call_packet (c.d->expect, "INVITE", 0, 0));
  gen_expect_call_finding (cap->expect, "missing-ack", "warning", c.d->expect, "INVITE", 200);
  gen_expect_finding_copies (
      gen_expect_add_finding (cap->expect, "retransmissions", "warning", c.d->expect, NULL),
      c.d->expect);
  gen_call_clear (&c);
}

/* No 100: the 200 crosses alice's INVITE retransmission (Timer A, 500 ms), and bob sends
 * the 200 again before the ACK. One call, two retransmissions. */
void
gen_scn_state_invite_after_200 (GenCapture *cap)
{
  GenCast cast;
  GenCallPlan plan;
  GenCall c;
  g_autofree char *answer = NULL;

  states_plan (&cast, &plan, T0);
  gen_call_init (&c, cap, &plan);
  gen_call_invite (&c, FALSE);
  answer = gen_call_answer_sdp (&c, "sendrecv");
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (400), 200, CT_SDP, answer);
  gen_dialog_retransmit (c.d, T0 + GEN_MS (500), GEN_CALLER);
  gen_dialog_retransmit (c.d, T0 + GEN_MS (900), GEN_CALLEE);
  gen_dialog_ack (c.d, T0 + GEN_MS (905), TRUE);
  gen_call_talk (&c, T0 + GEN_MS (920), GEN_S (3), FALSE, NULL);
  gen_call_hangup (&c, T0 + GEN_MS (920) + GEN_S (3) + GEN_MS (40), GEN_CALLER);
  /* the INVITE and the 200 sent again: two copies, info */
  gen_expect_finding_copies (
      gen_expect_add_finding (cap->expect, "retransmissions", "info", c.d->expect, NULL),
      c.d->expect);
  gen_call_clear (&c);
}
