/* test-golden-live.c — a SIPp run on loopback, captured live by `callscope-cli capture` and
 * by tcpdump, and tcpdump's file replayed as HEP into `callscope-cli hep`: the same calls and
 * messages everywhere. Root, sipp and tcpdump are needed; without them the test skips. */
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "golden-common.h"

#define START_LIMIT_US (5 * G_USEC_PER_SEC)
#define RUN_LIMIT_US (20 * G_USEC_PER_SEC)
#define SIPP_CALLS "5"

typedef struct
{
  GPid pid;
  char *err_path;
} Proc;

/* Starts argv with stdout to /dev/null and stderr to a file. */
static Proc
proc_start (const char *const *argv, const char *dir, const char *name)
{
  Proc p = { 0 };
  g_autoptr (GError) error = NULL;
  int err_fd, null_fd = open ("/dev/null", O_RDWR);

  p.err_path = g_build_filename (dir, name, NULL);
  err_fd = open (p.err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  g_assert_cmpint (err_fd, >=, 0);
  g_spawn_async_with_fds (NULL, (char **) argv, NULL,
                          G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_SEARCH_PATH, NULL, NULL, &p.pid,
                          null_fd, null_fd, err_fd, &error);
  g_assert_no_error (error);
  close (err_fd);
  close (null_fd);
  return p;
}

/* Waits (bounded) until the process wrote `text` on stderr. */
static gboolean
proc_wait_stderr (Proc *p, const char *text)
{
  gint64 deadline = g_get_monotonic_time () + START_LIMIT_US;

  while (g_get_monotonic_time () < deadline)
    {
      g_autofree char *content = NULL;

      if (g_file_get_contents (p->err_path, &content, NULL, NULL) && strstr (content, text))
        return TRUE;
      g_usleep (10000);
    }
  return FALSE;
}

/* Waits (bounded) for the exit; kills it when the limit passes. Returns the exit status. */
static int
proc_wait (Proc *p, gint64 limit_us)
{
  gint64 deadline = g_get_monotonic_time () + limit_us;
  int status = 0;

  while (waitpid (p->pid, &status, WNOHANG) == 0)
    {
      if (g_get_monotonic_time () > deadline)
        {
          kill (p->pid, SIGKILL);
          waitpid (p->pid, &status, 0);
          break;
        }
      g_usleep (10000);
    }
  g_spawn_close_pid (p->pid);
  g_clear_pointer (&p->err_path, g_free);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

static JsonNode *
read_json (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  JsonNode *root;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  root = json_from_string (text, &error);
  g_assert_no_error (error);
  return root;
}

/* Same SIP totals and the same calls (Call-ID, state, final status, messages). */
static void
assert_same_calls (JsonNode *expected, JsonNode *actual, const char *what)
{
  JsonObject *a = json_node_get_object (expected), *b = json_node_get_object (actual);
  JsonArray *ca = json_object_get_array_member (a, "calls");
  JsonArray *cb = json_object_get_array_member (b, "calls");
  JsonObject *capa = json_object_get_object_member (a, "capture");
  JsonObject *capb = json_object_get_object_member (b, "capture");

  g_test_message ("%s: %u calls, %" G_GINT64_FORMAT " SIP messages", what,
                  json_array_get_length (cb), golden_int (capb, "sip_messages"));
  g_assert_cmpint (golden_int (capa, "sip_messages"), ==, golden_int (capb, "sip_messages"));
  g_assert_cmpuint (json_array_get_length (ca), ==, json_array_get_length (cb));
  for (guint i = 0; i < json_array_get_length (ca); i++)
    {
      JsonObject *x = json_array_get_object_element (ca, i);
      JsonObject *y = json_array_get_object_element (cb, i);

      g_assert_cmpstr (json_object_get_string_member (x, "call_id"), ==,
                       json_object_get_string_member (y, "call_id"));
      g_assert_cmpstr (json_object_get_string_member (x, "state"), ==,
                       json_object_get_string_member (y, "state"));
      g_assert_cmpint (golden_int (x, "final_status"), ==, golden_int (y, "final_status"));
      g_assert_cmpint (golden_int (x, "messages"), ==, golden_int (y, "messages"));
      g_assert_cmpint (golden_int (x, "retransmissions"), ==, golden_int (y, "retransmissions"));
    }
}

static void
replay_as_hep (const char *dir, const char *capture, JsonNode *expected, gboolean tcp, guint16 port)
{
  const char *cli = g_getenv ("CS_CLI");
  g_autofree char *listen = g_strdup_printf ("127.0.0.1:%u", port);
  g_autofree char *out = g_build_filename (dir, tcp ? "hep-tcp.json" : "hep-udp.json", NULL);
  g_autofree char *saved = g_build_filename (dir, tcp ? "hep-tcp.pcapng" : "hep-udp.pcapng", NULL);
  JsonObject *cap = json_node_get_object (expected);
  g_autofree char *count = g_strdup_printf (
      "%" G_GINT64_FORMAT,
      golden_int (json_object_get_object_member (cap, "capture"), "sip_messages"));
  /* the test's folder is root's: stay root, as tcpdump gets -Z root below */
  const char *listen_argv[]
      = { cli,  "hep", "--listen", listen, "--count", count,  "--duration", "15",
          "-w", saved, "-o",       out,    "--user",  "root", NULL };
  const char *hep_send[]
      = { "hep", "--send", listen, tcp ? "--send-tcp" : capture, tcp ? capture : NULL, NULL };
  Proc listener = proc_start (listen_argv, dir, "hep.err");
  g_autofree char *sent = NULL;
  g_autoptr (JsonNode) report = NULL;
  g_autoptr (JsonNode) reopened = NULL;
  int status;

  g_assert_true (proc_wait_stderr (&listener, "Listening for HEP"));
  g_free (golden_run_cli (hep_send, &status, NULL));
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpint (proc_wait (&listener, RUN_LIMIT_US), ==, 0);
  report = read_json (out);
  assert_same_calls (expected, report, tcp ? "HEP over TCP" : "HEP over UDP");
  /* What the listener saved reopens with the same calls. */
  reopened = golden_report (saved, &status);
  g_assert_cmpint (status, ==, 0);
  assert_same_calls (expected, reopened, "HEP session reopened");
}

static void
test_sipp_live_and_hep (void)
{
  const char *cli = g_getenv ("CS_CLI");
  g_autofree char *sipp = g_find_program_in_path ("sipp");
  g_autofree char *tcpdump = g_find_program_in_path ("tcpdump");
  g_autofree char *dir = NULL;
  g_autofree char *live_json = NULL, *live_pcap = NULL, *td_pcap = NULL;
  g_autofree char *filter = NULL, *uas_port = NULL, *uac_port = NULL, *target = NULL;
  g_autoptr (JsonNode) td_report = NULL;
  g_autoptr (JsonNode) live_report = NULL;
  g_autoptr (JsonNode) live_reopened = NULL;
  Proc capture, dump, uas, uac;
  guint16 base = (guint16) (30000 + getpid () % 10000);
  int status;

  if (geteuid () != 0 || sipp == NULL || tcpdump == NULL)
    {
      g_test_skip ("needs root, sipp and tcpdump");
      return;
    }
  dir = g_dir_make_tmp ("cs-golden-live-XXXXXX", NULL);
  live_json = g_build_filename (dir, "live.json", NULL);
  live_pcap = g_build_filename (dir, "live.pcapng", NULL);
  td_pcap = g_build_filename (dir, "tcpdump.pcap", NULL);
  uas_port = g_strdup_printf ("%u", base);
  uac_port = g_strdup_printf ("%u", base + 1);
  target = g_strdup_printf ("127.0.0.1:%u", base);
  filter = g_strdup_printf ("udp and (port %u or port %u)", base, base + 1);

  {
    const char *capture_argv[]
        = { cli,  "capture", "--interface", "lo",      "--filter", filter, "--duration", "30",
            "-w", live_pcap, "-o",          live_json, "--user",   "root", NULL };
    const char *dump_argv[]
        = { tcpdump, "-i",    "lo",   "-U", "--immediate-mode", "-n", "-Z", "root",
            "-w",    td_pcap, filter, NULL };
    const char *uas_argv[]
        = { sipp, "-sn", "uas", "-i", "127.0.0.1", "-p", uas_port, "-nostdin", NULL };
    const char *uac_argv[]
        = { sipp,       "-sn", "uac", target, "-i",  "127.0.0.1", "-p", uac_port,   "-m",
            SIPP_CALLS, "-r",  "20",  "-d",   "100", "-timeout",  "15", "-nostdin", NULL };

    capture = proc_start (capture_argv, dir, "capture.err");
    dump = proc_start (dump_argv, dir, "tcpdump.err");
    g_assert_true (proc_wait_stderr (&capture, "Capturing on lo"));
    g_assert_true (proc_wait_stderr (&dump, "listening on"));
    uas = proc_start (uas_argv, dir, "uas.err");
    g_usleep (200000);
    uac = proc_start (uac_argv, dir, "uac.err");
    g_assert_cmpint (proc_wait (&uac, RUN_LIMIT_US), ==, 0);
    g_usleep (300000);
    kill (uas.pid, SIGTERM);
    proc_wait (&uas, START_LIMIT_US);
    kill (dump.pid, SIGINT);
    kill (capture.pid, SIGINT);
    g_assert_cmpint (proc_wait (&dump, START_LIMIT_US), ==, 0);
    g_assert_cmpint (proc_wait (&capture, RUN_LIMIT_US), ==, 0);
  }

  td_report = golden_report (td_pcap, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpuint (json_array_get_length (
                        json_object_get_array_member (json_node_get_object (td_report), "calls")),
                    ==, atoi (SIPP_CALLS));
  live_report = read_json (live_json);
  assert_same_calls (td_report, live_report, "live capture");
  g_assert_cmpint (
      golden_int (json_object_get_object_member (json_node_get_object (td_report), "capture"),
                  "packets"),
      ==,
      golden_int (json_object_get_object_member (json_node_get_object (live_report), "capture"),
                  "packets"));
  live_reopened = golden_report (live_pcap, &status);
  assert_same_calls (td_report, live_reopened, "live capture reopened");

  replay_as_hep (dir, td_pcap, td_report, FALSE, base + 2);
  replay_as_hep (dir, td_pcap, td_report, TRUE, base + 3);

  {
    GDir *d = g_dir_open (dir, 0, NULL);
    const char *name;

    while ((name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *path = g_build_filename (dir, name, NULL);

        g_unlink (path);
      }
    g_dir_close (d);
    g_rmdir (dir);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/golden/live/sipp-capture-and-hep", test_sipp_live_and_hep);
  return g_test_run ();
}
