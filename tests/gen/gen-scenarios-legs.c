/* gen-scenarios-legs.c — calls that are legs of one another (B2BUAs, transfers, diversion,
 * relayed media) and calls that only look alike (SIPp's shared media ports), each with the
 * legs the generator put on the wire as its truth */
#include "gen-scenarios.h"

#include <string.h>

#define T0 (GEN_EPOCH + GEN_MS (100))
#define CT_SDP "application/sdp"

/* A call from caller straight to callee with its own media ports; the INVITE carries extra
 * headers (or none) and gets a 100. */
static void
leg_invite (GenCall *c, GenCapture *cap, gint64 t0, const GenUa *caller, const GenUa *callee,
            guint16 caller_rtp, guint16 callee_rtp, const char *extra)
{
  GenCallPlan plan;
  g_autofree char *offer = NULL;

  gen_plan_init (&plan, t0, caller, callee, NULL);
  plan.caller_rtp = caller_rtp;
  plan.callee_rtp = callee_rtp;
  gen_call_init (c, cap, &plan);
  offer = gen_call_offer (c, "sendrecv");
  gen_dialog_request (c->d, t0, GEN_CALLER, "INVITE", extra, CT_SDP, offer);
  gen_dialog_respond_invite (c->d, t0 + GEN_MS (10), 100, NULL, NULL);
}

static GenExpectCall *
expect_of (GenCall *c)
{
  return c->d->expect;
}

/* The B2BUA's two sides at 10.0.0.1: towards alice it answers as bob's number, towards bob
 * it calls as alice's (or, normalising, as +15550001001). */
typedef struct
{
  GenCast cast;
  GenUa inside;  /* leg 1's callee */
  GenUa outside; /* leg 2's caller */
} GenB2bua;

static void
b2bua_init (GenB2bua *b, const char *outside_user)
{
  gen_cast_init (&b->cast);
  gen_ua_init (&b->inside, "Bob", "1002", "10.0.0.1", 5060, "B2BUA 2.1");
  gen_ua_init (&b->outside, "Alice", outside_user, "10.0.0.1", 5060, "B2BUA 2.1");
}

/* Both legs ring, are answered (leg 2 first) and hang up; both talk through the B2BUA. With
 * relay, leg 2's streams carry leg 1's SSRCs 1 ms later (a media relay); otherwise the
 * B2BUA's own. */
static void
b2bua_call (GenCall *l1, GenCall *l2, gboolean relay)
{
  gint64 t = T0 + GEN_MS (2000), talk = GEN_S (3);
  const GenRtpImpair *none = NULL;

  gen_dialog_respond_invite (l2->d, T0 + GEN_MS (120), 180, NULL, NULL);
  gen_dialog_respond_invite (l1->d, T0 + GEN_MS (125), 180, NULL, NULL);
  gen_call_answer (l2, t);
  gen_call_answer (l1, t + GEN_MS (5));
  t += GEN_MS (40);
  gen_rtp_stream_init (&l1->up, l1->cap, &l1->caller_media, &l1->callee_media, 0, GEN_TONE_DUAL, t,
                       TRUE);
  gen_rtp_stream_init (&l1->down, l1->cap, &l1->callee_media, &l1->caller_media, 0, GEN_TONE_SWEEP,
                       t + GEN_MS (1), TRUE);
  gen_rtp_stream_init (&l2->up, l2->cap, &l2->caller_media, &l2->callee_media, 0, GEN_TONE_DUAL,
                       t + GEN_MS (1), TRUE);
  gen_rtp_stream_init (&l2->down, l2->cap, &l2->callee_media, &l2->caller_media, 0, GEN_TONE_SWEEP,
                       t, TRUE);
  if (relay)
    {
      l2->up.ssrc = l2->up.expect->ssrc = l1->up.ssrc;
      l1->down.ssrc = l1->down.expect->ssrc = l2->down.ssrc;
    }
  gen_rtp_send_audio (&l1->up, t, talk, none);
  gen_rtp_send_audio (&l2->up, t + GEN_MS (1), talk, none);
  gen_rtp_send_audio (&l2->down, t, talk, none);
  gen_rtp_send_audio (&l1->down, t + GEN_MS (1), talk, none);
  t += talk + GEN_MS (100);
  gen_call_hangup (l1, t, GEN_CALLER);
  gen_call_hangup (l2, t + GEN_MS (8), GEN_CALLER);
}

/* alice → B2BUA → bob, the second leg naming the first in X-Call-ID; media anchored with
 * the B2BUA's own SSRCs, so the header is the only evidence. */
