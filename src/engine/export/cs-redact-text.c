/* cs-redact-text.c — the text half of redaction: SIP headers and SDP, rewritten in place
 * with same-length replacements so Content-Length and every packet length stay right.
 * Works on any slice of text (a TCP segment, an IP fragment), so it never needs a parse. */
#include "cs-redact-private.h"

#include <arpa/inet.h>
#include <string.h>

static void
cs_replace_user (CsRedactor *r, guint8 *t, gsize start, gsize end)
{
  const char *rep;

  if (end <= start)
    return;
  rep = cs_redactor_map_user (r, (const char *) t + start, end - start);
  if (!r->observing)
    memcpy (t + start, rep, end - start);
}

static void
cs_fill (CsRedactor *r, guint8 *t, gsize start, gsize end, char c)
{
  if (!r->observing && end > start)
    memset (t + start, c, end - start);
}

static gboolean
cs_has_prefix_ci (const guint8 *t, gsize len, gsize pos, const char *prefix)
{
  gsize n = strlen (prefix);

  return pos + n <= len && g_ascii_strncasecmp ((const char *) t + pos, prefix, n) == 0;
}

static gsize
cs_skip_until (const guint8 *t, gsize end, gsize pos, const char *stops)
{
  while (pos < end && strchr (stops, t[pos]) == NULL && t[pos] != '\0')
    pos++;
  return pos;
}

static gboolean
cs_is_token_char (guint8 c)
{
  return g_ascii_isalnum (c) || strchr ("-.!%*_+`'~", c) != NULL;
}

/* name="value" or name=value inside [ls, le): the value's span. */
static gboolean
cs_find_param (const guint8 *t, gsize ls, gsize le, const char *name, gsize *vs, gsize *ve)
{
  gsize n = strlen (name);

  for (gsize p = ls; p + n < le; p++)
    {
      if ((p > ls && cs_is_token_char (t[p - 1])) || !cs_has_prefix_ci (t, le, p, name))
        continue;
      gsize q = p + n;
      while (q < le && (t[q] == ' ' || t[q] == '\t'))
        q++;
      if (q >= le || t[q] != '=')
        continue;
      q++;
      while (q < le && (t[q] == ' ' || t[q] == '\t'))
        q++;
      if (q < le && t[q] == '"')
        {
          *vs = q + 1;
          *ve = cs_skip_until (t, le, q + 1, "\"\r\n");
        }
      else
        {
          *vs = q;
          *ve = cs_skip_until (t, le, q, ", \t\r\n;");
        }
      return TRUE;
    }
  return FALSE;
}

/* SDP lines and SIP header lines: o= user, keys, display names, digest parameters. */
static void
cs_rewrite_line (CsRedactor *r, guint8 *t, gsize ls, gsize le)
{
  gsize p, vs, ve;

  if (le - ls >= 2 && t[ls + 1] == '=')
    {
      switch (t[ls])
        {
        case 'o':
          ve = cs_skip_until (t, le, ls + 2, " \r");
          if (!(ve == ls + 3 && t[ls + 2] == '-'))
            cs_replace_user (r, t, ls + 2, ve);
          return;
        case 'k':
          cs_fill (r, t, ls + 2, cs_skip_until (t, le, ls + 2, "\r"), 'x');
          return;
        case 'a':
          if (cs_has_prefix_ci (t, le, ls, "a=crypto:"))
            for (p = ls; p < le; p++)
              if (cs_has_prefix_ci (t, le, p, "inline:"))
                cs_fill (r, t, p + 7, cs_skip_until (t, le, p + 7, "| \t\r;"), 'X');
          if (cs_has_prefix_ci (t, le, ls, "a=key-mgmt:"))
            {
              vs = cs_skip_until (t, le, ls + 11, " \r");
              cs_fill (r, t, MIN (vs + 1, le), cs_skip_until (t, le, MIN (vs + 1, le), "\r"), 'X');
            }
          return;
        default:
          return;
        }
    }

  /* A header: NAME ":" value. The display name is what comes before '<'. */
  for (p = ls; p < le && cs_is_token_char (t[p]); p++)
    ;
  if (p == ls)
    return;
  while (p < le && (t[p] == ' ' || t[p] == '\t'))
    p++;
  if (p >= le || t[p] != ':')
    return;
  p++;
  while (p < le && (t[p] == ' ' || t[p] == '\t'))
    p++;
  vs = p;
  ve = cs_skip_until (t, le, vs, "<\r\n");
  if (ve < le && t[ve] == '<' && ve > vs)
    {
      gsize e = ve;

      while (e > vs && (t[e - 1] == ' ' || t[e - 1] == '\t'))
        e--;
      if (t[vs] == '"' && e > vs + 1 && t[e - 1] == '"')
        cs_replace_user (r, t, vs + 1, e - 1);
      else if (t[vs] != '"')
        cs_replace_user (r, t, vs, e);
    }
  if (cs_find_param (t, vs, le, "username", &vs, &ve))
    cs_replace_user (r, t, vs, ve);
  if (cs_find_param (t, p, le, "response", &vs, &ve))
    cs_fill (r, t, vs, ve, '0');
}

