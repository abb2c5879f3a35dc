/* cs-cli-capture.c — `capture`: live capture from an interface, then the file report */
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "cs-cli-commands.h"
#include "cs-cli-live.h"
#include "callscope-engine.h"
#include "cs-report.h"

#define CS_CLI_PROGRESS_MS 1000

/* ---- shared with `hep` (cs-cli-live.h) ---- */

gboolean
cs_cli_live_check_ring (const char *command, gint64 ring_files, double ring_size_mb)
{
  if (ring_files < 0 || ring_files > G_MAXUINT || ring_size_mb < 0 || ring_size_mb > 1024 * 1024)
    cs_cli_usage_error (command, "--ring-files and --ring-size must be positive");
  else if (ring_files > 0 && ring_size_mb == 0)
    cs_cli_usage_error (command, "--ring-files needs --ring-size MB (the size of each file)");
  else
    return TRUE;
  return FALSE;
}

CsLiveSession *
cs_cli_live_open_session (const char *write_path, gint64 ring_files, double ring_size_mb,
                          char **tmp_dir, int *status)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;
  CsLiveSession *session;

  *tmp_dir = NULL;
  if (write_path == NULL)
    {
      *tmp_dir = g_dir_make_tmp ("callscope-live-XXXXXX", &error);
      if (*tmp_dir == NULL)
        {
          g_printerr ("callscope-cli: %s\n", error->message);
          *status = CS_EXIT_UNREADABLE;
          return NULL;
        }
      path = g_build_filename (*tmp_dir, "live.pcapng", NULL);
    }
  else
    path = g_strdup (write_path);
  session = cs_live_session_new (path, (guint64) (ring_size_mb * 1024 * 1024), (guint) ring_files,
                                 &error);
  if (session == NULL)
    {
      g_printerr ("callscope-cli: %s\n", error->message);
      *status = CS_EXIT_UNREADABLE;
    }
  return session;
}

static gboolean
cs_cli_live_quit (gpointer user_data)
{
  CsCliLive *live = user_data;

  g_main_loop_quit (live->loop);
  return G_SOURCE_CONTINUE; /* removed by cs_cli_live_run */
}

static gboolean
cs_cli_live_tick (gpointer user_data)
{
  CsCliLive *live = user_data;
  CsLiveCounters c;
  g_autoptr (GString) line = g_string_new (NULL);

  if (live->done != NULL && live->done (live->source))
    {
      g_main_loop_quit (live->loop);
      return G_SOURCE_CONTINUE;
    }
  if (live->opts->quiet || !isatty (STDERR_FILENO))
    return G_SOURCE_CONTINUE;
  cs_live_session_get_counters (live->session, &c);
  g_string_printf (line,
                   "\r%" G_GUINT64_FORMAT " %s (%.0f/s), %" G_GUINT64_FORMAT
                   " SIP (%.0f/s), %" G_GUINT64_FORMAT " calls",
                   c.packets, live->what, c.packets_per_second, c.sip_messages,
                   c.messages_per_second, c.calls);
  if (live->describe != NULL)
    live->describe (live->source, line);
  if (c.queue_drops > 0)
    g_string_append_printf (line, ", %" G_GUINT64_FORMAT " dropped (analysis behind)",
                            c.queue_drops);
  if (c.calls_evicted > 0)
    g_string_append_printf (line, ", %" G_GUINT64_FORMAT " finished calls evicted",
                            c.calls_evicted);
  g_string_append (line, "   ");
  fputs (line->str, stderr);
  return G_SOURCE_CONTINUE;
}

