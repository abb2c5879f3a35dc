/* test-sipp-proxy.c — a SIPp UAC ramping its call rate through a real Kamailio
 * (stateful, record-routing, one worker, a slow "database lookup" per INVITE) to a
 * SIPp UAS, both legs recorded on 127.0.0.1; `callscope-cli loadtest --sipp-stat`
 * against SIPp's own counters (and tshark for where a call's INVITE left the host).
 * Every assertion is a relation that holds at any machine speed: the proxy breaks
 * wherever it breaks, and the statistics must say so where SIPp does. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sipp-json.h"
#include "sipp-periods.h"
#include "sipp-run.h"

#define PROXY_DELAY_US 4000 /* per new INVITE: saturates below 250 calls/s */
#define RUN_LIMIT_S 100

static char *work_dir;

static gint64
column (GHashTable *row, const char *name)
{
  return sipp_column (row, name);
}

/* The sum of a SIPp counts row's columns named "<n>_<message>_<what>". */
static gint64
counts_sum (GHashTable *row, const char *message, const char *what)
{
  g_autofree char *suffix = g_strdup_printf ("_%s_%s", message, what);
  GHashTableIter iter;
  gpointer key;
  gint64 total = 0;

  g_hash_table_iter_init (&iter, row);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (g_str_has_suffix (key, suffix) && g_ascii_isdigit (((const char *) key)[0]))
      total += column (row, key);
  return total;
}

/* Every SIPp-counted message of a counts row (sent, received, resent). */
static gint64
counts_messages (GHashTable *row)
{
  GHashTableIter iter;
  gpointer key;
  gint64 total = 0;

  g_hash_table_iter_init (&iter, row);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (g_ascii_isdigit (((const char *) key)[0])
        && (g_str_has_suffix (key, "_Sent") || g_str_has_suffix (key, "_Recv")
            || g_str_has_suffix (key, "_Retrans")))
      total += column (row, key);
  return total;
}

/* The first SIPp period whose retransmissions exceed 1 % of its messages (-1: none). */
static int
sipp_first_troubled_period (GPtrArray *stat_rows, GPtrArray *count_rows)
{
  guint n = MIN (stat_rows->len, count_rows->len);

  for (guint k = 1; k < n; k++)
    {
      gint64 retrans = column (g_ptr_array_index (stat_rows, k), "Retransmissions(P)");
      gint64 messages = counts_messages (g_ptr_array_index (count_rows, k))
                        - counts_messages (g_ptr_array_index (count_rows, k - 1));

      if (messages > 0 && (double) retrans > 0.01 * (double) messages)
        return (int) k;
    }
  return -1;
}

