/* cs-report.c — the report in each output format */
#include "cs-report.h"

#include <string.h>

#include "callscope-engine.h"
#include "cs-json-writer.h"
#include "cs-report-json.h"
#include "cs-report-points.h"
#ifndef CS_REPORT_WITHOUT_CAIRO
#include "cs-report-html.h"
#include "cs-report-pdf.h"
#endif
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
  else if (g_strcmp0 (name, "html") == 0)
    *out = CS_REPORT_FORMAT_HTML;
  else if (g_strcmp0 (name, "pdf") == 0)
    *out = CS_REPORT_FORMAT_PDF;
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
    {
      g_autofree char *owned = NULL;

      fprintf (out, "  %-12s %u\n", cs_text_inert (l->data, &owned),
               GPOINTER_TO_UINT (g_hash_table_lookup (stats->sip_methods, l->data)));
    }
  for (GList *l = statuses; l != NULL; l = l->next)
    fprintf (out, "  %-12u %u\n", GPOINTER_TO_UINT (l->data),
             GPOINTER_TO_UINT (g_hash_table_lookup (stats->sip_statuses, l->data)));
  fprintf (out, "RTP packets:   %" G_GUINT64_FORMAT "\n", stats->rtp_packets);
  /* calls are INVITE dialogs; REGISTER, OPTIONS… are counted apart (the calls table
   * lists both, with their method) */
  fprintf (out, "Calls:         %u\n", cs_analysis_get_n_calls (analysis));
  fprintf (out, "Other SIP:     %u exchanges\n", cs_analysis_get_n_other_exchanges (analysis));
  fprintf (out, "Streams:       %u\n",
           g_list_model_get_n_items (cs_analysis_get_streams (analysis)));
  fprintf (out, "Findings:      %u\n\n",
           g_list_model_get_n_items (cs_analysis_get_findings (analysis)));
}

/* "Related legs" and one line a link, only when there is one. */
static void
cs_report_text_legs (const GPtrArray *links, FILE *out)
{
  if (links == NULL || links->len == 0)
    return;
  fputs ("\nRelated legs\n", out);
  for (guint i = 0; i < links->len; i++)
    {
      const CsCallLink *link = g_ptr_array_index (links, i);
      g_autofree char *owned = NULL;

      fprintf (out, "  call %u — call %u  %s: %s\n", link->call_a, link->call_b,
               cs_leg_reason_to_string (link->reason), cs_text_inert (link->evidence, &owned));
    }
}

gboolean
cs_report_write (CsAnalysis *analysis, CsReportFormat format, FILE *out)
{
  return cs_report_write_calls (analysis, format, NULL, 0, out);
}

gboolean
cs_report_write_calls (CsAnalysis *analysis, CsReportFormat format, const guint *call_numbers,
                       guint n_calls, FILE *out)
{
  return cs_report_write_calls_threads (analysis, format, call_numbers, n_calls, 1, out);
}

gboolean
cs_report_write_calls_threads (CsAnalysis *analysis, CsReportFormat format,
                               const guint *call_numbers, guint n_calls, guint threads, FILE *out)
{
  g_autoptr (GPtrArray) links = NULL;
  CsJsonWriter *w;

  switch (format)
    {
#ifdef CS_REPORT_WITHOUT_CAIRO
    /* libcallscope-report-core (callscope-cli) draws nothing: callscope-cli-render writes these */
    case CS_REPORT_FORMAT_HTML:
    case CS_REPORT_FORMAT_PDF:
      return FALSE;
#else
    case CS_REPORT_FORMAT_HTML:
      return cs_report_html_write (analysis, call_numbers, n_calls, out, NULL, NULL);
    case CS_REPORT_FORMAT_PDF:
      return cs_report_pdf_write (analysis, call_numbers, n_calls, out, NULL, NULL, NULL, NULL);
#endif
    case CS_REPORT_FORMAT_JSON:
      w = cs_json_writer_new (out, TRUE);
      cs_json_writer_set_threads (w, threads != 0 ? threads : g_get_num_processors ());
      cs_json_begin_object (w);
      cs_report_json_capture (w, analysis);
      cs_report_json_calls (w, analysis);
      cs_report_json_streams (w, analysis);
      cs_report_json_findings (w, analysis);
      links = cs_call_links_find (cs_analysis_get_calls (analysis),
                                  cs_analysis_get_streams (analysis));
      cs_report_json_legs (w, links);
      cs_report_json_points (w, analysis);
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
      links = cs_call_links_find (cs_analysis_get_calls (analysis),
                                  cs_analysis_get_streams (analysis));
      cs_report_text_legs (links, out);
      cs_report_text_points (analysis, out);
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
    case CS_REPORT_FORMAT_HTML:
    case CS_REPORT_FORMAT_PDF:
      cs_report_table_text (analysis, kind, out);
      break;
    }
  return fflush (out) == 0 && !ferror (out);
}

