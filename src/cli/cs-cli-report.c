/* cs-cli-report.c — report, calls, streams, findings */
#include <glib.h>

#include "cs-cli-commands.h"
#include "cs-cli-common.h"
#include "cs-report.h"

int
cs_cli_cmd_report (int argc, char **argv)
{
  CsCliOptions opts = { 0 };
  g_autoptr (CsAnalysis) analysis = NULL;
  gboolean is_report = g_strcmp0 (argv[0], "report") == 0;
  CsReportFormat format = is_report ? CS_REPORT_FORMAT_JSON : CS_REPORT_FORMAT_TEXT;
  CsTableKind kind = CS_TABLE_CALLS;
  int status = CS_EXIT_OK;
  FILE *out;
  gboolean written;

  if (!cs_cli_parse (argc, argv, "FILE...", NULL, &opts))
    return CS_EXIT_USAGE;
  if (opts.format != NULL && !cs_report_format_parse (opts.format, &format))
    {
      cs_cli_options_clear (&opts);
      return cs_cli_usage_error (argv[0], "unknown --format (use json, text or csv)");
    }
  if (g_strcmp0 (argv[0], "streams") == 0)
    kind = CS_TABLE_STREAMS;
  else if (g_strcmp0 (argv[0], "findings") == 0)
    kind = CS_TABLE_FINDINGS;
  analysis = cs_cli_load (&opts, &status);
  if (analysis != NULL && (out = cs_cli_open_output (&opts)) != NULL)
    {
      written = is_report ? cs_report_write (analysis, format, out)
                          : cs_report_write_table (analysis, kind, format, out);
      if (!cs_cli_close_output (out, written))
        {
          g_printerr ("callscope-cli: writing the output failed\n");
          status = CS_EXIT_UNREADABLE;
        }
      else
        status = cs_cli_damage_status (analysis);
    }
  else if (analysis != NULL)
    status = CS_EXIT_UNREADABLE;
  cs_cli_options_clear (&opts);
  return status;
}
