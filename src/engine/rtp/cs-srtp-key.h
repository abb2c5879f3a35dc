/* cs-srtp-key.h — SRTP master keys as SDP (RFC 4568 a=crypto) and users write them: the
 * crypto suite, master key and salt, key lifetime and MKI */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CS_SRTP_KEY_ERROR (cs_srtp_key_error_quark ())
GQuark cs_srtp_key_error_quark (void);

typedef enum
{
  CS_SRTP_KEY_ERROR_SYNTAX,     /* not `inline:BASE64[|LIFETIME][|MKI:LEN]` */
  CS_SRTP_KEY_ERROR_SUITE,      /* a crypto suite we do not know */
  CS_SRTP_KEY_ERROR_KEY_LENGTH, /* the key and salt do not have the suite's length */
  CS_SRTP_KEY_ERROR_TARGET,     /* --srtp-key without SSRC or stream before '=' */
} CsSrtpKeyError;

typedef enum
{
  CS_SRTP_SUITE_UNKNOWN = 0,
  CS_SRTP_AES_CM_128_HMAC_SHA1_80,
  CS_SRTP_AES_CM_128_HMAC_SHA1_32,
  CS_SRTP_AES_192_CM_HMAC_SHA1_80,
  CS_SRTP_AES_192_CM_HMAC_SHA1_32,
  CS_SRTP_AES_256_CM_HMAC_SHA1_80,
  CS_SRTP_AES_256_CM_HMAC_SHA1_32,
  CS_SRTP_AEAD_AES_128_GCM,
  CS_SRTP_AEAD_AES_256_GCM,
  CS_SRTP_N_SUITES
} CsSrtpSuite;

/* The RFC 4568 / 6188 / 7714 name ("AES_CM_128_HMAC_SHA1_80", …); "unknown" for others. */
const char *cs_srtp_suite_to_string (CsSrtpSuite suite);
/* The suite named [name, name + len) (exact, case-sensitive as SDP writes it). */
CsSrtpSuite cs_srtp_suite_from_name (const char *name, gsize len);
/* Bytes of master key plus master salt the suite takes (30, 38, 46, 28 or 44). */
guint cs_srtp_suite_key_length (CsSrtpSuite suite);

#define CS_SRTP_MAX_KEY_LENGTH 46  /* AES-256 key + 112-bit salt */
#define CS_SRTP_MAX_MKI_LENGTH 128 /* bytes (RFC 4568: 1..128; values up to 2^64 - 1) */
#define CS_SRTP_MAX_KEYS 4         /* master keys (by MKI) in one a=crypto line */

typedef struct
{
  guint8 key[CS_SRTP_MAX_KEY_LENGTH]; /* master key then master salt */
  guint key_length;
  guint64 lifetime; /* packets the key may protect; 0 = not given (2^48 for SRTP) */
  guint8 mki[CS_SRTP_MAX_MKI_LENGTH]; /* MKI value, big-endian, mki_length bytes */
  guint mki_length;                   /* 0 = no MKI */
} CsSrtpMasterKey;

typedef struct
{
  CsSrtpSuite suite;
  guint tag; /* the a=crypto tag; 0 for a user key */
  guint n_keys;
  CsSrtpMasterKey keys[CS_SRTP_MAX_KEYS];
} CsSrtpKey;

/* An a=crypto value: `TAG SUITE inline:KEY[|LIFETIME][|MKI:LEN][;inline:…] [SESSION-PARAMS]`.
 * FALSE with an error naming what is wrong (the key itself is never quoted). */
gboolean cs_srtp_key_parse_crypto (const char *value, gsize len, CsSrtpKey *out, GError **error);
/* Key parameters `inline:KEY[|LIFETIME][|MKI:LEN]` (';'-separated for several keys) for
 * suite; with CS_SRTP_SUITE_UNKNOWN the suite is left unknown (the key length says which
 * suites it may be: cs_srtp_key_candidate_suites). */
gboolean cs_srtp_key_parse_params (const char *params, gsize len, CsSrtpSuite suite, CsSrtpKey *out,
                                   GError **error);
/* Suites whose key length is the key's (suite known: just it), at most CS_SRTP_N_SUITES;
 * returns how many were written. */
guint cs_srtp_key_candidate_suites (const CsSrtpKey *key, CsSrtpSuite *out);

/* A key the user gave for a stream no visible SDP keyed (--srtp-key, the GUI's key entry):
 * TARGET=[SUITE ]inline:KEY[|LIFETIME][|MKI:LEN], TARGET an SSRC as 0x… (hex) or a stream's
 * number (decimal), the suite optional (the key length and its authentication tell). */
typedef struct
{
  gboolean by_stream; /* TRUE: stream_id, else ssrc */
  guint32 ssrc;
  guint stream_id;
  CsSrtpKey key;
} CsSrtpUserKey;

gboolean cs_srtp_user_key_parse (const char *spec, CsSrtpUserKey *out, GError **error);

G_END_DECLS
