/* cs-time-format.c — capture timestamps as text */
#include "cs-time-format.h"

char *
cs_time_format_iso (gint64 ts_ns)
{
  gint64 seconds = ts_ns >= 0 ? ts_ns / 1000000000 : -((-ts_ns + 999999999) / 1000000000);
  gint64 micros = (ts_ns - seconds * 1000000000) / 1000;
  g_autoptr (GDateTime) dt = g_date_time_new_from_unix_utc (seconds);

  if (dt == NULL)
    return g_strdup ("?");
  return g_strdup_printf ("%04d-%02d-%02dT%02d:%02d:%02d.%06" G_GINT64_FORMAT "Z",
                          g_date_time_get_year (dt), g_date_time_get_month (dt),
                          g_date_time_get_day_of_month (dt), g_date_time_get_hour (dt),
                          g_date_time_get_minute (dt), g_date_time_get_second (dt), micros);
}
