/* test-tls.c — the TLS key schedules against published vectors (the TLS WG's P_SHA256
 * vector, RFC 8448's TLS 1.3 trace), a TLS 1.3 record sealed here with RFC 8448's own key and
 * IV opened through the traffic secret, and NSS key log lines read or refused */
#include <gnutls/crypto.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "net/cs-tls-crypto.h"
#include "net/cs-tls-keylog.h"

static gsize
unhex (const char *hex, guint8 *out)
{
  gsize n = 0;

  for (; hex[0] != '\0' && hex[1] != '\0'; hex += 2)
    out[n++] = (guint8) (g_ascii_xdigit_value (hex[0]) << 4 | g_ascii_xdigit_value (hex[1]));
  return n;
}

static void
assert_hex (const guint8 *got, gsize n, const char *want)
{
  guint8 expected[256];

  g_assert_cmpuint (unhex (want, expected), ==, n);
  g_assert_cmpmem (got, n, expected, n);
}

static void
test_prf12_vector (void)
{
  guint8 secret[16], seed[16], out[100];

  unhex ("9bbe436ba940f017b17652849a71db35", secret);
  unhex ("a0ba9f936cda311827a6f796ffd5198c", seed);
  g_assert_true (
      cs_tls_prf12 (GNUTLS_MAC_SHA256, secret, 16, "test label", seed, 16, out, sizeof out));
  assert_hex (out, sizeof out,
              "e3f229ba727be17b8d122620557cd453c2aab21d07c3d495329b52d4e61edb5a6b301791e90d35c9c9"
              "a46b4e14baf9af0fa022f7077def17abfd3797c0564bab4fbc91666e9def9b97fce34f796789baa4"
              "8082d122ee42c5a72e5a5110fff70187347b66");
}

/* RFC 8448 3: the server and client handshake traffic secrets and their write keys and IVs */
#define S_HS "b67b7d690cc16c4e75e54213cb2d37b4e9c912bcded9105d42befd59d391ad38"
#define S_KEY "3fce516009c21727d0f2e4e86ee403bc"
#define S_IV "5d313eb2671276ee13000b30"

static void
test_hkdf_rfc8448 (void)
{
  guint8 secret[32], key[16], iv[12];

  unhex (S_HS, secret);
  g_assert_true (cs_tls_hkdf_expand_label (GNUTLS_MAC_SHA256, secret, 32, "key", key, 16));
  g_assert_true (cs_tls_hkdf_expand_label (GNUTLS_MAC_SHA256, secret, 32, "iv", iv, 12));
  assert_hex (key, 16, S_KEY);
  assert_hex (iv, 12, S_IV);
  unhex ("b3eddb126e067f35a780b3abf45e2d8f3b1a950738f52e9600746a0e27a55a21", secret);
  g_assert_true (cs_tls_hkdf_expand_label (GNUTLS_MAC_SHA256, secret, 32, "key", key, 16));
  g_assert_true (cs_tls_hkdf_expand_label (GNUTLS_MAC_SHA256, secret, 32, "iv", iv, 12));
  assert_hex (key, 16, "dbfaa693d1762c5b666af5d950258d01");
  assert_hex (iv, 12, "5bd3c71b836e0b76bb73265f");
}

/* A TLS 1.3 record of content + inner type, sealed with RFC 8448's key and IV at seq. */
static gsize
seal13 (const char *content, guint8 inner_type, guint64 seq, guint8 *record)
{
  guint8 key[16], nonce[12], plain[64];
  gnutls_datum_t k = { key, 16 };
  gnutls_aead_cipher_hd_t h;
  gsize n = strlen (content), sealed = 64 + 16;

  unhex (S_KEY, key);
  unhex (S_IV, nonce);
  for (int i = 0; i < 8; i++)
    nonce[4 + i] ^= (guint8) (seq >> (56 - 8 * i));
  memcpy (plain, content, n);
  plain[n] = inner_type;
  plain[n + 1] = 0; /* one byte of padding */
  record[0] = 23;
  record[1] = 3;
  record[2] = 3;
  record[3] = 0;
  record[4] = (guint8) (n + 2 + 16);
  g_assert_cmpint (gnutls_aead_cipher_init (&h, GNUTLS_CIPHER_AES_128_GCM, &k), ==, 0);
  g_assert_cmpint (
      gnutls_aead_cipher_encrypt (h, nonce, 12, record, 5, 16, plain, n + 2, record + 5, &sealed),
      ==, 0);
  gnutls_aead_cipher_deinit (h);
  g_assert_cmpuint (sealed, ==, n + 2 + 16);
  return 5 + sealed;
}