void
cs_cli_live_run (CsCliLive *live)
{
  guint duration_id = 0, tick_id, int_id, term_id;

  live->loop = g_main_loop_new (NULL, FALSE);
  if (live->duration_s > 0)
    duration_id
        = g_timeout_add ((guint) MIN (live->duration_s * 1000, G_MAXUINT), cs_cli_live_quit, live);
  tick_id = g_timeout_add (CS_CLI_PROGRESS_MS / 10, cs_cli_live_tick, live);
  int_id = g_unix_signal_add (SIGINT, cs_cli_live_quit, live);
  term_id = g_unix_signal_add (SIGTERM, cs_cli_live_quit, live);
  g_main_loop_run (live->loop);
  if (duration_id != 0)
    g_source_remove (duration_id);
  g_source_remove (int_id);
  g_source_remove (term_id);
  g_source_remove (tick_id);
  if (!live->opts->quiet && isatty (STDERR_FILENO))
    fputc ('\n', stderr);
  g_clear_pointer (&live->loop, g_main_loop_unref);
}

static void
cs_cli_remove_tmp_dir (const char *dir)
{
  GDir *d;
  const char *name;

  if (dir == NULL || (d = g_dir_open (dir, 0, NULL)) == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_unlink (path);
    }
  g_dir_close (d);
  g_rmdir (dir);
}

int
cs_cli_live_report (CsCliLive *live, const char *tmp_dir)
{
  CsReportFormat format = CS_REPORT_FORMAT_JSON;
  g_autoptr (GError) error = NULL;
  g_autoptr (CsAnalysis) analysis = NULL;
  int status = CS_EXIT_OK;
  CsLiveCounters counters;
  FILE *out;

  if (live->opts->format != NULL)
    cs_report_format_parse (live->opts->format, &format);
  if (!cs_live_session_stop (live->session, &error))
    {
      g_printerr ("callscope-cli: saving the capture failed: %s\n", error->message);
      g_clear_error (&error);
      status = CS_EXIT_DAMAGED;
    }
  cs_live_session_get_counters (live->session, &counters);
  if (counters.calls_evicted > 0 && !live->opts->quiet)
    g_printerr ("Live: %" G_GUINT64_FORMAT " finished calls (%" G_GUINT64_FORMAT
                " RTP packets) were evicted from memory; the report reads the saved capture\n",
                counters.calls_evicted, counters.rtp_packets_evicted);
  analysis = cs_live_session_load_saved (live->session, &error);
  if (analysis == NULL)
    {
      g_printerr ("callscope-cli: %s\n", error->message);
      cs_cli_remove_tmp_dir (tmp_dir);
      return CS_EXIT_UNREADABLE;
    }
  out = cs_cli_open_output (live->opts);
  if (out == NULL)
    status = CS_EXIT_UNREADABLE;
  else if (!cs_cli_close_output (out, cs_report_write (analysis, format, out)))
    {
      g_printerr ("callscope-cli: writing the output failed\n");
      status = CS_EXIT_UNREADABLE;
    }
  if (live->end_error != NULL)
    {
      /* Everything read before the end is reported; the exit status says it ended early. */
      g_printerr ("callscope-cli: %s\n", live->end_error->message);
      if (status == CS_EXIT_OK)
        status = CS_EXIT_DAMAGED;
    }
  cs_cli_remove_tmp_dir (tmp_dir);
  return status;
}

gboolean
cs_cli_live_check_format (CsCliOptions *opts, const char *command)
{
  CsReportFormat format;

  if (opts->format != NULL
      && (!cs_report_format_parse (opts->format, &format)
          || (format != CS_REPORT_FORMAT_JSON && format != CS_REPORT_FORMAT_TEXT)))
    {
      cs_cli_usage_error (command, "unknown --format (use json or text)");
      return FALSE;
    }
  return TRUE;
}

/* ---- capture ---- */

typedef struct
{
  CsLivePcap *pcap;
  CsHepSender *sender;
  GMutex sender_lock;
  guint64 forward_errors;
  CsCliLive *live;
} CsCliCapture;

static void
cs_cli_capture_on_end (CsLivePcap *pcap, const GError *error, gpointer user_data)
{
  CsCliCapture *capture = user_data;

  if (error != NULL)
    capture->live->end_error = g_error_copy (error);
  if (capture->live->loop != NULL)
    g_main_loop_quit (capture->live->loop);
}

static gboolean
cs_cli_capture_done (gpointer source)
{
  CsCliCapture *capture = source;

  return !cs_live_pcap_is_running (capture->pcap);
}

