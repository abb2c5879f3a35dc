/* test-analysis-lookup.c — the one lookup of streams by id and calls by number or Call-ID
 * (app, CLI and reports use it) finds every item of a loaded capture, also in a list that is
 * not in id order, and nothing for ids and Call-IDs the capture does not have. */
#include "loader/cs-loader.h"

static CsAnalysis *
load_sample (const char *name)
{
  const char *dir = g_getenv ("CS_SAMPLES_DIR");
  g_autofree char *path = dir != NULL ? g_build_filename (dir, name, NULL) : NULL;
  const char *paths[] = { path, NULL };
  g_autoptr (CsLoader) loader = cs_loader_new ();
  g_autoptr (GError) error = NULL;
  CsAnalysis *analysis;

  if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    return NULL;
  analysis = cs_loader_load (loader, paths, NULL, &error);
  g_assert_no_error (error);
  return analysis;
}

static void
test_lookup (void)
{
  g_autoptr (CsAnalysis) analysis = load_sample ("sip-rtp-g726-8calls.pcap");
  GListModel *streams, *calls;
  g_autoptr (GListStore) reversed = g_list_store_new (CS_TYPE_STREAM);
  guint n_streams, n_calls;

  if (analysis == NULL)
    {
      g_test_skip ("CS_SAMPLES_DIR not set or sip-rtp-g726-8calls.pcap missing");
      return;
    }
  streams = cs_analysis_get_streams (analysis);
  calls = cs_analysis_get_calls (analysis);
  n_streams = g_list_model_get_n_items (streams);
  n_calls = g_list_model_get_n_items (calls);
  /* tshark lists 8 RTP streams in this capture, one call each */
  g_assert_cmpuint (n_streams, ==, 8);
  g_assert_cmpuint (n_calls, >=, 8);

  for (guint i = n_streams; i-- > 0;)
    {
      g_autoptr (CsStream) stream = g_list_model_get_item (streams, i);

      g_list_store_append (reversed, stream);
    }
  for (guint i = 0; i < n_streams; i++)
    {
      g_autoptr (CsStream) stream = g_list_model_get_item (streams, i);
      guint id = cs_stream_get_id (stream);

      g_assert_true (cs_analysis_lookup_stream (analysis, id) == stream);
      /* not in id order: found by the scan */
      g_assert_true (cs_streams_lookup (G_LIST_MODEL (reversed), id) == stream);
    }
  g_assert_null (cs_analysis_lookup_stream (analysis, 0));
  g_assert_null (cs_analysis_lookup_stream (analysis, n_streams + 1));
  g_assert_null (cs_streams_lookup (NULL, 1));

  for (guint i = 0; i < n_calls; i++)
    {
      g_autoptr (CsCall) call = g_list_model_get_item (calls, i);
      guint number = cs_call_get_number (call);
      g_autofree char *text = g_strdup_printf ("%u", number);
      CsCall *by_id = cs_analysis_find_call_id (analysis, cs_call_get_call_id (call));

      g_assert_true (cs_analysis_lookup_call (analysis, number) == call);
      g_assert_true (cs_analysis_find_call (analysis, text) == call);
      /* the first call with that Call-ID */
      g_assert_nonnull (by_id);
      g_assert_cmpstr (cs_call_get_call_id (by_id), ==, cs_call_get_call_id (call));
      g_assert_cmpuint (cs_call_get_number (by_id), <=, number);
      g_assert_true (cs_analysis_find_call (analysis, cs_call_get_call_id (call)) == by_id);
    }
  g_assert_null (cs_analysis_lookup_call (analysis, 0));
  g_assert_null (cs_analysis_lookup_call (analysis, n_calls + 1));
  g_assert_null (cs_analysis_find_call (analysis, "no-such-call-id@example.com"));
  g_assert_null (cs_analysis_find_call (analysis, ""));
  g_assert_null (cs_analysis_find_call_id (analysis, NULL));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/lookup", test_lookup);
  return g_test_run ();
}
