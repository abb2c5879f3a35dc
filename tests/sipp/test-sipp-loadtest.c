/* test-sipp-loadtest.c — `callscope-cli loadtest` on real SIPp runs recorded on
 * 127.0.0.1, against SIPp's own counters and against the wire (tshark) */
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sipp-json.h"
#include "sipp-periods.h"
#include "sipp-run.h"

#define UAS_LIMIT_S 40
#define UAC_LIMIT_S 40

static char *work_dir;

/* Wire truth, independently of callscope: tshark's view of the same capture */

typedef struct
{
  GArray *starts_per_second; /* guint, first INVITE of each Call-ID */
  GArray *invite_200_ms;     /* double, sorted */
  guint invites;             /* INVITE copies on the wire */
} WireTruth;

static gboolean
wire_truth (const char *pcap, WireTruth *truth)
{
  const char *argv[] = { "tshark", "-n",
                         "-r",     pcap,
                         "-Y",     "sip",
                         "-T",     "fields",
                         "-E",     "separator=|",
                         "-e",     "frame.time_epoch",
                         "-e",     "sip.Call-ID",
                         "-e",     "sip.Method",
                         "-e",     "sip.Status-Code",
                         "-e",     "sip.CSeq.method",
                         NULL };
  g_autofree char *tshark = g_find_program_in_path ("tshark");
  g_autofree char *out = NULL;
  g_autoptr (GHashTable) invite_at
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GHashTable) answered = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto (GStrv) lines = NULL;
  GHashTableIter iter;
  gpointer key, value;
  double origin = INFINITY;
  int status;

  if (tshark == NULL
      || !g_spawn_sync (NULL, (char **) argv, NULL,
                        G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
                        &status, NULL)
      || status != 0)
    return FALSE;
  truth->starts_per_second = g_array_new (FALSE, TRUE, sizeof (guint));
  truth->invite_200_ms = g_array_new (FALSE, FALSE, sizeof (double));
  truth->invites = 0;
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) f = g_strsplit (lines[i], "|", -1);
      double t;

      if (g_strv_length (f) < 5)
        continue;
      t = g_ascii_strtod (f[0], NULL);
      origin = MIN (origin, t);
      if (g_strcmp0 (f[2], "INVITE") == 0)
        {
          truth->invites++;
          if (!g_hash_table_contains (invite_at, f[1]))
            g_hash_table_insert (invite_at, g_strdup (f[1]), g_memdup2 (&t, sizeof t));
        }
      else if (f[3][0] == '2' && g_strcmp0 (f[4], "INVITE") == 0
               && !g_hash_table_contains (answered, f[1]))
        {
          double *start = g_hash_table_lookup (invite_at, f[1]);
          double ms;

          g_hash_table_add (answered, g_strdup (f[1]));
          if (start == NULL)
            continue;
          ms = (t - *start) * 1000;
          g_array_append_val (truth->invite_200_ms, ms);
        }
    }
  g_hash_table_iter_init (&iter, invite_at);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      guint second = (guint) floor (*(double *) value - origin + 1e-9);

      if (second >= truth->starts_per_second->len)
        g_array_set_size (truth->starts_per_second, second + 1);
      g_array_index (truth->starts_per_second, guint, second)++;
    }
  g_array_sort (truth->invite_200_ms, sipp_compare_doubles);
  return TRUE;
}

static void
wire_truth_clear (WireTruth *truth)
{
  g_clear_pointer (&truth->starts_per_second, g_array_unref);
  g_clear_pointer (&truth->invite_200_ms, g_array_unref);
}

