/* test-hostile-files.c — damaged captures through the whole loader: every cut,
 * every lying length ends with an error naming the file and byte offset, and
 * every packet before the damage is still analysed. */
#include "cs-config.h"
#include "base/cs-error.h"
#include "findings/cs-finding.h"
#include "loader/cs-loader.h"
#include "hostile-capture.h"

#include <sys/wait.h>

#define N_RTP 6

typedef struct
{
  char *dir;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->dir = g_dir_make_tmp ("cs-hostile-XXXXXX", NULL);
  g_assert_nonnull (f->dir);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  remove_tmp_dir (f->dir);
  g_free (f->dir);
}

typedef struct
{
  CsAnalysis *analysis; /* NULL when nothing could be analysed */
  GError *error;        /* the load error, or a copy of the damage */
  char *path;
} Load;

static Load
load_bytes_limited (Fixture *f, const guint8 *data, gsize len, const CsLimits *limits)
{
  Load l = { NULL, NULL, g_build_filename (f->dir, "hostile.cap", NULL) };
  const char *paths[] = { l.path, NULL };
  g_autoptr (CsLoader) loader = cs_loader_new ();

  if (limits != NULL)
    cs_loader_set_limits (loader, limits);

  /* No fsync: thousands of files are written. A fresh file each time: written in place, a
   * zero-length write leaves the last one's bytes there. */
  g_unlink (l.path);
  g_assert_true (g_file_set_contents_full (l.path, (const char *) data, (gssize) len,
                                           G_FILE_SET_CONTENTS_NONE, 0644, NULL));
  cs_loader_set_threads (loader, 1);
  l.analysis = cs_loader_load (loader, paths, NULL, &l.error);
  if (l.analysis != NULL && cs_analysis_get_damage (l.analysis) != NULL)
    l.error = g_error_copy (cs_analysis_get_damage (l.analysis));
  return l;
}

static Load
load_bytes (Fixture *f, const guint8 *data, gsize len)
{
  return load_bytes_limited (f, data, len, NULL);
}

static void
load_clear (Load *l)
{
  g_clear_object (&l->analysis);
  g_clear_error (&l->error);
  g_free (l->path);
}

static gboolean
has_finding (CsAnalysis *analysis, CsFindingKind kind)
{
  GListModel *findings = cs_analysis_get_findings (analysis);

  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr (CsFinding) finding = g_list_model_get_item (findings, i);

      if (cs_finding_get_kind (finding) == kind)
        return TRUE;
    }
  return FALSE;
}

/* Damage after `kept` whole records, reported at byte offset `offset`. */
static void
assert_damaged (const HostileCapture *c, Load *l, guint kept, guint64 offset, int code)
{
  g_autofree char *where = g_strdup_printf ("byte offset %" G_GUINT64_FORMAT, offset);
  const CsCaptureStats *stats;

  g_assert_nonnull (l->analysis);
  g_assert_error (l->error, CS_CAPTURE_ERROR, code);
  if (strstr (l->error->message, l->path) == NULL || strstr (l->error->message, where) == NULL)
    g_error ("damage message “%s” should name %s and %s", l->error->message, l->path, where);
  stats = cs_analysis_get_stats (l->analysis);
  g_assert_cmpuint (stats->packets, ==, kept);
  g_assert_cmpuint (stats->sip_messages, ==, hostile_sip_in_first (c, kept));
  g_assert_cmpuint (stats->rtp_packets, ==, hostile_rtp_in_first (c, kept));
  g_assert_cmpuint (g_list_model_get_n_items (cs_analysis_get_calls (l->analysis)), ==,
                    kept > 0 ? 1 : 0);
  g_assert_true (has_finding (l->analysis, CS_FINDING_DAMAGED_CAPTURE));
}

static void
assert_clean (const HostileCapture *c, Load *l, guint records)
{
  const CsCaptureStats *stats;

  g_assert_no_error (l->error);
  g_assert_nonnull (l->analysis);
  stats = cs_analysis_get_stats (l->analysis);
  g_assert_cmpuint (stats->packets, ==, records);
  g_assert_cmpuint (stats->sip_messages, ==, hostile_sip_in_first (c, records));
  g_assert_cmpuint (stats->rtp_packets, ==, hostile_rtp_in_first (c, records));
}

