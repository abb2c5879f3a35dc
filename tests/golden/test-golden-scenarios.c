/* Every scenario the generator writes is analysed by callscope-cli and
 * compared with the ground truth the generator used to write it. */
#include "golden-common.h"

#include "findings/cs-finding.h"

#include <glib/gstdio.h>
#include <string.h>

static char *scenario_dir;

static void
assert_object_counts (const char *what, JsonObject *expected, JsonObject *actual)
{
  GList *keys = json_object_get_members (expected);

  for (GList *l = keys; l != NULL; l = l->next)
    {
      gint64 want = json_object_get_int_member (expected, l->data);
      gint64 got = json_object_has_member (actual, l->data)
                       ? json_object_get_int_member (actual, l->data)
                       : 0;

      if (want != got)
        g_test_message ("%s %s: expected %" G_GINT64_FORMAT ", got %" G_GINT64_FORMAT, what,
                        (const char *) l->data, want, got);
      g_assert_cmpint (got, ==, want);
    }
  g_assert_cmpuint (json_object_get_size (actual), ==, json_object_get_size (expected));
  g_list_free (keys);
}

/* A call's timing (pdd_ms, setup_ms, ring_ms, duration_s) against the generator's wire
 * times: null where the generator sent no such message, else equal to the printed
 * precision (capture files may keep microseconds only). */
static void
check_call_span (JsonObject *want, JsonObject *got, const char *member, double tolerance)
{
  JsonNode *w = json_object_get_member (want, member);
  JsonNode *g = json_object_get_member (got, member);

  if (w == NULL)
    return;
  g_test_message ("%s", member);
  if (JSON_NODE_HOLDS_NULL (w))
    {
      g_assert_true (g == NULL || JSON_NODE_HOLDS_NULL (g));
      return;
    }
  g_assert_nonnull (g);
  g_assert_false (JSON_NODE_HOLDS_NULL (g));
  g_assert_cmpfloat_with_epsilon (json_node_get_double (g), json_node_get_double (w), tolerance);
}

/* Finds the next unused call with this Call-ID and From user, in report order. */
static JsonObject *
find_call (JsonArray *calls, const char *call_id, const char *from_user, const char *method,
           GHashTable *used)
{
  for (guint i = 0; i < json_array_get_length (calls); i++)
    {
      JsonObject *call = json_array_get_object_element (calls, i);

      if (g_hash_table_contains (used, call))
        continue;
      if (g_strcmp0 (json_object_get_string_member (call, "call_id"), call_id) != 0)
        continue;
      if (g_strcmp0 (json_object_get_string_member (call, "method"), method) != 0)
        continue;
      if (from_user != NULL
          && g_strcmp0 (json_object_get_string_member (call, "from"), from_user) != 0)
        continue;
      g_hash_table_add (used, call);
      return call;
    }
  return NULL;
}

static guint
count_method (JsonArray *calls, const char *method)
{
  guint n = 0;

  for (guint i = 0; i < json_array_get_length (calls); i++)
    n += g_strcmp0 (
             json_object_get_string_member (json_array_get_object_element (calls, i), "method"),
             method)
         == 0;
  return n;
}

static void
check_calls (JsonObject *expect, JsonArray *calls)
{
  JsonArray *want = json_object_get_array_member (expect, "calls");
  g_autoptr (GHashTable) used = g_hash_table_new (NULL, NULL);

  g_assert_cmpuint (count_method (calls, "INVITE"), ==, json_array_get_length (want));
  for (guint i = 0; i < json_array_get_length (want); i++)
    {
      JsonObject *w = json_array_get_object_element (want, i);
      const char *call_id = json_object_get_string_member (w, "call_id");
      JsonObject *got = find_call (
          calls, call_id, json_object_get_string_member_with_default (w, "from_user", NULL),
          "INVITE", used);

      g_test_message ("call %s", call_id);
      g_assert_nonnull (got);
      g_assert_cmpstr (json_object_get_string_member (got, "state"), ==,
                       json_object_get_string_member (w, "state"));
      g_assert_cmpint (golden_int (got, "final_status"), ==,
                       json_object_get_int_member_with_default (w, "final_status", -1) == 0
                           ? -1
                           : json_object_get_int_member_with_default (w, "final_status", -1));
      if (json_object_has_member (w, "messages"))
        g_assert_cmpint (golden_int (got, "messages"), ==,
                         json_object_get_int_member (w, "messages"));
      if (json_object_has_member (w, "retransmissions"))
        g_assert_cmpint (golden_int (got, "retransmissions"), ==,
                         json_object_get_int_member (w, "retransmissions"));
      check_call_span (w, got, "pdd_ms", 0.0021);
      check_call_span (w, got, "setup_ms", 0.0021);
      check_call_span (w, got, "ring_ms", 0.0021);
      check_call_span (w, got, "duration_s", 0.0011);
    }
}