/* Compares calls per second and INVITE → 200 percentiles with the wire truth. */
static void
check_against_wire (const char *pcap, JsonObject *root)
{
  JsonArray *intervals = json_object_get_array_member (root, "intervals");
  JsonObject *rt = member_object (member_object (root, "response_times"), "invite_200");
  const struct
  {
    const char *key;
    double q;
  } quantiles[] = { { "p50", 0.5 }, { "p90", 0.9 }, { "p99", 0.99 }, { "p999", 0.999 } };
  WireTruth truth = { 0 };

  if (!wire_truth (pcap, &truth))
    {
      g_test_message ("tshark absent: wire truth not compared");
      return;
    }
  for (guint i = 0; i < json_array_get_length (intervals); i++)
    {
      JsonObject *iv = json_array_get_object_element (intervals, i);
      guint expected = i < truth.starts_per_second->len
                           ? g_array_index (truth.starts_per_second, guint, i)
                           : 0;
      g_assert_cmpint (member_int (iv, "calls_started"), ==, expected);
    }
  g_assert_cmpint (member_int (rt, "n"), ==, truth.invite_200_ms->len);
  for (guint k = 0; k < G_N_ELEMENTS (quantiles); k++)
    {
      double wire = sipp_quantile_type7 (truth.invite_200_ms, quantiles[k].q);
      double ours = member_double (rt, quantiles[k].key);

      g_test_message ("INVITE→200 %s: callscope %.3f ms, wire %.3f ms", quantiles[k].key, ours,
                      wire);
      g_assert_cmpfloat (fabs (ours - wire), <=, 0.5);
    }
  wire_truth_clear (&truth);
}

/* Percentiles of SIPp's -trace_rtt against ours: SIPp's clock ticks in whole
 * milliseconds (see README "Load tests"), so agreement is within its tick. */
static void
check_against_sipp_rtt (const char *dir, JsonObject *root, double tolerance_ms)
{
  g_autoptr (GArray) rtt = sipp_read_rtt (dir, "*_rtt.csv", 1);
  JsonObject *rt = member_object (member_object (root, "response_times"), "invite_200");
  double p50;

  g_assert_cmpuint (rtt->len, >, 0);
  g_array_sort (rtt, sipp_compare_doubles);
  p50 = sipp_quantile_type7 (rtt, 0.5);
  g_test_message ("INVITE→200 p50: SIPp %.3f ms (%u samples), callscope %.3f ms", p50, rtt->len,
                  member_double (rt, "p50"));
  g_assert_cmpfloat (fabs (p50 - member_double (rt, "p50")), <=, tolerance_ms);
}

static gboolean
start_capture_or_skip (SippProc *capture, const char *pcap, const char *filter)
{
  g_autofree char *why = NULL;

  if (!sipp_capture_start (capture, pcap, filter, &why))
    {
      g_test_skip (why);
      return FALSE;
    }
  return TRUE;
}

