/* cs-redact-text.c — rewriting a text by edits: address literals, URIs, host names and the
 * words learned in pass 1, each span replaced once (the SIP structure is cs-redact-sip.c) */
#include "cs-redact-private.h"

#include <arpa/inet.h>
#include <string.h>

void
cs_redact_text_init (CsRedactText *x, CsRedactor *r, const guint8 *t, gsize len)
{
  x->r = r;
  x->t = t;
  x->len = len;
  x->claimed = g_malloc0 (MAX (len, 1));
  x->edits = g_array_new (FALSE, FALSE, sizeof (CsRedactEdit));
}

void
cs_redact_edits_free (GArray *edits)
{
  if (edits == NULL)
    return;
  for (guint i = 0; i < edits->len; i++)
    g_free (g_array_index (edits, CsRedactEdit, i).text);
  g_array_unref (edits);
}

void
cs_redact_text_clear (CsRedactText *x)
{
  g_clear_pointer (&x->claimed, g_free);
  g_clear_pointer (&x->edits, cs_redact_edits_free);
}

gboolean
cs_redact_text_has_prefix (const CsRedactText *x, gsize p, gsize e, const char *prefix)
{
  gsize n = strlen (prefix);

  return p + n <= e && g_ascii_strncasecmp ((const char *) x->t + p, prefix, n) == 0;
}

gboolean
cs_redact_text_claim (CsRedactText *x, gsize s, gsize e)
{
  if (e <= s || e > x->len || memchr (x->claimed + s, 1, e - s) != NULL)
    return FALSE;
  memset (x->claimed + s, 1, e - s);
  return TRUE;
}

gboolean
cs_redact_text_replace (CsRedactText *x, gsize s, gsize e, char *rep, gsize rep_len)
{
  CsRedactEdit edit = { s, e - s, rep, rep_len };

  if (rep == NULL || !cs_redact_text_claim (x, s, e))
    {
      g_free (rep);
      return FALSE;
    }
  if (x->r->observing || (rep_len == e - s && memcmp (rep, x->t + s, rep_len) == 0))
    {
      g_free (rep);
      return TRUE;
    }
  g_array_append_val (x->edits, edit);
  return TRUE;
}

void
cs_redact_text_words (CsRedactText *x, gsize s, gsize e)
{
  if (e > s)
    cs_redact_text_replace (x, s, e, cs_redact_map_words (x->r, (const char *) x->t + s, e - s),
                            e - s);
}

static gboolean
cs_is_host_byte (guint8 c)
{
  return g_ascii_isalnum (c) || c == '.' || c == '-' || c == '_';
}

void
cs_redact_text_host (CsRedactText *x, gsize s, gsize e)
{
  const char *host = (const char *) x->t + s;
  const char *rep;
  gboolean digits_only = TRUE;

  while (e > s && x->t[e - 1] == '.')
    e--;
  if (e <= s)
    return;
  for (gsize i = s; i < e; i++)
    {
      if (!cs_is_host_byte (x->t[i]))
        return;
      digits_only &= g_ascii_isdigit (x->t[i]) || x->t[i] == '.';
    }
  if (digits_only)
    return; /* an address literal: the address scan's */
  if (x->r->observing)
    {
      g_autofree char *key = g_ascii_strdown (host, (gssize) (e - s));

      cs_redact_map_host (x->r, host, e - s);
      if (memchr (key, '.', e - s) != NULL && !cs_redact_host_is_reserved (key, e - s))
        g_hash_table_add (x->r->learned_hosts, g_steal_pointer (&key));
      cs_redact_text_claim (x, s, e);
      return;
    }
  rep = cs_redact_map_host (x->r, host, e - s);
  if (rep == NULL)
    cs_redact_text_claim (x, s, e);
  else
    cs_redact_text_replace (x, s, e, g_strdup (rep), strlen (rep));
}

/* ---- address literals ---- */

