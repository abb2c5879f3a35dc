/* cs-cli-report.c — report, calls, streams, findings */
#include <glib.h>

#include "cs-cli-commands.h"
#include "cs-cli-common.h"
#include "callscope-engine.h"
#include "cs-report.h"

int
cs_cli_cmd_report (int argc, char **argv)
{
  CsCliOptions opts = { 0 };
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (CsAnalysis) redacted = NULL;
  CsAnalysis *subject;
  gboolean is_report = g_strcmp0 (argv[0], "report") == 0;
  CsReportFormat format = is_report ? CS_REPORT_FORMAT_JSON : CS_REPORT_FORMAT_TEXT;
  CsTableKind kind = CS_TABLE_CALLS;
  int status = CS_EXIT_OK;
  FILE *out;
  gboolean written;
  gint64 report_start_us;
  g_auto (GStrv) call_args = NULL;
  g_autoptr (GArray) calls = g_array_new (FALSE, FALSE, sizeof (guint));
  gboolean redact = FALSE;
  GOptionEntry report_extra[] = {
    { "redact", 0, 0, G_OPTION_ARG_NONE, &redact,
      "Report on the calls redacted (as `export --redact` writes them)", NULL },
    { "call", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &call_args,
      "html/pdf: only this call (number or Call-ID; repeat for several)", "CALL" },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };

  /* calls, streams and findings take --redact only */
  if (!is_report)
    report_extra[1] = report_extra[2];
  if (!cs_cli_parse (argc, argv, "FILE...", report_extra, &opts))
    return CS_EXIT_USAGE;
  if (opts.format != NULL && !cs_report_format_parse (opts.format, &format))
    {
      cs_cli_options_clear (&opts);
      return cs_cli_usage_error (argv[0],
                                 is_report ? "unknown --format (use json, text, csv, html or pdf)"
                                           : "unknown --format (use json, text or csv)");
    }
  if (!is_report && (format == CS_REPORT_FORMAT_HTML || format == CS_REPORT_FORMAT_PDF))
    {
      cs_cli_options_clear (&opts);
      return cs_cli_usage_error (argv[0], "html and pdf are formats of 'report'");
    }
#ifndef CS_CLI_RENDER
  /* html and pdf draw ladders and graphs: callscope-cli-render writes them */
  if (format == CS_REPORT_FORMAT_HTML || format == CS_REPORT_FORMAT_PDF)
    {
      cs_cli_options_clear (&opts);
      return CS_CLI_RUN_RENDER;
    }
#endif
  if (g_strcmp0 (argv[0], "streams") == 0)
    kind = CS_TABLE_STREAMS;
  else if (g_strcmp0 (argv[0], "findings") == 0)
    kind = CS_TABLE_FINDINGS;
  analysis = cs_cli_load (&opts, &status);
  report_start_us = g_get_monotonic_time ();
  if (analysis != NULL && !cs_cli_find_calls (analysis, call_args, argv[0], calls))
    {
      cs_cli_options_clear (&opts);
      return CS_EXIT_USAGE;
    }
  if (analysis != NULL && redact)
    {
      g_autoptr (GError) error = NULL;

      redacted = cs_export_redacted_analysis (analysis, (const guint *) calls->data, calls->len,
                                              CS_EXPORT_REDACT, NULL, NULL, NULL, &error);

      if (redacted == NULL)
        {
          g_printerr ("callscope-cli %s: %s\n", argv[0], error->message);
          cs_cli_options_clear (&opts);
          return CS_EXIT_UNREADABLE;
        }
      status = cs_cli_damage_status (analysis);
      g_array_set_size (calls, 0); /* the redacted analysis holds those calls only */
    }
  subject = redacted != NULL ? redacted : analysis;
  if (subject != NULL && (out = cs_cli_open_output (&opts)) != NULL)
    {
      /* on one thread: measured faster than the two-thread writer on the 2-core build VM (A
       * at 2 threads 12.2 -> 3.8 ms, S 108 -> 87 ms), likely as its helper builds the pieces
       * in fresh memory it must fault in, and they are copied once more */
      written = is_report ? cs_report_write_calls (subject, format, (const guint *) calls->data,
                                                   calls->len, out)
                          : cs_report_write_table (subject, kind, format, out);
      if (!cs_cli_close_output (out, written))
        {
          g_printerr ("callscope-cli: writing the output failed\n");
          status = CS_EXIT_UNREADABLE;
        }
      else if (!redact)
        status = cs_cli_damage_status (analysis);
      cs_cli_profile ("report", report_start_us);
    }
  else if (analysis != NULL)
    status = CS_EXIT_UNREADABLE;
  cs_cli_options_clear (&opts);
  return status;
}