void
gen_scn_b2bua_x_call_id (GenCapture *cap)
{
  GenB2bua b;
  GenCall l1, l2;
  g_autofree char *extra = NULL;

  b2bua_init (&b, "1001");
  leg_invite (&l1, cap, T0, &b.cast.alice, &b.inside, 40000, 20000, NULL);
  extra = g_strdup_printf ("X-Call-ID: %s\r\n", l1.d->call_id);
  leg_invite (&l2, cap, T0 + GEN_MS (20), &b.outside, &b.cast.bob, 20002, 50000, extra);
  b2bua_call (&l1, &l2, FALSE);
  gen_expect_add_leg (cap->expect, expect_of (&l1), expect_of (&l2), "correlation-header");
  gen_call_clear (&l1);
  gen_call_clear (&l2);
}

/* The B2BUA names leg 1 in X-Call-ID and relays its media too: two kinds of evidence for one
 * pair. The pair is one leg, explained by the first evidence in the order of the reasons
 * (cs-call-legs.h): the header, not the media. */
void
gen_scn_b2bua_header_and_media (GenCapture *cap)
{
  GenB2bua b;
  GenCall l1, l2;
  g_autofree char *extra = NULL;

  b2bua_init (&b, "1001");
  leg_invite (&l1, cap, T0, &b.cast.alice, &b.inside, 40000, 20000, NULL);
  extra = g_strdup_printf ("X-Call-ID: %s\r\n", l1.d->call_id);
  leg_invite (&l2, cap, T0 + GEN_MS (20), &b.outside, &b.cast.bob, 20002, 50000, extra);
  b2bua_call (&l1, &l2, TRUE);
  gen_expect_add_leg (cap->expect, expect_of (&l1), expect_of (&l2), "correlation-header");
  gen_call_clear (&l1);
  gen_call_clear (&l2);
}

/* The same B2BUA without any header: a media relay passes the SSRCs on, on other ports. */
void
gen_scn_media_bridged (GenCapture *cap)
{
  GenB2bua b;
  GenCall l1, l2;

  b2bua_init (&b, "1001");
  leg_invite (&l1, cap, T0, &b.cast.alice, &b.inside, 40000, 20000, NULL);
  leg_invite (&l2, cap, T0 + GEN_MS (20), &b.outside, &b.cast.bob, 20002, 50000, NULL);
  b2bua_call (&l1, &l2, TRUE);
  gen_expect_add_leg (cap->expect, expect_of (&l1), expect_of (&l2), "media");
  gen_call_clear (&l1);
  gen_call_clear (&l2);
}

/* An SBC that keeps the Call-ID but not the From-tag (and normalises the caller's number). */
void
gen_scn_b2bua_same_call_id (GenCapture *cap)
{
  GenB2bua b;
  GenCall l1, l2;
  GenCallPlan plan;
  g_autofree char *offer = NULL;

  b2bua_init (&b, "+15550001001");
  leg_invite (&l1, cap, T0, &b.cast.alice, &b.inside, 40000, 20000, NULL);
  gen_plan_init (&plan, T0 + GEN_MS (20), &b.outside, &b.cast.bob, NULL);
  plan.caller_rtp = 20002;
  plan.callee_rtp = 50000;
  gen_call_init (&l2, cap, &plan);
  gen_dialog_set_call_id (l2.d, l1.d->call_id);
  offer = gen_call_offer (&l2, "sendrecv");
  gen_dialog_request (l2.d, plan.t0, GEN_CALLER, "INVITE", NULL, CT_SDP, offer);
  gen_dialog_respond_invite (l2.d, plan.t0 + GEN_MS (10), 100, NULL, NULL);
  b2bua_call (&l1, &l2, FALSE);
  gen_expect_add_leg (cap->expect, expect_of (&l1), expect_of (&l2), "same-call-id");
  gen_call_clear (&l1);
  gen_call_clear (&l2);
}

/* alice ↔ bob; bob REFERs alice to carol (blind transfer); alice calls carol with
 * Referred-By; the NOTIFY reports the outcome and bob hangs up. */
