/* cs-srtp-key.c — a=crypto lines and user key parameters read into master keys */
#include "cs-srtp-key.h"

#include <string.h>

G_DEFINE_QUARK (cs - srtp - key - error - quark, cs_srtp_key_error)

static const struct
{
  const char *name;
  guint key_length;
} suites[CS_SRTP_N_SUITES] = {
  [CS_SRTP_SUITE_UNKNOWN] = { "unknown", 0 },
  [CS_SRTP_AES_CM_128_HMAC_SHA1_80] = { "AES_CM_128_HMAC_SHA1_80", 30 },
  [CS_SRTP_AES_CM_128_HMAC_SHA1_32] = { "AES_CM_128_HMAC_SHA1_32", 30 },
  [CS_SRTP_AES_192_CM_HMAC_SHA1_80] = { "AES_192_CM_HMAC_SHA1_80", 38 },
  [CS_SRTP_AES_192_CM_HMAC_SHA1_32] = { "AES_192_CM_HMAC_SHA1_32", 38 },
  [CS_SRTP_AES_256_CM_HMAC_SHA1_80] = { "AES_256_CM_HMAC_SHA1_80", 46 },
  [CS_SRTP_AES_256_CM_HMAC_SHA1_32] = { "AES_256_CM_HMAC_SHA1_32", 46 },
  [CS_SRTP_AEAD_AES_128_GCM] = { "AEAD_AES_128_GCM", 28 },
  [CS_SRTP_AEAD_AES_256_GCM] = { "AEAD_AES_256_GCM", 44 },
};

const char *
cs_srtp_suite_to_string (CsSrtpSuite suite)
{
  return (guint) suite < CS_SRTP_N_SUITES ? suites[suite].name : "unknown";
}

CsSrtpSuite
cs_srtp_suite_from_name (const char *name, gsize len)
{
  for (guint s = 1; s < CS_SRTP_N_SUITES; s++)
    if (strlen (suites[s].name) == len && memcmp (suites[s].name, name, len) == 0)
      return (CsSrtpSuite) s;
  return CS_SRTP_SUITE_UNKNOWN;
}

guint
cs_srtp_suite_key_length (CsSrtpSuite suite)
{
  return (guint) suite < CS_SRTP_N_SUITES ? suites[suite].key_length : 0;
}

guint
cs_srtp_key_candidate_suites (const CsSrtpKey *key, CsSrtpSuite *out)
{
  guint n = 0;

  if (key->suite != CS_SRTP_SUITE_UNKNOWN)
    {
      out[0] = key->suite;
      return 1;
    }
  for (guint s = 1; s < CS_SRTP_N_SUITES && key->n_keys > 0; s++)
    if (suites[s].key_length == key->keys[0].key_length)
      out[n++] = (CsSrtpSuite) s;
  return n;
}

static gboolean
parse_decimal (const char *b, const char *e, guint64 max, guint64 *out)
{
  guint64 v = 0;

  if (b == e)
    return FALSE;
  for (; b < e; b++)
    {
      if (*b < '0' || *b > '9' || v > (max - (guint64) (*b - '0')) / 10)
        return FALSE;
      v = v * 10 + (guint64) (*b - '0');
    }
  *out = v;
  return TRUE;
}

/* "2^N" or a packet count. */
static gboolean
parse_lifetime (const char *b, const char *e, guint64 *out)
{
  guint64 power;

  if (e - b > 2 && b[0] == '2' && b[1] == '^')
    {
      if (!parse_decimal (b + 2, e, 63, &power))
        return FALSE;
      *out = G_GUINT64_CONSTANT (1) << power;
      return TRUE;
    }
  return parse_decimal (b, e, G_MAXUINT64, out) && *out > 0;
}

/* "VALUE:LENGTH": the MKI as LENGTH bytes, big-endian. */
static gboolean
parse_mki (const char *b, const char *e, CsSrtpMasterKey *key)
{
  const char *colon = memchr (b, ':', (gsize) (e - b));
  guint64 value, length;

  if (colon == NULL || !parse_decimal (colon + 1, e, CS_SRTP_MAX_MKI_LENGTH, &length) || length == 0
      || !parse_decimal (b, colon, G_MAXUINT64, &value)
      || (length < 8 && value >> (8 * length) != 0))
    return FALSE;
  key->mki_length = (guint) length;
  memset (key->mki, 0, sizeof key->mki);
  for (guint i = 0; i < MIN (length, 8); i++)
    key->mki[length - 1 - i] = (guint8) (value >> (8 * i));
  return TRUE;
}

