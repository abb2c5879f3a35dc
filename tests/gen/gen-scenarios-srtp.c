/* gen-scenarios-srtp.c — SDES-SRTP calls written with libsrtp: every suite, MKI, key
 * lifetime, a wrong key, a sequence rollover, SRTP without keys */
#include "gen-scenarios.h"

#include <stdlib.h>

#define T0 (GEN_EPOCH + GEN_MS (100))

/* What the generator did wrong on purpose, as findings: no a=crypto (each stream's first
 * packet), alice's key not the one her SDP gives (her first 8 packets fail), packets past
 * the a=crypto lifetime 2^N (the first one after 2^N packets of each stream). */
static void
srtp_findings (GenCapture *cap, const GenSrtpPlan *srtp, GenExpectCall *call, GenExpectStream *up,
               GenExpectStream *down)
{
  GenExpectStream *streams[] = { up, down };

  for (guint i = 0; i < G_N_ELEMENTS (streams); i++)
    {
      GenExpectStream *s = streams[i];
      guint lifetime = srtp->lifetime != NULL && g_str_has_prefix (srtp->lifetime, "2^")
                           ? 1u << atoi (srtp->lifetime + 2)
                           : G_MAXUINT;

      if (srtp->no_key_lines)
        gen_expect_finding_frame (
            gen_expect_add_finding (cap->expect, "srtp-no-key", "warning", call, s),
            gen_expect_stream_first (s));
      if (srtp->wrong_up_key && s == up)
        {
          GenExpectFinding *f
              = gen_expect_add_finding (cap->expect, "srtp-auth-failed", "error", call, s);

          for (guint n = 0; n < 8 && n < s->arrivals->len; n++)
            gen_expect_finding_frame (f, gen_expect_stream_nth (s, n));
        }
      /* a copy of an SRTP packet is a replay libsrtp refuses: a sequence error, never an
       * authentication failure */
      if (s->duplicates > 0)
        gen_expect_finding_disordered (
            gen_expect_add_finding (cap->expect, "sequence-errors", "warning", call, s), s);
      if (s->packets > lifetime)
        gen_expect_finding_frame (
            gen_expect_add_finding (cap->expect, "srtp-key-lifetime", "warning", call, s),
            gen_expect_stream_nth (s, lifetime));
    }
}

/* alice calls bob through the proxy: 3 s of the dual tone up (with a digit when dtmf),
 * the sweep down, both as SRTP of srtp's suite */
static void
srtp_call (GenCapture *cap, const GenSrtpPlan *srtp, gboolean dtmf)
{
  GenCast cast;
  GenCallPlan plan;
  GenCall c;
  gint64 t, start;
  const GenRtpImpair up_impair = { .duplicates = srtp->duplicates };

  gen_cast_init (&cast);
  gen_plan_init (&plan, T0, &cast.alice, &cast.bob, &cast.proxy);
  plan.srtp = srtp;
  gen_call_init (&c, cap, &plan);
  gen_call_invite (&c, TRUE);
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (80), 180, NULL, NULL);
  start = t = gen_call_answer (&c, T0 + GEN_MS (1500));
  gen_rtp_stream_init (&c.up, cap, &c.caller_media, &c.callee_media, plan.pt, GEN_TONE_DUAL, t,
                       TRUE);
  gen_call_protect_stream (&c, &c.up, 0);
  t = gen_rtp_send_audio (&c.up, t, GEN_S (3), &up_impair);
  if (dtmf)
    {
      /* without a key the events stay ciphertext: no digit may be read from them */
      GenExpectDtmf *digit
          = srtp->no_key_lines ? NULL : gen_expect_add_dtmf (cap->expect, '7', "rfc4733");

      t = gen_rtp_send_dtmf (&c.up, t, '7', 8, digit);
      t = gen_rtp_send_audio (&c.up, t, GEN_S (1), NULL);
    }
  gen_rtp_stream_init (&c.down, cap, &c.callee_media, &c.caller_media, plan.pt, GEN_TONE_SWEEP,
                       start + GEN_MS (3), TRUE);
  gen_call_protect_stream (&c, &c.down, 1);
  gen_rtp_send_audio (&c.down, start + GEN_MS (3), t - start, NULL);
  gen_call_hangup (&c, t + GEN_MS (100), GEN_CALLER);
  srtp_findings (cap, srtp, c.d->expect, c.up.expect, c.down.expect);
  gen_call_clear (&c);
}

#define SUITE_SCENARIO(fn, suite_name)                                                             \
  void fn (GenCapture *cap)                                                                        \
  {                                                                                                \
    static const GenSrtpPlan srtp = { .suite = suite_name };                                       \
    srtp_call (cap, &srtp, TRUE);                                                                  \
  }

SUITE_SCENARIO (gen_scn_srtp_aes128_80, "AES_CM_128_HMAC_SHA1_80")
SUITE_SCENARIO (gen_scn_srtp_aes128_32, "AES_CM_128_HMAC_SHA1_32")
SUITE_SCENARIO (gen_scn_srtp_aes192_80, "AES_192_CM_HMAC_SHA1_80")
SUITE_SCENARIO (gen_scn_srtp_aes192_32, "AES_192_CM_HMAC_SHA1_32")
SUITE_SCENARIO (gen_scn_srtp_aes256_80, "AES_256_CM_HMAC_SHA1_80")
SUITE_SCENARIO (gen_scn_srtp_aes256_32, "AES_256_CM_HMAC_SHA1_32")
SUITE_SCENARIO (gen_scn_srtp_gcm128, "AEAD_AES_128_GCM")
SUITE_SCENARIO (gen_scn_srtp_gcm256, "AEAD_AES_256_GCM")

void
gen_scn_srtp_mki (GenCapture *cap)
{
  static const GenSrtpPlan srtp
      = { .suite = "AES_CM_128_HMAC_SHA1_80", .mki_length = 4, .lifetime = "2^20" };

  srtp_call (cap, &srtp, TRUE);
}

void
gen_scn_srtp_wrong_key (GenCapture *cap)
{
  static const GenSrtpPlan srtp = { .suite = "AES_CM_128_HMAC_SHA1_80", .wrong_up_key = TRUE };

  srtp_call (cap, &srtp, FALSE);
}

void
gen_scn_srtp_rollover (GenCapture *cap)
{
  /* 150 packets from 65470: the sequence wraps after 66, the ROC goes to 1 */
  static const GenSrtpPlan srtp = { .suite = "AES_CM_128_HMAC_SHA1_80", .seq0 = 65470 };

  srtp_call (cap, &srtp, TRUE);
}

void
gen_scn_srtp_lifetime (GenCapture *cap)
{
  /* the key may protect 128 packets; 150 go out under it */
  static const GenSrtpPlan srtp = { .suite = "AES_CM_128_HMAC_SHA1_32", .lifetime = "2^7" };

  srtp_call (cap, &srtp, FALSE);
}

void
gen_scn_srtp_no_key (GenCapture *cap)
{
  static const GenSrtpPlan srtp = { .suite = "AES_CM_128_HMAC_SHA1_80", .no_key_lines = TRUE };

  srtp_call (cap, &srtp, TRUE);
}

void
gen_scn_srtp_duplicates (GenCapture *cap)
{
  static const GenSrtpPlan srtp = { .suite = "AES_CM_128_HMAC_SHA1_80", .duplicates = 3 };

  srtp_call (cap, &srtp, FALSE);
}
