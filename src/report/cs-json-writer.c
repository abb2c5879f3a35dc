/* cs-json-writer.c — streaming JSON output with correct string escaping */
#include "cs-json-writer.h"

#include <math.h>
#include <string.h>

#define CS_JSON_MAX_DEPTH 64
/* Output collects here and goes to the FILE in large writes: per-call stdio locking
 * (fputc, fputs) was most of the writer's time on large reports. Nothing else writes to
 * the FILE while a writer is open. */
#define CS_JSON_BUFFER_SIZE (64 * 1024)

struct _CsJsonWriter
{
  FILE *out;
  gboolean pretty;
  guint depth;
  gboolean first[CS_JSON_MAX_DEPTH]; /* no element written yet at this depth */
  gboolean after_key;
  gsize used;
  char buf[CS_JSON_BUFFER_SIZE];
};

static void
cs_json_flush (CsJsonWriter *w)
{
  if (w->used > 0)
    fwrite (w->buf, 1, w->used, w->out);
  w->used = 0;
}

static void
cs_json_put (CsJsonWriter *w, const char *data, gsize n)
{
  if (n > sizeof w->buf - w->used)
    {
      cs_json_flush (w);
      if (n > sizeof w->buf)
        {
          fwrite (data, 1, n, w->out);
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

static void
cs_json_indent (CsJsonWriter *w)
{
  if (!w->pretty)
    return;
  cs_json_putc (w, '\n');
  for (guint i = 0; i < w->depth; i++)
    cs_json_put (w, "  ", 2);
}

/* Separator and indentation before a value (or a key). */
static void
cs_json_before_value (CsJsonWriter *w)
{
  if (w->after_key)
    {
      w->after_key = FALSE;
      return;
    }
  if (!w->first[w->depth])
    cs_json_putc (w, ',');
  w->first[w->depth] = FALSE;
  if (w->depth > 0)
    cs_json_indent (w);
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

  if (w->depth > 0)
    w->depth--;
  if (!empty)
    cs_json_indent (w);
  cs_json_putc (w, c);
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

void
cs_json_key (CsJsonWriter *w, const char *key)
{
  cs_json_before_value (w);
  cs_json_write_escaped (w, key);
  cs_json_puts (w, w->pretty ? ": " : ":");
  w->after_key = TRUE;
}

/* Most report strings are ASCII: checked more cheaply than full UTF-8 validation. */
static gboolean
cs_json_is_ascii (const char *s)
{
  for (; *s != '\0'; s++)
    if ((guchar) *s >= 0x80)
      return FALSE;
  return TRUE;
}

void
cs_json_string (CsJsonWriter *w, const char *value)
{
  if (value == NULL)
    {
      cs_json_null (w);
      return;
    }
  cs_json_before_value (w);
  if (cs_json_is_ascii (value) || g_utf8_validate (value, -1, NULL))
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
  char buf[24];
  gsize pos = sizeof buf;

  do
    {
      buf[--pos] = (char) ('0' + value % 10);
      value /= 10;
    }
  while (value > 0);
  if (negative)
    buf[--pos] = '-';
  cs_json_put (w, buf + pos, sizeof buf - pos);
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
  static const char *const formats[]
      = { "%.0f", "%.1f", "%.2f", "%.3f", "%.4f", "%.5f", "%.6f", "%.7f", "%.8f", "%.9f" };
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    {
      cs_json_null (w);
      return;
    }
  cs_json_before_value (w);
  /* Locale-independent: a decimal comma would break the document. */
  g_ascii_formatd (buf, sizeof buf, formats[CLAMP (decimals, 0, 9)], value);
  cs_json_puts (w, buf);
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
  cs_json_puts (w, "null");
}
