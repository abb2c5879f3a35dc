/* test-golden-formats.c — capture files in the formats other tools write (made here from the
 * generator's scenarios by Wireshark's editcap, and compressed by gzip and zstd) give the SIP
 * messages, calls and RTP streams tshark finds in the same converted file; a .gz/.zst gives
 * exactly the report of the file inside it. */
#include "golden-common.h"

#include <glib/gstdio.h>
#include <string.h>

static char *work_dir;

/* The scenarios converted: plain, TCP, tunnelled. */
static const char *const scenarios[] = { "clean", "tcp", "gtp-u", "vxlan" };
/* editcap -F names whose files libwiretap reads back with every packet. */
static const char *const formats[] = { "snoop", "netmon2", "netmon1", "ngsniffer",    "lanalyzer",
                                       "nettl", "5views",  "visual",  "commview-ncf", "k12text" };

static char *
run (const char *const *argv, int *status)
{
  g_autoptr (GError) error = NULL;
  char *out = NULL;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &out, NULL, status, &error))
    {
      *status = -1;
      return g_strdup ("");
    }
  return out;
}

/* What tshark sees in the file, in one run: SIP messages (one CSeq each; a frame with two
 * lists two, comma-separated), INVITE dialogs (distinct Call-IDs of INVITE transactions), RTP
 * streams (the -z rtp,streams rows printed after the fields). */
static void
tshark_counts (const char *path, guint *sip, guint *calls, guint *streams)
{
  const char *argv[]
      = { "tshark",          "-n", "-r",          path, "-Y",          "sip", "-T", "fields", "-e",
          "sip.CSeq.method", "-e", "sip.Call-ID", "-z", "rtp,streams", NULL };
  int status;
  g_autofree char *out = run (argv, &status);
  g_autoptr (GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);

  *sip = *streams = 0;
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) cols = g_strsplit (lines[i], "\t", 2);

      if (strstr (lines[i], " 0x") != NULL)
        (*streams)++;
      else if (g_strv_length (cols) == 2)
        {
          g_auto (GStrv) methods = g_strsplit (cols[0], ",", -1);
          g_auto (GStrv) call_ids = g_strsplit (cols[1], ",", -1);

          *sip += g_strv_length (methods);
          for (guint m = 0; methods[m] != NULL && call_ids[m] != NULL; m++)
            if (g_str_equal (methods[m], "INVITE"))
              g_hash_table_add (ids, g_strdup (call_ids[m]));
        }
    }
  *calls = g_hash_table_size (ids);
}

static void
assert_like_tshark (const char *path)
{
  int status = -1;
  g_autoptr (JsonNode) root = golden_report (path, &status);
  JsonObject *report = json_node_get_object (root);
  guint sip, calls, streams;

  tshark_counts (path, &sip, &calls, &streams);
  g_test_message ("%s: tshark %u SIP, %u calls, %u streams", path, sip, calls, streams);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpuint (sip, >, 0);
  g_assert_cmpint (golden_int (json_object_get_object_member (report, "capture"), "sip_messages"),
                   ==, sip);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (report, "calls")), ==,
                    calls);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (report, "streams")), ==,
                    streams);
}

static void
test_format (gconstpointer data)
{
  const char *const *pair = data;
  g_autofree char *src = g_strdup_printf ("%s/%s.pcapng", work_dir, pair[0]);
  g_autofree char *dst = g_strdup_printf ("%s/%s.%s", work_dir, pair[0], pair[1]);
  const char *argv[] = { "editcap", "-F", pair[1], src, dst, NULL };
  int status;
  g_autofree char *out = run (argv, &status);

  g_assert_cmpint (status, ==, 0);
  assert_like_tshark (dst);
}