static gboolean
is_base64_char (char c)
{
  return g_ascii_isalnum (c) || c == '+' || c == '/' || c == '=';
}

/* One `inline:KEY[|LIFETIME][|MKI:LEN]`. */
static gboolean
parse_one_key (const char *b, const char *e, guint want_length, CsSrtpMasterKey *key,
               GError **error)
{
  const char *key_end, *p;
  char text[96];
  guchar *bytes;
  gsize n = 0, text_len;
  gboolean lifetime_seen = FALSE;

  while (b < e && g_ascii_isspace (*b))
    b++;
  while (e > b && g_ascii_isspace (e[-1]))
    e--;
  if (e - b < 7 || g_ascii_strncasecmp (b, "inline:", 7) != 0)
    {
      g_set_error_literal (error, CS_SRTP_KEY_ERROR, CS_SRTP_KEY_ERROR_SYNTAX,
                           "key parameters do not start with \"inline:\"");
      return FALSE;
    }
  b += 7;
  key_end = memchr (b, '|', (gsize) (e - b));
  key_end = key_end != NULL ? key_end : e;
  text_len = (gsize) (key_end - b);
  for (p = b; p < key_end; p++)
    if (!is_base64_char (*p))
      break;
  if (text_len == 0 || text_len >= sizeof text || p != key_end || text_len % 4 == 1)
    {
      g_set_error_literal (error, CS_SRTP_KEY_ERROR, CS_SRTP_KEY_ERROR_SYNTAX,
                           "the inline key is not base64");
      return FALSE;
    }
  memcpy (text, b, text_len);
  text[text_len] = '\0';
  bytes = g_base64_decode (text, &n);
  if (n == 0 || n > CS_SRTP_MAX_KEY_LENGTH || (want_length != 0 && n != want_length))
    {
      g_set_error (error, CS_SRTP_KEY_ERROR, CS_SRTP_KEY_ERROR_KEY_LENGTH,
                   "the inline key has %" G_GSIZE_FORMAT " bytes, the suite takes %u", n,
                   want_length != 0 ? want_length : CS_SRTP_MAX_KEY_LENGTH);
      g_free (bytes);
      return FALSE;
    }
  memcpy (key->key, bytes, n);
  key->key_length = (guint) n;
  memset (bytes, 0, n);
  g_free (bytes);
  /* then "|LIFETIME" and "|MKI:LEN", in that order, each optional */
  for (p = key_end; p < e;)
    {
      const char *field = p + 1, *field_end = memchr (field, '|', (gsize) (e - field));

      field_end = field_end != NULL ? field_end : e;
      if (memchr (field, ':', (gsize) (field_end - field)) != NULL)
        {
          if (key->mki_length > 0 || !parse_mki (field, field_end, key))
            {
              g_set_error_literal (error, CS_SRTP_KEY_ERROR, CS_SRTP_KEY_ERROR_SYNTAX,
                                   "bad MKI (VALUE:LENGTH, 1 to 128 bytes)");
              return FALSE;
            }
        }
      else if (lifetime_seen || key->mki_length > 0
               || !parse_lifetime (field, field_end, &key->lifetime))
        {
          g_set_error_literal (error, CS_SRTP_KEY_ERROR, CS_SRTP_KEY_ERROR_SYNTAX,
                               "bad key lifetime (2^N or a number of packets)");
          return FALSE;
        }
      else
        lifetime_seen = TRUE;
      p = field_end;
    }
  return TRUE;
}

gboolean
cs_srtp_key_parse_params (const char *params, gsize len, CsSrtpSuite suite, CsSrtpKey *out,
                          GError **error)
{
  const char *p = params, *e = params + len;
  guint want = cs_srtp_suite_key_length (suite);

  memset (out, 0, sizeof *out);
  out->suite = suite;
  while (p < e)
    {
      const char *end = memchr (p, ';', (gsize) (e - p));

      end = end != NULL ? end : e;
      if (out->n_keys == CS_SRTP_MAX_KEYS)
        {
          g_set_error (error, CS_SRTP_KEY_ERROR, CS_SRTP_KEY_ERROR_SYNTAX,
                       "more than %d master keys", CS_SRTP_MAX_KEYS);
          return FALSE;
        }
      if (!parse_one_key (p, end, want, &out->keys[out->n_keys], error))
        return FALSE;
      want = out->keys[out->n_keys].key_length; /* every key of a line has one length */
      out->n_keys++;
      p = end < e ? end + 1 : e;
    }
  if (out->n_keys == 0)
    {
      g_set_error_literal (error, CS_SRTP_KEY_ERROR, CS_SRTP_KEY_ERROR_SYNTAX, "no key given");
      return FALSE;
    }
  /* several keys are told apart by their MKI */
  for (guint i = 0; out->n_keys > 1 && i < out->n_keys; i++)
    if (out->keys[i].mki_length == 0 || out->keys[i].mki_length != out->keys[0].mki_length)
      {
        g_set_error_literal (error, CS_SRTP_KEY_ERROR, CS_SRTP_KEY_ERROR_SYNTAX,
                             "several master keys need MKIs of one length");
        return FALSE;
      }
  return TRUE;
}

