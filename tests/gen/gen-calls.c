/* gen-calls.c — whole calls (INVITE to BYE with RTP) shared by scenarios and demo */
#include "gen-calls.h"

#include <string.h>

#define CT_SDP "application/sdp"

void
gen_cast_init (GenCast *cast)
{
  gen_ua_init (&cast->alice, "Alice", "1001", "10.0.0.10", 5060, "Yealink SIP-T46S 66.86.0.15");
  gen_ua_init (&cast->bob, "Bob", "1002", "10.0.0.20", 5060, "Grandstream GXP2170 1.0.11.23");
  gen_ua_init (&cast->carol, "Carol", "1003", "10.0.0.30", 5060,
               "Linphone/5.2.0 (belle-sip/5.2.0)");
  gen_ua_init (&cast->proxy, "Proxy", "proxy", "10.0.0.1", 5060, "Kamailio (5.7.4 (x86_64/linux))");
}

void
gen_plan_init (GenCallPlan *plan, gint64 t0, const GenUa *caller, const GenUa *callee,
               const GenUa *via)
{
  memset (plan, 0, sizeof *plan);
  plan->t0 = t0;
  plan->caller = caller;
  plan->callee = callee;
  plan->remote = via != NULL ? via->sip : callee->sip;
  plan->caller_rtp = 40000;
  plan->callee_rtp = 50000;
  plan->pt = 0;
}

void
gen_call_init (GenCall *c, GenCapture *cap, const GenCallPlan *plan)
{
  memset (c, 0, sizeof *c);
  c->cap = cap;
  c->plan = *plan;
  c->d = gen_dialog_new (cap, plan->caller, plan->callee, &plan->remote, TRUE);
  c->caller_media.addr = plan->caller->sip.addr;
  c->caller_media.port = plan->caller_rtp;
  c->callee_media.addr = plan->callee->sip.addr;
  c->callee_media.port = plan->callee_rtp;
  c->session_id[0] = (guint64) gen_rand_range (&cap->rand, 1000000, 999999999);
  c->session_id[1] = (guint64) gen_rand_range (&cap->rand, 1000000, 999999999);
  for (guint side = 0; plan->srtp != NULL && side < 2; side++)
    for (guint i = 0; i < sizeof c->srtp_key[side]; i++)
      c->srtp_key[side][i] = (guint8) gen_rand_next (&cap->rand);
}

/* The SDP of side (0 caller, 1 callee) as SRTP when the plan says so. */
static char *
with_srtp (GenCall *c, guint side, char *sdp)
{
  return c->plan.srtp != NULL ? gen_srtp_sdp (c->plan.srtp, sdp, c->srtp_key[side], side + 1) : sdp;
}

/* The stream of side leaves as SRTP when the plan says so: the truth of its protection. */
void
gen_call_protect_stream (GenCall *c, GenRtpStream *s, guint side)
{
  const GenSrtpPlan *plan = c->plan.srtp;
  guint8 wrong[64];

  if (plan == NULL || s->srtp != NULL)
    return;
  if (plan->seq0 != 0)
    s->seq0 = plan->seq0;
  for (guint i = 0; i < sizeof wrong; i++)
    wrong[i] = (guint8) (c->srtp_key[side][i] ^ 0x5a);
  {
    const guint8 *used = side == 0 && plan->wrong_up_key ? wrong : c->srtp_key[side];
    g_autofree char *b64 = g_base64_encode (used, gen_srtp_key_length (plan->suite));

    s->srtp = gen_srtp_new (plan->suite, s->ssrc, used, side + 1, plan->mki_length);
    g_snprintf (s->expect->srtp_key, sizeof s->expect->srtp_key, "inline:%s", b64);
    if (plan->mki_length > 0)
      g_snprintf (s->expect->srtp_key + strlen (s->expect->srtp_key),
                  sizeof s->expect->srtp_key - strlen (s->expect->srtp_key), "|%u:%u", side + 1,
                  plan->mki_length);
  }
  if (plan->no_key_lines)
    s->expect->protection = "encrypted";
  else if (side == 0 && plan->wrong_up_key)
    s->expect->protection = "key-failed";
  else
    {
      s->expect->protection = "decrypted";
      s->expect->srtp_suite = plan->suite;
    }
}

