/* cs-display-format.c — how numbers, rates and times read in the window */
#include "cs-display-format.h"

#include <glib/gi18n.h>

char *
cs_display_format_count (guint64 value)
{
  /* The ' flag groups digits as the locale does (1,234 / 1.234). */
  return g_strdup_printf ("%'" G_GUINT64_FORMAT, value);
}

char *
cs_display_format_rate (double packets_per_second)
{
  if (packets_per_second >= 1e6)
    /* TRANSLATORS: a rate in millions of packets per second */
    return g_strdup_printf (_ ("%.1f M packets/s"), packets_per_second / 1e6);
  if (packets_per_second >= 1e4)
    /* TRANSLATORS: a rate in thousands of packets per second */
    return g_strdup_printf (_ ("%.1f k packets/s"), packets_per_second / 1e3);
  return g_strdup_printf (_ ("%.0f packets/s"), packets_per_second);
}

char *
cs_display_format_progress (double fraction, double packets_per_second)
{
  int percent = (int) (CLAMP (fraction, 0.0, 1.0) * 100.0);
  g_autofree char *rate = NULL;

  if (packets_per_second <= 0.0)
    /* TRANSLATORS: load progress, e.g. "42%" */
    return g_strdup_printf (_ ("%d%%"), percent);
  rate = cs_display_format_rate (packets_per_second);
  /* TRANSLATORS: load progress and speed, e.g. "42% — 1.2 M packets/s" */
  return g_strdup_printf (_ ("%d%% — %s"), percent, rate);
}

char *
cs_display_format_seconds (gint64 ns)
{
  return g_strdup_printf ("%.3f", (double) ns / 1e9);
}

char *
cs_display_format_timestamp (gint64 ns)
{
  g_autoptr (GDateTime) utc = NULL;
  g_autoptr (GDateTime) local = NULL;
  g_autofree char *date = NULL;
  gint64 seconds = ns / 1000000000;
  int millis = (int) ((ns % 1000000000) / 1000000);

  if (ns % 1000000000 < 0)
    {
      seconds -= 1;
      millis += 1000;
    }
  utc = g_date_time_new_from_unix_utc (seconds);
  if (utc == NULL)
    return g_strdup ("—");
  local = g_date_time_to_local (utc);
  date = g_date_time_format (local, "%Y-%m-%d %H:%M:%S");
  return g_strdup_printf ("%s.%03d", date, millis);
}