static void
test_kamailio_ramp (void)
{
  g_autofree char *dir = sipp_make_dir (work_dir, "proxy");
  g_autofree char *uas_dir = sipp_make_dir (work_dir, "proxy/uas");
  g_autofree char *uac_dir = sipp_make_dir (work_dir, "proxy/uac");
  g_autofree char *kam_dir = sipp_make_dir (work_dir, "proxy/kamailio");
  g_autofree char *pcap = g_build_filename (dir, "proxy.pcap", NULL);
  const char *scenarios = g_getenv ("CS_SIPP_SCENARIOS");
  g_autofree char *cfg = g_build_filename (scenarios, "kamailio-proxy.cfg.in", NULL);
  g_autofree char *uas_xml = g_build_filename (scenarios, "uas-proxy.xml", NULL);
  g_autofree char *uac_xml = g_build_filename (scenarios, "uac-proxy.xml", NULL);
  g_autofree char *uas_log = g_build_filename (uas_dir, "stderr.log", NULL);
  g_autofree char *stat_path = g_build_filename (uac_dir, "stat.csv", NULL);
  g_autofree char *uas = NULL, *uac = NULL, *filter = NULL, *why = NULL;
  g_auto (GStrv) uas_argv = NULL;
  guint16 port[3]; /* proxy, UAS, UAC */
  SippProc capture = { 0 }, proxy = { 0 }, server = { 0 };
  g_autoptr (JsonParser) parser = NULL;
  g_autoptr (GPtrArray) stat_rows = NULL, count_rows = NULL;
  g_autoptr (GHashTable) stat = NULL, counts = NULL, uas_counts = NULL;
  g_autoptr (GArray) rtt = NULL;
  /* the transaction timeout is the UAC's -recv_timeout: an answer later than that
   * comes to a call SIPp has given up on */
  const char *extra[] = { "--sipp-stat", stat_path, "--timeout", "5", NULL };
  JsonObject *root, *totals, *bp, *rt, *server_rt;
  JsonArray *intervals;
  UacWire wire = { 0 };
  gboolean have_wire;
  int troubled;

  sipp_free_udp_ports (port, G_N_ELEMENTS (port));
  filter = g_strdup_printf ("udp port %u or udp port %u or udp port %u", port[0], port[1], port[2]);
  if (!sipp_capture_start (&capture, pcap, filter, &why))
    {
      g_test_skip (why);
      return;
    }
  uas = g_strdup_printf ("sipp -sf %s -i 127.0.0.1 -p %u -nostdin -trace_counts -fd 1", uas_xml,
                         port[1]);
  g_assert_true (g_shell_parse_argv (uas, NULL, &uas_argv, NULL));
  g_assert_true (sipp_spawn_argv_logged (&server, uas_dir, (const char *const *) uas_argv,
                                         RUN_LIMIT_S, uas_log));
  if (!sipp_kamailio_start (&proxy, kam_dir, cfg, port[0], port[1], PROXY_DELAY_US, RUN_LIMIT_S,
                            &why))
    {
      sipp_stop (&server);
      sipp_capture_stop (&capture);
      g_test_fail_printf ("%s", why);
      return;
    }
  /* 20 calls/s more every second up to 500, 3300 calls (past 330 calls/s, well beyond what the
   * proxy can do); a call SIPp gets no answer for in 5 s is cancelled; INVITE and BYE are resent at
   * most 3 times */
  uac = g_strdup_printf ("sipp -sf %s 127.0.0.1:%u -i 127.0.0.1 -p %u -r 20 -rate_increase 20 "
                         "-rate_interval 1 -rate_max 500 -no_rate_quit -m 3300 -d 200 -l 10000 "
                         "-max_invite_retrans 3 -max_non_invite_retrans 3 -recv_timeout 5000 "
                         "-fd 1 -nostdin -trace_counts -trace_stat -stf stat.csv -trace_rtt "
                         "-rtt_freq 1",
                         uac_xml, port[0], port[2]);
  g_test_message ("UAC exit status %d (1: some calls failed)",
                  sipp_run (uac_dir, uac, RUN_LIMIT_S));
  g_usleep (500 * 1000);
  sipp_stop (&server);
  sipp_stop (&proxy);
  sipp_capture_stop (&capture);

  stat_rows = sipp_read_rows (uac_dir, "stat.csv");
  count_rows = sipp_read_rows (uac_dir, "*_counts.csv");
  stat = sipp_read_last_row (uac_dir, "stat.csv");
  counts = sipp_read_last_row (uac_dir, "*_counts.csv");
  uas_counts = sipp_read_last_row (uas_dir, "*_counts.csv");
  g_assert_nonnull (stat_rows);
  g_assert_nonnull (count_rows);
  g_assert_nonnull (uas_counts);
  g_assert_cmpint (column (stat, "OutgoingCall(C)"), ==, 3300);

  root = loadtest_json (pcap, extra, &parser);
  totals = member_object (root, "totals");
  intervals = json_object_get_array_member (root, "intervals");
  rt = member_object (member_object (root, "response_times"), "invite_200");
  server_rt = member_object (member_object (root, "server_response_times"), "invite_200");

  /* both legs: every call through the proxy, counted once */
  g_assert_cmpint (member_int (totals, "calls"), ==, column (stat, "OutgoingCall(C)"));
  /* every call whose INVITE the proxy forwarded (one it dropped for good is seen on
   * the client leg only) */
  g_assert_cmpint (member_int (totals, "proxied"), ==, counts_sum (uas_counts, "INVITE", "Recv"));
  g_assert_cmpint (member_int (totals, "proxied"), <=, member_int (totals, "calls"));
  g_assert_true (json_object_get_boolean_member (root, "proxied"));
  g_assert_cmpstr (json_object_get_string_member (rt, "leg"), ==, "client");
  g_assert_cmpstr (json_object_get_string_member (server_rt, "leg"), ==, "server");
  /* the proxy forwarded every INVITE the UAS received, once each */
  g_assert_cmpint (member_int (member_object (root, "forwarding_ms"), "n"), ==,
                   counts_sum (uas_counts, "INVITE", "Recv"));
  g_assert_cmpint (member_int (totals, "handled"), ==, counts_sum (uas_counts, "INVITE", "Recv"));

  /* outcomes as the UAC saw them */
  /* the first 200 of the scenario is the INVITE's */
  g_assert_cmpint (member_int (totals, "answered"), ==,
                   sipp_first_column_ending (uac_dir, "*_counts.csv", "_200_Recv"));
  g_assert_cmpint (member_int (totals, "completed"), ==, column (stat, "SuccessfulCall(C)"));
  g_assert_cmpint (member_int (totals, "failed") + member_int (totals, "cancelled")
                       + member_int (totals, "dropped") + member_int (totals, "unfinished"),
                   ==, column (stat, "FailedCall(C)"));

  /* retransmissions: the UAC's (SIPp's counters) on the client leg, the UAS's 200s on
   * the server leg; the rest is the proxy's own (README "Load tests") */
  g_assert_cmpint (member_int (member_object (totals, "client_retransmissions_by_type"), "INVITE"),
                   ==, counts_sum (counts, "INVITE", "Retrans"));
  g_assert_cmpint (member_int (member_object (totals, "client_retransmissions_by_type"), "BYE"), ==,
                   counts_sum (counts, "BYE", "Retrans"));
  g_test_message ("retransmissions: UAC INVITE %" G_GINT64_FORMAT " BYE %" G_GINT64_FORMAT
                  ", UAS 200 %" G_GINT64_FORMAT "; on the server leg: INVITE %" G_GINT64_FORMAT
                  " (the proxy's), 200 %" G_GINT64_FORMAT,
                  counts_sum (counts, "INVITE", "Retrans"), counts_sum (counts, "BYE", "Retrans"),
                  counts_sum (uas_counts, "200", "Retrans"),
                  member_int (member_object (totals, "server_retransmissions_by_type"), "INVITE"),
                  member_int (member_object (totals, "server_retransmissions_by_type"), "200"));

  have_wire = uac_wire (pcap, port[2], &wire);
  if (!have_wire)
    g_test_message ("tshark absent: per-period edges compared as totals only");
  check_periods (intervals, stat_rows, have_wire ? &wire : NULL);
  check_concurrency (intervals, stat_rows);

  /* INVITE → 200 of the client leg against SIPp's response time 1 (its own ms clock,
   * read when its busy loop gets to the answer: README "Load tests") */
  rtt = sipp_read_rtt (uac_dir, "*_rtt.csv", 1);
  g_array_sort (rtt, sipp_compare_doubles);
  /* SIPp times the 200s of calls it still runs; a 200 that reaches a call it has given
   * up on (no CANCEL when nothing provisional came) is on the wire all the same */
  g_assert_cmpint (member_int (rt, "n"), >=, rtt->len);
  g_assert_cmpint (member_int (rt, "n"), <=,
                   rtt->len + member_int (totals, "failed") + member_int (totals, "cancelled")
                       + member_int (totals, "dropped"));
  {
    const struct
    {
      const char *key;
      double q;
    } quantiles[] = { { "p50", 0.5 }, { "p90", 0.9 }, { "p99", 0.99 }, { "p999", 0.999 } };

    for (guint k = 0; k < G_N_ELEMENTS (quantiles); k++)
      {
        double sipp = sipp_quantile_type7 (rtt, quantiles[k].q);
        double ours = member_double (rt, quantiles[k].key);

        g_test_message ("INVITE->200 %s: callscope %.3f ms, SIPp %.3f ms", quantiles[k].key, ours,
                        sipp);
        /* 5 ms, and 1 % of SIPp's figure: the lag of SIPp's busy loop grows with its
         * backlog, and the high percentiles are taken in the worst moments */
        g_assert_cmpfloat (fabs (ours - sipp), <=, 5.0 + 0.01 * sipp);
      }
  }

  /* the breaking point: within one interval of the first period in which SIPp
   * resent more than 1 % of its messages */
  troubled = sipp_first_troubled_period (stat_rows, count_rows);
  bp = member_object (root, "breaking_point");
  if (troubled < 0)
    {
      g_test_message ("the proxy kept up with the whole ramp on this machine");
      g_assert_null (bp);
    }
  else
    {
      JsonObject *capacity = member_object (root, "capacity");
      gint64 at = member_int (bp, "interval");

      g_assert_nonnull (bp);
      g_test_message (
          "SIPp: first period over 1 %% retransmissions %d; breaking point interval "
          "%" G_GINT64_FORMAT " at %.0f calls/s offered, %.0f handled, %" G_GINT64_FORMAT
          " concurrent, first symptom %s: %s",
          troubled, at, member_double (bp, "offered_cps"), member_double (bp, "handled_cps"),
          member_int (bp, "concurrent"), json_object_get_string_member (bp, "first_symptom"),
          json_object_get_string_member (bp, "reason"));
      g_assert_cmpint (ABS (at - (troubled - 1)), <=, 1);
      g_assert_cmpstr (json_object_get_string_member (bp, "rule"), ==, "symptoms");
      g_assert_nonnull (json_object_get_string_member (bp, "first_symptom"));
      /* the offered rate there is SIPp's call rate of that period */
      g_assert_cmpfloat (
          fabs (member_double (bp, "offered_cps")
                - g_ascii_strtod (
                    g_hash_table_lookup (g_ptr_array_index (stat_rows, at + 1), "CallRate(P)"),
                    NULL)),
          <=, 0.1 * member_double (bp, "offered_cps") + 2);
      /* capacity: a rate held before the break, in periods where SIPp resent nothing */
      g_assert_nonnull (capacity);
      g_test_message ("capacity %.0f calls/s from interval %" G_GINT64_FORMAT,
                      member_double (capacity, "cps"), member_int (capacity, "interval"));
      g_assert_cmpint (member_int (capacity, "interval") + member_int (capacity, "window"), <=, at);
      for (gint64 i = member_int (capacity, "interval");
           i < member_int (capacity, "interval") + member_int (capacity, "window"); i++)
        g_assert_cmpint (column (g_ptr_array_index (stat_rows, i + 1), "Retransmissions(P)"), ==,
                         0);
    }
  uac_wire_clear (&wire);
}

int
main (int argc, char **argv)
{
  const char *missing;
  int result;

  g_test_init (&argc, &argv, NULL);
  missing = sipp_missing_tool ();
  if (missing == NULL)
    missing = sipp_missing_kamailio ();
  if (missing != NULL)
    {
      g_print ("1..1\nok 1 /sipp/proxy/kamailio-ramp # SKIP %s is not installed "
               "(scripts/install-deps.sh installs it)\n",
               missing);
      return 0;
    }
  work_dir = g_dir_make_tmp ("cs-sipp-proxy-XXXXXX", NULL);
  g_test_add_func ("/sipp/proxy/kamailio-ramp", test_kamailio_ramp);
  result = g_test_run ();
  if (result == 0 && g_getenv ("CS_KEEP_SIPP") == NULL)
    {
      g_autofree char *quoted = g_shell_quote (work_dir);
      g_autofree char *cmd = g_strdup_printf ("rm -rf %s", quoted);
      (void) !system (cmd);
    }
  return result;
}
