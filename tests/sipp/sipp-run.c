/* sipp-run.c — bounded SIPp and tcpdump runs on 127.0.0.1 for the load-test suite */
#include "sipp-run.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

const char *
sipp_missing_tool (void)
{
  static const char *const tools[] = { "sipp", "tcpdump", "timeout" };

  for (guint i = 0; i < G_N_ELEMENTS (tools); i++)
    {
      g_autofree char *path = g_find_program_in_path (tools[i]);
      if (path == NULL)
        return tools[i];
    }
  return NULL;
}

static GPtrArray *
sipp_timeout_argv (const char *const *argv, int limit_s)
{
  GPtrArray *args = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_add (args, g_strdup ("timeout"));
  g_ptr_array_add (args, g_strdup_printf ("%d", limit_s));
  for (guint i = 0; argv[i] != NULL; i++)
    g_ptr_array_add (args, g_strdup (argv[i]));
  g_ptr_array_add (args, NULL);
  return args;
}

/* If the test aborts, its children (timeout → sipp/tcpdump) must not outlive it. */
static void
sipp_child_setup (gpointer user_data)
{
  prctl (PR_SET_PDEATHSIG, SIGTERM);
}

gboolean
sipp_spawn_argv (SippProc *proc, const char *cwd, const char *const *argv, int limit_s)
{
  g_autoptr (GPtrArray) args = sipp_timeout_argv (argv, limit_s);
  g_autoptr (GError) error = NULL;

  proc->stderr_fd = -1;
  if (!g_spawn_async_with_pipes (
          cwd, (char **) args->pdata, NULL,
          G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
          sipp_child_setup, NULL, &proc->pid, NULL, NULL, &proc->stderr_fd, &error))
    {
      g_printerr ("# cannot start %s: %s\n", argv[0], error->message);
      return FALSE;
    }
  return TRUE;
}

/* As sipp_child_setup, with stderr appended to a file (a busy SIPp or Kamailio says
 * a lot on stderr; a pipe nobody reads would block it). */
static void
sipp_child_setup_log (gpointer user_data)
{
  int fd = open (user_data, O_WRONLY | O_CREAT | O_APPEND, 0644);

  prctl (PR_SET_PDEATHSIG, SIGTERM);
  if (fd >= 0)
    {
      dup2 (fd, 2);
      close (fd);
    }
}

gboolean
sipp_spawn_argv_logged (SippProc *proc, const char *cwd, const char *const *argv, int limit_s,
                        const char *log_path)
{
  g_autoptr (GPtrArray) args = sipp_timeout_argv (argv, limit_s);
  g_autoptr (GError) error = NULL;

  proc->stderr_fd = -1;
  if (!g_spawn_async (cwd, (char **) args->pdata, NULL,
                      G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                      sipp_child_setup_log, (gpointer) log_path, &proc->pid, &error))
    {
      g_printerr ("# cannot start %s: %s\n", argv[0], error->message);
      return FALSE;
    }
  return TRUE;
}

gboolean
sipp_spawn (SippProc *proc, const char *cwd, const char *command, int limit_s)
{
  g_auto (GStrv) argv = NULL;

  if (!g_shell_parse_argv (command, NULL, &argv, NULL))
    return FALSE;
  return sipp_spawn_argv (proc, cwd, (const char *const *) argv, limit_s);
}