static void
test_intact (Fixture *f, gconstpointer data)
{
  gboolean pcapng = GPOINTER_TO_INT (data);
  HostileCapture c = hostile_capture_build (pcapng, N_RTP);
  Load l = load_bytes (f, c.bytes->data, c.bytes->len);
  g_autoptr (CsCall) call = NULL;

  assert_clean (&c, &l, c.record_offsets->len);
  call = g_list_model_get_item (cs_analysis_get_calls (l.analysis), 0);
  g_assert_cmpstr (cs_call_get_call_id (call), ==, HOSTILE_CALL_ID);
  g_assert_cmpint (cs_call_get_state (call), ==, CS_CALL_STATE_COMPLETED);
  g_assert_cmpuint (g_list_model_get_n_items (cs_analysis_get_streams (l.analysis)), ==, 2);
  g_assert_false (has_finding (l.analysis, CS_FINDING_DAMAGED_CAPTURE));
  load_clear (&l);
  hostile_capture_clear (&c);
}

/* A file that stops exactly between records is a shorter, valid capture. */
static void
test_truncated_at_every_boundary (Fixture *f, gconstpointer data)
{
  HostileCapture c = hostile_capture_build (GPOINTER_TO_INT (data), N_RTP);

  for (guint k = 0; k <= c.record_offsets->len; k++)
    {
      Load l = load_bytes (f, c.bytes->data, hostile_record_offset (&c, k));

      assert_clean (&c, &l, k);
      load_clear (&l);
    }
  hostile_capture_clear (&c);
}

/* Every cut inside a record (header or data): damage at that record's start. */
static void
test_truncated_at_every_byte (Fixture *f, gconstpointer data)
{
  HostileCapture c = hostile_capture_build (GPOINTER_TO_INT (data), N_RTP);
  guint cuts = 0;

  for (guint k = 0; k < c.record_offsets->len; k++)
    {
      guint64 start = hostile_record_offset (&c, k), end = hostile_record_offset (&c, k + 1);

      for (guint64 cut = start + 1; cut < end; cut++)
        {
          Load l = load_bytes (f, c.bytes->data, cut);

          assert_damaged (&c, &l, k, start, CS_CAPTURE_ERROR_TRUNCATED);
          load_clear (&l);
          cuts++;
        }
    }
  g_assert_cmpuint (cuts, ==, c.bytes->len - hostile_record_offset (&c, 0) - c.record_offsets->len);
  hostile_capture_clear (&c);
}

static void
test_wrong_magic (Fixture *f, gconstpointer data)
{
  HostileCapture c = hostile_capture_build (GPOINTER_TO_INT (data), N_RTP);
  static const guint8 texts[][8] = { "GIF89a!", "\xd4\xc3\xb2\xa0xxx", "\x0a\x0d\x0d\x0b" };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      Load l;

      memcpy (c.bytes->data, texts[i], 4);
      l = load_bytes (f, c.bytes->data, c.bytes->len);
      if (l.analysis != NULL)
        {
          /* libwiretap's heuristic readers may take the bent bytes for another format (a
           * "GIF8" block type reads as IxVeriWave, as tshark reads it): then what it read
           * stops at the damage, named with the file */
          g_assert_true (CS_HAVE_WIRETAP);
          g_assert_error (l.error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_TRUNCATED);
          g_assert_nonnull (strstr (l.error->message, l.path));
          g_assert_nonnull (strstr (l.error->message, "libwiretap"));
          load_clear (&l);
          continue;
        }
      g_assert_error (l.error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_FORMAT);
      g_assert_nonnull (strstr (l.error->message, l.path));
      g_assert_nonnull (strstr (l.error->message, "magic"));
      load_clear (&l);
    }
  /* Too short to hold a magic number at all, and empty. */
  for (gsize len = 0; len < 4; len++)
    {
      Load l = load_bytes (f, (const guint8 *) "\xd4\xc3\xb2", len);

      g_assert_null (l.analysis);
      g_assert_error (l.error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_FORMAT);
      g_assert_nonnull (strstr (l.error->message, l.path));
      load_clear (&l);
    }
  hostile_capture_clear (&c);
}

