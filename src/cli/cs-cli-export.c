/* cs-cli-export.c — export: selected calls as a trimmed (optionally redacted) pcapng */
#include <glib.h>

#include "cs-cli-commands.h"
#include "cs-cli-common.h"
#include "callscope-engine.h"

int
cs_cli_cmd_export (int argc, char **argv)
{
  CsCliOptions opts = { 0 };
  g_auto (GStrv) calls = NULL;
  gboolean redact = FALSE;
  GOptionEntry extra[] = {
    { "call", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &calls,
      "Call number or Call-ID (repeat for several; default: every call)", "CALL" },
    { "redact", 0, 0, G_OPTION_ARG_NONE, &redact,
      "Replace numbers, user names, addresses, digest responses and SDP keys", NULL },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (GArray) numbers = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GError) error = NULL;
  int status = CS_EXIT_OK;

  if (!cs_cli_parse (argc, argv, "FILE --call CALL [--redact] -o out.pcapng", extra, &opts))
    return CS_EXIT_USAGE;
  if (opts.output == NULL || g_strcmp0 (opts.output, "-") == 0)
    {
      cs_cli_options_clear (&opts);
      return cs_cli_usage_error (argv[0], "-o out.pcapng is required");
    }
  analysis = cs_cli_load (&opts, &status);
  if (analysis == NULL)
    {
      cs_cli_options_clear (&opts);
      return status;
    }
  if (!cs_cli_find_calls (analysis, calls, argv[0], numbers))
    {
      cs_cli_options_clear (&opts);
      return CS_EXIT_USAGE;
    }
  if (!cs_export_pcapng_to_file (analysis, (const guint *) numbers->data, numbers->len,
                                 redact ? CS_EXPORT_REDACT : 0, opts.output, NULL, NULL, NULL,
                                 &error))
    {
      g_printerr ("callscope-cli export: %s\n", error->message);
      status = CS_EXIT_UNREADABLE;
    }
  else
    status = cs_cli_damage_status (analysis);
  cs_cli_options_clear (&opts);
  return status;
}
