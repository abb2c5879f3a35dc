/* cs-cli-loadtest.c — loadtest: per-interval load statistics and the breaking point */
#include <glib.h>
#include <math.h>

#include "cs-cli-commands.h"
#include "cs-cli-common.h"
#include "cs-json-writer.h"
#include "callscope-engine.h"
#include "cs-cli-loadtest.h"
#include "cs-load-csv.h"
#include "cs-load-text.h"
#ifdef CS_CLI_RENDER
#include "cs-load-html.h"
#endif
#include "cs-report.h"
#include "cs-time-format.h"

static double
cs_cli_load_offset_s (const CsLoadReport *report, gint64 ts_ns)
{
  return (double) (ts_ns - report->origin_ns) / 1e9;
}

static void
cs_cli_load_text_ms (FILE *out, double value)
{
  if (isfinite (value))
    fprintf (out, " %9.3f", value);
  else
    fprintf (out, " %9s", "-");
}

static void
cs_cli_load_text_percentiles (FILE *out, const char *label, const CsLoadPercentiles *p)
{
  fprintf (out, "%-30s %7" G_GUINT64_FORMAT, label, p->n);
  cs_cli_load_text_ms (out, p->min);
  cs_cli_load_text_ms (out, p->mean);
  cs_cli_load_text_ms (out, p->p50);
  cs_cli_load_text_ms (out, p->p90);
  cs_cli_load_text_ms (out, p->p99);
  cs_cli_load_text_ms (out, p->p999);
  cs_cli_load_text_ms (out, p->p9999);
  cs_cli_load_text_ms (out, p->max);
  fputc ('\n', out);
}

/* Peak offered rate, the breaking point's circumstances, the capacity estimate. */
static void
cs_cli_load_text_story (const CsLoadReport *report, FILE *out)
{
  const CsLoadBreakingPoint *bp = &report->breaking_point;
  double peak = 0;

  for (guint i = 0; i < report->intervals->len; i++)
    peak = MAX (peak,
                cs_load_report_rate (
                    report, i, g_array_index (report->intervals, CsLoadInterval, i).calls_started));
  fprintf (out,
           "Offered: peak %.0f calls/s; handled (server leg): %" G_GUINT64_FORMAT
           " final answers; completed %" G_GUINT64_FORMAT ", dropped %" G_GUINT64_FORMAT
           "; %" G_GUINT64_FORMAT " calls through a proxy\n",
           peak, report->totals.handled, report->totals.completed, report->totals.dropped,
           report->totals.proxied);
  if (report->totals.failed_by_reason != NULL)
    {
      /* in the order of the reasons, so that two runs print the same line */
      g_autoptr (GList) reasons = g_hash_table_get_keys (report->totals.failed_by_reason);

      fprintf (out, "Not completed:");
      reasons = g_list_sort (reasons, (GCompareFunc) g_strcmp0);
      for (GList *l = reasons; l != NULL; l = l->next)
        {
          g_autofree char *owned = NULL;
          gpointer count = g_hash_table_lookup (report->totals.failed_by_reason, l->data);

          /* the reason phrase is the capture's */
          fprintf (out, " %s × %u;", cs_text_inert (l->data, &owned), GPOINTER_TO_UINT (count));
        }
      fputc ('\n', out);
    }
  if (bp->found)
    {
      fprintf (out,
               "Breaking point: interval %u at %.3f s (%s), offered %.0f calls/s, handled %.0f "
               "calls/s, %u concurrent",
               bp->interval, bp->offset_s, cs_load_signal_key (bp->signal), bp->offered_cps,
               bp->handled_cps, bp->concurrent);
      if (bp->has_symptom)
        fprintf (out, ", first symptom: %s", cs_load_symptom_label (bp->first_symptom));
      fprintf (out, ": %s\n", bp->reason);
    }
  else
    fprintf (out, "Breaking point: none\n");
  if (report->capacity_found)
    fprintf (
        out, "Capacity: %.0f calls/s sustained with no symptom for %u intervals from %.3f s%s\n",
        report->capacity_cps, report->capacity_window,
        cs_cli_load_offset_s (
            report,
            g_array_index (report->intervals, CsLoadInterval, report->capacity_interval).start_ns),
        bp->found ? "" : " (not reached: the run never broke)");
  else
    fprintf (out, "Capacity: no %u symptom-free intervals in a row\n", report->capacity_window);
}

