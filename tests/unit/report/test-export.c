/* test-export.c — trimmed pcapng of selected calls: re-analysed it gives the same calls and
 * streams, carries findings as comments, agrees with tshark, and redaction leaves nothing */
#include <glib/gstdio.h>
#include <string.h>

#include "capture/cs-capture-set.h"
#include "net/cs-decode.h"
#include "export/cs-export-pcapng.h"
#include "findings/cs-finding.h"
#include "loader/cs-loader.h"
#include "calls/cs-stream.h"

static CsAnalysis *
load (const char *path)
{
  g_autoptr (CsLoader) loader = cs_loader_new ();
  g_autoptr (GError) error = NULL;
  const char *files[] = { path, NULL };
  CsAnalysis *analysis = cs_loader_load (loader, files, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (analysis);
  return analysis;
}

static char *
demo_capture (void)
{
  const char *dir = g_getenv ("G_TEST_BUILDDIR");
  char *path = g_build_filename (dir != NULL ? dir : ".", "gen", "callscope-demo.pcapng", NULL);

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    g_clear_pointer (&path, g_free);
  return path;
}

/* The call with streams and the most findings. */
static CsCall *
pick_call (CsAnalysis *analysis)
{
  GListModel *calls = cs_analysis_get_calls (analysis);
  CsCall *best = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (calls); i++)
    {
      g_autoptr (CsCall) call = g_list_model_get_item (calls, i);

      if (cs_call_get_stream_ids (call)->len >= 2
          && (best == NULL || cs_call_get_n_findings (call) > cs_call_get_n_findings (best)))
        best = call;
    }
  return best;
}

static CsStream *
stream_by_ssrc (CsAnalysis *analysis, guint32 ssrc)
{
  GListModel *streams = cs_analysis_get_streams (analysis);

  for (guint i = 0; i < g_list_model_get_n_items (streams); i++)
    {
      g_autoptr (CsStream) s = g_list_model_get_item (streams, i);

      if (cs_stream_get_ssrc (s) == ssrc)
        return s;
    }
  return NULL;
}

static void
assert_same_call (CsAnalysis *original, CsCall *call, CsAnalysis *trimmed, gboolean same_ids)
{
  GListModel *calls = cs_analysis_get_calls (trimmed);
  g_autoptr (CsCall) again = NULL;
  const GArray *ids = cs_call_get_stream_ids (call);
  GListModel *streams = cs_analysis_get_streams (original);

  g_assert_cmpuint (g_list_model_get_n_items (calls), ==, 1);
  again = g_list_model_get_item (calls, 0);
  if (same_ids)
    g_assert_cmpstr (cs_call_get_call_id (again), ==, cs_call_get_call_id (call));
  g_assert_cmpuint (cs_call_get_n_messages (again), ==, cs_call_get_n_messages (call));
  g_assert_cmpint (cs_call_get_state (again), ==, cs_call_get_state (call));
  g_assert_cmpuint (cs_call_get_stream_ids (again)->len, ==, ids->len);
  g_assert_cmpuint (g_list_model_get_n_items (cs_analysis_get_streams (trimmed)), ==, ids->len);
  for (guint i = 0; i < g_list_model_get_n_items (streams); i++)
    {
      g_autoptr (CsStream) s = g_list_model_get_item (streams, i);
      const CsRtpStats *a, *b;
      CsStream *t;

      if (cs_stream_get_call_number (s) != cs_call_get_number (call))
        continue;
      t = stream_by_ssrc (trimmed, cs_stream_get_ssrc (s));
      g_assert_nonnull (t);
      a = cs_stream_get_stats (s);
      b = cs_stream_get_stats (t);
      g_assert_cmpuint (a->packets, ==, b->packets);
      g_assert_cmpint (a->lost, ==, b->lost);
      g_assert_cmpuint (a->sequence_errors, ==, b->sequence_errors);
      g_assert_cmpfloat_with_epsilon (a->max_jitter_ms, b->max_jitter_ms, 1e-9);
      g_assert_cmpfloat_with_epsilon (a->max_delta_ms, b->max_delta_ms, 1e-9);
      g_assert_cmpfloat_with_epsilon (cs_stream_get_mos (s)->mos, cs_stream_get_mos (t)->mos, 1e-9);
    }
}

