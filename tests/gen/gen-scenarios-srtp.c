/* gen-scenarios-srtp.c — SDES-SRTP calls written with libsrtp: every suite, MKI, key
 * lifetime, a wrong key, a sequence rollover, SRTP without keys */
#include "gen-scenarios.h"

#define T0 (GEN_EPOCH + GEN_MS (100))

/* alice calls bob through the proxy: 3 s of the dual tone up (with a digit when dtmf),
 * the sweep down, both as SRTP of srtp's suite */
static void
srtp_call (GenCapture *cap, const GenSrtpPlan *srtp, gboolean dtmf)
{
  GenCast cast;
  GenCallPlan plan;
  GenCall c;
  gint64 t, start;

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
  t = gen_rtp_send_audio (&c.up, t, GEN_S (3), NULL);
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