/* Non-INVITE expectations are per transaction: found among the transactions
 * of the exchange (REGISTER, OPTIONS…) or call that carries the Call-ID (out_call). */
static JsonObject *
find_transaction (JsonArray *calls, const char *call_id, const char *method, GHashTable *used,
                  JsonObject **out_call)
{
  for (guint i = 0; i < json_array_get_length (calls); i++)
    {
      JsonObject *call = json_array_get_object_element (calls, i);
      JsonArray *transactions;

      if (g_strcmp0 (json_object_get_string_member (call, "call_id"), call_id) != 0)
        continue;
      transactions = json_object_get_array_member (call, "transactions");
      for (guint j = 0; j < json_array_get_length (transactions); j++)
        {
          JsonObject *t = json_array_get_object_element (transactions, j);

          if (g_hash_table_contains (used, t)
              || g_strcmp0 (json_object_get_string_member (t, "method"), method) != 0)
            continue;
          g_hash_table_add (used, t);
          *out_call = call;
          return t;
        }
    }
  return NULL;
}

static void
check_non_invite (JsonObject *expect, JsonArray *calls)
{
  JsonArray *want;
  g_autoptr (GHashTable) used = g_hash_table_new (NULL, NULL);

  if (!json_object_has_member (expect, "non_invite"))
    return;
  want = json_object_get_array_member (expect, "non_invite");
  for (guint i = 0; i < json_array_get_length (want); i++)
    {
      JsonObject *w = json_array_get_object_element (want, i);
      const char *method = json_object_get_string_member (w, "method");
      const char *call_id = json_object_get_string_member (w, "call_id");
      JsonObject *exchange = NULL;
      JsonObject *got = find_transaction (calls, call_id, method, used, &exchange);

      g_test_message ("%s %s", method, call_id);
      g_assert_nonnull (got);
      g_assert_cmpint (golden_int (got, "final_status"), ==, golden_int (w, "final_status"));
      if (json_object_has_member (w, "retransmissions"))
        g_assert_cmpint (golden_int (got, "transmissions") - 1, ==,
                         golden_int (w, "retransmissions"));
      /* request (first transmission) to its first response, on the generator's clock */
      check_call_span (w, got, "first_response_ms", 0.0021);
      if (json_object_has_member (w, "state"))
        g_assert_cmpstr (json_object_get_string_member (exchange, "state"), ==,
                         json_object_get_string_member (w, "state"));
    }
}

static void
check_streams (JsonObject *expect, JsonArray *streams)
{
  JsonArray *want;

  if (!json_object_has_member (expect, "streams"))
    return;
  want = json_object_get_array_member (expect, "streams");
  for (guint i = 0; i < json_array_get_length (want); i++)
    {
      JsonObject *w = json_array_get_object_element (want, i);
      JsonObject *got = NULL;

      for (guint j = 0; j < json_array_get_length (streams) && got == NULL; j++)
        {
          JsonObject *s = json_array_get_object_element (streams, j);

          if (g_ascii_strcasecmp (json_object_get_string_member (s, "ssrc"),
                                  json_object_get_string_member (w, "ssrc"))
                  == 0
              && g_strcmp0 (json_object_get_string_member (s, "src"),
                            json_object_get_string_member (w, "src"))
                     == 0
              && g_strcmp0 (json_object_get_string_member (s, "dst"),
                            json_object_get_string_member (w, "dst"))
                     == 0)
            got = s;
        }
      g_test_message ("stream %s %s -> %s", json_object_get_string_member (w, "ssrc"),
                      json_object_get_string_member (w, "src"),
                      json_object_get_string_member (w, "dst"));
      g_assert_nonnull (got);
      g_assert_cmpint (golden_int (got, "packets"), ==, golden_int (w, "packets"));
      g_assert_cmpint (golden_int (got, "expected"), ==, golden_int (w, "expected"));
      g_assert_cmpint (golden_int (got, "lost"), ==, golden_int (w, "lost"));
      if (json_object_has_member (w, "associated"))
        g_assert_cmpint (json_object_get_boolean_member (got, "associated"), ==,
                         json_object_get_boolean_member (w, "associated"));
      /* SRTP: decrypted with the suite the generator used, or why not */
      if (json_object_has_member (w, "protection"))
        g_assert_cmpstr (json_object_get_string_member (got, "protection"), ==,
                         json_object_get_string_member (w, "protection"));
      if (json_object_has_member (w, "srtp_suite"))
        g_assert_cmpstr (json_object_get_string_member (got, "srtp_suite"), ==,
                         json_object_get_string_member (w, "srtp_suite"));
    }
}