static void
cs_cli_capture_describe (gpointer source, GString *line)
{
  CsCliCapture *capture = source;
  guint64 received, dropped, if_dropped;

  cs_live_pcap_get_stats (capture->pcap, &received, &dropped, &if_dropped);
  if (dropped + if_dropped > 0)
    g_string_append_printf (line, ", %" G_GUINT64_FORMAT " dropped by the kernel",
                            dropped + if_dropped);
  if (capture->sender != NULL)
    g_string_append_printf (line, ", %" G_GUINT64_FORMAT " sent as HEP",
                            cs_hep_sender_get_sent (capture->sender));
}

/* Capture thread: forwards SIP/RTCP to a HEP collector; errors are counted, not fatal. */
static void
cs_cli_capture_forward (guint linktype, gint64 ts_ns, const guint8 *data, gsize caplen,
                        gpointer user_data)
{
  CsCliCapture *capture = user_data;

  g_mutex_lock (&capture->sender_lock);
  if (!cs_hep_sender_send_frame (capture->sender, linktype, ts_ns, data, caplen, NULL))
    capture->forward_errors++;
  g_mutex_unlock (&capture->sender_lock);
}

static int
cs_cli_list_interfaces (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) list = cs_live_pcap_list_interfaces (&error);

  if (list == NULL)
    {
      g_printerr ("callscope-cli: %s\n", error->message);
      return CS_EXIT_UNREADABLE;
    }
  for (guint i = 0; i < list->len; i++)
    {
      CsLiveInterface *iface = g_ptr_array_index (list, i);

      g_print ("%-16s %-5s %s%s%s\n", iface->name, iface->up ? "up" : "down", iface->addresses,
               iface->description != NULL && *iface->addresses != '\0' ? " — " : "",
               iface->description != NULL ? iface->description : "");
    }
  return CS_EXIT_OK;
}