/* ---- Call selection and the tables shared by the HTML and PDF reports ---- */

static GHashTable *
cs_worst_severity_by_call (CsAnalysis *analysis)
{
  GListModel *findings = cs_analysis_get_findings (analysis);
  GHashTable *worst = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr (CsFinding) f = g_list_model_get_item (findings, i);
      gpointer key = GUINT_TO_POINTER (cs_finding_get_call_number (f));
      guint severity = cs_finding_get_severity (f) + 1; /* 0 = no finding */

      if (severity > GPOINTER_TO_UINT (g_hash_table_lookup (worst, key)))
        g_hash_table_insert (worst, key, GUINT_TO_POINTER (severity));
    }
  return worst;
}

/* A failed or rejected call ranks below any scored one; a call without media above them. */
static double
cs_report_sort_mos (CsCall *call)
{
  CsCallState state = cs_call_get_state (call);

  if (state == CS_CALL_STATE_FAILED || state == CS_CALL_STATE_REJECTED)
    return 0;
  return cs_call_get_mos (call) < 0 ? 5 : cs_call_get_mos (call);
}

static int
cs_compare_worst_first (gconstpointer pa, gconstpointer pb, gpointer user_data)
{
  CsCall *a = *(CsCall *const *) pa, *b = *(CsCall *const *) pb;
  GHashTable *worst = user_data;
  guint sa
      = GPOINTER_TO_UINT (g_hash_table_lookup (worst, GUINT_TO_POINTER (cs_call_get_number (a))));
  guint sb
      = GPOINTER_TO_UINT (g_hash_table_lookup (worst, GUINT_TO_POINTER (cs_call_get_number (b))));
  double ma = cs_report_sort_mos (a), mb = cs_report_sort_mos (b);

  if (sa != sb)
    return sa > sb ? -1 : 1;
  if (ma != mb)
    return ma < mb ? -1 : 1;
  if (cs_call_get_n_findings (a) != cs_call_get_n_findings (b))
    return cs_call_get_n_findings (a) > cs_call_get_n_findings (b) ? -1 : 1;
  return cs_call_get_number (a) < cs_call_get_number (b) ? -1 : 1;
}

GPtrArray *
cs_report_calls_worst_first (CsAnalysis *analysis, const guint *call_numbers, guint n_calls)
{
  GListModel *calls = cs_analysis_get_calls (analysis);
  g_autoptr (GHashTable) wanted = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) worst = cs_worst_severity_by_call (analysis);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < n_calls; i++)
    g_hash_table_add (wanted, GUINT_TO_POINTER (call_numbers[i]));
  for (guint i = 0; i < g_list_model_get_n_items (calls); i++)
    {
      CsCall *call = g_list_model_get_item (calls, i);

      if (n_calls == 0
          || g_hash_table_contains (wanted, GUINT_TO_POINTER (cs_call_get_number (call))))
        g_ptr_array_add (out, call);
      else
        g_object_unref (call);
    }
  g_ptr_array_sort_with_data (out, cs_compare_worst_first, worst);
  return out;
}

