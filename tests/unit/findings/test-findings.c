/* Finding texts and frames: the printf-free formatting gives glibc's bytes, frames are
 * sorted and kept whatever their number. */
#include <math.h>
#include <string.h>

#include "findings/cs-finding-groups.h"
#include "findings/cs-findings-detect.h"
#include "findings/cs-findings-private.h"
#include "calls/cs-stream-private.h"

/* Formats one finding's text and compares it with g_strdup_printf's. */
#define CHECK_TEXT(format, ...)                                                                    \
  G_STMT_START                                                                                     \
  {                                                                                                \
    g_autoptr (GPtrArray) out = g_ptr_array_new_with_free_func (g_object_unref);                   \
    g_autofree char *expected = g_strdup_printf (format, __VA_ARGS__);                             \
                                                                                                   \
    cs_findings_add (out, CS_FINDING_SHORT_CALL, CS_SEVERITY_INFO, 1, 0, NULL, format,             \
                     __VA_ARGS__);                                                                 \
    g_assert_cmpstr (cs_finding_get_text (g_ptr_array_index (out, 0)), ==, expected);              \
  }                                                                                                \
  G_STMT_END

static void
test_text_conversions (void)
{
  const char *nothing = NULL;
  char long_text[400];

  CHECK_TEXT ("%s from %s to %s was rejected: %u %s", "INVITE", "1001", "1002", 486u, "Busy");
  CHECK_TEXT ("%u SIP message%s retransmitted", 1u, " was");
  CHECK_TEXT ("%d of %u packets lost (100%%)", -7, 4294967295u);
  CHECK_TEXT ("%d %d %d", G_MININT, G_MAXINT, 0);
  CHECK_TEXT ("missing: %s", nothing);
  CHECK_TEXT ("%" G_GUINT64_FORMAT " messages", G_MAXUINT64);
  memset (long_text, 'x', sizeof long_text - 1);
  long_text[sizeof long_text - 1] = '\0';
  CHECK_TEXT ("long: %s", long_text);
}

static void
test_text_fixed_point (void)
{
  static const double values[]
      = { 0,     -0.0, 0.125, 0.375, 0.005,   1.005,    2.675, -0.001,  0.5,     1.5,    2.5,
          9.995, 1e14, 1e15,  1e300, -1e-300, 123.4567, 0.045, 1.0 / 3, 2.0 / 3, 1.25e-7 };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      CHECK_TEXT ("%.0f s", values[i]);
      CHECK_TEXT ("Call lasted only %.2f s after it was answered", values[i]);
      CHECK_TEXT ("%.1f then %.3f", values[i], values[i] / 7);
    }
  CHECK_TEXT ("%.2f %.1f", (double) INFINITY, (double) NAN);
  /* exact binary halves at every scale: the ties round to even, as glibc does */
  for (gint64 n = -4000; n <= 4000; n++)
    {
      CHECK_TEXT ("%.2f", n / 1024.0);
      CHECK_TEXT ("%.1f|%.3f", n / 64.0 + 1e-9 * (n % 3), n / 2048.0);
    }
}

static void
test_static_text_and_frames (void)
{
  g_autoptr (GPtrArray) out = g_ptr_array_new_with_free_func (g_object_unref);
  GArray *many = g_array_new (FALSE, FALSE, sizeof (guint32));
  const GArray *frames;

  for (guint32 f = 10; f > 0; f--)
    g_array_append_val (many, f);
  cs_findings_add (out, CS_FINDING_NO_MEDIA, CS_SEVERITY_ERROR, 1, 0, many, "No conversions");
  g_array_unref (many);
  cs_findings_add_two (out, CS_FINDING_SHORT_CALL, CS_SEVERITY_INFO, 1, 0, 9, 3, "%s", "two");
  cs_findings_add_two (out, CS_FINDING_SHORT_CALL, CS_SEVERITY_INFO, 1, 0, 5, 5, "same");
  cs_findings_add (out, CS_FINDING_DROPPED_STATE, CS_SEVERITY_INFO, 0, 0, NULL, "none");

  g_assert_cmpstr (cs_finding_get_text (g_ptr_array_index (out, 0)), ==, "No conversions");
  frames = cs_finding_get_frames (g_ptr_array_index (out, 0));
  g_assert_cmpuint (frames->len, ==, 10);
  for (guint i = 0; i < frames->len; i++)
    g_assert_cmpuint (g_array_index (frames, guint32, i), ==, i + 1);
  frames = cs_finding_get_frames (g_ptr_array_index (out, 1));
  g_assert_cmpuint (frames->len, ==, 2);
  g_assert_cmpuint (g_array_index (frames, guint32, 0), ==, 3);
  g_assert_cmpuint (g_array_index (frames, guint32, 1), ==, 9);
  g_assert_cmpuint (cs_finding_get_frames (g_ptr_array_index (out, 2))->len, ==, 1);
  g_assert_cmpuint (cs_finding_get_frames (g_ptr_array_index (out, 3))->len, ==, 0);
}

