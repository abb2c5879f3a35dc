/* cs-loadtest-series.c — exact percentiles and the breaking-point rule */
#include "cs-loadtest-series.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int
cs_load_compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

double
cs_load_quantile_sorted (const double *sorted, gsize n, double q)
{
  double position, fraction;
  gsize below;

  if (n == 0)
    return NAN;
  q = CLAMP (q, 0.0, 1.0);
  position = q * (double) (n - 1);
  below = (gsize) floor (position);
  if (below + 1 >= n)
    return sorted[n - 1];
  fraction = position - (double) below;
  return sorted[below] + fraction * (sorted[below + 1] - sorted[below]);
}

void
cs_load_percentiles_compute (double *values, gsize n, CsLoadPercentiles *out)
{
  double sum = 0;

  memset (out, 0, sizeof *out);
  out->n = n;
  if (n == 0)
    {
      out->min = out->mean = out->max = NAN;
      out->p50 = out->p90 = out->p99 = out->p999 = out->p9999 = NAN;
      return;
    }
  qsort (values, n, sizeof (double), cs_load_compare_double);
  for (gsize i = 0; i < n; i++)
    sum += values[i];
  out->min = values[0];
  out->max = values[n - 1];
  out->mean = sum / (double) n;
  out->p50 = cs_load_quantile_sorted (values, n, 0.50);
  out->p90 = cs_load_quantile_sorted (values, n, 0.90);
  out->p99 = cs_load_quantile_sorted (values, n, 0.99);
  out->p999 = cs_load_quantile_sorted (values, n, 0.999);
  out->p9999 = cs_load_quantile_sorted (values, n, 0.9999);
}

void
cs_load_departure_rule_init (CsLoadDepartureRule *rule, double floor_margin)
{
  rule->floor = floor_margin;
  rule->factor = 2.0;
  rule->min_baseline = 3;
  rule->stay_fraction = 0.8;
  rule->min_sustain = 2;
}

/* Inserts v into the sorted prefix sorted[0..n). */
static void
cs_load_sorted_insert (double *sorted, guint n, double v)
{
  guint low = 0, high = n;

  while (low < high)
    {
      guint mid = low + (high - low) / 2;
      if (sorted[mid] <= v)
        low = mid + 1;
      else
        high = mid;
    }
  memmove (sorted + low + 1, sorted + low, (n - low) * sizeof (double));
  sorted[low] = v;
}

/* Does the signal stay above threshold from index `from` on? */
static gboolean
cs_load_stays_out (const double *values, guint n, guint from, double threshold,
                   const CsLoadDepartureRule *rule, guint *out_count, guint *checked_count)
{
  guint out = 0, checked = 0;

  for (guint j = from; j < n; j++)
    {
      if (isnan (values[j]))
        continue;
      checked++;
      if (values[j] > threshold)
        out++;
    }
  *out_count = out;
  *checked_count = checked;
  return checked >= MAX (rule->min_sustain, 1)
         && (double) out >= rule->stay_fraction * (double) checked;
}

gboolean
cs_load_find_departure (const double *values, guint n, const CsLoadDepartureRule *rule,
                        CsLoadDeparture *out)
{
  g_autofree double *sorted = g_new (double, MAX (n, 1));
  guint n_sorted = 0;

  memset (out, 0, sizeof *out);
  for (guint i = 0; i < n; i++)
    {
      double p90, threshold;
      guint n_out, n_checked;

      if (isnan (values[i]))
        continue;
      if (n_sorted >= rule->min_baseline && n_sorted > 0)
        {
          p90 = cs_load_quantile_sorted (sorted, n_sorted, 0.90);
          threshold = MAX (p90 + rule->floor, rule->factor * p90);
          if (values[i] > threshold
              && cs_load_stays_out (values, n, i, threshold, rule, &n_out, &n_checked))
            {
              out->found = TRUE;
              out->index = i;
              out->value = values[i];
              out->baseline_p50 = cs_load_quantile_sorted (sorted, n_sorted, 0.50);
              out->baseline_p90 = p90;
              out->threshold = threshold;
              out->out = n_out;
              out->checked = n_checked;
              return TRUE;
            }
        }
      cs_load_sorted_insert (sorted, n_sorted++, values[i]);
    }
  return FALSE;
}
