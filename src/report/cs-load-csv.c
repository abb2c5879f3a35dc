/* cs-load-csv.c — per-interval load statistics as CSV */
#include "cs-load-csv.h"

#include <math.h>

guint
cs_load_count_of (GHashTable *table, const char *key)
{
  return table != NULL ? GPOINTER_TO_UINT (g_hash_table_lookup (table, key)) : 0;
}

char *
cs_load_symptoms_keys (guint symptoms)
{
  GString *keys = g_string_new (NULL);

  for (guint s = 0; s < CS_LOAD_SYMPTOM_N; s++)
    if (symptoms & (1u << s))
      g_string_append_printf (keys, "%s%s", keys->len > 0 ? "|" : "", cs_load_symptom_key (s));
  return g_string_free (keys, FALSE);
}

static void
cs_load_csv_number (FILE *out, double value, const char *format)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE] = "";

  if (isfinite (value))
    g_ascii_formatd (text, sizeof text, format, value);
  fprintf (out, ",%s", text);
}

/* Message types whose retransmissions and timeouts get their own columns. */
static const char *const cs_load_csv_types[] = { "INVITE", "200", "BYE" };

gboolean
cs_load_write_csv (const CsLoadReport *report, FILE *out)
{
  static const char *const percentiles[] = { "p50", "p90", "p99", "p999" };

  fprintf (out, "start_s,width_s,offered_cps,handled_cps,calls_started,answered,failed,cancelled,"
                "handled,concurrent,concurrent_end,messages,retransmissions,"
                "client_retransmissions,server_retransmissions");
  for (guint t = 0; t < G_N_ELEMENTS (cs_load_csv_types); t++)
    fprintf (out, ",retransmissions_%s", cs_load_csv_types[t]);
  fprintf (out, ",timeouts,timeouts_INVITE,timeouts_BYE,transactions,slow_trying,server_errors");
  for (guint c = 0; c < CS_LOAD_CURVE_N; c++)
    for (guint p = 0; p < G_N_ELEMENTS (percentiles); p++)
      fprintf (out, ",%s_%s_ms", cs_load_curve_key (c), percentiles[p]);
  fprintf (out, ",p99_ms,rtp_packets,streams_alive,symptoms\n");
  for (guint i = 0; i < report->intervals->len; i++)
    {
      const CsLoadInterval *iv = &g_array_index (report->intervals, CsLoadInterval, i);
      g_autofree char *symptoms = cs_load_symptoms_keys (iv->symptoms);

      char start[G_ASCII_DTOSTR_BUF_SIZE];

      g_ascii_formatd (start, sizeof start, "%.6f",
                       (double) (iv->start_ns - report->origin_ns) / 1e9);
      fputs (start, out);
      cs_load_csv_number (out, cs_load_report_interval_width_s (report, i), "%.6f");
      cs_load_csv_number (out, cs_load_report_rate (report, i, iv->calls_started), "%.3f");
      cs_load_csv_number (out, cs_load_report_rate (report, i, iv->handled), "%.3f");
      fprintf (out, ",%u,%u,%u,%u,%u,%u,%u,%u,%u,%u,%u", iv->calls_started, iv->answered,
               iv->failed, iv->cancelled, iv->handled, iv->concurrent, iv->concurrent_end,
               iv->messages, iv->retransmissions, iv->client_retransmissions,
               iv->server_retransmissions);
      for (guint t = 0; t < G_N_ELEMENTS (cs_load_csv_types); t++)
        fprintf (out, ",%u", cs_load_count_of (iv->retransmissions_by_type, cs_load_csv_types[t]));
      fprintf (out, ",%u,%u,%u,%u,%u,%u", iv->timeouts,
               cs_load_count_of (iv->timeouts_by_type, "INVITE"),
               cs_load_count_of (iv->timeouts_by_type, "BYE"), iv->transactions, iv->slow_trying,
               iv->server_errors);
      for (guint c = 0; c < CS_LOAD_CURVE_N; c++)
        {
          const CsLoadCurvePoint *p = &iv->curves[c];
          cs_load_csv_number (out, p->p50, "%.3f");
          cs_load_csv_number (out, p->p90, "%.3f");
          cs_load_csv_number (out, p->p99, "%.3f");
          cs_load_csv_number (out, p->p999, "%.3f");
        }
      cs_load_csv_number (out, iv->signals[CS_LOAD_SIGNAL_P99], "%.3f");
      fprintf (out, ",%" G_GUINT64_FORMAT ",%u,%s\n", iv->rtp_packets, iv->streams_alive, symptoms);
    }
  return !ferror (out);
}
