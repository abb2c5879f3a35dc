/* cs-cli-export.c — export: selected calls as a trimmed (optionally redacted) pcapng */
#include <glib.h>

#include "cs-cli-commands.h"
#include "cs-cli-common.h"
#include "callscope-engine.h"

/* --rtp-payload keep|silence|drop: the export flag, or 0 (the default for the mode). */
static gboolean
cs_cli_parse_rtp_payload (const char *text, CsExportFlags *flag)
{
  if (text == NULL)
    *flag = 0;
  else if (g_strcmp0 (text, "keep") == 0)
    *flag = CS_EXPORT_KEEP_VOICE;
  else if (g_strcmp0 (text, "silence") == 0)
    *flag = CS_EXPORT_SILENCE_VOICE;
  else if (g_strcmp0 (text, "drop") == 0)
    *flag = CS_EXPORT_DROP_VOICE;
  else
    return FALSE;
  return TRUE;
}

/* -o names a folder (it exists, or ends with a slash): the default name goes inside. */
static char *
cs_cli_export_path (CsAnalysis *analysis, const char *output, const GArray *numbers,
                    gboolean redact)
{
  g_autofree char *name = NULL;

  if (!g_file_test (output, G_FILE_TEST_IS_DIR) && !g_str_has_suffix (output, G_DIR_SEPARATOR_S))
    return g_strdup (output);
  name = cs_export_suggest_file_name (analysis, (const guint *) numbers->data, numbers->len, redact,
                                      "callscope-calls", "pcapng");
  return g_build_filename (output, name, NULL);
}

int
cs_cli_cmd_export (int argc, char **argv)
{
  CsCliOptions opts = { 0 };
  g_auto (GStrv) calls = NULL;
  gboolean redact = FALSE;
  g_autofree char *rtp_payload = NULL;
  g_autofree char *path = NULL;
  GOptionEntry extra[] = {
    { "call", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &calls,
      "Call number or Call-ID (repeat for several; default: every call)", "CALL" },
    { "redact", 0, 0, G_OPTION_ARG_NONE, &redact,
      "Replace addresses, host names, numbers, user and display names, tags, digest "
      "parameters, keys and HEP credentials",
      NULL },
    { "rtp-payload", 0, 0, G_OPTION_ARG_STRING, &rtp_payload,
      "Voice in RTP: keep, silence or drop (default: silence with --redact, else keep)", "MODE" },
    { NULL, 0, 0, 0, NULL, NULL, NULL },
  };
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (GArray) numbers = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GError) error = NULL;
  CsExportFlags voice;
  int status = CS_EXIT_OK;

  if (!cs_cli_parse (argc, argv, "FILE --call CALL [--redact] -o out.pcapng|FOLDER/", extra, &opts))
    return CS_EXIT_USAGE;
  if (opts.output == NULL || g_strcmp0 (opts.output, "-") == 0)
    {
      cs_cli_options_clear (&opts);
      return cs_cli_usage_error (argv[0], "-o out.pcapng (or a folder) is required");
    }
  if (!cs_cli_parse_rtp_payload (rtp_payload, &voice))
    {
      cs_cli_options_clear (&opts);
      return cs_cli_usage_error (argv[0], "unknown --rtp-payload (use keep, silence or drop)");
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
  /* every call of a capture that has none: say so rather than write an empty file */
  if (calls == NULL && g_list_model_get_n_items (cs_analysis_get_calls (analysis)) == 0)
    {
      g_autofree char *message = g_strdup_printf (
          "no call to export: %s holds no SIP call or exchange",
          opts.files != NULL && opts.files[0] != NULL && opts.files[1] == NULL ? opts.files[0]
                                                                               : "the capture");

      cs_cli_options_clear (&opts);
      return cs_cli_usage_error (argv[0], message);
    }
  path = cs_cli_export_path (analysis, opts.output, numbers, redact);
  if (!cs_export_pcapng_to_file (analysis, (const guint *) numbers->data, numbers->len,
                                 (redact ? CS_EXPORT_REDACT : 0) | voice, path, NULL, NULL, NULL,
                                 &error))
    {
      g_printerr ("callscope-cli export: %s\n", error->message);
      status = CS_EXIT_UNREADABLE;
    }
  else
    {
      if (!opts.quiet && g_strcmp0 (path, opts.output) != 0)
        g_printerr ("Wrote %s\n", path);
      status = cs_cli_damage_status (analysis);
    }
  cs_cli_options_clear (&opts);
  return status;
}
