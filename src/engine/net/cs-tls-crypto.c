/* cs-tls-crypto.c — TLS key schedules (RFC 5246 PRF, RFC 8446 HKDF-Expand-Label) and record
 * decryption, with GnuTLS's HMAC, HKDF, AEAD and CBC: no cipher written here */
#include "cs-tls-crypto.h"

#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <string.h>

static const CsTlsSuite suites[] = {
  /* TLS 1.3 */
  { 0x1301, "TLS_AES_128_GCM_SHA256", CS_TLS_MODE_GCM, TRUE, 16, 12, GNUTLS_MAC_SHA256, 0, 0,
    GNUTLS_CIPHER_AES_128_GCM },
  { 0x1302, "TLS_AES_256_GCM_SHA384", CS_TLS_MODE_GCM, TRUE, 32, 12, GNUTLS_MAC_SHA384, 0, 0,
    GNUTLS_CIPHER_AES_256_GCM },
  { 0x1303, "TLS_CHACHA20_POLY1305_SHA256", CS_TLS_MODE_CHACHA20_POLY1305, TRUE, 32, 12,
    GNUTLS_MAC_SHA256, 0, 0, GNUTLS_CIPHER_CHACHA20_POLY1305 },
  /* TLS 1.2 AEAD */
  { 0xC02B, "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", CS_TLS_MODE_GCM, FALSE, 16, 4,
    GNUTLS_MAC_SHA256, 0, 0, GNUTLS_CIPHER_AES_128_GCM },
  { 0xC02F, "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", CS_TLS_MODE_GCM, FALSE, 16, 4,
    GNUTLS_MAC_SHA256, 0, 0, GNUTLS_CIPHER_AES_128_GCM },
  { 0x009E, "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256", CS_TLS_MODE_GCM, FALSE, 16, 4, GNUTLS_MAC_SHA256,
    0, 0, GNUTLS_CIPHER_AES_128_GCM },
  { 0x009C, "TLS_RSA_WITH_AES_128_GCM_SHA256", CS_TLS_MODE_GCM, FALSE, 16, 4, GNUTLS_MAC_SHA256, 0,
    0, GNUTLS_CIPHER_AES_128_GCM },
  { 0xC02C, "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", CS_TLS_MODE_GCM, FALSE, 32, 4,
    GNUTLS_MAC_SHA384, 0, 0, GNUTLS_CIPHER_AES_256_GCM },
  { 0xC030, "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", CS_TLS_MODE_GCM, FALSE, 32, 4,
    GNUTLS_MAC_SHA384, 0, 0, GNUTLS_CIPHER_AES_256_GCM },
  { 0x009F, "TLS_DHE_RSA_WITH_AES_256_GCM_SHA384", CS_TLS_MODE_GCM, FALSE, 32, 4, GNUTLS_MAC_SHA384,
    0, 0, GNUTLS_CIPHER_AES_256_GCM },
  { 0x009D, "TLS_RSA_WITH_AES_256_GCM_SHA384", CS_TLS_MODE_GCM, FALSE, 32, 4, GNUTLS_MAC_SHA384, 0,
    0, GNUTLS_CIPHER_AES_256_GCM },
  { 0xCCA8, "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", CS_TLS_MODE_CHACHA20_POLY1305, FALSE, 32,
    12, GNUTLS_MAC_SHA256, 0, 0, GNUTLS_CIPHER_CHACHA20_POLY1305 },
  { 0xCCA9, "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", CS_TLS_MODE_CHACHA20_POLY1305, FALSE,
    32, 12, GNUTLS_MAC_SHA256, 0, 0, GNUTLS_CIPHER_CHACHA20_POLY1305 },
  { 0xCCAA, "TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256", CS_TLS_MODE_CHACHA20_POLY1305, FALSE, 32,
    12, GNUTLS_MAC_SHA256, 0, 0, GNUTLS_CIPHER_CHACHA20_POLY1305 },
  /* TLS 1.2 CBC */
  { 0xC009, "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", CS_TLS_MODE_CBC, FALSE, 16, 0,
    GNUTLS_MAC_SHA256, GNUTLS_MAC_SHA1, 20, GNUTLS_CIPHER_AES_128_CBC },
  { 0xC013, "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", CS_TLS_MODE_CBC, FALSE, 16, 0, GNUTLS_MAC_SHA256,
    GNUTLS_MAC_SHA1, 20, GNUTLS_CIPHER_AES_128_CBC },
  { 0x002F, "TLS_RSA_WITH_AES_128_CBC_SHA", CS_TLS_MODE_CBC, FALSE, 16, 0, GNUTLS_MAC_SHA256,
    GNUTLS_MAC_SHA1, 20, GNUTLS_CIPHER_AES_128_CBC },
  { 0xC00A, "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA", CS_TLS_MODE_CBC, FALSE, 32, 0,
    GNUTLS_MAC_SHA256, GNUTLS_MAC_SHA1, 20, GNUTLS_CIPHER_AES_256_CBC },
  { 0xC014, "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", CS_TLS_MODE_CBC, FALSE, 32, 0, GNUTLS_MAC_SHA256,
    GNUTLS_MAC_SHA1, 20, GNUTLS_CIPHER_AES_256_CBC },
  { 0x0035, "TLS_RSA_WITH_AES_256_CBC_SHA", CS_TLS_MODE_CBC, FALSE, 32, 0, GNUTLS_MAC_SHA256,
    GNUTLS_MAC_SHA1, 20, GNUTLS_CIPHER_AES_256_CBC },
  { 0xC023, "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256", CS_TLS_MODE_CBC, FALSE, 16, 0,
    GNUTLS_MAC_SHA256, GNUTLS_MAC_SHA256, 32, GNUTLS_CIPHER_AES_128_CBC },
  { 0xC027, "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256", CS_TLS_MODE_CBC, FALSE, 16, 0,
    GNUTLS_MAC_SHA256, GNUTLS_MAC_SHA256, 32, GNUTLS_CIPHER_AES_128_CBC },
  { 0x003C, "TLS_RSA_WITH_AES_128_CBC_SHA256", CS_TLS_MODE_CBC, FALSE, 16, 0, GNUTLS_MAC_SHA256,
    GNUTLS_MAC_SHA256, 32, GNUTLS_CIPHER_AES_128_CBC },
  { 0x003D, "TLS_RSA_WITH_AES_256_CBC_SHA256", CS_TLS_MODE_CBC, FALSE, 32, 0, GNUTLS_MAC_SHA256,
    GNUTLS_MAC_SHA256, 32, GNUTLS_CIPHER_AES_256_CBC },
};

