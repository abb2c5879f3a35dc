/* fuzz-srtp.c — hostile SRTP/SRTCP packets against libsrtp sessions of every suite (with and
 * without MKI), and the same bytes as a=crypto lines and --srtp-key values */
#include "fuzz-common.h"

#include <string.h>

#include "rtp/cs-srtp-key.h"
#include "rtp/cs-srtp-session.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const guint8 master[CS_SRTP_MAX_KEY_LENGTH] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autofree guint8 *buf = g_malloc (size + 1);
  CsSrtpKey key;
  CsSrtpUserKey user;
  CsSrtpSuite suite;
  CsSrtpSession *session;
  gsize out = 0;
  guint sum = 0;

  cs_fuzz_init_once ();
  /* the bytes as key text: parsed or refused, never past its end */
  if (cs_srtp_key_parse_crypto ((const char *) data, size, &key, NULL))
    sum += key.n_keys;
  if (cs_srtp_user_key_parse (text, &user, NULL))
    sum += user.key.n_keys;
  if (size < 1)
    return 0;
  /* the bytes as a packet of the suite the first byte picks */
  suite = (CsSrtpSuite) (1 + data[0] % (CS_SRTP_N_SUITES - 1));
  memset (&key, 0, sizeof key);
  key.suite = suite;
  key.n_keys = 1;
  key.keys[0].key_length = cs_srtp_suite_key_length (suite);
  memcpy (key.keys[0].key, master, sizeof master);
  if (data[0] & 0x80)
    key.keys[0].mki_length = 1 + data[0] % 4;
  session = cs_srtp_session_new (&key, suite, size >= 12 ? (guint32) data[8] << 24 | data[11] : 0,
                                 NULL);
  g_assert (session != NULL);
  memcpy (buf, data, size);
  if (cs_srtp_session_unprotect_rtp (session, buf, size, &out) == CS_SRTP_OK)
    g_assert (out <= size);
  memcpy (buf, data, size);
  if (cs_srtp_session_unprotect_rtcp (session, buf, size, &out) == CS_SRTP_OK)
    g_assert (out <= size);
  cs_srtp_session_free (session);
  return sum == G_MAXUINT;
}
