/* test-capture-set.c — several files merged by time, damage across files, BPF marks */
#include "capture/cs-capture-set.h"
#include "base/cs-error.h"

#include "capture-builder.h"

#include <glib/gstdio.h>
#include <string.h>

static char *tmp_dir;

static CsFrame
frame_at (CsCaptureSet *set, guint32 number)
{
  CsFrame frame = { 0 };

  g_assert_true (cs_capture_set_get_frame (set, number, &frame));
  return frame;
}

static const guint8 *
frame_bytes (CsCaptureSet *set, guint32 number)
{
  CsFrame frame;

  return cs_capture_set_read_frame (set, number, &frame);
}

static void
pcap_header_le (GByteArray *b, guint32 linktype)
{
  pcap_header (b, FALSE, FALSE, 65535, linktype);
}

/* A record whose one payload byte tags it, for following it through the merge. */
static void
tagged_record (GByteArray *b, guint32 sec, guint8 tag)
{
  pcap_record_data (b, FALSE, sec, 0, &tag, 1);
}

/* IPv4/UDP (or TCP when tcp) packet, with an Ethernet header when ethernet. */
static guint
build_ip_packet (guint8 *out, gboolean ethernet, gboolean tcp, guint16 sport, guint16 dport)
{
  guint n = 0;
  guint l4_len = tcp ? 20 : 8 + 4;

  if (ethernet)
    {
      static const guint8 eth[14] = { 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 6, 0x08, 0x00 };

      memcpy (out, eth, sizeof eth);
      n = sizeof eth;
    }
  memset (out + n, 0, 20 + l4_len);
  out[n + 0] = 0x45;
  out[n + 2] = (guint8) ((20 + l4_len) >> 8);
  out[n + 3] = (guint8) (20 + l4_len);
  out[n + 8] = 64;
  out[n + 9] = tcp ? 6 : 17;
  memcpy (out + n + 12, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
  n += 20;
  out[n + 0] = sport >> 8;
  out[n + 1] = sport & 0xff;
  out[n + 2] = dport >> 8;
  out[n + 3] = dport & 0xff;
  if (tcp)
    out[n + 12] = 0x50;
  else
    out[n + 5] = (guint8) l4_len;
  return n + l4_len;
}

static char *
write_file (const char *name, GByteArray *b)
{
  return write_capture_file (tmp_dir, name, b);
}

static void
test_merge_by_time (void)
{
  GByteArray *a = g_byte_array_new (), *b = g_byte_array_new ();
  CsCaptureSet *set = cs_capture_set_new ();
  GError *error = NULL;
  CsFrame frame;
  char *path_a, *path_b;
  /* expected order: ties at second 3 keep file order; file b's 4 before 5 */
  static const guint8 expected_tags[] = { 0xa1, 0xb2, 0xa3, 0xb3, 0xb4, 0xa5 };
  static const guint16 expected_files[] = { 0, 1, 0, 1, 1, 0 };

  pcap_header_le (a, 1);
  tagged_record (a, 1, 0xa1);
  tagged_record (a, 3, 0xa3);
  tagged_record (a, 5, 0xa5);
  pcap_header_le (b, 1);
  tagged_record (b, 2, 0xb2);
  tagged_record (b, 3, 0xb3);
  tagged_record (b, 4, 0xb4);
  path_a = write_file ("a.pcap", a);
  path_b = write_file ("b.pcap", b);

  g_assert_true (cs_capture_set_add_file (set, path_a, &error));
  g_assert_true (cs_capture_set_add_file (set, path_b, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (cs_capture_set_get_n_files (set), ==, 2);
  g_assert_cmpstr (cs_capture_get_path (cs_capture_set_get_file (set, 1)), ==, path_b);
  g_assert_cmpuint (cs_capture_set_get_total_bytes (set), ==, a->len + b->len);

  g_assert_true (cs_capture_set_index (set, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (cs_capture_set_get_n_frames (set), ==, 6);
  g_assert_false (cs_capture_set_get_frame (set, 0, &frame));
  g_assert_false (cs_capture_set_get_frame (set, 7, &frame));
  g_assert_null (cs_capture_set_read_frame (set, 7, &frame));
  for (guint32 n = 1; n <= 6; n++)
    {
      const guint8 *data = cs_capture_set_read_frame (set, n, &frame);

      g_assert_cmpuint (frame.file, ==, expected_files[n - 1]);
      g_assert_nonnull (data);
      g_assert_cmpuint (data[0], ==, expected_tags[n - 1]);
    }
  g_assert_cmpint (frame_at (set, 2).ts_ns, ==, G_GINT64_CONSTANT (2000000000));

  /* indexing again gives the same frames, not twice as many */
  g_assert_true (cs_capture_set_index (set, NULL, NULL, NULL, &error));
  g_assert_cmpuint (cs_capture_set_get_n_frames (set), ==, 6);

  cs_capture_set_free (set);
  g_byte_array_unref (a);
  g_byte_array_unref (b);
  g_free (path_a);
  g_free (path_b);
}

/* Out-of-order records inside one file keep their place, as mergecap does. */
static void
test_merge_keeps_record_order (void)
{
  GByteArray *a = g_byte_array_new (), *b = g_byte_array_new ();
  CsCaptureSet *set = cs_capture_set_new ();
  GError *error = NULL;
  char *path_a, *path_b;
  static const guint8 expected_tags[] = { 0xa5, 0xa1, 0xb6 };

  pcap_header_le (a, 1);
  tagged_record (a, 5, 0xa5);
  tagged_record (a, 1, 0xa1);
  pcap_header_le (b, 1);
  tagged_record (b, 6, 0xb6);
  path_a = write_file ("unordered-a.pcap", a);
  path_b = write_file ("unordered-b.pcap", b);
  g_assert_true (cs_capture_set_add_file (set, path_a, &error));
  g_assert_true (cs_capture_set_add_file (set, path_b, &error));
  g_assert_true (cs_capture_set_index (set, NULL, NULL, NULL, &error));
  g_assert_cmpuint (cs_capture_set_get_n_frames (set), ==, 3);
  for (guint32 n = 1; n <= 3; n++)
    g_assert_cmpuint (frame_bytes (set, n)[0], ==, expected_tags[n - 1]);

  cs_capture_set_free (set);
  g_byte_array_unref (a);
  g_byte_array_unref (b);
  g_free (path_a);
  g_free (path_b);
}

static void
record_progress (guint64 done, guint64 total, gpointer user_data)
{
  guint64 *last = user_data;

  g_assert_cmpuint (done, >=, last[0]);
  g_assert_cmpuint (done, <=, total);
  last[0] = done;
  last[1] = total;
}

/* Damage in the first file: the error names it, and every good frame of both files stays. */
static void
test_damage_keeps_frames (void)
{
  GByteArray *a = g_byte_array_new (), *b = g_byte_array_new ();
  CsCaptureSet *set = cs_capture_set_new ();
  GError *error = NULL;
  guint64 progress[2] = { 0, 0 };
  char *path_a, *path_b, *where;
  guint64 cut_at;

  pcap_header_le (a, 1);
  tagged_record (a, 1, 0xa1);
  tagged_record (a, 4, 0xa4);
  cut_at = a->len;
  tagged_record (a, 6, 0xa6);
  g_byte_array_set_size (a, a->len - 3);
  pcap_header_le (b, 1);
  tagged_record (b, 2, 0xb2);
  tagged_record (b, 5, 0xb5);
  path_a = write_file ("damaged-a.pcap", a);
  path_b = write_file ("good-b.pcap", b);
  g_assert_true (cs_capture_set_add_file (set, path_a, &error));
  g_assert_true (cs_capture_set_add_file (set, path_b, &error));

  g_assert_false (cs_capture_set_index (set, NULL, record_progress, progress, &error));
  g_assert_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_TRUNCATED);
  g_assert_true (g_str_has_prefix (error->message, path_a));
  where = g_strdup_printf ("byte offset %" G_GUINT64_FORMAT " ", cut_at);
  g_assert_nonnull (strstr (error->message, where));
  g_assert_cmpuint (cs_capture_set_get_n_frames (set), ==, 4);
  g_assert_cmpuint (frame_bytes (set, 1)[0], ==, 0xa1);
  g_assert_cmpuint (frame_bytes (set, 2)[0], ==, 0xb2);
  g_assert_cmpuint (frame_bytes (set, 3)[0], ==, 0xa4);
  g_assert_cmpuint (frame_bytes (set, 4)[0], ==, 0xb5);
  /* progress ends on all bytes of both files */
  g_assert_cmpuint (progress[0], ==, a->len + b->len);
  g_assert_cmpuint (progress[1], ==, a->len + b->len);

  g_free (where);
  g_clear_error (&error);
  cs_capture_set_free (set);
  g_byte_array_unref (a);
  g_byte_array_unref (b);
  g_free (path_a);
  g_free (path_b);
}

static void
test_add_file_errors (void)
{
  CsCaptureSet *set = cs_capture_set_new ();
  GByteArray *empty = g_byte_array_new ();
  GError *error = NULL;
  char *path = write_file ("empty.pcap", empty);

  g_assert_false (cs_capture_set_add_file (set, path, &error));
  g_assert_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_FORMAT);
  g_assert_cmpuint (cs_capture_set_get_n_files (set), ==, 0);
  g_clear_error (&error);

  cs_capture_set_free (set);
  g_byte_array_unref (empty);
  g_free (path);
}

/* Ethernet file: UDP 5060, TCP 5060, UDP 4000; raw IP file: UDP 5060, UDP 9. */
static CsCaptureSet *
make_filter_set (void)
{
  GByteArray *eth = g_byte_array_new (), *raw = g_byte_array_new ();
  CsCaptureSet *set = cs_capture_set_new ();
  GError *error = NULL;
  guint8 packet[128];
  char *path_eth, *path_raw;

  pcap_header_le (eth, 1);
  pcap_record_data (eth, FALSE, 1, 0, packet, build_ip_packet (packet, TRUE, FALSE, 5060, 5060));
  pcap_record_data (eth, FALSE, 3, 0, packet, build_ip_packet (packet, TRUE, TRUE, 40000, 5060));
  pcap_record_data (eth, FALSE, 5, 0, packet, build_ip_packet (packet, TRUE, FALSE, 4000, 4002));
  pcap_header_le (raw, 101);
  pcap_record_data (raw, FALSE, 2, 0, packet, build_ip_packet (packet, FALSE, FALSE, 5060, 5062));
  pcap_record_data (raw, FALSE, 4, 0, packet, build_ip_packet (packet, FALSE, FALSE, 9, 9));
  path_eth = write_file ("eth.pcap", eth);
  path_raw = write_file ("raw.pcap", raw);
  g_assert_true (cs_capture_set_add_file (set, path_eth, &error));
  g_assert_true (cs_capture_set_add_file (set, path_raw, &error));
  g_assert_true (cs_capture_set_index (set, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (cs_capture_set_get_n_frames (set), ==, 5);

  g_byte_array_unref (eth);
  g_byte_array_unref (raw);
  g_free (path_eth);
  g_free (path_raw);
  return set;
}

/* Frames 1..5 by time: eth UDP 5060, raw UDP 5060, eth TCP 5060, raw UDP 9, eth UDP 4000. */
static void
assert_marks (CsCaptureSet *set, const gboolean kept[5])
{
  for (guint32 n = 1; n <= 5; n++)
    {
      CsFrame frame = frame_at (set, n);

      g_assert_cmpint ((frame.flags & CS_FRAME_FILTERED_OUT) == 0, ==, kept[n - 1]);
    }
}

static void
test_bpf_filter (void)
{
  CsCaptureSet *set = make_filter_set ();
  GError *error = NULL;
  static const gboolean udp_5060[5] = { TRUE, TRUE, FALSE, FALSE, FALSE };
  static const gboolean port_5060[5] = { TRUE, TRUE, TRUE, FALSE, FALSE };
  static const gboolean all[5] = { TRUE, TRUE, TRUE, TRUE, TRUE };
  static const gboolean ether_only[5] = { TRUE, FALSE, TRUE, FALSE, TRUE };

  g_assert_cmpuint (frame_at (set, 2).linktype, ==, 101);

  g_assert_true (cs_capture_set_apply_filter (set, "udp port 5060", &error));
  g_assert_no_error (error);
  assert_marks (set, udp_5060);

  g_assert_true (cs_capture_set_apply_filter (set, "port 5060", &error));
  assert_marks (set, port_5060);

  /* an expression that only makes sense on Ethernet leaves raw IP frames out */
  g_assert_true (cs_capture_set_apply_filter (set, "ether src 00:01:02:03:04:06", &error));
  g_assert_no_error (error);
  assert_marks (set, ether_only);

  /* no filter clears every mark; frame numbers never change */
  g_assert_true (cs_capture_set_apply_filter (set, NULL, &error));
  assert_marks (set, all);
  g_assert_cmpuint (cs_capture_set_get_n_frames (set), ==, 5);

  cs_capture_set_free (set);
}

static void
test_bad_bpf (void)
{
  CsCaptureSet *set = make_filter_set ();
  GError *error = NULL;
  static const gboolean udp_5060[5] = { TRUE, TRUE, FALSE, FALSE, FALSE };

  g_assert_true (cs_capture_set_apply_filter (set, "udp port 5060", &error));
  g_assert_false (cs_capture_set_apply_filter (set, "udp porrt 5060", &error));
  g_assert_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_FILTER);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "porrt"));
  g_assert_nonnull (strstr (error->message, "syntax error"));
  g_clear_error (&error);
  /* the previous marks stay */
  assert_marks (set, udp_5060);

  /* a bad expression on an empty set still fails */
  cs_capture_set_free (set);
  set = cs_capture_set_new ();
  g_assert_false (cs_capture_set_apply_filter (set, "port port", &error));
  g_assert_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_FILTER);
  g_clear_error (&error);
  cs_capture_set_free (set);
}

static void
test_samples_merged (void)
{
  static const char *names[] = { "sip-rtp-g711.pcap", "sip-rtp-g729a.pcap", "invite-opus-bye.pcap",
                                 "sip-488-codec-reject.pcapng" };
  static const guint counts[] = { 852, 433, 311, 13 };
  const char *dir = g_getenv ("CS_SAMPLES_DIR");
  CsCaptureSet *set;
  GError *error = NULL;
  guint expected = 0;
  CsFrameIter iter;
  CsFrame frame, previous = { 0 };
  const guint8 *data;
  guint per_file[G_N_ELEMENTS (names)] = { 0 };

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("CS_SAMPLES_DIR not set or missing");
      return;
    }
  set = cs_capture_set_new ();
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      char *path = g_build_filename (dir, names[i], NULL);

      g_assert_true (cs_capture_set_add_file (set, path, &error));
      g_assert_no_error (error);
      expected += counts[i];
      g_free (path);
    }
  g_assert_true (cs_capture_set_index (set, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (cs_capture_set_get_n_frames (set), ==, expected);

  /* the files do not overlap in time: g711 (2016) starts, invite-opus-bye (2026) ends */
  g_assert_cmpint (frame_at (set, 1).ts_ns, ==, G_GINT64_CONSTANT (1480171979666393000));
  g_assert_cmpint (frame_at (set, expected).ts_ns, ==, G_GINT64_CONSTANT (1782336738426559000));
  cs_capture_set_iter_init (set, 0, &iter);
  for (guint i = 0; i < expected; i++)
    {
      g_assert_true (cs_frame_iter_next (&iter, &frame, &data));
      if (i > 0)
        g_assert_cmpint (previous.ts_ns, <=, frame.ts_ns);
      per_file[frame.file]++;
      g_assert_nonnull (data);
      previous = frame;
    }
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_cmpuint (per_file[i], ==, counts[i]);

  g_assert_true (cs_capture_set_apply_filter (set, "udp port 5060", &error));
  g_assert_no_error (error);
  cs_capture_set_free (set);
}

/* One pcap file keeps anchors only: every frame must read back the same whatever the
 * entry point (numbers around the 64-frame anchors, an iterator from the middle), and
 * damage keeps the frames before it. */
static void
test_single_file_anchors (void)
{
  GByteArray *b = g_byte_array_new ();
  CsCaptureSet *set = cs_capture_set_new ();
  GError *error = NULL;
  CsFrameIter iter;
  CsFrame frame;
  const guint8 *data;
  gint64 first_ns, last_ns;
  char *path;
  const guint n = 200;

  pcap_header_le (b, 1);
  /* time steps backwards once (frame 150) and the records grow: offsets are irregular */
  for (guint i = 0; i < n; i++)
    {
      guint8 payload[40];

      memset (payload, (guint8) i, sizeof payload);
      pcap_record_data (b, FALSE, i == 149 ? 5 : 100 + i, 0, payload, 1 + i % 40);
    }
  path = write_file ("anchors.pcap", b);
  g_assert_true (cs_capture_set_add_file (set, path, &error));
  g_assert_true (cs_capture_set_index (set, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (cs_capture_set_get_n_frames (set), ==, n);
  cs_capture_set_get_time_range (set, &first_ns, &last_ns);
  g_assert_cmpint (first_ns, ==, G_GINT64_CONSTANT (5000000000));
  g_assert_cmpint (last_ns, ==, (gint64) (100 + n - 1) * 1000000000);

  g_assert_false (cs_capture_set_get_frame (set, 0, &frame));
  g_assert_false (cs_capture_set_get_frame (set, n + 1, &frame));
  for (guint32 number = 1; number <= n; number++)
    {
      frame = frame_at (set, number);
      g_assert_cmpuint (frame.caplen, ==, 1 + (number - 1) % 40);
      g_assert_cmpuint (frame.linktype, ==, 1);
      g_assert_cmpuint (frame_bytes (set, number)[0], ==, (guint8) (number - 1));
    }
  cs_capture_set_iter_init (set, 130, &iter);
  for (guint i = 130; i < n; i++)
    {
      g_assert_true (cs_frame_iter_next (&iter, &frame, &data));
      g_assert_cmpuint (data[0], ==, (guint8) i);
    }
  g_assert_false (cs_frame_iter_next (&iter, &frame, &data));
  g_free (path);

  /* cut inside frame 100's bytes: 99 frames stay readable */
  g_byte_array_set_size (b, (guint) frame_at (set, 100).offset + 1);
  cs_capture_set_free (set);
  set = cs_capture_set_new ();
  path = write_file ("anchors-cut.pcap", b);
  g_assert_true (cs_capture_set_add_file (set, path, &error));
  g_assert_false (cs_capture_set_index (set, NULL, NULL, NULL, &error));
  g_assert_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_TRUNCATED);
  g_clear_error (&error);
  g_assert_cmpuint (cs_capture_set_get_n_frames (set), ==, 99);
  g_assert_cmpuint (frame_bytes (set, 99)[0], ==, 98);
  g_assert_null (frame_bytes (set, 100));

  cs_capture_set_free (set);
  g_byte_array_unref (b);
  g_free (path);
}

typedef struct
{
  CsCaptureSet *set;
  guint calls;
  guint32 last_n_frames;
} WalkProgress;

/* The loader plans chunks from the progress callback: the frame count must be current. */
static void
walk_progress (guint64 done, guint64 total, gpointer user_data)
{
  WalkProgress *progress = user_data;
  guint32 n_frames = cs_capture_set_get_n_frames (progress->set);

  g_assert_cmpuint (done, <=, total);
  g_assert_cmpuint (n_frames, >=, progress->last_n_frames);
  if (done < total)
    g_assert_cmpuint (n_frames, ==, 8192 * (progress->calls + 1));
  progress->last_n_frames = n_frames;
  progress->calls++;
}

static CsCaptureSet *
index_walk_file (GByteArray *b, const char *name, gboolean expect_ok, GError **error,
                 WalkProgress *progress)
{
  g_autofree char *path = write_file (name, b);
  CsCaptureSet *set = cs_capture_set_new ();

  g_assert_true (cs_capture_set_add_file (set, path, NULL));
  progress->set = set;
  progress->calls = 0;
  progress->last_n_frames = 0;
  g_assert_true (cs_capture_set_index (set, NULL, walk_progress, progress, error) == expect_ok);
  return set;
}

/* The anchors walk of one pcap file in either byte order and time unit: times, lengths,
 * the frame count the progress callback sees (every 8192 records: the loader plans chunks
 * there) and where a corrupt or cut record stops it. */
static void
test_single_file_anchors_walk (void)
{
  const guint n = 70000;

  for (guint variant = 0; variant < 4; variant++)
    {
      gboolean be = (variant & 1) != 0, ns = (variant & 2) != 0;
      g_autoptr (GByteArray) b = g_byte_array_new ();
      WalkProgress progress;
      GError *error = NULL;
      CsCaptureSet *set;
      gint64 first_ns, last_ns;
      guint corrupt_at;

      pcap_header (b, be, ns, 256, 1);
      for (guint i = 0; i < n; i++)
        {
          guint8 payload[64];
          /* one step back in time (frame 50001): the earliest time is not the first */
          guint32 sec = i == 50000 ? 7 : 1000 + i / 10;

          memset (payload, (guint8) i, sizeof payload);
          pcap_record_data (b, be, sec, (i % 10) * (ns ? 100000000u : 100000u), payload,
                            1 + i % 64);
        }
      set = index_walk_file (b, "walk.pcap", TRUE, &error, &progress);
      g_assert_no_error (error);
      g_assert_cmpuint (cs_capture_set_get_n_frames (set), ==, n);
      g_assert_cmpuint (progress.last_n_frames, ==, n);
      g_assert_cmpuint (progress.calls, ==, n / 8192 + 1); /* every 8192 records and at the end */
      cs_capture_set_get_time_range (set, &first_ns, &last_ns);
      g_assert_cmpint (first_ns, ==, G_GINT64_CONSTANT (7000000000));
      g_assert_cmpint (last_ns, ==, (gint64) (1000 + (n - 1) / 10) * 1000000000 + 900000000);
      for (guint32 number = 1; number <= n; number += 997)
        {
          CsFrame frame = frame_at (set, number);
          guint i = number - 1;

          g_assert_cmpuint (frame.caplen, ==, 1 + i % 64);
          g_assert_cmpint (frame.ts_ns, ==,
                           (gint64) (i == 50000 ? 7 : 1000 + i / 10) * 1000000000
                               + (i % 10) * 100000000);
          g_assert_cmpuint (frame_bytes (set, number)[0], ==, (guint8) i);
        }
      /* record 4100's captured length over the snap length: 4099 frames stay */
      corrupt_at = (guint) frame_at (set, 4100).offset - 8;
      cs_capture_set_free (set);
      if (be)
        {
          b->data[corrupt_at] = 0;
          b->data[corrupt_at + 1] = 0;
          b->data[corrupt_at + 2] = 1;
          b->data[corrupt_at + 3] = 1;
        }
      else
        {
          b->data[corrupt_at] = 1;
          b->data[corrupt_at + 1] = 1;
          b->data[corrupt_at + 2] = 0;
          b->data[corrupt_at + 3] = 0;
        }
      set = index_walk_file (b, "walk-corrupt.pcap", FALSE, &error, &progress);
      g_assert_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_CORRUPT);
      g_clear_error (&error);
      g_assert_cmpuint (cs_capture_set_get_n_frames (set), ==, 4099);
      g_assert_cmpuint (frame_bytes (set, 4099)[0], ==, (guint8) 4098);
      cs_capture_set_free (set);

      /* a cut record header after frame 4099 */
      g_byte_array_set_size (b, corrupt_at - 8 + 10);
      set = index_walk_file (b, "walk-cut.pcap", FALSE, &error, &progress);
      g_assert_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_TRUNCATED);
      g_clear_error (&error);
      g_assert_cmpuint (cs_capture_set_get_n_frames (set), ==, 4099);
      cs_capture_set_free (set);
    }
}

