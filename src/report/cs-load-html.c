/* cs-load-html.c — the load report as HTML with inline SVG charts */
#include "cs-load-html.h"

#include <math.h>

#include "cs-config.h"
#include "cs-load-csv.h"
#include "cs-load-render.h"
#include "cs-report-html.h"
#include "cs-svg-inline.h"
#include "cs-time-format.h"

static void
cs_load_html_paint (cairo_t *cr, gpointer user_data)
{
  CsLoadPalette palette;

  cs_load_palette_default (&palette);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cs_load_render (cr, CS_LOAD_HTML_WIDTH, CS_LOAD_HTML_HEIGHT, user_data, &palette);
}

static void
cs_load_html_ms (FILE *out, double ms)
{
  if (isfinite (ms))
    fprintf (out, "<td class=\"num\">%.1f</td>", ms);
  else
    fputs ("<td class=\"num\">–</td>", out);
}

static void
cs_load_html_percentiles (FILE *out, const char *label, const char *leg, const CsLoadPercentiles *p)
{
  fputs ("<tr><td>", out);
  cs_html_text (out, label);
  fputs ("</td><td>", out);
  cs_html_text (out, leg);
  fprintf (out, "</td><td class=\"num\">%" G_GUINT64_FORMAT "</td>", p->n);
  cs_load_html_ms (out, p->p50);
  cs_load_html_ms (out, p->p90);
  cs_load_html_ms (out, p->p99);
  cs_load_html_ms (out, p->p999);
  cs_load_html_ms (out, p->max);
  fputs ("</tr>\n", out);
}

static void
cs_load_html_run (FILE *out, const CsLoadReport *r, const char *name)
{
  const CsLoadTotals *t = &r->totals;
  g_autofree char *headline = cs_load_headline (r);
  GHashTableIter iter;
  gpointer key, value;

  fputs ("<section><h2>", out);
  cs_html_text (out, name);
  fputs ("</h2><p>", out);
  cs_html_text (out, headline);
  fputs ("</p>\n", out);
  if (r->breaking_point.found)
    {
      fputs ("<p><b>Breaking point.</b> ", out);
      cs_html_text (out, r->breaking_point.reason);
      fputs ("</p>\n", out);
    }
  fprintf (out,
           "<table class=\"facts\"><tr><td>Calls</td><td>%" G_GUINT64_FORMAT
           " started, %" G_GUINT64_FORMAT " answered, %" G_GUINT64_FORMAT
           " completed, %" G_GUINT64_FORMAT " failed, %" G_GUINT64_FORMAT
           " cancelled, %" G_GUINT64_FORMAT " dropped; peak %u concurrent; %" G_GUINT64_FORMAT
           " through a proxy</td></tr>"
           "<tr><td>Messages</td><td>%" G_GUINT64_FORMAT " on the wire, %" G_GUINT64_FORMAT
           " retransmissions, %" G_GUINT64_FORMAT " timeouts</td></tr>",
           t->calls, t->answered, t->completed, t->failed, t->cancelled, t->dropped,
           t->peak_concurrent, t->proxied, t->messages, t->retransmissions, t->timeouts);
  if (t->failed_by_reason != NULL)
    {
      fputs ("<tr><td>Not completed</td><td>", out);
      g_hash_table_iter_init (&iter, t->failed_by_reason);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          cs_html_text (out, key);
          fprintf (out, ": %u; ", GPOINTER_TO_UINT (value));
        }
      fputs ("</td></tr>", out);
    }
  fputs ("</table>\n<h3>Response times (ms)</h3><table><tr><th>Figure</th><th>Leg</th>"
         "<th class=\"num\">n</th><th class=\"num\">p50</th><th class=\"num\">p90</th>"
         "<th class=\"num\">p99</th><th class=\"num\">p99.9</th><th class=\"num\">max</th></tr>\n",
         out);
  cs_load_html_percentiles (out, "INVITE → 100 Trying", "client (the proxy's answer)",
                            &r->response_times[CS_LOAD_RT_INVITE_PROVISIONAL]);
  cs_load_html_percentiles (out, "INVITE → 180", "client",
                            &r->response_times[CS_LOAD_RT_INVITE_18X]);
  cs_load_html_percentiles (out, "INVITE → 200 (end to end)", "client",
                            &r->response_times[CS_LOAD_RT_INVITE_2XX]);
  cs_load_html_percentiles (out, "BYE → 200", "client", &r->response_times[CS_LOAD_RT_BYE_2XX]);
  if (r->proxied)
    {
      cs_load_html_percentiles (out, "Forwarding delay (INVITE in → out)", "proxy",
                                &r->forwarding_ms);
      cs_load_html_percentiles (out, "INVITE → 200", "server",
                                &r->server_response_times[CS_LOAD_RT_INVITE_2XX]);
    }
  fputs ("</table>\n", out);
}

