/* cs-cli-loadtest.c — loadtest: per-interval load statistics and the breaking point */
#include <glib.h>
#include <math.h>

#include "cs-cli-commands.h"
#include "cs-cli-common.h"
#include "cs-json-writer.h"
#include "callscope-engine.h"
#include "cs-report.h"
#include "cs-time-format.h"

static double
cs_cli_load_offset_s (const CsLoadReport *report, gint64 ts_ns)
{
  return (double) (ts_ns - report->origin_ns) / 1e9;
}

static int
cs_cli_load_compare_keys (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/* Keys of a string → count table, sorted, so output is stable. */
static GPtrArray *
cs_cli_load_sorted_keys (GHashTable *table)
{
  GPtrArray *keys = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  if (table != NULL)
    {
      g_hash_table_iter_init (&iter, table);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        g_ptr_array_add (keys, key);
    }
  g_ptr_array_sort (keys, cs_cli_load_compare_keys);
  return keys;
}

static void
cs_cli_load_json_counts (CsJsonWriter *w, const char *name, GHashTable *table)
{
  g_autoptr (GPtrArray) keys = cs_cli_load_sorted_keys (table);

  cs_json_key (w, name);
  cs_json_begin_object (w);
  for (guint i = 0; i < keys->len; i++)
    {
      cs_json_key (w, g_ptr_array_index (keys, i));
      cs_json_uint (w, GPOINTER_TO_UINT (g_hash_table_lookup (table, keys->pdata[i])));
    }
  cs_json_end_object (w);
}

static void
cs_cli_load_json_percentiles (CsJsonWriter *w, const char *name, const CsLoadPercentiles *p)
{
  const struct
  {
    const char *key;
    double value;
  } fields[] = {
    { "min", p->min }, { "mean", p->mean }, { "p50", p->p50 },     { "p90", p->p90 },
    { "p99", p->p99 }, { "p999", p->p999 }, { "p9999", p->p9999 }, { "max", p->max },
  };

  cs_json_key (w, name);
  cs_json_begin_object (w);
  cs_json_key (w, "n");
  cs_json_uint (w, p->n);
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      cs_json_key (w, fields[i].key);
      cs_json_double (w, fields[i].value, 3);
    }
  cs_json_end_object (w);
}

static void
cs_cli_load_json_interval (CsJsonWriter *w, const CsLoadReport *report, const CsLoadInterval *iv)
{
  const struct
  {
    const char *key;
    guint64 value;
  } counts[] = {
    { "calls_started", iv->calls_started },
    { "answered", iv->answered },
    { "failed", iv->failed },
    { "cancelled", iv->cancelled },
    { "concurrent", iv->concurrent },
    { "messages", iv->messages },
    { "retransmissions", iv->retransmissions },
    { "timeouts", iv->timeouts },
    { "transactions", iv->transactions },
    { "rtp_packets", iv->rtp_packets },
    { "streams_alive", iv->streams_alive },
  };

  cs_json_begin_object (w);
  cs_json_key (w, "start");
  cs_json_double (w, cs_cli_load_offset_s (report, iv->start_ns), 6);
  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      cs_json_key (w, counts[i].key);
      cs_json_uint (w, counts[i].value);
    }
  cs_json_key (w, "p99_ms");
  cs_json_double (w, iv->signals[CS_LOAD_SIGNAL_P99], 3);
  cs_cli_load_json_counts (w, "messages_by_type", iv->messages_by_type);
  cs_cli_load_json_counts (w, "retransmissions_by_type", iv->retransmissions_by_type);
  cs_json_key (w, "signals");
  cs_json_begin_object (w);
  for (guint s = 0; s < CS_LOAD_SIGNAL_N; s++)
    {
      cs_json_key (w, cs_load_signal_key (s));
      cs_json_double (w, iv->signals[s], 6);
    }
  cs_json_end_object (w);
  cs_json_end_object (w);
}

static void
cs_cli_load_json_totals (CsJsonWriter *w, const CsLoadReport *report)
{
  const CsLoadTotals *t = &report->totals;
  double span_s = (double) (report->end_ns - report->origin_ns) / 1e9;
  g_autoptr (GHashTable) by_code = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GHashTableIter iter;
  gpointer key, value;
  const struct
  {
    const char *key;
    guint64 value;
  } counts[] = {
    { "calls", t->calls },
    { "answered", t->answered },
    { "failed", t->failed },
    { "cancelled", t->cancelled },
    { "unfinished", t->unfinished },
    { "messages", t->messages },
    { "retransmissions", t->retransmissions },
    { "timeouts", t->timeouts },
    { "transactions", t->transactions },
    { "rtp_packets", t->rtp_packets },
    { "peak_concurrent", t->peak_concurrent },
  };

  g_hash_table_iter_init (&iter, t->failed_by_code);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (by_code, g_strdup_printf ("%u", GPOINTER_TO_UINT (key)), value);
  cs_json_key (w, "totals");
  cs_json_begin_object (w);
  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      cs_json_key (w, counts[i].key);
      cs_json_uint (w, counts[i].value);
    }
  cs_cli_load_json_counts (w, "failed_by_code", by_code);
  cs_json_key (w, "calls_per_second");
  cs_json_double (w, span_s > 0 ? (double) t->calls / span_s : NAN, 3);
  cs_cli_load_json_counts (w, "messages_by_type", t->messages_by_type);
  cs_cli_load_json_counts (w, "retransmissions_by_type", t->retransmissions_by_type);
  cs_json_end_object (w);
}

