/* cs-limits.c — default caps and the "name=value,…" syntax to change them */
#include "cs-limits.h"

#include <string.h>

void
cs_limits_init_default (CsLimits *limits)
{
  limits->max_calls = CS_LIMITS_DEFAULT_MAX_CALLS;
  limits->max_messages_per_call = CS_LIMITS_DEFAULT_MAX_MESSAGES_PER_CALL;
  limits->max_streams = CS_LIMITS_DEFAULT_MAX_STREAMS;
  limits->max_ip_datagrams = CS_LIMITS_DEFAULT_MAX_IP_DATAGRAMS;
  limits->max_ip_bytes = CS_LIMITS_DEFAULT_MAX_IP_BYTES;
  limits->max_tcp_streams = CS_LIMITS_DEFAULT_MAX_TCP_STREAMS;
  limits->max_tcp_bytes_per_stream = CS_LIMITS_DEFAULT_MAX_TCP_BYTES_PER_STREAM;
  limits->max_orphan_messages = CS_LIMITS_DEFAULT_MAX_ORPHAN_MESSAGES;
  limits->max_method_names = CS_LIMITS_DEFAULT_MAX_METHOD_NAMES;
}

void
cs_limits_fill_defaults (CsLimits *limits)
{
  CsLimits d;

  cs_limits_init_default (&d);
#define CS_FILL(field)                                                                             \
  if (limits->field == 0)                                                                          \
  limits->field = d.field
  CS_FILL (max_calls);
  CS_FILL (max_messages_per_call);
  CS_FILL (max_streams);
  CS_FILL (max_ip_datagrams);
  CS_FILL (max_ip_bytes);
  CS_FILL (max_tcp_streams);
  CS_FILL (max_tcp_bytes_per_stream);
  CS_FILL (max_orphan_messages);
  CS_FILL (max_method_names);
#undef CS_FILL
}

/* "1500", "64k", "2M", "1G": a positive count. */
static gboolean
cs_limits_parse_value (const char *text, guint64 *out)
{
  char *end = NULL;
  guint64 value;

  if (text == NULL || !g_ascii_isdigit (*text))
    return FALSE;
  value = g_ascii_strtoull (text, &end, 10);
  switch (*end)
    {
    case 'k':
    case 'K':
      value *= 1024, end++;
      break;
    case 'm':
    case 'M':
      value *= 1024 * 1024, end++;
      break;
    case 'g':
    case 'G':
      value *= 1024 * 1024 * 1024, end++;
      break;
    default:
      break;
    }
  if (*end != '\0' || value == 0 || value > G_MAXUINT32)
    return FALSE;
  *out = value;
  return TRUE;
}

static gboolean
cs_limits_set_field (CsLimits *limits, const char *name, guint64 value)
{
  if (strcmp (name, "calls") == 0)
    limits->max_calls = (guint) value;
  else if (strcmp (name, "messages_per_call") == 0)
    limits->max_messages_per_call = (guint) value;
  else if (strcmp (name, "streams") == 0)
    limits->max_streams = (guint) value;
  else if (strcmp (name, "ip_datagrams") == 0)
    limits->max_ip_datagrams = (guint) value;
  else if (strcmp (name, "ip_bytes") == 0)
    limits->max_ip_bytes = (gsize) value;
  else if (strcmp (name, "tcp_streams") == 0)
    limits->max_tcp_streams = (guint) value;
  else if (strcmp (name, "tcp_bytes_per_stream") == 0)
    limits->max_tcp_bytes_per_stream = (gsize) value;
  else if (strcmp (name, "orphan_messages") == 0)
    limits->max_orphan_messages = (guint) value;
  else if (strcmp (name, "method_names") == 0)
    limits->max_method_names = (guint) value;
  else
    return FALSE;
  return TRUE;
}

gboolean
cs_limits_parse (CsLimits *limits, const char *spec, GError **error)
{
  CsLimits parsed = *limits;
  g_auto (GStrv) items = NULL;

  if (spec == NULL)
    return TRUE;
  items = g_strsplit (spec, ",", -1);
  for (guint i = 0; items[i] != NULL; i++)
    {
      char *item = g_strstrip (items[i]);
      g_autofree char *shown = g_strdup (item);
      char *eq = strchr (item, '=');
      guint64 value = 0;

      if (*item == '\0')
        continue;
      if (eq != NULL)
        *eq = '\0';
      if (eq == NULL || !cs_limits_parse_value (g_strstrip (eq + 1), &value)
          || !cs_limits_set_field (&parsed, g_strstrip (item), value))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "Bad limit “%s” (expected NAME=COUNT with NAME one of calls, "
                       "messages_per_call, streams, ip_datagrams, ip_bytes, tcp_streams, "
                       "tcp_bytes_per_stream, orphan_messages, method_names)",
                       shown);
          return FALSE;
        }
    }
  *limits = parsed;
  return TRUE;
}
