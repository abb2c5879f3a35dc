/* cs-report.c — the report in each output format */
#include "cs-report.h"

#include "cs-json-writer.h"
#include "cs-report-json.h"
#include "cs-report-table.h"
#include "cs-time-format.h"

gboolean
cs_report_format_parse (const char *name, CsReportFormat *out)
{
  if (g_strcmp0 (name, "text") == 0)
    *out = CS_REPORT_FORMAT_TEXT;
  else if (g_strcmp0 (name, "csv") == 0)
    *out = CS_REPORT_FORMAT_CSV;
  else if (g_strcmp0 (name, "json") == 0)
    *out = CS_REPORT_FORMAT_JSON;
  else
    return FALSE;
  return TRUE;
}

static void
cs_report_text_summary (CsAnalysis *analysis, FILE *out)
{
  const CsCaptureStats *stats = cs_analysis_get_stats (analysis);
  CsCaptureSet *set = cs_analysis_get_capture_set (analysis);
  g_autoptr (GList) methods = g_hash_table_get_keys (stats->sip_methods);
  g_autoptr (GList) statuses = g_hash_table_get_keys (stats->sip_statuses);
  g_autofree char *first = cs_time_format_iso (stats->first_ns);
  g_autofree char *last = cs_time_format_iso (stats->last_ns);

  for (guint i = 0; i < cs_capture_set_get_n_files (set); i++)
    fprintf (out, "File:          %s\n", cs_capture_get_path (cs_capture_set_get_file (set, i)));
  fprintf (out, "Packets:       %" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT " bytes)\n",
           stats->packets, stats->bytes);
  if (stats->packets > 0)
    fprintf (out, "Time:          %s .. %s\n", first, last);
  fprintf (out, "SIP messages:  %" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT " malformed)\n",
           stats->sip_messages, stats->malformed_sip);
  methods = g_list_sort (methods, (GCompareFunc) g_strcmp0);
  for (GList *l = methods; l != NULL; l = l->next)
    fprintf (out, "  %-12s %u\n", (const char *) l->data,
             GPOINTER_TO_UINT (g_hash_table_lookup (stats->sip_methods, l->data)));
  for (GList *l = statuses; l != NULL; l = l->next)
    fprintf (out, "  %-12u %u\n", GPOINTER_TO_UINT (l->data),
             GPOINTER_TO_UINT (g_hash_table_lookup (stats->sip_statuses, l->data)));
  fprintf (out, "RTP packets:   %" G_GUINT64_FORMAT "\n", stats->rtp_packets);
  fprintf (out, "Calls:         %u\n", g_list_model_get_n_items (cs_analysis_get_calls (analysis)));
  fprintf (out, "Streams:       %u\n",
           g_list_model_get_n_items (cs_analysis_get_streams (analysis)));
  fprintf (out, "Findings:      %u\n\n",
           g_list_model_get_n_items (cs_analysis_get_findings (analysis)));
}

gboolean
cs_report_write (CsAnalysis *analysis, CsReportFormat format, FILE *out)
{
  CsJsonWriter *w;

  switch (format)
    {
    case CS_REPORT_FORMAT_JSON:
      w = cs_json_writer_new (out, TRUE);
      cs_json_begin_object (w);
      cs_report_json_capture (w, analysis);
      cs_report_json_calls (w, analysis);
      cs_report_json_streams (w, analysis);
      cs_report_json_findings (w, analysis);
      cs_json_end_object (w);
      return cs_json_writer_free (w);
    case CS_REPORT_FORMAT_CSV:
      cs_report_table_csv (analysis, CS_TABLE_CALLS, out);
      break;
    case CS_REPORT_FORMAT_TEXT:
      cs_report_text_summary (analysis, out);
      fputs ("Calls\n", out);
      cs_report_table_text (analysis, CS_TABLE_CALLS, out);
      fputs ("\nStreams\n", out);
      cs_report_table_text (analysis, CS_TABLE_STREAMS, out);
      fputs ("\nFindings\n", out);
      cs_report_table_text (analysis, CS_TABLE_FINDINGS, out);
      break;
    }
  return fflush (out) == 0 && !ferror (out);
}

gboolean
cs_report_write_table (CsAnalysis *analysis, CsTableKind kind, CsReportFormat format, FILE *out)
{
  CsJsonWriter *w;

  switch (format)
    {
    case CS_REPORT_FORMAT_JSON:
      w = cs_json_writer_new (out, TRUE);
      cs_json_begin_object (w);
      if (kind == CS_TABLE_CALLS)
        cs_report_json_calls (w, analysis);
      else if (kind == CS_TABLE_STREAMS)
        cs_report_json_streams (w, analysis);
      else
        cs_report_json_findings (w, analysis);
      cs_json_end_object (w);
      return cs_json_writer_free (w);
    case CS_REPORT_FORMAT_CSV:
      cs_report_table_csv (analysis, kind, out);
      break;
    case CS_REPORT_FORMAT_TEXT:
      cs_report_table_text (analysis, kind, out);
      break;
    }
  return fflush (out) == 0 && !ferror (out);
}
