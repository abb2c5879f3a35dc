/* cs-time-format.c — capture timestamps as text */
#include "cs-time-format.h"

#include <string.h>

#include "callscope-engine.h"

#define CS_SECONDS_PER_DAY 86400
#define CS_DATE_LEN 10 /* YYYY-MM-DD */
/* 9999-12-31T23:59:59Z: the last second GDateTime can represent */
#define CS_LAST_FAST_SECOND G_GINT64_CONSTANT (253402300799)

/* GDateTime for what the fast path does not cover (before 1970, after 9999). */
static gsize
cs_time_format_gdatetime (gint64 seconds, gint64 micros, char *buf)
{
  g_autoptr (GDateTime) dt = g_date_time_new_from_unix_utc (seconds);

  if (dt == NULL)
    return g_strlcpy (buf, "?", CS_TIME_ISO_BUF_SIZE);
  return (gsize) g_snprintf (
      buf, CS_TIME_ISO_BUF_SIZE, "%04d-%02d-%02dT%02d:%02d:%02d.%06" G_GINT64_FORMAT "Z",
      g_date_time_get_year (dt), g_date_time_get_month (dt), g_date_time_get_day_of_month (dt),
      g_date_time_get_hour (dt), g_date_time_get_minute (dt), g_date_time_get_second (dt), micros);
}

static inline char *
cs_put_pair (char *p, guint value)
{
  memcpy (p, cs_decimal_pairs + 2 * value, 2);
  return p + 2;
}

/* "YYYY-MM-DD" of a day counted from 1970-01-01 (proleptic Gregorian calendar, from
 * the day count in 400-year eras starting 0000-03-01, so the leap day ends each year). */
static void
cs_time_format_date (guint day_number, char *out)
{
  guint days = day_number + 719468;
  guint era = days / 146097;
  guint day_of_era = days - era * 146097;
  guint year_of_era
      = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  guint day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  guint mp = (5 * day_of_year + 2) / 153;
  guint day = day_of_year - (153 * mp + 2) / 5 + 1;
  guint month = mp < 10 ? mp + 3 : mp - 9;
  guint year = year_of_era + era * 400 + (month <= 2);
  char *p = out;

  p = cs_put_pair (p, year / 100);
  p = cs_put_pair (p, year % 100);
  *p++ = '-';
  p = cs_put_pair (p, month);
  *p++ = '-';
  cs_put_pair (p, day);
}

gsize
cs_time_format_iso_into (gint64 ts_ns, char *buf)
{
  /* the date of the previous call: reports list many times of the same day */
  static _Thread_local guint cached_day = G_MAXUINT;
  static _Thread_local char cached_date[CS_DATE_LEN];
  /* floor division, defined for every gint64 (negation is not) */
  gint64 seconds = ts_ns / 1000000000 - (ts_ns % 1000000000 < 0);
  gint64 micros = (ts_ns % 1000000000 + (ts_ns % 1000000000 < 0 ? 1000000000 : 0)) / 1000;
  guint day, second_of_day;
  char *p = buf;

  if (seconds < 0 || seconds > CS_LAST_FAST_SECOND)
    return cs_time_format_gdatetime (seconds, micros, buf);
  day = (guint) (seconds / CS_SECONDS_PER_DAY);
  second_of_day = (guint) (seconds % CS_SECONDS_PER_DAY);
  if (day != cached_day)
    {
      cs_time_format_date (day, cached_date);
      cached_day = day;
    }
  memcpy (p, cached_date, CS_DATE_LEN);
  p += CS_DATE_LEN;
  *p++ = 'T';
  p = cs_put_pair (p, second_of_day / 3600);
  *p++ = ':';
  p = cs_put_pair (p, second_of_day / 60 % 60);
  *p++ = ':';
  p = cs_put_pair (p, second_of_day % 60);
  *p++ = '.';
  p = cs_put_pair (p, (guint) micros / 10000);
  p = cs_put_pair (p, (guint) micros / 100 % 100);
  p = cs_put_pair (p, (guint) micros % 100);
  *p++ = 'Z';
  *p = '\0';
  return (gsize) (p - buf);
}

char *
cs_time_format_iso (gint64 ts_ns)
{
  char buf[CS_TIME_ISO_BUF_SIZE];
  gsize len = cs_time_format_iso_into (ts_ns, buf);

  return g_strndup (buf, len);
}
