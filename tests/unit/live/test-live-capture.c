/* test-live-capture.c — libpcap live source on loopback: frames, count, errors, permissions */
#include <string.h>
#include <grp.h>
#include <sys/wait.h>
#include <unistd.h>

#include "live/cs-live-pcap.h"
#include "live-test-common.h"

#define WAIT_LIMIT_US (5 * G_USEC_PER_SEC)
#define NOBODY_UID 65534

static guint16
pick_port (void)
{
  return (guint16) (20000 + g_test_rand_int_range (0, 20000));
}

static void
send_sip (guint16 port, guint n)
{
  g_autoptr (GSocket) socket
      = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_DATAGRAM, G_SOCKET_PROTOCOL_UDP, NULL);
  g_autoptr (GInetAddress) lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocketAddress) to = g_inet_socket_address_new (lo, port);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *msg = g_strdup_printf (
          "OPTIONS sip:probe@127.0.0.1 SIP/2.0\r\nVia: SIP/2.0/UDP 127.0.0.1;branch=z9hG4bK%u\r\n"
          "From: <sip:a@127.0.0.1>;tag=%u\r\nTo: <sip:probe@127.0.0.1>\r\nCall-ID: live-%u\r\n"
          "CSeq: 1 OPTIONS\r\nContent-Length: 0\r\n\r\n",
          i, i, i);

      g_assert_cmpint (g_socket_send_to (socket, to, msg, strlen (msg), NULL, NULL), ==,
                       (gssize) strlen (msg));
    }
}

static gboolean
can_capture (void)
{
  if (geteuid () != 0)
    {
      g_test_skip ("live capture needs root or CAP_NET_RAW");
      return FALSE;
    }
  return TRUE;
}

static void
test_interfaces (void)
{
  GError *error = NULL;
  g_autoptr (GPtrArray) list = cs_live_pcap_list_interfaces (&error);
  gboolean found_lo = FALSE;

  g_assert_no_error (error);
  for (guint i = 0; i < list->len; i++)
    {
      CsLiveInterface *iface = g_ptr_array_index (list, i);

      if (iface->loopback && iface->up)
        {
          found_lo = TRUE;
          g_assert_nonnull (strstr (iface->addresses, "127.0.0.1"));
        }
    }
  g_assert_true (found_lo);
}

static void
test_capture_loopback (void)
{
  guint16 port = pick_port ();
  g_autofree char *filter = g_strdup_printf ("udp port %u", port);
  g_autofree char *dir = NULL;
  g_autofree char *out = NULL;
  g_autoptr (CsLivePcap) pcap = NULL;
  g_autoptr (CsLiveSession) session = NULL;
  g_autoptr (CsAnalysis) saved = NULL;
  CsLiveCounters c;
  guint64 received = 0, dropped = 0;
  gint64 deadline;
  GError *error = NULL;

  if (!can_capture ())
    return;
  dir = live_tmp_dir ();
  out = g_build_filename (dir, "lo.pcapng", NULL);
  pcap = cs_live_pcap_open ("lo", filter, FALSE, 0, &error);
  g_assert_no_error (error);
  session = cs_live_session_new (out, 0, 0, &error);
  g_assert_no_error (error);
  cs_live_pcap_start (pcap, session, 0, NULL, NULL, NULL, NULL);
  send_sip (port, 20);
  deadline = g_get_monotonic_time () + WAIT_LIMIT_US;
  while (received < 20 && g_get_monotonic_time () < deadline)
    {
      g_usleep (5000);
      cs_live_pcap_get_stats (pcap, &received, &dropped, NULL);
    }
  cs_live_pcap_stop (pcap);
  g_assert_cmpuint (received, ==, 20);
  g_assert_cmpuint (dropped, ==, 0);
  g_assert_true (cs_live_session_stop (session, &error));
  cs_live_session_get_counters (session, &c);
  g_assert_cmpuint (c.packets, ==, 20);
  g_assert_cmpuint (c.sip_messages, ==, 20);
  g_assert_cmpuint (c.calls, ==, 20);
  saved = cs_live_session_load_saved (session, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (cs_analysis_get_calls (saved)), ==, 20);
  live_tmp_dir_remove (dir);
}

static void
on_end (CsLivePcap *pcap, const GError *error, gpointer user_data)
{
  gint *ended = user_data;

  g_assert_no_error ((GError *) error);
  *ended = 1;
}