static void
patch_u32le (GByteArray *b, guint64 at, guint32 v)
{
  b->data[at] = v & 0xff;
  b->data[at + 1] = (v >> 8) & 0xff;
  b->data[at + 2] = (v >> 16) & 0xff;
  b->data[at + 3] = v >> 24;
}

/* snaplen 0 in the file header (pcap) or interface (pcapng): records still count. */
static void
test_snaplen_zero (Fixture *f, gconstpointer data)
{
  gboolean pcapng = GPOINTER_TO_INT (data);
  HostileCapture c = hostile_capture_build (pcapng, N_RTP);
  Load l;

  /* pcap: header field at 16; pcapng: the IDB right after the 28-byte SHB, field at +12. */
  patch_u32le (c.bytes, pcapng ? 28 + 12 : 16, 0);
  l = load_bytes (f, c.bytes->data, c.bytes->len);
  assert_clean (&c, &l, c.record_offsets->len);
  load_clear (&l);
  hostile_capture_clear (&c);
}

/* caplen of 4 GiB − 1, 2 GiB and one more than the bytes left, in a pcap record. */
static void
test_pcap_caplen_lies (Fixture *f, gconstpointer data)
{
  const guint32 lies[] = { G_MAXUINT32, 0x80000000u, 0 /* remaining + 1, computed */ };

  for (guint k = 0; k < 3 + N_RTP; k += 3)
    for (guint i = 0; i < G_N_ELEMENTS (lies); i++)
      {
        HostileCapture c = hostile_capture_build (FALSE, N_RTP);
        guint64 at = hostile_record_offset (&c, k);
        guint32 caplen = lies[i] != 0 ? lies[i] : (guint32) (c.bytes->len - at - 16 + 1);
        Load l;

        patch_u32le (c.bytes, at + 8, caplen);
        l = load_bytes (f, c.bytes->data, c.bytes->len);
        assert_damaged (&c, &l, k, at,
                        lies[i] != 0 ? CS_CAPTURE_ERROR_CORRUPT : CS_CAPTURE_ERROR_TRUNCATED);
        load_clear (&l);
        hostile_capture_clear (&c);
      }
}

/* pcapng block total lengths that lie: 0 (a loop if trusted), too short,
 * unaligned, past the end of the file, and a trailing copy that differs. */
static void
test_pcapng_block_length_lies (Fixture *f, gconstpointer data)
{
  enum
  {
    LIE_ZERO,
    LIE_SHORT,
    LIE_UNALIGNED,
    LIE_PAST_END,
    LIE_TRAILER,
    N_LIES
  };

  for (guint k = 1; k < 5 + N_RTP; k += 4)
    for (guint lie = 0; lie < N_LIES; lie++)
      {
        HostileCapture c = hostile_capture_build (TRUE, N_RTP);
        guint64 at = hostile_record_offset (&c, k);
        guint32 len = (guint32) (hostile_record_offset (&c, k + 1) - at);
        Load l;

        switch (lie)
          {
          case LIE_ZERO:
            patch_u32le (c.bytes, at + 4, 0);
            break;
          case LIE_SHORT:
            patch_u32le (c.bytes, at + 4, 8);
            break;
          case LIE_UNALIGNED:
            patch_u32le (c.bytes, at + 4, len + 2);
            break;
          case LIE_PAST_END:
            patch_u32le (c.bytes, at + 4, (guint32) (c.bytes->len - at + 4));
            break;
          default:
            patch_u32le (c.bytes, at + len - 4, len + 4);
            break;
          }
        l = load_bytes (f, c.bytes->data, c.bytes->len);
        g_assert_nonnull (l.error);
        assert_damaged (&c, &l, k, at,
                        l.error->code == CS_CAPTURE_ERROR_TRUNCATED ? CS_CAPTURE_ERROR_TRUNCATED
                                                                    : CS_CAPTURE_ERROR_CORRUPT);
        load_clear (&l);
        hostile_capture_clear (&c);
      }
}

static void
test_pcapng_interface_out_of_range (Fixture *f, gconstpointer data)
{
  const guint32 ids[] = { 1, 7, G_MAXUINT32 };

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      HostileCapture c = hostile_capture_build (TRUE, N_RTP);
      guint k = 2 + i;
      guint64 at = hostile_record_offset (&c, k);
      Load l;

      patch_u32le (c.bytes, at + 8, ids[i]);
      l = load_bytes (f, c.bytes->data, c.bytes->len);
      assert_damaged (&c, &l, k, at, CS_CAPTURE_ERROR_CORRUPT);
      g_assert_nonnull (strstr (l.error->message, "interface"));
      load_clear (&l);
      hostile_capture_clear (&c);
    }
}

