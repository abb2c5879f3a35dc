/* cs-time-format.h — capture timestamps as text */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Room for cs_time_format_iso_into's text and its NUL. */
#define CS_TIME_ISO_BUF_SIZE 32

/* "2026-11-29T19:39:18.123456Z" (UTC, microseconds); "?" outside years 1..9999 */
char *cs_time_format_iso (gint64 ts_ns);
/* The same text written into buf (CS_TIME_ISO_BUF_SIZE bytes); returns its length. */
gsize cs_time_format_iso_into (gint64 ts_ns, char *buf);

G_END_DECLS
