/* cs-redact-map.c — the consistent replacements: addresses from the documentation ranges
 * (allocated at seal time so that one original /24 lands in one replacement /24), words of
 * the same shape, host names under .example, MAC addresses */
#include "cs-redact-private.h"

#include <gio/gio.h>
#include <string.h>

#define CS_REDACT_MAX_TRIES 64
#define CS_REDACT_V4_HOSTS 254 /* .1 to .254 of each range */

/* Documentation ranges (RFC 5737): private originals go to the first, public ones to the
 * others in order; a range that is full spills into the next. */
static const guint8 cs_doc_v4[3][3] = { { 192, 0, 2 }, { 203, 0, 113 }, { 198, 51, 100 } };

/* Words that are the protocol's own vocabulary: never replaced wherever they occur, even
 * when a user or a display name happens to be spelled that way. */
static const char *const cs_protocol_words[] = {
  "sip",      "sips",     "tel",       "user",      "phone",     "transport",   "udp",
  "tcp",      "tls",      "sctp",      "ws",        "wss",       "lr",          "branch",
  "tag",      "rport",    "received",  "maddr",     "ttl",       "method",      "expires",
  "audio",    "video",    "image",     "text",      "message",   "application", "in",
  "ip4",      "ip6",      "rtp",       "avp",       "savp",      "avpf",        "savpf",
  "sendrecv", "sendonly", "recvonly",  "inactive",  "rtpmap",    "fmtp",        "ptime",
  "pcmu",     "pcma",     "telephone", "event",     "digest",    "md5",         "realm",
  "nonce",    "response", "username",  "uri",       "algorithm", "opaque",      "qop",
  "auth",     "cnonce",   "invite",    "ack",       "bye",       "cancel",      "options",
  "register", "prack",    "update",    "info",      "refer",     "notify",      "subscribe",
  "publish",  "trying",   "ringing",   "session",   "progress",  "call",        "sdp",
  "content",  "type",     "length",    "from",      "to",        "via",         "contact",
  "route",    "record",   "allow",     "supported", "require",   "version",     "max",
  "forwards", "agent",    "server",    "reason",    "true",      "false",       "none",
};

G_STATIC_ASSERT (G_N_ELEMENTS (cs_doc_v4) == 3);

CsAddrClass
cs_redact_addr_class (const CsAddr *a)
{
  static const guint8 zeros[16];
  const guint8 *b = a->bytes;

  if (a->family == 4)
    {
      if (b[0] == 0 || b[0] == 127 || b[0] >= 224)
        return CS_ADDR_KEPT;
      if (b[0] == 10 || (b[0] == 172 && (b[1] & 0xf0) == 16) || (b[0] == 192 && b[1] == 168)
          || (b[0] == 100 && (b[1] & 0xc0) == 64) || (b[0] == 169 && b[1] == 254))
        return CS_ADDR_PRIVATE;
      return CS_ADDR_PUBLIC;
    }
  if (a->family == 6)
    {
      if (b[0] == 0xff || (memcmp (b, zeros, 15) == 0 && b[15] <= 1))
        return CS_ADDR_KEPT;
      if ((b[0] & 0xfe) == 0xfc || (b[0] == 0xfe && (b[1] & 0xc0) == 0x80))
        return CS_ADDR_PRIVATE;
      return CS_ADDR_PUBLIC;
    }
  return CS_ADDR_KEPT;
}

static gboolean
cs_is_v4_mapped (const CsAddr *a)
{
  static const guint8 prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

  return a->family == 6 && memcmp (a->bytes, prefix, 12) == 0;
}

void
cs_redact_learn_addr (CsRedactor *r, const CsAddr *addr)
{
  CsAddr *copy;

  if (cs_is_v4_mapped (addr))
    {
      CsAddr v4;

      cs_addr_set_v4 (&v4, addr->bytes + 12);
      cs_redact_learn_addr (r, &v4);
    }
  if (cs_redact_addr_class (addr) == CS_ADDR_KEPT
      || g_hash_table_contains (r->original_addrs, addr))
    return;
  copy = g_memdup2 (addr, sizeof *addr);
  g_hash_table_add (r->original_addrs, copy);
  g_ptr_array_add (r->addr_order, copy);
}

/* ---- IPv4: allocated at seal time ---- */

typedef struct
{
  guint32 key; /* the /24, as a number */
  CsAddrClass klass;
  guint first;        /* order of first sight */
  GPtrArray *members; /* CsAddr* (borrowed) */
} CsV4Group;

static void
cs_v4_group_free (CsV4Group *g)
{
  g_ptr_array_unref (g->members);
  g_free (g);
}

