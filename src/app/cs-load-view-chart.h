/* cs-load-view-chart.h — one capture's load over time (and a second run on the same
 * axes): offered vs handled calls/s, concurrency, response-time percentiles,
 * retransmissions/timeouts/failures; breaking point, capacity; brushing */
#pragma once

#include <gtk/gtk.h>

#include "callscope-engine.h"

G_BEGIN_DECLS

#define CS_TYPE_LOAD_CHART (cs_load_chart_get_type ())
G_DECLARE_FINAL_TYPE (CsLoadChart, cs_load_chart, CS, LOAD_CHART, GtkWidget)

GtkWidget *cs_load_chart_new (void);
/* The chart borrows the report; it must outlive the chart's use of it (NULL clears). */
void cs_load_chart_set_report (CsLoadChart *self, const CsLoadReport *report);
/* A second run drawn on the same axes, dashed (NULL: none); borrowed as the report. */
void cs_load_chart_set_other (CsLoadChart *self, const CsLoadReport *other);
/* Shows a selected time range (from_ns == to_ns: none). */
void cs_load_chart_set_range (CsLoadChart *self, gint64 from_ns, gint64 to_ns);

/* Signal "range-selected" (gint64 from_ns, gint64 to_ns): the user dragged across a
 * time range (from == to == 0 when a click cleared it). */

/* The interval under widget x: [*from_ns, *to_ns); FALSE when there is none. */
gboolean cs_load_chart_interval_at (CsLoadChart *self, double x, gint64 *from_ns, gint64 *to_ns);
/* Signal "interval-activated" (gint64 from_ns, gint64 to_ns): a double click on an interval. */

G_END_DECLS