/* sip:USER@host, sips:USER@host, tel:NUMBER */
static void
cs_rewrite_uris (CsRedactor *r, guint8 *t, gsize len)
{
  for (gsize p = 0; p + 4 <= len; p++)
    {
      gsize start, end;
      gboolean tel;

      if (p > 0 && g_ascii_isalnum (t[p - 1]))
        continue;
      if (cs_has_prefix_ci (t, len, p, "sip:"))
        start = p + 4, tel = FALSE;
      else if (cs_has_prefix_ci (t, len, p, "sips:"))
        start = p + 5, tel = FALSE;
      else if (cs_has_prefix_ci (t, len, p, "tel:"))
        start = p + 4, tel = TRUE;
      else
        continue;
      if (tel)
        {
          end = cs_skip_until (t, len, start, " \t\r\n<>\";,?");
          cs_replace_user (r, t, start, end);
        }
      else
        {
          end = cs_skip_until (t, len, start, " \t\r\n<>\"@,;?");
          if (end < len && t[end] == '@')
            cs_replace_user (r, t, start, end);
        }
      p = MAX (p, end > 0 ? end - 1 : 0);
    }
}

static gboolean
cs_is_addr_boundary (guint8 c)
{
  return !g_ascii_isalnum (c) && c != '.' && c != ':' && c != '_' && c != '-';
}

/* Dotted quads; each octet keeps its written width (the mapping keeps digit counts). */
static gsize
cs_rewrite_ipv4_at (CsRedactor *r, guint8 *t, gsize len, gsize p)
{
  gsize starts[4], widths[4];
  guint8 bytes[4];
  gsize q = p;
  CsAddr orig, mapped;

  for (guint i = 0; i < 4; i++)
    {
      guint v = 0;

      starts[i] = q;
      while (q < len && g_ascii_isdigit (t[q]) && q - starts[i] < 3)
        v = v * 10 + (t[q++] - '0');
      widths[i] = q - starts[i];
      if (widths[i] == 0 || v > 255)
        return p;
      bytes[i] = (guint8) v;
      if (i < 3)
        {
          if (q >= len || t[q] != '.')
            return p;
          q++;
        }
    }
  if (q < len
      && (g_ascii_isdigit (t[q]) || (t[q] == '.' && q + 1 < len && g_ascii_isdigit (t[q + 1]))))
    return p;
  cs_addr_set_v4 (&orig, bytes);
  cs_redactor_map_addr (r, &orig, &mapped);
  if (!r->observing)
    for (guint i = 0; i < 4; i++)
      {
        char buf[8];

        g_snprintf (buf, sizeof buf, "%0*u", (int) widths[i], mapped.bytes[i]);
        if (strlen (buf) == widths[i])
          memcpy (t + starts[i], buf, widths[i]);
      }
  return q;
}

/* An IPv6 literal: each written hex group gets its replacement group at the same width. */
static gsize
cs_rewrite_ipv6_at (CsRedactor *r, guint8 *t, gsize len, gsize p)
{
  gsize q = p, colons = 0;
  char text[INET6_ADDRSTRLEN];
  guint8 bytes[16];
  CsAddr orig, mapped;
  gsize group_starts[8], n_groups = 0, gap_after = G_MAXSIZE;
  gboolean upper = FALSE;

  while (q < len && (g_ascii_isxdigit (t[q]) || t[q] == ':') && q - p < sizeof text - 1)
    {
      colons += t[q] == ':';
      upper |= g_ascii_isupper (t[q]);
      q++;
    }
  if (colons < 2 || (q < len && !cs_is_addr_boundary (t[q])))
    return p;
  memcpy (text, t + p, q - p);
  text[q - p] = '\0';
  if (inet_pton (AF_INET6, text, bytes) != 1)
    return p;
  cs_addr_set_v6 (&orig, bytes);
  cs_redactor_map_addr (r, &orig, &mapped);
  if (r->observing)
    return q;
  for (gsize i = p; i < q && n_groups < 8;)
    {
      if (t[i] == ':')
        {
          if (i + 1 < q && t[i + 1] == ':')
            gap_after = n_groups;
          i++;
          continue;
        }
      group_starts[n_groups++] = i;
      while (i < q && t[i] != ':')
        i++;
    }
  for (gsize g = 0; g < n_groups; g++)
    {
      /* Groups after "::" are counted from the end. */
      gsize index = gap_after != G_MAXSIZE && g >= gap_after ? 8 - (n_groups - g) : g;
      gsize width = cs_skip_until (t, q, group_starts[g], ":") - group_starts[g];
      guint v = ((guint) mapped.bytes[2 * index] << 8) | mapped.bytes[2 * index + 1];
      char buf[8];

      g_snprintf (buf, sizeof buf, upper ? "%0*X" : "%0*x", (int) width, v);
      if (strlen (buf) == width)
        memcpy (t + group_starts[g], buf, width);
    }
  return q;
}

static void
cs_rewrite_addresses (CsRedactor *r, guint8 *t, gsize len)
{
  for (gsize p = 0; p < len; p++)
    {
      gsize next;

      if (p > 0 && !cs_is_addr_boundary (t[p - 1]))
        continue;
      if (!g_ascii_isxdigit (t[p]) && t[p] != ':')
        continue;
      next = cs_rewrite_ipv6_at (r, t, len, p);
      if (next == p && g_ascii_isdigit (t[p]))
        next = cs_rewrite_ipv4_at (r, t, len, p);
      if (next > p)
        p = next - 1;
    }
}

void
cs_redactor_rewrite_text (CsRedactor *r, guint8 *text, gsize len)
{
  gsize ls = 0;

  while (ls < len)
    {
      gsize le = cs_skip_until (text, len, ls, "\n");

      cs_rewrite_line (r, text, ls, le);
      ls = le + 1;
    }
  cs_rewrite_uris (r, text, len);
  cs_rewrite_addresses (r, text, len);
}
