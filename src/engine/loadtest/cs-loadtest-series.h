/* cs-loadtest-series.h — exact percentiles and the breaking-point rule, on plain series */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Summary of a set of durations (ms). Percentiles are exact: computed from every
 * value, linearly interpolated between the two closest ranks (Hyndman–Fan type 7,
 * the default of numpy, R and spreadsheets). All NAN when n == 0. */
typedef struct
{
  guint64 n;
  double min, mean, max;
  double p50, p90, p99, p999, p9999;
} CsLoadPercentiles;

/* Sorts values in place and summarises them. */
void cs_load_percentiles_compute (double *values, gsize n, CsLoadPercentiles *out);
/* The q-quantile (0..1) of sorted values, type 7; NAN when n == 0. */
double cs_load_quantile_sorted (const double *sorted, gsize n, double q);

/* How a signal's threshold is derived from its earlier baseline. */
typedef struct
{
  double floor;         /* absolute margin above the baseline's P90 */
  double factor;        /* the value must also exceed factor × baseline P90 */
  guint min_baseline;   /* intervals with data needed before a departure counts */
  double stay_fraction; /* share of later intervals with data that must stay out */
  guint min_sustain;    /* intervals with data from the departure on, at least */
} CsLoadDepartureRule;

void cs_load_departure_rule_init (CsLoadDepartureRule *rule, double floor);

typedef struct
{
  gboolean found;
  guint index;         /* first interval of the departure */
  double value;        /* the signal there */
  double baseline_p50; /* of the intervals before it */
  double baseline_p90;
  double threshold;
  guint out;     /* intervals from index on that are above the threshold */
  guint checked; /* intervals from index on that have data */
} CsLoadDeparture;

/* The breaking-point rule on one signal (NAN = no data in that interval): the first
 * interval i, preceded by at least min_baseline intervals with data, whose value
 * exceeds threshold(i) = max (P90 + floor, factor × P90) of the values before i,
 * and from which at least stay_fraction of the intervals with data (and no fewer
 * than min_sustain) stay above that same threshold. */
gboolean cs_load_find_departure (const double *values, guint n, const CsLoadDepartureRule *rule,
                                 CsLoadDeparture *out);

G_END_DECLS
