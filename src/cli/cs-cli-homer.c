/* cs-cli-homer.c — `--homer URI --from --to …` (a Homer 7 window as input) and `--hep-send` */
#include "cs-cli-common.h"

#include <unistd.h>

static guint64 cs_cli_homer_bad_rows;

void
cs_cli_homer_add_entries (GOptionContext *context, CsCliOptions *opts)
{
  GOptionEntry entries[] = {
    { "homer", 0, 0, G_OPTION_ARG_STRING, &opts->homer,
      "Read a Homer 7 PostgreSQL store instead of files", "URI" },
    { "from", 0, 0, G_OPTION_ARG_STRING, &opts->homer_from, "Homer window start (ISO 8601, UTC)",
      "TIME" },
    { "to", 0, 0, G_OPTION_ARG_STRING, &opts->homer_to, "Homer window end", "TIME" },
    { "call-id", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opts->homer_call_ids,
      "Homer: only this Call-ID (repeatable)", "ID" },
    { "from-user", 0, 0, G_OPTION_ARG_STRING, &opts->homer_from_user,
      "Homer: calls with this From user", "U" },
    { "to-user", 0, 0, G_OPTION_ARG_STRING, &opts->homer_to_user, "Homer: calls with this To user",
      "U" },
    { "ruri-user", 0, 0, G_OPTION_ARG_STRING, &opts->homer_ruri_user,
      "Homer: calls with this request-URI user", "U" },
    { "ip", 0, 0, G_OPTION_ARG_STRING, &opts->homer_ip,
      "Homer: calls with a message from or to ADDR", "ADDR" },
    { "node", 0, 0, G_OPTION_ARG_STRING, &opts->homer_node, "Homer: only rows of this capture node",
      "NAME" },
    { "hep-send", 0, 0, G_OPTION_ARG_STRING, &opts->hep_send,
      "Also replay the files' SIP and RTCP as HEP3 to a collector", "ADDR:PORT" },
    { "hep-rate", 0, 0, G_OPTION_ARG_DOUBLE, &opts->hep_rate,
      "With --hep-send: at most N HEP packets a second", "N" },
    { "hep-real-time", 0, 0, G_OPTION_ARG_NONE, &opts->hep_real_time,
      "With --hep-send: at the capture's own pace", NULL },
    { NULL },
  };
  GOptionGroup *group = g_option_group_new (
      "homer", "Homer fleet store and HEP options:", "Show the Homer and HEP options", NULL, NULL);

  g_option_group_add_entries (group, entries);
  g_option_context_add_group (context, group);
}

void
cs_cli_homer_options_clear (CsCliOptions *opts)
{
  g_free (opts->homer);
  g_free (opts->homer_from);
  g_free (opts->homer_to);
  g_strfreev (opts->homer_call_ids);
  g_free (opts->homer_from_user);
  g_free (opts->homer_to_user);
  g_free (opts->homer_ruri_user);
  g_free (opts->homer_ip);
  g_free (opts->homer_node);
  g_free (opts->hep_send);
}

static void
cs_cli_homer_progress (guint64 rows, double rows_per_second, gpointer user_data)
{
  g_printerr ("\rHomer: %" G_GUINT64_FORMAT " rows (%.0f rows/s)   ", rows, rows_per_second);
}

static CsHomerQuery *
cs_cli_homer_query (const CsCliOptions *opts, GError **error)
{
  g_autoptr (CsHomerQuery) query = cs_homer_query_new (opts->homer);

  if (opts->homer_from == NULL || opts->homer_to == NULL)
    {
      g_set_error (error, CS_HOMER_ERROR, CS_HOMER_ERROR_USAGE,
                   "--homer needs a window: --from TIME --to TIME");
      return NULL;
    }
  if (!cs_homer_parse_time (opts->homer_from, &query->from_us, error)
      || !cs_homer_parse_time (opts->homer_to, &query->to_us, error))
    return NULL;
  for (guint i = 0; opts->homer_call_ids != NULL && opts->homer_call_ids[i] != NULL; i++)
    g_ptr_array_add (query->call_ids, g_strdup (opts->homer_call_ids[i]));
  query->from_user = g_strdup (opts->homer_from_user);
  query->to_user = g_strdup (opts->homer_to_user);
  query->ruri_user = g_strdup (opts->homer_ruri_user);
  query->ip = g_strdup (opts->homer_ip);
  query->node = g_strdup (opts->homer_node);
  if (!cs_homer_query_check (query, error))
    return NULL;
  return g_steal_pointer (&query);
}

