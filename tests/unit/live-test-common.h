/* live-test-common.h — helpers shared by the live capture and HEP listener tests */
#pragma once

#include <glib/gstdio.h>

#include "calls/cs-call.h"
#include "capture/cs-capture-set.h"
#include "live/cs-live-session.h"
#include "loader/cs-loader.h"

static inline char *
live_sample_path (const char *name)
{
  const char *dir = g_getenv ("CS_SAMPLES_DIR");
  char *path;

  if (dir == NULL)
    return NULL;
  path = g_build_filename (dir, name, NULL);
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    g_clear_pointer (&path, g_free);
  return path;
}

static inline CsAnalysis *
live_load (const char *const *paths)
{
  g_autoptr (CsLoader) loader = cs_loader_new ();
  GError *error = NULL;
  CsAnalysis *analysis = cs_loader_load (loader, paths, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (analysis);
  return analysis;
}

static inline CsAnalysis *
live_load_one (const char *path)
{
  const char *paths[] = { path, NULL };

  return live_load (paths);
}

/* Two analyses agree on every call: Call-ID, method, state, final status, messages,
 * retransmissions, setup/PDD times (µs: HEP timestamps carry microseconds). */
static inline void
live_assert_same_calls (CsAnalysis *expected, CsAnalysis *actual)
{
  GListModel *a = cs_analysis_get_calls (expected);
  GListModel *b = cs_analysis_get_calls (actual);

  g_assert_cmpuint (g_list_model_get_n_items (a), ==, g_list_model_get_n_items (b));
  g_assert_cmpuint (cs_analysis_get_stats (expected)->sip_messages, ==,
                    cs_analysis_get_stats (actual)->sip_messages);
  for (guint i = 0; i < g_list_model_get_n_items (a); i++)
    {
      g_autoptr (CsCall) x = g_list_model_get_item (a, i);
      g_autoptr (CsCall) y = g_list_model_get_item (b, i);

      g_assert_cmpstr (cs_call_get_call_id (x), ==, cs_call_get_call_id (y));
      g_assert_cmpstr (cs_call_get_method_name (x), ==, cs_call_get_method_name (y));
      g_assert_cmpint (cs_call_get_state (x), ==, cs_call_get_state (y));
      g_assert_cmpuint (cs_call_get_final_status (x), ==, cs_call_get_final_status (y));
      g_assert_cmpuint (cs_call_get_n_messages (x), ==, cs_call_get_n_messages (y));
      g_assert_cmpuint (cs_call_get_retransmissions (x), ==, cs_call_get_retransmissions (y));
      g_assert_cmpfloat_with_epsilon (cs_call_get_setup_ms (x), cs_call_get_setup_ms (y), 0.002);
      g_assert_cmpfloat_with_epsilon (cs_call_get_pdd_ms (x), cs_call_get_pdd_ms (y), 0.002);
      g_assert_cmpint (cs_call_get_start_ns (x) / 1000, ==, cs_call_get_start_ns (y) / 1000);
    }
}

/* A fresh directory for one test's files, removed (with its files) by live_tmp_dir_remove. */
static inline char *
live_tmp_dir (void)
{
  GError *error = NULL;
  char *dir = g_dir_make_tmp ("cs-live-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static inline void
live_tmp_dir_remove (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_unlink (path);
    }
  if (d != NULL)
    g_dir_close (d);
  g_rmdir (dir);
}