/* A steady 50 calls/s where every fifth call is answered 486 Busy Here. */
static void
test_rejections (void)
{
  g_autofree char *dir = sipp_make_dir (work_dir, "reject");
  g_autofree char *uas_dir = sipp_make_dir (work_dir, "reject/uas");
  g_autofree char *pcap = g_build_filename (dir, "reject.pcap", NULL);
  g_autofree char *uas_xml
      = g_build_filename (g_getenv ("CS_SIPP_SCENARIOS"), "uas-reject.xml", NULL);
  g_autofree char *uac_xml
      = g_build_filename (g_getenv ("CS_SIPP_SCENARIOS"), "uac-reject.xml", NULL);
  guint16 port[2]; /* UAS, UAC */
  g_autofree char *uas = NULL, *uac = NULL, *filter = NULL;
  SippProc capture = { 0 }, server = { 0 };
  g_autoptr (JsonParser) parser = NULL;
  g_autoptr (GHashTable) stat = NULL, counts = NULL, uas_counts = NULL;
  JsonObject *root, *totals;
  int status;

  sipp_free_udp_ports (port, G_N_ELEMENTS (port));
  uas = g_strdup_printf ("sipp -sf %s -i 127.0.0.1 -p %u -nostdin -trace_counts -trace_stat "
                         "-stf stat.csv -fd 1",
                         uas_xml, port[0]);
  uac = g_strdup_printf ("sipp -sf %s -s user 127.0.0.1:%u -i 127.0.0.1 -p %u -r 50 -m 150 "
                         "-nostdin -trace_counts -trace_stat -stf stat.csv -trace_rtt "
                         "-rtt_freq 1 -fd 1",
                         uac_xml, port[0], port[1]);
  filter = g_strdup_printf ("udp port %u or udp port %u", port[0], port[1]);
  if (!start_capture_or_skip (&capture, pcap, filter))
    return;
  g_assert_true (sipp_spawn (&server, uas_dir, uas, UAS_LIMIT_S));
  g_usleep (300 * 1000);
  status = sipp_run (dir, uac, UAC_LIMIT_S);
  g_usleep (300 * 1000);
  sipp_stop (&server);
  sipp_capture_stop (&capture);
  g_assert_cmpint (status, ==, 0);

  root = loadtest_json (pcap, NULL, &parser);
  totals = member_object (root, "totals");
  stat = sipp_read_last_row (dir, "stat.csv");
  counts = sipp_read_last_row (dir, "*_counts.csv");
  uas_counts = sipp_read_last_row (uas_dir, "*_counts.csv");
  g_assert_nonnull (stat);
  g_assert_nonnull (counts);

  /* calls: 150 created by SIPp, 120 answered, 30 × 486 */
  g_assert_cmpint (member_int (totals, "calls"), ==, 150);
  g_assert_cmpint (sipp_column (stat, "OutgoingCall(C)"), ==, 150);
  g_assert_cmpint (member_int (totals, "answered"), ==, 120);
  g_assert_cmpint (sipp_first_column_ending (dir, "*_counts.csv", "_200_Recv"), ==, 120);
  g_assert_cmpint (member_int (member_object (totals, "failed_by_code"), "486"), ==, 30);
  g_assert_cmpint (member_int (totals, "failed"), ==, 30);
  g_assert_cmpint (sipp_first_column_ending (dir, "*_counts.csv", "_486_Recv"), ==, 30);
  /* SIPp counts a call "successful" when its scenario ran to the end — the 486s too */
  g_assert_cmpint (sipp_column (stat, "SuccessfulCall(C)"), ==, 150);
  /* no loss: nothing retransmitted on the wire, nor by SIPp */
  g_assert_cmpint (member_int (totals, "retransmissions"), ==, 0);
  g_assert_cmpint (sipp_column (stat, "Retransmissions(C)"), ==, 0);
  g_assert_cmpint (member_int (totals, "timeouts"), ==, 0);
  /* BYE → 200 transactions match SIPp's BYEs sent */
  g_assert_cmpint (
      member_int (member_object (member_object (root, "response_times"), "bye_200"), "n"), ==,
      sipp_first_column_ending (dir, "*_counts.csv", "_BYE_Sent"));
  if (uas_counts != NULL)
    g_assert_cmpint (sipp_first_column_ending (uas_dir, "*_counts.csv", "_INVITE_Recv"), ==, 150);
  g_assert_true (json_node_is_null (json_object_get_member (root, "breaking_point")));
  check_against_wire (pcap, root);
  check_against_sipp_rtt (dir, root, 5.0);

  /* the same capture in SIPp's own periods: calls started and CurrentCall per period */
  {
    g_autofree char *stat_path = g_build_filename (dir, "stat.csv", NULL);
    const char *extra[] = { "--sipp-stat", stat_path, NULL };
    g_autoptr (JsonParser) periods_parser = NULL;
    g_autoptr (GPtrArray) rows = sipp_read_rows (dir, "stat.csv");
    JsonObject *periods = loadtest_json (pcap, extra, &periods_parser);
    UacWire wire = { 0 };
    gboolean have_wire = uac_wire (pcap, port[1], &wire);

    g_assert_nonnull (rows);
    check_periods (json_object_get_array_member (periods, "intervals"), rows,
                   have_wire ? &wire : NULL);
    check_concurrency (json_object_get_array_member (periods, "intervals"), rows);
    uac_wire_clear (&wire);
  }
}

