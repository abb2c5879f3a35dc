/* cs-sip-span.c — allocation-free scanners over a NUL-terminated header value: header
 * parameters, name-addr (From/To), URI user part. Same rules as the copying helpers of
 * cs-sip-headers.c (test-sip-scan.c checks they agree), but they point into the value.
 * They look for bytes 16 at a time: a value must have 16 readable bytes after its NUL
 * (the parse scratch keeps that room; tests pad their strings). */
#include "cs-sip-message-private.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

static const char *
skip_lws (const char *p)
{
  while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
    p++;
  return p;
}

/* Byte classes for the scanners' loops: one table lookup per byte instead of a chain of
 * compares. */
enum
{
  CLASS_SPACE = 1 << 0,      /* g_ascii_isspace */
  CLASS_PARAM_END = 1 << 1,  /* NUL ; , — the end of a parameter value */
  CLASS_NAME_END = 1 << 2,   /* NUL = ; , or space — the end of a parameter name */
  CLASS_QUOTED_END = 1 << 3, /* NUL " \\ — where a quoted string needs a look */
  CLASS_ADDR_END = 1 << 4,   /* NUL < ; — the end of an unquoted display name */
  CLASS_LEAD = 1 << 5,       /* ; or space — skipped before a parameter */
  CLASS_USER = 1 << 6,       /* @ ? > : — where a URI's user part needs a look */
  CLASS_USER_END = 1 << 7,   /* the same and NUL */
};

#define SPACE_CLASSES (CLASS_SPACE | CLASS_NAME_END | CLASS_LEAD)
static const guint8 byte_class[256] = {
  ['\0'] = CLASS_PARAM_END | CLASS_NAME_END | CLASS_QUOTED_END | CLASS_ADDR_END | CLASS_USER_END,
  [' '] = SPACE_CLASSES,
  ['\t'] = SPACE_CLASSES,
  ['\n'] = SPACE_CLASSES,
  ['\v'] = SPACE_CLASSES,
  ['\f'] = SPACE_CLASSES,
  ['\r'] = SPACE_CLASSES,
  [';'] = CLASS_PARAM_END | CLASS_NAME_END | CLASS_ADDR_END | CLASS_LEAD,
  [','] = CLASS_PARAM_END | CLASS_NAME_END,
  ['='] = CLASS_NAME_END,
  ['"'] = CLASS_QUOTED_END,
  ['\\'] = CLASS_QUOTED_END,
  ['<'] = CLASS_ADDR_END,
  ['@'] = CLASS_USER | CLASS_USER_END,
  ['?'] = CLASS_USER | CLASS_USER_END,
  ['>'] = CLASS_USER | CLASS_USER_END,
  [':'] = CLASS_USER | CLASS_USER_END,
};
#undef SPACE_CLASSES

#define IS_CLASS(c, k) ((byte_class[(guint8) (c)] & (k)) != 0)

/* The first byte from p that is NUL, a, b, c or d (repeat one for fewer): 16 at a time
 * with SSE2, which reads up to 15 bytes past the NUL. */
static inline __attribute__ ((always_inline)) const char *
find_first (const char *p, char a, char b, char c, char d)
{
#ifdef __SSE2__
  const __m128i va = _mm_set1_epi8 (a), vb = _mm_set1_epi8 (b), vc = _mm_set1_epi8 (c),
                vd = _mm_set1_epi8 (d), zero = _mm_setzero_si128 ();
  for (;; p += 16)
    {
      __m128i v = _mm_loadu_si128 ((const __m128i *) p);
      __m128i hit = _mm_or_si128 (_mm_or_si128 (_mm_cmpeq_epi8 (v, va), _mm_cmpeq_epi8 (v, vb)),
                                  _mm_or_si128 (_mm_cmpeq_epi8 (v, vc), _mm_cmpeq_epi8 (v, vd)));
      guint bits = (guint) _mm_movemask_epi8 (_mm_or_si128 (hit, _mm_cmpeq_epi8 (v, zero)));
      if (bits != 0)
        return p + __builtin_ctz (bits);
    }
#else
  while (*p != '\0' && *p != a && *p != b && *p != c && *p != d)
    p++;
  return p;
#endif
}

