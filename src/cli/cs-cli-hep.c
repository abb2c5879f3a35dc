/* cs-cli-hep.c — `hep`: listen for HEP (UDP and TCP), then the file report */
#include "cs-cli-commands.h"
#include "cs-cli-live.h"
#include "callscope-engine.h"

typedef struct
{
  CsHepListener *listener;
  guint64 count;
} CsCliHep;

static gboolean
cs_cli_hep_done (gpointer source)
{
  CsCliHep *hep = source;
  CsHepCounters c;

  if (hep->count == 0)
    return FALSE;
  cs_hep_listener_get_counters (hep->listener, &c);
  return c.sip + c.rtcp >= hep->count;
}

static void
cs_cli_hep_describe (gpointer source, GString *line)
{
  CsCliHep *hep = source;
  CsHepCounters c;

  cs_hep_listener_get_counters (hep->listener, &c);
  if (c.malformed > 0)
    g_string_append_printf (line, ", %" G_GUINT64_FORMAT " malformed", c.malformed);
  if (c.auth_failures > 0)
    g_string_append_printf (line, ", %" G_GUINT64_FORMAT " failed authentication", c.auth_failures);
  if (c.qos > 0)
    g_string_append_printf (line, ", %" G_GUINT64_FORMAT " QoS reports", c.qos);
  if (c.not_allowed > 0)
    g_string_append_printf (line, ", %" G_GUINT64_FORMAT " from sources not allowed",
                            c.not_allowed);
  if (c.rate_limited > 0)
    g_string_append_printf (line, ", %" G_GUINT64_FORMAT " over the rate cap", c.rate_limited);
}

static void
cs_cli_hep_summary (CsHepListener *listener)
{
  CsHepCounters c;

  cs_hep_listener_get_counters (listener, &c);
  g_printerr ("HEP: %" G_GUINT64_FORMAT " received, %" G_GUINT64_FORMAT " SIP, %" G_GUINT64_FORMAT
              " RTCP, %" G_GUINT64_FORMAT " QoS/other, %" G_GUINT64_FORMAT
              " malformed, %" G_GUINT64_FORMAT " failed authentication, %" G_GUINT64_FORMAT
              " not allowed, %" G_GUINT64_FORMAT " over the rate cap\n",
              c.received, c.sip, c.rtcp, c.qos, c.malformed, c.auth_failures, c.not_allowed,
              c.rate_limited);
}

static gboolean
cs_cli_hep_is_loopback (const char *address)
{
  g_autoptr (GInetAddress) inet = g_inet_address_new_from_string (address);

  return inet != NULL && g_inet_address_get_is_loopback (inet);
}

/* `hep --send ADDR:PORT FILE`: replays a capture's SIP and RTCP as HEP3 (tests, demos). */
static int
cs_cli_hep_send (const char *target, gboolean tcp, const char *key, char **files)
{
  g_autofree char *host = NULL;
  guint16 port;
  g_autoptr (GError) error = NULL;
  g_autoptr (CsHepSender) sender = NULL;

  if (files == NULL || files[0] == NULL)
    return cs_cli_usage_error ("hep", "--send needs a capture FILE");
  if (!cs_hep_parse_listen_address (target, &host, &port, &error))
    return cs_cli_usage_error ("hep", error->message);
  sender = cs_hep_sender_new (host, port, tcp, key, 0, &error);
  for (guint i = 0; sender != NULL && files[i] != NULL; i++)
    if (!cs_hep_sender_replay_file (sender, files[i], 32, &error))
      break;
  if (error != NULL)
    {
      g_printerr ("callscope-cli: %s\n", error->message);
      return CS_EXIT_UNREADABLE;
    }
  g_printerr ("Sent %" G_GUINT64_FORMAT " HEP packets to %s\n", cs_hep_sender_get_sent (sender),
              target);
  return CS_EXIT_OK;
}