static gboolean
cs_cli_load_write_text (const CsLoadReport *report, FILE *out)
{
  const CsLoadTotals *t = &report->totals;
  g_autoptr (GString) codes = g_string_new (NULL);
  GHashTableIter iter;
  gpointer key, value;
  char buf[CS_ENDPOINT_STRLEN];

  g_hash_table_iter_init (&iter, t->failed_by_code);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_string_append_printf (codes, "%s%u: %u", codes->len > 0 ? ", " : " (", GPOINTER_TO_UINT (key),
                            GPOINTER_TO_UINT (value));
  if (codes->len > 0)
    g_string_append_c (codes, ')');
  fprintf (out, "Load test: %u intervals of %.3f s, transaction timeout %.0f s\n",
           report->intervals->len, report->interval_s, report->transaction_timeout_s);
  fprintf (out,
           "Calls: %" G_GUINT64_FORMAT " started, %" G_GUINT64_FORMAT
           " answered, %" G_GUINT64_FORMAT " failed%s, %" G_GUINT64_FORMAT
           " cancelled, %" G_GUINT64_FORMAT " unfinished; peak %u concurrent\n",
           t->calls, t->answered, t->failed, codes->str, t->cancelled, t->unfinished,
           t->peak_concurrent);
  fprintf (out,
           "SIP: %" G_GUINT64_FORMAT " messages, %" G_GUINT64_FORMAT
           " retransmissions, %" G_GUINT64_FORMAT " transactions, %" G_GUINT64_FORMAT
           " timeouts; RTP: %" G_GUINT64_FORMAT " packets\n",
           t->messages, t->retransmissions, t->transactions, t->timeouts, t->rtp_packets);
  cs_cli_load_text_story (report, out);

  fprintf (out, "\n%-30s %7s %9s %9s %9s %9s %9s %9s %9s %9s\n", "Response times (ms)", "n", "min",
           "mean", "p50", "p90", "p99", "p99.9", "p99.99", "max");
  for (guint k = 0; k < CS_LOAD_RT_N; k++)
    {
      g_autofree char *label = g_strdup_printf ("%s%s", cs_load_response_kind_label (k),
                                                report->proxied ? " (client leg)" : "");
      cs_cli_load_text_percentiles (out, label, &report->response_times[k]);
    }
  if (report->proxied)
    {
      for (guint k = 0; k < CS_LOAD_RT_N; k++)
        {
          g_autofree char *label
              = g_strdup_printf ("%s (server leg)", cs_load_response_kind_label (k));
          cs_cli_load_text_percentiles (out, label, &report->server_response_times[k]);
        }
      cs_cli_load_text_percentiles (out, "Proxy forwarding", &report->forwarding_ms);
    }

  fprintf (out, "\n%10s %6s %7s %8s %6s %9s %10s %8s %7s %8s %7s %9s %9s  %s\n", "start (s)",
           "calls", "handled", "answered", "failed", "cancelled", "concurrent", "messages",
           "retrans", "timeouts", "rtp", "p99 (ms)", "100 p99", "symptoms");
  for (guint i = 0; i < report->intervals->len; i++)
    {
      const CsLoadInterval *iv = &g_array_index (report->intervals, CsLoadInterval, i);
      g_autofree char *symptoms = cs_load_symptoms_keys (iv->symptoms);

      fprintf (out, "%10.3f %6u %7u %8u %6u %9u %10u %8u %7u %8u %7" G_GUINT64_FORMAT,
               cs_cli_load_offset_s (report, iv->start_ns), iv->calls_started, iv->handled,
               iv->answered, iv->failed, iv->cancelled, iv->concurrent, iv->messages,
               iv->retransmissions, iv->timeouts, iv->rtp_packets);
      cs_cli_load_text_ms (out, iv->signals[CS_LOAD_SIGNAL_P99]);
      cs_cli_load_text_ms (out, iv->curves[CS_LOAD_CURVE_TRYING].p99);
      fprintf (out, "  %s%s\n", symptoms,
               report->breaking_point.found && report->breaking_point.interval == i
                   ? "  ← breaking point"
                   : "");
    }

  fprintf (out, "\n%-28s %8s %8s %6s %8s %7s %9s %9s\n", "Endpoint (requests to)", "requests",
           "answered", "failed", "timeouts", "retrans", "p50 (ms)", "p99 (ms)");
  for (guint i = 0; i < report->endpoints->len; i++)
    {
      const CsLoadEndpoint *e = g_ptr_array_index (report->endpoints, i);
      fprintf (out,
               "%-28s %8" G_GUINT64_FORMAT " %8" G_GUINT64_FORMAT " %6" G_GUINT64_FORMAT
               " %8" G_GUINT64_FORMAT " %7" G_GUINT64_FORMAT,
               cs_endpoint_to_string (&e->endpoint, buf), e->requests, e->answered, e->failed,
               e->timeouts, e->retransmissions);
      cs_cli_load_text_ms (out, e->final_ms.p50);
      cs_cli_load_text_ms (out, e->final_ms.p99);
      fputc ('\n', out);
    }

  fprintf (out, "\n%7s %8s %6s %9s  %s\n", "calls", "answered", "failed", "p50 setup", "flow");
  for (guint i = 0; i < report->patterns->len; i++)
    {
      const CsLoadPattern *p = g_ptr_array_index (report->patterns, i);
      fprintf (out, "%7" G_GUINT64_FORMAT " %8" G_GUINT64_FORMAT " %6" G_GUINT64_FORMAT, p->calls,
               p->answered, p->failed);
      g_autofree char *owned = NULL;

      cs_cli_load_text_ms (out, p->setup_ms.p50);
      fprintf (out, "  %s\n", cs_text_inert (p->pattern, &owned));
    }
  return !ferror (out);
}

