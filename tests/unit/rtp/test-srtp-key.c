/* test-srtp-key.c — a=crypto lines (RFC 4568's own examples, decoded by hand) and user keys
 * read into master keys; bad ones refused with the reason, never the key */
#include "rtp/cs-srtp-key.h"
#include "sip/cs-sdp.h"

#include <string.h>

/* RFC 4568 section 9.1's example key: 40 base64 characters, 30 bytes; "PS1u" is
 * 001111 010010 110101 101110 = 0x3d 0x2d 0x6e. */
#define RFC_KEY "PS1uQCVeeCFCanVmcjkpPywjNWhcYD0mXXtxaVBR"

static void
test_rfc_example (void)
{
  const char *line = "1 AES_CM_128_HMAC_SHA1_80 inline:" RFC_KEY "|2^20|1:32";
  g_autoptr (GError) error = NULL;
  CsSrtpKey key;

  g_assert_true (cs_srtp_key_parse_crypto (line, strlen (line), &key, &error));
  g_assert_no_error (error);
  g_assert_cmpint (key.suite, ==, CS_SRTP_AES_CM_128_HMAC_SHA1_80);
  g_assert_cmpuint (key.tag, ==, 1);
  g_assert_cmpuint (key.n_keys, ==, 1);
  g_assert_cmpuint (key.keys[0].key_length, ==, 30);
  g_assert_cmpuint (key.keys[0].key[0], ==, 0x3d);
  g_assert_cmpuint (key.keys[0].key[1], ==, 0x2d);
  g_assert_cmpuint (key.keys[0].key[2], ==, 0x6e);
  g_assert_cmpuint (key.keys[0].lifetime, ==, 1048576);
  /* MKI 1 in 32 bytes: 31 zeros then 1 */
  g_assert_cmpuint (key.keys[0].mki_length, ==, 32);
  for (guint i = 0; i < 31; i++)
    g_assert_cmpuint (key.keys[0].mki[i], ==, 0);
  g_assert_cmpuint (key.keys[0].mki[31], ==, 1);
}

static void
test_session_params_and_keys (void)
{
  /* RFC 4568 9.1's second line, with session parameters after the key */
  const char *line = "2 AES_CM_128_HMAC_SHA1_32 inline:NzB4d1BINUAvLEw6UzF3WSJ+PSdFcGdUJShpX1Zj|"
                     "2^20|1:32 KDR=1 UNENCRYPTED_SRTCP";
  const char *two
      = "3 AES_CM_128_HMAC_SHA1_80 inline:" RFC_KEY "|2^20|1:4;inline:" RFC_KEY "|2^20|2:4";
  CsSrtpKey key;

  g_assert_true (cs_srtp_key_parse_crypto (line, strlen (line), &key, NULL));
  g_assert_cmpuint (key.tag, ==, 2);
  g_assert_cmpint (key.suite, ==, CS_SRTP_AES_CM_128_HMAC_SHA1_32);
  g_assert_true (cs_srtp_key_parse_crypto (two, strlen (two), &key, NULL));
  g_assert_cmpuint (key.n_keys, ==, 2);
  g_assert_cmpuint (key.keys[0].mki[3], ==, 1);
  g_assert_cmpuint (key.keys[1].mki[3], ==, 2);
  g_assert_cmpuint (key.keys[1].lifetime, ==, 1048576);
}

static void
test_refused (void)
{
  static const struct
  {
    const char *line;
    CsSrtpKeyError code;
  } bad[] = {
    { "1 AES_256_CM_HMAC_SHA1_80 inline:" RFC_KEY, CS_SRTP_KEY_ERROR_KEY_LENGTH },
    { "1 F8_128_HMAC_SHA1_80 inline:" RFC_KEY, CS_SRTP_KEY_ERROR_SUITE },
    { "1 AES_CM_128_HMAC_SHA1_80 " RFC_KEY, CS_SRTP_KEY_ERROR_SYNTAX },
    { "1 AES_CM_128_HMAC_SHA1_80 inline:PS1u*CVeeCFCanVmcjkpPywjNWhcYD0mXXtxaVBR",
      CS_SRTP_KEY_ERROR_SYNTAX },
    { "1 AES_CM_128_HMAC_SHA1_80 inline:" RFC_KEY "|2^x", CS_SRTP_KEY_ERROR_SYNTAX },
    { "1 AES_CM_128_HMAC_SHA1_80 inline:" RFC_KEY "|1:0", CS_SRTP_KEY_ERROR_SYNTAX },
    { "1 AES_CM_128_HMAC_SHA1_80 inline:" RFC_KEY "|256:1", CS_SRTP_KEY_ERROR_SYNTAX },
    { "1 AES_CM_128_HMAC_SHA1_80 inline:" RFC_KEY "|1:129", CS_SRTP_KEY_ERROR_SYNTAX },
    { "1 AES_CM_128_HMAC_SHA1_80 inline:" RFC_KEY ";inline:" RFC_KEY, CS_SRTP_KEY_ERROR_SYNTAX },
    { "x AES_CM_128_HMAC_SHA1_80 inline:" RFC_KEY, CS_SRTP_KEY_ERROR_SYNTAX },
    { "", CS_SRTP_KEY_ERROR_SYNTAX },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      CsSrtpKey key;

      g_test_message ("%s", bad[i].line);
      g_assert_false (cs_srtp_key_parse_crypto (bad[i].line, strlen (bad[i].line), &key, &error));
      g_assert_error (error, CS_SRTP_KEY_ERROR, (gint) bad[i].code);
      /* the message never quotes the key */
      g_assert_null (strstr (error->message, "PS1u"));
    }
}