static void
test_trimmed_call_reanalyses_the_same (void)
{
  g_autofree char *path = demo_capture ();
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (CsAnalysis) trimmed = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  g_autoptr (GArray) frames = NULL;
  CsCall *call;
  guint number;
  int fd;

  if (path == NULL)
    {
      g_test_skip ("demo capture not built");
      return;
    }
  analysis = load (path);
  call = pick_call (analysis);
  g_assert_nonnull (call);
  number = cs_call_get_number (call);
  frames = cs_export_collect_frames (analysis, &number, 1);
  g_assert_cmpuint (frames->len, >, cs_call_get_n_messages (call));
  for (guint i = 1; i < frames->len; i++)
    g_assert_cmpuint (g_array_index (frames, guint32, i - 1), <,
                      g_array_index (frames, guint32, i));

  fd = g_file_open_tmp ("cs-export-XXXXXX.pcapng", &out, &error);
  g_assert_no_error (error);
  close (fd);
  g_assert_true (cs_export_pcapng_to_file (analysis, &number, 1, 0, out, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  trimmed = load (out);
  g_assert_cmpuint (cs_capture_set_get_n_frames (cs_analysis_get_capture_set (trimmed)), ==,
                    frames->len);
  assert_same_call (analysis, call, trimmed, TRUE);
  g_unlink (out);
}

static void
test_findings_become_comments (void)
{
  g_autofree char *path = demo_capture ();
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  CsCaptureSet *set;
  GListModel *findings;
  CsCall *call;
  guint number, expected_kinds = 0, commented = 0;
  int fd;

  if (path == NULL)
    {
      g_test_skip ("demo capture not built");
      return;
    }
  analysis = load (path);
  call = pick_call (analysis);
  number = cs_call_get_number (call);
  g_assert_cmpuint (cs_call_get_n_findings (call), >, 0);
  fd = g_file_open_tmp ("cs-export-XXXXXX.pcapng", &out, &error);
  close (fd);
  g_assert_true (cs_export_pcapng_to_file (analysis, &number, 1, 0, out, NULL, NULL, NULL, &error));

  set = cs_capture_set_new ();
  g_assert_true (cs_capture_set_add_file (set, out, &error));
  g_assert_true (cs_capture_set_index (set, NULL, NULL, NULL, &error));
  findings = cs_analysis_get_findings (analysis);
  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr (CsFinding) f = g_list_model_get_item (findings, i);
      g_autofree char *needle = NULL;
      gboolean found = FALSE;

      if (cs_finding_get_call_number (f) != number)
        continue;
      expected_kinds++;
      needle
          = g_strdup_printf ("%s %s (call %u", cs_severity_to_string (cs_finding_get_severity (f)),
                             cs_finding_kind_to_string (cs_finding_get_kind (f)), number);
      for (guint32 n = 1; n <= cs_capture_set_get_n_frames (set) && !found; n++)
        {
          CsFrame frame_copy;
          const CsFrame *frame
              = cs_capture_set_get_frame (set, n, &frame_copy) ? &frame_copy : NULL;
          const char *comment
              = cs_capture_get_frame_comment (cs_capture_set_get_file (set, frame->file), frame);

          found = comment != NULL && strstr (comment, needle) != NULL;
        }
      g_assert_true (found);
    }
  for (guint32 n = 1; n <= cs_capture_set_get_n_frames (set); n++)
    {
      CsFrame frame_copy;
      const CsFrame *frame = cs_capture_set_get_frame (set, n, &frame_copy) ? &frame_copy : NULL;
      const char *comment
          = cs_capture_get_frame_comment (cs_capture_set_get_file (set, frame->file), frame);

      commented += comment != NULL && strstr (comment, "callscope: ") != NULL;
    }
  g_assert_cmpuint (expected_kinds, >, 0);
  g_assert_cmpuint (commented, >=, expected_kinds);
  cs_capture_set_free (set);
  g_unlink (out);
}

/* tshark -z rtp,streams lines without the two time columns, for the given SSRC. */
static char *
tshark_stream_line (const char *file, guint32 ssrc)
{
  const char *argv[] = { "tshark", "-r", file, "-q", "-z", "rtp,streams", NULL };
  g_autofree char *out = NULL;
  g_autofree char *hex = g_strdup_printf ("0x%08X", ssrc);
  g_auto (GStrv) lines = NULL;
  int status;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL,
                               G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out,
                               NULL, &status, NULL));
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (strstr (lines[i], hex) != NULL)
      {
        g_auto (GStrv) fields = g_strsplit_set (g_strstrip (lines[i]), " ", -1);
        GString *rest = g_string_new (NULL);
        guint seen = 0;

        for (guint k = 0; fields[k] != NULL; k++)
          if (*fields[k] != '\0' && seen++ >= 2)
            g_string_append_printf (rest, "%s ", fields[k]);
        return g_string_free (rest, FALSE);
      }
  return NULL;
}

