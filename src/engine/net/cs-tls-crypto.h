/* cs-tls-crypto.h — TLS 1.2 and 1.3 record protection undone with GnuTLS's primitives: the
 * cipher suites real SIP servers negotiate, keys from logged secrets */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  CS_TLS_MODE_GCM,
  CS_TLS_MODE_CHACHA20_POLY1305,
  CS_TLS_MODE_CBC,
} CsTlsMode;

typedef struct
{
  guint16 id;
  const char *name; /* IANA name */
  CsTlsMode mode;
  gboolean tls13;
  guint key_length;
  guint fixed_iv_length; /* TLS 1.2 GCM: 4; ChaCha20 and TLS 1.3: 12; CBC: 0 */
  guint prf_hash;        /* gnutls_mac_algorithm_t of the PRF / HKDF */
  guint record_mac;      /* CBC: gnutls_mac_algorithm_t of the record MAC; else 0 */
  guint record_mac_length;
  guint cipher; /* gnutls_cipher_algorithm_t */
} CsTlsSuite;

/* The suite with IANA number id when callscope can decrypt it, else NULL. */
const CsTlsSuite *cs_tls_suite_lookup (guint16 id);

typedef struct _CsTlsKeys CsTlsKeys;

/* TLS 1.2: both directions' keys from the master secret (key expansion with the randoms). */
gboolean cs_tls_keys_new12 (const CsTlsSuite *suite, const guint8 *master,
                            const guint8 *client_random, const guint8 *server_random,
                            gboolean encrypt_then_mac, CsTlsKeys **client, CsTlsKeys **server);
/* TLS 1.3: one direction's keys from a traffic secret. */
CsTlsKeys *cs_tls_keys_new13 (const CsTlsSuite *suite, const guint8 *secret, guint secret_length);
/* TLS 1.3 KeyUpdate: the next traffic secret's keys, sequence number 0. */
gboolean cs_tls_keys_update13 (CsTlsKeys *keys);
void cs_tls_keys_free (CsTlsKeys *keys);

/* Decrypts one record's fragment (len bytes, type and version from its header) into out
 * (room for len bytes): FALSE when it does not authenticate. *inner_type: the content type
 * (TLS 1.3's inner one). Advances the sequence number on success. */
gboolean cs_tls_keys_decrypt (CsTlsKeys *keys, guint8 type, guint16 version, const guint8 *frag,
                              gsize len, guint8 *out, gsize *out_len, guint8 *inner_type);

G_END_DECLS
