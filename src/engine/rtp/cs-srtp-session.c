/* cs-srtp-session.c — libsrtp receiving sessions (libsrtp2: the reference implementation,
 * every suite of RFC 4568, 6188 and 7714, MKI) */
#include "cs-srtp-session.h"

#include <srtp2/srtp.h>
#include <string.h>

struct _CsSrtpSession
{
  srtp_t ctx;
  CsSrtpSuite suite;
  gboolean use_mki;
};

const char *
cs_srtp_status_to_string (CsSrtpStatus status)
{
  switch (status)
    {
    case CS_SRTP_OK:
      return "ok";
    case CS_SRTP_AUTH_FAIL:
      return "authentication failed";
    case CS_SRTP_REPLAY:
      return "replayed";
    case CS_SRTP_MALFORMED:
      return "malformed";
    }
  return "unknown";
}

static guint
suite_tag_length (CsSrtpSuite suite, gboolean rtcp)
{
  switch (suite)
    {
    case CS_SRTP_AES_CM_128_HMAC_SHA1_32:
    case CS_SRTP_AES_192_CM_HMAC_SHA1_32:
    case CS_SRTP_AES_256_CM_HMAC_SHA1_32:
      return rtcp ? 10 : 4; /* SRTCP keeps the 80-bit tag (RFC 4568 6.2) */
    case CS_SRTP_AEAD_AES_128_GCM:
    case CS_SRTP_AEAD_AES_256_GCM:
      return 16;
    default:
      return 10;
    }
}

guint
cs_srtp_suite_trailer (CsSrtpSuite suite, guint mki_length, gboolean rtcp)
{
  return suite_tag_length (suite, rtcp) + mki_length + (rtcp ? 4 : 0);
}

static gboolean
set_policies (CsSrtpSuite suite, srtp_policy_t *policy)
{
  switch (suite)
    {
    case CS_SRTP_AES_CM_128_HMAC_SHA1_80:
      srtp_crypto_policy_set_aes_cm_128_hmac_sha1_80 (&policy->rtp);
      srtp_crypto_policy_set_aes_cm_128_hmac_sha1_80 (&policy->rtcp);
      return TRUE;
    case CS_SRTP_AES_CM_128_HMAC_SHA1_32:
      srtp_crypto_policy_set_aes_cm_128_hmac_sha1_32 (&policy->rtp);
      srtp_crypto_policy_set_aes_cm_128_hmac_sha1_80 (&policy->rtcp);
      return TRUE;
    case CS_SRTP_AES_192_CM_HMAC_SHA1_80:
      srtp_crypto_policy_set_aes_cm_192_hmac_sha1_80 (&policy->rtp);
      srtp_crypto_policy_set_aes_cm_192_hmac_sha1_80 (&policy->rtcp);
      return TRUE;
    case CS_SRTP_AES_192_CM_HMAC_SHA1_32:
      srtp_crypto_policy_set_aes_cm_192_hmac_sha1_32 (&policy->rtp);
      srtp_crypto_policy_set_aes_cm_192_hmac_sha1_80 (&policy->rtcp);
      return TRUE;
    case CS_SRTP_AES_256_CM_HMAC_SHA1_80:
      srtp_crypto_policy_set_aes_cm_256_hmac_sha1_80 (&policy->rtp);
      srtp_crypto_policy_set_aes_cm_256_hmac_sha1_80 (&policy->rtcp);
      return TRUE;
    case CS_SRTP_AES_256_CM_HMAC_SHA1_32:
      srtp_crypto_policy_set_aes_cm_256_hmac_sha1_32 (&policy->rtp);
      srtp_crypto_policy_set_aes_cm_256_hmac_sha1_80 (&policy->rtcp);
      return TRUE;
    case CS_SRTP_AEAD_AES_128_GCM:
      srtp_crypto_policy_set_aes_gcm_128_16_auth (&policy->rtp);
      srtp_crypto_policy_set_aes_gcm_128_16_auth (&policy->rtcp);
      return TRUE;
    case CS_SRTP_AEAD_AES_256_GCM:
      srtp_crypto_policy_set_aes_gcm_256_16_auth (&policy->rtp);
      srtp_crypto_policy_set_aes_gcm_256_16_auth (&policy->rtcp);
      return TRUE;
    default:
      return FALSE;
    }
}

static gboolean
srtp_ready (void)
{
  static gsize done;
  static gboolean ok;

  if (g_once_init_enter (&done))
    {
      ok = srtp_init () == srtp_err_status_ok;
      g_once_init_leave (&done, 1);
    }
  return ok;
}

