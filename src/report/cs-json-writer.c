/* cs-json-writer.c — streaming JSON output with correct string escaping */
#include "cs-json-writer.h"

#include <math.h>
#include <string.h>

#include "cs-json-writer-private.h"

void
cs_json_flush (CsJsonWriter *w)
{
  if (w->used > 0 && w->out != NULL)
    fwrite (w->buf, 1, w->used, w->out);
  else if (w->used > 0)
    g_byte_array_append (w->piece, (const guint8 *) w->buf, (guint) w->used);
  w->used = 0;
}

/* Room for n more bytes (n at most the buffer's size) at the returned position;
 * the caller advances w->used by what it wrote. */
static inline char *
cs_json_reserve (CsJsonWriter *w, gsize n)
{
  if (G_UNLIKELY (n > sizeof w->buf - w->used))
    cs_json_flush (w);
  return w->buf + w->used;
}

static void
cs_json_put (CsJsonWriter *w, const char *data, gsize n)
{
  if (n > sizeof w->buf - w->used)
    {
      cs_json_flush (w);
      if (n > sizeof w->buf && w->out != NULL)
        {
          fwrite (data, 1, n, w->out);
          return;
        }
      if (n > sizeof w->buf)
        {
          g_byte_array_append (w->piece, (const guint8 *) data, (guint) n);
          return;
        }
    }
  memcpy (w->buf + w->used, data, n);
  w->used += n;
}

static inline void
cs_json_putc (CsJsonWriter *w, char c)
{
  if (w->used == sizeof w->buf)
    cs_json_flush (w);
  w->buf[w->used++] = c;
}

static void
cs_json_puts (CsJsonWriter *w, const char *s)
{
  cs_json_put (w, s, strlen (s));
}

CsJsonWriter *
cs_json_writer_new (FILE *out, gboolean pretty)
{
  CsJsonWriter *w = g_new (CsJsonWriter, 1);

  w->out = out;
  w->piece = NULL;
  w->threads = 1;
  w->pretty = pretty;
  w->depth = 0;
  w->first[0] = TRUE;
  w->after_key = FALSE;
  w->used = 0;
  return w;
}

gboolean
cs_json_writer_free (CsJsonWriter *w)
{
  gboolean ok;

  cs_json_putc (w, '\n');
  cs_json_flush (w);
  ok = fflush (w->out) == 0 && !ferror (w->out);
  g_free (w);
  return ok;
}

void
cs_json_writer_set_threads (CsJsonWriter *w, guint threads)
{
  w->threads = MAX (threads, 1);
}

guint
cs_json_writer_get_threads (CsJsonWriter *w)
{
  return w->threads;
}

CsJsonWriter *
cs_json_writer_new_piece (CsJsonWriter *w)
{
  CsJsonWriter *piece = g_new (CsJsonWriter, 1);

  piece->out = NULL;
  piece->piece = g_byte_array_new ();
  piece->threads = 1;
  piece->pretty = w->pretty;
  piece->depth = w->depth;
  for (guint i = 0; i <= w->depth; i++)
    piece->first[i] = FALSE;
  piece->after_key = FALSE;
  piece->used = 0;
  return piece;
}

GBytes *
cs_json_writer_free_to_piece (CsJsonWriter *piece)
{
  GByteArray *bytes;

  cs_json_flush (piece);
  bytes = piece->piece;
  g_free (piece);
  return g_byte_array_free_to_bytes (bytes);
}

void
cs_json_append_piece (CsJsonWriter *w, GBytes *piece)
{
  gsize len;
  const char *data = g_bytes_get_data (piece, &len);

  if (len == 0)
    return;
  cs_json_put (w, data, len);
  w->first[w->depth] = FALSE;
  w->after_key = FALSE;
}

/* A newline and as many spaces as the deepest indentation, copied in whole words. */
static const char cs_json_newline_indent[2 + 2 * CS_JSON_MAX_DEPTH + 16]
    = "\n                                                                "
      "                                                                        ";

