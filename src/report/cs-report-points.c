/* cs-report-points.c — capture points: offsets, spreads, hops and their one-way delays */
#include "cs-report-points.h"

static double
cs_points_ms (gint64 ns)
{
  return (double) ns / 1e6;
}

static const char *
cs_points_file_name (CsAnalysis *analysis, guint file)
{
  return cs_capture_get_path (
      cs_capture_set_get_file (cs_analysis_get_capture_set (analysis), file));
}

void
cs_report_json_points (CsJsonWriter *w, CsAnalysis *analysis)
{
  const CsPointClock *clock = cs_analysis_get_point_clock (analysis);

  if (clock == NULL)
    return;
  CS_JSON_KEY (w, "points");
  cs_json_begin_object (w);
  CS_JSON_KEY (w, "files");
  cs_json_begin_array (w);
  for (guint f = 0; f < clock->n_points; f++)
    {
      cs_json_begin_object (w);
      CS_JSON_KEY_UINT (w, "point", f + 1);
      CS_JSON_KEY_STRING (w, "file", cs_points_file_name (analysis, f));
      CS_JSON_KEY_UINT (w, "reference", clock->reference[f] + 1);
      CS_JSON_KEY_DOUBLE (w, "offset_ms", cs_points_ms (clock->offset_ns[f]), 3);
      CS_JSON_KEY_DOUBLE (w, "spread_ms", cs_points_ms (clock->spread_ns[f]), 3);
      CS_JSON_KEY_UINT (w, "sip_datagrams", clock->n_messages[f]);
      cs_json_end_object (w);
    }
  cs_json_end_array (w);
  CS_JSON_KEY (w, "hops");
  cs_json_begin_array (w);
  for (guint i = 0; i < clock->links->len; i++)
    {
      const CsPointLink *link = &g_array_index (clock->links, CsPointLink, i);
      char x[CS_ENDPOINT_STRLEN], y[CS_ENDPOINT_STRLEN];

      cs_json_begin_object (w);
      CS_JSON_KEY_UINT (w, "point_a", link->a + 1);
      CS_JSON_KEY_UINT (w, "point_b", link->b + 1);
      CS_JSON_KEY_STRING (w, "x", cs_endpoint_to_string (&link->x, x));
      CS_JSON_KEY_STRING (w, "y", cs_endpoint_to_string (&link->y, y));
      CS_JSON_KEY_UINT (w, "copies_x_to_y", link->n_forward);
      CS_JSON_KEY_UINT (w, "copies_y_to_x", link->n_backward);
      CS_JSON_KEY_DOUBLE (w, "offset_ms", cs_points_ms (link->offset_ns), 3);
      CS_JSON_KEY (w, "one_way_ms");
      if (link->both_directions)
        cs_json_double (w, cs_points_ms (link->one_way_ns), 3);
      else
        cs_json_null (w);
      CS_JSON_KEY_DOUBLE (w, "spread_ms", cs_points_ms (link->spread_ns), 3);
      cs_json_end_object (w);
    }
  cs_json_end_array (w);
  cs_json_end_object (w);
}

void
cs_report_text_points (CsAnalysis *analysis, FILE *out)
{
  const CsPointClock *clock = cs_analysis_get_point_clock (analysis);

  if (clock == NULL)
    return;
  fputs ("\nCapture points\n", out);
  for (guint f = 0; f < clock->n_points; f++)
    {
      if (clock->reference[f] == f && f != 0 && clock->offset_ns[f] == 0)
        fprintf (out, "  %u  %s  no SIP message in common with another point\n", f + 1,
                 cs_points_file_name (analysis, f));
      else
        fprintf (out, "  %u  %s  clock %+.3f ms against point %u (spread %.3f ms)\n", f + 1,
                 cs_points_file_name (analysis, f), cs_points_ms (clock->offset_ns[f]),
                 clock->reference[f] + 1, cs_points_ms (clock->spread_ns[f]));
    }
  for (guint i = 0; i < clock->links->len; i++)
    {
      const CsPointLink *link = &g_array_index (clock->links, CsPointLink, i);
      char x[CS_ENDPOINT_STRLEN], y[CS_ENDPOINT_STRLEN];

      fprintf (out, "  hop %s — %s seen at points %u and %u: %u + %u messages, ",
               cs_endpoint_to_string (&link->x, x), cs_endpoint_to_string (&link->y, y),
               link->a + 1, link->b + 1, link->n_forward, link->n_backward);
      if (link->both_directions)
        fprintf (out, "one-way %.3f ms from point %u to %u for %s → %s\n",
                 cs_points_ms (ABS (link->one_way_ns)),
                 link->one_way_ns >= 0 ? link->a + 1 : link->b + 1,
                 link->one_way_ns >= 0 ? link->b + 1 : link->a + 1, x, y);
      else
        fputs ("one direction only (the offset includes the one-way delay)\n", out);
    }
}