/* Every digit the generator sent, in order, with exactly its frames; none where it sent
 * none. The report lists them per call, by start time. */
static void
check_dtmf (JsonObject *expect, JsonArray *calls)
{
  JsonArray *want;
  g_autoptr (GPtrArray) got = g_ptr_array_new ();

  if (!json_object_has_member (expect, "dtmf"))
    return;
  want = json_object_get_array_member (expect, "dtmf");
  for (guint c = 0; c < json_array_get_length (calls); c++)
    {
      JsonArray *digits
          = json_object_get_array_member (json_array_get_object_element (calls, c), "dtmf");

      for (guint d = 0; d < json_array_get_length (digits); d++)
        g_ptr_array_add (got, json_array_get_object_element (digits, d));
    }
  g_assert_cmpuint (got->len, ==, json_array_get_length (want));
  for (guint i = 0; i < got->len; i++)
    {
      JsonObject *w = json_array_get_object_element (want, i);
      JsonObject *g = g_ptr_array_index (got, i);
      JsonArray *wf = json_object_get_array_member (w, "frames");
      JsonArray *gf = json_object_get_array_member (g, "frames");

      g_assert_cmpstr (json_object_get_string_member (g, "digit"), ==,
                       json_object_get_string_member (w, "digit"));
      g_assert_cmpstr (json_object_get_string_member (g, "source"), ==,
                       json_object_get_string_member (w, "source"));
      g_assert_cmpuint (json_array_get_length (gf), ==, json_array_get_length (wf));
      for (guint f = 0; f < json_array_get_length (wf); f++)
        g_assert_cmpint (json_array_get_int_element (gf, f), ==,
                         json_array_get_int_element (wf, f));
    }
}

/* The report's id of expected stream i (matched by SSRC and addresses), -1 when none. */
static gint64
stream_id (JsonArray *want_streams, gint64 i, JsonArray *streams)
{
  JsonObject *w;

  if (i < 0)
    return -1;
  w = json_array_get_object_element (want_streams, (guint) i);
  for (guint j = 0; j < json_array_get_length (streams); j++)
    {
      JsonObject *s = json_array_get_object_element (streams, j);

      if (g_ascii_strcasecmp (json_object_get_string_member (s, "ssrc"),
                              json_object_get_string_member (w, "ssrc"))
              == 0
          && !g_strcmp0 (json_object_get_string_member (s, "src"),
                         json_object_get_string_member (w, "src"))
          && !g_strcmp0 (json_object_get_string_member (s, "dst"),
                         json_object_get_string_member (w, "dst")))
        return golden_int (s, "id");
    }
  return -1;
}

/* The report's id of the call an expected finding is about: an INVITE call by its index in
 * "calls" (matched as check_calls does), an exchange by method and Call-ID; -1 when none. */
static gint64
finding_call_id (JsonObject *expect, JsonObject *w, JsonArray *calls)
{
  JsonArray *want = json_object_get_array_member (expect, "calls");
  gint64 index = json_object_get_int_member (w, "call");
  g_autoptr (GHashTable) used = g_hash_table_new (NULL, NULL);
  JsonObject *got = NULL;

  if (json_object_has_member (w, "exchange"))
    {
      JsonObject *x = json_object_get_object_member (w, "exchange");

      return golden_int (find_call (calls, json_object_get_string_member (x, "call_id"), NULL,
                                    json_object_get_string_member (x, "method"), used),
                         "id");
    }
  if (index < 0)
    return -1;
  for (guint i = 0; i <= index; i++)
    {
      JsonObject *c = json_array_get_object_element (want, i);

      got = find_call (calls, json_object_get_string_member (c, "call_id"),
                       json_object_get_string_member_with_default (c, "from_user", NULL), "INVITE",
                       used);
    }
  g_assert_nonnull (got);
  return golden_int (got, "id");
}

static gboolean
same_frames (JsonArray *a, JsonArray *b)
{
  if (json_array_get_length (a) != json_array_get_length (b))
    return FALSE;
  for (guint i = 0; i < json_array_get_length (a); i++)
    if (json_array_get_int_element (a, i) != json_array_get_int_element (b, i))
      return FALSE;
  return TRUE;
}

/* A scenario that lists its findings gets exactly those: kind, severity, call, stream and
 * frames, none missing and none more. */
