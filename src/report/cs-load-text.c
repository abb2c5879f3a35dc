/* cs-load-text.c — one-line summaries of load runs */
#include "cs-load-text.h"

#include <math.h>
#include <string.h>

double
cs_load_peak_offered (const CsLoadReport *report)
{
  double peak = 0;

  for (guint i = 0; i < report->intervals->len; i++)
    peak = MAX (peak,
                cs_load_report_rate (
                    report, i, g_array_index (report->intervals, CsLoadInterval, i).calls_started));
  return peak;
}

char *
cs_load_format_thousands (double value)
{
  g_autofree char *digits = g_strdup_printf ("%.0f", fabs (round (value)));
  GString *out = g_string_new (value < 0 && round (value) != 0 ? "-" : "");
  gsize n = strlen (digits);

  for (gsize i = 0; i < n; i++)
    {
      if (i > 0 && (n - i) % 3 == 0)
        g_string_append_c (out, ',');
      g_string_append_c (out, digits[i]);
    }
  return g_string_free (out, FALSE);
}

char *
cs_load_headline (const CsLoadReport *report)
{
  const CsLoadBreakingPoint *bp = &report->breaking_point;
  g_autofree char *peak = cs_load_format_thousands (cs_load_peak_offered (report));
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, "Peak %s calls/s offered in %.3g s intervals", peak,
                          report->interval_s);
  if (bp->found)
    {
      g_autofree char *offered = cs_load_format_thousands (bp->offered_cps);
      g_autofree char *handled = cs_load_format_thousands (bp->handled_cps);

      g_string_append_printf (text,
                              " · breaks at %.0f s at %s calls/s offered, %s handled, %u "
                              "concurrent",
                              bp->offset_s, offered, handled, bp->concurrent);
      if (bp->has_symptom)
        g_string_append_printf (text, " (first: %s)", cs_load_symptom_label (bp->first_symptom));
    }
  else
    g_string_append (text, " · no breaking point");
  if (report->capacity_found)
    {
      g_autofree char *capacity = cs_load_format_thousands (report->capacity_cps);
      g_string_append_printf (text, " · capacity %s calls/s%s", capacity,
                              bp->found ? "" : " or more");
    }
  return g_string_free (text, FALSE);
}

char *
cs_load_compare_verdict (const CsLoadReport *a, const CsLoadReport *b, const char *name_a,
                         const char *name_b)
{
  const CsLoadBreakingPoint *pa = &a->breaking_point, *pb = &b->breaking_point;
  g_autofree char *ra
      = cs_load_format_thousands (pa->found ? pa->offered_cps : cs_load_peak_offered (a));
  g_autofree char *rb
      = cs_load_format_thousands (pb->found ? pb->offered_cps : cs_load_peak_offered (b));
  double percent;

  if (!pa->found && !pb->found)
    return g_strdup_printf ("neither run breaks: %s peaks at %s cps, %s at %s cps", name_b, rb,
                            name_a, ra);
  if (!pb->found)
    return g_strdup_printf ("%s does not break (peak %s cps); %s breaks at %s cps", name_b, rb,
                            name_a, ra);
  if (!pa->found)
    return g_strdup_printf ("%s breaks at %s cps; %s does not break (peak %s cps)", name_b, rb,
                            name_a, ra);
  if (!(pa->offered_cps > 0))
    return g_strdup_printf ("%s breaks at %s cps, %s at %s cps", name_b, rb, name_a, ra);
  percent = 100.0 * (pb->offered_cps - pa->offered_cps) / pa->offered_cps;
  if (fabs (percent) < 0.5)
    return g_strdup_printf ("%s breaks at %s cps, as %s does", name_b, rb, name_a);
  return g_strdup_printf ("%s breaks at %s cps, %.0f%% %s %s's %s cps", name_b, rb, fabs (percent),
                          percent < 0 ? "below" : "above", name_a, ra);
}
