/* cs-report-table.c — calls as text table and CSV */
#include "cs-report-table.h"

#include "cs-time-format.h"

void
cs_csv_field (FILE *out, const char *value, gboolean last)
{
  const char *v = value != NULL ? value : "";

  if (strpbrk (v, ",\"\r\n") != NULL)
    {
      fputc ('"', out);
      for (const char *p = v; *p != '\0'; p++)
        {
          if (*p == '"')
            fputc ('"', out);
          fputc (*p, out);
        }
      fputc ('"', out);
    }
  else
    fputs (v, out);
  fputc (last ? '\n' : ',', out);
}

static char *
cs_format_optional (double value, const char *format)
{
  return value < 0 ? g_strdup ("") : g_strdup_printf (format, value);
}

typedef struct
{
  char *fields[13];
} CsCallRow;

static const char *const cs_call_columns[]
    = { "id",       "method",          "from",   "to",          "state",
        "final",    "start",           "pdd_ms", "setup_ms",    "duration_s",
        "messages", "retransmissions", "call_id" };

static void
cs_call_row_fill (CsCallRow *row, CsCall *call)
{
  guint code = cs_call_get_final_status (call);

  row->fields[0] = g_strdup_printf ("%u", cs_call_get_number (call));
  row->fields[1] = g_strdup (cs_call_get_method_name (call));
  row->fields[2] = g_strdup (cs_call_get_from (call));
  row->fields[3] = g_strdup (cs_call_get_to (call));
  row->fields[4] = g_strdup (cs_call_state_to_string (cs_call_get_state (call)));
  row->fields[5] = code != 0 ? g_strdup_printf ("%u", code) : g_strdup ("");
  row->fields[6] = cs_time_format_iso (cs_call_get_start_ns (call));
  row->fields[7] = cs_format_optional (cs_call_get_pdd_ms (call), "%.1f");
  row->fields[8] = cs_format_optional (cs_call_get_setup_ms (call), "%.1f");
  row->fields[9] = cs_format_optional (cs_call_get_duration_s (call), "%.2f");
  row->fields[10] = g_strdup_printf ("%u", cs_call_get_n_messages (call));
  row->fields[11] = g_strdup_printf ("%u", cs_call_get_retransmissions (call));
  row->fields[12] = g_strdup (cs_call_get_call_id (call));
}

static void
cs_call_row_clear (CsCallRow *row)
{
  for (guint i = 0; i < G_N_ELEMENTS (row->fields); i++)
    g_free (row->fields[i]);
}

void
cs_report_table_calls_csv (CsAnalysis *analysis, FILE *out)
{
  GListModel *calls = cs_analysis_get_calls (analysis);
  guint n = g_list_model_get_n_items (calls);

  for (guint c = 0; c < G_N_ELEMENTS (cs_call_columns); c++)
    cs_csv_field (out, cs_call_columns[c], c + 1 == G_N_ELEMENTS (cs_call_columns));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (CsCall) call = g_list_model_get_item (calls, i);
      CsCallRow row;

      cs_call_row_fill (&row, call);
      for (guint c = 0; c < G_N_ELEMENTS (row.fields); c++)
        cs_csv_field (out, row.fields[c], c + 1 == G_N_ELEMENTS (row.fields));
      cs_call_row_clear (&row);
    }
}

void
cs_report_table_calls_text (CsAnalysis *analysis, FILE *out)
{
  GListModel *calls = cs_analysis_get_calls (analysis);
  guint n = g_list_model_get_n_items (calls);
  guint n_cols = G_N_ELEMENTS (cs_call_columns);
  guint widths[G_N_ELEMENTS (cs_call_columns)];
  CsCallRow *rows = g_new0 (CsCallRow, n);

  for (guint c = 0; c < n_cols; c++)
    widths[c] = strlen (cs_call_columns[c]);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (CsCall) call = g_list_model_get_item (calls, i);

      cs_call_row_fill (&rows[i], call);
      for (guint c = 0; c < n_cols; c++)
        widths[c] = MAX (widths[c], (guint) g_utf8_strlen (rows[i].fields[c] ? rows[i].fields[c] : "", -1));
    }
  for (guint c = 0; c < n_cols; c++)
    fprintf (out, "%-*s%s", (int) widths[c], cs_call_columns[c], c + 1 < n_cols ? "  " : "\n");
  for (guint i = 0; i < n; i++)
    {
      for (guint c = 0; c < n_cols; c++)
        {
          const char *v = rows[i].fields[c] ? rows[i].fields[c] : "";
          /* numbers right-aligned, text left-aligned */
          gboolean numeric = c == 0 || c == 5 || (c >= 7 && c <= 11);

          fprintf (out, numeric ? "%*s%s" : "%-*s%s", (int) widths[c], v,
                   c + 1 < n_cols ? "  " : "\n");
        }
      cs_call_row_clear (&rows[i]);
    }
  g_free (rows);
}