static const char *
scan_quoted (const char *p, gboolean *escaped)
{
  /* p just after the opening quote; returns the closing quote or the final NUL */
  for (;;)
    {
      p = find_first (p, '"', '\\', '"', '"');
      if (*p != '\\')
        return p;
      if (p[1] != '\0')
        {
          *escaped = TRUE;
          p++;
        }
      p++;
    }
}

static void
span_trimmed (CsSipSpan *out, const char *start, const char *end)
{
  while (start < end && g_ascii_isspace (*start))
    start++;
  while (end > start && g_ascii_isspace (end[-1]))
    end--;
  out->start = start;
  out->len = (gsize) (end - start);
  out->escaped = FALSE;
}

/* The usual case, ";tag=abc" or ";branch=z9…" first in the list: NAME (lowercase
 * letters) right after the ';', then '=' and an unquoted value. Gives the same span as
 * the general loop below, without its name scan; FALSE when the list is not so. */
static inline __attribute__ ((always_inline)) gboolean
params_find_first (const char *params, const char *name, gsize name_len, CsSipSpan *out)
{
  const char *p = params + 1;

  if (params[0] != ';')
    return FALSE;
  /* (c | 0x20) == a lowercase letter only for that letter in either case; never for NUL */
  for (gsize i = 0; i < name_len; i++)
    if (name[i] < 'a' || name[i] > 'z')
      return FALSE;
  if (name_len < 8)
    {
      /* "name=" as one word (the constant name folds): 8 bytes lie within the value's
       * NUL and the 16 bytes after it */
      guint64 word, want = 0, fold = 0, mask = 0;
      memcpy (&word, p, 8);
      for (gsize i = 0; i <= name_len; i++)
        {
          want |= (guint64) (guint8) (i < name_len ? name[i] : '=') << (8 * i);
          fold |= (guint64) (i < name_len ? 0x20 : 0) << (8 * i);
          mask |= (guint64) 0xff << (8 * i);
        }
      if (((word | fold) & mask) != want)
        return FALSE;
    }
  else
    {
      for (gsize i = 0; i < name_len; i++)
        if (((guint8) p[i] | 0x20) != (guint8) name[i])
          return FALSE;
      if (p[name_len] != '=')
        return FALSE;
    }
  p += name_len + 1;
  if (*p == '"' || *p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
    return FALSE;
  const char *value_start = p;
  p = find_first (p, ';', ',', ';', ';');
  span_trimmed (out, value_start, p);
  return TRUE;
}

gboolean
cs_sip_params_find (const char *params, const char *name, gsize name_len, CsSipSpan *out)
{
  const char *p = params;

  if (params_find_first (params, name, name_len, out))
    return TRUE;

  while (*p != '\0')
    {
      while (IS_CLASS (*p, CLASS_LEAD))
        p++;
      if (*p == '\0' || *p == ',')
        break;

      const char *name_start = p;
      while (!IS_CLASS (*p, CLASS_NAME_END))
        p++;
      gboolean match = (gsize) (p - name_start) == name_len
                       && cs_sip_ascii_equal_ci (name_start, name, name_len);
      p = skip_lws (p);

      if (*p == '=')
        {
          p = skip_lws (p + 1);
          if (*p == '"')
            {
              gboolean escaped = FALSE;
              const char *end = scan_quoted (p + 1, &escaped);
              if (match)
                {
                  out->start = p + 1;
                  out->len = (gsize) (end - (p + 1));
                  out->escaped = escaped;
                  return TRUE;
                }
              if (*end == '\0')
                return FALSE;
              p = end + 1;
            }
          else
            {
              const char *value_start = p;
              while (!IS_CLASS (*p, CLASS_PARAM_END))
                p++;
              if (match)
                {
                  span_trimmed (out, value_start, p);
                  return TRUE;
                }
            }
        }
      else if (match)
        {
          out->start = p;
          out->len = 0;
          out->escaped = FALSE;
          return TRUE;
        }

      while (!IS_CLASS (*p, CLASS_PARAM_END))
        p++;
    }
  return FALSE;
}

gboolean
cs_sip_via_branch_find (const char *via, CsSipSpan *out)
{
  const char *p = find_first (via, ';', ',', ';', ';');

  if (*p != ';')
    return FALSE;
  return params_find_first (p, "branch", 6, out) || cs_sip_params_find (p, "branch", 6, out);
}

gsize
cs_sip_unescape_quoted (const CsSipSpan *span, char *out)
{
  const char *p = span->start, *end = span->start + span->len;
  gsize n = 0;

  while (p < end)
    {
      if (*p == '\\' && p[1] != '\0')
        p++;
      out[n++] = *p++;
    }
  return n;
}

gboolean
cs_sip_addr_scan (const char *value, CsSipAddrSpans *out)
{
  const char *p, *lt = NULL, *params;

  memset (out, 0, sizeof *out);
  p = skip_lws (value);
  if (*p == '\0')
    return FALSE;

  if (*p == '"')
    {
      gboolean escaped = FALSE;
      const char *end = scan_quoted (p + 1, &escaped);
      if (*end == '\0')
        return FALSE;
      out->display.start = p + 1;
      out->display.len = (gsize) (end - (p + 1));
      out->display.escaped = escaped;
      out->has_display = out->display.len > 0;
      p = skip_lws (end + 1);
      if (*p != '<')
        return FALSE;
      lt = p;
    }
  else
    {
      /* an unquoted display name is tokens, so a ';' before any '<' means addr-spec */
      const char *q = p;
      q = find_first (q, '<', ';', '<', '<');
      if (*q == '<')
        {
          lt = q;
          span_trimmed (&out->display, p, lt);
          out->has_display = out->display.len > 0;
        }
    }

  if (lt != NULL)
    {
      const char *gt = find_first (lt + 1, '>', '>', '>', '>');
      if (*gt == '\0')
        return FALSE;
      span_trimmed (&out->uri, lt + 1, gt);
      params = gt + 1;
    }
  else
    {
      const char *end = p;
      while (*end != '\0' && *end != ';' && *end != ',')
        end++;
      span_trimmed (&out->uri, p, end);
      params = end;
    }

  params = skip_lws (params);
  /* the inlined first-parameter check folds the constant name */
  if (*params != '\0')
    out->has_tag = params_find_first (params, "tag", 3, &out->tag)
                   || cs_sip_params_find (params, "tag", 3, &out->tag);
  return out->uri.len > 0;
}

/* cs_sip_addr_scan, then cs_sip_uri_user_span of the URI (*has_user), in one pass for the
 * usual From/To: an optional quoted display name without escapes, then <sip:…> or
 * <sips:…>. Anything else takes the two general scanners. */
gboolean
cs_sip_addr_scan_user (const char *value, CsSipAddrSpans *out, CsSipSpan *user, gboolean *has_user)
{
  const char *p = value, *lt, *params;

  memset (out, 0, sizeof *out);
  if (*p == '"')
    {
      const char *q = p + 1;
      q = find_first (q, '"', '\\', '"', '"');
      if (*q != '"')
        goto general;
      out->display.start = p + 1;
      out->display.len = (gsize) (q - (p + 1));
      out->has_display = out->display.len > 0;
      lt = skip_lws (q + 1);
      if (*lt != '<')
        goto general;
    }
  else if (*p == '<')
    {
      lt = p;
      out->display.start = p; /* empty, as span_trimmed leaves it */
    }
  else
    goto general;

  /* "sip:" or "sips:" in any case (| 0x20 folds only the letter itself) */
  const char *uri = lt + 1, *user_start;
  if ((uri[0] | 0x20) != 's' || (uri[1] | 0x20) != 'i' || (uri[2] | 0x20) != 'p')
    goto general;
  if (uri[3] == ':')
    user_start = uri + 4;
  else if ((uri[3] == 's' || uri[3] == 'S') && uri[4] == ':')
    user_start = uri + 5;
  else
    goto general;
  /* the user part ends at '@'; '?' or '>' first means none; ':' (a password, or a host
   * and port) and NUL take the general scanners */
  const char *q = user_start;
  q = find_first (q, '@', '?', '>', ':');
  if (*q == '@')
    {
      user->start = user_start;
      user->len = (gsize) (q - user_start);
      user->escaped = FALSE;
      *has_user = user->len > 0;
    }
  else if (*q == '?' || *q == '>')
    *has_user = FALSE;
  else
    goto general;
  const char *gt = *q == '>' ? q : find_first (q, '>', '>', '>', '>');
  if (*gt == '\0' || g_ascii_isspace (gt[-1]))
    goto general;
  out->uri.start = uri;
  out->uri.len = (gsize) (gt - uri);
  params = skip_lws (gt + 1);
  if (*params != '\0')
    out->has_tag = params_find_first (params, "tag", 3, &out->tag)
                   || cs_sip_params_find (params, "tag", 3, &out->tag);
  return TRUE;

general:
  if (!cs_sip_addr_scan (value, out))
    return FALSE;
  *has_user = cs_sip_uri_user_span (out->uri.start, out->uri.len, user);
  return TRUE;
}

gboolean
cs_sip_uri_user_span (const char *uri, gsize len, CsSipSpan *out)
{
  const char *p = uri, *end = uri + len, *at, *user_end;

  out->escaped = FALSE;
  if (len >= 4 && cs_sip_ascii_equal_ci (p, "tel:", 4))
    {
      p += 4;
      user_end = p;
      while (user_end < end && *user_end != ';' && *user_end != '?' && *user_end != '>')
        user_end++;
      out->start = p;
      out->len = (gsize) (user_end - p);
      return out->len > 0;
    }
  /* "sip:" or "sips:" in any case, sharing the compare of "sip" */
  if (len < 4 || !cs_sip_ascii_equal_ci (p, "sip", 3))
    return FALSE;
  if (p[3] == ':')
    p += 4;
  else if (len >= 5 && (p[3] == 's' || p[3] == 'S') && p[4] == ':')
    p += 5;
  else
    return FALSE;

  /* one pass up to the first '@': a '?' or '>' before it means the '@' (if any) is not
   * the userinfo separator; the user part ends at the first ':' (a password follows) */
  at = NULL;
  user_end = NULL;
  for (const char *q = p;; q++)
    {
      while (q < end && !IS_CLASS (*q, CLASS_USER))
        q++;
      if (q == end || *q == '?' || *q == '>')
        return FALSE;
      if (*q == '@')
        {
          at = q;
          break;
        }
      if (user_end == NULL)
        user_end = q; /* ':' */
    }
  if (user_end == NULL)
    user_end = at;
  out->start = p;
  out->len = (gsize) (user_end - p);
  return out->len > 0;
}

/* TRUE when the n bytes hold no NUL and no byte >= 0x80: sixteen at a time with SSE2,
 * else eight. */
gboolean
cs_sip_text_is_plain (const char *p, gsize n)
{
  guint64 high = 0, zero = 0;
  gsize i = 0;

#ifdef __SSE2__
  if (n >= 16)
    {
      /* a byte's sign bit, or all bits where it is NUL: any set sign bit is a problem */
      const __m128i nul = _mm_setzero_si128 ();
      __m128i acc = nul;
      for (; i + 16 <= n; i += 16)
        {
          __m128i v = _mm_loadu_si128 ((const __m128i *) (p + i));
          acc = _mm_or_si128 (acc, _mm_or_si128 (v, _mm_cmpeq_epi8 (v, nul)));
        }
      if (i < n)
        {
          /* the last 16 bytes, overlapping what was read */
          __m128i v = _mm_loadu_si128 ((const __m128i *) (p + n - 16));
          acc = _mm_or_si128 (acc, _mm_or_si128 (v, _mm_cmpeq_epi8 (v, nul)));
        }
      return _mm_movemask_epi8 (acc) == 0;
    }
#endif
  for (; i + 8 <= n; i += 8)
    {
      guint64 w;
      memcpy (&w, p + i, 8);
      high |= w;
      zero |= (w - G_GUINT64_CONSTANT (0x0101010101010101)) & ~w;
    }
  if (i < n && n >= 8)
    {
      /* the last 8 bytes, overlapping what was read */
      guint64 w;
      memcpy (&w, p + n - 8, 8);
      high |= w;
      zero |= (w - G_GUINT64_CONSTANT (0x0101010101010101)) & ~w;
    }
  else
    for (; i < n; i++)
      {
        guint8 c = (guint8) p[i];
        high |= c;
        zero |= c == 0 ? 0x80 : 0;
      }
  return ((high | zero) & G_GUINT64_CONSTANT (0x8080808080808080)) == 0;
}
