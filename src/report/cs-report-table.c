/* cs-report-table.c — one table model (columns + string rows), two renderings */
#include "cs-report-table.h"

#include <string.h>

#include "callscope-engine.h"
#include "cs-time-format.h"

typedef struct
{
  const char *name;
  gboolean numeric; /* right-aligned in text */
} CsColumn;

typedef struct
{
  const CsColumn *columns;
  guint n_columns;
  GPtrArray *rows; /* GStrv, n_columns each */
} CsTable;

static const CsColumn cs_call_columns[] = {
  { "id", TRUE },       { "method", FALSE },    { "from", FALSE },    { "to", FALSE },
  { "state", FALSE },   { "final", TRUE },      { "start", FALSE },   { "pdd_ms", TRUE },
  { "setup_ms", TRUE }, { "duration_s", TRUE }, { "messages", TRUE }, { "retransmissions", TRUE },
  { "streams", TRUE },  { "mos", TRUE },        { "findings", TRUE }, { "call_id", FALSE },
};

static const CsColumn cs_stream_columns[] = {
  { "id", TRUE },
  { "call", TRUE },
  { "src", FALSE },
  { "dst", FALSE },
  { "ssrc", FALSE },
  { "codec", FALSE },
  { "packets", TRUE },
  { "lost", TRUE },
  { "lost_pct", TRUE },
  { "seq_errors", TRUE },
  { "max_delta_ms", TRUE },
  { "mean_jitter_ms", TRUE },
  { "max_jitter_ms", TRUE },
  { "mos", TRUE },
  { "first_frame", TRUE },
  /* what the far end reported over RTCP; empty without RTCP */
  { "rtcp_rtt_ms", TRUE },
  { "rtcp_max_rtt_ms", TRUE },
  { "rtcp_lost_pct", TRUE },
  { "rtcp_cum_lost", TRUE },
};

static const CsColumn cs_finding_columns[] = {
  { "severity", FALSE }, { "kind", FALSE },   { "call", TRUE },
  { "stream", TRUE },    { "frames", FALSE }, { "text", FALSE },
};

/* Rows are string vectors: a NULL inside would end them early (and leak the rest). Text
 * from the capture is made inert here, once, for the terminal and the spreadsheet alike. */
static char *
cs_dup_or_empty (const char *text)
{
  return text != NULL ? cs_text_inert_dup (text) : g_strdup ("");
}

static char *
cs_format_optional (double value, const char *format)
{
  return value < 0 ? g_strdup ("") : g_strdup_printf (format, value);
}

static char **
cs_call_row (CsCall *call)
{
  char **row = g_new0 (char *, G_N_ELEMENTS (cs_call_columns) + 1);
  guint code = cs_call_get_final_status (call);
  guint i = 0;

  row[i++] = g_strdup_printf ("%u", cs_call_get_number (call));
  row[i++] = cs_dup_or_empty (cs_call_get_method_name (call));
  row[i++] = cs_dup_or_empty (cs_call_get_from (call));
  row[i++] = cs_dup_or_empty (cs_call_get_to (call));
  row[i++] = cs_dup_or_empty (cs_call_state_to_string (cs_call_get_state (call)));
  row[i++] = code != 0 ? g_strdup_printf ("%u", code) : g_strdup ("");
  row[i++] = cs_time_format_iso (cs_call_get_start_ns (call));
  row[i++] = cs_format_optional (cs_call_get_pdd_ms (call), "%.1f");
  row[i++] = cs_format_optional (cs_call_get_setup_ms (call), "%.1f");
  row[i++] = cs_format_optional (cs_call_get_duration_s (call), "%.2f");
  row[i++] = g_strdup_printf ("%u", cs_call_get_n_messages (call));
  row[i++] = g_strdup_printf ("%u", cs_call_get_retransmissions (call));
  row[i++] = g_strdup_printf ("%u", cs_call_get_stream_ids (call)->len);
  row[i++] = cs_format_optional (cs_call_get_mos (call), "%.2f");
  row[i++] = g_strdup_printf ("%u", cs_call_get_n_findings (call));
  row[i++] = cs_dup_or_empty (cs_call_get_call_id (call));
  return row;
}