static void
cs_cli_load_json_breaking_point (CsJsonWriter *w, const CsLoadReport *report)
{
  const CsLoadBreakingPoint *bp = &report->breaking_point;
  g_autofree char *iso = NULL;

  cs_json_key (w, "breaking_point");
  if (!bp->found)
    {
      cs_json_null (w);
      return;
    }
  iso = cs_time_format_iso (bp->time_ns);
  cs_json_begin_object (w);
  cs_json_key (w, "time");
  cs_json_double (w, bp->offset_s, 6);
  cs_json_key (w, "time_iso");
  cs_json_string (w, iso);
  cs_json_key (w, "interval");
  cs_json_uint (w, bp->interval);
  cs_json_key (w, "signal");
  cs_json_string (w, cs_load_signal_key (bp->signal));
  cs_json_key (w, "reason");
  cs_json_string (w, bp->reason);
  cs_json_key (w, "value");
  cs_json_double (w, bp->departure.value, 6);
  cs_json_key (w, "threshold");
  cs_json_double (w, bp->departure.threshold, 6);
  cs_json_key (w, "baseline_p50");
  cs_json_double (w, bp->departure.baseline_p50, 6);
  cs_json_key (w, "baseline_p90");
  cs_json_double (w, bp->departure.baseline_p90, 6);
  cs_json_key (w, "intervals_out");
  cs_json_uint (w, bp->departure.out);
  cs_json_key (w, "intervals_checked");
  cs_json_uint (w, bp->departure.checked);
  cs_json_end_object (w);
}

static gboolean
cs_cli_load_write_json (const CsLoadReport *report, FILE *out)
{
  CsJsonWriter *w = cs_json_writer_new (out, TRUE);
  g_autofree char *origin = cs_time_format_iso (report->origin_ns);
  char buf[CS_ENDPOINT_STRLEN];

  cs_json_begin_object (w);
  cs_json_key (w, "interval_s");
  cs_json_double (w, report->interval_s, 6);
  cs_json_key (w, "transaction_timeout_s");
  cs_json_double (w, report->transaction_timeout_s, 3);
  cs_json_key (w, "origin");
  cs_json_string (w, origin);
  cs_json_key (w, "intervals");
  cs_json_begin_array (w);
  for (guint i = 0; i < report->intervals->len; i++)
    cs_cli_load_json_interval (w, report, &g_array_index (report->intervals, CsLoadInterval, i));
  cs_json_end_array (w);
  cs_cli_load_json_totals (w, report);
  cs_json_key (w, "response_times");
  cs_json_begin_object (w);
  for (guint k = 0; k < CS_LOAD_RT_N; k++)
    cs_cli_load_json_percentiles (w, cs_load_response_kind_key (k), &report->response_times[k]);
  cs_json_end_object (w);
  cs_json_key (w, "endpoints");
  cs_json_begin_array (w);
  for (guint i = 0; i < report->endpoints->len; i++)
    {
      const CsLoadEndpoint *e = g_ptr_array_index (report->endpoints, i);
      cs_json_begin_object (w);
      cs_json_key (w, "endpoint");
      cs_json_string (w, cs_endpoint_to_string (&e->endpoint, buf));
      cs_json_key (w, "requests");
      cs_json_uint (w, e->requests);
      cs_json_key (w, "answered");
      cs_json_uint (w, e->answered);
      cs_json_key (w, "failed");
      cs_json_uint (w, e->failed);
      cs_json_key (w, "timeouts");
      cs_json_uint (w, e->timeouts);
      cs_json_key (w, "retransmissions");
      cs_json_uint (w, e->retransmissions);
      cs_cli_load_json_percentiles (w, "final_ms", &e->final_ms);
      cs_json_end_object (w);
    }
  cs_json_end_array (w);
  cs_json_key (w, "patterns");
  cs_json_begin_array (w);
  for (guint i = 0; i < report->patterns->len; i++)
    {
      const CsLoadPattern *p = g_ptr_array_index (report->patterns, i);
      cs_json_begin_object (w);
      cs_json_key (w, "pattern");
      cs_json_string (w, p->pattern);
      cs_json_key (w, "calls");
      cs_json_uint (w, p->calls);
      cs_json_key (w, "answered");
      cs_json_uint (w, p->answered);
      cs_json_key (w, "failed");
      cs_json_uint (w, p->failed);
      cs_cli_load_json_percentiles (w, "setup_ms", &p->setup_ms);
      cs_json_end_object (w);
    }
  cs_json_end_array (w);
  cs_cli_load_json_breaking_point (w, report);
  cs_json_end_object (w);
  return cs_json_writer_free (w);
}