static int
sipp_reap (SippProc *proc)
{
  int status = -1;

  if (proc->pid <= 0)
    return -1;
  while (waitpid (proc->pid, &status, 0) < 0 && errno == EINTR)
    ;
  g_spawn_close_pid (proc->pid);
  proc->pid = 0;
  if (proc->stderr_fd >= 0)
    close (proc->stderr_fd);
  proc->stderr_fd = -1;
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

int
sipp_wait (SippProc *proc)
{
  return sipp_reap (proc);
}

void
sipp_stop (SippProc *proc)
{
  if (proc->pid > 0)
    kill (proc->pid, SIGTERM); /* `timeout` passes it on to SIPp */
  sipp_reap (proc);
}

int
sipp_run (const char *cwd, const char *command, int limit_s)
{
  g_auto (GStrv) argv = NULL;
  g_autoptr (GPtrArray) args = NULL;
  g_autoptr (GError) error = NULL;
  int status = -1;

  if (!g_shell_parse_argv (command, NULL, &argv, &error))
    return -1;
  args = sipp_timeout_argv ((const char *const *) argv, limit_s);
  if (!g_spawn_sync (cwd, (char **) args->pdata, NULL,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, &error))
    {
      g_printerr ("# cannot run %s: %s\n", argv[0], error->message);
      return -1;
    }
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

gboolean
sipp_capture_start (SippProc *proc, const char *pcap, const char *filter, char **why)
{
  const char *argv[] = { "tcpdump", "-i", "lo", "-U", "-Z", "root", "-w", pcap, filter, NULL };
  g_autoptr (GString) said = g_string_new (NULL);
  gint64 deadline = g_get_monotonic_time () + 5 * G_TIME_SPAN_SECOND;

  if (!sipp_spawn_argv (proc, NULL, argv, 120))
    {
      *why = g_strdup ("tcpdump could not be started");
      return FALSE;
    }
  /* tcpdump says "listening on lo" once packets are being captured */
  while (g_get_monotonic_time () < deadline && strstr (said->str, "listening on") == NULL)
    {
      GPollFD fd = { proc->stderr_fd, G_IO_IN, 0 };
      char buf[512];
      gssize n;

      if (g_poll (&fd, 1, 200) <= 0)
        continue;
      n = read (proc->stderr_fd, buf, sizeof buf);
      if (n <= 0)
        break;
      g_string_append_len (said, buf, n);
    }
  if (strstr (said->str, "listening on") == NULL)
    {
      *why = g_strdup_printf ("tcpdump cannot capture on lo here: %s", g_strstrip (said->str));
      sipp_stop (proc);
      return FALSE;
    }
  return TRUE;
}

void
sipp_capture_stop (SippProc *proc)
{
  g_usleep (300 * 1000); /* the last packets of the run */
  if (proc->pid > 0)
    kill (proc->pid, SIGINT);
  sipp_reap (proc);
}

char *
sipp_find_file (const char *dir, const char *glob)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr (GPatternSpec) spec = g_pattern_spec_new (glob);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (g_pattern_spec_match_string (spec, name))
      return g_build_filename (dir, name, NULL);
  return NULL;
}

static char **
sipp_read_lines (const char *dir, const char *glob)
{
  g_autofree char *path = sipp_find_file (dir, glob);
  g_autofree char *text = NULL;

  if (path == NULL || !g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  return g_strsplit (text, "\n", -1);
}

static GHashTable *
sipp_row_table (char **names, const char *line)
{
  g_auto (GStrv) values = g_strsplit (line, ";", -1);
  GHashTable *row = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint i = 0; names[i] != NULL && values[i] != NULL; i++)
    if (names[i][0] != '\0')
      g_hash_table_insert (row, g_strdup (g_strstrip (names[i])), g_strdup (values[i]));
  return row;
}

GPtrArray *
sipp_read_rows (const char *dir, const char *glob)
{
  g_auto (GStrv) lines = sipp_read_lines (dir, glob);
  g_auto (GStrv) names = NULL;
  GPtrArray *rows;

  if (lines == NULL || lines[0] == NULL)
    return NULL;
  names = g_strsplit (lines[0], ";", -1);
  rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_hash_table_unref);
  for (guint i = 1; lines[i] != NULL; i++)
    if (strchr (lines[i], ';') != NULL)
      g_ptr_array_add (rows, sipp_row_table (names, lines[i]));
  return rows;
}

double
sipp_row_time (GHashTable *row)
{
  const char *value = g_hash_table_lookup (row, "CurrentTime");
  const char *epoch = value != NULL ? strrchr (value, '\t') : NULL;

  return epoch != NULL ? g_ascii_strtod (epoch + 1, NULL) : NAN;
}

