/* test-bench-determinism.c — the report does not depend on threads or chunking
 *
 * The loader decodes chunks in parallel and merges them in order; the JSON report
 * must be byte-identical at 1, 2 and N threads and whether the file is read in one
 * chunk or in 64 (or in chunks of one frame, where every boundary is exercised). */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>

#include "loader/cs-loader.h"
#include "cs-report.h"

typedef struct
{
  guint threads;
  guint chunk_frames; /* 0 = default; G_MAXUINT = whole file in one chunk */
  const char *filter;
} LoadConfig;

static char *
report_json (const char *path, const LoadConfig *config, guint64 *packets)
{
  g_autoptr (CsLoader) loader = cs_loader_new ();
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (GError) error = NULL;
  const char *paths[] = { path, NULL };
  char *text = NULL;
  size_t size = 0;
  FILE *out;

  cs_loader_set_threads (loader, config->threads);
  cs_loader_set_chunk_frames (loader, config->chunk_frames);
  cs_loader_set_filter (loader, config->filter);
  analysis = cs_loader_load (loader, paths, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (analysis);
  if (packets != NULL)
    *packets = cs_analysis_get_stats (analysis)->packets;
  out = open_memstream (&text, &size);
  g_assert_nonnull (out);
  g_assert_true (cs_report_write (analysis, CS_REPORT_FORMAT_JSON, out));
  g_assert_cmpint (fclose (out), ==, 0);
  return text;
}

/* Loads the capture in every configuration and asserts the reports are equal. */
static void
check_capture (const char *path, const char *filter)
{
  guint64 packets = 0;
  LoadConfig reference = { 1, G_MAXUINT, filter };
  g_autofree char *expected = report_json (path, &reference, &packets);
  guint n = MAX (4u, g_get_num_processors ());
  guint per_64 = (guint) MAX (1, (packets + 63) / 64);
  LoadConfig configs[] = {
    { 1, 0, filter },      { 2, 0, filter },      { n, 0, filter }, { 1, per_64, filter },
    { 2, per_64, filter }, { n, per_64, filter }, { 2, 1, filter },
  };

  g_assert_cmpuint (packets, >, 0);
  g_assert_nonnull (strstr (expected, "\"calls\""));
  for (gsize i = 0; i < G_N_ELEMENTS (configs); i++)
    {
      g_autofree char *got = NULL;

      /* one-frame chunks on a big file only add time, not coverage */
      if (configs[i].chunk_frames == 1 && packets > 20000)
        continue;
      got = report_json (path, &configs[i], NULL);
      if (g_strcmp0 (got, expected) != 0)
        g_error ("%s: report differs with %u threads, %u frames per chunk", path,
                 configs[i].threads, configs[i].chunk_frames);
    }
}

static char *
run_generator (const char *env, const char *const *args, const char *dir)
{
  const char *exe = g_getenv (env);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  int status = 0;

  if (exe == NULL)
    return NULL;
  g_ptr_array_add (argv, (gpointer) exe);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (dir, (char **) argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL,
                               NULL, NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return g_strdup (dir);
}

static void
remove_tree (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        remove_tree (path);
      else
        g_remove (path);
    }
  g_rmdir (dir);
}

static void
test_bench_corpus (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cs-bench-XXXXXX", NULL);
  const char *reused[] = { "--calls", "200", "--retransmit-permille", "50", "--fail-permille",
                           "50",      "-o",  "reused.pcap",           NULL };
  const char *unique[]
      = { "--calls", "150", "--call-ids", "0", "--stream-pairs", "0", "-o", "unique.pcap", NULL };
  g_autofree char *reused_path = g_build_filename (dir, "reused.pcap", NULL);
  g_autofree char *unique_path = g_build_filename (dir, "unique.pcap", NULL);

  if (g_getenv ("CS_BENCH_GEN") == NULL)
    {
      g_test_skip ("CS_BENCH_GEN not set");
      return;
    }
  g_free (run_generator ("CS_BENCH_GEN", reused, dir));
  g_free (run_generator ("CS_BENCH_GEN", unique, dir));
  check_capture (reused_path, NULL);
  check_capture (unique_path, NULL);
  /* a filter takes the path where decoding waits for the whole index */
  check_capture (reused_path, "udp");
  remove_tree (dir);
}

/* The scenario captures cover TCP, IP fragments, VLAN, SLL, IPv6, pcapng: frames the
 * merge reads again, whose order against the workers' SIP must not depend on chunks. */
static void
test_scenarios (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cs-bench-scen-XXXXXX", NULL);
  const char *args[] = { "all", "-d", ".", NULL };
  g_autoptr (GDir) d = NULL;
  const char *name;
  guint checked = 0;

  if (g_getenv ("CS_GEN") == NULL)
    {
      g_test_skip ("CS_GEN not set");
      return;
    }
  g_free (run_generator ("CS_GEN", args, dir));
  d = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (!g_str_has_suffix (name, ".pcap") && !g_str_has_suffix (name, ".pcapng"))
        continue;
      check_capture (path, NULL);
      checked++;
    }
  g_assert_cmpuint (checked, >=, 10);
  remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bench/determinism/corpus", test_bench_corpus);
  g_test_add_func ("/bench/determinism/scenarios", test_scenarios);
  return g_test_run ();
}