void
gen_call_clear (GenCall *c)
{
  g_clear_pointer (&c->d, gen_dialog_free);
  gen_rtp_stream_clear (&c->up);
  gen_rtp_stream_clear (&c->down);
}

/* The codec's rtpmap (and fmtp) lines put in before the SDP's a=ptime. */
static char *
with_codec (const GenCodec *codec, char *sdp)
{
  GString *s;
  char *at;

  if (codec == NULL)
    return sdp;
  s = g_string_new (NULL);
  at = strstr (sdp, "a=ptime:");
  g_string_append_len (s, sdp, at - sdp);
  g_string_append_printf (s, "a=rtpmap:%u %s/%u\r\n", codec->pt, codec->encoding, codec->clock);
  if (codec->fmtp != NULL)
    g_string_append_printf (s, "a=fmtp:%u %s\r\n", codec->pt, codec->fmtp);
  g_string_append (s, at);
  g_free (sdp);
  return g_string_free (s, FALSE);
}

char *
gen_call_offer (GenCall *c, const char *direction)
{
  const guint8 pts[] = { 0, 8, 101 };
  const guint8 codec_pts[] = { c->plan.pt, 101 };

  if (c->plan.codec != NULL)
    return with_codec (c->plan.codec,
                       gen_sdp (c->plan.caller, &c->caller_media.addr, c->caller_media.port,
                                codec_pts, 2, direction, c->session_id[0], c->sdp_version[0]++));
  return with_srtp (c, 0,
                    gen_sdp (c->plan.caller, &c->caller_media.addr, c->caller_media.port, pts, 3,
                             direction, c->session_id[0], c->sdp_version[0]++));
}

char *
gen_call_answer_sdp (GenCall *c, const char *direction)
{
  const guint8 pts[] = { c->plan.pt, 101 };

  return with_srtp (c, 1,
                    with_codec (c->plan.codec, gen_sdp (c->plan.callee, &c->callee_media.addr,
                                                        c->callee_media.port, pts, 2, direction,
                                                        c->session_id[1], c->sdp_version[1]++)));
}

void
gen_call_invite (GenCall *c, gboolean with_trying)
{
  g_autofree char *offer = gen_call_offer (c, "sendrecv");

  gen_dialog_request (c->d, c->plan.t0, GEN_CALLER, "INVITE", NULL, CT_SDP, offer);
  if (with_trying)
    gen_dialog_respond_invite (c->d, c->plan.t0 + GEN_MS (10), 100, NULL, NULL);
}

gint64
gen_call_answer (GenCall *c, gint64 t)
{
  g_autofree char *answer = gen_call_answer_sdp (c, "sendrecv");

  gen_dialog_respond_invite (c->d, t, 200, CT_SDP, answer);
  gen_dialog_ack (c->d, t + GEN_MS (6), TRUE);
  return t + GEN_MS (20);
}

gint64
gen_call_hangup (GenCall *c, gint64 t, GenSide who)
{
  gen_dialog_request (c->d, t, who, "BYE", NULL, NULL, NULL);
  gen_dialog_respond (c->d, t + GEN_MS (12), who, 200, NULL, NULL, NULL);
  gen_dialog_set_state (c->d, "completed");
  return t + GEN_MS (20);
}

void
gen_call_talk (GenCall *c, gint64 t, gint64 duration, gboolean one_way, const GenRtpImpair *impair)
{
  if (c->up.cap == NULL)
    gen_rtp_stream_init (&c->up, c->cap, &c->caller_media, &c->callee_media, c->plan.pt,
                         GEN_TONE_DUAL, t, TRUE);
  c->up.codec = c->plan.codec;
  gen_call_protect_stream (c, &c->up, 0);
  gen_rtp_send_audio (&c->up, t, duration, NULL);
  if (one_way)
    return;
  if (c->down.cap == NULL)
    gen_rtp_stream_init (&c->down, c->cap, &c->callee_media, &c->caller_media, c->plan.pt,
                         GEN_TONE_SWEEP, t + GEN_MS (3), TRUE);
  c->down.codec = c->plan.codec;
  gen_call_protect_stream (c, &c->down, 1);
  gen_rtp_send_audio (&c->down, t + GEN_MS (3), duration, impair);
}