int
cs_cli_cmd_capture (int argc, char **argv)
{
  CsCliOptions opts = { 0 };
  g_autofree char *interface = NULL, *write_path = NULL, *hep_to = NULL, *hep_key = NULL;
  g_autofree char *tmp_dir = NULL, *hep_host = NULL, *user = NULL;
  double duration = 0;
  gint64 count = 0, ring_files = 0;
  double ring_size = 0;
  int snaplen = 0, status = CS_EXIT_OK;
  gboolean no_promisc = FALSE, list = FALSE, hep_tcp = FALSE;
  guint16 hep_port = 0;
  CsCliCapture capture = { 0 };
  CsCliLive live = { 0 };
  g_autoptr (GError) error = NULL;
  const GOptionEntry extra[] = {
    { "interface", 'i', 0, G_OPTION_ARG_STRING, &interface, "Capture on IF", "IF" },
    { "list-interfaces", 'D', 0, G_OPTION_ARG_NONE, &list, "List interfaces and exit", NULL },
    { "duration", 'd', 0, G_OPTION_ARG_DOUBLE, &duration, "Stop after S seconds", "S" },
    { "count", 'c', 0, G_OPTION_ARG_INT64, &count, "Stop after N packets", "N" },
    { "write", 'w', 0, G_OPTION_ARG_FILENAME, &write_path, "Save the capture as pcapng", "FILE" },
    { "snaplen", 's', 0, G_OPTION_ARG_INT, &snaplen, "Bytes kept per packet", "N" },
    { "no-promiscuous", 'p', 0, G_OPTION_ARG_NONE, &no_promisc, "Leave promiscuous mode off",
      NULL },
    { "hep-to", 0, 0, G_OPTION_ARG_STRING, &hep_to, "Forward SIP/RTCP as HEP3 to ADDR:PORT",
      "ADDR:PORT" },
    { "hep-tcp", 0, 0, G_OPTION_ARG_NONE, &hep_tcp, "Forward over TCP instead of UDP", NULL },
    { "hep-key", 0, 0, G_OPTION_ARG_STRING, &hep_key, "HEP authentication key", "KEY" },
    { "ring-files", 0, 0, G_OPTION_ARG_INT64, &ring_files, "Keep only the newest N files", "N" },
    { "ring-size", 0, 0, G_OPTION_ARG_DOUBLE, &ring_size, "Start a new file every MB megabytes",
      "MB" },
    { "user", 'Z', 0, G_OPTION_ARG_STRING, &user,
      "Run as root: become NAME once the interface is open (default nobody; root stays root)",
      "NAME" },
    { NULL },
  };

  if (!cs_cli_parse (argc, argv, "--interface IF [--filter BPF] [--duration S | --count N]", extra,
                     &opts))
    return CS_EXIT_USAGE;
  if (list)
    {
      cs_cli_options_clear (&opts);
      return cs_cli_list_interfaces ();
    }
  if (!cs_cli_live_check_format (&opts, argv[0]))
    status = CS_EXIT_USAGE;
  else if (interface == NULL)
    status = cs_cli_usage_error (argv[0], "--interface IF is required (see --list-interfaces)");
  else if (duration < 0 || count < 0 || snaplen < 0)
    status = cs_cli_usage_error (argv[0], "--duration, --count and --snaplen must be positive");
  else if (!cs_cli_live_check_ring (argv[0], ring_files, ring_size))
    status = CS_EXIT_USAGE;
  else if (hep_to != NULL && !cs_hep_parse_listen_address (hep_to, &hep_host, &hep_port, &error))
    status = cs_cli_usage_error (argv[0], error->message);
  if (status != CS_EXIT_OK)
    {
      cs_cli_options_clear (&opts);
      return status;
    }

  capture.pcap = cs_live_pcap_open (interface, opts.filter, !no_promisc, (guint) snaplen, &error);
  if (capture.pcap == NULL)
    {
      g_printerr ("callscope-cli: %s\n", error->message);
      cs_cli_options_clear (&opts);
      return CS_EXIT_UNREADABLE;
    }
  if (hep_host != NULL)
    {
      capture.sender = cs_hep_sender_new (hep_host, hep_port, hep_tcp, hep_key, 0, &error);
      if (capture.sender == NULL)
        {
          g_printerr ("callscope-cli: cannot send HEP to %s: %s\n", hep_to, error->message);
          cs_live_pcap_free (capture.pcap);
          cs_cli_options_clear (&opts);
          return CS_EXIT_UNREADABLE;
        }
    }
  g_mutex_init (&capture.sender_lock);
  if (!cs_cli_drop_privileges (user, opts.quiet))
    {
      cs_live_pcap_free (capture.pcap);
      cs_hep_sender_free (capture.sender);
      g_mutex_clear (&capture.sender_lock);
      cs_cli_options_clear (&opts);
      return CS_EXIT_UNREADABLE;
    }
  live.session = cs_cli_live_open_session (write_path, ring_files, ring_size, &tmp_dir, &status);
  if (live.session != NULL)
    {
      live.opts = &opts;
      live.duration_s = duration;
      live.what = "packets";
      live.done = cs_cli_capture_done;
      live.describe = cs_cli_capture_describe;
      live.source = &capture;
      capture.live = &live;
      if (!opts.quiet)
        g_printerr ("Capturing on %s%s%s\n", interface, opts.filter != NULL ? ", filter: " : "",
                    opts.filter != NULL ? opts.filter : "");
      cs_live_pcap_start (capture.pcap, live.session, (guint64) count,
                          capture.sender != NULL ? cs_cli_capture_forward : NULL, &capture,
                          cs_cli_capture_on_end, &capture);
      cs_cli_live_run (&live);
      cs_live_pcap_stop (capture.pcap);
      status = cs_cli_live_report (&live, tmp_dir);
      g_object_unref (live.session);
    }
  if (capture.forward_errors > 0)
    g_printerr ("callscope-cli: %" G_GUINT64_FORMAT " packets could not be forwarded as HEP\n",
                capture.forward_errors);
  g_clear_error (&live.end_error);
  cs_live_pcap_free (capture.pcap);
  cs_hep_sender_free (capture.sender);
  g_mutex_clear (&capture.sender_lock);
  cs_cli_options_clear (&opts);
  return status;
}
