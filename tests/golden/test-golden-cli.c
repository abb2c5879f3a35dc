/* The CLI contract: exit codes, messages naming file and offset, several
 * files merged by time, BPF filter, output formats. */
#include "golden-common.h"

#include <glib/gstdio.h>
#include <string.h>

static char *work_dir;
static char *clean_capture; /* generated "clean" scenario */
static char *busy_capture;  /* generated "busy-486" scenario */

static char *
write_bytes (const char *name, const guint8 *data, gsize len)
{
  char *path = g_build_filename (work_dir, name, NULL);
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, (const char *) data, len, &error);
  g_assert_no_error (error);
  return path;
}

static JsonObject *
capture_of (JsonNode *root)
{
  return json_object_get_object_member (json_node_get_object (root), "capture");
}

static void
test_unreadable_exit_1 (void)
{
  static const guint8 garbage[] = "this is not a capture file at all, just text\n";
  g_autofree char *path = write_bytes ("garbage.pcap", garbage, sizeof garbage - 1);
  const char *args[] = { "report", path, NULL };
  g_autofree char *err = NULL;
  g_autofree char *out = NULL;
  int status;

  out = golden_run_cli (args, &status, &err);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "garbage.pcap"));
  g_assert_cmpstr (out, ==, "");
}

static void
test_usage_exit_2 (void)
{
  const char *bad_option[] = { "report", "--no-such-option", clean_capture, NULL };
  const char *bad_format[] = { "report", "--format", "xml", clean_capture, NULL };
  const char *bad_command[] = { "frobnicate", clean_capture, NULL };
  const char *bad_filter[] = { "report", "--filter", "udp port banana", clean_capture, NULL };
  const char *no_file[] = { "calls", NULL };
  const char *const *cases[] = { bad_option, bad_format, bad_command, bad_filter, no_file };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *err = NULL;
      int status;
      g_autofree char *out = golden_run_cli (cases[i], &status, &err);

      g_test_message ("case %u: %s", i, err);
      g_assert_cmpint (status, ==, 2);
      g_assert_cmpstr (err, !=, "");
    }
}

/* Cut a capture inside its last record: everything before is analysed, exit 3,
 * and stderr names the file and the byte offset of the damaged record. */
static void
test_truncated_exit_3 (void)
{
  g_autofree char *data = NULL;
  gsize len;
  g_autofree char *path = NULL;
  g_autoptr (JsonNode) full = NULL, cut = NULL;
  const char *args[3] = { "report", NULL, NULL };
  g_autofree char *err = NULL;
  g_autofree char *out = NULL;
  int status;
  g_autoptr (GError) error = NULL;

  g_file_get_contents (busy_capture, &data, &len, &error);
  g_assert_no_error (error);
  path = write_bytes ("truncated.pcapng", (const guint8 *) data, len - 10);
  full = golden_report (busy_capture, &status);
  g_assert_cmpint (status, ==, 0);
  args[1] = path;
  out = golden_run_cli (args, &status, &err);
  g_assert_cmpint (status, ==, 3);
  g_assert_nonnull (strstr (err, "truncated.pcapng"));
  g_assert_nonnull (strstr (err, "byte offset"));
  cut = json_from_string (out, &error);
  g_assert_no_error (error);
  g_assert_cmpint (json_object_get_int_member (capture_of (cut), "packets"), ==,
                   json_object_get_int_member (capture_of (full), "packets") - 1);
  g_assert_nonnull (json_object_get_string_member (capture_of (cut), "damage"));
}

static void
test_two_files_merged (void)
{
  const char *args[] = { "report", clean_capture, busy_capture, NULL };
  g_autofree char *out = NULL;
  g_autoptr (JsonNode) both = NULL, a = NULL, b = NULL;
  g_autoptr (GError) error = NULL;
  int status;

  a = golden_report (clean_capture, &status);
  b = golden_report (busy_capture, &status);
  out = golden_run_cli (args, &status, NULL);
  g_assert_cmpint (status, ==, 0);
  both = json_from_string (out, &error);
  g_assert_no_error (error);
  g_assert_cmpint (json_object_get_int_member (capture_of (both), "packets"), ==,
                   json_object_get_int_member (capture_of (a), "packets")
                       + json_object_get_int_member (capture_of (b), "packets"));
  g_assert_cmpint (json_object_get_int_member (capture_of (both), "sip_messages"), ==,
                   json_object_get_int_member (capture_of (a), "sip_messages")
                       + json_object_get_int_member (capture_of (b), "sip_messages"));
  g_assert_cmpuint (
      json_array_get_length (json_object_get_array_member (json_node_get_object (both), "calls")),
      ==,
      json_array_get_length (json_object_get_array_member (json_node_get_object (a), "calls"))
          + json_array_get_length (
              json_object_get_array_member (json_node_get_object (b), "calls")));
}

