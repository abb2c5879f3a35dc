/* cs-json-writer.c — streaming JSON output with correct string escaping */
#include "cs-json-writer.h"

#include <math.h>

#define CS_JSON_MAX_DEPTH 64

struct _CsJsonWriter
{
  FILE *out;
  gboolean pretty;
  guint depth;
  gboolean first[CS_JSON_MAX_DEPTH]; /* no element written yet at this depth */
  gboolean after_key;
};

CsJsonWriter *
cs_json_writer_new (FILE *out, gboolean pretty)
{
  CsJsonWriter *w = g_new0 (CsJsonWriter, 1);

  w->out = out;
  w->pretty = pretty;
  w->first[0] = TRUE;
  return w;
}

gboolean
cs_json_writer_free (CsJsonWriter *w)
{
  gboolean ok;

  fputc ('\n', w->out);
  ok = fflush (w->out) == 0 && !ferror (w->out);
  g_free (w);
  return ok;
}

static void
cs_json_indent (CsJsonWriter *w)
{
  if (!w->pretty)
    return;
  fputc ('\n', w->out);
  for (guint i = 0; i < w->depth; i++)
    fputs ("  ", w->out);
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
    fputc (',', w->out);
  w->first[w->depth] = FALSE;
  if (w->depth > 0)
    cs_json_indent (w);
}

static void
cs_json_open (CsJsonWriter *w, char c)
{
  cs_json_before_value (w);
  fputc (c, w->out);
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
  fputc (c, w->out);
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
  fputc ('"', w->out);
  for (const guchar *p = (const guchar *) s; *p != '\0'; p++)
    {
      /* plain runs in one write: per-character stdio calls dominated large reports */
      const guchar *run = p;

      while (*p != '\0' && !cs_json_needs_escape (*p))
        p++;
      if (p > run)
        fwrite (run, 1, (gsize) (p - run), w->out);
      if (*p == '\0')
        break;
      switch (*p)
        {
        case '"':
          fputs ("\\\"", w->out);
          break;
        case '\\':
          fputs ("\\\\", w->out);
          break;
        case '\n':
          fputs ("\\n", w->out);
          break;
        case '\r':
          fputs ("\\r", w->out);
          break;
        case '\t':
          fputs ("\\t", w->out);
          break;
        default:
          if (*p < 0x20)
            fprintf (w->out, "\\u%04x", *p);
          else
            fputc (*p, w->out);
        }
    }
  fputc ('"', w->out);
}

void
cs_json_key (CsJsonWriter *w, const char *key)
{
  cs_json_before_value (w);
  cs_json_write_escaped (w, key);
  fputs (w->pretty ? ": " : ":", w->out);
  w->after_key = TRUE;
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
  if (g_utf8_validate (value, -1, NULL))
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
  fwrite (buf + pos, 1, sizeof buf - pos, w->out);
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
  fputs (buf, w->out);
}

void
cs_json_bool (CsJsonWriter *w, gboolean value)
{
  cs_json_before_value (w);
  fputs (value ? "true" : "false", w->out);
}

void
cs_json_null (CsJsonWriter *w)
{
  cs_json_before_value (w);
  fputs ("null", w->out);
}