static gint
cs_v4_group_compare (gconstpointer a, gconstpointer b)
{
  const CsV4Group *x = *(CsV4Group *const *) a, *y = *(CsV4Group *const *) b;

  if (x->members->len != y->members->len)
    return x->members->len > y->members->len ? -1 : 1;
  return x->first < y->first ? -1 : x->first > y->first;
}

typedef struct
{
  guint8 hosts[CS_REDACT_V4_HOSTS]; /* free host octets, shuffled */
  guint n;
} CsV4Pool;

static void
cs_v4_pool_init (CsRedactor *r, CsV4Pool *pool, guint range)
{
  pool->n = 0;
  for (guint h = 1; h <= CS_REDACT_V4_HOSTS; h++)
    {
      CsAddr a;
      guint8 bytes[4] = { cs_doc_v4[range][0], cs_doc_v4[range][1], cs_doc_v4[range][2], h };

      cs_addr_set_v4 (&a, bytes);
      /* An original in the range is never handed out as somebody else's replacement. */
      if (!g_hash_table_contains (r->original_addrs, &a))
        pool->hosts[pool->n++] = (guint8) h;
    }
  for (guint i = pool->n; i > 1; i--)
    {
      guint j = (guint) g_rand_int_range (r->rand, 0, (gint32) i);
      guint8 t = pool->hosts[i - 1];

      pool->hosts[i - 1] = pool->hosts[j];
      pool->hosts[j] = t;
    }
}

static void
cs_v4_assign (CsRedactor *r, const CsAddr *original, CsV4Pool *pool, guint range)
{
  guint8 bytes[4]
      = { cs_doc_v4[range][0], cs_doc_v4[range][1], cs_doc_v4[range][2], pool->hosts[--pool->n] };
  CsAddr out;

  cs_addr_set_v4 (&out, bytes);
  g_hash_table_insert (r->addr_map, g_memdup2 (original, sizeof *original),
                       g_memdup2 (&out, sizeof out));
  g_hash_table_add (r->used_addrs, g_memdup2 (&out, sizeof out));
}

static gboolean
cs_seal_v4 (CsRedactor *r, GError **error)
{
  g_autoptr (GHashTable) by_net = g_hash_table_new (NULL, NULL);
  g_autoptr (GPtrArray) groups = g_ptr_array_new_with_free_func ((GDestroyNotify) cs_v4_group_free);
  CsV4Pool pools[3];
  guint total = 0;

  for (guint i = 0; i < r->addr_order->len; i++)
    {
      CsAddr *a = g_ptr_array_index (r->addr_order, i);
      guint32 key;
      CsV4Group *g;

      if (a->family != 4)
        continue;
      key = (guint32) a->bytes[0] << 16 | (guint32) a->bytes[1] << 8 | a->bytes[2];
      g = g_hash_table_lookup (by_net, GUINT_TO_POINTER (key + 1));
      if (g == NULL)
        {
          g = g_new0 (CsV4Group, 1);
          g->key = key;
          g->klass = cs_redact_addr_class (a);
          g->first = i;
          g->members = g_ptr_array_new ();
          g_hash_table_insert (by_net, GUINT_TO_POINTER (key + 1), g);
          g_ptr_array_add (groups, g);
        }
      g_ptr_array_add (g->members, a);
      total++;
    }
  for (guint range = 0; range < 3; range++)
    cs_v4_pool_init (r, &pools[range], range);
  if (total > pools[0].n + pools[1].n + pools[2].n)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                   "Redaction needs %u IPv4 replacement addresses; the documentation ranges "
                   "(192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24) hold %u: export fewer calls",
                   total, pools[0].n + pools[1].n + pools[2].n);
      return FALSE;
    }
  /* Largest /24s first, so that they find a range with room for all of their members. */
  g_ptr_array_sort (groups, cs_v4_group_compare);
  for (guint i = 0; i < groups->len; i++)
    {
      CsV4Group *g = g_ptr_array_index (groups, i);
      guint order[3] = { 0, 1, 2 };
      guint chosen = G_MAXUINT;

      if (g->klass == CS_ADDR_PUBLIC)
        order[0] = 1, order[1] = 2, order[2] = 0;
      for (guint k = 0; k < 3 && chosen == G_MAXUINT; k++)
        if (pools[order[k]].n >= g->members->len)
          chosen = order[k];
      for (guint m = 0; m < g->members->len; m++)
        {
          guint range = chosen;

          /* No range holds the whole /24: its members spread over what is left. */
          for (guint k = 0; range == G_MAXUINT || pools[range].n == 0; k++)
            range = order[k % 3];
          cs_v4_assign (r, g_ptr_array_index (g->members, m), &pools[range], range);
        }
    }
  return TRUE;
}