void
gen_scn_refer_transfer (GenCapture *cap)
{
  GenCast cast;
  GenCall c1, c2;
  gint64 t;

  gen_cast_init (&cast);
  leg_invite (&c1, cap, T0, &cast.alice, &cast.bob, 40000, 50000, NULL);
  gen_dialog_respond_invite (c1.d, T0 + GEN_MS (80), 180, NULL, NULL);
  t = gen_call_answer (&c1, T0 + GEN_MS (1000));
  gen_call_talk (&c1, t, GEN_S (2), FALSE, NULL);
  t += GEN_S (2) + GEN_MS (100);
  gen_dialog_request (c1.d, t, GEN_CALLEE, "REFER",
                      "Refer-To: <sip:1003@" GEN_DOMAIN ">\r\nReferred-By: <sip:1002@" GEN_DOMAIN
                      ">\r\n",
                      NULL, NULL);
  gen_dialog_respond (c1.d, t + GEN_MS (9), GEN_CALLEE, 202, NULL, NULL, NULL);
  leg_invite (&c2, cap, t + GEN_MS (200), &cast.alice, &cast.carol, 40002, 52000,
              "Referred-By: <sip:1002@" GEN_DOMAIN ">\r\n");
  gen_dialog_respond_invite (c2.d, t + GEN_MS (300), 180, NULL, NULL);
  t = gen_call_answer (&c2, t + GEN_MS (1200));
  gen_dialog_request (c1.d, t, GEN_CALLER, "NOTIFY",
                      "Event: refer\r\nSubscription-State: terminated;reason=noresource\r\n",
                      "message/sipfrag", "SIP/2.0 200 OK\r\n");
  gen_dialog_respond (c1.d, t + GEN_MS (7), GEN_CALLER, 200, NULL, NULL, NULL);
  gen_call_hangup (&c1, t + GEN_MS (30), GEN_CALLEE);
  gen_call_talk (&c2, t, GEN_S (2), FALSE, NULL);
  gen_call_hangup (&c2, t + GEN_S (2) + GEN_MS (50), GEN_CALLER);
  gen_expect_add_leg (cap->expect, expect_of (&c1), expect_of (&c2), "refer");
  gen_call_clear (&c1);
  gen_call_clear (&c2);
}

/* alice ↔ bob; bob consults carol; bob REFERs alice to carol with Replaces naming the
 * consultation; alice's INVITE to carol replaces it. */
void
gen_scn_attended_transfer (GenCapture *cap)
{
  GenCast cast;
  GenCall c1, c2, c3;
  g_autofree char *escaped = NULL;
  g_autofree char *refer_to = NULL;
  g_autofree char *replaces = NULL;
  gint64 t;

  gen_cast_init (&cast);
  leg_invite (&c1, cap, T0, &cast.alice, &cast.bob, 40000, 50000, NULL);
  t = gen_call_answer (&c1, T0 + GEN_MS (900));
  gen_call_talk (&c1, t, GEN_S (1), FALSE, NULL);
  leg_invite (&c2, cap, T0 + GEN_MS (2000), &cast.bob, &cast.carol, 50002, 52000, NULL);
  t = gen_call_answer (&c2, T0 + GEN_MS (2800));
  gen_call_talk (&c2, t, GEN_S (1), FALSE, NULL);
  t = T0 + GEN_MS (4500);
  escaped = g_uri_escape_string (c2.d->call_id, NULL, FALSE);
  refer_to = g_strdup_printf ("Refer-To: <sip:1003@" GEN_DOMAIN
                              "?Replaces=%s%%3Bto-tag%%3D%s%%3Bfrom-tag%%3D%s>\r\n"
                              "Referred-By: <sip:1002@" GEN_DOMAIN ">\r\n",
                              escaped, c2.d->to_tag, c2.d->from_tag);
  gen_dialog_request (c1.d, t, GEN_CALLEE, "REFER", refer_to, NULL, NULL);
  gen_dialog_respond (c1.d, t + GEN_MS (9), GEN_CALLEE, 202, NULL, NULL, NULL);
  replaces = g_strdup_printf (
      "Replaces: %s;to-tag=%s;from-tag=%s\r\nReferred-By: <sip:1002@" GEN_DOMAIN ">\r\n",
      c2.d->call_id, c2.d->to_tag, c2.d->from_tag);
  leg_invite (&c3, cap, t + GEN_MS (150), &cast.alice, &cast.carol, 40002, 52002, replaces);
  t = gen_call_answer (&c3, t + GEN_MS (250));
  gen_call_hangup (&c2, t + GEN_MS (20), GEN_CALLEE);
  gen_call_hangup (&c1, t + GEN_MS (40), GEN_CALLEE);
  gen_call_talk (&c3, t, GEN_S (2), FALSE, NULL);
  gen_call_hangup (&c3, t + GEN_S (2) + GEN_MS (50), GEN_CALLER);
  gen_expect_add_leg (cap->expect, expect_of (&c1), expect_of (&c2), "refer");
  gen_expect_add_leg (cap->expect, expect_of (&c1), expect_of (&c3), "refer");
  gen_expect_add_leg (cap->expect, expect_of (&c2), expect_of (&c3), "replaces");
  /* bob's consultation call: answered at 2.8 s, replaced and hung up 1.97 s later (short:
   * its first and last message); the others last longer than 2 s */
  {
    GenExpectFinding *f
        = gen_expect_add_finding (cap->expect, "short-call", "info", expect_of (&c2), NULL);

    gen_expect_finding_frame (f, gen_expect_call_first (expect_of (&c2)));
    gen_expect_finding_frame (f, gen_expect_call_last (expect_of (&c2)));
  }
  gen_call_clear (&c1);
  gen_call_clear (&c2);
  gen_call_clear (&c3);
}