GPtrArray *
cs_report_call_streams (CsAnalysis *analysis, CsCall *call)
{
  GListModel *streams = cs_analysis_get_streams (analysis);
  const GArray *ids = cs_call_get_stream_ids (call);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_object_unref);

  if (ids->len == 0)
    return out;
  for (guint i = 0; i < g_list_model_get_n_items (streams); i++)
    {
      CsStream *stream = g_list_model_get_item (streams, i);
      gboolean mine = FALSE;

      for (guint k = 0; k < ids->len && !mine; k++)
        mine = g_array_index (ids, guint, k) == cs_stream_get_id (stream);
      if (mine)
        g_ptr_array_add (out, stream);
      else
        g_object_unref (stream);
    }
  return out;
}

GPtrArray *
cs_report_call_findings (CsAnalysis *analysis, CsCall *call)
{
  GListModel *findings = cs_analysis_get_findings (analysis);
  const GArray *ids = cs_call_get_stream_ids (call);
  GPtrArray *out = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      CsFinding *f = g_list_model_get_item (findings, i);
      gboolean mine = cs_finding_get_call_number (f) == cs_call_get_number (call);

      for (guint k = 0; k < ids->len && !mine && cs_finding_get_stream_id (f) != 0; k++)
        mine = g_array_index (ids, guint, k) == cs_finding_get_stream_id (f);
      if (mine)
        g_ptr_array_add (out, f);
      else
        g_object_unref (f);
    }
  return out;
}

const char *
cs_report_mos_class (double mos)
{
  if (mos < 0)
    return NULL;
  return mos >= 4.0 ? "good" : mos >= 3.6 ? "degraded" : "bad";
}

void
cs_report_grid_free (CsReportGrid *grid)
{
  if (grid == NULL)
    return;
  g_ptr_array_unref (grid->columns);
  g_ptr_array_unref (grid->rows);
  g_ptr_array_unref (grid->row_classes);
  g_free (grid);
}

/* Columns from a NULL-terminated list; a heading starting with '#' is numeric. */
static CsReportGrid *
cs_report_grid_new (const char *const *columns)
{
  CsReportGrid *grid = g_new0 (CsReportGrid, 1);

  grid->columns = g_ptr_array_new_with_free_func (g_free);
  grid->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  grid->row_classes = g_ptr_array_new_with_free_func (g_free);
  for (guint c = 0; columns[c] != NULL; c++)
    {
      gboolean numeric = columns[c][0] == '#';

      g_ptr_array_add (grid->columns, g_strdup (columns[c] + numeric));
      if (numeric)
        grid->numeric |= G_GUINT64_CONSTANT (1) << c;
    }
  return grid;
}

/* Appends a row of columns->len strings (taken), with an optional class. */
static void
cs_report_grid_add (CsReportGrid *grid, const char *row_class, ...)
{
  char **row = g_new0 (char *, grid->columns->len + 1);
  va_list args;

  va_start (args, row_class);
  for (guint c = 0; c < grid->columns->len; c++)
    {
      char *v = va_arg (args, char *);

      row[c] = v != NULL ? v : g_strdup ("");
    }
  va_end (args);
  g_ptr_array_add (grid->rows, row);
  g_ptr_array_add (grid->row_classes, g_strdup (row_class));
}

static char *
cs_opt (double value, const char *format)
{
  return value < 0 ? g_strdup ("—") : g_strdup_printf (format, value);
}