/* A single pcapng file is walked from its anchors too: sections with either byte order,
 * interfaces defined between packets, comments, simple packet blocks (no timestamp of
 * their own) must read back as the frame array of cs_capture_index has them. */
static void
test_single_pcapng_anchors (void)
{
  GByteArray *b = g_byte_array_new (), *spb = g_byte_array_new ();
  CsCaptureSet *set = cs_capture_set_new ();
  GArray *expected = g_array_new (FALSE, FALSE, sizeof (CsFrame));
  GError *error = NULL;
  CsFrameIter iter;
  char *path;

  for (guint section = 0; section < 3; section++)
    {
      gboolean be = section == 1;

      ng_shb (b, be, NULL);
      ng_idb (b, be, 1, 0, -1, 0);
      for (guint i = 0; i < 90; i++)
        {
          if (i == 40)
            ng_idb (b, be, 101, 64, 9, 5); /* interface 1 from here on */
          if (i % 17 == 5)
            {
              /* simple packet block: 12 bytes of origlen 30, on interface 0 */
              g_byte_array_set_size (spb, 0);
              put_u32 (spb, be, 30);
              put_zeros (spb, 12);
              ng_block (b, be, 3, spb);
              continue;
            }
          ng_epb (b, be, i >= 40 && i % 2 == 0 ? 1 : 0,
                  G_GUINT64_CONSTANT (1700000000000000) + section * 1000000 + i, 1 + i % 70, 100,
                  i % 13 == 0 ? "note" : NULL);
        }
    }
  path = write_file ("anchors.pcapng", b);
  g_assert_true (cs_capture_set_add_file (set, path, &error));
  g_assert_true (
      cs_capture_index (cs_capture_set_get_file (set, 0), 0, expected, NULL, NULL, NULL, &error));
  g_assert_true (cs_capture_set_index (set, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (cs_capture_set_get_n_frames (set), ==, expected->len);
  g_assert_cmpuint (expected->len, ==, 270);
  for (guint32 number = 1; number <= expected->len; number++)
    {
      CsFrame frame = frame_at (set, number);

      g_assert_cmpmem (&frame, sizeof frame, &g_array_index (expected, CsFrame, number - 1),
                       sizeof frame);
    }
  cs_capture_set_iter_init (set, 100, &iter);
  for (guint i = 100; i < expected->len; i++)
    {
      CsFrame frame;
      const guint8 *data;

      g_assert_true (cs_frame_iter_next (&iter, &frame, &data));
      g_assert_cmpmem (&frame, sizeof frame, &g_array_index (expected, CsFrame, i), sizeof frame);
      g_assert_true (data == frame_bytes (set, i + 1));
    }

  cs_capture_set_free (set);
  g_array_unref (expected);
  g_byte_array_unref (b);
  g_byte_array_unref (spb);
  g_free (path);
}

int
main (int argc, char **argv)
{
  GError *error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("cs-capture-set-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/capture-set/merge-by-time", test_merge_by_time);
  g_test_add_func ("/capture-set/merge-keeps-record-order", test_merge_keeps_record_order);
  g_test_add_func ("/capture-set/damage-keeps-frames", test_damage_keeps_frames);
  g_test_add_func ("/capture-set/add-file-errors", test_add_file_errors);
  g_test_add_func ("/capture-set/bpf-filter", test_bpf_filter);
  g_test_add_func ("/capture-set/bad-bpf", test_bad_bpf);
  g_test_add_func ("/capture-set/samples-merged", test_samples_merged);
  g_test_add_func ("/capture-set/single-file-anchors", test_single_file_anchors);
  g_test_add_func ("/capture-set/single-pcapng-anchors", test_single_pcapng_anchors);
  g_test_add_func ("/capture-set/single-file-anchors-walk", test_single_file_anchors_walk);

  status = g_test_run ();
  remove_tmp_dir (tmp_dir);
  g_free (tmp_dir);
  return status;
}