int
cs_cli_cmd_loadtest (int argc, char **argv)
{
  CsCliOptions opts = { 0 };
  CsLoadConfig config;
  double interval_s = 1.0, timeout_s = 32.0;
  g_autofree char *sipp_stat = NULL, *compare = NULL;
  g_autoptr (CsAnalysis) other_analysis = NULL;
  g_autoptr (CsLoadReport) other = NULL;
  g_autoptr (GArray) edges = NULL;
  CsReportFormat format = CS_REPORT_FORMAT_TEXT;
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (CsLoadReport) report = NULL;
  int status = CS_EXIT_OK;
  gboolean written = FALSE;
  FILE *out;
  GOptionEntry extra[] = {
    { "interval", 'i', 0, G_OPTION_ARG_DOUBLE, &interval_s, "Interval length (default 1)", "S" },
    { "timeout", 0, 0, G_OPTION_ARG_DOUBLE, &timeout_s,
      "Transaction timeout, Timer B/F (default 32)", "S" },
    { "sipp-stat", 0, 0, G_OPTION_ARG_FILENAME, &sipp_stat,
      "Intervals = the periods of this SIPp -trace_stat file", "FILE" },
    { "compare", 0, 0, G_OPTION_ARG_FILENAME, &compare,
      "A second run (capture) to compare with: verdict, both on the same axes", "FILE2" },
    { NULL },
  };

  if (!cs_cli_parse (argc, argv, "FILE...", extra, &opts))
    return CS_EXIT_USAGE;
  if (opts.format != NULL && !cs_report_format_parse (opts.format, &format))
    {
      cs_cli_options_clear (&opts);
      return cs_cli_usage_error (argv[0], "unknown --format (use text, csv or json)");
    }
  if (!(interval_s >= 0.001 && interval_s <= 86400) || !(timeout_s > 0 && timeout_s <= 86400))
    {
      cs_cli_options_clear (&opts);
      return cs_cli_usage_error (argv[0], "--interval must be 0.001..86400 s, --timeout > 0");
    }
#ifndef CS_CLI_RENDER
  /* html draws charts: callscope-cli-render writes it */
  if (format == CS_REPORT_FORMAT_HTML)
    {
      cs_cli_options_clear (&opts);
      return CS_CLI_RUN_RENDER;
    }
#endif
  if (format == CS_REPORT_FORMAT_PDF)
    {
      cs_cli_options_clear (&opts);
      return cs_cli_usage_error (argv[0], "loadtest writes text, csv, json or html");
    }
  cs_load_config_init (&config);
  config.interval_s = interval_s;
  config.transaction_timeout_s = timeout_s;
  if (sipp_stat != NULL)
    {
      g_autoptr (GError) error = NULL;

      edges = cs_load_read_sipp_edges (sipp_stat, &error);
      if (edges == NULL)
        {
          g_printerr ("callscope-cli: %s\n", error->message);
          cs_cli_options_clear (&opts);
          return CS_EXIT_UNREADABLE;
        }
      config.edges_ns = edges;
    }
  analysis = cs_cli_load (&opts, &status);
  if (analysis == NULL)
    {
      cs_cli_options_clear (&opts);
      return status;
    }
  report = cs_loadtest_compute (analysis, &config);
  if (compare != NULL)
    {
      g_autoptr (CsLoader) loader = cs_loader_new ();
      g_autoptr (GError) error = NULL;
      const char *paths[] = { compare, NULL };
      CsLoadConfig other_config = config;

      other_config.edges_ns = NULL; /* the SIPp periods are run A's */
      other_analysis = cs_loader_load (loader, paths, NULL, &error);
      if (other_analysis == NULL)
        {
          g_printerr ("callscope-cli: %s: %s\n", compare, error->message);
          cs_cli_options_clear (&opts);
          return CS_EXIT_UNREADABLE;
        }
      other = cs_loadtest_compute (other_analysis, &other_config);
    }
  out = cs_cli_open_output (&opts);
  if (out == NULL)
    status = CS_EXIT_UNREADABLE;
  else
    {
      if (format == CS_REPORT_FORMAT_JSON)
        written = cs_cli_load_write_json (report, out);
      else if (format == CS_REPORT_FORMAT_CSV)
        written = cs_load_write_csv (report, out);
#ifdef CS_CLI_RENDER
      else if (format == CS_REPORT_FORMAT_HTML)
        written = cs_load_html_write (
            report, opts.files != NULL && opts.files[0] != NULL ? opts.files[0] : "capture", other,
            compare, out);
#endif
      else
        written = cs_cli_load_write_text (report, out);
      if (written && other != NULL && format == CS_REPORT_FORMAT_TEXT)
        {
          g_autofree char *verdict = cs_load_compare_verdict (report, other, "run A", "run B");
          fprintf (out, "\nCompared with %s (run B): %s\n", compare, verdict);
        }
      if (!cs_cli_close_output (out, written))
        {
          g_printerr ("callscope-cli: writing the output failed\n");
          status = CS_EXIT_UNREADABLE;
        }
      else
        status = cs_cli_damage_status (analysis);
    }
  cs_cli_options_clear (&opts);
  return status;
}