const CsTlsSuite *
cs_tls_suite_lookup (guint16 id)
{
  for (guint i = 0; i < G_N_ELEMENTS (suites); i++)
    if (suites[i].id == id)
      return &suites[i];
  return NULL;
}

#define TAG_LENGTH 16

struct _CsTlsKeys
{
  const CsTlsSuite *suite;
  gnutls_aead_cipher_hd_t aead; /* GCM, ChaCha20-Poly1305 */
  guint8 key[32];
  guint8 iv[12];
  guint8 mac_key[48];
  guint8 secret[64]; /* TLS 1.3: the traffic secret, for KeyUpdate */
  guint secret_length;
  guint64 seq;
  gboolean encrypt_then_mac;
};

static guint
hash_length (guint mac)
{
  return (guint) gnutls_hmac_get_len ((gnutls_mac_algorithm_t) mac);
}

/* RFC 5246 5: P_hash (secret, label + seed), n bytes. */
static gboolean
tls12_prf (guint mac, const guint8 *secret, gsize secret_len, const char *label, const guint8 *seed,
           gsize seed_len, guint8 *out, gsize n)
{
  guint hl = hash_length (mac);
  gsize label_len = strlen (label), ls_len = label_len + seed_len;
  g_autofree guint8 *a = g_malloc (hl + ls_len), *ls = g_malloc (ls_len);
  guint8 block[64];

  memcpy (ls, label, label_len);
  memcpy (ls + label_len, seed, seed_len);
  /* A(1) = HMAC (secret, label + seed) */
  if (gnutls_hmac_fast ((gnutls_mac_algorithm_t) mac, secret, secret_len, ls, ls_len, a) < 0)
    return FALSE;
  for (gsize done = 0; done < n;)
    {
      memcpy (a + hl, ls, ls_len);
      if (gnutls_hmac_fast ((gnutls_mac_algorithm_t) mac, secret, secret_len, a, hl + ls_len, block)
          < 0)
        return FALSE;
      memcpy (out + done, block, MIN (hl, n - done));
      done += MIN (hl, n - done);
      if (gnutls_hmac_fast ((gnutls_mac_algorithm_t) mac, secret, secret_len, a, hl, a) < 0)
        return FALSE;
    }
  memset (block, 0, sizeof block);
  return TRUE;
}

