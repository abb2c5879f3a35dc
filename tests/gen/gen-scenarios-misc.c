/* gen-scenarios-misc.c — DTMF, RTP sequence oddities, non-INVITE and malformed SIP */
#include "gen-scenarios.h"

#include <string.h>

#define T0 (GEN_EPOCH + GEN_MS (100))

static void
default_plan (GenCast *cast, GenCallPlan *plan)
{
  gen_cast_init (cast);
  gen_plan_init (plan, T0, &cast->alice, &cast->bob, &cast->proxy);
}

/* INVITE, 100, 180, 200, ACK; returns when media may start. */
static gint64
set_up (GenCall *c, GenCapture *cap, const GenCallPlan *plan)
{
  gen_call_init (c, cap, plan);
  gen_call_invite (c, TRUE);
  gen_dialog_respond_invite (c->d, plan->t0 + GEN_MS (80), 180, NULL, NULL);
  return gen_call_answer (c, plan->t0 + GEN_MS (1500));
}

void
gen_scn_dtmf (GenCapture *cap)
{
  static const char digits[] = { '1', '5', '#' };
  GenCast cast;
  GenCallPlan plan;
  GenCall c;
  GenExpectDtmf *info;
  gint64 t, start;

  default_plan (&cast, &plan);
  start = t = set_up (&c, cap, &plan);
  gen_rtp_stream_init (&c.up, cap, &c.caller_media, &c.callee_media, plan.pt, GEN_TONE_DUAL, t,
                       TRUE);
  t = gen_rtp_send_audio (&c.up, t, GEN_S (2), NULL);
  for (guint i = 0; i < G_N_ELEMENTS (digits); i++)
    {
      GenExpectDtmf *dtmf = gen_expect_add_dtmf (cap->expect, digits[i], "rfc4733");
      t = gen_rtp_send_dtmf (&c.up, t, digits[i], 8, dtmf);
      t = gen_rtp_send_audio (&c.up, t, GEN_S (1), NULL);
    }
  /* the far end talks all along */
  gen_rtp_stream_init (&c.down, cap, &c.callee_media, &c.caller_media, plan.pt, GEN_TONE_SWEEP,
                       start + GEN_MS (3), TRUE);
  gen_rtp_send_audio (&c.down, start + GEN_MS (3), t - start, NULL);

  /* the same digit once more, as SIP INFO */
  info = gen_expect_add_dtmf (cap->expect, '5', "sip-info");
  gen_dialog_request (c.d, t + GEN_MS (100), GEN_CALLER, "INFO", NULL, "application/dtmf-relay",
                      "Signal=5\r\nDuration=160\r\n");
  {
    guint id = cap->packets->len - 1;
    g_array_append_val (info->packet_ids, id);
  }
  gen_dialog_respond (c.d, t + GEN_MS (110), GEN_CALLER, 200, NULL, NULL, NULL);
  gen_call_hangup (&c, t + GEN_MS (500), GEN_CALLER);
  gen_call_clear (&c);
}

void
gen_scn_rtp_dup_reorder (GenCapture *cap)
{
  const GenRtpImpair impair = { .duplicates = 4, .reorders = 3 };
  GenCast cast;
  GenCallPlan plan;
  GenCall c;
  gint64 t;

  default_plan (&cast, &plan);
  t = set_up (&c, cap, &plan);
  gen_call_talk (&c, t, GEN_S (6), FALSE, &impair);
  gen_call_hangup (&c, t + GEN_S (6) + GEN_MS (40), GEN_CALLER);
  /* bob's stream: the duplicated and the reordered packets */
  gen_expect_finding_disordered (gen_expect_add_finding (cap->expect, "sequence-errors", "warning",
                                                         c.d->expect, c.down.expect),
                                 c.down.expect);
  gen_call_clear (&c);
}

void
gen_scn_seq_wrap (GenCapture *cap)
{
  GenCast cast;
  GenCallPlan plan;
  GenCall c;
  gint64 t;

  default_plan (&cast, &plan);
  t = set_up (&c, cap, &plan);
  /* both directions cross 65535 -> 0 a few seconds in */
  gen_rtp_stream_init (&c.up, cap, &c.caller_media, &c.callee_media, plan.pt, GEN_TONE_DUAL, t,
                       TRUE);
  c.up.seq0 = 65300;
  gen_rtp_stream_init (&c.down, cap, &c.callee_media, &c.caller_media, plan.pt, GEN_TONE_SWEEP,
                       t + GEN_MS (3), TRUE);
  c.down.seq0 = 65500;
  gen_call_talk (&c, t, GEN_S (8), FALSE, NULL);
  gen_call_hangup (&c, t + GEN_S (8) + GEN_MS (40), GEN_CALLER);
  gen_call_clear (&c);
}

