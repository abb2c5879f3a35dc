/* cs-cli-loadtest-json.c — loadtest --format json: intervals, legs, the story of the run */
#include <glib.h>
#include <math.h>

#include "cs-cli-loadtest.h"
#include "cs-json-writer.h"
#include "cs-load-csv.h"
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
cs_cli_load_json_percentiles_leg (CsJsonWriter *w, const char *name, const CsLoadPercentiles *p,
                                  const char *leg)
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
  if (leg != NULL)
    {
      cs_json_key (w, "leg");
      cs_json_string (w, leg);
    }
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
cs_cli_load_json_percentiles (CsJsonWriter *w, const char *name, const CsLoadPercentiles *p)
{
  cs_cli_load_json_percentiles_leg (w, name, p, NULL);
}

static void
cs_cli_load_json_symptoms (CsJsonWriter *w, guint symptoms)
{
  cs_json_key (w, "symptoms");
  cs_json_begin_array (w);
  for (guint s = 0; s < CS_LOAD_SYMPTOM_N; s++)
    if (symptoms & (1u << s))
      cs_json_string (w, cs_load_symptom_key (s));
  cs_json_end_array (w);
}

static void
cs_cli_load_json_curves (CsJsonWriter *w, const CsLoadInterval *iv)
{
  cs_json_key (w, "response_times");
  cs_json_begin_object (w);
  for (guint c = 0; c < CS_LOAD_CURVE_N; c++)
    {
      const CsLoadCurvePoint *p = &iv->curves[c];
      const struct
      {
        const char *key;
        double value;
      } fields[] = { { "p50", p->p50 }, { "p90", p->p90 }, { "p99", p->p99 }, { "p999", p->p999 } };

      cs_json_key (w, cs_load_curve_key (c));
      cs_json_begin_object (w);
      cs_json_key (w, "leg");
      cs_json_string (w, "client");
      for (guint f = 0; f < G_N_ELEMENTS (fields); f++)
        {
          cs_json_key (w, fields[f].key);
          cs_json_double (w, fields[f].value, 3);
        }
      cs_json_end_object (w);
    }
  cs_json_end_object (w);
}

static void
cs_cli_load_json_interval (CsJsonWriter *w, const CsLoadReport *report, guint index)
{
  const CsLoadInterval *iv = &g_array_index (report->intervals, CsLoadInterval, index);
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
    { "concurrent_end", iv->concurrent_end },
    { "handled", iv->handled },
    { "messages", iv->messages },
    { "client_retransmissions", iv->client_retransmissions },
    { "server_retransmissions", iv->server_retransmissions },
    { "slow_trying", iv->slow_trying },
    { "server_errors", iv->server_errors },
    { "retransmissions", iv->retransmissions },
    { "timeouts", iv->timeouts },
    { "transactions", iv->transactions },
    { "rtp_packets", iv->rtp_packets },
    { "streams_alive", iv->streams_alive },
  };

  cs_json_begin_object (w);
  cs_json_key (w, "start");
  cs_json_double (w, cs_cli_load_offset_s (report, iv->start_ns), 6);
  cs_json_key (w, "end");
  cs_json_double (w, cs_cli_load_offset_s (report, iv->end_ns), 6);
  cs_json_key (w, "offered_cps");
  cs_json_double (w, cs_load_report_rate (report, index, iv->calls_started), 3);
  cs_json_key (w, "handled_cps");
  cs_json_double (w, cs_load_report_rate (report, index, iv->handled), 3);
  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      cs_json_key (w, counts[i].key);
      cs_json_uint (w, counts[i].value);
    }
  cs_json_key (w, "p99_ms");
  cs_json_double (w, iv->signals[CS_LOAD_SIGNAL_P99], 3);
  cs_cli_load_json_counts (w, "messages_by_type", iv->messages_by_type);
  cs_cli_load_json_counts (w, "retransmissions_by_type", iv->retransmissions_by_type);
  cs_cli_load_json_counts (w, "client_retransmissions_by_type", iv->client_retransmissions_by_type);
  cs_cli_load_json_counts (w, "server_retransmissions_by_type", iv->server_retransmissions_by_type);
  cs_cli_load_json_counts (w, "timeouts_by_type", iv->timeouts_by_type);
  cs_cli_load_json_curves (w, iv);
  cs_cli_load_json_symptoms (w, iv->symptoms);
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
    { "completed", t->completed },
    { "dropped", t->dropped },
    { "handled", t->handled },
    { "proxied", t->proxied },
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
  cs_cli_load_json_counts (w, "client_retransmissions_by_type", t->client_retransmissions_by_type);
  cs_cli_load_json_counts (w, "server_retransmissions_by_type", t->server_retransmissions_by_type);
  cs_cli_load_json_counts (w, "timeouts_by_type", t->timeouts_by_type);
  cs_cli_load_json_counts (w, "failed_by_reason", t->failed_by_reason);
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
  cs_json_key (w, "rule");
  cs_json_string (w, bp->by_symptoms ? "symptoms" : "departure");
  cs_json_key (w, "offered_cps");
  cs_json_double (w, bp->offered_cps, 3);
  cs_json_key (w, "handled_cps");
  cs_json_double (w, bp->handled_cps, 3);
  cs_json_key (w, "concurrent");
  cs_json_uint (w, bp->concurrent);
  cs_json_key (w, "first_symptom");
  cs_json_string (w, bp->has_symptom ? cs_load_symptom_key (bp->first_symptom) : NULL);
  cs_json_key (w, "early_warnings");
  cs_json_begin_object (w);
  for (guint s = 0; s < CS_LOAD_SIGNAL_N; s++)
    {
      cs_json_key (w, cs_load_signal_key (s));
      if (bp->signal_departed[s])
        cs_json_uint (w, bp->signal_departure[s].index);
      else
        cs_json_null (w);
    }
  cs_json_end_object (w);
  cs_json_end_object (w);
}

static void
cs_cli_load_json_capacity (CsJsonWriter *w, const CsLoadReport *report)
{
  cs_json_key (w, "capacity");
  if (!report->capacity_found)
    {
      cs_json_null (w);
      return;
    }
  cs_json_begin_object (w);
  cs_json_key (w, "cps");
  cs_json_double (w, report->capacity_cps, 3);
  cs_json_key (w, "interval");
  cs_json_uint (w, report->capacity_interval);
  cs_json_key (w, "window");
  cs_json_uint (w, report->capacity_window);
  cs_json_key (w, "reached");
  cs_json_bool (w, report->breaking_point.found);
  cs_json_end_object (w);
}

gboolean
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
    cs_cli_load_json_interval (w, report, i);
  cs_json_end_array (w);
  cs_cli_load_json_totals (w, report);
  cs_json_key (w, "response_times");
  cs_json_begin_object (w);
  for (guint k = 0; k < CS_LOAD_RT_N; k++)
    cs_cli_load_json_percentiles_leg (w, cs_load_response_kind_key (k), &report->response_times[k],
                                      "client");
  cs_json_end_object (w);
  cs_json_key (w, "proxied");
  cs_json_bool (w, report->proxied);
  cs_json_key (w, "server_response_times");
  cs_json_begin_object (w);
  for (guint k = 0; k < CS_LOAD_RT_N; k++)
    cs_cli_load_json_percentiles_leg (w, cs_load_response_kind_key (k),
                                      &report->server_response_times[k], "server");
  cs_json_end_object (w);
  cs_cli_load_json_percentiles_leg (w, "forwarding_ms", &report->forwarding_ms, "proxy");
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
  cs_cli_load_json_capacity (w, report);
  cs_json_end_object (w);
  return cs_json_writer_free (w);
}