static inline char *
cs_json_indent_at (CsJsonWriter *w, char *p)
{
  gsize n = 1 + 2 * w->depth;

  if (!w->pretty)
    return p;
  /* whole words, up to 15 bytes past the indentation: reserved (CS_JSON_MAX_PREFIX),
   * then overwritten; one 16-byte copy covers 7 levels */
  memcpy (p, cs_json_newline_indent, 16);
  for (gsize i = 16; G_UNLIKELY (i < n); i += 8)
    memcpy (p + i, cs_json_newline_indent + i, 8);
  return p + n;
}

/* Separator and indentation before a value (or a key). */
static inline void
cs_json_before_value (CsJsonWriter *w)
{
  char *p;

  if (w->after_key)
    {
      w->after_key = FALSE;
      return;
    }
  p = cs_json_reserve (w, CS_JSON_MAX_PREFIX);
  if (!w->first[w->depth])
    *p++ = ',';
  w->first[w->depth] = FALSE;
  if (w->depth > 0)
    p = cs_json_indent_at (w, p);
  w->used = (gsize) (p - w->buf);
}

static void
cs_json_open (CsJsonWriter *w, char c)
{
  cs_json_before_value (w);
  cs_json_putc (w, c);
  if (w->depth + 1 < CS_JSON_MAX_DEPTH)
    w->depth++;
  w->first[w->depth] = TRUE;
}

static void
cs_json_close (CsJsonWriter *w, char c)
{
  gboolean empty = w->first[w->depth];
  char *p;

  if (w->depth > 0)
    w->depth--;
  p = cs_json_reserve (w, CS_JSON_MAX_PREFIX);
  if (!empty)
    p = cs_json_indent_at (w, p);
  *p++ = c;
  w->used = (gsize) (p - w->buf);
}

void
cs_json_begin_object (CsJsonWriter *w)
{
  cs_json_open (w, '{');
}

void
cs_json_end_object (CsJsonWriter *w)
{
  cs_json_close (w, '}');
}

void
cs_json_begin_array (CsJsonWriter *w)
{
  cs_json_open (w, '[');
}

void
cs_json_end_array (CsJsonWriter *w)
{
  cs_json_close (w, ']');
}

static gboolean
cs_json_needs_escape (guchar c)
{
  return c < 0x20 || c == '"' || c == '\\';
}

static void
cs_json_write_escaped (CsJsonWriter *w, const char *s)
{
  cs_json_putc (w, '"');
  for (const guchar *p = (const guchar *) s; *p != '\0'; p++)
    {
      /* plain runs in one write: per-character stdio calls dominated large reports */
      const guchar *run = p;

      while (*p != '\0' && !cs_json_needs_escape (*p))
        p++;
      if (p > run)
        cs_json_put (w, (const char *) run, (gsize) (p - run));
      if (*p == '\0')
        break;
      switch (*p)
        {
        case '"':
          cs_json_puts (w, "\\\"");
          break;
        case '\\':
          cs_json_puts (w, "\\\\");
          break;
        case '\n':
          cs_json_puts (w, "\\n");
          break;
        case '\r':
          cs_json_puts (w, "\\r");
          break;
        case '\t':
          cs_json_puts (w, "\\t");
          break;
        default:
          if (*p < 0x20)
            {
              char escape[8];

              g_snprintf (escape, sizeof escape, "\\u%04x", *p);
              cs_json_puts (w, escape);
            }
          else
            cs_json_putc (w, *p);
        }
    }
  cs_json_putc (w, '"');
}

/* `"s"` then `suffix` (up to 2 bytes) when s needs no escaping; else FALSE and nothing
 * written. */