static gint64
sipp_on_wire (const char *dir, const char *message)
{
  g_autoptr (GHashTable) row = sipp_read_last_row (dir, "*_counts.csv");
  g_autofree char *sent = NULL, *retrans = NULL, *lost = NULL;
  GHashTableIter iter;
  gpointer key;
  gint64 total = 0;

  /* Sent + Retrans − Lost of every row of that message (SIPp's -lost drops
   * messages it sends before they reach the wire) */
  g_assert_nonnull (row);
  g_hash_table_iter_init (&iter, row);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      const char *name = key;
      const char *underscore = strchr (name, '_');
      g_autofree char *suffix = g_strdup_printf ("_%s_Sent", message);
      g_autofree char *prefix = NULL;

      if (underscore == NULL || !g_str_has_suffix (name, suffix))
        continue;
      prefix = g_strndup (name, strlen (name) - strlen ("Sent"));
      g_free (retrans);
      g_free (lost);
      retrans = g_strconcat (prefix, "Retrans", NULL);
      lost = g_strconcat (prefix, "Lost", NULL);
      total += sipp_column (row, name) + sipp_column (row, retrans) - sipp_column (row, lost);
    }
  return total;
}

/* A ramp (10 → 40 calls/s, no loss, 100 calls) joined after 4.2 s by a second UAC
 * that loses 15 % of what it sends and receives and runs on to the end (30 calls/s,
 * 90 calls): the breaking point is the second it joined. */