/* RFC 8446 7.1: HKDF-Expand-Label (secret, label, "", n). */
static gboolean
hkdf_expand_label (guint mac, const guint8 *secret, guint secret_len, const char *label,
                   guint8 *out, guint n)
{
  guint8 info[2 + 1 + 255 + 1];
  gsize label_len = strlen (label) + 6, at = 0;
  gnutls_datum_t key = { (unsigned char *) secret, secret_len };
  gnutls_datum_t info_datum;

  info[at++] = (guint8) (n >> 8);
  info[at++] = (guint8) n;
  info[at++] = (guint8) label_len;
  memcpy (info + at, "tls13 ", 6);
  memcpy (info + at + 6, label, label_len - 6);
  at += label_len;
  info[at++] = 0; /* empty context */
  info_datum.data = info;
  info_datum.size = (unsigned) at;
  return gnutls_hkdf_expand ((gnutls_mac_algorithm_t) mac, &key, &info_datum, out, n) == 0;
}

static CsTlsKeys *
keys_new (const CsTlsSuite *suite, const guint8 *key, const guint8 *iv, const guint8 *mac_key)
{
  CsTlsKeys *keys = g_new0 (CsTlsKeys, 1);

  keys->suite = suite;
  memcpy (keys->key, key, suite->key_length);
  if (suite->fixed_iv_length > 0)
    memcpy (keys->iv, iv, suite->fixed_iv_length);
  if (suite->record_mac_length > 0)
    memcpy (keys->mac_key, mac_key, suite->record_mac_length);
  if (suite->mode != CS_TLS_MODE_CBC)
    {
      gnutls_datum_t k = { keys->key, suite->key_length };

      if (gnutls_aead_cipher_init (&keys->aead, (gnutls_cipher_algorithm_t) suite->cipher, &k) < 0)
        {
          g_free (keys);
          return NULL;
        }
    }
  return keys;
}

void
cs_tls_keys_free (CsTlsKeys *keys)
{
  if (keys == NULL)
    return;
  if (keys->aead != NULL)
    gnutls_aead_cipher_deinit (keys->aead);
  memset (keys, 0, sizeof *keys);
  g_free (keys);
}

gboolean
cs_tls_keys_new12 (const CsTlsSuite *suite, const guint8 *master, const guint8 *client_random,
                   const guint8 *server_random, gboolean encrypt_then_mac, CsTlsKeys **client,
                   CsTlsKeys **server)
{
  guint8 seed[64], block[2 * (48 + 32 + 12)];
  guint m = suite->record_mac_length, k = suite->key_length, v = suite->fixed_iv_length;

  *client = *server = NULL;
  if (suite->tls13)
    return FALSE;
  /* key expansion: server_random + client_random */
  memcpy (seed, server_random, 32);
  memcpy (seed + 32, client_random, 32);
  if (!tls12_prf (suite->prf_hash, master, 48, "key expansion", seed, 64, block, 2 * (m + k + v)))
    return FALSE;
  *client = keys_new (suite, block + 2 * m, block + 2 * m + 2 * k, block);
  *server = keys_new (suite, block + 2 * m + k, block + 2 * m + 2 * k + v, block + m);
  memset (block, 0, sizeof block);
  if (*client == NULL || *server == NULL)
    {
      g_clear_pointer (client, cs_tls_keys_free);
      g_clear_pointer (server, cs_tls_keys_free);
      return FALSE;
    }
  (*client)->encrypt_then_mac = (*server)->encrypt_then_mac = encrypt_then_mac;
  return TRUE;
}

