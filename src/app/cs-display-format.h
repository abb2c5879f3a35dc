/* cs-display-format.h — how numbers, rates and times read in the window */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "1,234,567" with the locale's digit grouping. */
char *cs_display_format_count (guint64 value);
/* "950 packets/s", "12.5 k packets/s", "1.2 M packets/s". */
char *cs_display_format_rate (double packets_per_second);
/* "42% — 1.2 M packets/s"; the rate is left out while it is still 0. */
char *cs_display_format_progress (double fraction, double packets_per_second);
/* Seconds with millisecond precision: "12.345". */
char *cs_display_format_seconds (gint64 ns);
/* Local wall-clock time of a capture timestamp: "2024-05-01 13:02:11.123". */
char *cs_display_format_timestamp (gint64 ns);

G_END_DECLS