void
gen_scn_unassociated_rtp (GenCapture *cap)
{
  GenCast cast;
  GenCallPlan plan;
  GenRtpStream stray;
  CsEndpoint src, dst;

  default_plan (&cast, &plan);
  gen_call_clean (cap, &plan, GEN_S (4));
  /* a stream between two other hosts that no SDP mentions */
  gen_endpoint (&src, "10.0.0.30", 30000);
  gen_endpoint (&dst, "10.0.0.40", 30002);
  gen_rtp_stream_init (&stray, cap, &src, &dst, 8, GEN_TONE_RINGBACK, T0 + GEN_MS (500), FALSE);
  gen_rtp_send_audio (&stray, T0 + GEN_MS (500), GEN_S (5), NULL);
}

/* The proxy sends OPTIONS to a host that never answers, at t and again (Timer E: T1 = 500 ms
 * doubling up to T2 = 4 s) at every retransmit_ms[i] below the capture's end; returns the
 * exchange's truth, with the packet of its first transmission. The copies are one
 * retransmissions finding (info below 3, then warning), put in out_copies. */
static GenExpectNonInvite *
unanswered_options (GenCapture *cap, GenCast *cast, GenUa *gone, gint64 t, gint64 end,
                    const char *state, GenExpectFinding **out_copies, guint *out_request)
{
  static const int retransmit_ms[]
      = { 500, 1500, 3500, 7500, 11500, 15500, 19500, 23500, 27500, 31500 };
  GenDialog *d = gen_dialog_new (cap, &cast->proxy, gone, &gone->sip, FALSE);
  GenExpectNonInvite *exchange;
  guint sent = 0;

  gen_dialog_request (d, t, GEN_CALLER, "OPTIONS", NULL, NULL, NULL);
  *out_request = gen_capture_last_packet (cap);
  exchange = d->txn[GEN_CALLER].non_invite;
  exchange->state = state;
  *out_copies = gen_expect_add_finding (cap->expect, "retransmissions", "info", NULL, NULL);
  (*out_copies)->exchange = exchange;
  for (guint i = 0; i < G_N_ELEMENTS (retransmit_ms) && t + GEN_MS (retransmit_ms[i]) < end; i++)
    {
      gen_dialog_retransmit (d, t + GEN_MS (retransmit_ms[i]), GEN_CALLER);
      gen_expect_finding_frame (*out_copies, gen_capture_last_packet (cap));
      sent++;
    }
  if (sent >= 3)
    (*out_copies)->severity = "warning";
  gen_dialog_free (d);
  return exchange;
}

void
gen_scn_non_invite (GenCapture *cap)
{
  GenCast cast;
  GenUa gone, moved;
  GenDialog *d;
  GenExpectNonInvite *exchange;
  GenExpectFinding *unanswered, *copies, *redirected;
  gint64 t = T0, end;
  guint request;

  gen_cast_init (&cast);
  t = gen_register (cap, t, &cast.alice, &cast.proxy) + GEN_MS (500);
  t = gen_options_ping (cap, t, &cast.proxy, &cast.bob) + GEN_MS (500);

  d = gen_dialog_new (cap, &cast.alice, &cast.bob, &cast.proxy.sip, FALSE);
  gen_dialog_request (d, t, GEN_CALLER, "SUBSCRIBE",
                      "Event: presence\r\nExpires: 600\r\n"
                      "Accept: application/pidf+xml\r\n",
                      NULL, NULL);
  gen_dialog_respond (d, t + GEN_MS (15), GEN_CALLER, 200, "Expires: 600\r\n", NULL, NULL);
  gen_dialog_request (d, t + GEN_MS (30), GEN_CALLEE, "NOTIFY",
                      "Event: presence\r\nSubscription-State: active;expires=600\r\n",
                      "application/pidf+xml",
                      "<?xml version=\"1.0\"?>\r\n<presence xmlns=\"urn:ietf:params:xml:ns:pidf\" "
                      "entity=\"sip:1002@" GEN_DOMAIN "\"><tuple id=\"t1\"><status><basic>open"
                      "</basic></status></tuple></presence>\r\n");
  gen_dialog_respond (d, t + GEN_MS (40), GEN_CALLEE, 200, NULL, NULL, NULL);
  gen_dialog_free (d);
  t += GEN_MS (600);

  d = gen_dialog_new (cap, &cast.alice, &cast.bob, &cast.proxy.sip, FALSE);
  gen_dialog_request (d, t, GEN_CALLER, "MESSAGE", NULL, "text/plain", "Lunch at noon?");
  gen_dialog_respond (d, t + GEN_MS (20), GEN_CALLER, 200, NULL, NULL, NULL);
  gen_dialog_free (d);
  t += GEN_MS (600);

  /* an OPTIONS answered 302: a redirect ends the exchange as rejected, shown as info */
  gen_ua_init (&moved, "Moved", "1098", "10.0.0.98", 5060, "none");
  d = gen_dialog_new (cap, &cast.proxy, &moved, &moved.sip, FALSE);
  gen_dialog_request (d, t, GEN_CALLER, "OPTIONS", NULL, NULL, NULL);
  d->txn[GEN_CALLER].non_invite->state = "rejected";
  gen_dialog_respond (d, t + GEN_MS (10), GEN_CALLER, 302, "Contact: <sip:1098@10.0.0.97:5060>\r\n",
                      NULL, NULL);
  redirected = gen_expect_add_finding (cap->expect, "failed-call", "info", NULL, NULL);
  redirected->exchange = d->txn[GEN_CALLER].non_invite;
  gen_expect_finding_frame (redirected, gen_capture_last_packet (cap));
  gen_dialog_free (d);
  t += GEN_MS (600);

  /* an OPTIONS to a host that never answers, retransmitted until Timer F (64·T1 = 32 s, for a
   * non-INVITE as for an INVITE) runs out within the capture: it failed */
  gen_ua_init (&gone, "Gone", "1099", "10.0.0.99", 5060, "none");
  end = t + GEN_S (33);
  exchange = unanswered_options (cap, &cast, &gone, t, end, "failed", &copies, &request);
  unanswered = gen_expect_add_finding (cap->expect, "unanswered-request", "error", NULL, NULL);
  unanswered->exchange = exchange;
  gen_expect_finding_frame (unanswered, request);
  for (guint i = 0; i < copies->packet_ids->len; i++)
    gen_expect_finding_frame (unanswered, g_array_index (copies->packet_ids, guint, i));
  /* another, 3 s before the capture ends: still waiting (Timer F has 29 s to run), no failure */
  unanswered_options (cap, &cast, &gone, end - GEN_S (3), end, "setup", &copies, &request);
  gen_options_ping (cap, end, &cast.proxy, &cast.bob);
}