int
cs_cli_cmd_hep (int argc, char **argv)
{
  CsCliOptions opts = { 0 };
  g_autofree char *listen = NULL, *write_path = NULL, *key = NULL, *send = NULL;
  g_autofree char *address = NULL, *tmp_dir = NULL, *user = NULL;
  double duration = 0;
  gint64 count = 0, ring_files = 0;
  double ring_size = 0;
  gboolean udp_only = FALSE, tcp_only = FALSE, send_tcp = FALSE;
  guint16 port = CS_HEP_DEFAULT_PORT;
  int status = CS_EXIT_OK;
  CsCliHep hep = { 0 };
  CsCliLive live = { 0 };
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) allow = NULL;
  gint64 max_rate = -1;
  const GOptionEntry extra[] = {
    { "listen", 'l', 0, G_OPTION_ARG_STRING, &listen, "Listen on ADDR:PORT (127.0.0.1:9060)",
      "ADDR:PORT" },
    { "duration", 'd', 0, G_OPTION_ARG_DOUBLE, &duration, "Stop after S seconds", "S" },
    { "count", 'c', 0, G_OPTION_ARG_INT64, &count, "Stop after N SIP/RTCP messages", "N" },
    { "write", 'w', 0, G_OPTION_ARG_FILENAME, &write_path, "Save what arrived as pcapng", "FILE" },
    { "auth-key", 0, 0, G_OPTION_ARG_STRING, &key, "Accept only packets with this key", "KEY" },
    { "hep-allow", 0, 0, G_OPTION_ARG_STRING_ARRAY, &allow,
      "Accept only agents in this prefix (repeat for several; e.g. 10.1.0.0/16, 2001:db8::/32)",
      "CIDR" },
    { "max-rate", 0, 0, G_OPTION_ARG_INT64, &max_rate,
      "Drop (and count) HEP packets beyond N per second (default 50000; 0: no cap)", "N" },
    { "udp-only", 0, 0, G_OPTION_ARG_NONE, &udp_only, "Do not listen on TCP", NULL },
    { "tcp-only", 0, 0, G_OPTION_ARG_NONE, &tcp_only, "Do not listen on UDP", NULL },
    { "send", 0, 0, G_OPTION_ARG_STRING, &send, "Replay FILE's SIP/RTCP as HEP to ADDR:PORT",
      "ADDR:PORT" },
    { "send-tcp", 0, 0, G_OPTION_ARG_NONE, &send_tcp, "With --send: use TCP", NULL },
    { "ring-files", 0, 0, G_OPTION_ARG_INT64, &ring_files, "Keep only the newest N files", "N" },
    { "ring-size", 0, 0, G_OPTION_ARG_DOUBLE, &ring_size, "Start a new file every MB megabytes",
      "MB" },
    { "user", 'Z', 0, G_OPTION_ARG_STRING, &user,
      "Run as root: become NAME once listening (default nobody; root stays root)", "NAME" },
    { NULL },
  };

  if (!cs_cli_parse (argc, argv, "--listen ADDR:PORT [--duration S] [-w out.pcapng]", extra, &opts))
    return CS_EXIT_USAGE;
  if (send != NULL)
    {
      status = cs_cli_hep_send (send, send_tcp, key, opts.files);
      cs_cli_options_clear (&opts);
      return status;
    }
  if (!cs_cli_live_check_format (&opts, argv[0]))
    status = CS_EXIT_USAGE;
  else if (udp_only && tcp_only)
    status = cs_cli_usage_error (argv[0], "--udp-only and --tcp-only exclude each other");
  else if (max_rate > G_MAXUINT || max_rate < -1)
    status = cs_cli_usage_error (argv[0], "--max-rate must be 0 or more packets per second");
  else if (duration < 0 || count < 0)
    status = cs_cli_usage_error (argv[0], "--duration and --count must be positive");
  else if (!cs_cli_live_check_ring (argv[0], ring_files, ring_size))
    status = CS_EXIT_USAGE;
  else if (!cs_hep_parse_listen_address (listen, &address, &port, &error))
    status = cs_cli_usage_error (argv[0], error->message);
  if (status != CS_EXIT_OK)
    {
      cs_cli_options_clear (&opts);
      return status;
    }
  hep.listener = cs_hep_listener_new (address, port, !tcp_only, !udp_only, key, &error);
  if (hep.listener == NULL)
    {
      g_printerr ("callscope-cli: %s\n", error->message);
      cs_cli_options_clear (&opts);
      return CS_EXIT_UNREADABLE;
    }
  for (guint i = 0; allow != NULL && allow[i] != NULL; i++)
    if (!cs_hep_listener_allow (hep.listener, allow[i], &error))
      {
        status = cs_cli_usage_error (argv[0], error->message);
        cs_hep_listener_free (hep.listener);
        cs_cli_options_clear (&opts);
        return status;
      }
  if (max_rate >= 0)
    cs_hep_listener_set_max_rate (hep.listener, (guint) max_rate);
  if (!opts.quiet && key == NULL && (allow == NULL || allow[0] == NULL)
      && !cs_cli_hep_is_loopback (address))
    g_printerr ("callscope-cli: warning: listening on %s without --hep-allow or --auth-key: any "
                "host that reaches this port can feed the analysis\n",
                address);
  hep.count = (guint64) count;
  if (!cs_cli_drop_privileges (user, opts.quiet))
    {
      cs_hep_listener_free (hep.listener);
      cs_cli_options_clear (&opts);
      return CS_EXIT_UNREADABLE;
    }
  live.session = cs_cli_live_open_session (write_path, ring_files, ring_size, &tmp_dir, &status);
  if (live.session != NULL)
    {
      if (!opts.quiet)
        g_printerr ("Listening for HEP on %s:%u (%s)\n", address,
                    cs_hep_listener_get_port (hep.listener),
                    udp_only   ? "UDP"
                    : tcp_only ? "TCP"
                               : "UDP and TCP");
      live.opts = &opts;
      live.duration_s = duration;
      live.what = "HEP messages";
      live.done = cs_cli_hep_done;
      live.describe = cs_cli_hep_describe;
      live.source = &hep;
      cs_hep_listener_start (hep.listener, live.session);
      cs_cli_live_run (&live);
      cs_hep_listener_stop (hep.listener);
      if (!opts.quiet)
        cs_cli_hep_summary (hep.listener);
      status = cs_cli_live_report (&live, tmp_dir);
      g_object_unref (live.session);
    }
  cs_hep_listener_free (hep.listener);
  cs_cli_options_clear (&opts);
  return status;
}