static char **
cs_stream_row (CsStream *stream)
{
  char **row = g_new0 (char *, G_N_ELEMENTS (cs_stream_columns) + 1);
  const CsRtpStats *st = cs_stream_get_stats (stream);
  const CsStreamRtcp *rtcp = cs_stream_get_rtcp (stream);
  char buf[CS_ENDPOINT_STRLEN];
  guint i = 0;

  row[i++] = g_strdup_printf ("%u", cs_stream_get_id (stream));
  row[i++] = cs_stream_is_associated (stream)
                 ? g_strdup_printf ("%u", cs_stream_get_call_number (stream))
                 : g_strdup ("");
  row[i++] = cs_dup_or_empty (cs_endpoint_to_string (cs_stream_get_src (stream), buf));
  row[i++] = cs_dup_or_empty (cs_endpoint_to_string (cs_stream_get_dst (stream), buf));
  row[i++] = g_strdup_printf ("0x%08X", cs_stream_get_ssrc (stream));
  row[i++] = cs_dup_or_empty (cs_stream_get_codec (stream));
  row[i++] = g_strdup_printf ("%u", st->packets);
  row[i++] = g_strdup_printf ("%d", st->lost);
  row[i++] = g_strdup_printf ("%.1f", st->expected > 0 ? 100.0 * st->lost / st->expected : 0.0);
  row[i++] = g_strdup_printf ("%u", st->sequence_errors);
  row[i++] = g_strdup_printf ("%.3f", st->max_delta_ms);
  row[i++] = g_strdup_printf ("%.3f", st->mean_jitter_ms);
  row[i++] = g_strdup_printf ("%.3f", st->max_jitter_ms);
  row[i++] = cs_format_optional (cs_stream_get_mos (stream)->mos, "%.2f");
  row[i++] = g_strdup_printf ("%u", st->first_frame);
  row[i++] = rtcp != NULL ? cs_format_optional (rtcp->mean_rtt_ms, "%.1f") : g_strdup ("");
  row[i++] = rtcp != NULL ? cs_format_optional (rtcp->max_rtt_ms, "%.1f") : g_strdup ("");
  row[i++] = rtcp != NULL && rtcp->n_rr > 0
                 ? g_strdup_printf ("%.1f", 100.0 * rtcp->max_fraction_lost / 256.0)
                 : g_strdup ("");
  row[i++] = rtcp != NULL && rtcp->n_rr > 0 ? g_strdup_printf ("%d", rtcp->last_cumulative_lost)
                                            : g_strdup ("");
  return row;
}

static char **
cs_finding_row (CsFinding *finding)
{
  char **row = g_new0 (char *, G_N_ELEMENTS (cs_finding_columns) + 1);
  const GArray *frames = cs_finding_get_frames (finding);
  GString *list = g_string_new (NULL);
  guint i = 0;

  for (guint f = 0; f < frames->len; f++)
    g_string_append_printf (list, f > 0 ? " %u" : "%u", g_array_index (frames, guint32, f));
  row[i++] = cs_dup_or_empty (cs_severity_to_string (cs_finding_get_severity (finding)));
  row[i++] = cs_dup_or_empty (cs_finding_kind_to_string (cs_finding_get_kind (finding)));
  row[i++] = cs_finding_get_call_number (finding) != 0
                 ? g_strdup_printf ("%u", cs_finding_get_call_number (finding))
                 : g_strdup ("");
  row[i++] = cs_finding_get_stream_id (finding) != 0
                 ? g_strdup_printf ("%u", cs_finding_get_stream_id (finding))
                 : g_strdup ("");
  row[i++] = g_string_free (list, FALSE);
  row[i++] = cs_dup_or_empty (cs_finding_get_text (finding));
  return row;
}

/* Text tables group identical findings (one kind, severity and text): a row with the
 * count, then a row listing the calls it stands for. CSV and JSON keep one per finding. */
#define CS_GROUP_CALL_RANGES 12

static void
cs_table_add_finding_groups (CsTable *table, GListModel *findings)
{
  g_autoptr (GPtrArray) groups = cs_finding_groups_new (findings);

  for (guint g = 0; g < groups->len; g++)
    {
      const CsFindingGroup *group = g_ptr_array_index (groups, g);
      guint n = group->members->len;
      char **row, **calls;

      if (n == 1)
        {
          g_ptr_array_add (table->rows, cs_finding_row (group->first));
          continue;
        }
      row = g_new0 (char *, G_N_ELEMENTS (cs_finding_columns) + 1);
      row[0] = cs_dup_or_empty (cs_severity_to_string (cs_finding_get_severity (group->first)));
      row[1] = cs_dup_or_empty (cs_finding_kind_to_string (cs_finding_get_kind (group->first)));
      row[2] = g_strdup_printf ("×%u", n);
      row[3] = g_strdup ("");
      row[4] = g_strdup ("");
      row[5] = cs_dup_or_empty (cs_finding_get_text (group->first));
      g_ptr_array_add (table->rows, row);
      calls = g_new0 (char *, G_N_ELEMENTS (cs_finding_columns) + 1);
      for (guint c = 0; c < 5; c++)
        calls[c] = g_strdup ("");
      {
        g_autofree char *list = cs_finding_group_calls_text (group, CS_GROUP_CALL_RANGES);

        calls[5] = *list != '\0' ? g_strdup_printf ("  calls %s", list) : g_strdup ("");
      }
      g_ptr_array_add (table->rows, calls);
    }
}