CsTlsKeys *
cs_tls_keys_new13 (const CsTlsSuite *suite, const guint8 *secret, guint secret_length)
{
  guint8 key[32], iv[12];
  CsTlsKeys *keys;

  if (!suite->tls13 || secret_length > sizeof keys->secret
      || secret_length != hash_length (suite->prf_hash)
      || !hkdf_expand_label (suite->prf_hash, secret, secret_length, "key", key, suite->key_length)
      || !hkdf_expand_label (suite->prf_hash, secret, secret_length, "iv", iv, 12))
    return NULL;
  keys = keys_new (suite, key, iv, NULL);
  memset (key, 0, sizeof key);
  if (keys != NULL)
    {
      memcpy (keys->secret, secret, secret_length);
      keys->secret_length = secret_length;
    }
  return keys;
}

gboolean
cs_tls_keys_update13 (CsTlsKeys *keys)
{
  guint8 next[64], key[32];
  const CsTlsSuite *suite = keys->suite;
  gnutls_datum_t k;

  if (!suite->tls13
      || !hkdf_expand_label (suite->prf_hash, keys->secret, keys->secret_length, "traffic upd",
                             next, keys->secret_length)
      || !hkdf_expand_label (suite->prf_hash, next, keys->secret_length, "key", key,
                             suite->key_length)
      || !hkdf_expand_label (suite->prf_hash, next, keys->secret_length, "iv", keys->iv, 12))
    return FALSE;
  memcpy (keys->secret, next, keys->secret_length);
  memcpy (keys->key, key, suite->key_length);
  gnutls_aead_cipher_deinit (keys->aead);
  k.data = keys->key;
  k.size = suite->key_length;
  keys->seq = 0;
  return gnutls_aead_cipher_init (&keys->aead, (gnutls_cipher_algorithm_t) suite->cipher, &k) >= 0;
}

static void
put_be64 (guint8 *p, guint64 v)
{
  for (int i = 0; i < 8; i++)
    p[i] = (guint8) (v >> (56 - 8 * i));
}

/* TLS 1.2 additional data / MAC header: seq, type, version, length. */
static void
record_header12 (guint8 *out, guint64 seq, guint8 type, guint16 version, gsize len)
{
  put_be64 (out, seq);
  out[8] = type;
  out[9] = (guint8) (version >> 8);
  out[10] = (guint8) version;
  out[11] = (guint8) (len >> 8);
  out[12] = (guint8) len;
}

static gboolean
decrypt_aead (CsTlsKeys *keys, guint8 type, guint16 version, const guint8 *frag, gsize len,
              guint8 *out, gsize *out_len, guint8 *inner_type)
{
  const CsTlsSuite *suite = keys->suite;
  guint8 nonce[12], aad[13];
  gsize aad_len, explicit_len = 0;

  if (!suite->tls13 && suite->mode == CS_TLS_MODE_GCM)
    {
      /* fixed 4-byte salt + the record's explicit 8-byte nonce */
      explicit_len = 8;
      if (len < explicit_len + TAG_LENGTH)
        return FALSE;
      memcpy (nonce, keys->iv, 4);
      memcpy (nonce + 4, frag, 8);
    }
  else
    {
      if (len < TAG_LENGTH)
        return FALSE;
      memcpy (nonce, keys->iv, 12);
      for (int i = 0; i < 8; i++)
        nonce[4 + i] ^= (guint8) (keys->seq >> (56 - 8 * i));
    }
  if (suite->tls13)
    {
      aad[0] = type;
      aad[1] = (guint8) (version >> 8);
      aad[2] = (guint8) version;
      aad[3] = (guint8) (len >> 8);
      aad[4] = (guint8) len;
      aad_len = 5;
    }
  else
    {
      record_header12 (aad, keys->seq, type, version, len - explicit_len - TAG_LENGTH);
      aad_len = 13;
    }
  *out_len = len;
  if (gnutls_aead_cipher_decrypt (keys->aead, nonce, 12, aad, aad_len, TAG_LENGTH,
                                  frag + explicit_len, len - explicit_len, out, out_len)
      < 0)
    return FALSE;
  keys->seq++;
  *inner_type = type;
  if (suite->tls13)
    {
      /* TLSInnerPlaintext: content, the real type, zero padding */
      while (*out_len > 0 && out[*out_len - 1] == 0)
        (*out_len)--;
      if (*out_len == 0)
        return FALSE;
      *inner_type = out[--(*out_len)];
    }
  return TRUE;
}