CsReportGrid *
cs_report_grid_capture (CsAnalysis *analysis)
{
  static const char *const columns[] = { "Item", "Value", NULL };
  CsReportGrid *grid = cs_report_grid_new (columns);
  const CsCaptureStats *st = cs_analysis_get_stats (analysis);
  CsCaptureSet *set = cs_analysis_get_capture_set (analysis);
  g_autoptr (GList) methods = g_hash_table_get_keys (st->sip_methods);
  g_autoptr (GList) statuses = g_hash_table_get_keys (st->sip_statuses);
  GString *text = g_string_new (NULL);
  const GError *damage = cs_analysis_get_damage (analysis);

  for (guint i = 0; i < cs_capture_set_get_n_files (set); i++)
    {
      CsCapture *capture = cs_capture_set_get_file (set, i);

      cs_report_grid_add (
          grid, NULL, g_strdup ("File"),
          g_strdup_printf ("%s (%s, %" G_GUINT64_FORMAT " bytes)", cs_capture_get_path (capture),
                           cs_capture_get_format_name (capture), cs_capture_get_size (capture)));
    }
  cs_report_grid_add (grid, NULL, g_strdup ("Packets"),
                      g_strdup_printf ("%" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT " bytes)",
                                       st->packets, st->bytes));
  if (st->packets > 0)
    {
      cs_report_grid_add (grid, NULL, g_strdup ("First packet"), cs_time_format_iso (st->first_ns));
      cs_report_grid_add (grid, NULL, g_strdup ("Last packet"), cs_time_format_iso (st->last_ns));
      cs_report_grid_add (grid, NULL, g_strdup ("Duration"),
                          g_strdup_printf ("%.3f s", (st->last_ns - st->first_ns) / 1e9));
    }
  cs_report_grid_add (grid, NULL, g_strdup ("SIP messages"),
                      g_strdup_printf ("%" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT " malformed)",
                                       st->sip_messages, st->malformed_sip));
  methods = g_list_sort (methods, (GCompareFunc) g_strcmp0);
  for (GList *l = methods; l != NULL; l = l->next)
    g_string_append_printf (text, "%s%s %u", text->len > 0 ? ", " : "", (const char *) l->data,
                            GPOINTER_TO_UINT (g_hash_table_lookup (st->sip_methods, l->data)));
  cs_report_grid_add (grid, NULL, g_strdup ("SIP requests"), g_strdup (text->str));
  g_string_truncate (text, 0);
  for (GList *l = statuses; l != NULL; l = l->next)
    g_string_append_printf (text, "%s%u × %u", text->len > 0 ? ", " : "",
                            GPOINTER_TO_UINT (l->data),
                            GPOINTER_TO_UINT (g_hash_table_lookup (st->sip_statuses, l->data)));
  cs_report_grid_add (grid, NULL, g_strdup ("SIP responses"), g_string_free (text, FALSE));
  cs_report_grid_add (grid, NULL, g_strdup ("RTP packets"),
                      g_strdup_printf ("%" G_GUINT64_FORMAT, st->rtp_packets));
  cs_report_grid_add (grid, NULL, g_strdup ("Calls"),
                      g_strdup_printf ("%u", cs_analysis_get_n_calls (analysis)));
  cs_report_grid_add (grid, NULL, g_strdup ("Other SIP exchanges"),
                      g_strdup_printf ("%u", cs_analysis_get_n_other_exchanges (analysis)));
  cs_report_grid_add (
      grid, NULL, g_strdup ("RTP streams"),
      g_strdup_printf ("%u", g_list_model_get_n_items (cs_analysis_get_streams (analysis))));
  cs_report_grid_add (
      grid, NULL, g_strdup ("Findings"),
      g_strdup_printf ("%u", g_list_model_get_n_items (cs_analysis_get_findings (analysis))));
  if (damage != NULL)
    cs_report_grid_add (grid, "bad", g_strdup ("Damaged input"), g_strdup (damage->message));
  return grid;
}

static char *
cs_call_state_text (CsCall *call)
{
  guint code = cs_call_get_final_status (call);
  const char *reason = cs_call_get_final_reason (call);

  if (code == 0)
    return g_strdup (cs_call_state_to_string (cs_call_get_state (call)));
  return g_strdup_printf ("%s (%u%s%s)", cs_call_state_to_string (cs_call_get_state (call)), code,
                          reason != NULL ? " " : "", reason != NULL ? reason : "");
}

static const char *
cs_call_row_class (CsCall *call)
{
  CsCallState state = cs_call_get_state (call);

  if (state == CS_CALL_STATE_FAILED || state == CS_CALL_STATE_REJECTED)
    return "bad";
  return cs_report_mos_class (cs_call_get_mos (call));
}