/* Timestamps stepping back (clock adjustments, merged captures): nothing is
 * lost and the capture's span is the true minimum and maximum. */
static void
test_timestamps_backwards (Fixture *f, gconstpointer data)
{
  HostileCapture c = hostile_capture_build (FALSE, N_RTP);
  const CsCaptureStats *stats;
  Load l;

  /* Record 3 (180) ten seconds in the past, record 6 (RTP) an hour back. */
  patch_u32le (c.bytes, hostile_record_offset (&c, 2), 1700000000 - 10);
  patch_u32le (c.bytes, hostile_record_offset (&c, 6), 1700000000 - 3600);
  l = load_bytes (f, c.bytes->data, c.bytes->len);
  assert_clean (&c, &l, c.record_offsets->len);
  stats = cs_analysis_get_stats (l.analysis);
  g_assert_cmpint (stats->first_ns, ==, (gint64) (1700000000 - 3600) * 1000000000 + 520000000);
  g_assert_cmpuint (g_list_model_get_n_items (cs_analysis_get_calls (l.analysis)), ==, 1);
  load_clear (&l);
  hostile_capture_clear (&c);
}

/* Records with no bytes at all between the real ones: counted, never decoded. */
static void
test_zero_length_packets (Fixture *f, gconstpointer data)
{
  gboolean pcapng = GPOINTER_TO_INT (data);
  HostileCapture c = hostile_capture_build (pcapng, N_RTP);
  GByteArray *with_empty = g_byte_array_new ();
  guint records = c.record_offsets->len;
  Load l;

  g_byte_array_append (with_empty, c.bytes->data, (guint) hostile_record_offset (&c, 0));
  for (guint k = 0; k < records; k++)
    {
      guint64 start = hostile_record_offset (&c, k), end = hostile_record_offset (&c, k + 1);
      GByteArray *empty = g_byte_array_new ();

      if (pcapng)
        {
          put_u32 (empty, FALSE, 0);
          put_u32 (empty, FALSE, 0);
          put_u32 (empty, FALSE, 0);
          put_u32 (empty, FALSE, 0);
          put_u32 (empty, FALSE, 0);
          ng_block (with_empty, FALSE, 6, empty);
        }
      else
        pcap_record (with_empty, FALSE, 1700000000, 0, 0, 0);
      g_byte_array_unref (empty);
      g_byte_array_append (with_empty, c.bytes->data + start, (guint) (end - start));
    }
  l = load_bytes (f, with_empty->data, with_empty->len);
  g_assert_no_error (l.error);
  g_assert_cmpuint (cs_analysis_get_stats (l.analysis)->packets, ==, 2 * records);
  g_assert_cmpuint (cs_analysis_get_stats (l.analysis)->sip_messages, ==, c.n_sip);
  g_assert_cmpuint (cs_analysis_get_stats (l.analysis)->rtp_packets, ==, c.n_rtp);
  g_assert_cmpuint (g_list_model_get_n_items (cs_analysis_get_streams (l.analysis)), ==, 2);
  load_clear (&l);
  g_byte_array_unref (with_empty);
  hostile_capture_clear (&c);
}

static const char *
dropped_state_text (CsAnalysis *analysis)
{
  GListModel *findings = cs_analysis_get_findings (analysis);

  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr (CsFinding) finding = g_list_model_get_item (findings, i);

      if (cs_finding_get_kind (finding) == CS_FINDING_DROPPED_STATE)
        return cs_finding_get_text (finding);
    }
  return NULL;
}

/* A call over its message cap keeps the first messages, still ends (the BYE
 * beyond the cap moves its state), and the finding says what was dropped. */