static gboolean
cs_v4_at (const guint8 *t, gsize e, gsize p, gsize *end, CsAddr *addr)
{
  guint8 bytes[4];
  gsize q = p;

  if (p > 0 && (g_ascii_isalnum (t[p - 1]) || t[p - 1] == '.'))
    return FALSE;
  for (guint i = 0; i < 4; i++)
    {
      guint v = 0;
      gsize start = q;

      while (q < e && g_ascii_isdigit (t[q]) && q - start < 3)
        v = v * 10 + (t[q++] - '0');
      if (q == start || v > 255)
        return FALSE;
      bytes[i] = (guint8) v;
      if (i < 3)
        {
          if (q >= e || t[q] != '.')
            return FALSE;
          q++;
        }
    }
  if (q < e && (g_ascii_isalnum (t[q]) || (t[q] == '.' && q + 1 < e && g_ascii_isdigit (t[q + 1]))))
    return FALSE;
  cs_addr_set_v4 (addr, bytes);
  *end = q;
  return TRUE;
}

static gboolean
cs_v6_at (const guint8 *t, gsize e, gsize p, gsize *end, CsAddr *addr)
{
  char text[INET6_ADDRSTRLEN];
  guint8 bytes[16];
  gsize q = p, colons = 0;

  if (p > 0 && (g_ascii_isalnum (t[p - 1]) || t[p - 1] == ':' || t[p - 1] == '.'))
    return FALSE;
  while (q < e && (g_ascii_isxdigit (t[q]) || t[q] == ':' || t[q] == '.')
         && q - p < sizeof text - 1)
    colons += t[q++] == ':';
  if (colons < 2 || (q < e && g_ascii_isalnum (t[q])))
    return FALSE;
  /* "[…]:5060" ends at the bracket; a trailing dot or colon is punctuation. */
  while (q > p && (t[q - 1] == '.' || (t[q - 1] == ':' && !(q - p >= 2 && t[q - 2] == ':'))))
    q--;
  memcpy (text, t + p, q - p);
  text[q - p] = '\0';
  if (inet_pton (AF_INET6, text, bytes) != 1)
    return FALSE;
  cs_addr_set_v6 (addr, bytes);
  *end = q;
  return TRUE;
}

void
cs_redact_text_addresses (CsRedactText *x, gsize s, gsize e)
{
  for (gsize p = s; p < e; p++)
    {
      CsAddr addr, mapped;
      gsize end;
      char out[CS_ADDR_STRLEN];

      if (!g_ascii_isxdigit (x->t[p]) && x->t[p] != ':')
        continue;
      if (!cs_v6_at (x->t, e, p, &end, &addr) && !cs_v4_at (x->t, e, p, &end, &addr))
        continue;
      cs_redactor_map_addr (x->r, &addr, &mapped);
      cs_addr_to_string (&mapped, out);
      if (x->r->observing || cs_redact_addr_class (&addr) == CS_ADDR_KEPT)
        cs_redact_text_claim (x, p, end);
      else
        cs_redact_text_replace (x, p, end, g_strdup (out), strlen (out));
      p = end - 1;
    }
}

/* ---- URIs ---- */

/* host[:port] starting at p (a bracketed IPv6 literal is the address scan's; anything else
 * in brackets is a name). */
static gsize
cs_uri_host (CsRedactText *x, gsize p, gsize e)
{
  gsize h = p;

  if (p < e && x->t[p] == '[')
    {
      gsize close = cs_redact_skip_until (x->t, e, p, "]");

      if (close > p + 1 && !x->claimed[p + 1])
        cs_redact_text_words (x, p + 1, close);
      return close;
    }
  while (h < e && cs_is_host_byte (x->t[h]))
    h++;
  cs_redact_text_host (x, p, h);
  return h;
}

void
cs_redact_text_uris (CsRedactText *x, gsize s, gsize e)
{
  static const char *const schemes[]
      = { "sips:", "sip:", "tel:", "mailto:", "https://", "http://" };

  for (gsize p = s; p < e; p++)
    {
      guint k;
      gsize start, at, colon;

      if ((p > s && g_ascii_isalnum (x->t[p - 1])) || !g_ascii_isalpha (x->t[p]))
        continue;
      for (k = 0; k < G_N_ELEMENTS (schemes); k++)
        if (cs_redact_text_has_prefix (x, p, e, schemes[k]))
          break;
      if (k == G_N_ELEMENTS (schemes))
        continue;
      start = p + strlen (schemes[k]);
      if (k == 2)
        {
          /* tel:NUMBER;params: the number keeps its separators, its digits are replaced. */
          gsize end = cs_redact_skip_until (x->t, e, start, " \t\r\n<>\";,?");

          cs_redact_text_words (x, start, end);
          p = MAX (end, p + 1) - 1;
          continue;
        }
      at = cs_redact_skip_until (x->t, e, start, " \t\r\n<>\",?@/");
      if (k < 4 && at < e && x->t[at] == '@')
        {
          /* user[:password]@ — both are personal */
          colon = cs_redact_skip_until (x->t, at, start, ":");
          cs_redact_text_words (x, start, colon);
          if (colon < at)
            cs_redact_text_words (x, colon + 1, at);
          start = at + 1;
        }
      p = MAX (cs_uri_host (x, start, e), p + 1) - 1;
    }
}