CsAnalysis *
cs_cli_homer_load (const CsCliOptions *opts, CsLoader *loader, int *exit_status)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (CsHomerQuery) query = cs_cli_homer_query (opts, &error);
  gboolean show = !opts->quiet && isatty (STDERR_FILENO);
  CsHomerStats stats = { 0 };
  CsAnalysis *analysis;

  if (query == NULL)
    {
      *exit_status = cs_cli_usage_error (NULL, error->message);
      return NULL;
    }
  analysis = cs_homer_load (loader, query, show ? cs_cli_homer_progress : NULL, NULL, NULL, &stats,
                            &error);
  if (show)
    g_printerr ("\n");
  cs_cli_homer_bad_rows = stats.bad_rows;
  for (guint i = 0; stats.bad_row_messages != NULL && i < stats.bad_row_messages->len; i++)
    g_printerr ("callscope-cli: skipped %s\n", (const char *) stats.bad_row_messages->pdata[i]);
  if (stats.bad_rows > CS_HOMER_MAX_BAD_MESSAGES)
    g_printerr ("callscope-cli: skipped %" G_GUINT64_FORMAT " malformed rows in all\n",
                stats.bad_rows);
  if (analysis == NULL)
    {
      g_printerr ("callscope-cli: %s\n", error->message);
      *exit_status = g_error_matches (error, CS_HOMER_ERROR, CS_HOMER_ERROR_USAGE)
                         ? CS_EXIT_USAGE
                         : CS_EXIT_UNREADABLE;
    }
  else if (g_getenv ("CALLSCOPE_PROFILE") != NULL)
    g_printerr ("callscope-profile: homer      %" G_GUINT64_FORMAT " rows, fetch %.3f s "
                "(%.0f rows/s), load %.3f s\n",
                stats.rows, stats.fetch_seconds,
                stats.fetch_seconds > 0 ? stats.rows / stats.fetch_seconds : 0, stats.load_seconds);
  cs_homer_stats_clear (&stats);
  return analysis;
}

guint64
cs_cli_homer_get_bad_rows (void)
{
  return cs_cli_homer_bad_rows;
}

gboolean
cs_cli_hep_send_files (const CsCliOptions *opts)
{
  g_autofree char *host = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (CsHepSender) sender = NULL;
  guint16 port;

  if (opts->hep_rate < 0)
    {
      cs_cli_usage_error (NULL, "--hep-rate must be 0 (no limit) or more");
      return FALSE;
    }
  if (!cs_hep_parse_listen_address (opts->hep_send, &host, &port, &error))
    {
      cs_cli_usage_error (NULL, error->message);
      return FALSE;
    }
  sender = cs_hep_sender_new (host, port, FALSE, NULL, 0, &error);
  for (guint i = 0; sender != NULL && opts->files[i] != NULL; i++)
    if (!cs_hep_sender_replay_file_paced (sender, opts->files[i], opts->hep_real_time,
                                          opts->hep_rate, NULL, &error))
      break;
  if (error != NULL)
    {
      g_printerr ("callscope-cli: --hep-send: %s\n", error->message);
      return FALSE;
    }
  if (!opts->quiet)
    g_printerr ("Sent %" G_GUINT64_FORMAT " HEP packets to %s\n", cs_hep_sender_get_sent (sender),
                opts->hep_send);
  return TRUE;
}
