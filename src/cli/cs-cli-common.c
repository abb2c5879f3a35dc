/* cs-cli-common.c — options, loading and exit codes shared by the CLI commands */
#include "cs-cli-common.h"

#include <errno.h>
#include <string.h>

#include "callscope-engine.h"

int
cs_cli_usage_error (const char *command, const char *message)
{
  if (command != NULL)
    g_printerr ("callscope-cli %s: %s\n", command, message);
  else
    g_printerr ("callscope-cli: %s\n", message);
  g_printerr ("Try 'callscope-cli help'.\n");
  return CS_EXIT_USAGE;
}

gboolean
cs_cli_find_calls (CsAnalysis *analysis, char **specs, const char *command, GArray *numbers)
{
  for (guint i = 0; specs != NULL && specs[i] != NULL; i++)
    {
      guint number = cs_export_find_call (analysis, specs[i]);

      if (number == 0)
        {
          g_autofree char *message = g_strdup_printf ("no call '%s' in the capture", specs[i]);

          cs_cli_usage_error (command, message);
          return FALSE;
        }
      g_array_append_val (numbers, number);
    }
  return TRUE;
}

/* The --srtp-key values, parsed; the message names the target, never the key. */
static gboolean
cs_cli_parse_srtp_keys (const char *command, CsCliOptions *opts)
{
  for (guint i = 0; opts->srtp_key_specs != NULL && opts->srtp_key_specs[i] != NULL; i++)
    {
      g_autoptr (GError) error = NULL;
      CsSrtpUserKey key;

      if (!cs_srtp_user_key_parse (opts->srtp_key_specs[i], &key, &error))
        {
          const char *eq = strchr (opts->srtp_key_specs[i], '=');
          g_autofree char *message = g_strdup_printf (
              "--srtp-key %.*s: %s", eq != NULL ? (int) MIN (eq - opts->srtp_key_specs[i], 20) : 0,
              opts->srtp_key_specs[i], error->message);

          cs_cli_usage_error (command, message);
          return FALSE;
        }
      if (opts->srtp_keys == NULL)
        opts->srtp_keys = g_array_new (FALSE, FALSE, sizeof (CsSrtpUserKey));
      g_array_append_val (opts->srtp_keys, key);
    }
  return TRUE;
}

gboolean
cs_cli_parse (int argc, char **argv, const char *synopsis, const GOptionEntry *extra,
              CsCliOptions *opts)
{
  GOptionEntry common[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &opts->format, "Output format", "FMT" },
    { "threads", 't', 0, G_OPTION_ARG_INT, &opts->threads, "Decode threads (0 = all)", "N" },
    { "filter", 0, 0, G_OPTION_ARG_STRING, &opts->filter, "Analyse only frames matching BPF",
      "BPF" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &opts->output, "Write to FILE", "FILE" },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &opts->quiet, "No progress on stderr", NULL },
    { "keylog", 0, 0, G_OPTION_ARG_FILENAME, &opts->keylog_path,
      "Decrypt TLS (SIP over TLS) with this NSS key log (SSLKEYLOGFILE format)", "FILE" },
    { "srtp-key", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opts->srtp_key_specs,
      "SRTP key of a stream no SDP keyed: an SSRC (0x…) or stream number, '=', then "
      "[SUITE ]inline:BASE64[|LIFETIME][|MKI:LEN] (repeatable)",
      "SSRC_OR_STREAM=inline:KEY" },
    { "points", 0, 0, G_OPTION_ARG_NONE, &opts->points,
      "The files are capture points of one network: align their clocks, one message seen "
      "at several points is one message",
      NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &opts->files, NULL, "FILE..." },
    { NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new (synopsis);
  g_autoptr (GError) error = NULL;
  g_autofree char **args = g_new0 (char *, argc + 1);

  memcpy (args, argv, sizeof (char *) * argc);
  g_option_context_add_main_entries (context, common, NULL);
  cs_cli_homer_add_entries (context, opts);
  if (extra != NULL)
    g_option_context_add_main_entries (context, extra, NULL);
  if (!g_option_context_parse (context, &argc, &args, &error))
    {
      cs_cli_usage_error (argv[0], error->message);
      return FALSE;
    }
  if (opts->threads < 0)
    {
      cs_cli_usage_error (argv[0], "--threads must be 0 or more");
      return FALSE;
    }
  if (!cs_cli_parse_srtp_keys (argv[0], opts))
    {
      cs_cli_options_clear (opts); /* nothing parsed so far outlives the usage error */
      return FALSE;
    }
  return TRUE;
}

void
cs_cli_options_clear (CsCliOptions *opts)
{
  g_free (opts->format);
  g_free (opts->filter);
  g_free (opts->output);
  g_strfreev (opts->srtp_key_specs);
  g_free (opts->keylog_path);
  g_clear_pointer (&opts->srtp_keys, g_array_unref);
  g_strfreev (opts->files);
  cs_cli_homer_options_clear (opts);
  memset (opts, 0, sizeof *opts);
}