static inline gboolean
cs_json_try_plain (CsJsonWriter *w, const char *s, gsize len, const char *suffix, gsize suffix_len)
{
  char *p;

  if (G_UNLIKELY (len + 4 > sizeof w->buf))
    {
      /* longer than the buffer: check in pieces, then write in pieces */
      char piece[256];

      for (gsize done = 0; done < len; done += sizeof piece)
        if (!cs_json_copy_plain (piece, s + done, MIN (sizeof piece, len - done)))
          return FALSE;
      cs_json_putc (w, '"');
      cs_json_put (w, s, len);
      cs_json_putc (w, '"');
      cs_json_put (w, suffix, suffix_len);
      return TRUE;
    }
  p = cs_json_reserve (w, len + 4);
  if (!cs_json_copy_plain (p + 1, s, len))
    return FALSE;
  p[0] = '"';
  p[len + 1] = '"';
  memcpy (p + len + 2, suffix, suffix_len);
  w->used += len + 2 + suffix_len;
  return TRUE;
}

void
cs_json_key (CsJsonWriter *w, const char *key)
{
  gsize len = strlen (key);

  cs_json_before_value (w);
  /* Keys are written as given (no UTF-8 repair), only escaped. */
  if (!cs_json_try_plain (w, key, len, ": ", w->pretty ? 2 : 1))
    {
      cs_json_write_escaped (w, key);
      cs_json_puts (w, w->pretty ? ": " : ":");
    }
  w->after_key = TRUE;
}

/* Separator, indentation and key `quoted` (len bytes, pretty form) at p, which has room
 * for CS_JSON_MAX_PREFIX + len; returns the end. The key must not follow a key. */
static inline char *
cs_json_key_at (CsJsonWriter *w, char *p, const char *quoted, gsize len)
{
  if (!w->first[w->depth])
    *p++ = ',';
  w->first[w->depth] = FALSE;
  if (w->depth > 0)
    p = cs_json_indent_at (w, p);
  if (len <= 24)
    cs_json_copy_short (p, quoted, len);
  else
    memcpy (p, quoted, len);
  return p + len;
}

/* Whether a key and `extra` more bytes take the short path: not after a key, and they fit. */
static inline gboolean
cs_json_key_fits (CsJsonWriter *w, gsize len, gsize extra)
{
  return !w->after_key && len + extra <= sizeof w->buf - CS_JSON_MAX_PREFIX;
}

void
cs_json_key_quoted (CsJsonWriter *w, const char *quoted, gsize len)
{
  char *p;

  if (!w->pretty)
    len--;
  if (G_UNLIKELY (!cs_json_key_fits (w, len, 0)))
    {
      cs_json_before_value (w);
      cs_json_put (w, quoted, len);
      w->after_key = TRUE;
      return;
    }
  /* separator, indentation and key in one reserved stretch */
  p = cs_json_reserve (w, CS_JSON_MAX_PREFIX + len);
  p = cs_json_key_at (w, p, quoted, len);
  w->used = (gsize) (p - w->buf);
  w->after_key = TRUE;
}

void
cs_json_key_quoted_uint (CsJsonWriter *w, const char *quoted, gsize len, guint64 value)
{
  char digits[24];
  char *end = digits + sizeof digits, *start;
  char *p;

  if (!w->pretty)
    len--;
  if (G_UNLIKELY (!cs_json_key_fits (w, len, sizeof digits)))
    {
      cs_json_key_quoted (w, quoted, len + !w->pretty);
      cs_json_uint (w, value);
      return;
    }
  p = cs_json_reserve (w, CS_JSON_MAX_PREFIX + len + sizeof digits);
  p = cs_json_key_at (w, p, quoted, len);
  if (value < 10)
    *p++ = (char) ('0' + value);
  else
    {
      start = cs_decimal_digits_before (end, value, 1);
      cs_json_copy_short (p, start, (gsize) (end - start));
      p += end - start;
    }
  w->used = (gsize) (p - w->buf);
}