CsSrtpSession *
cs_srtp_session_new (const CsSrtpKey *key, CsSrtpSuite suite, guint32 ssrc, GError **error)
{
  srtp_policy_t policy;
  srtp_master_key_t masters[CS_SRTP_MAX_KEYS];
  srtp_master_key_t *master_list[CS_SRTP_MAX_KEYS];
  guint8 copies[CS_SRTP_MAX_KEYS][CS_SRTP_MAX_KEY_LENGTH];
  guint8 mkis[CS_SRTP_MAX_KEYS][CS_SRTP_MAX_MKI_LENGTH];
  CsSrtpSession *session;
  srtp_err_status_t status;

  memset (&policy, 0, sizeof policy);
  if (!srtp_ready () || key->n_keys == 0
      || key->keys[0].key_length != cs_srtp_suite_key_length (suite)
      || !set_policies (suite, &policy))
    {
      g_set_error (error, CS_SRTP_KEY_ERROR, CS_SRTP_KEY_ERROR_SUITE,
                   "libsrtp cannot use a %u-byte key as %s",
                   key->n_keys > 0 ? key->keys[0].key_length : 0, cs_srtp_suite_to_string (suite));
      return NULL;
    }
  policy.ssrc.type = ssrc_specific;
  policy.ssrc.value = ssrc;
  /* a capture's reordering reaches further back than a phone's 128 packets */
  policy.window_size = 1024;
  for (guint i = 0; i < key->n_keys; i++)
    {
      memcpy (copies[i], key->keys[i].key, key->keys[i].key_length);
      memcpy (mkis[i], key->keys[i].mki, key->keys[i].mki_length);
      masters[i].key = copies[i];
      masters[i].mki_id = mkis[i];
      masters[i].mki_size = key->keys[i].mki_length;
      master_list[i] = &masters[i];
    }
  if (key->keys[0].mki_length > 0)
    {
      policy.keys = master_list;
      policy.num_master_keys = key->n_keys;
    }
  else
    policy.key = copies[0];
  session = g_new0 (CsSrtpSession, 1);
  session->suite = suite;
  session->use_mki = key->keys[0].mki_length > 0;
  status = srtp_create (&session->ctx, &policy);
  memset (copies, 0, sizeof copies);
  if (status != srtp_err_status_ok)
    {
      g_set_error (error, CS_SRTP_KEY_ERROR, CS_SRTP_KEY_ERROR_SUITE,
                   "libsrtp refused the %s key (error %d)", cs_srtp_suite_to_string (suite),
                   (int) status);
      g_free (session);
      return NULL;
    }
  return session;
}

void
cs_srtp_session_free (CsSrtpSession *session)
{
  if (session == NULL)
    return;
  srtp_dealloc (session->ctx);
  g_free (session);
}

CsSrtpSuite
cs_srtp_session_get_suite (const CsSrtpSession *session)
{
  return session->suite;
}

static CsSrtpStatus
status_of (srtp_err_status_t status)
{
  switch (status)
    {
    case srtp_err_status_ok:
      return CS_SRTP_OK;
    case srtp_err_status_auth_fail:
    case srtp_err_status_cipher_fail:
      return CS_SRTP_AUTH_FAIL;
    case srtp_err_status_replay_fail:
    case srtp_err_status_replay_old:
    case srtp_err_status_pkt_idx_old:
      return CS_SRTP_REPLAY;
    default:
      return CS_SRTP_MALFORMED;
    }
}

CsSrtpStatus
cs_srtp_session_unprotect_rtp (CsSrtpSession *session, guint8 *buf, gsize len, gsize *out_len)
{
  int n = (int) MIN (len, (gsize) G_MAXINT);
  CsSrtpStatus status;

  /* a fixed header and the tag at least: libsrtp reads both */
  if (len < 12 + cs_srtp_suite_trailer (session->suite, 0, FALSE))
    return CS_SRTP_MALFORMED;
  status = status_of (srtp_unprotect_mki (session->ctx, buf, &n, session->use_mki));
  if (status == CS_SRTP_OK)
    *out_len = (gsize) n;
  return status;
}

CsSrtpStatus
cs_srtp_session_unprotect_rtcp (CsSrtpSession *session, guint8 *buf, gsize len, gsize *out_len)
{
  int n = (int) MIN (len, (gsize) G_MAXINT);
  CsSrtpStatus status;

  if (len < 8 + cs_srtp_suite_trailer (session->suite, 0, TRUE))
    return CS_SRTP_MALFORMED;
  status = status_of (srtp_unprotect_rtcp_mki (session->ctx, buf, &n, session->use_mki));
  if (status == CS_SRTP_OK)
    *out_len = (gsize) n;
  return status;
}