/* ---- IPv6: 2001:db8::/32, one replacement /48 per original /48, /64 per /64 ---- */

static guint64
cs_v6_read64 (const guint8 *b)
{
  guint64 v = 0;

  for (guint i = 0; i < 8; i++)
    v = v << 8 | b[i];
  return v;
}

static void
cs_v6_write64 (guint8 *b, guint64 v)
{
  for (guint i = 0; i < 8; i++)
    b[i] = (guint8) (v >> (8 * (7 - i)));
}

static guint64
cs_v6_prefix (CsRedactor *r, const CsAddr *a)
{
  guint64 original = cs_v6_read64 (a->bytes);
  guint64 *known = g_hash_table_lookup (r->v6_prefix_map, &original);
  guint64 site = original >> 16, value;
  guint16 group3 = 0;

  if (known != NULL)
    return *known;
  /* Private originals share 2001:db8:0::/48; each public /48 gets its own third group. */
  if (cs_redact_addr_class (a) == CS_ADDR_PUBLIC)
    {
      gpointer g = g_hash_table_lookup (r->v6_site_map, &site);

      if (g == NULL)
        {
          group3 = (guint16) g_rand_int_range (r->rand, 0x1000, 0x10000);
          g = GUINT_TO_POINTER ((guint) group3);
          g_hash_table_insert (r->v6_site_map, g_memdup2 (&site, sizeof site), g);
        }
      group3 = (guint16) GPOINTER_TO_UINT (g);
    }
  for (guint tries = 0;; tries++)
    {
      gboolean taken = FALSE;
      GHashTableIter iter;
      gpointer v;

      value = 0x20010db8ull << 32 | (guint64) group3 << 16
              | (guint64) g_rand_int_range (r->rand, 1, 0x10000);
      g_hash_table_iter_init (&iter, r->v6_prefix_map);
      while (!taken && g_hash_table_iter_next (&iter, NULL, &v))
        taken = *(guint64 *) v == value;
      if (!taken || tries >= CS_REDACT_MAX_TRIES)
        break;
    }
  g_hash_table_insert (r->v6_prefix_map, g_memdup2 (&original, sizeof original),
                       g_memdup2 (&value, sizeof value));
  return value;
}

static void
cs_v6_generate (CsRedactor *r, const CsAddr *original, CsAddr *out)
{
  guint64 iid = cs_v6_read64 (original->bytes + 8);

  *out = *original;
  if (cs_is_v4_mapped (original))
    {
      CsAddr v4, mapped;

      cs_addr_set_v4 (&v4, original->bytes + 12);
      cs_redactor_map_addr (r, &v4, &mapped);
      memcpy (out->bytes + 12, mapped.bytes, 4);
      return;
    }
  cs_v6_write64 (out->bytes, cs_v6_prefix (r, original));
  for (guint tries = 0; tries < CS_REDACT_MAX_TRIES; tries++)
    {
      /* A short interface id (::1, ::a1) stays short, a long one long. */
      guint64 fresh = iid < 0x10000 ? (guint64) g_rand_int_range (r->rand, 1, 0x10000)
                                    : (guint64) g_rand_int (r->rand) << 32 | g_rand_int (r->rand);

      cs_v6_write64 (out->bytes + 8, fresh);
      if (!g_hash_table_contains (r->used_addrs, out)
          && !g_hash_table_contains (r->original_addrs, out))
        break;
    }
}

gboolean
cs_redactor_seal (CsRedactor *r, GError **error)
{
  if (r->sealed)
    return TRUE;
  cs_redact_stream_learn (r);
  if (!cs_seal_v4 (r, error))
    return FALSE;
  r->sealed = TRUE;
  cs_redact_stream_rewrite (r);
  return TRUE;
}

