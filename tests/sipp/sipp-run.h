/* sipp-run.h — bounded SIPp and tcpdump runs on 127.0.0.1 for the load-test suite */
#pragma once

#include <glib.h>

/* A background process (tcpdump, a SIPp UAS) started under `timeout`. */
typedef struct
{
  GPid pid;
  int stderr_fd;
} SippProc;

/* parent/name, made with its parents; g_free it. */
char *sipp_make_dir (const char *parent, const char *name);

/* NULL when sipp, tcpdump and timeout are all in PATH, else why the suite skips. */
const char *sipp_missing_tool (void);

/* Starts `tcpdump -i lo -U -Z root -w pcap FILTER` and waits until it listens.
 * FALSE (with *why) when capture is not permitted here. */
gboolean sipp_capture_start (SippProc *proc, const char *pcap, const char *filter, char **why);
/* Stops tcpdump (SIGINT, so the file is complete). */
void sipp_capture_stop (SippProc *proc);

/* Starts a command line (shell quoting, no shell) in the background under
 * `timeout LIMIT`, in cwd. */
gboolean sipp_spawn (SippProc *proc, const char *cwd, const char *command, int limit_s);
gboolean sipp_spawn_argv (SippProc *proc, const char *cwd, const char *const *argv, int limit_s);
/* The same with stderr appended to log_path instead of a pipe. */
gboolean sipp_spawn_argv_logged (SippProc *proc, const char *cwd, const char *const *argv,
                                 int limit_s, const char *log_path);
/* Waits for the process to end by itself; its exit status (-1 when killed). */
int sipp_wait (SippProc *proc);
/* Sends SIGTERM (SIPp writes its statistics files on the way out) and reaps. */
void sipp_stop (SippProc *proc);
/* Runs a command line in cwd under `timeout LIMIT` and waits; returns the exit status. */
int sipp_run (const char *cwd, const char *command, int limit_s);

/* The last row of a SIPp CSV statistics file (";"-separated, header first) as
 * column → value; NULL when absent. The file is found by glob in dir. */
GHashTable *sipp_read_last_row (const char *dir, const char *glob);
/* A column as a number, 0 when absent (SIPp writes "_Lost" only with -lost). */
gint64 sipp_column (GHashTable *row, const char *column);
/* The first column (in the file's order) whose name ends in suffix, e.g. "_200_Recv". */
gint64 sipp_first_column_ending (const char *dir, const char *glob, const char *suffix);
/* Response times of a -trace_rtt file (ms), rtd number rtd. */
GArray *sipp_read_rtt (const char *dir, const char *glob, int rtd);
/* SIPp's pid from the name of a file it wrote (name_PID_counts.csv), or 0. */
guint sipp_pid_of (const char *dir, const char *glob);
/* n distinct UDP ports free on 127.0.0.1 right now. */
void sipp_free_udp_ports (guint16 *ports, guint n);

/* NULL when kamailio is in PATH (or /usr/sbin), else why the proxy test skips. */
const char *sipp_missing_kamailio (void);
/* Writes dir/proxy.cfg from the template (replacing @PROXY_PORT@, @UAS_PORT@,
 * @DELAY_US@), starts Kamailio in the foreground under `timeout limit_s` and waits
 * until its worker answers (a probe with Max-Forwards: 0 gets 483). FALSE with *why. */
gboolean sipp_kamailio_start (SippProc *proc, const char *dir, const char *template_path,
                              guint16 proxy_port, guint16 uas_port, guint delay_us, int limit_s,
                              char **why);
/* Every row of a SIPp CSV statistics file (column → value tables), header excluded;
 * NULL when absent. */
GPtrArray *sipp_read_rows (const char *dir, const char *glob);
/* The epoch (s) of a row's CurrentTime ("date<TAB>time<TAB>epoch"). */
double sipp_row_time (GHashTable *row);
/* The path of the first file matching glob in dir, or NULL. */
char *sipp_find_file (const char *dir, const char *glob);
/* qsort/g_array_sort order of doubles, and the q-quantile of sorted values
 * (Hyndman–Fan type 7, as numpy and the load statistics). */
int sipp_compare_doubles (gconstpointer a, gconstpointer b);
double sipp_quantile_type7 (const GArray *sorted, double q);