static void
cs_load_html_intervals (FILE *out, const CsLoadReport *r)
{
  fputs ("<h3>Intervals</h3><table><tr><th class=\"num\">start (s)</th>"
         "<th class=\"num\">offered/s</th><th class=\"num\">handled/s</th>"
         "<th class=\"num\">concurrent</th><th class=\"num\">200 p50</th>"
         "<th class=\"num\">200 p99</th><th class=\"num\">100 p99</th>"
         "<th class=\"num\">resent</th><th class=\"num\">timeouts</th><th>symptoms</th></tr>\n",
         out);
  for (guint i = 0; i < r->intervals->len; i++)
    {
      const CsLoadInterval *iv = &g_array_index (r->intervals, CsLoadInterval, i);
      g_autofree char *symptoms = cs_load_symptoms_keys (iv->symptoms);
      gboolean broke = r->breaking_point.found && r->breaking_point.interval == i;

      fprintf (out,
               "<tr%s><td class=\"num\">%.3f</td><td class=\"num\">%.0f</td>"
               "<td class=\"num\">%.0f</td><td class=\"num\">%u</td>",
               broke ? " class=\"bad\"" : "", (double) (iv->start_ns - r->origin_ns) / 1e9,
               cs_load_report_rate (r, i, iv->calls_started),
               cs_load_report_rate (r, i, iv->handled), iv->concurrent);
      cs_load_html_ms (out, iv->curves[CS_LOAD_CURVE_ANSWER].p50);
      cs_load_html_ms (out, iv->curves[CS_LOAD_CURVE_ANSWER].p99);
      cs_load_html_ms (out, iv->curves[CS_LOAD_CURVE_TRYING].p99);
      fprintf (out, "<td class=\"num\">%u</td><td class=\"num\">%u</td><td>%s%s</td></tr>\n",
               iv->retransmissions, iv->timeouts, symptoms, broke ? " ← breaking point" : "");
    }
  fputs ("</table>\n", out);
}

gboolean
cs_load_html_write (const CsLoadReport *report, const char *name, const CsLoadReport *other,
                    const char *other_name, FILE *out)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *generated = g_date_time_format (now, "%Y-%m-%d %H:%M");
  CsLoadScene scene = { report, other, "A", "B", 0, 0, -1, -1 };
  char *svg;

  fputs ("<!DOCTYPE html>\n<html lang=\"en\" xmlns=\"http://www.w3.org/1999/xhtml\"><head>"
         "<meta charset=\"utf-8\"/>"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>",
         out);
  fprintf (out, "<meta name=\"generator\" content=\"callscope %s\"/><title>Load report: ",
           PACKAGE_VERSION);
  cs_html_text (out, name);
  fprintf (out,
           "</title><style>%s</style></head>\n<body>\n<header><h1>Load report: ", cs_report_css);
  cs_html_text (out, name);
  fprintf (out, "</h1><p class=\"meta\">generated %s by callscope %s</p></header>\n", generated,
           PACKAGE_VERSION);
  if (other != NULL)
    {
      g_autofree char *verdict = cs_load_compare_verdict (report, other, "run A", "run B");

      fputs ("<section><h2>Verdict</h2><p><b>", out);
      cs_html_text (out, verdict);
      fputs ("</b></p><p class=\"meta\">run A: ", out);
      cs_html_text (out, name);
      fputs (" · run B: ", out);
      cs_html_text (out, other_name != NULL ? other_name : "");
      fputs ("</p></section>\n", out);
    }
  fputs ("<section><h2>The run</h2>", out);
  svg = cs_svg_inline_render (CS_LOAD_HTML_WIDTH, CS_LOAD_HTML_HEIGHT, "load", cs_load_html_paint,
                              &scene);
  if (svg != NULL)
    {
      fputs ("<div class=\"figure\">", out);
      fputs (svg, out);
      fputs ("</div>\n", out);
      g_free (svg);
    }
  fputs ("</section>\n", out);
  cs_load_html_run (out, report, other != NULL ? "Run A" : name);
  cs_load_html_intervals (out, report);
  fputs ("</section>\n", out);
  if (other != NULL)
    {
      cs_load_html_run (out, other, "Run B");
      cs_load_html_intervals (out, other);
      fputs ("</section>\n", out);
    }
  fputs ("</body></html>\n", out);
  return !ferror (out);
}
