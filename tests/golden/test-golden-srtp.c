/* test-golden-srtp.c — SRTP calls the generator wrote with libsrtp: every suite decrypted
 * with the SDP's keys plays the generator's tones (FFT peak within 0.3 Hz); without a key,
 * or with a wrong one, nothing is played and a finding names the stream; a key given by the
 * user (the one the generator used, from its expectation) opens the stream */
#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>

#include "../unit/audio/test-audio-common.h"
#include "cs-audio-error.h"
#include "cs-audio-track.h"
#include "loader/cs-loader.h"
#include "golden-common.h"

static char *tmp_dir;

/* Writes scenario name with its expectation; NULL (test skipped) without cs-gen. */
static char *
gen_scenario (const char *name, JsonObject **expect)
{
  const char *gen = g_getenv ("CS_GEN");
  g_autofree char *path = NULL, *expect_path = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  int status = 0;

  if (gen == NULL)
    {
      g_test_skip ("CS_GEN not set");
      return NULL;
    }
  path = g_strdup_printf ("%s/%s.pcapng", tmp_dir, name);
  expect_path = g_strdup_printf ("%s/%s.expect.json", tmp_dir, name);
  {
    const char *argv[] = { gen, "scenario", name, "-o", path, "--expect", expect_path, NULL };

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                  &status, &error);
  }
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  json_parser_load_from_file (parser, expect_path, &error);
  g_assert_no_error (error);
  *expect = json_object_ref (json_node_get_object (json_parser_get_root (parser)));
  return g_steal_pointer (&path);
}

static CsAnalysis *
load (const char *path, const GArray *user_keys)
{
  g_autoptr (CsLoader) loader = cs_loader_new ();
  g_autoptr (GError) error = NULL;
  const char *paths[] = { path, NULL };
  CsAnalysis *analysis;

  cs_loader_set_srtp_keys (loader, user_keys);
  analysis = cs_loader_load (loader, paths, NULL, &error);
  g_assert_no_error (error);
  return analysis;
}

/* The expectation's stream i (the generator's order: alice's first). */
static JsonObject *
expected_stream (JsonObject *expect, guint i)
{
  return json_array_get_object_element (json_object_get_array_member (expect, "streams"), i);
}

/* The analysed stream with the expectation's SSRC. */
static CsStream *
stream_for (CsAnalysis *analysis, JsonObject *want)
{
  GListModel *streams = cs_analysis_get_streams (analysis);
  guint32 ssrc
      = (guint32) g_ascii_strtoull (json_object_get_string_member (want, "ssrc") + 2, NULL, 16);

  for (guint i = 0; i < g_list_model_get_n_items (streams); i++)
    {
      g_autoptr (CsStream) s = g_list_model_get_item (streams, i);

      if (cs_stream_get_ssrc (s) == ssrc)
        return s; /* the list keeps its reference */
    }
  g_assert_not_reached ();
}

/* Alice's dual tone, as heard: 440 Hz, then 660 Hz, 500 ms each, for the first 3 s. */
static void
assert_dual_tone (CsAnalysis *analysis, CsStream *stream)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (CsAudioTrack) track
      = cs_audio_track_decode (cs_analysis_get_capture_set (analysis), stream, NULL, NULL, &error);
  double worst = 0.0;

  g_assert_no_error (error);
  g_assert_cmpuint (track->sample_rate, ==, 8000);
  g_assert_cmpuint (track->undecodable, ==, 0);
  for (guint k = 0; k < 6; k++)
    {
      gsize at = (gsize) ((k * 0.5 + 0.1) * 8000);
      double want = k % 2 == 0 ? 440.0 : 660.0, peak;

      g_assert_cmpuint (at + 2400, <=, track->samples->len);
      peak = test_audio_peak_hz ((const gint16 *) (gconstpointer) track->samples->data + at, 2400,
                                 1, 8000, 200, 3800);
      g_assert_cmpfloat_with_epsilon (peak, want, 0.3);
      worst = MAX (worst, fabs (peak - want));
    }
  g_test_message ("stream %u: worst peak error %.2f Hz", cs_stream_get_id (stream), worst);
}