CsReportGrid *
cs_report_grid_calls (GPtrArray *calls)
{
  static const char *const columns[] = { "#Call", "Method",    "From", "To",        "State",
                                         "Start", "#Setup ms", "#MOS", "#Findings", NULL };
  CsReportGrid *grid = cs_report_grid_new (columns);

  for (guint i = 0; i < calls->len; i++)
    {
      CsCall *call = g_ptr_array_index (calls, i);

      cs_report_grid_add (
          grid, cs_call_row_class (call), g_strdup_printf ("%u", cs_call_get_number (call)),
          g_strdup (cs_call_get_method_name (call)), g_strdup (cs_call_get_from (call)),
          g_strdup (cs_call_get_to (call)), cs_call_state_text (call),
          cs_time_format_iso (cs_call_get_start_ns (call)),
          cs_opt (cs_call_get_setup_ms (call), "%.1f"), cs_opt (cs_call_get_mos (call), "%.2f"),
          g_strdup_printf ("%u", cs_call_get_n_findings (call)));
    }
  return grid;
}

CsReportGrid *
cs_report_grid_call_facts (CsCall *call)
{
  static const char *const columns[] = { "Item", "Value", NULL };
  CsReportGrid *grid = cs_report_grid_new (columns);
  const char *ua = cs_call_get_user_agent (call);

  cs_report_grid_add (grid, NULL, g_strdup ("Call-ID"), g_strdup (cs_call_get_call_id (call)));
  cs_report_grid_add (grid, NULL, g_strdup ("From → To"),
                      g_strdup_printf ("%s → %s", cs_call_get_from (call), cs_call_get_to (call)));
  if (ua != NULL)
    cs_report_grid_add (grid, NULL, g_strdup ("User agent"), g_strdup (ua));
  cs_report_grid_add (grid, cs_call_row_class (call), g_strdup ("State"),
                      cs_call_state_text (call));
  cs_report_grid_add (grid, NULL, g_strdup ("Start"),
                      cs_time_format_iso (cs_call_get_start_ns (call)));
  cs_report_grid_add (grid, NULL, g_strdup ("Post-dial delay"),
                      cs_opt (cs_call_get_pdd_ms (call), "%.1f ms"));
  cs_report_grid_add (grid, NULL, g_strdup ("Setup time"),
                      cs_opt (cs_call_get_setup_ms (call), "%.1f ms"));
  cs_report_grid_add (grid, NULL, g_strdup ("Ringing"),
                      cs_opt (cs_call_get_ring_ms (call), "%.1f ms"));
  cs_report_grid_add (grid, NULL, g_strdup ("Duration"),
                      cs_opt (cs_call_get_duration_s (call), "%.2f s"));
  cs_report_grid_add (grid, NULL, g_strdup ("Messages"),
                      g_strdup_printf ("%u (%u retransmitted)", cs_call_get_n_messages (call),
                                       cs_call_get_retransmissions (call)));
  cs_report_grid_add (grid, cs_report_mos_class (cs_call_get_mos (call)),
                      g_strdup ("MOS (worst direction)"), cs_opt (cs_call_get_mos (call), "%.2f"));
  cs_report_grid_add (
      grid, NULL, g_strdup ("Frames"),
      g_strdup_printf ("%u … %u", cs_call_get_first_frame (call), cs_call_get_last_frame (call)));
  return grid;
}

CsReportGrid *
cs_report_grid_call_messages (CsCall *call)
{
  static const char *const columns[]
      = { "#Frame", "#Time s", "Source", "Destination", "Message", NULL };
  CsReportGrid *grid = cs_report_grid_new (columns);
  gint64 start = cs_call_get_start_ns (call);

  for (guint i = 0; i < cs_call_get_n_messages (call); i++)
    {
      CsSipMessage *m = cs_call_get_message (call, i);
      char src[CS_ENDPOINT_STRLEN], dst[CS_ENDPOINT_STRLEN];
      g_autofree char *label = cs_sip_message_dup_label (m);
      gboolean retransmission = cs_call_message_is_retransmission (call, i);

      cs_report_grid_add (grid,
                          retransmission                              ? "degraded"
                          : cs_sip_message_get_status_code (m) >= 400 ? "bad"
                                                                      : NULL,
                          g_strdup_printf ("%u", cs_sip_message_get_frame (m)),
                          g_strdup_printf ("%.3f", (cs_sip_message_get_ts_ns (m) - start) / 1e9),
                          g_strdup (cs_endpoint_to_string (cs_sip_message_get_src (m), src)),
                          g_strdup (cs_endpoint_to_string (cs_sip_message_get_dst (m), dst)),
                          retransmission ? g_strdup_printf ("%s (retransmission)", label)
                          : cs_call_message_is_sighting (call, i)
                              ? g_strdup_printf ("%s (seen again)", label)
                              : g_strdup (label));
    }
  return grid;
}