static void
test_user_keys (void)
{
  g_autoptr (GError) error = NULL;
  CsSrtpUserKey u;
  CsSrtpSuite suites[CS_SRTP_N_SUITES];

  g_assert_true (cs_srtp_user_key_parse ("0x1234ABCD=inline:" RFC_KEY, &u, &error));
  g_assert_no_error (error);
  g_assert_false (u.by_stream);
  g_assert_cmphex (u.ssrc, ==, 0x1234abcd);
  g_assert_cmpint (u.key.suite, ==, CS_SRTP_SUITE_UNKNOWN);
  /* 30 bytes: either 128-bit AES-CM suite */
  g_assert_cmpuint (cs_srtp_key_candidate_suites (&u.key, suites), ==, 2);
  g_assert_cmpint (suites[0], ==, CS_SRTP_AES_CM_128_HMAC_SHA1_80);
  g_assert_cmpint (suites[1], ==, CS_SRTP_AES_CM_128_HMAC_SHA1_32);

  g_assert_true (cs_srtp_user_key_parse ("3=AES_CM_128_HMAC_SHA1_32 inline:" RFC_KEY, &u, NULL));
  g_assert_true (u.by_stream);
  g_assert_cmpuint (u.stream_id, ==, 3);
  g_assert_cmpuint (cs_srtp_key_candidate_suites (&u.key, suites), ==, 1);
  g_assert_cmpint (suites[0], ==, CS_SRTP_AES_CM_128_HMAC_SHA1_32);

  /* 28 bytes (AES-128 GCM key + 96-bit salt): one suite */
  g_assert_true (
      cs_srtp_user_key_parse ("0x1=inline:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGw==", &u, NULL));
  g_assert_cmpuint (u.key.keys[0].key_length, ==, 28);
  g_assert_cmpuint (cs_srtp_key_candidate_suites (&u.key, suites), ==, 1);
  g_assert_cmpint (suites[0], ==, CS_SRTP_AEAD_AES_128_GCM);

  for (guint i = 0; i < 4; i++)
    {
      const char *bad[] = { "=inline:" RFC_KEY, "zz=inline:" RFC_KEY, "0x123456789=inline:" RFC_KEY,
                            "inline:" RFC_KEY };
      g_autoptr (GError) e = NULL;

      g_assert_false (cs_srtp_user_key_parse (bad[i], &u, &e));
      g_assert_error (e, CS_SRTP_KEY_ERROR, CS_SRTP_KEY_ERROR_TARGET);
    }
}

static void
test_sdp_keeps_crypto (void)
{
  const char *text = "v=0\r\no=- 1 1 IN IP4 10.0.0.1\r\ns=-\r\nc=IN IP4 10.0.0.1\r\nt=0 0\r\n"
                     "a=crypto:9 AES_CM_128_HMAC_SHA1_80 inline:session-level-ignored\r\n"
                     "m=audio 4000 RTP/SAVP 0\r\n"
                     "a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:" RFC_KEY "\r\n"
                     "a=crypto:2 AES_CM_128_HMAC_SHA1_32 inline:" RFC_KEY "  \r\n"
                     "a=crypto:3 A\r\na=crypto:4 B\r\na=crypto:5 C\r\n"
                     "m=audio 5000 RTP/AVP 0\r\n";
  g_autoptr (CsSdp) sdp = cs_sdp_parse (text, strlen (text), NULL);
  const CsSdpMedia *m;

  g_assert_nonnull (sdp);
  g_assert_cmpuint (sdp->media->len, ==, 2);
  m = g_ptr_array_index (sdp->media, 0);
  g_assert_cmpstr (m->proto, ==, "RTP/SAVP");
  g_assert_cmpstr (m->crypto[0], ==, "1 AES_CM_128_HMAC_SHA1_80 inline:" RFC_KEY);
  g_assert_cmpstr (m->crypto[1], ==, "2 AES_CM_128_HMAC_SHA1_32 inline:" RFC_KEY);
  g_assert_cmpstr (m->crypto[3], ==, "4 B"); /* the first four, the fifth dropped */
  m = g_ptr_array_index (sdp->media, 1);
  g_assert_null (m->crypto[0]);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/srtp-key/rfc4568-example", test_rfc_example);
  g_test_add_func ("/srtp-key/session-params-and-keys", test_session_params_and_keys);
  g_test_add_func ("/srtp-key/refused", test_refused);
  g_test_add_func ("/srtp-key/user-keys", test_user_keys);
  g_test_add_func ("/srtp-key/sdp-keeps-crypto", test_sdp_keeps_crypto);
  return g_test_run ();
}