/* A PBX forwards alice's call to bob on no answer to carol: once with Diversion, once (later)
 * with History-Info. */
static void
diverted_call (GenCapture *cap, gint64 t0, const char *header)
{
  GenB2bua b;
  GenCall l1, l2;
  gint64 t;

  b2bua_init (&b, "1001");
  leg_invite (&l1, cap, t0, &b.cast.alice, &b.inside, 40000, 20000, NULL);
  gen_dialog_respond_invite (l1.d, t0 + GEN_MS (60), 180, NULL, NULL);
  leg_invite (&l2, cap, t0 + GEN_MS (6000), &b.outside, &b.cast.carol, 20002, 52000, header);
  gen_dialog_respond_invite (l2.d, t0 + GEN_MS (6100), 180, NULL, NULL);
  t = gen_call_answer (&l2, t0 + GEN_MS (7000));
  gen_call_answer (&l1, t0 + GEN_MS (7005));
  gen_call_talk (&l1, t, GEN_S (2), FALSE, NULL);
  gen_call_talk (&l2, t, GEN_S (2), FALSE, NULL);
  t += GEN_S (2) + GEN_MS (100);
  gen_call_hangup (&l1, t, GEN_CALLER);
  gen_call_hangup (&l2, t + GEN_MS (6), GEN_CALLER);
  gen_expect_add_leg (cap->expect, expect_of (&l1), expect_of (&l2), "diversion");
  gen_call_clear (&l1);
  gen_call_clear (&l2);
}

void
gen_scn_diversion (GenCapture *cap)
{
  diverted_call (cap, T0, "Diversion: <sip:1002@" GEN_DOMAIN ">;reason=no-answer;counter=1\r\n");
  diverted_call (cap, T0 + GEN_S (20),
                 "History-Info: <sip:1002@" GEN_DOMAIN "?Reason=SIP%3Bcause%3D408>;index=1, "
                 "<sip:1003@" GEN_DOMAIN ">;index=1.1\r\n");
}

/* 50 SIPp calls (uac → uas), 200 ms apart, each 2 s of RTP: every call announces the same
 * media ports (6000 and 6002) as SIPp does, each stream has its own SSRC. No two are legs. */
void
gen_scn_sipp_shared_ports (GenCapture *cap)
{
  GenUa uac, uas;

  gen_ua_init (&uac, "sipp", "sipp", "10.0.0.10", 5061, "SIPp/v3.7.2");
  gen_ua_init (&uas, "service", "service", "10.0.0.20", 5060, "SIPp/v3.7.2");
  for (guint i = 0; i < 50; i++)
    {
      GenCallPlan plan;
      GenCall c;
      g_autofree char *call_id = g_strdup_printf ("%u-3317@10.0.0.10", i + 1);
      gint64 t0 = T0 + GEN_MS (200) * i, t;

      gen_plan_init (&plan, t0, &uac, &uas, NULL);
      plan.caller_rtp = 6000;
      plan.callee_rtp = 6002;
      gen_call_init (&c, cap, &plan);
      gen_dialog_set_call_id (c.d, call_id);
      gen_call_invite (&c, TRUE);
      gen_dialog_respond_invite (c.d, t0 + GEN_MS (15), 180, NULL, NULL);
      t = gen_call_answer (&c, t0 + GEN_MS (30));
      gen_call_talk (&c, t, GEN_S (2), FALSE, NULL);
      gen_call_hangup (&c, t + GEN_S (2) + GEN_MS (20), GEN_CALLER);
      gen_call_clear (&c);
    }
}

/* Every SIP message written twice: once where it is sent, again 350 µs later at a second
 * capture point on its way (a mirror further along): the same transmission seen twice, not
 * a retransmission. The truth counts both copies as messages of the call. */
typedef struct
{
  GenSipSink inner;
  gpointer inner_data;
} GenSecondPoint;

