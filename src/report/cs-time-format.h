/* cs-time-format.h — capture timestamps as text */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "2026-11-29T19:39:18.123456Z" (UTC, microseconds) */
char *cs_time_format_iso (gint64 ts_ns);

G_END_DECLS