static gboolean
cs_cli_load_write_csv (const CsLoadReport *report, FILE *out)
{
  fprintf (out, "start_s,calls_started,answered,failed,cancelled,concurrent,messages,"
                "retransmissions,timeouts,transactions,rtp_packets,streams_alive,p99_ms\n");
  for (guint i = 0; i < report->intervals->len; i++)
    {
      const CsLoadInterval *iv = &g_array_index (report->intervals, CsLoadInterval, i);
      double p99 = iv->signals[CS_LOAD_SIGNAL_P99];
      char p99_text[G_ASCII_DTOSTR_BUF_SIZE] = "";
      char start_text[G_ASCII_DTOSTR_BUF_SIZE];

      if (isfinite (p99))
        g_ascii_formatd (p99_text, sizeof p99_text, "%.3f", p99);
      g_ascii_formatd (start_text, sizeof start_text, "%.6f",
                       cs_cli_load_offset_s (report, iv->start_ns));
      fprintf (out, "%s,%u,%u,%u,%u,%u,%u,%u,%u,%u,%" G_GUINT64_FORMAT ",%u,%s\n", start_text,
               iv->calls_started, iv->answered, iv->failed, iv->cancelled, iv->concurrent,
               iv->messages, iv->retransmissions, iv->timeouts, iv->transactions, iv->rtp_packets,
               iv->streams_alive, p99_text);
    }
  return !ferror (out);
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
  fprintf (out, "%-22s %7" G_GUINT64_FORMAT, label, p->n);
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
  if (report->breaking_point.found)
    fprintf (out, "Breaking point: interval %u at %.3f s (%s): %s\n",
             report->breaking_point.interval, report->breaking_point.offset_s,
             cs_load_signal_key (report->breaking_point.signal), report->breaking_point.reason);
  else
    fprintf (out, "Breaking point: none\n");

  fprintf (out, "\n%-22s %7s %9s %9s %9s %9s %9s %9s %9s %9s\n", "Response times (ms)", "n", "min",
           "mean", "p50", "p90", "p99", "p99.9", "p99.99", "max");
  for (guint k = 0; k < CS_LOAD_RT_N; k++)
    cs_cli_load_text_percentiles (out, cs_load_response_kind_label (k), &report->response_times[k]);

  fprintf (out, "\n%10s %6s %8s %6s %9s %10s %8s %7s %8s %7s %9s\n", "start (s)", "calls",
           "answered", "failed", "cancelled", "concurrent", "messages", "retrans", "timeouts",
           "rtp", "p99 (ms)");
  for (guint i = 0; i < report->intervals->len; i++)
    {
      const CsLoadInterval *iv = &g_array_index (report->intervals, CsLoadInterval, i);
      fprintf (out, "%10.3f %6u %8u %6u %9u %10u %8u %7u %8u %7" G_GUINT64_FORMAT,
               cs_cli_load_offset_s (report, iv->start_ns), iv->calls_started, iv->answered,
               iv->failed, iv->cancelled, iv->concurrent, iv->messages, iv->retransmissions,
               iv->timeouts, iv->rtp_packets);
      cs_cli_load_text_ms (out, iv->signals[CS_LOAD_SIGNAL_P99]);
      fprintf (out, "%s\n",
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
  cs_load_config_init (&config);
  config.interval_s = interval_s;
  config.transaction_timeout_s = timeout_s;
  analysis = cs_cli_load (&opts, &status);
  if (analysis == NULL)
    {
      cs_cli_options_clear (&opts);
      return status;
    }
  report = cs_loadtest_compute (analysis, &config);
  out = cs_cli_open_output (&opts);
  if (out == NULL)
    status = CS_EXIT_UNREADABLE;
  else
    {
      if (format == CS_REPORT_FORMAT_JSON)
        written = cs_cli_load_write_json (report, out);
      else if (format == CS_REPORT_FORMAT_CSV)
        written = cs_cli_load_write_csv (report, out);
      else
        written = cs_cli_load_write_text (report, out);
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