/* The message just sent is malformed: a warning about it, in its exchange (NULL: none). */
static void
malformed_finding (GenCapture *cap, GenExpectNonInvite *exchange)
{
  GenExpectFinding *f
      = gen_expect_add_finding (cap->expect, "malformed-sip", "warning", NULL, NULL);

  f->exchange = exchange;
  gen_expect_finding_frame (f, gen_capture_last_packet (cap));
}

void
gen_scn_malformed (GenCapture *cap)
{
  static const guint8 garbage_text[] = "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not SIP";
  GenCast cast;
  GenCallPlan plan;
  GenDialog *d;
  GenExpectNonInvite *missing;
  GenExpectFinding *rejected;
  CsEndpoint junk_src;
  guint8 junk[96];
  gint64 t = T0;

  gen_cast_init (&cast);
  /* an OPTIONS without Call-ID (nobody answers it) */
  d = gen_dialog_new (cap, &cast.alice, &cast.proxy, &cast.proxy.sip, FALSE);
  d->omit_call_id = TRUE;
  gen_dialog_request (d, t, GEN_CALLER, "OPTIONS", NULL, NULL, NULL);
  malformed_finding (cap, NULL);
  /* counted as a SIP message on the wire, but without Call-ID it is no transaction */
  missing = d->txn[GEN_CALLER].non_invite;
  g_ptr_array_remove (cap->expect->non_invite, missing);
  gen_dialog_free (d);

  /* a MESSAGE whose CSeq number is not a number */
  d = gen_dialog_new (cap, &cast.alice, &cast.bob, &cast.proxy.sip, FALSE);
  d->bad_cseq = TRUE;
  gen_dialog_request (d, t + GEN_MS (200), GEN_CALLER, "MESSAGE", NULL, "text/plain", "bad cseq");
  malformed_finding (cap, d->txn[GEN_CALLER].non_invite);
  gen_dialog_respond (d, t + GEN_MS (210), GEN_CALLER, 400, NULL, NULL, NULL);
  /* an exchange outside a call rejected: info, its answer shown */
  rejected = gen_expect_add_finding (cap->expect, "failed-call", "info", NULL, NULL);
  rejected->exchange = d->txn[GEN_CALLER].non_invite;
  gen_expect_finding_frame (rejected, gen_capture_last_packet (cap));
  gen_dialog_free (d);

  /* a MESSAGE whose Content-Length claims 40 bytes more than it carries */
  d = gen_dialog_new (cap, &cast.alice, &cast.bob, &cast.proxy.sip, FALSE);
  d->content_length_lie = 40;
  gen_dialog_request (d, t + GEN_MS (400), GEN_CALLER, "MESSAGE", NULL, "text/plain", "short");
  malformed_finding (cap, d->txn[GEN_CALLER].non_invite);
  gen_dialog_respond (d, t + GEN_MS (410), GEN_CALLER, 200, NULL, NULL, NULL);
  gen_dialog_free (d);

  /* binary junk and a TLS hello aimed at port 5060 */
  gen_endpoint (&junk_src, "10.0.0.66", 5060);
  for (guint i = 0; i < sizeof junk; i++)
    junk[i] = (guint8) gen_rand_next (&cap->rand);
  gen_send_udp (cap, t + GEN_MS (600), &junk_src, &cast.proxy.sip, junk, sizeof junk);
  gen_send_udp (cap, t + GEN_MS (700), &junk_src, &cast.proxy.sip, garbage_text,
                sizeof garbage_text - 1);

  /* and a proper call afterwards: parsing must recover */
  gen_plan_init (&plan, t + GEN_S (1), &cast.alice, &cast.bob, &cast.proxy);
  gen_call_clean (cap, &plan, GEN_S (2));
}