GHashTable *
sipp_read_last_row (const char *dir, const char *glob)
{
  g_auto (GStrv) lines = sipp_read_lines (dir, glob);
  g_auto (GStrv) names = NULL, values = NULL;
  GHashTable *row;
  int last = -1;

  if (lines == NULL || lines[0] == NULL)
    return NULL;
  for (int i = 1; lines[i] != NULL; i++)
    if (strchr (lines[i], ';') != NULL)
      last = i;
  if (last < 0)
    return NULL;
  names = g_strsplit (lines[0], ";", -1);
  values = g_strsplit (lines[last], ";", -1);
  row = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; names[i] != NULL && values[i] != NULL; i++)
    if (names[i][0] != '\0')
      g_hash_table_insert (row, g_strdup (g_strstrip (names[i])),
                           g_strdup (g_strstrip (values[i])));
  return row;
}

gint64
sipp_column (GHashTable *row, const char *column)
{
  const char *value = row != NULL ? g_hash_table_lookup (row, column) : NULL;

  return value != NULL ? g_ascii_strtoll (value, NULL, 10) : 0;
}

gint64
sipp_first_column_ending (const char *dir, const char *glob, const char *suffix)
{
  g_auto (GStrv) lines = sipp_read_lines (dir, glob);
  g_autoptr (GHashTable) row = sipp_read_last_row (dir, glob);
  g_auto (GStrv) names = NULL;

  if (lines == NULL || lines[0] == NULL)
    return -1;
  names = g_strsplit (lines[0], ";", -1);
  for (guint i = 0; names[i] != NULL; i++)
    if (g_str_has_suffix (names[i], suffix))
      return sipp_column (row, names[i]);
  return -1;
}

GArray *
sipp_read_rtt (const char *dir, const char *glob, int rtd)
{
  g_auto (GStrv) lines = sipp_read_lines (dir, glob);
  GArray *values = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 1; lines != NULL && lines[i] != NULL; i++)
    {
      g_auto (GStrv) fields = g_strsplit (lines[i], ";", -1);
      double ms;

      if (g_strv_length (fields) < 3 || atoi (fields[2]) != rtd)
        continue;
      ms = g_ascii_strtod (fields[1], NULL);
      g_array_append_val (values, ms);
    }
  return values;
}

guint
sipp_pid_of (const char *dir, const char *glob)
{
  g_autofree char *path = sipp_find_file (dir, glob);
  g_autofree char *base = path != NULL ? g_path_get_basename (path) : NULL;
  const char *p;

  /* name_PID_kind.csv: the number between the last two underscores */
  if (base == NULL || (p = strrchr (base, '_')) == NULL)
    return 0;
  while (p > base && g_ascii_isdigit (p[-1]))
    p--;
  return (guint) g_ascii_strtoull (p, NULL, 10);
}

void
sipp_free_udp_ports (guint16 *ports, guint n)
{
  int fds[16];

  g_assert (n <= G_N_ELEMENTS (fds));
  /* bound all at once, so the kernel hands out distinct ports; concurrent runs of
   * this suite (several build directories) then never share one */
  for (guint i = 0; i < n; i++)
    {
      struct sockaddr_in addr = { 0 };
      socklen_t len = sizeof addr;

      fds[i] = socket (AF_INET, SOCK_DGRAM, 0);
      addr.sin_family = AF_INET;
      addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
      g_assert_cmpint (bind (fds[i], (struct sockaddr *) &addr, sizeof addr), ==, 0);
      g_assert_cmpint (getsockname (fds[i], (struct sockaddr *) &addr, &len), ==, 0);
      ports[i] = ntohs (addr.sin_port);
    }
  for (guint i = 0; i < n; i++)
    close (fds[i]);
}

static char *
sipp_kamailio_path (void)
{
  char *path = g_find_program_in_path ("kamailio");

  if (path == NULL && g_file_test ("/usr/sbin/kamailio", G_FILE_TEST_IS_EXECUTABLE))
    path = g_strdup ("/usr/sbin/kamailio");
  return path;
}

const char *
sipp_missing_kamailio (void)
{
  g_autofree char *path = sipp_kamailio_path ();

  return path == NULL ? "kamailio" : NULL;
}