static void
assert_decrypted_as (CsStream *stream, JsonObject *want)
{
  const CsStreamSrtp *srtp = cs_stream_get_srtp (stream);

  g_assert_nonnull (srtp);
  g_assert_cmpstr (cs_stream_protection_to_string (srtp->protection), ==, "decrypted");
  g_assert_cmpstr (cs_srtp_suite_to_string (srtp->suite), ==,
                   json_object_get_string_member (want, "srtp_suite"));
  g_assert_cmpuint (srtp->failed, ==, 0);
  g_assert_cmpuint (srtp->decrypted, ==, (guint) golden_int (want, "packets"));
}

static void
test_suites (void)
{
  static const char *const names[]
      = { "srtp-aes128-80", "srtp-aes128-32", "srtp-aes192-80", "srtp-aes192-32", "srtp-aes256-80",
          "srtp-aes256-32", "srtp-gcm128",    "srtp-gcm256",    "srtp-mki",       "srtp-rollover" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr (JsonObject) expect = NULL;
      g_autofree char *path = gen_scenario (names[i], &expect);
      g_autoptr (CsAnalysis) analysis = NULL;

      if (path == NULL)
        return;
      g_test_message ("%s", names[i]);
      analysis = load (path, NULL);
      for (guint s = 0; s < 2; s++)
        assert_decrypted_as (stream_for (analysis, expected_stream (expect, s)),
                             expected_stream (expect, s));
      assert_dual_tone (analysis, stream_for (analysis, expected_stream (expect, 0)));
    }
}

/* The finding of kind about stream, asserted to exist. */
static CsFinding *
finding_for (CsAnalysis *analysis, const char *kind, CsStream *stream)
{
  GListModel *findings = cs_analysis_get_findings (analysis);

  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr (CsFinding) f = g_list_model_get_item (findings, i);

      if (strcmp (cs_finding_kind_to_string (cs_finding_get_kind (f)), kind) == 0
          && cs_finding_get_stream_id (f) == cs_stream_get_id (stream))
        return f;
    }
  g_assert_not_reached ();
}

static void
assert_not_playable (CsAnalysis *analysis, CsStream *stream, const char *why)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (CsAudioTrack) track
      = cs_audio_track_decode (cs_analysis_get_capture_set (analysis), stream, NULL, NULL, &error);

  g_assert_null (track);
  g_assert_error (error, CS_AUDIO_ERROR, CS_AUDIO_ERROR_ENCRYPTED);
  g_assert_nonnull (strstr (error->message, why));
}

/* The user keys for the expectation's streams: "0xSSRC=inline:…", the generator's keys. */
static GArray *
user_keys_from (JsonObject *expect)
{
  GArray *keys = g_array_new (FALSE, FALSE, sizeof (CsSrtpUserKey));

  for (guint s = 0; s < 2; s++)
    {
      JsonObject *w = expected_stream (expect, s);
      g_autofree char *spec = g_strdup_printf ("%s=%s", json_object_get_string_member (w, "ssrc"),
                                               json_object_get_string_member (w, "srtp_key"));
      g_autoptr (GError) error = NULL;
      CsSrtpUserKey key;

      g_assert_true (cs_srtp_user_key_parse (spec, &key, &error));
      g_assert_no_error (error);
      g_array_append_val (keys, key);
    }
  return keys;
}

static void
test_no_key (void)
{
  g_autoptr (JsonObject) expect = NULL;
  g_autofree char *path = gen_scenario ("srtp-no-key", &expect);
  g_autoptr (CsAnalysis) analysis = NULL, keyed = NULL;
  g_autoptr (GArray) keys = NULL;
  CsStream *up;

  if (path == NULL)
    return;
  analysis = load (path, NULL);
  up = stream_for (analysis, expected_stream (expect, 0));
  g_assert_cmpint (cs_stream_get_protection (up), ==, CS_STREAM_ENCRYPTED);
  /* header metrics are still there */
  g_assert_cmpuint (cs_stream_get_stats (up)->packets, ==,
                    (guint) golden_int (expected_stream (expect, 0), "packets"));
  assert_not_playable (analysis, up, "key needed");
  g_assert_nonnull (
      strstr (cs_finding_get_text (finding_for (analysis, "srtp-no-key", up)), "key needed"));
  /* the generator's keys given by SSRC: heard as sent (no suite given: its length and the
   * authentication tell) */
  keys = user_keys_from (expect);
  keyed = load (path, keys);
  up = stream_for (keyed, expected_stream (expect, 0));
  g_assert_cmpint (cs_stream_get_protection (up), ==, CS_STREAM_DECRYPTED);
  g_assert_true (cs_stream_get_srtp (up)->user_key);
  assert_dual_tone (keyed, up);
}