static gint64
talk_and_hang_up (GenCall *c, gint64 t, gint64 talk, gboolean one_way, const GenRtpImpair *impair)
{
  gen_call_talk (c, t, talk, one_way, impair);
  return gen_call_hangup (c, t + talk + GEN_MS (40), GEN_CALLER);
}

gint64
gen_call_clean (GenCapture *cap, const GenCallPlan *plan, gint64 talk)
{
  GenCall c;
  gint64 t, end;

  gen_call_init (&c, cap, plan);
  gen_call_invite (&c, TRUE);
  gen_dialog_respond_invite (c.d, plan->t0 + GEN_MS (80), 180, NULL, NULL);
  t = gen_call_answer (&c, plan->t0 + GEN_MS (2500));
  end = talk_and_hang_up (&c, t, talk, FALSE, NULL);
  gen_call_clear (&c);
  return end;
}

gint64
gen_call_loss_jitter (GenCapture *cap, const GenCallPlan *plan, gint64 talk)
{
  /* ~5% loss in bursts of 1-4 packets, a third of packets 15-40 ms late */
  const GenRtpImpair impair = { .loss_burst_start = 0.03,
                                .loss_burst_max = 4,
                                .jitter_share = 0.3,
                                .jitter_min_ns = GEN_MS (15),
                                .jitter_max_ns = GEN_MS (40) };
  GenCall c;
  gint64 t, end;

  gen_call_init (&c, cap, plan);
  gen_call_invite (&c, TRUE);
  gen_dialog_respond_invite (c.d, plan->t0 + GEN_MS (120), 180, NULL, NULL);
  t = gen_call_answer (&c, plan->t0 + GEN_MS (3200));
  end = talk_and_hang_up (&c, t, talk, FALSE, &impair);
  gen_call_clear (&c);
  return end;
}

gint64
gen_call_one_way (GenCapture *cap, const GenCallPlan *plan, gint64 talk)
{
  GenCall c;
  gint64 t, end;

  gen_call_init (&c, cap, plan);
  gen_call_invite (&c, TRUE);
  gen_dialog_respond_invite (c.d, plan->t0 + GEN_MS (70), 180, NULL, NULL);
  t = gen_call_answer (&c, plan->t0 + GEN_MS (1800));
  end = talk_and_hang_up (&c, t, talk, TRUE, NULL);
  gen_call_clear (&c);
  return end;
}

gint64
gen_call_busy (GenCapture *cap, const GenCallPlan *plan)
{
  GenCall c;

  gen_call_init (&c, cap, plan);
  gen_call_invite (&c, TRUE);
  gen_dialog_respond_invite (c.d, plan->t0 + GEN_MS (90), 180, NULL, NULL);
  gen_dialog_respond_invite (c.d, plan->t0 + GEN_MS (1900), 486, NULL, NULL);
  gen_dialog_ack (c.d, plan->t0 + GEN_MS (1905), FALSE);
  gen_dialog_set_state (c.d, "rejected");
  gen_call_clear (&c);
  return plan->t0 + GEN_MS (1910);
}

gint64
gen_call_cancel (GenCapture *cap, const GenCallPlan *plan)
{
  GenCall c;
  gint64 t = plan->t0 + GEN_MS (4200);

  gen_call_init (&c, cap, plan);
  gen_call_invite (&c, TRUE);
  gen_dialog_respond_invite (c.d, plan->t0 + GEN_MS (60), 180, NULL, NULL);
  gen_dialog_cancel (c.d, t);
  gen_dialog_respond (c.d, t + GEN_MS (8), GEN_CALLER, 200, NULL, NULL, NULL);
  gen_dialog_respond_invite (c.d, t + GEN_MS (10), 487, NULL, NULL);
  gen_dialog_ack (c.d, t + GEN_MS (14), FALSE);
  gen_dialog_set_state (c.d, "cancelled");
  gen_call_clear (&c);
  return t + GEN_MS (20);
}

gint64
gen_call_slow_ring (GenCapture *cap, const GenCallPlan *plan, gint64 talk)
{
  GenCall c;
  gint64 t, end;

  gen_call_init (&c, cap, plan);
  gen_call_invite (&c, TRUE);
  gen_dialog_respond_invite (c.d, plan->t0 + GEN_MS (6100), 180, NULL, NULL);
  t = gen_call_answer (&c, plan->t0 + GEN_MS (25300));
  end = talk_and_hang_up (&c, t, talk, FALSE, NULL);
  gen_call_clear (&c);
  return end;
}