static void
test_ramp_into_loss (void)
{
  g_autofree char *dir = sipp_make_dir (work_dir, "ramp");
  g_autofree char *uas_dir = sipp_make_dir (work_dir, "ramp/uas");
  g_autofree char *ramp_dir = sipp_make_dir (work_dir, "ramp/uac-ramp");
  g_autofree char *lossy_dir = sipp_make_dir (work_dir, "ramp/uac-lossy");
  g_autofree char *pcap = g_build_filename (dir, "ramp.pcap", NULL);
  guint16 port[3]; /* UAS, ramping UAC, lossy UAC */
  g_autofree char *uas = NULL, *ramp = NULL, *lossy = NULL, *filter = NULL;
  SippProc capture = { 0 }, server = { 0 }, lossy_client = { 0 };
  g_autoptr (JsonParser) parser = NULL;
  g_autoptr (JsonParser) calls_parser = NULL;
  JsonObject *root, *totals, *bp, *by_type, *retrans_by_type;
  gint64 ramp_started;
  double lossy_start = INFINITY;
  int status;
  guint lossy_pid;

  sipp_free_udp_ports (port, G_N_ELEMENTS (port));
  uas = g_strdup_printf ("sipp -sn uas -i 127.0.0.1 -p %u -nostdin -trace_counts -fd 1", port[0]);
  ramp = g_strdup_printf ("sipp -sn uac 127.0.0.1:%u -i 127.0.0.1 -p %u -r 10 -rate_increase 10 "
                          "-fd 1 -rate_max 40 -no_rate_quit -m 100 -d 100 -nostdin "
                          "-trace_counts -trace_stat -stf stat.csv",
                          port[0], port[1]);
  lossy = g_strdup_printf ("sipp -sn uac 127.0.0.1:%u -i 127.0.0.1 -p %u -r 30 -m 90 -d 100 "
                           "-lost 15 -max_invite_retrans 3 -max_non_invite_retrans 3 -nostdin "
                           "-trace_counts -trace_stat -stf stat.csv",
                           port[0], port[2]);
  filter = g_strdup_printf ("udp port %u or udp port %u or udp port %u", port[0], port[1], port[2]);
  if (!start_capture_or_skip (&capture, pcap, filter))
    return;
  g_assert_true (sipp_spawn (&server, uas_dir, uas, UAS_LIMIT_S));
  g_usleep (300 * 1000);
  ramp_started = g_get_monotonic_time ();
  {
    SippProc ramp_client = { 0 };

    g_assert_true (sipp_spawn (&ramp_client, ramp_dir, ramp, UAC_LIMIT_S));
    /* late enough that at least 4 whole seconds of clean traffic come first,
     * even when a loaded machine starts the ramping client slowly */
    g_usleep (4200 * 1000 - (g_get_monotonic_time () - ramp_started));
    g_assert_true (sipp_spawn (&lossy_client, lossy_dir, lossy, UAC_LIMIT_S));
    /* both clients stop by themselves after -m calls */
    status = sipp_wait (&ramp_client);
    g_test_message ("ramp UAC exit status %d, lossy UAC exit status %d", status,
                    sipp_wait (&lossy_client));
    g_assert_cmpint (status, ==, 0);
  }
  g_usleep (500 * 1000);
  sipp_stop (&server);
  sipp_capture_stop (&capture);

  root = loadtest_json (pcap, NULL, &parser);
  totals = member_object (root, "totals");
  by_type = member_object (totals, "messages_by_type");
  retrans_by_type = member_object (totals, "retransmissions_by_type");
  /* 100 + 90 calls, less any lossy call whose every INVITE SIPp's -lost swallowed
   * (0.15^4 per call: such a call never reaches the wire, and SIPp counts it failed) */
  {
    g_autoptr (GHashTable) lossy_stat = sipp_read_last_row (lossy_dir, "stat.csv");

    g_assert_cmpint (member_int (totals, "calls"), <=, 190);
    g_assert_cmpint (member_int (totals, "calls"), >=,
                     190 - sipp_column (lossy_stat, "FailedCall(C)"));
  }

  /* SIPp's counters: what each client put on the wire */
  g_assert_cmpint (member_int (by_type, "INVITE"), ==,
                   sipp_on_wire (ramp_dir, "INVITE") + sipp_on_wire (lossy_dir, "INVITE"));
  /* a call SIPp gives up on (max retransmissions) is ended by its default abort
   * behaviour: one BYE outside the scenario's counters */
  {
    gint64 counted = sipp_on_wire (ramp_dir, "BYE") + sipp_on_wire (lossy_dir, "BYE");
    g_autoptr (GHashTable) lossy_stat = sipp_read_last_row (lossy_dir, "stat.csv");

    gint64 failed = sipp_column (lossy_stat, "FailedCall(C)");

    /* SIPp's BYE counters are approximate under -lost: it may count a BYE
     * its own -lost then swallows, or send one outside the counters for a
     * call it abandons (README, "Where SIPp's counters and the wire
     * legitimately differ"). The wire stays within one per failed call plus
     * 2 % of SIPp's count; INVITE, ACK and 180 below are exact. */
    gint64 slack = failed + counted / 50 + 1;

    g_assert_cmpint (member_int (by_type, "BYE"), >=, counted - slack);
    g_assert_cmpint (member_int (by_type, "BYE"), <=, counted + slack);
  }
  g_assert_cmpint (member_int (by_type, "ACK"), ==,
                   sipp_on_wire (ramp_dir, "ACK") + sipp_on_wire (lossy_dir, "ACK"));
  g_assert_cmpint (member_int (by_type, "180"), ==, sipp_on_wire (uas_dir, "180"));
  /* The UAS is stopped while it may still be resending 200s whose ACK the lossy
   * client "lost": around the stop, a resent copy can be on the wire but not yet
   * in its last counts dump, or counted but not yet captured. Only those resent
   * copies can differ (the steady run, without loss, is exact). */
  {
    gint64 counted = sipp_on_wire (uas_dir, "200");
    gint64 resent = member_int (retrans_by_type, "200");

    g_assert_cmpint (member_int (by_type, "200"), >=, counted - resent);
    g_assert_cmpint (member_int (by_type, "200"), <=, counted + resent);
  }
  /* every INVITE copy after a call's first is a retransmission on the wire */
  g_assert_cmpint (member_int (retrans_by_type, "INVITE"), ==,
                   member_int (by_type, "INVITE") - member_int (totals, "calls"));
  g_assert_cmpint (member_int (totals, "retransmissions"), >, 0);
  g_test_message ("retransmissions: wire %" G_GINT64_FORMAT ", SIPp lossy UAC Retransmissions(C) "
                  "%" G_GINT64_FORMAT,
                  member_int (totals, "retransmissions"),
                  sipp_column (sipp_read_last_row (lossy_dir, "stat.csv"), "Retransmissions(C)"));

  /* the breaking point: the second in which the lossy client's first call began */
  lossy_pid = sipp_pid_of (lossy_dir, "*_counts.csv");
  g_assert_cmpuint (lossy_pid, >, 0);
  {
    const char *cli = g_getenv ("CS_CLI");
    const char *argv[] = { cli, "calls", "--format", "json", "--quiet", pcap, NULL };
    g_autofree char *out = NULL;
    g_autofree char *marker = g_strdup_printf ("-%u@", lossy_pid);
    g_autoptr (GDateTime) origin
        = g_date_time_new_from_iso8601 (json_object_get_string_member (root, "origin"), NULL);
    JsonNode *calls_root;
    JsonArray *calls;

    g_assert_true (
        g_spawn_sync (NULL, (char **) argv, NULL, 0, NULL, NULL, &out, NULL, NULL, NULL));
    calls_parser = json_parser_new ();
    g_assert_true (json_parser_load_from_data (calls_parser, out, -1, NULL));
    calls_root = json_parser_get_root (calls_parser);
    calls = JSON_NODE_HOLDS_ARRAY (calls_root)
                ? json_node_get_array (calls_root)
                : json_object_get_array_member (json_node_get_object (calls_root), "calls");
    for (guint i = 0; i < json_array_get_length (calls); i++)
      {
        JsonObject *call = json_array_get_object_element (calls, i);
        g_autoptr (GDateTime) start = NULL;

        if (strstr (json_object_get_string_member (call, "call_id"), marker) == NULL)
          continue;
        start = g_date_time_new_from_iso8601 (json_object_get_string_member (call, "start"), NULL);
        lossy_start = MIN (lossy_start, g_date_time_difference (start, origin) / 1e6);
      }
  }
  g_assert_true (isfinite (lossy_start));
  bp = member_object (root, "breaking_point");
  g_assert_nonnull (bp);
  g_test_message ("lossy client began at %.3f s; breaking point %.3f s (%s): %s", lossy_start,
                  member_double (bp, "time"), json_object_get_string_member (bp, "signal"),
                  json_object_get_string_member (bp, "reason"));
  g_assert_cmpint (member_int (bp, "interval"), ==, (gint64) floor (lossy_start));
}

int
main (int argc, char **argv)
{
  const char *missing;
  int result;

  g_test_init (&argc, &argv, NULL);
  missing = sipp_missing_tool ();
  work_dir = g_dir_make_tmp ("cs-sipp-XXXXXX", NULL);
  g_test_add_func ("/sipp/loadtest/rejections", test_rejections);
  g_test_add_func ("/sipp/loadtest/ramp-into-loss", test_ramp_into_loss);
  if (missing != NULL)
    {
      g_autofree char *why = g_strdup_printf ("%s is not installed", missing);
      /* one SKIP line per test, as TAP expects */
      g_print ("1..2\nok 1 /sipp/loadtest/rejections # SKIP %s\n"
               "ok 2 /sipp/loadtest/ramp-into-loss # SKIP %s\n",
               why, why);
      return 0;
    }
  result = g_test_run ();
  if (result == 0 && g_getenv ("CS_KEEP_SIPP") == NULL)
    {
      g_autofree char *quoted = g_shell_quote (work_dir);
      g_autofree char *cmd = g_strdup_printf ("rm -rf %s", quoted);
      (void) !system (cmd);
    }
  return result;
}