static void
cs_table_build (CsTable *table, CsAnalysis *analysis, CsTableKind kind, gboolean grouped)
{
  GListModel *model;

  table->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  switch (kind)
    {
    case CS_TABLE_CALLS:
      table->columns = cs_call_columns;
      table->n_columns = G_N_ELEMENTS (cs_call_columns);
      model = cs_analysis_get_calls (analysis);
      break;
    case CS_TABLE_STREAMS:
      table->columns = cs_stream_columns;
      table->n_columns = G_N_ELEMENTS (cs_stream_columns);
      model = cs_analysis_get_streams (analysis);
      break;
    case CS_TABLE_FINDINGS:
    default:
      table->columns = cs_finding_columns;
      table->n_columns = G_N_ELEMENTS (cs_finding_columns);
      model = cs_analysis_get_findings (analysis);
      if (grouped)
        {
          cs_table_add_finding_groups (table, model);
          return;
        }
      break;
    }
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (GObject) item = g_list_model_get_item (model, i);

      if (kind == CS_TABLE_CALLS)
        g_ptr_array_add (table->rows, cs_call_row (CS_CALL (item)));
      else if (kind == CS_TABLE_STREAMS)
        g_ptr_array_add (table->rows, cs_stream_row (CS_STREAM (item)));
      else
        g_ptr_array_add (table->rows, cs_finding_row (CS_FINDING (item)));
    }
}

static void
cs_csv_quoted (FILE *out, const char *v, gboolean quote, gboolean neutralise)
{
  if (quote)
    fputc ('"', out);
  if (neutralise)
    fputc ('\'', out);
  for (const char *p = v; *p != '\0'; p++)
    {
      if (*p == '"')
        fputc ('"', out);
      fputc (*p, out);
    }
  if (quote)
    fputc ('"', out);
}

gboolean
cs_csv_cell_is_formula (const char *value)
{
  const char *p = value;

  /* OWASP CSV injection: a spreadsheet runs a cell that starts with = + - @, a tab or a
   * carriage return (after leading spaces, in some of them) as a formula */
  while (*p == ' ')
    p++;
  return *p != '\0' && strchr ("=+-@\t\r", *p) != NULL;
}

void
cs_csv_field (FILE *out, const char *value, gboolean last)
{
  const char *v = value != NULL ? value : "";
  gboolean formula = cs_csv_cell_is_formula (v);

  cs_csv_quoted (out, v, formula || strpbrk (v, ",\"\r\n") != NULL, formula);
  fputc (last ? '\n' : ',', out);
}

void
cs_csv_number (FILE *out, const char *value, gboolean last)
{
  const char *v = value != NULL ? value : "";

  cs_csv_quoted (out, v, strpbrk (v, ",\"\r\n") != NULL, FALSE);
  fputc (last ? '\n' : ',', out);
}

void
cs_report_table_csv (CsAnalysis *analysis, CsTableKind kind, FILE *out)
{
  CsTable table;

  cs_table_build (&table, analysis, kind, FALSE);
  for (guint c = 0; c < table.n_columns; c++)
    cs_csv_field (out, table.columns[c].name, c + 1 == table.n_columns);
  for (guint r = 0; r < table.rows->len; r++)
    {
      char **row = g_ptr_array_index (table.rows, r);

      for (guint c = 0; c < table.n_columns; c++)
        (table.columns[c].numeric ? cs_csv_number : cs_csv_field) (out, row[c],
                                                                   c + 1 == table.n_columns);
    }
  g_ptr_array_unref (table.rows);
}

void
cs_report_table_text (CsAnalysis *analysis, CsTableKind kind, FILE *out)
{
  CsTable table;
  g_autofree guint *widths = NULL;

  cs_table_build (&table, analysis, kind, TRUE);
  widths = g_new0 (guint, table.n_columns);
  for (guint c = 0; c < table.n_columns; c++)
    widths[c] = strlen (table.columns[c].name);
  for (guint r = 0; r < table.rows->len; r++)
    {
      char **row = g_ptr_array_index (table.rows, r);

      for (guint c = 0; c < table.n_columns; c++)
        widths[c] = MAX (widths[c], (guint) g_utf8_strlen (row[c] != NULL ? row[c] : "", -1));
    }
  for (guint c = 0; c < table.n_columns; c++)
    {
      if (c + 1 < table.n_columns)
        fprintf (out, "%-*s  ", (int) widths[c], table.columns[c].name);
      else
        fprintf (out, "%s\n", table.columns[c].name);
    }
  for (guint r = 0; r < table.rows->len; r++)
    {
      char **row = g_ptr_array_index (table.rows, r);

      for (guint c = 0; c < table.n_columns; c++)
        {
          const char *v = row[c] != NULL ? row[c] : "";
          gboolean last = c + 1 == table.n_columns;

          if (last)
            fprintf (out, "%s\n", v);
          else
            fprintf (out, table.columns[c].numeric ? "%*s  " : "%-*s  ", (int) widths[c], v);
        }
    }
  g_ptr_array_unref (table.rows);
}
