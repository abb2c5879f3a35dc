/* cs-tls-keylog.c — NSS key log lines read into secrets by client random */
#include "cs-tls-keylog.h"

#include <string.h>

G_DEFINE_QUARK (cs - tls - keylog - error - quark, cs_tls_keylog_error)

/* Sessions a key log may hold: a day of a busy client is far less. */
#define CS_TLS_KEYLOG_MAX_SESSIONS (1u << 20)

struct _CsTlsKeylog
{
  gint ref_count;
  GHashTable *by_random; /* 32-byte client random (inside the value) → Entry */
  guint bad_lines, first_bad_line, lines;
};

typedef struct
{
  guint8 client_random[32];
  CsTlsSecrets secrets;
} Entry;

static guint
random_hash (gconstpointer p)
{
  guint h;

  memcpy (&h, p, sizeof h); /* random bytes: any four are a hash */
  return h;
}

static gboolean
random_equal (gconstpointer a, gconstpointer b)
{
  return memcmp (a, b, 32) == 0;
}

static void
entry_free (gpointer p)
{
  memset (p, 0, sizeof (Entry));
  g_free (p);
}

CsTlsKeylog *
cs_tls_keylog_new (void)
{
  CsTlsKeylog *log = g_new0 (CsTlsKeylog, 1);

  log->ref_count = 1;
  log->by_random = g_hash_table_new_full (random_hash, random_equal, NULL, entry_free);
  return log;
}

CsTlsKeylog *
cs_tls_keylog_ref (CsTlsKeylog *log)
{
  g_atomic_int_inc (&log->ref_count);
  return log;
}

void
cs_tls_keylog_unref (CsTlsKeylog *log)
{
  if (log == NULL || !g_atomic_int_dec_and_test (&log->ref_count))
    return;
  g_hash_table_unref (log->by_random);
  g_free (log);
}

static const struct
{
  const char *label;
  CsTlsSecretKind kind;
} labels[] = {
  { "CLIENT_RANDOM", CS_TLS_SECRET_MASTER },
  { "CLIENT_HANDSHAKE_TRAFFIC_SECRET", CS_TLS_SECRET_CLIENT_HANDSHAKE },
  { "SERVER_HANDSHAKE_TRAFFIC_SECRET", CS_TLS_SECRET_SERVER_HANDSHAKE },
  { "CLIENT_TRAFFIC_SECRET_0", CS_TLS_SECRET_CLIENT_TRAFFIC },
  { "SERVER_TRAFFIC_SECRET_0", CS_TLS_SECRET_SERVER_TRAFFIC },
  { "EXPORTER_SECRET", CS_TLS_SECRET_EXPORTER },
};

/* Hex [b, e) into out (exactly (e - b) / 2 bytes, at most max): FALSE when not hex. */
static gboolean
read_hex (const char *b, const char *e, guint8 *out, gsize max, gsize *n)
{
  gsize len = (gsize) (e - b);

  if (len == 0 || len % 2 != 0 || len / 2 > max)
    return FALSE;
  for (gsize i = 0; i < len / 2; i++)
    {
      int hi = g_ascii_xdigit_value (b[2 * i]), lo = g_ascii_xdigit_value (b[2 * i + 1]);

      if (hi < 0 || lo < 0)
        return FALSE;
      out[i] = (guint8) (hi << 4 | lo);
    }
  *n = len / 2;
  return TRUE;
}

/* One line [b, e): TRUE when it was a usable secret. */
static gboolean
add_line (CsTlsKeylog *log, const char *b, const char *e)
{
  const char *f[3][2];
  guint n = 0;
  guint8 random[32], secret[CS_TLS_MAX_SECRET];
  gsize random_len, secret_len;
  Entry *entry;

  while (n < 3)
    {
      while (b < e && (*b == ' ' || *b == '\t'))
        b++;
      if (b == e)
        break;
      f[n][0] = b;
      while (b < e && *b != ' ' && *b != '\t')
        b++;
      f[n++][1] = b;
    }
  while (b < e && g_ascii_isspace (*b))
    b++;
  if (n != 3 || b != e || !read_hex (f[1][0], f[1][1], random, sizeof random, &random_len)
      || random_len != 32 || !read_hex (f[2][0], f[2][1], secret, sizeof secret, &secret_len))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    {
      if ((gsize) (f[0][1] - f[0][0]) != strlen (labels[i].label)
          || memcmp (f[0][0], labels[i].label, strlen (labels[i].label)) != 0)
        continue;
      if (labels[i].kind == CS_TLS_SECRET_MASTER && secret_len != 48)
        return FALSE;
      entry = g_hash_table_lookup (log->by_random, random);
      if (entry == NULL)
        {
          if (g_hash_table_size (log->by_random) >= CS_TLS_KEYLOG_MAX_SESSIONS)
            return FALSE;
          entry = g_new0 (Entry, 1);
          memcpy (entry->client_random, random, 32);
          g_hash_table_insert (log->by_random, entry->client_random, entry);
        }
      memcpy (entry->secrets.secret[labels[i].kind], secret, secret_len);
      entry->secrets.length[labels[i].kind] = (guint8) secret_len;
      memset (secret, 0, sizeof secret);
      return TRUE;
    }
  return FALSE; /* a label we do not use (EARLY secrets, …) or none */
}

guint
cs_tls_keylog_add_text (CsTlsKeylog *log, const char *text, gsize len)
{
  const char *p = text, *end = text + len;
  guint usable = 0;

  while (p < end)
    {
      const char *nl = memchr (p, '\n', (gsize) (end - p));
      const char *e = nl != NULL ? nl : end;
      const char *q = p;

      log->lines++;
      while (q < e && g_ascii_isspace (*q))
        q++;
      if (q < e && *q != '#')
        {
          if (add_line (log, q, e))
            usable++;
          else if (log->bad_lines++ == 0)
            log->first_bad_line = log->lines;
        }
      p = nl != NULL ? nl + 1 : end;
    }
  return usable;
}

gboolean
cs_tls_keylog_load_file (CsTlsKeylog *log, const char *path, GError **error)
{
  g_autofree char *text = NULL;
  gsize len = 0;
  g_autoptr (GError) local = NULL;

  if (!g_file_get_contents (path, &text, &len, &local))
    {
      g_set_error (error, CS_TLS_KEYLOG_ERROR, CS_TLS_KEYLOG_ERROR_READ,
                   "cannot read key log %s: %s", path, local->message);
      return FALSE;
    }
  if (cs_tls_keylog_add_text (log, text, len) == 0)
    {
      g_set_error (error, CS_TLS_KEYLOG_ERROR, CS_TLS_KEYLOG_ERROR_EMPTY,
                   "%s is not an NSS key log: no line of the form "
                   "\"CLIENT_RANDOM <64 hex> <96 hex>\" or a TLS 1.3 *_TRAFFIC_SECRET line",
                   path);
      memset (text, 0, len);
      return FALSE;
    }
  memset (text, 0, len);
  return TRUE;
}

const CsTlsSecrets *
cs_tls_keylog_lookup (const CsTlsKeylog *log, const guint8 *client_random)
{
  const Entry *entry = log != NULL ? g_hash_table_lookup (log->by_random, client_random) : NULL;

  return entry != NULL ? &entry->secrets : NULL;
}

guint
cs_tls_keylog_get_n_sessions (const CsTlsKeylog *log)
{
  return g_hash_table_size (log->by_random);
}

guint
cs_tls_keylog_get_bad_lines (const CsTlsKeylog *log, guint *first_bad_line)
{
  if (first_bad_line != NULL)
    *first_bad_line = log->first_bad_line;
  return log->bad_lines;
}