static void
test_messages_per_call_cap (Fixture *f, gconstpointer data)
{
  HostileCapture c = hostile_capture_build (FALSE, N_RTP);
  CsLimits limits = { 0 };
  g_autoptr (CsCall) call = NULL;
  Load l;

  limits.max_messages_per_call = 3;
  l = load_bytes_limited (f, c.bytes->data, c.bytes->len, &limits);
  g_assert_no_error (l.error);
  call = g_list_model_get_item (cs_analysis_get_calls (l.analysis), 0);
  g_assert_cmpuint (cs_call_get_n_messages (call), ==, 3);
  g_assert_cmpint (cs_call_get_state (call), ==, CS_CALL_STATE_COMPLETED);
  g_assert_cmpfloat (cs_call_get_setup_ms (call), >, 0);
  g_assert_cmpuint (cs_analysis_get_stats (l.analysis)->call_messages_dropped, ==, c.n_sip - 3);
  g_assert_cmpuint (cs_analysis_get_stats (l.analysis)->limits.max_messages_per_call, ==, 3);
  g_assert_nonnull (dropped_state_text (l.analysis));
  g_assert_nonnull (strstr (dropped_state_text (l.analysis), "4 SIP messages beyond 3 per call"));
  /* The defaults leave this call alone. */
  load_clear (&l);
  l = load_bytes (f, c.bytes->data, c.bytes->len);
  g_assert_null (dropped_state_text (l.analysis));
  load_clear (&l);
  hostile_capture_clear (&c);
}

/* The CLI contract: exit 3, the report covers what came before, stderr names
 * the file and the offset. */
static void
test_cli_reports_damage (Fixture *f, gconstpointer data)
{
  const char *cli = g_getenv ("CS_CLI");
  HostileCapture c = hostile_capture_build (FALSE, N_RTP);
  g_autofree char *path = g_build_filename (f->dir, "cut.pcap", NULL);
  guint64 start = hostile_record_offset (&c, 5);
  g_autofree char *out = NULL, *err = NULL, *where = NULL;
  g_autoptr (GError) error = NULL;
  int status = 0;
  char *argv[]
      = { (char *) cli, (char *) "report", path, (char *) "--format", (char *) "json", NULL };

  if (cli == NULL)
    {
      g_test_skip ("CS_CLI not set");
      hostile_capture_clear (&c);
      return;
    }
  g_assert_true (
      g_file_set_contents (path, (const char *) c.bytes->data, (gssize) start + 20, NULL));
  g_assert_true (
      g_spawn_sync (NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 3);
  where = g_strdup_printf ("byte offset %" G_GUINT64_FORMAT, start);
  g_assert_nonnull (strstr (err, path));
  g_assert_nonnull (strstr (err, where));
  g_assert_nonnull (strstr (out, HOSTILE_CALL_ID));
  hostile_capture_clear (&c);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(name, fn, data)                                                                        \
  g_test_add ("/hostile/" name, Fixture, GINT_TO_POINTER (data), fixture_set_up, fn,               \
              fixture_tear_down)
  ADD ("intact/pcap", test_intact, FALSE);
  ADD ("intact/pcapng", test_intact, TRUE);
  ADD ("truncated-at-boundary/pcap", test_truncated_at_every_boundary, FALSE);
  ADD ("truncated-at-boundary/pcapng", test_truncated_at_every_boundary, TRUE);
  ADD ("truncated-mid-record/pcap", test_truncated_at_every_byte, FALSE);
  ADD ("truncated-mid-record/pcapng", test_truncated_at_every_byte, TRUE);
  ADD ("wrong-magic/pcap", test_wrong_magic, FALSE);
  ADD ("wrong-magic/pcapng", test_wrong_magic, TRUE);
  ADD ("snaplen-zero/pcap", test_snaplen_zero, FALSE);
  ADD ("snaplen-zero/pcapng", test_snaplen_zero, TRUE);
  ADD ("caplen-lies/pcap", test_pcap_caplen_lies, FALSE);
  ADD ("block-length-lies/pcapng", test_pcapng_block_length_lies, TRUE);
  ADD ("interface-out-of-range/pcapng", test_pcapng_interface_out_of_range, TRUE);
  ADD ("timestamps-backwards/pcap", test_timestamps_backwards, FALSE);
  ADD ("zero-length-packets/pcap", test_zero_length_packets, FALSE);
  ADD ("zero-length-packets/pcapng", test_zero_length_packets, TRUE);
  ADD ("cli-damage", test_cli_reports_damage, FALSE);
  ADD ("messages-per-call-cap", test_messages_per_call_cap, FALSE);
#undef ADD
  return g_test_run ();
}