void
cs_redactor_map_addr (CsRedactor *r, const CsAddr *original, CsAddr *out)
{
  const CsAddr *known;

  *out = *original;
  if (r->observing)
    {
      cs_redact_learn_addr (r, original);
      return;
    }
  if (cs_redact_addr_class (original) == CS_ADDR_KEPT && !cs_is_v4_mapped (original))
    return;
  known = g_hash_table_lookup (r->addr_map, original);
  if (known != NULL)
    {
      *out = *known;
      return;
    }
  if (original->family == 4)
    {
      /* Only an address pass 1 never saw (a caller's own): the first free slot. */
      CsV4Pool pool;

      for (guint range = 0; range < 3; range++)
        {
          cs_v4_pool_init (r, &pool, range);
          while (pool.n > 0)
            {
              guint8 bytes[4] = { cs_doc_v4[range][0], cs_doc_v4[range][1], cs_doc_v4[range][2],
                                  pool.hosts[pool.n - 1] };

              cs_addr_set_v4 (out, bytes);
              if (!g_hash_table_contains (r->used_addrs, out))
                {
                  cs_v4_assign (r, original, &pool, range);
                  *out = *(CsAddr *) g_hash_table_lookup (r->addr_map, original);
                  return;
                }
              pool.n--;
            }
        }
      /* The ranges are full: nothing of the original is kept. */
      memset (out->bytes, 0, 4);
      out->bytes[0] = 192, out->bytes[1] = 0, out->bytes[2] = 2;
      return;
    }
  cs_v6_generate (r, original, out);
  g_hash_table_insert (r->addr_map, g_memdup2 (original, sizeof *original),
                       g_memdup2 (out, sizeof *out));
  g_hash_table_add (r->used_addrs, g_memdup2 (out, sizeof *out));
}

/* ---- words ---- */

gboolean
cs_redact_is_word_byte (guint8 c)
{
  return g_ascii_isalnum (c) || c >= 0x80;
}

