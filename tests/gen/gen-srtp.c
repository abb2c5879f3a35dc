/* gen-srtp.c — libsrtp sending sessions for the generator's streams */
#include "gen-srtp.h"

#include <srtp2/srtp.h>
#include <string.h>

struct _GenSrtp
{
  srtp_t ctx;
  gboolean mki;
};

typedef struct
{
  const char *name;
  guint key_length;
  void (*rtp) (srtp_crypto_policy_t *);
  void (*rtcp) (srtp_crypto_policy_t *);
} GenSuite;

static const GenSuite gen_suites[] = {
  { "AES_CM_128_HMAC_SHA1_80", 30, srtp_crypto_policy_set_rtp_default,
    srtp_crypto_policy_set_rtcp_default },
  { "AES_CM_128_HMAC_SHA1_32", 30, srtp_crypto_policy_set_aes_cm_128_hmac_sha1_32,
    srtp_crypto_policy_set_rtcp_default },
  { "AES_192_CM_HMAC_SHA1_80", 38, srtp_crypto_policy_set_aes_cm_192_hmac_sha1_80,
    srtp_crypto_policy_set_aes_cm_192_hmac_sha1_80 },
  { "AES_192_CM_HMAC_SHA1_32", 38, srtp_crypto_policy_set_aes_cm_192_hmac_sha1_32,
    srtp_crypto_policy_set_aes_cm_192_hmac_sha1_80 },
  { "AES_256_CM_HMAC_SHA1_80", 46, srtp_crypto_policy_set_aes_cm_256_hmac_sha1_80,
    srtp_crypto_policy_set_aes_cm_256_hmac_sha1_80 },
  { "AES_256_CM_HMAC_SHA1_32", 46, srtp_crypto_policy_set_aes_cm_256_hmac_sha1_32,
    srtp_crypto_policy_set_aes_cm_256_hmac_sha1_80 },
  { "AEAD_AES_128_GCM", 28, srtp_crypto_policy_set_aes_gcm_128_16_auth,
    srtp_crypto_policy_set_aes_gcm_128_16_auth },
  { "AEAD_AES_256_GCM", 44, srtp_crypto_policy_set_aes_gcm_256_16_auth,
    srtp_crypto_policy_set_aes_gcm_256_16_auth },
};

static const GenSuite *
find_suite (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (gen_suites); i++)
    if (strcmp (gen_suites[i].name, name) == 0)
      return &gen_suites[i];
  return NULL;
}

guint
gen_srtp_key_length (const char *suite)
{
  const GenSuite *s = find_suite (suite);

  return s != NULL ? s->key_length : 0;
}

GenSrtp *
gen_srtp_new (const char *suite, guint32 ssrc, const guint8 *key, guint mki_value, guint mki_length)
{
  static gsize init;
  const GenSuite *s = find_suite (suite);
  srtp_policy_t policy;
  guint8 key_copy[64], mki[8];
  srtp_master_key_t master = { key_copy, mki, mki_length };
  srtp_master_key_t *masters[] = { &master };
  GenSrtp *out = g_new0 (GenSrtp, 1);

  g_assert (s != NULL && mki_length <= sizeof mki);
  if (g_once_init_enter (&init))
    {
      if (srtp_init () != srtp_err_status_ok)
        g_error ("libsrtp does not start");
      g_once_init_leave (&init, 1);
    }
  memset (&policy, 0, sizeof policy);
  memcpy (key_copy, key, s->key_length);
  for (guint i = 0; i < mki_length; i++)
    mki[i] = (guint8) (mki_value >> (8 * (mki_length - 1 - i)));
  s->rtp (&policy.rtp);
  s->rtcp (&policy.rtcp);
  policy.ssrc.type = ssrc_specific;
  policy.ssrc.value = ssrc;
  policy.window_size = 128;
  policy.allow_repeat_tx = 1; /* the generator's duplicates are sent twice */
  if (mki_length > 0)
    {
      policy.keys = masters;
      policy.num_master_keys = 1;
      out->mki = TRUE;
    }
  else
    policy.key = key_copy;
  if (srtp_create (&out->ctx, &policy) != srtp_err_status_ok)
    g_error ("libsrtp refused a %s key", suite);
  return out;
}

void
gen_srtp_free (GenSrtp *srtp)
{
  if (srtp == NULL)
    return;
  srtp_dealloc (srtp->ctx);
  g_free (srtp);
}

gsize
gen_srtp_protect (GenSrtp *srtp, guint8 *pkt, gsize len)
{
  int n = (int) len;

  if (srtp_protect_mki (srtp->ctx, pkt, &n, srtp->mki, 0) != srtp_err_status_ok)
    g_error ("libsrtp would not protect a packet");
  return (gsize) n;
}

char *
gen_srtp_sdp (const GenSrtpPlan *plan, char *sdp, const guint8 *key, guint mki_value)
{
  GString *s = g_string_new (NULL);
  const char *avp = strstr (sdp, " RTP/AVP "), *ptime = strstr (sdp, "a=ptime:");
  g_autofree char *b64 = g_base64_encode (key, gen_srtp_key_length (plan->suite));

  g_assert (avp != NULL && ptime != NULL && avp < ptime);
  g_string_append_len (s, sdp, avp - sdp);
  g_string_append (s, " RTP/SAVP ");
  g_string_append_len (s, avp + 9, ptime - (avp + 9));
  if (!plan->no_key_lines)
    {
      g_string_append_printf (s, "a=crypto:1 %s inline:%s", plan->suite, b64);
      if (plan->lifetime != NULL)
        g_string_append_printf (s, "|%s", plan->lifetime);
      if (plan->mki_length > 0)
        g_string_append_printf (s, "|%u:%u", mki_value, plan->mki_length);
      g_string_append (s, "\r\n");
    }
  g_string_append (s, ptime);
  g_free (sdp);
  return g_string_free (s, FALSE);
}