/* A stream losing every `lose_every`-th of 300 packets (0: none); a lossy one also gets
 * packet 10 twice (the same "1 sequence error" in every such stream). */
static CsStream *
lossy_stream (guint id, guint lose_every)
{
  GArray *packets = g_array_new (FALSE, TRUE, sizeof (CsRtpPacket));
  CsRtpClockMap clocks;
  CsEndpoint src = { 0 }, dst = { 0 };
  CsStream *stream;

  cs_rtp_clock_map_init_static (&clocks);
  for (guint i = 0; i < 300; i++)
    {
      CsRtpPacket p = { 0 };

      if (lose_every > 0 && i % lose_every == lose_every - 1)
        continue;
      p.arrival_ns = (G_GINT64_CONSTANT (1709287202) * 1000 + id + i * 20) * 1000000;
      p.frame = 1000 * id + 2 * i;
      p.timestamp = 160 * i;
      p.seq = (guint16) i;
      p.payload_len = 160;
      g_array_append_val (packets, p);
      if (lose_every > 0 && i == 10)
        {
          p.frame++;
          p.arrival_ns += 1000000;
          g_array_append_val (packets, p);
        }
    }
  g_assert_true (cs_addr_parse (&src.addr, "10.0.0.1"));
  g_assert_true (cs_addr_parse (&dst.addr, "10.0.0.2"));
  src.port = (guint16) (4000 + 2 * id);
  dst.port = 5000;
  stream = cs_stream_new (id, &src, &dst, id, 0, packets, &clocks, NULL);
  cs_stream_measure (stream);
  return stream;
}

/* Streams are judged in blocks: every stream's findings come out, in the same order on
 * one thread and on two. */
static void
test_detect_stream_blocks (void)
{
  g_autoptr (GPtrArray) calls = g_ptr_array_new ();
  g_autoptr (GPtrArray) streams = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GPtrArray) one = NULL, two = NULL;
  CsCaptureStats stats = { 0 };
  CsFindingThresholds t;
  guint per_stream[20] = { 0 };

  cs_finding_thresholds_init (&t);
  for (guint id = 1; id <= G_N_ELEMENTS (per_stream); id++)
    g_ptr_array_add (streams, lossy_stream (id, id % 3 == 0 ? 0 : 4));
  one = cs_findings_detect_all (calls, streams, &stats, NULL, NULL, &t, 1);
  two = cs_findings_detect_all (calls, streams, &stats, NULL, NULL, &t, 2);
  g_assert_cmpuint (one->len, ==, two->len);
  for (guint i = 0; i < one->len; i++)
    {
      CsFinding *a = g_ptr_array_index (one, i), *b = g_ptr_array_index (two, i);
      guint id = cs_finding_get_stream_id (a);

      g_assert_true (cs_finding_get_kind (a) == cs_finding_get_kind (b));
      g_assert_cmpuint (id, ==, cs_finding_get_stream_id (b));
      g_assert_cmpstr (cs_finding_get_text (a), ==, cs_finding_get_text (b));
      if (id >= 1 && id <= G_N_ELEMENTS (per_stream))
        per_stream[id - 1]++;
    }
  for (guint id = 1; id <= G_N_ELEMENTS (per_stream); id++)
    if (id % 3 == 0)
      g_assert_cmpuint (per_stream[id - 1], ==, 0);
    else
      g_assert_cmpuint (per_stream[id - 1], >, 0);
  /* streams 1…8 are judged in one block: their texts that come out the same are one
   * string (streams losing alike say the same) */
  {
    guint shared = 0;

    for (guint i = 0; i < one->len; i++)
      for (guint j = i + 1; j < one->len; j++)
        {
          CsFinding *a = g_ptr_array_index (one, i), *b = g_ptr_array_index (one, j);

          if (cs_finding_get_stream_id (a) > 8 || cs_finding_get_stream_id (b) > 8
              || cs_finding_get_kind (a) != cs_finding_get_kind (b)
              || g_strcmp0 (cs_finding_get_text (a), cs_finding_get_text (b)) != 0)
            continue;
          shared++;
          g_assert_true (cs_finding_get_text (a) == cs_finding_get_text (b));
        }
    g_assert_cmpuint (shared, >, 0);
  }
}

/* One lost packet is one loss finding, and no sequence error; a packet received twice is
 * one sequence error, said in English. Texts derived by hand from the packets. */
