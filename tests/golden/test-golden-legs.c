/* The legs callscope-cli reports for every scenario the generator writes equal the legs the
 * generator put on the wire (its expect.json "legs": pairs of calls and the evidence), and
 * no more: a scenario without legs in its truth must report none (SIPp's shared media ports
 * among them). The ladder's --related adds exactly those legs and says why. A message
 * captured at two points is one message seen twice, not a retransmission. */
#include "golden-common.h"

#include <glib/gstdio.h>
#include <string.h>

static char *scenario_dir;

/* The report's number of the call with this Call-ID and From user (0 when none). */
static gint64
report_call_number (JsonArray *calls, JsonObject *who)
{
  const char *call_id = json_object_get_string_member (who, "call_id");
  const char *from = json_object_get_string_member (who, "from_user");

  for (guint i = 0; i < json_array_get_length (calls); i++)
    {
      JsonObject *call = json_array_get_object_element (calls, i);

      if (g_strcmp0 (json_object_get_string_member (call, "call_id"), call_id) == 0
          && g_strcmp0 (json_object_get_string_member (call, "from"), from) == 0)
        return json_object_get_int_member (call, "id");
    }
  return 0;
}

/* "3-7 refer" for a pair of call numbers (smaller first) and its reason. */
static char *
pair_text (gint64 a, gint64 b, const char *reason)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT "-%" G_GINT64_FORMAT " %s", MIN (a, b), MAX (a, b),
                          reason);
}

static void
test_scenario (gconstpointer data)
{
  const char *expect_path = data;
  g_autofree char *capture
      = g_strndup (expect_path, strlen (expect_path) - strlen (".expect.json"));
  g_autoptr (JsonNode) expect_root = golden_load_json (expect_path);
  JsonObject *expect = json_node_get_object (expect_root);
  g_autoptr (JsonNode) report_root = NULL;
  JsonObject *report;
  JsonArray *calls;
  g_autoptr (GPtrArray) want = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) got = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *path = NULL;
  int status = 0;

  path = g_strconcat (capture, ".pcapng", NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_free (path);
      path = g_strconcat (capture, ".pcap", NULL);
    }
  report_root = golden_report (path, &status);
  report = json_node_get_object (report_root);
  calls = json_object_get_array_member (report, "calls");
  if (json_object_has_member (expect, "legs"))
    {
      JsonArray *legs = json_object_get_array_member (expect, "legs");

      for (guint i = 0; i < json_array_get_length (legs); i++)
        {
          JsonObject *leg = json_array_get_object_element (legs, i);
          gint64 a = report_call_number (calls, json_object_get_object_member (leg, "a"));
          gint64 b = report_call_number (calls, json_object_get_object_member (leg, "b"));

          g_assert_cmpint (a, >, 0);
          g_assert_cmpint (b, >, 0);
          g_ptr_array_add (want, pair_text (a, b, json_object_get_string_member (leg, "reason")));
        }
    }
  if (json_object_has_member (report, "legs"))
    {
      JsonArray *legs = json_object_get_array_member (report, "legs");

      g_assert_cmpuint (json_array_get_length (legs), >, 0); /* written only when there is one */
      for (guint i = 0; i < json_array_get_length (legs); i++)
        {
          JsonObject *leg = json_array_get_object_element (legs, i);
          const char *evidence = json_object_get_string_member (leg, "evidence");

          g_assert_true (evidence != NULL && *evidence != '\0');
          g_ptr_array_add (got, pair_text (json_object_get_int_member (leg, "call"),
                                           json_object_get_int_member (leg, "leg"),
                                           json_object_get_string_member (leg, "reason")));
        }
    }
  for (guint i = 0; i < got->len; i++)
    if (!g_ptr_array_find_with_equal_func (want, got->pdata[i], g_str_equal, NULL))
      g_test_message ("reported but not in the truth: %s", (char *) got->pdata[i]);
  for (guint i = 0; i < want->len; i++)
    {
      if (!g_ptr_array_find_with_equal_func (got, want->pdata[i], g_str_equal, NULL))
        g_test_message ("in the truth but not reported: %s", (char *) want->pdata[i]);
      g_assert_true (g_ptr_array_find_with_equal_func (got, want->pdata[i], g_str_equal, NULL));
    }
  g_assert_cmpuint (got->len, ==, want->len);
}

/* ladder --related on leg 2 of the B2BUA: both legs, the first named with its evidence. */
static void
test_ladder_related (void)
{
  g_autofree char *path = g_build_filename (scenario_dir, "b2bua-x-call-id.pcapng", NULL);
  const char *args[] = { "ladder", path, "--call", "2", "--related", NULL };
  const char *alone[] = { "ladder", path, "--call", "2", NULL };
  int status = -1;
  g_autofree char *text = golden_run_cli (args, &status, NULL);
  g_autofree char *single = NULL;

  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (text, "Leg 1: call 1, Call-ID "));
  g_assert_nonnull (strstr (text, "— correlation-header: X-Call-ID: "));
  g_assert_nonnull (strstr (text, "Leg 2: call 2, Call-ID "));
  single = golden_run_cli (alone, &status, NULL);
  g_assert_null (strstr (single, "Leg 1:"));
}

