/* cs-json-raw.c — raw output into a JSON writer's buffer, for callers that write the
 * exact text of many same-shaped objects themselves (cs-report-json-raw.c) */
#include "cs-json-writer-private.h"

gboolean
cs_json_writer_is_pretty (CsJsonWriter *w)
{
  return w->pretty;
}

guint
cs_json_writer_get_depth (CsJsonWriter *w)
{
  return w->depth;
}

char *
cs_json_raw_ensure (CsJsonWriter *w, char *p, gsize room)
{
  G_STATIC_ASSERT (CS_JSON_RAW_MARGIN * 4 <= CS_JSON_BUFFER_SIZE);
  if (room + CS_JSON_RAW_MARGIN <= (gsize) (w->buf + sizeof w->buf - p))
    return p;
  w->used = (gsize) (p - w->buf);
  cs_json_flush (w);
  return w->buf;
}

char *
cs_json_raw_begin (CsJsonWriter *w)
{
  return cs_json_raw_ensure (w, w->buf + w->used, 0);
}

void
cs_json_raw_end (CsJsonWriter *w, char *p)
{
  w->used = (gsize) (p - w->buf);
  w->first[w->depth] = FALSE;
  w->after_key = FALSE;
}

void
cs_json_raw_end_key (CsJsonWriter *w, char *p)
{
  cs_json_raw_end (w, p);
  w->after_key = TRUE;
}

char *
cs_json_raw_string (CsJsonWriter *w, char *p, const char *value)
{
  if (value == NULL)
    {
      memcpy (p, "null", 4);
      return p + 4;
    }
  return cs_json_raw_string_len (w, p, value, strlen (value));
}

char *
cs_json_raw_string_len (CsJsonWriter *w, char *p, const char *value, gsize len)
{
  if (len + 2 + CS_JSON_RAW_MARGIN <= sizeof w->buf)
    {
      p = cs_json_raw_ensure (w, p, len + 2);
      if (G_LIKELY (cs_json_copy_plain (p + 1, value, len)))
        {
          p[0] = '"';
          p[len + 1] = '"';
          return p + len + 2;
        }
    }
  /* to be escaped or repaired, or longer than the buffer: the usual way, after its key */
  cs_json_raw_end_key (w, p);
  cs_json_string (w, value);
  return cs_json_raw_begin (w);
}

char *
cs_json_raw_uint (char *p, guint64 value)
{
  char digits[24];
  char *end = digits + sizeof digits, *start;

  if (value < 10)
    {
      *p = (char) ('0' + value);
      return p + 1;
    }
  start = cs_decimal_digits_before (end, value, 1);
  cs_json_copy_short (p, start, (gsize) (end - start));
  return p + (end - start);
}

char *
cs_json_raw_double (char *p, double value, int decimals)
{
  if (!isfinite (value))
    {
      memcpy (p, "null", 4);
      return p + 4;
    }
  return p + cs_json_fixed (p, value, decimals);
}
