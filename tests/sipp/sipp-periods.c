/* sipp-periods.c — loadtest's intervals against SIPp's periods */
#include "sipp-periods.h"

#include <math.h>

#include "sipp-run.h"

static gint64
column (GHashTable *row, const char *name)
{
  return sipp_column (row, name);
}

gboolean
uac_wire (const char *pcap, guint16 uac_port, UacWire *wire)
{
  g_autofree char *filter = g_strdup_printf ("sip && udp.srcport == %u", uac_port);
  const char *argv[] = { "tshark", "-n",          "-r", pcap,          "-Y", filter,
                         "-T",     "fields",      "-E", "separator=|", "-e", "frame.time_epoch",
                         "-e",     "sip.Call-ID", "-e", "sip.Method",  NULL };
  g_autofree char *tshark = g_find_program_in_path ("tshark");
  g_autofree char *out = NULL;
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto (GStrv) lines = NULL;
  int status = -1;

  if (tshark == NULL
      || !g_spawn_sync (NULL, (char **) argv, NULL,
                        G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
                        &status, NULL)
      || status != 0)
    return FALSE;
  wire->first_invites = g_array_new (FALSE, FALSE, sizeof (double));
  wire->requests = g_array_new (FALSE, FALSE, sizeof (double));
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) f = g_strsplit (lines[i], "|", -1);
      double t;

      if (g_strv_length (f) < 3)
        continue;
      t = g_ascii_strtod (f[0], NULL);
      if (g_strcmp0 (f[2], "INVITE") == 0 || g_strcmp0 (f[2], "BYE") == 0)
        g_array_append_val (wire->requests, t);
      if (g_strcmp0 (f[2], "INVITE") == 0 && !g_hash_table_contains (seen, f[1]))
        {
          g_hash_table_add (seen, g_strdup (f[1]));
          g_array_append_val (wire->first_invites, t);
        }
    }
  return TRUE;
}

/* How many of times fall in [from, from + width). */
static guint
count_in (GArray *times, double from, double width)
{
  guint n = 0;

  for (guint i = 0; i < times->len; i++)
    {
      double t = g_array_index (times, double, i);
      n += t >= from && t < from + width;
    }
  return n;
}

void
uac_wire_clear (UacWire *wire)
{
  g_clear_pointer (&wire->first_invites, g_array_unref);
  g_clear_pointer (&wire->requests, g_array_unref);
}

/* Calls started and the UAC's retransmissions per SIPp period. SIPp counts a call
 * when it creates it and may take the period's CurrentTime before that call's
 * INVITE has left: such an INVITE is on the wire a fraction of a millisecond after
 * the edge (up to ~20 ms when SIPp's loop is late on a loaded machine), and only
 * those can move to the next interval. */
void
check_periods (JsonArray *intervals, GPtrArray *rows, const UacWire *wire)
{
  gint64 sipp_calls = 0, sipp_retrans = 0, ours_calls = 0, ours_retrans = 0;
  guint exact = 0;

  /* interval k-1 is SIPp's period k (rows[k-1] .. rows[k]) */
  g_assert_cmpuint (json_array_get_length (intervals), >=, rows->len - 1);
  for (guint k = 1; k < rows->len; k++)
    {
      GHashTable *row = g_ptr_array_index (rows, k);
      JsonObject *iv = json_array_get_object_element (intervals, k - 1);
      JsonObject *resent = member_object (iv, "client_retransmissions_by_type");
      double edge = sipp_row_time (row);
      guint late_calls = wire != NULL ? count_in (wire->first_invites, edge, 0.020) : 0;
      guint late_requests = wire != NULL ? count_in (wire->requests, edge, 0.020) : 0;

      sipp_calls += column (row, "OutgoingCall(P)");
      sipp_retrans += column (row, "Retransmissions(P)");
      ours_calls += member_int (iv, "calls_started");
      ours_retrans += member_int (resent, "INVITE") + member_int (resent, "BYE");
      exact += member_int (iv, "calls_started") == column (row, "OutgoingCall(P)");
      if (wire == NULL)
        continue;
      g_assert_cmpint (ours_calls, <=, sipp_calls);
      g_assert_cmpint (ours_calls, >=, sipp_calls - late_calls);
      g_assert_cmpint (ours_retrans, <=, sipp_retrans);
      g_assert_cmpint (ours_retrans, >=, sipp_retrans - late_requests);
    }
  g_test_message ("calls started: %u of %u periods equal SIPp's OutgoingCall(P) exactly", exact,
                  rows->len - 1);
  g_assert_cmpint (ours_calls, ==, sipp_calls);
  g_assert_cmpint (ours_retrans, ==, sipp_retrans);
}

/* Calls in progress at each period's end against SIPp's CurrentCall. */
void
check_concurrency (JsonArray *intervals, GPtrArray *rows)
{
  gint64 peak = 0, worst = 0;

  for (guint k = 1; k < rows->len; k++)
    peak = MAX (peak, column (g_ptr_array_index (rows, k), "CurrentCall"));
  for (guint k = 1; k < rows->len; k++)
    {
      JsonObject *iv = json_array_get_object_element (intervals, k - 1);
      gint64 sipp = column (g_ptr_array_index (rows, k), "CurrentCall");
      gint64 ours = member_int (iv, "concurrent_end");

      worst = MAX (worst, ABS (ours - sipp));
      /* SIPp ends a call when it processes the answer, the wire a little earlier or
       * later (README "Load tests"): within 5 % of the peak, at least 5 calls */
      g_assert_cmpint (ABS (ours - sipp), <=, MAX (5, peak / 20));
    }
  g_test_message ("concurrent calls: peak %" G_GINT64_FORMAT
                  " (SIPp), largest difference %" G_GINT64_FORMAT,
                  peak, worst);
  /* the run ends with nothing in progress, on both sides */
  g_assert_cmpint (column (g_ptr_array_index (rows, rows->len - 1), "CurrentCall"), ==, 0);
  g_assert_cmpint (
      member_int (json_array_get_object_element (intervals, json_array_get_length (intervals) - 1),
                  "concurrent_end"),
      ==, 0);
}