static void
test_wrong_key (void)
{
  g_autoptr (JsonObject) expect = NULL;
  g_autofree char *path = gen_scenario ("srtp-wrong-key", &expect);
  g_autoptr (CsAnalysis) analysis = NULL, keyed = NULL;
  g_autoptr (GArray) keys = NULL;
  CsStream *up;
  CsFinding *f;
  const CsRtpPacket *records;
  guint n;

  if (path == NULL)
    return;
  analysis = load (path, NULL);
  up = stream_for (analysis, expected_stream (expect, 0));
  g_assert_cmpint (cs_stream_get_protection (up), ==, CS_STREAM_KEY_FAILED);
  assert_not_playable (analysis, up, "fails authentication");
  /* the finding names the stream's first frames: each of them failed */
  f = finding_for (analysis, "srtp-auth-failed", up);
  records = cs_stream_get_packet_records (up, &n);
  g_assert_cmpuint (cs_finding_get_frames (f)->len, ==, 8);
  for (guint i = 0; i < 8; i++)
    g_assert_cmpuint (g_array_index (cs_finding_get_frames (f), guint32, i), ==, records[i].frame);
  /* bob's direction is fine */
  assert_decrypted_as (stream_for (analysis, expected_stream (expect, 1)),
                       expected_stream (expect, 1));
  /* the key alice really used, given by the user, wins over her SDP's */
  keys = user_keys_from (expect);
  keyed = load (path, keys);
  up = stream_for (keyed, expected_stream (expect, 0));
  g_assert_cmpint (cs_stream_get_protection (up), ==, CS_STREAM_DECRYPTED);
  assert_dual_tone (keyed, up);
}

static void
test_cli (void)
{
  g_autoptr (JsonObject) expect = NULL;
  g_autofree char *path = gen_scenario ("srtp-no-key", &expect);
  g_autofree char *wav = g_strdup_printf ("%s/up.wav", tmp_dir);
  g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL, *spec = NULL;
  int status = -1;

  if (path == NULL)
    return;
  {
    const char *args[] = { "audio", path, "--stream", "1", "-o", wav, NULL };

    out = golden_run_cli (args, &status, &err);
  }
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "encrypted (SRTP) — key needed"));
  g_assert_false (g_file_test (wav, G_FILE_TEST_EXISTS));
  spec = g_strdup_printf ("1=%s",
                          json_object_get_string_member (expected_stream (expect, 0), "srtp_key"));
  {
    const char *args[] = { "audio", path, "--stream", "1", "--srtp-key", spec, "-o", wav, NULL };

    out2 = golden_run_cli (args, &status, &err2);
  }
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_file_test (wav, G_FILE_TEST_EXISTS));
  /* a key that is not base64 is a usage error naming the option, never echoing the key */
  {
    const char *args[] = { "streams", path, "--srtp-key", "1=inline:not*base64", NULL };
    g_autofree char *o = NULL, *e = NULL;

    o = golden_run_cli (args, &status, &e);
    g_assert_cmpint (status, ==, 2);
    g_assert_nonnull (strstr (e, "--srtp-key 1: the inline key is not base64"));
    g_assert_null (strstr (e, "not*base64"));
  }
}

int
main (int argc, char **argv)
{
  int rc;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("cs-golden-srtp-XXXXXX", NULL);
  g_test_add_func ("/golden/srtp/suites-tones", test_suites);
  g_test_add_func ("/golden/srtp/no-key", test_no_key);
  g_test_add_func ("/golden/srtp/wrong-key", test_wrong_key);
  g_test_add_func ("/golden/srtp/cli", test_cli);
  rc = g_test_run ();
  golden_remove_dir (tmp_dir);
  g_free (tmp_dir);
  return rc;
}