static void
seen_twice (GenDialog *d, gint64 t, GenSide from, const char *text, gsize len, gpointer data)
{
  GenSecondPoint *point = data;

  point->inner (d, t, from, text, len, point->inner_data);
  gen_expect_sip_message (d->cap->expect, text);
  d->expect->messages++;
  d->expect->sightings++;
  point->inner (d, t + GEN_MS (1) * 35 / 100, from, text, len, point->inner_data);
}

/* alice → proxy → bob, both hops captured at two points each; bob's side is slow, so the
 * proxy retransmits its INVITE once (one real retransmission among the sightings). */
void
gen_scn_multi_hop (GenCapture *cap)
{
  GenCast cast;
  GenCallPlan plan;
  GenCall c;
  GenDialog *hop2;
  GenSecondPoint p1, p2;
  g_autofree char *offer = NULL;
  g_autofree char *answer = NULL;
  gint64 t;

  gen_cast_init (&cast);
  gen_plan_init (&plan, T0, &cast.alice, &cast.bob, &cast.proxy);
  gen_call_init (&c, cap, &plan);
  hop2 = gen_dialog_new (cap, &cast.alice, &cast.bob, &cast.bob.sip, TRUE);
  hop2->ends[0] = cast.proxy.sip;
  gen_dialog_set_call_id (hop2, c.d->call_id);
  gen_dialog_set_from_tag (hop2, c.d->from_tag);
  hop2->cseq[GEN_CALLER] = c.d->cseq[GEN_CALLER];
  p1 = (GenSecondPoint){ c.d->sink, c.d->sink_data };
  p2 = (GenSecondPoint){ hop2->sink, hop2->sink_data };
  c.d->sink = seen_twice;
  c.d->sink_data = &p1;
  hop2->sink = seen_twice;
  hop2->sink_data = &p2;

  offer = gen_call_offer (&c, "sendrecv");
  gen_dialog_request (c.d, T0, GEN_CALLER, "INVITE", NULL, CT_SDP, offer);
  hop2->expect = c.d->expect; /* one call on both hops */
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (5), 100, NULL, NULL);
  gen_dialog_request (hop2, T0 + GEN_MS (8), GEN_CALLER, "INVITE", NULL, CT_SDP, offer);
  /* the same INVITE transaction: its answers on this hop time the call too (the first
   * 180 and 200 on the wire are this hop's) */
  hop2->invite_txn.initial_invite = TRUE;
  gen_dialog_retransmit (hop2, T0 + GEN_MS (508), GEN_CALLER);
  gen_dialog_respond_invite (hop2, T0 + GEN_MS (520), 100, NULL, NULL);
  gen_dialog_set_to_tag (hop2, "bob-77a1c0");
  gen_dialog_set_to_tag (c.d, "bob-77a1c0");
  /* one call seen on both hops: its PDD and setup time count from the first 180 and the
   * first 200 on the wire, whichever hop they are on (bob's, 3 ms before the proxy's) */
  gen_dialog_respond_invite (hop2, T0 + GEN_MS (600), 180, NULL, NULL);
  gen_expect_call_response (c.d->expect, T0 + GEN_MS (600), 180);
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (603), 180, NULL, NULL);
  answer = gen_call_answer_sdp (&c, "sendrecv");
  gen_dialog_respond_invite (hop2, T0 + GEN_MS (2000), 200, CT_SDP, answer);
  gen_expect_call_response (c.d->expect, T0 + GEN_MS (2000), 200);
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (2003), 200, CT_SDP, answer);
  gen_dialog_ack (c.d, T0 + GEN_MS (2010), TRUE);
  gen_dialog_ack (hop2, T0 + GEN_MS (2013), TRUE);
  t = T0 + GEN_MS (2030);
  gen_call_talk (&c, t, GEN_S (2), FALSE, NULL);
  t += GEN_S (2) + GEN_MS (40);
  gen_dialog_request (c.d, t, GEN_CALLER, "BYE", NULL, NULL, NULL);
  gen_dialog_request (hop2, t + GEN_MS (3), GEN_CALLER, "BYE", NULL, NULL, NULL);
  gen_dialog_respond (hop2, t + GEN_MS (10), GEN_CALLER, 200, NULL, NULL, NULL);
  gen_dialog_respond (c.d, t + GEN_MS (13), GEN_CALLER, 200, NULL, NULL, NULL);
  gen_dialog_set_state (c.d, "completed");
  /* the proxy's INVITE copy (its first sighting): one retransmission, info */
  gen_expect_finding_copies (
      gen_expect_add_finding (cap->expect, "retransmissions", "info", c.d->expect, NULL),
      c.d->expect);
  hop2->expect = NULL; /* the call's truth belongs to the first hop's dialog */
  gen_dialog_free (hop2);
  gen_call_clear (&c);
}