/* With a BPF filter only SIP frames are analysed, frame numbers unchanged. */
static void
test_bpf_filter (void)
{
  const char *args[] = { "report", "--filter", "udp port 5060", clean_capture, NULL };
  g_autofree char *out = NULL;
  g_autoptr (JsonNode) all = NULL, filtered = NULL;
  g_autoptr (GError) error = NULL;
  JsonObject *call_all, *call_filtered;
  int status;

  all = golden_report (clean_capture, &status);
  out = golden_run_cli (args, &status, NULL);
  g_assert_cmpint (status, ==, 0);
  filtered = json_from_string (out, &error);
  g_assert_no_error (error);
  g_assert_cmpint (json_object_get_int_member (capture_of (filtered), "rtp_packets"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (capture_of (all), "rtp_packets"), >, 0);
  g_assert_cmpint (json_object_get_int_member (capture_of (filtered), "sip_messages"), ==,
                   json_object_get_int_member (capture_of (all), "sip_messages"));
  call_all = json_array_get_object_element (
      json_object_get_array_member (json_node_get_object (all), "calls"), 0);
  call_filtered = json_array_get_object_element (
      json_object_get_array_member (json_node_get_object (filtered), "calls"), 0);
  g_assert_cmpint (json_object_get_int_member (call_filtered, "first_frame"), ==,
                   json_object_get_int_member (call_all, "first_frame"));
}

static void
test_csv_and_output_file (void)
{
  g_autofree char *csv_path = g_build_filename (work_dir, "calls.csv", NULL);
  const char *args[] = { "calls", "--format", "csv", "-o", csv_path, busy_capture, NULL };
  g_autofree char *out = NULL;
  g_autofree char *csv = NULL;
  g_auto (GStrv) lines = NULL;
  int status;

  out = golden_run_cli (args, &status, NULL);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (out, ==, "");
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  lines = g_strsplit (csv, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], "id,method,from,to,state,final,"));
  g_assert_nonnull (strstr (lines[1], ",INVITE,"));
  g_assert_nonnull (strstr (lines[1], ",rejected,486,"));
  g_assert_cmpstr (lines[2], ==, ""); /* one call, then the final newline */
}

int
main (int argc, char **argv)
{
  const char *gen = g_getenv ("CS_GEN");
  g_autoptr (GError) error = NULL;
  int result;

  g_test_init (&argc, &argv, NULL);
  if (gen == NULL)
    {
      g_print ("1..0 # SKIP generator not built\n");
      return 0;
    }
  work_dir = g_dir_make_tmp ("callscope-cli-XXXXXX", &error);
  g_assert_no_error (error);
  clean_capture = g_build_filename (work_dir, "clean.pcapng", NULL);
  busy_capture = g_build_filename (work_dir, "busy.pcapng", NULL);
  {
    const char *a1[] = { gen, "scenario", "clean", "-o", clean_capture, NULL };
    const char *a2[] = { gen, "scenario", "busy-486", "-o", busy_capture, NULL };
    int ws;

    g_assert_true (g_spawn_sync (NULL, (char **) a1, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL,
                                 &ws, &error));
    g_assert_true (g_spawn_sync (NULL, (char **) a2, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL,
                                 &ws, &error));
  }
  g_test_add_func ("/golden/cli/unreadable-exit-1", test_unreadable_exit_1);
  g_test_add_func ("/golden/cli/usage-exit-2", test_usage_exit_2);
  g_test_add_func ("/golden/cli/truncated-exit-3", test_truncated_exit_3);
  g_test_add_func ("/golden/cli/two-files-merged", test_two_files_merged);
  g_test_add_func ("/golden/cli/bpf-filter", test_bpf_filter);
  g_test_add_func ("/golden/cli/csv-output-file", test_csv_and_output_file);
  result = g_test_run ();
  {
    g_autoptr (GDir) d = g_dir_open (work_dir, 0, NULL);
    for (const char *f; d != NULL && (f = g_dir_read_name (d)) != NULL;)
      {
        g_autofree char *p = g_build_filename (work_dir, f, NULL);
        g_remove (p);
      }
    g_rmdir (work_dir);
  }
  return result;
}