/* The report of FILE.gz / FILE.zst is the report of FILE, but for the file name. */
static void
test_compressed (gconstpointer data)
{
  const char *tool = data;
  g_autofree char *src = g_strdup_printf ("%s/clean.pcapng", work_dir);
  g_autofree char *dst
      = g_strdup_printf ("%s/clean.pcapng.%s", work_dir, g_str_equal (tool, "gzip") ? "gz" : "zst");
  const char *argv[] = { tool, "-k", "-f", "-q", src, NULL };
  const char *gzip_argv[] = { tool, "-k", "-f", src, NULL };
  int status = -1, plain_status = -1;
  g_autofree char *out = run (g_str_equal (tool, "gzip") ? gzip_argv : argv, &status);
  g_autoptr (JsonNode) plain = golden_report (src, &plain_status);
  g_autoptr (JsonNode) packed = golden_report (dst, &status);
  JsonObject *a = json_node_get_object (plain), *b = json_node_get_object (packed);
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autofree char *ja = NULL, *jb = NULL;

  g_assert_cmpint (status, ==, 0);
  assert_like_tshark (dst);
  /* same analysis: drop the file names, then compare the whole documents */
  json_object_remove_member (json_object_get_object_member (a, "capture"), "files");
  json_object_remove_member (json_object_get_object_member (b, "capture"), "files");
  json_generator_set_root (gen, plain);
  ja = json_generator_to_data (gen, NULL);
  json_generator_set_root (gen, packed);
  jb = json_generator_to_data (gen, NULL);
  g_assert_cmpstr (ja, ==, jb);
}

/* A cut .gz: exit 3, the frames before the cut analysed, the offset in the message. */
static void
test_compressed_cut (void)
{
  g_autofree char *src = g_strdup_printf ("%s/clean.pcapng", work_dir);
  g_autofree char *gz = g_strdup_printf ("%s/cut.pcapng.gz", work_dir);
  g_autofree char *data = NULL;
  g_autofree char *err = NULL, *out = NULL;
  const char *gzip_argv[] = { "sh", "-c", NULL, NULL };
  g_autofree char *cmd = g_strdup_printf ("gzip -c '%s' | head -c 40000 > '%s'", src, gz);
  const char *args[] = { "report", gz, "--format", "json", NULL };
  int status;

  gzip_argv[2] = cmd;
  g_free (run (gzip_argv, &status));
  out = golden_run_cli (args, &status, &err);
  g_assert_cmpint (status, ==, 3);
  g_assert_nonnull (strstr (err, "cut.pcapng.gz"));
  g_assert_nonnull (strstr (err, "byte offset 40000 of the compressed file"));
}

int
main (int argc, char **argv)
{
  const char *gen = g_getenv ("CS_GEN");
  g_autoptr (GError) error = NULL;
  g_autofree char *editcap = g_find_program_in_path ("editcap");
  g_autofree char *tshark = g_find_program_in_path ("tshark");
  g_autofree char *zstd = g_find_program_in_path ("zstd");
  int status;

  g_test_init (&argc, &argv, NULL);
  if (gen == NULL || editcap == NULL || tshark == NULL)
    {
      g_print ("1..0 # SKIP needs CS_GEN, editcap and tshark (apt-get install tshark)\n");
      return 0;
    }
  work_dir = g_dir_make_tmp ("callscope-formats-XXXXXX", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (scenarios); i++)
    {
      g_autofree char *out = g_strdup_printf ("%s/%s.pcapng", work_dir, scenarios[i]);
      const char *gen_argv[] = { gen, "scenario", scenarios[i], "-o", out, NULL };

      g_free (run (gen_argv, &status));
      g_assert_cmpint (status, ==, 0);
      for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
        {
          const char **pair = g_new (const char *, 2);
          g_autofree char *path
              = g_strdup_printf ("/golden/formats/%s/%s", formats[f], scenarios[i]);

          pair[0] = scenarios[i];
          pair[1] = formats[f];
          g_test_add_data_func_full (path, pair, test_format, g_free);
        }
    }
  g_test_add_data_func ("/golden/formats/gzip", "gzip", test_compressed);
  if (zstd != NULL)
    g_test_add_data_func ("/golden/formats/zstd", "zstd", test_compressed);
  g_test_add_func ("/golden/formats/gzip-cut", test_compressed_cut);
  status = g_test_run ();
  golden_remove_dir (work_dir);
  return status;
}