/* One OPTIONS with Max-Forwards: 0: a running worker answers 483 at once. */
static gboolean
sipp_kamailio_answers (guint16 port)
{
  struct sockaddr_in addr = { 0 };
  g_autofree char *probe
      = g_strdup_printf ("OPTIONS sip:probe@127.0.0.1:%u SIP/2.0\r\n"
                         "Via: SIP/2.0/UDP 127.0.0.1:9;rport;branch=z9hG4bKprobe%u\r\n"
                         "From: <sip:probe@127.0.0.1>;tag=probe\r\nTo: <sip:probe@127.0.0.1>\r\n"
                         "Call-ID: probe-%u@127.0.0.1\r\nCSeq: 1 OPTIONS\r\nMax-Forwards: 0\r\n"
                         "Content-Length: 0\r\n\r\n",
                         port, port, port);
  struct timeval wait = { 0, 300 * 1000 };
  char reply[2048];
  gssize n;
  int fd = socket (AF_INET, SOCK_DGRAM, 0);

  if (fd < 0)
    return FALSE;
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  addr.sin_port = htons (port);
  setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
  (void) !sendto (fd, probe, strlen (probe), 0, (struct sockaddr *) &addr, sizeof addr);
  n = recv (fd, reply, sizeof reply - 1, 0);
  close (fd);
  if (n <= 0)
    return FALSE;
  reply[n] = '\0';
  return g_str_has_prefix (reply, "SIP/2.0 483");
}

gboolean
sipp_kamailio_start (SippProc *proc, const char *dir, const char *template_path, guint16 proxy_port,
                     guint16 uas_port, guint delay_us, int limit_s, char **why)
{
  g_autofree char *kamailio = sipp_kamailio_path ();
  g_autofree char *text = NULL;
  g_autofree char *cfg = g_build_filename (dir, "proxy.cfg", NULL);
  g_autofree char *pid = g_build_filename (dir, "kamailio.pid", NULL);
  g_autofree char *log = g_build_filename (dir, "kamailio.log", NULL);
  g_autofree char *proxy = g_strdup_printf ("%u", proxy_port);
  g_autofree char *uas = g_strdup_printf ("%u", uas_port);
  g_autofree char *delay = g_strdup_printf ("%u", delay_us);
  const char *argv[] = { kamailio, "-DD", "-E", "-f", cfg, "-P", pid, "-m", "64", "-M", "8", NULL };
  g_autoptr (GString) config = NULL;
  gint64 deadline;

  if (kamailio == NULL || !g_file_get_contents (template_path, &text, NULL, NULL))
    {
      *why = g_strdup_printf ("kamailio or %s is missing", template_path);
      return FALSE;
    }
  config = g_string_new (text);
  g_string_replace (config, "@PROXY_PORT@", proxy, 0);
  g_string_replace (config, "@UAS_PORT@", uas, 0);
  g_string_replace (config, "@DELAY_US@", delay, 0);
  if (!g_file_set_contents (cfg, config->str, config->len, NULL)
      || !sipp_spawn_argv_logged (proc, dir, argv, limit_s, log))
    {
      *why = g_strdup ("kamailio could not be started");
      return FALSE;
    }
  deadline = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;
  while (g_get_monotonic_time () < deadline)
    {
      if (sipp_kamailio_answers (proxy_port))
        return TRUE;
      if (waitpid (proc->pid, NULL, WNOHANG) == proc->pid)
        {
          proc->pid = 0;
          break;
        }
    }
  *why = g_strdup_printf ("kamailio did not answer on 127.0.0.1:%u within 10 s", proxy_port);
  sipp_stop (proc);
  return FALSE;
}

int
sipp_compare_doubles (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

double
sipp_quantile_type7 (const GArray *sorted, double q)
{
  double pos = q * (sorted->len - 1);
  guint lo = (guint) floor (pos);
  double a = g_array_index (sorted, double, lo);
  double b = g_array_index (sorted, double, MIN (lo + 1, sorted->len - 1));

  return a + (pos - lo) * (b - a);
}

char *
sipp_make_dir (const char *parent, const char *name)
{
  char *dir = g_build_filename (parent, name, NULL);

  g_mkdir_with_parents (dir, 0755);
  return dir;
}