static gboolean
mac_matches (CsTlsKeys *keys, const guint8 *header, const guint8 *data, gsize len,
             const guint8 *mac)
{
  const CsTlsSuite *suite = keys->suite;
  gnutls_hmac_hd_t h;
  guint8 digest[64];
  gboolean ok;

  if (gnutls_hmac_init (&h, (gnutls_mac_algorithm_t) suite->record_mac, keys->mac_key,
                        suite->record_mac_length)
      < 0)
    return FALSE;
  gnutls_hmac (h, header, 13);
  gnutls_hmac (h, data, len);
  gnutls_hmac_deinit (h, digest);
  ok = gnutls_memcmp (digest, mac, suite->record_mac_length) == 0;
  return ok;
}

static gboolean
decrypt_cbc (CsTlsKeys *keys, guint8 type, guint16 version, const guint8 *frag, gsize len,
             guint8 *out, gsize *out_len, guint8 *inner_type)
{
  const CsTlsSuite *suite = keys->suite;
  guint mac_len = suite->record_mac_length;
  gnutls_cipher_hd_t h;
  gnutls_datum_t key = { keys->key, suite->key_length }, iv = { (unsigned char *) frag, 16 };
  guint8 header[13];
  gsize ct_len, pad, plain_len;
  int rc;

  if (len < 16 + 16 + (keys->encrypt_then_mac ? mac_len : 0))
    return FALSE;
  ct_len = len - 16 - (keys->encrypt_then_mac ? mac_len : 0);
  if (ct_len % 16 != 0)
    return FALSE;
  if (keys->encrypt_then_mac)
    {
      record_header12 (header, keys->seq, type, version, len - mac_len);
      if (!mac_matches (keys, header, frag, len - mac_len, frag + len - mac_len))
        return FALSE;
    }
  if (gnutls_cipher_init (&h, (gnutls_cipher_algorithm_t) suite->cipher, &key, &iv) < 0)
    return FALSE;
  rc = gnutls_cipher_decrypt2 (h, frag + 16, ct_len, out, ct_len);
  gnutls_cipher_deinit (h);
  if (rc < 0)
    return FALSE;
  pad = out[ct_len - 1];
  if (pad + 1 > ct_len || (!keys->encrypt_then_mac && pad + 1 + mac_len > ct_len))
    return FALSE;
  for (gsize i = 0; i <= pad; i++)
    if (out[ct_len - 1 - i] != pad)
      return FALSE;
  plain_len = ct_len - pad - 1;
  if (!keys->encrypt_then_mac)
    {
      plain_len -= mac_len;
      record_header12 (header, keys->seq, type, version, plain_len);
      if (!mac_matches (keys, header, out, plain_len, out + plain_len))
        return FALSE;
    }
  keys->seq++;
  *out_len = plain_len;
  *inner_type = type;
  return TRUE;
}

gboolean
cs_tls_keys_decrypt (CsTlsKeys *keys, guint8 type, guint16 version, const guint8 *frag, gsize len,
                     guint8 *out, gsize *out_len, guint8 *inner_type)
{
  if (keys->suite->mode == CS_TLS_MODE_CBC)
    return decrypt_cbc (keys, type, version, frag, len, out, out_len, inner_type);
  return decrypt_aead (keys, type, version, frag, len, out, out_len, inner_type);
}