static void
test_tls13_record (void)
{
  guint8 secret[32], record[128], out[128];
  const CsTlsSuite *suite = cs_tls_suite_lookup (0x1301);
  CsTlsKeys *keys;
  gsize len, n = 0;
  guint8 inner = 0;

  g_assert_nonnull (suite);
  g_assert_cmpstr (suite->name, ==, "TLS_AES_128_GCM_SHA256");
  unhex (S_HS, secret);
  keys = cs_tls_keys_new13 (suite, secret, 32);
  g_assert_nonnull (keys);
  len = seal13 ("OPTIONS sip:a SIP/2.0", 23, 0, record);
  g_assert_true (
      cs_tls_keys_decrypt (keys, record[0], 0x0303, record + 5, len - 5, out, &n, &inner));
  g_assert_cmpmem (out, n, "OPTIONS sip:a SIP/2.0", 21);
  g_assert_cmpuint (inner, ==, 23);
  /* the next record has sequence number 1 */
  len = seal13 ("x", 22, 1, record);
  g_assert_true (
      cs_tls_keys_decrypt (keys, record[0], 0x0303, record + 5, len - 5, out, &n, &inner));
  g_assert_cmpuint (inner, ==, 22);
  /* a flipped bit does not authenticate, a replay at the wrong sequence number neither */
  len = seal13 ("y", 23, 2, record);
  record[7] ^= 1;
  g_assert_false (
      cs_tls_keys_decrypt (keys, record[0], 0x0303, record + 5, len - 5, out, &n, &inner));
  len = seal13 ("z", 23, 0, record);
  g_assert_false (
      cs_tls_keys_decrypt (keys, record[0], 0x0303, record + 5, len - 5, out, &n, &inner));
  /* shorter than a tag */
  g_assert_false (cs_tls_keys_decrypt (keys, 23, 0x0303, record + 5, 10, out, &n, &inner));
  cs_tls_keys_free (keys);
  /* unknown suites are refused */
  g_assert_null (cs_tls_suite_lookup (0x0005));
}

#define RANDOM_A "aa00000000000000000000000000000000000000000000000000000000000001"
#define MASTER                                                                                     \
  "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff00112233445566778899aabbccddee" \
  "ff"

static void
test_keylog (void)
{
  g_autoptr (CsTlsKeylog) log = cs_tls_keylog_new ();
  const char *text = "# SSL/TLS secrets log file, generated by NSS\r\n"
                     "CLIENT_RANDOM " RANDOM_A " " MASTER "\r\n"
                     "garbage line\n"
                     "CLIENT_RANDOM " RANDOM_A " 0011\n" /* a master secret is 48 bytes */
                     "SERVER_TRAFFIC_SECRET_0 " RANDOM_A " " S_HS "\n"
                     "CLIENT_EARLY_TRAFFIC_SECRET " RANDOM_A " " S_HS "\n" /* not used */
                     "\n";
  guint8 random[32], want[48];
  const CsTlsSecrets *s;
  guint first = 0;

  g_assert_cmpuint (cs_tls_keylog_add_text (log, text, strlen (text)), ==, 2);
  g_assert_cmpuint (cs_tls_keylog_get_n_sessions (log), ==, 1);
  g_assert_cmpuint (cs_tls_keylog_get_bad_lines (log, &first), ==, 3);
  g_assert_cmpuint (first, ==, 3);
  unhex (RANDOM_A, random);
  s = cs_tls_keylog_lookup (log, random);
  g_assert_nonnull (s);
  g_assert_cmpuint (s->length[CS_TLS_SECRET_MASTER], ==, 48);
  unhex (MASTER, want);
  g_assert_cmpmem (s->secret[CS_TLS_SECRET_MASTER], 48, want, 48);
  g_assert_cmpuint (s->length[CS_TLS_SECRET_SERVER_TRAFFIC], ==, 32);
  g_assert_cmpuint (s->length[CS_TLS_SECRET_CLIENT_TRAFFIC], ==, 0);
  random[31] ^= 1;
  g_assert_null (cs_tls_keylog_lookup (log, random));
}

static void
test_keylog_file_refused (void)
{
  g_autoptr (CsTlsKeylog) log = cs_tls_keylog_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;
  int fd = g_file_open_tmp ("cs-keylog-XXXXXX", &path, NULL);

  g_assert_cmpint (fd, >=, 0);
  g_assert_true (g_file_set_contents (path, "hello\nworld\n", -1, NULL));
  close (fd);
  g_assert_false (cs_tls_keylog_load_file (log, path, &error));
  g_assert_error (error, CS_TLS_KEYLOG_ERROR, CS_TLS_KEYLOG_ERROR_EMPTY);
  g_assert_nonnull (strstr (error->message, path));
  g_clear_error (&error);
  g_unlink (path);
  g_assert_false (cs_tls_keylog_load_file (log, path, &error));
  g_assert_error (error, CS_TLS_KEYLOG_ERROR, CS_TLS_KEYLOG_ERROR_READ);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tls/prf12-vector", test_prf12_vector);
  g_test_add_func ("/tls/hkdf-rfc8448", test_hkdf_rfc8448);
  g_test_add_func ("/tls/tls13-record", test_tls13_record);
  g_test_add_func ("/tls/keylog", test_keylog);
  g_test_add_func ("/tls/keylog-file-refused", test_keylog_file_refused);
  return g_test_run ();
}