static void
check_findings (JsonObject *expect, JsonObject *root)
{
  JsonArray *want, *got = json_object_get_array_member (root, "findings");
  JsonArray *calls = json_object_get_array_member (root, "calls");
  JsonArray *streams = json_object_get_array_member (root, "streams");
  g_autoptr (GHashTable) used = g_hash_table_new (NULL, NULL);

  if (!json_object_has_member (expect, "findings"))
    return;
  want = json_object_get_array_member (expect, "findings");
  for (guint i = 0; i < json_array_get_length (want); i++)
    {
      JsonObject *w = json_array_get_object_element (want, i);
      gint64 call = finding_call_id (expect, w, calls);
      gint64 stream = stream_id (json_object_get_array_member (expect, "streams"),
                                 json_object_get_int_member (w, "stream"), streams);
      JsonObject *match = NULL;

      g_test_message ("finding %s (%s) of call %" G_GINT64_FORMAT ", stream %" G_GINT64_FORMAT,
                      json_object_get_string_member (w, "kind"),
                      json_object_get_string_member (w, "severity"), call, stream);
      if (json_object_get_int_member (w, "stream") >= 0)
        g_assert_cmpint (stream, >, 0);
      for (guint j = 0; j < json_array_get_length (got) && match == NULL; j++)
        {
          JsonObject *g = json_array_get_object_element (got, j);

          if (!g_hash_table_contains (used, g)
              && !g_strcmp0 (json_object_get_string_member (g, "kind"),
                             json_object_get_string_member (w, "kind"))
              && !g_strcmp0 (json_object_get_string_member (g, "severity"),
                             json_object_get_string_member (w, "severity"))
              && golden_int (g, "call") == call && golden_int (g, "stream") == stream
              && same_frames (json_object_get_array_member (g, "frames"),
                              json_object_get_array_member (w, "frames")))
            match = g;
        }
      g_assert_nonnull (match);
      g_hash_table_add (used, match);
      /* reported although the generator's truth disagrees: listed so that the comparison
       * stays exact, and shown as a known problem (TODO), not passed silently */
      if (json_object_has_member (w, "disputed"))
        g_test_incomplete (json_object_get_string_member (w, "disputed"));
    }
  for (guint j = 0; j < json_array_get_length (got); j++)
    {
      JsonObject *g = json_array_get_object_element (got, j);

      if (!g_hash_table_contains (used, g))
        g_test_message ("finding not expected: %s (%s) call %" G_GINT64_FORMAT ": %s",
                        json_object_get_string_member (g, "kind"),
                        json_object_get_string_member (g, "severity"), golden_int (g, "call"),
                        json_object_get_string_member (g, "text"));
    }
  g_assert_cmpuint (json_array_get_length (got), ==, json_array_get_length (want));
}

static void
test_scenario (gconstpointer data)
{
  const char *expect_path = data;
  g_autoptr (JsonNode) expect_root = golden_load_json (expect_path);
  JsonObject *expect = json_node_get_object (expect_root);
  g_autofree char *stem = g_strndup (expect_path, strlen (expect_path) - strlen (".expect.json"));
  g_autofree char *capture = NULL;
  g_autoptr (JsonNode) report = NULL;
  JsonObject *root, *cap;
  int status = -1;

  capture = g_strconcat (stem, ".pcapng", NULL);
  if (!g_file_test (capture, G_FILE_TEST_EXISTS))
    {
      g_free (capture);
      capture = g_strconcat (stem, ".pcap", NULL);
    }
  /* a scenario may be read under limits (CALLSCOPE_LIMITS) */
  if (json_object_has_member (expect, "limits"))
    g_setenv ("CALLSCOPE_LIMITS", json_object_get_string_member (expect, "limits"), TRUE);
  if (json_object_has_member (expect, "keylog"))
    {
      /* a TLS scenario is read with the key log the generator wrote */
      g_autofree char *keylog = g_strconcat (stem, ".keys", NULL);
      const char *args[] = { "report", "--format", "json", "--keylog", keylog, capture, NULL };
      g_autofree char *out = NULL;
      g_autoptr (GError) error = NULL;

      g_assert_true (g_file_set_contents (keylog, json_object_get_string_member (expect, "keylog"),
                                          -1, &error));
      out = golden_run_cli (args, &status, NULL);
      report = json_from_string (out, &error);
      g_assert_no_error (error);
    }
  else
    report = golden_report (capture, &status);
  g_unsetenv ("CALLSCOPE_LIMITS");
  g_assert_cmpint (status, ==, json_object_get_int_member_with_default (expect, "exit_status", 0));
  root = json_node_get_object (report);
  cap = json_object_get_object_member (root, "capture");
  g_assert_cmpint (json_object_get_int_member (cap, "packets"), ==,
                   json_object_get_int_member (expect, "frames"));
  g_assert_cmpint (json_object_get_int_member (cap, "sip_messages"), ==,
                   json_object_get_int_member (expect, "sip_messages"));
  assert_object_counts ("method", json_object_get_object_member (expect, "sip_methods"),
                        json_object_get_object_member (cap, "sip_methods"));
  assert_object_counts ("status", json_object_get_object_member (expect, "sip_statuses"),
                        json_object_get_object_member (cap, "sip_statuses"));
  check_calls (expect, json_object_get_array_member (root, "calls"));
  check_non_invite (expect, json_object_get_array_member (root, "calls"));
  check_streams (expect, json_object_get_array_member (root, "streams"));
  check_dtmf (expect, json_object_get_array_member (root, "calls"));
  check_findings (expect, root);
}