static void
test_capture_count (void)
{
  guint16 port = pick_port ();
  g_autofree char *filter = g_strdup_printf ("udp dst port %u", port);
  g_autofree char *dir = NULL;
  g_autofree char *out = NULL;
  g_autoptr (CsLivePcap) pcap = NULL;
  g_autoptr (CsLiveSession) session = NULL;
  gint ended = 0;
  gint64 deadline;
  GError *error = NULL;
  CsLiveCounters c;

  if (!can_capture ())
    return;
  dir = live_tmp_dir ();
  out = g_build_filename (dir, "count.pcapng", NULL);
  pcap = cs_live_pcap_open ("lo", filter, TRUE, 128, &error);
  g_assert_no_error (error);
  session = cs_live_session_new (out, 0, 0, &error);
  cs_live_pcap_start (pcap, session, 3, NULL, NULL, on_end, &ended);
  send_sip (port, 10);
  /* The capture ends by itself after 3 packets and says so on this context. */
  deadline = g_get_monotonic_time () + WAIT_LIMIT_US;
  while (!ended && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE), g_usleep (2000);
  g_assert_true (ended);
  g_assert_false (cs_live_pcap_is_running (pcap));
  cs_live_session_stop (session, NULL);
  cs_live_session_get_counters (session, &c);
  g_assert_cmpuint (c.packets, ==, 3);
  /* snaplen 128: the SIP messages are cut, so they are not parsed as complete SIP. */
  g_assert_cmpuint (c.bytes, ==, 3 * 128);
  live_tmp_dir_remove (dir);
}

static void
test_open_errors (void)
{
  GError *error = NULL;

  if (!can_capture ())
    return;
  g_assert_null (cs_live_pcap_open ("no-such-if0", NULL, FALSE, 0, &error));
  g_assert_error (error, CS_LIVE_ERROR, CS_LIVE_ERROR_NO_DEVICE);
  g_assert_nonnull (strstr (error->message, "no-such-if0"));
  g_clear_error (&error);
  g_assert_null (cs_live_pcap_open ("lo", "udp port banana", FALSE, 0, &error));
  g_assert_error (error, CS_LIVE_ERROR, CS_LIVE_ERROR_FILTER);
  g_assert_nonnull (strstr (error->message, "banana"));
  g_clear_error (&error);
}

/* Opening as an unprivileged user gives the explanation, not an empty capture. Root drops
 * to nobody in a child; the child writes the error code and message to a pipe. */
static void
test_permission_message (void)
{
  int fds[2];
  pid_t pid;
  char buf[2048] = "";
  gssize n, total = 0;
  int wstatus;

  if (geteuid () != 0)
    {
      GError *error = NULL;
      CsLivePcap *pcap = cs_live_pcap_open ("lo", NULL, FALSE, 0, &error);

      if (pcap != NULL)
        {
          cs_live_pcap_free (pcap);
          g_test_skip ("this user may capture: nothing to check");
          return;
        }
      g_assert_error (error, CS_LIVE_ERROR, CS_LIVE_ERROR_PERMISSION);
      g_assert_nonnull (strstr (error->message, "CAP_NET_RAW"));
      g_clear_error (&error);
      return;
    }
  g_assert_cmpint (pipe (fds), ==, 0);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      GError *error = NULL;
      CsLivePcap *pcap;
      g_autofree char *text = NULL;

      close (fds[0]);
      if (setgroups (0, NULL) != 0 || setgid (NOBODY_UID) != 0 || setuid (NOBODY_UID) != 0)
        _exit (3);
      pcap = cs_live_pcap_open ("lo", NULL, FALSE, 0, &error);
      if (pcap != NULL)
        _exit (4); /* still privileged (capabilities kept): cannot check here */
      text = g_strdup_printf ("%d|%s", error->code, error->message);
      if (write (fds[1], text, strlen (text)) < 0)
        _exit (5);
      _exit (0);
    }
  close (fds[1]);
  while ((n = read (fds[0], buf + total, sizeof buf - 1 - total)) > 0)
    total += n;
  close (fds[0]);
  g_assert_cmpint (waitpid (pid, &wstatus, 0), ==, pid);
  if (!WIFEXITED (wstatus) || WEXITSTATUS (wstatus) == 3 || WEXITSTATUS (wstatus) == 4)
    {
      g_test_skip ("could not drop privileges in a child");
      return;
    }
  g_assert_cmpint (WEXITSTATUS (wstatus), ==, 0);
  g_assert_true (g_str_has_prefix (buf, "0|")); /* CS_LIVE_ERROR_PERMISSION */
  g_assert_nonnull (strstr (buf, "CAP_NET_RAW"));
  g_assert_nonnull (strstr (buf, "setcap"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/live/capture/interfaces", test_interfaces);
  g_test_add_func ("/live/capture/loopback", test_capture_loopback);
  g_test_add_func ("/live/capture/count", test_capture_count);
  g_test_add_func ("/live/capture/open-errors", test_open_errors);
  g_test_add_func ("/live/capture/permission-message", test_permission_message);
  return g_test_run ();
}
