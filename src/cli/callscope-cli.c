/* callscope-cli — the engine headless: reports for scripts, tests and benchmarks */
#include "cs-config.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>

#include "cs-error.h"
#include "cs-loader.h"
#include "cs-report.h"

enum
{
  CS_EXIT_OK = 0,
  CS_EXIT_UNREADABLE = 1, /* nothing could be analysed */
  CS_EXIT_USAGE = 2,
  CS_EXIT_DAMAGED = 3, /* analysed up to damage in the input */
};

typedef struct
{
  char *format;
  int threads;
  char *filter;
  char *output;
  gboolean quiet;
} CsCliOptions;

static const char *const cs_cli_usage
    = "Usage: callscope-cli COMMAND FILE... [OPTIONS]\n"
      "\n"
      "Commands:\n"
      "  report FILE...   capture totals and every call [--format json|text|csv]\n"
      "  calls FILE...    the calls table [--format text|csv|json]\n"
      "  streams FILE...  RTP streams with their metrics [--format text|csv|json]\n"
      "  findings FILE... problems found, with frame numbers [--format text|csv|json]\n"
      "\n"
      "Options:\n"
      "  -f, --format FMT   output format\n"
      "  -t, --threads N    decode threads (default: one per processor)\n"
      "  --filter BPF       analyse only frames matching a BPF expression\n"
      "  -o, --output FILE  write to FILE instead of standard output\n"
      "\n"
      "Exit status: 0 clean, 1 unreadable input, 2 usage, 3 damaged input\n"
      "(analysed up to the damage; stderr names the file and byte offset).\n";

static int
cs_cli_usage_error (const char *message)
{
  if (message != NULL)
    g_printerr ("callscope-cli: %s\n\n", message);
  g_printerr ("%s", cs_cli_usage);
  return CS_EXIT_USAGE;
}

static gboolean
cs_cli_parse (int *argc, char ***argv, CsCliOptions *opts, GError **error)
{
  GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &opts->format, "Output format", "FMT" },
    { "threads", 't', 0, G_OPTION_ARG_INT, &opts->threads, "Decode threads", "N" },
    { "filter", 0, 0, G_OPTION_ARG_STRING, &opts->filter, "BPF filter", "BPF" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opts->output, "Output file", "FILE" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &opts->quiet, "No progress on stderr", NULL },
    { NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("COMMAND FILE...");

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_help_enabled (context, FALSE);
  return g_option_context_parse (context, argc, argv, error);
}

static CsTableKind
cs_cli_table_kind (const char *command)
{
  if (g_strcmp0 (command, "streams") == 0)
    return CS_TABLE_STREAMS;
  if (g_strcmp0 (command, "findings") == 0)
    return CS_TABLE_FINDINGS;
  return CS_TABLE_CALLS;
}

static int
cs_cli_run_analysis (const char *command, char **files, const CsCliOptions *opts)
{
  g_autoptr (CsLoader) loader = cs_loader_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (CsAnalysis) analysis = NULL;
  CsReportFormat format
      = g_strcmp0 (command, "report") == 0 ? CS_REPORT_FORMAT_JSON : CS_REPORT_FORMAT_TEXT;
  FILE *out = stdout;
  gboolean written;
  const GError *damage;

  if (opts->format != NULL && !cs_report_format_parse (opts->format, &format))
    return cs_cli_usage_error ("unknown --format (use json, text or csv)");
  if (opts->threads < 0)
    return cs_cli_usage_error ("--threads must be 0 or more");
  cs_loader_set_threads (loader, (guint) opts->threads);
  cs_loader_set_filter (loader, opts->filter);

  analysis = cs_loader_load (loader, (const char *const *) files, NULL, &error);
  if (analysis == NULL)
    {
      g_printerr ("callscope-cli: %s\n", error->message);
      return g_error_matches (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_FILTER)
                 ? CS_EXIT_USAGE
                 : CS_EXIT_UNREADABLE;
    }
  if (opts->output != NULL && (out = fopen (opts->output, "w")) == NULL)
    {
      g_printerr ("callscope-cli: cannot write %s: %s\n", opts->output, g_strerror (errno));
      return CS_EXIT_UNREADABLE;
    }
  if (g_strcmp0 (command, "report") == 0)
    written = cs_report_write (analysis, format, out);
  else
    written = cs_report_write_table (analysis, cs_cli_table_kind (command), format, out);
  if (out != stdout)
    written = fclose (out) == 0 && written;
  if (!written)
    {
      g_printerr ("callscope-cli: writing the output failed\n");
      return CS_EXIT_UNREADABLE;
    }
  damage = cs_analysis_get_damage (analysis);
  if (damage != NULL)
    {
      g_printerr ("callscope-cli: %s\n", damage->message);
      return CS_EXIT_DAMAGED;
    }
  return CS_EXIT_OK;
}

int
main (int argc, char **argv)
{
  CsCliOptions opts = { 0 };
  g_autoptr (GError) error = NULL;
  const char *command;
  int status;

  setlocale (LC_ALL, "");
  if (!cs_cli_parse (&argc, &argv, &opts, &error))
    return cs_cli_usage_error (error->message);
  if (argc < 2 || g_strcmp0 (argv[1], "help") == 0 || g_strcmp0 (argv[1], "--help") == 0)
    {
      g_print ("%s", cs_cli_usage);
      return argc < 2 ? CS_EXIT_USAGE : CS_EXIT_OK;
    }
  command = argv[1];
  if (g_strcmp0 (command, "--version") == 0)
    {
      g_print ("callscope-cli %s\n", PACKAGE_VERSION);
      return CS_EXIT_OK;
    }
  if (g_strcmp0 (command, "report") != 0 && g_strcmp0 (command, "calls") != 0
      && g_strcmp0 (command, "streams") != 0 && g_strcmp0 (command, "findings") != 0)
    return cs_cli_usage_error ("unknown command");
  if (argc < 3)
    return cs_cli_usage_error ("no capture file given");
  status = cs_cli_run_analysis (command, argv + 2, &opts);
  g_free (opts.format);
  g_free (opts.filter);
  g_free (opts.output);
  return status;
}