void
cs_json_key_quoted_double (CsJsonWriter *w, const char *quoted, gsize len, double value,
                           int decimals)
{
  char *p;

  if (!w->pretty)
    len--;
  if (G_UNLIKELY (!isfinite (value) || !cs_json_key_fits (w, len, CS_FIXED_BUF_SIZE)))
    {
      cs_json_key_quoted (w, quoted, len + !w->pretty);
      cs_json_double (w, value, decimals);
      return;
    }
  p = cs_json_reserve (w, CS_JSON_MAX_PREFIX + len + CS_FIXED_BUF_SIZE);
  p = cs_json_key_at (w, p, quoted, len);
  p += cs_json_fixed (p, value, decimals);
  w->used = (gsize) (p - w->buf);
}

void
cs_json_key_quoted_string (CsJsonWriter *w, const char *quoted, gsize len, const char *value)
{
  gsize n;
  char *p;

  if (!w->pretty)
    len--;
  n = value != NULL ? strlen (value) : 0;
  /* plain text that fits goes in the same stretch as the key */
  if (G_UNLIKELY (value == NULL || !cs_json_key_fits (w, len, n + 2)))
    {
      cs_json_key_quoted (w, quoted, len + !w->pretty);
      cs_json_string (w, value);
      return;
    }
  p = cs_json_reserve (w, CS_JSON_MAX_PREFIX + len + n + 2);
  p = cs_json_key_at (w, p, quoted, len);
  if (G_LIKELY (cs_json_copy_plain (p + 1, value, n)))
    {
      p[0] = '"';
      p[n + 1] = '"';
      w->used = (gsize) (p + n + 2 - w->buf);
      return;
    }
  /* needs escaping: the key stays, the value goes the long way */
  w->used = (gsize) (p - w->buf);
  w->after_key = TRUE;
  cs_json_string (w, value);
}

void
cs_json_string (CsJsonWriter *w, const char *value)
{
  gsize len;

  if (value == NULL)
    {
      cs_json_null (w);
      return;
    }
  cs_json_before_value (w);
  len = strlen (value);
  if (cs_json_try_plain (w, value, len, "", 0))
    return;
  if (g_utf8_validate_len (value, len, NULL))
    cs_json_write_escaped (w, value);
  else
    {
      /* Packet data is not always UTF-8; JSON must be. */
      g_autofree char *valid = g_utf8_make_valid (value, -1);
      cs_json_write_escaped (w, valid);
    }
}

/* Decimal digits by hand: fprintf's format parsing showed up in large reports. */
static void
cs_json_write_digits (CsJsonWriter *w, guint64 value, gboolean negative)
{
  char digits[24];
  char *end = digits + sizeof digits;
  char *start;
  char *p;

  if (value < 10 && !negative)
    {
      /* counts, flags and small ids: most numbers in a report */
      cs_json_putc (w, (char) ('0' + value));
      return;
    }
  start = cs_decimal_digits_before (end, value, 1);
  if (negative)
    *--start = '-';
  p = cs_json_reserve (w, sizeof digits);
  cs_json_copy_short (p, start, (gsize) (end - start));
  w->used += (gsize) (end - start);
}

void
cs_json_int (CsJsonWriter *w, gint64 value)
{
  cs_json_before_value (w);
  /* the magnitude of G_MININT64 does not fit a gint64: negate in unsigned */
  cs_json_write_digits (w, value < 0 ? 0 - (guint64) value : (guint64) value, value < 0);
}

void
cs_json_uint (CsJsonWriter *w, guint64 value)
{
  cs_json_before_value (w);
  cs_json_write_digits (w, value, FALSE);
}

void
cs_json_double (CsJsonWriter *w, double value, int decimals)
{
  char *p;

  if (!isfinite (value))
    {
      cs_json_null (w);
      return;
    }
  cs_json_before_value (w);
  /* printf's exact text without printf (see cs-fixed-format.c) */
  p = cs_json_reserve (w, CS_FIXED_BUF_SIZE);
  w->used += cs_json_fixed (p, value, decimals);
}

void
cs_json_bool (CsJsonWriter *w, gboolean value)
{
  cs_json_before_value (w);
  cs_json_puts (w, value ? "true" : "false");
}

void
cs_json_null (CsJsonWriter *w)
{
  cs_json_before_value (w);
  cs_json_put (w, "null", 4);
}