static void
test_loss_reported_once (void)
{
  g_autoptr (GPtrArray) out = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (CsStream) lossy = lossy_stream (1, 0);
  CsFindingThresholds t;
  GArray *packets = g_array_new (FALSE, TRUE, sizeof (CsRtpPacket));
  CsRtpClockMap clocks;
  CsEndpoint src = { 0 }, dst = { 0 };
  CsStream *stream;

  cs_finding_thresholds_init (&t);
  cs_rtp_clock_map_init_static (&clocks);
  /* 100 packets 20 ms apart, sequence 50 missing */
  for (guint i = 0; i < 100; i++)
    {
      CsRtpPacket p = { 0 };

      if (i == 50)
        continue;
      p.arrival_ns = (G_GINT64_CONSTANT (1709287202) * 1000 + i * 20) * 1000000;
      p.frame = 1 + i;
      p.timestamp = 160 * i;
      p.seq = (guint16) i;
      p.payload_len = 160;
      g_array_append_val (packets, p);
    }
  g_assert_true (cs_addr_parse (&src.addr, "10.0.0.1"));
  g_assert_true (cs_addr_parse (&dst.addr, "10.0.0.2"));
  src.port = 4000;
  dst.port = 5000;
  stream = cs_stream_new (1, &src, &dst, 1, 0, packets, &clocks, NULL);
  cs_stream_measure (stream);
  cs_findings_detect_stream (stream, &t, out);
  g_assert_cmpuint (out->len, ==, 1);
  g_assert_true (cs_finding_get_kind (g_ptr_array_index (out, 0)) == CS_FINDING_LOSS_BURST);
  g_assert_cmpstr (cs_finding_get_text (g_ptr_array_index (out, 0)), ==,
                   "1 of 100 packets lost (1.0%) in 1 gap; the largest, 1 packet, ends at "
                   "frame 52");
  g_object_unref (stream);

  /* no loss, packet 10 twice: one sequence error */
  g_ptr_array_set_size (out, 0);
  g_object_unref (lossy);
  lossy = lossy_stream (2, 0);
  cs_findings_detect_stream (lossy, &t, out);
  g_assert_cmpuint (out->len, ==, 0);
  g_clear_object (&lossy);
  lossy = lossy_stream (3, 1000); /* loses nothing of 300 packets, but sends 10 twice */
  cs_findings_detect_stream (lossy, &t, out);
  g_assert_cmpuint (out->len, ==, 1);
  g_assert_true (cs_finding_get_kind (g_ptr_array_index (out, 0)) == CS_FINDING_SEQUENCE_ERRORS);
  g_assert_cmpstr (cs_finding_get_text (g_ptr_array_index (out, 0)), ==,
                   "1 sequence error: 1 duplicate, 0 out of order");
}

/* Groups: one per kind, severity and text, in order of the first; calls as ranges */
static void
test_groups (void)
{
  static const guint calls[] = { 9, 1, 2, 3, 7, 10, 3, 4 };
  g_autoptr (GListStore) store = g_list_store_new (CS_TYPE_FINDING);
  g_autoptr (GPtrArray) groups = NULL;
  g_autofree char *text = NULL, *capped = NULL;
  const CsFindingGroup *group;

  for (guint i = 0; i < G_N_ELEMENTS (calls); i++)
    {
      g_autoptr (CsFinding) f
          = cs_finding_new (CS_FINDING_NO_MEDIA, CS_SEVERITY_ERROR, calls[i], 0, NULL, "no audio");
      g_list_store_append (store, f);
    }
  {
    g_autoptr (CsFinding) other_text
        = cs_finding_new (CS_FINDING_NO_MEDIA, CS_SEVERITY_ERROR, 5, 0, NULL, "other");
    g_autoptr (CsFinding) other_severity
        = cs_finding_new (CS_FINDING_NO_MEDIA, CS_SEVERITY_WARNING, 6, 0, NULL, "no audio");
    g_autoptr (CsFinding) other_kind
        = cs_finding_new (CS_FINDING_LATE_MEDIA, CS_SEVERITY_ERROR, 6, 0, NULL, "no audio");

    g_list_store_insert (store, 2, other_text);
    g_list_store_append (store, other_severity);
    g_list_store_append (store, other_kind);
  }
  groups = cs_finding_groups_new (G_LIST_MODEL (store));
  g_assert_cmpuint (groups->len, ==, 4);
  group = g_ptr_array_index (groups, 0);
  g_assert_cmpuint (group->members->len, ==, G_N_ELEMENTS (calls));
  g_assert_cmpuint (cs_finding_get_call_number (group->first), ==, 9);
  g_assert_cmpstr (cs_finding_get_text (((CsFindingGroup *) g_ptr_array_index (groups, 1))->first),
                   ==, "other");
  /* 1 2 3 3 4 7 9 10: call 3 counts once */
  text = cs_finding_group_calls_text (group, 12);
  g_assert_cmpstr (text, ==, "1–4, 7, 9–10");
  capped = cs_finding_group_calls_text (group, 1);
  g_assert_cmpstr (capped, ==, "1–4 … (3 more)");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/findings/text-conversions", test_text_conversions);
  g_test_add_func ("/findings/text-fixed-point", test_text_fixed_point);
  g_test_add_func ("/findings/static-text-and-frames", test_static_text_and_frames);
  g_test_add_func ("/findings/detect-stream-blocks", test_detect_stream_blocks);
  g_test_add_func ("/findings/loss-reported-once", test_loss_reported_once);
  g_test_add_func ("/findings/groups", test_groups);
  return g_test_run ();
}