static gboolean
cs_is_protocol_word (const char *word, gsize len)
{
  for (guint i = 0; i < G_N_ELEMENTS (cs_protocol_words); i++)
    if (strlen (cs_protocol_words[i]) == len
        && g_ascii_strncasecmp (word, cs_protocol_words[i], len) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
cs_all_digits (const char *word, gsize len)
{
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isdigit (word[i]))
      return FALSE;
  return TRUE;
}

void
cs_redact_learn_word (CsRedactor *r, const char *text, gsize len)
{
  for (gsize p = 0; p < len;)
    {
      gsize e = p;
      char *word;

      while (e < len && cs_redact_is_word_byte ((guint8) text[e]))
        e++;
      if (e == p)
        {
          p++;
          continue;
        }
      word = g_strndup (text + p, e - p);
      if (!g_hash_table_contains (r->original_words, word))
        g_hash_table_add (r->original_words, g_strdup (word));
      /* Short words and numbers (ports, counts) are replaced where they are, not everywhere. */
      if (!cs_is_protocol_word (word, e - p)
          && (cs_all_digits (word, e - p) ? e - p >= 4 : e - p >= 3))
        g_hash_table_add (r->learned_words, word);
      else
        g_free (word);
      p = e;
    }
}

gboolean
cs_redact_word_is_learned (CsRedactor *r, const char *word, gsize len)
{
  char stack[64];
  g_autofree char *heap = NULL;
  char *key = stack;

  if (len + 1 > sizeof stack)
    key = heap = g_malloc (len + 1);
  memcpy (key, word, len);
  key[len] = '\0';
  return g_hash_table_contains (r->learned_words, key);
}

static char
cs_random_other_char (GRand *rand, guint8 c)
{
  char first, n;

  if (g_ascii_isdigit (c))
    first = '0', n = 10;
  else if (g_ascii_isupper (c))
    first = 'A', n = 26;
  else if (g_ascii_islower (c))
    first = 'a', n = 26;
  else if (c >= 0x80)
    return (char) ('a' + g_rand_int_range (rand, 0, 26));
  else
    return (char) c;
  /* Never the same character: a replacement cannot leak any original digit in place. */
  return (char) (first + (c - first + g_rand_int_range (rand, 1, n)) % n);
}

/* The next string of the same shape (an odometer over each position's class). */
static void
cs_next_same_shape (const char *shape, char *s, gsize len)
{
  for (gsize i = len; i-- > 0;)
    {
      guint8 c = (guint8) shape[i];
      char first = g_ascii_isdigit (c) ? '0' : g_ascii_isupper (c) ? 'A' : 'a';
      char last = g_ascii_isdigit (c) ? '9' : g_ascii_isupper (c) ? 'Z' : 'z';

      if (!cs_redact_is_word_byte (c))
        continue;
      if (s[i] != last)
        {
          s[i]++;
          return;
        }
      s[i] = first;
    }
}

const char *
cs_redactor_map_word (CsRedactor *r, const char *original, gsize len)
{
  g_autofree char *key = g_strndup (original, len);
  char *known, *out;

  if (r->observing)
    {
      cs_redact_learn_word (r, original, len);
      return NULL;
    }
  known = g_hash_table_lookup (r->word_map, key);
  if (known != NULL)
    return known;
  out = g_strdup (key);
  for (guint tries = 0;; tries++)
    {
      if (tries < CS_REDACT_MAX_TRIES)
        for (gsize i = 0; i < len; i++)
          out[i] = cs_random_other_char (r->rand, (guint8) key[i]);
      else
        cs_next_same_shape (key, out, len);
      if (g_hash_table_contains (r->used_words, out))
        {
          if (tries > CS_REDACT_MAX_TRIES + 100000)
            break; /* the shape is full: cannot happen for real data */
          continue;
        }
      /* Another original is avoided while tries are cheap; uniqueness always holds. */
      if (tries >= CS_REDACT_MAX_TRIES || !g_hash_table_contains (r->original_words, out))
        break;
    }
  g_hash_table_add (r->used_words, g_strdup (out));
  g_hash_table_insert (r->word_map, g_steal_pointer (&key), out);
  return out;
}

char *
cs_redact_map_words (CsRedactor *r, const char *text, gsize len)
{
  char *out = g_strndup (text, len);

  for (gsize p = 0; p < len;)
    {
      gsize e = p;

      while (e < len && cs_redact_is_word_byte ((guint8) text[e]))
        e++;
      if (e == p)
        {
          p++;
          continue;
        }
      if (r->observing)
        cs_redact_learn_word (r, text + p, e - p);
      else
        memcpy (out + p, cs_redactor_map_word (r, text + p, e - p), e - p);
      p = e;
    }
  return out;
}

char *
cs_redact_blank (const char *text, gsize len)
{
  char *out = g_strndup (text, len);

  for (gsize i = 0; i < len; i++)
    if (cs_redact_is_word_byte ((guint8) out[i]))
      out[i] = 'x';
  return out;
}

/* ---- host names ---- */

static gboolean
cs_host_has_suffix (const char *host, gsize len, const char *suffix)
{
  gsize n = strlen (suffix);

  if (len == n - 1 && g_ascii_strncasecmp (host, suffix + 1, n - 1) == 0)
    return TRUE; /* the name itself, without the leading dot */
  return len > n && g_ascii_strncasecmp (host + len - n, suffix, n) == 0;
}

gboolean
cs_redact_host_is_reserved (const char *host, gsize len)
{
  static const char *const reserved[] = { ".localhost",   ".example",     ".invalid",    ".test",
                                          ".example.com", ".example.net", ".example.org" };

  for (guint i = 0; i < G_N_ELEMENTS (reserved); i++)
    if (cs_host_has_suffix (host, len, reserved[i]))
      return TRUE;
  return FALSE;
}

const char *
cs_redact_map_host (CsRedactor *r, const char *host, gsize len)
{
  g_autofree char *key = NULL;
  const char *dot, *known;
  guint n_dots = 0;
  char *out;

  while (len > 0 && host[len - 1] == '.')
    len--;
  if (len == 0 || cs_redact_host_is_reserved (host, len))
    return NULL;
  key = g_ascii_strdown (host, (gssize) len);
  if (r->observing)
    {
      if (!g_hash_table_contains (r->original_words, key))
        g_hash_table_add (r->original_words, g_strdup (key));
      return NULL;
    }
  known = g_hash_table_lookup (r->host_map, key);
  if (known != NULL)
    return known;
  for (gsize i = 0; i < len; i++)
    n_dots += key[i] == '.';
  /* The registrable domain is taken as the last two labels (enough to keep "same
   * operator" visible without a public-suffix list). */
  dot = n_dots >= 1 ? g_strrstr_len (key, (gssize) len, ".") : NULL;
  if (dot != NULL)
    {
      const char *domain = key;
      gpointer index;

      for (const char *p = dot - 1; p > key; p--)
        if (*p == '.')
          {
            domain = p + 1;
            break;
          }
      index = g_hash_table_lookup (r->domain_map, domain);
      if (index == NULL)
        {
          index = GUINT_TO_POINTER (g_hash_table_size (r->domain_map) + 1);
          g_hash_table_insert (r->domain_map, g_strdup (domain), index);
        }
      if (domain == key)
        out = g_strdup_printf ("d%u.example", GPOINTER_TO_UINT (index));
      else
        out = g_strdup_printf ("h%u.d%u.example", ++r->n_host_names, GPOINTER_TO_UINT (index));
    }
  else
    out = g_strdup_printf ("h%u.example", ++r->n_host_names);
  g_hash_table_insert (r->host_map, g_steal_pointer (&key), out);
  return out;
}

guint
cs_redactor_get_n_addresses (CsRedactor *r)
{
  return g_hash_table_size (r->addr_map);
}

guint
cs_redactor_get_n_words (CsRedactor *r)
{
  return g_hash_table_size (r->word_map);
}

guint
cs_redactor_get_n_hosts (CsRedactor *r)
{
  return g_hash_table_size (r->host_map);
}