gboolean
cs_srtp_key_parse_crypto (const char *value, gsize len, CsSrtpKey *out, GError **error)
{
  const char *p = value, *e = value + len, *tag_end, *suite_end, *params_end;
  guint64 tag;
  CsSrtpSuite suite;

  while (p < e && g_ascii_isspace (*p))
    p++;
  for (tag_end = p; tag_end < e && !g_ascii_isspace (*tag_end); tag_end++)
    ;
  if (!parse_decimal (p, tag_end, 999999999, &tag))
    {
      g_set_error_literal (error, CS_SRTP_KEY_ERROR, CS_SRTP_KEY_ERROR_SYNTAX,
                           "a=crypto does not start with a tag");
      return FALSE;
    }
  for (p = tag_end; p < e && g_ascii_isspace (*p); p++)
    ;
  for (suite_end = p; suite_end < e && !g_ascii_isspace (*suite_end); suite_end++)
    ;
  suite = cs_srtp_suite_from_name (p, (gsize) (suite_end - p));
  if (suite == CS_SRTP_SUITE_UNKNOWN)
    {
      g_set_error (error, CS_SRTP_KEY_ERROR, CS_SRTP_KEY_ERROR_SUITE,
                   "unknown crypto suite \"%.*s\"", (int) MIN (suite_end - p, 40), p);
      return FALSE;
    }
  for (p = suite_end; p < e && g_ascii_isspace (*p); p++)
    ;
  /* the key parameters end at white space; session parameters may follow */
  for (params_end = p; params_end < e && !g_ascii_isspace (*params_end); params_end++)
    ;
  if (!cs_srtp_key_parse_params (p, (gsize) (params_end - p), suite, out, error))
    return FALSE;
  out->tag = (guint) tag;
  return TRUE;
}

gboolean
cs_srtp_user_key_parse (const char *spec, CsSrtpUserKey *out, GError **error)
{
  const char *eq = strchr (spec, '='), *rest, *space;
  g_autofree char *target = NULL;
  guint64 value;
  CsSrtpSuite suite = CS_SRTP_SUITE_UNKNOWN;

  memset (out, 0, sizeof *out);
  if (eq == NULL || eq == spec)
    {
      g_set_error_literal (error, CS_SRTP_KEY_ERROR, CS_SRTP_KEY_ERROR_TARGET,
                           "expected SSRC_OR_STREAM=inline:KEY (an SSRC as 0x…, or a stream "
                           "number)");
      return FALSE;
    }
  target = g_strndup (spec, (gsize) (eq - spec));
  g_strstrip (target);
  if (g_ascii_strncasecmp (target, "0x", 2) == 0 && target[2] != '\0'
      && strspn (target + 2, "0123456789abcdefABCDEF") == strlen (target + 2)
      && strlen (target + 2) <= 8)
    out->ssrc = (guint32) g_ascii_strtoull (target + 2, NULL, 16);
  else if (parse_decimal (target, target + strlen (target), G_MAXUINT, &value) && value > 0)
    {
      out->by_stream = TRUE;
      out->stream_id = (guint) value;
    }
  else
    {
      g_set_error_literal (error, CS_SRTP_KEY_ERROR, CS_SRTP_KEY_ERROR_TARGET,
                           "the target before '=' is neither an SSRC (0x…) nor a stream number");
      return FALSE;
    }
  rest = eq + 1;
  while (g_ascii_isspace (*rest))
    rest++;
  space = strpbrk (rest, " \t");
  if (space != NULL && g_ascii_strncasecmp (rest, "inline:", 7) != 0)
    {
      suite = cs_srtp_suite_from_name (rest, (gsize) (space - rest));
      if (suite == CS_SRTP_SUITE_UNKNOWN)
        {
          g_set_error (error, CS_SRTP_KEY_ERROR, CS_SRTP_KEY_ERROR_SUITE,
                       "unknown crypto suite \"%.*s\"", (int) MIN (space - rest, 40), rest);
          return FALSE;
        }
      rest = space;
    }
  return cs_srtp_key_parse_params (rest, strlen (rest), suite, &out->key, error);
}