gint64
gen_call_retransmit (GenCapture *cap, const GenCallPlan *plan, gint64 talk)
{
  GenCall c;
  g_autofree char *answer = NULL;
  gint64 t0 = plan->t0, t;

  gen_call_init (&c, cap, plan);
  gen_call_invite (&c, FALSE);
  /* Timer A: 500 ms, then 1 s, before the far end answers at all */
  gen_dialog_retransmit (c.d, t0 + GEN_MS (500), GEN_CALLER);
  gen_dialog_retransmit (c.d, t0 + GEN_MS (1500), GEN_CALLER);
  gen_dialog_respond_invite (c.d, t0 + GEN_MS (1540), 100, NULL, NULL);
  gen_dialog_respond_invite (c.d, t0 + GEN_MS (1600), 180, NULL, NULL);
  answer = gen_call_answer_sdp (&c, "sendrecv");
  gen_dialog_respond_invite (c.d, t0 + GEN_MS (4000), 200, CT_SDP, answer);
  /* the first ACK is lost upstream, so the 200 comes again */
  gen_dialog_retransmit (c.d, t0 + GEN_MS (4500), GEN_CALLEE);
  gen_dialog_ack (c.d, t0 + GEN_MS (4506), TRUE);
  t = t0 + GEN_MS (4520);
  t = talk_and_hang_up (&c, t, talk, FALSE, NULL);
  gen_call_clear (&c);
  return t;
}

gint64
gen_register (GenCapture *cap, gint64 t, const GenUa *ua, const GenUa *registrar)
{
  /* To = From for REGISTER */
  GenDialog *d = gen_dialog_new (cap, ua, ua, &registrar->sip, FALSE);
  g_autofree char *nonce = gen_random_hex (&cap->rand, 32);
  g_autofree char *response = gen_random_hex (&cap->rand, 32);
  g_autofree char *challenge = NULL;
  g_autofree char *auth = NULL;
  char contact[CS_ENDPOINT_STRLEN + 40];
  char ep[CS_ENDPOINT_STRLEN];

  challenge = g_strdup_printf ("WWW-Authenticate: Digest realm=\"" GEN_DOMAIN "\", nonce=\"%s\", "
                               "algorithm=MD5, qop=\"auth\"\r\n",
                               nonce);
  auth = g_strdup_printf ("Authorization: Digest username=\"%s\", realm=\"" GEN_DOMAIN "\", "
                          "nonce=\"%s\", uri=\"sip:" GEN_DOMAIN "\", response=\"%s\", "
                          "algorithm=MD5, cnonce=\"0a4f113b\", qop=auth, nc=00000001\r\n"
                          "Expires: 3600\r\n",
                          ua->user, nonce, response);
  g_snprintf (contact, sizeof contact, "Expires: 3600\r\n");
  gen_dialog_request (d, t, GEN_CALLER, "REGISTER", contact, NULL, NULL);
  gen_dialog_respond (d, t + GEN_MS (9), GEN_CALLER, 401, challenge, NULL, NULL);
  gen_dialog_request (d, t + GEN_MS (30), GEN_CALLER, "REGISTER", auth, NULL, NULL);
  g_snprintf (contact, sizeof contact, "Contact: <sip:%s@%s>;expires=3600\r\n", ua->user,
              cs_endpoint_to_string (&ua->sip, ep));
  gen_dialog_respond (d, t + GEN_MS (41), GEN_CALLER, 200, contact, NULL, NULL);
  gen_dialog_free (d);
  return t + GEN_MS (50);
}

gint64
gen_options_ping (GenCapture *cap, gint64 t, const GenUa *from, const GenUa *to)
{
  GenDialog *d = gen_dialog_new (cap, from, to, &to->sip, FALSE);

  gen_dialog_request (d, t, GEN_CALLER, "OPTIONS", "Accept: application/sdp\r\n", NULL, NULL);
  gen_dialog_respond (d, t + GEN_MS (4), GEN_CALLER, 200,
                      "Allow: INVITE, ACK, CANCEL, BYE, OPTIONS, INFO, NOTIFY\r\n"
                      "Accept: application/sdp\r\n",
                      NULL, NULL);
  gen_dialog_free (d);
  return t + GEN_MS (10);
}