/* ---- what pass 1 learned, wherever it occurs ---- */

void
cs_redact_text_learned_hosts (CsRedactText *x, gsize s, gsize e)
{
  if (x->r->observing || g_hash_table_size (x->r->learned_hosts) == 0)
    return;
  for (gsize p = s; p < e;)
    {
      gsize q = p;

      while (q < e && cs_is_host_byte (x->t[q]))
        q++;
      if (q > p && memchr (x->t + p, '.', q - p) != NULL)
        {
          gsize end = q;
          g_autofree char *key = NULL;

          while (end > p && x->t[end - 1] == '.')
            end--;
          key = g_ascii_strdown ((const char *) x->t + p, (gssize) (end - p));
          if (g_hash_table_contains (x->r->learned_hosts, key))
            cs_redact_text_host (x, p, end);
        }
      p = q > p ? q : p + 1;
    }
}

void
cs_redact_text_learned_words (CsRedactText *x, gsize s, gsize e)
{
  if (x->r->observing || g_hash_table_size (x->r->learned_words) == 0)
    return;
  for (gsize p = s; p < e;)
    {
      gsize q = p;

      while (q < e && cs_redact_is_word_byte (x->t[q]))
        q++;
      if (q == p)
        {
          p++;
          continue;
        }
      /* Digits right after a colon are a port, not a number to hide. */
      if (!(p > 0 && x->t[p - 1] == ':' && g_ascii_isdigit (x->t[p]))
          && cs_redact_word_is_learned (x->r, (const char *) x->t + p, q - p))
        cs_redact_text_words (x, p, q);
      p = q;
    }
}

void
cs_redact_text_learned_token (CsRedactText *x, gsize s, gsize e)
{
  if (!x->r->observing && e > s && cs_redact_word_is_learned (x->r, (const char *) x->t + s, e - s))
    cs_redact_text_words (x, s, e);
}

void
cs_redact_text_generic (CsRedactText *x, gsize s, gsize e)
{
  cs_redact_text_addresses (x, s, e);
  cs_redact_text_uris (x, s, e);
  cs_redact_text_learned_hosts (x, s, e);
  cs_redact_text_learned_words (x, s, e);
}

/* ---- applying the edits ---- */

static gint
cs_edit_compare (gconstpointer a, gconstpointer b)
{
  const CsRedactEdit *x = a, *y = b;

  return x->at < y->at ? -1 : x->at > y->at;
}

GByteArray *
cs_redact_text_apply (CsRedactText *x)
{
  GByteArray *out = g_byte_array_sized_new ((guint) x->len);
  gsize pos = 0;

  g_array_sort (x->edits, cs_edit_compare);
  for (guint i = 0; i < x->edits->len; i++)
    {
      const CsRedactEdit *edit = &g_array_index (x->edits, CsRedactEdit, i);

      g_byte_array_append (out, x->t + pos, (guint) (edit->at - pos));
      g_byte_array_append (out, (const guint8 *) edit->text, (guint) edit->text_len);
      pos = edit->at + edit->len;
    }
  g_byte_array_append (out, x->t + pos, (guint) (x->len - pos));
  return out;
}

gsize
cs_redact_edits_map (const GArray *edits, gsize offset)
{
  gssize delta = 0;

  for (guint i = 0; edits != NULL && i < edits->len; i++)
    {
      const CsRedactEdit *edit = &g_array_index (edits, CsRedactEdit, i);

      if (edit->at >= offset)
        break;
      if (edit->at + edit->len > offset)
        return (gsize) ((gssize) edit->at + delta);
      delta += (gssize) edit->text_len - (gssize) edit->len;
    }
  return (gsize) ((gssize) offset + delta);
}