static void
test_tshark_agrees (void)
{
  g_autofree char *path = demo_capture ();
  g_autofree char *tshark = g_find_program_in_path ("tshark");
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  GListModel *streams;
  CsCall *call;
  guint number, compared = 0;
  int fd;

  if (path == NULL || tshark == NULL)
    {
      g_test_skip ("needs the demo capture and tshark");
      return;
    }
  analysis = load (path);
  call = pick_call (analysis);
  number = cs_call_get_number (call);
  fd = g_file_open_tmp ("cs-export-XXXXXX.pcapng", &out, &error);
  close (fd);
  g_assert_true (cs_export_pcapng_to_file (analysis, &number, 1, 0, out, NULL, NULL, NULL, &error));
  streams = cs_analysis_get_streams (analysis);
  for (guint i = 0; i < g_list_model_get_n_items (streams); i++)
    {
      g_autoptr (CsStream) s = g_list_model_get_item (streams, i);
      g_autofree char *before = NULL;
      g_autofree char *after = NULL;

      if (cs_stream_get_call_number (s) != number)
        continue;
      before = tshark_stream_line (path, cs_stream_get_ssrc (s));
      after = tshark_stream_line (out, cs_stream_get_ssrc (s));
      g_assert_nonnull (before);
      g_assert_cmpstr (after, ==, before);
      compared++;
    }
  g_assert_cmpuint (compared, >=, 2);
  g_unlink (out);
}

static guint
addr_hash (gconstpointer a)
{
  return cs_addr_hash (a);
}

static gboolean
addr_equal (gconstpointer a, gconstpointer b)
{
  return cs_addr_equal (a, b);
}

static void
test_redacted_leaves_nothing (void)
{
  g_autofree char *path = demo_capture ();
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (CsAnalysis) trimmed = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *bytes = NULL;
  g_autoptr (GPtrArray) needles = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) addresses = g_hash_table_new_full (addr_hash, addr_equal, g_free, NULL);
  CsCaptureSet *set;
  guint checked = 0;
  gsize len;
  CsCall *call;
  guint number;
  int fd;

  if (path == NULL)
    {
      g_test_skip ("demo capture not built");
      return;
    }
  analysis = load (path);
  call = pick_call (analysis);
  number = cs_call_get_number (call);
  fd = g_file_open_tmp ("cs-export-XXXXXX.pcapng", &out, &error);
  close (fd);
  g_assert_true (cs_export_pcapng_to_file (analysis, &number, 1, CS_EXPORT_REDACT, out, NULL, NULL,
                                           NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (out, &bytes, &len, &error));

  /* Every user part, and every address, in text and in binary. */
  g_ptr_array_add (needles, g_strdup_printf ("sip:%s@", cs_call_get_from (call)));
  g_ptr_array_add (needles, g_strdup_printf ("sip:%s@", cs_call_get_to (call)));
  for (guint i = 0; i < cs_call_get_n_messages (call); i++)
    {
      CsSipMessage *m = cs_call_get_message (call, i);
      char text[CS_ADDR_STRLEN];

      g_ptr_array_add (needles,
                       g_strdup (cs_addr_to_string (&cs_sip_message_get_src (m)->addr, text)));
      g_ptr_array_add (needles,
                       g_strdup (cs_addr_to_string (&cs_sip_message_get_dst (m)->addr, text)));
      if (cs_sip_message_get_from_display (m) != NULL
          && *cs_sip_message_get_from_display (m) != '\0')
        g_ptr_array_add (needles, g_strdup (cs_sip_message_get_from_display (m)));
      g_hash_table_add (addresses, g_memdup2 (&cs_sip_message_get_src (m)->addr, sizeof (CsAddr)));
      g_hash_table_add (addresses, g_memdup2 (&cs_sip_message_get_dst (m)->addr, sizeof (CsAddr)));
    }
  for (guint i = 0; i < needles->len; i++)
    if (memmem (bytes, len, g_ptr_array_index (needles, i), strlen (g_ptr_array_index (needles, i)))
        != NULL)
      g_error ("'%s' is still in the redacted file", (char *) g_ptr_array_index (needles, i));

  /* No original address in any IP header (the payloads were checked as text above; a
   * 4-byte pattern in audio samples would be chance, not a leak). */
  trimmed = load (out);
  set = cs_analysis_get_capture_set (trimmed);
  for (guint32 n = 1; n <= cs_capture_set_get_n_frames (set); n++)
    {
      CsFrame frame_copy;
      const CsFrame *frame = cs_capture_set_get_frame (set, n, &frame_copy) ? &frame_copy : NULL;
      CsPacket pkt;

      if (cs_decode_frame (frame->linktype, cs_capture_set_frame_data (set, frame), frame->caplen,
                           &pkt)
          != CS_DECODE_OK)
        continue;
      g_assert_false (g_hash_table_contains (addresses, &pkt.src.addr));
      g_assert_false (g_hash_table_contains (addresses, &pkt.dst.addr));
      checked++;
    }
  g_assert_cmpuint (checked, ==, cs_capture_set_get_n_frames (set));

  /* Still the same call and streams. */
  assert_same_call (analysis, call, trimmed, FALSE);
  g_unlink (out);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/export/trimmed-reanalyses-the-same", test_trimmed_call_reanalyses_the_same);
  g_test_add_func ("/export/findings-become-comments", test_findings_become_comments);
  g_test_add_func ("/export/tshark-agrees", test_tshark_agrees);
  g_test_add_func ("/export/redacted-leaves-nothing", test_redacted_leaves_nothing);
  return g_test_run ();
}