/* Kinds that need several capture files, which a scenario here (one file each) cannot be:
 * the test that holds them against the generator's truth instead. */
static const char *const kinds_tested_elsewhere[][2] = {
  { "lost-between-points", "golden-points (cs-gen points: three capture points, 2 losses)" },
};

static gboolean
kind_tested_elsewhere (const char *kind)
{
  for (guint i = 0; i < G_N_ELEMENTS (kinds_tested_elsewhere); i++)
    if (g_strcmp0 (kinds_tested_elsewhere[i][0], kind) == 0)
      {
        g_test_message ("%s: tested by %s", kind, kinds_tested_elsewhere[i][1]);
        return TRUE;
      }
  return FALSE;
}

/* Every kind in the engine's table is listed by some scenario's findings, and some scenario
 * must produce none of it (every scenario lists all of its findings): a kind no scenario
 * lists is a finding nothing tests. */
static void
test_every_kind (void)
{
  g_autoptr (GHashTable) listed = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) absent = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) roots = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  g_autoptr (GDir) d = g_dir_open (scenario_dir, 0, NULL);
  g_autoptr (GString) missing = g_string_new (NULL);
  guint kinds = 0;

  g_assert_nonnull (d);
  for (const char *f; (f = g_dir_read_name (d)) != NULL;)
    if (g_str_has_suffix (f, ".expect.json"))
      {
        g_autofree char *path = g_build_filename (scenario_dir, f, NULL);
        JsonNode *root = golden_load_json (path);
        JsonObject *expect = json_node_get_object (root);

        g_ptr_array_add (roots, root);
        /* every scenario lists its findings ("findings": [] when none) */
        g_test_message ("%s", f);
        g_assert_true (json_object_has_member (expect, "findings"));
      }
  for (CsFindingKind k = 0; g_strcmp0 (cs_finding_kind_to_string (k), "unknown") != 0; k++)
    {
      const char *kind = cs_finding_kind_to_string (k);

      kinds++;
      for (guint i = 0; i < roots->len; i++)
        {
          JsonArray *findings = json_object_get_array_member (
              json_node_get_object (g_ptr_array_index (roots, i)), "findings");
          gboolean has = FALSE;

          for (guint j = 0; j < json_array_get_length (findings); j++)
            has |= !g_strcmp0 (
                json_object_get_string_member (json_array_get_object_element (findings, j), "kind"),
                kind);
          g_hash_table_add (has ? listed : absent, (gpointer) kind);
        }
      if (kind_tested_elsewhere (kind))
        /* and no one-file scenario may produce it */
        g_assert_false (g_hash_table_contains (listed, kind));
      else if (!g_hash_table_contains (listed, kind) || !g_hash_table_contains (absent, kind))
        g_string_append_printf (missing, " %s", kind);
    }
  g_test_message ("%u finding kinds", kinds);
  g_assert_cmpuint (kinds, >=, 27);
  if (missing->len > 0)
    g_test_message ("kinds no scenario lists (or every scenario does):%s", missing->str);
  g_assert_cmpuint (missing->len, ==, 0);
}

int
main (int argc, char **argv)
{
  const char *gen = g_getenv ("CS_GEN");
  int result;

  g_test_init (&argc, &argv, NULL);
  if (gen == NULL)
    {
      g_print ("1..0 # SKIP generator not built\n");
      return 0;
    }
  golden_add_scenario_tests (gen, "/golden/scenario", test_scenario, &scenario_dir);
  g_test_add_func ("/golden/scenario-findings/every-kind", test_every_kind);
  result = g_test_run ();
  golden_remove_dir (scenario_dir);
  g_free (scenario_dir);
  return result;
}