CsAnalysis *
cs_cli_load (const CsCliOptions *opts, int *exit_status)
{
  g_autoptr (CsLoader) loader = cs_loader_new ();
  g_autoptr (GError) error = NULL;
  CsAnalysis *analysis;

  cs_loader_set_threads (loader, (guint) opts->threads);
  cs_loader_set_filter (loader, opts->filter);
  cs_loader_set_srtp_keys (loader, opts->srtp_keys);
  cs_loader_set_points (loader, opts->points);
  if (opts->keylog_path != NULL)
    {
      g_autoptr (CsTlsKeylog) keylog = cs_tls_keylog_new ();
      guint first_bad = 0, bad;

      if (!cs_tls_keylog_load_file (keylog, opts->keylog_path, &error))
        {
          g_printerr ("callscope-cli: %s\n", error->message);
          *exit_status = CS_EXIT_UNREADABLE;
          return NULL;
        }
      bad = cs_tls_keylog_get_bad_lines (keylog, &first_bad);
      if (bad > 0 && !opts->quiet)
        g_printerr ("callscope-cli: %s: %u line%s not understood (the first: line %u), "
                    "skipped\n",
                    opts->keylog_path, bad, bad == 1 ? "" : "s", first_bad);
      cs_loader_set_keylog (loader, keylog);
    }
  if (opts->homer != NULL)
    {
      if (opts->files != NULL && opts->files[0] != NULL)
        {
          *exit_status = cs_cli_usage_error (NULL, "give capture files or --homer, not both");
          return NULL;
        }
      analysis = cs_cli_homer_load (opts, loader, exit_status);
      cs_cli_keep_until_exit (analysis);
      return analysis;
    }
  if (opts->files == NULL || opts->files[0] == NULL)
    {
      *exit_status = cs_cli_usage_error (NULL, "no capture file given");
      return NULL;
    }
  analysis = cs_loader_load (loader, (const char *const *) opts->files, NULL, &error);
  if (analysis != NULL && opts->hep_send != NULL && !cs_cli_hep_send_files (opts))
    {
      g_object_unref (analysis);
      *exit_status = CS_EXIT_UNREADABLE;
      return NULL;
    }
  cs_cli_keep_until_exit (analysis);
  if (analysis == NULL)
    {
      g_printerr ("callscope-cli: %s\n", error->message);
      *exit_status = g_error_matches (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_FILTER)
                         ? CS_EXIT_USAGE
                         : CS_EXIT_UNREADABLE;
    }
  return analysis;
}

#if defined(__SANITIZE_ADDRESS__)
#define CS_CLI_FREE_AT_EXIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CS_CLI_FREE_AT_EXIT 1
#endif
#endif

void
cs_cli_keep_until_exit (CsAnalysis *analysis)
{
#ifndef CS_CLI_FREE_AT_EXIT
  static CsAnalysis *kept;

  if (analysis != NULL && kept == NULL)
    kept = g_object_ref (analysis);
#endif
}

void
cs_cli_profile (const char *phase, gint64 since_us)
{
  g_autofree char *status = NULL;
  const char *rss, *hwm;

  if (g_getenv ("CALLSCOPE_PROFILE") == NULL)
    return;
  g_file_get_contents ("/proc/self/status", &status, NULL, NULL);
  rss = status != NULL ? strstr (status, "VmRSS:") : NULL;
  hwm = status != NULL ? strstr (status, "VmHWM:") : NULL;
  /* the loader's line format, so tests/bench reads both alike */
  g_printerr ("callscope-profile: %-10s %8.1f ms  rss %6lld KiB  peak %6lld KiB\n", phase,
              (g_get_monotonic_time () - since_us) / 1000.0,
              rss != NULL ? g_ascii_strtoll (rss + 6, NULL, 10) : 0LL,
              hwm != NULL ? g_ascii_strtoll (hwm + 6, NULL, 10) : 0LL);
}

int
cs_cli_damage_status (CsAnalysis *analysis)
{
  const GError *damage = cs_analysis_get_damage (analysis);

  if (cs_cli_homer_get_bad_rows () > 0)
    return CS_EXIT_DAMAGED; /* cs_cli_homer_load named the rows */
  if (damage == NULL)
    return CS_EXIT_OK;
  g_printerr ("callscope-cli: %s\n", damage->message);
  return CS_EXIT_DAMAGED;
}

FILE *
cs_cli_open_output (const CsCliOptions *opts)
{
  FILE *out;

  if (opts->output == NULL || g_strcmp0 (opts->output, "-") == 0)
    return stdout;
  out = fopen (opts->output, "w");
  if (out == NULL)
    g_printerr ("callscope-cli: cannot write %s: %s\n", opts->output, g_strerror (errno));
  return out;
}

gboolean
cs_cli_close_output (FILE *out, gboolean written)
{
  if (out == stdout)
    return fflush (out) == 0 && written;
  return fclose (out) == 0 && written;
}