/* ladder --related on a SIPp call: the 49 others announce the same ports and stay out. */
static void
test_ladder_sipp_alone (void)
{
  g_autofree char *path = g_build_filename (scenario_dir, "sipp-shared-ports.pcapng", NULL);
  const char *args[] = { "ladder", path, "--call", "10", "--related", NULL };
  int status = -1;
  g_autofree char *text = golden_run_cli (args, &status, NULL);

  g_assert_cmpint (status, ==, 0);
  g_assert_null (strstr (text, "Leg "));
  g_assert_nonnull (strstr (text, "INVITE"));
}

static guint
count_text (const char *text, const char *what)
{
  guint n = 0;

  for (const char *p = strstr (text, what); p != NULL; p = strstr (p + 1, what))
    n++;
  return n;
}

/* The calls JSON's "sightings" of the call with this number: the count, or 0 when the key is
 * absent (the report writes it only when there are copies). */
static gint64
calls_json_sightings (const char *capture, guint call_index, gint64 *messages)
{
  const char *args[] = { "calls", capture, "--format", "json", NULL };
  int status = -1;
  g_autofree char *text = golden_run_cli (args, &status, NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonObject *call;

  g_assert_cmpint (status, ==, 0);
  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  call = json_array_get_object_element (
      json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "calls"),
      call_index);
  *messages = golden_int (call, "messages");
  return json_object_has_member (call, "sightings") ? golden_int (call, "sightings") : 0;
}

/* Every message of the multi-hop scenario captured at two points: the generator's truth
 * counts the copies (sightings) apart from the one real retransmission. The ladder marks
 * each copy "(seen again)"; the load statistics count neither copy as a message on the wire
 * nor as a retransmission; the calls JSON counts the copies ("sightings") among the call's
 * messages. */
static void
test_multi_hop_sightings (void)
{
  g_autofree char *path = g_build_filename (scenario_dir, "multi-hop.pcapng", NULL);
  g_autofree char *expect_path = g_build_filename (scenario_dir, "multi-hop.expect.json", NULL);
  g_autoptr (JsonNode) expect_root = golden_load_json (expect_path);
  JsonObject *truth = json_array_get_object_element (
      json_object_get_array_member (json_node_get_object (expect_root), "calls"), 0);
  const char *ladder[] = { "ladder", path, "--call", "1", NULL };
  const char *load[] = { "loadtest", path, "--format", "json", NULL };
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  int status = -1;
  g_autofree char *text = golden_run_cli (ladder, &status, NULL);
  g_autofree char *load_json_text = NULL;
  JsonObject *totals;
  gint64 sightings = golden_int (truth, "sightings");
  gint64 messages = 0;

  g_assert_cmpint (status, ==, 0);
  g_assert_cmpint (sightings, >, 0);
  g_assert_cmpuint (count_text (text, "(seen again)"), ==, sightings);
  g_assert_cmpuint (count_text (text, "(retransmission)"), ==,
                    golden_int (truth, "retransmissions"));
  load_json_text = golden_run_cli (load, &status, NULL);
  g_assert_cmpint (status, ==, 0);
  json_parser_load_from_data (parser, load_json_text, -1, &error);
  g_assert_no_error (error);
  totals = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                          "totals");
  g_assert_cmpint (golden_int (totals, "messages"), ==, golden_int (truth, "messages") - sightings);
  g_assert_cmpint (golden_int (totals, "retransmissions"), ==,
                   golden_int (truth, "retransmissions"));
  g_assert_cmpint (calls_json_sightings (path, 0, &messages), ==, sightings);
  g_assert_cmpint (messages, ==, golden_int (truth, "messages"));
}

/* A call captured at one point has no copies: its truth has no "sightings" and the calls
 * JSON writes none (so the reports of such captures keep their bytes). */
static void
test_one_point_no_sightings (void)
{
  g_autofree char *path = g_build_filename (scenario_dir, "clean.pcapng", NULL);
  g_autofree char *expect_path = g_build_filename (scenario_dir, "clean.expect.json", NULL);
  g_autoptr (JsonNode) expect_root = golden_load_json (expect_path);
  JsonObject *truth = json_array_get_object_element (
      json_object_get_array_member (json_node_get_object (expect_root), "calls"), 0);
  gint64 messages = 0;

  g_assert_false (json_object_has_member (truth, "sightings"));
  g_assert_cmpint (calls_json_sightings (path, 0, &messages), ==, 0);
  g_assert_cmpint (messages, ==, golden_int (truth, "messages"));
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
  golden_add_scenario_tests (gen, "/golden/legs", test_scenario, &scenario_dir);
  g_test_add_func ("/golden/legs/ladder-related", test_ladder_related);
  g_test_add_func ("/golden/legs/ladder-sipp-alone", test_ladder_sipp_alone);
  g_test_add_func ("/golden/legs/multi-hop-sightings", test_multi_hop_sightings);
  g_test_add_func ("/golden/legs/one-point-no-sightings", test_one_point_no_sightings);
  result = g_test_run ();
  golden_remove_dir (scenario_dir);
  g_free (scenario_dir);
  return result;
}