CsReportGrid *
cs_report_grid_streams (GPtrArray *streams)
{
  static const char *const columns[] = { "#Stream",
                                         "Source → destination",
                                         "SSRC",
                                         "Codec",
                                         "#Packets",
                                         "#Lost",
                                         "#Max delta ms",
                                         "#Mean jitter ms",
                                         "#Max jitter ms",
                                         "#Ppl %",
                                         "#Id",
                                         "#Ie eff",
                                         "#R",
                                         "#MOS",
                                         NULL };
  CsReportGrid *grid = cs_report_grid_new (columns);

  for (guint i = 0; i < streams->len; i++)
    {
      CsStream *s = g_ptr_array_index (streams, i);
      const CsRtpStats *st = cs_stream_get_stats (s);
      const CsMos *mos = cs_stream_get_mos (s);
      char src[CS_ENDPOINT_STRLEN], dst[CS_ENDPOINT_STRLEN];
      gboolean audio = mos->mos >= 0;

      cs_report_grid_add (
          grid, cs_report_mos_class (mos->mos), g_strdup_printf ("%u", cs_stream_get_id (s)),
          g_strdup_printf ("%s → %s", cs_endpoint_to_string (cs_stream_get_src (s), src),
                           cs_endpoint_to_string (cs_stream_get_dst (s), dst)),
          g_strdup_printf ("0x%08X", cs_stream_get_ssrc (s)), g_strdup (cs_stream_get_codec (s)),
          g_strdup_printf ("%u", st->packets),
          g_strdup_printf ("%d (%.1f%%)", st->lost,
                           st->expected > 0 ? 100.0 * st->lost / st->expected : 0.0),
          g_strdup_printf ("%.3f", st->max_delta_ms), g_strdup_printf ("%.3f", st->mean_jitter_ms),
          g_strdup_printf ("%.3f", st->max_jitter_ms),
          audio ? g_strdup_printf ("%.2f", mos->ppl) : g_strdup ("—"),
          audio ? g_strdup_printf ("%.1f", mos->id) : g_strdup ("—"),
          audio ? g_strdup_printf ("%.1f", mos->ie_eff) : g_strdup ("—"),
          audio ? g_strdup_printf ("%.1f", mos->r) : g_strdup ("—"), cs_opt (mos->mos, "%.2f"));
    }
  return grid;
}

CsReportGrid *
cs_report_grid_findings (GPtrArray *findings)
{
  static const char *const columns[]
      = { "Severity", "Kind", "#Call", "#Stream", "Frames", "Finding", NULL };
  CsReportGrid *grid = cs_report_grid_new (columns);

  for (guint i = 0; i < findings->len; i++)
    {
      CsFinding *f = g_ptr_array_index (findings, i);
      const GArray *frames = cs_finding_get_frames (f);
      GString *list = g_string_new (NULL);
      CsSeverity severity = cs_finding_get_severity (f);

      for (guint k = 0; k < frames->len; k++)
        g_string_append_printf (list, k > 0 ? " %u" : "%u", g_array_index (frames, guint32, k));
      cs_report_grid_add (grid,
                          severity == CS_SEVERITY_ERROR     ? "bad"
                          : severity == CS_SEVERITY_WARNING ? "degraded"
                                                            : "info",
                          g_strdup (cs_severity_to_string (severity)),
                          g_strdup (cs_finding_kind_to_string (cs_finding_get_kind (f))),
                          cs_finding_get_call_number (f) != 0
                              ? g_strdup_printf ("%u", cs_finding_get_call_number (f))
                              : NULL,
                          cs_finding_get_stream_id (f) != 0
                              ? g_strdup_printf ("%u", cs_finding_get_stream_id (f))
                              : NULL,
                          g_string_free (list, FALSE), g_strdup (cs_finding_get_text (f)));
    }
  return grid;
}
