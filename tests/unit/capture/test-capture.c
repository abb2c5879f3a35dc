/* test-capture.c — the mmap pcap/pcapng reader on crafted files and on the samples */
#include "cs-config.h"
#include "capture/cs-capture.h"
#include "base/cs-error.h"

#include "capture-builder.h"

#include <glib/gstdio.h>
#include <string.h>

static char *tmp_dir;

static char *
write_file (const char *name, GByteArray *b)
{
  return write_capture_file (tmp_dir, name, b);
}

static GArray *
new_frames (void)
{
  return g_array_new (FALSE, FALSE, sizeof (CsFrame));
}

#define FRAME(frames, i) (&g_array_index ((frames), CsFrame, (i)))

static void
assert_payload (CsCapture *capture, const CsFrame *frame)
{
  const guint8 *data = cs_capture_frame_data (capture, frame);

  g_assert_nonnull (data);
  for (guint32 i = 0; i < frame->caplen; i++)
    g_assert_cmpuint (data[i], ==, (guint8) (frame->caplen + i));
}

/* ---- classic pcap ---- */

static void
test_pcap_us_le (void)
{
  GByteArray *b = g_byte_array_new ();
  GError *error = NULL;
  GArray *frames = new_frames ();
  CsCapture *capture;
  char *path;

  /* FCS bits in the link type field must be masked off */
  pcap_header (b, FALSE, FALSE, 65535, 0x10000000 | 1);
  pcap_record (b, FALSE, 1700000000, 123456, 60, 60);
  pcap_record (b, FALSE, 1700000001, 999999, 0, 100);
  pcap_record (b, FALSE, 1700000002, 5, 14, 1514);
  path = write_file ("us-le.pcap", b);

  capture = cs_capture_open (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cs_capture_get_format_name (capture), ==, "pcap");
  g_assert_cmpstr (cs_capture_get_path (capture), ==, path);
  g_assert_cmpuint (cs_capture_get_size (capture), ==, b->len);
  g_assert_null (cs_capture_get_comment (capture));

  g_assert_true (cs_capture_index (capture, 7, frames, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (frames->len, ==, 3);

  g_assert_cmpuint (FRAME (frames, 0)->offset, ==, 24 + 16);
  g_assert_cmpint (FRAME (frames, 0)->ts_ns, ==, G_GINT64_CONSTANT (1700000000123456000));
  g_assert_cmpuint (FRAME (frames, 0)->caplen, ==, 60);
  g_assert_cmpuint (FRAME (frames, 0)->linktype, ==, 1);
  g_assert_cmpuint (FRAME (frames, 0)->file, ==, 7);
  g_assert_cmpuint (FRAME (frames, 0)->flags, ==, 0);

  /* caplen 0 is a valid record */
  g_assert_cmpuint (FRAME (frames, 1)->offset, ==, 24 + 16 + 60 + 16);
  g_assert_cmpuint (FRAME (frames, 1)->caplen, ==, 0);
  g_assert_cmpuint (FRAME (frames, 1)->origlen, ==, 100);
  g_assert_cmpint (FRAME (frames, 1)->ts_ns, ==, G_GINT64_CONSTANT (1700000001999999000));

  g_assert_cmpuint (FRAME (frames, 2)->offset, ==, 24 + 16 + 60 + 16 + 16);
  g_assert_cmpuint (FRAME (frames, 2)->caplen, ==, 14);
  g_assert_cmpuint (FRAME (frames, 2)->origlen, ==, 1514);
  g_assert_cmpint (FRAME (frames, 2)->ts_ns, ==, G_GINT64_CONSTANT (1700000002000005000));
  for (guint i = 0; i < frames->len; i++)
    assert_payload (capture, FRAME (frames, i));

  /* releasing pages keeps the data readable */
  cs_capture_release_range (capture, 0, cs_capture_get_size (capture));
  for (guint i = 0; i < frames->len; i++)
    assert_payload (capture, FRAME (frames, i));

  cs_capture_free (capture);
  g_array_unref (frames);
  g_byte_array_unref (b);
  g_free (path);
}

static void
test_pcap_ns_be (void)
{
  GByteArray *b = g_byte_array_new ();
  GError *error = NULL;
  GArray *frames = new_frames ();
  CsCapture *capture;
  char *path;

  pcap_header (b, TRUE, TRUE, 262144, 101);
  pcap_record (b, TRUE, 1600000000, 123456789, 28, 28);
  pcap_record (b, TRUE, 1600000000, 999999999, 40, 40);
  path = write_file ("ns-be.pcap", b);

  capture = cs_capture_open (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cs_capture_get_format_name (capture), ==, "pcap-ns");
  g_assert_true (cs_capture_index (capture, 0, frames, NULL, NULL, NULL, &error));
  g_assert_cmpuint (frames->len, ==, 2);
  g_assert_cmpint (FRAME (frames, 0)->ts_ns, ==, G_GINT64_CONSTANT (1600000000123456789));
  g_assert_cmpint (FRAME (frames, 1)->ts_ns, ==, G_GINT64_CONSTANT (1600000000999999999));
  g_assert_cmpuint (FRAME (frames, 1)->linktype, ==, 101);
  g_assert_cmpuint (FRAME (frames, 1)->caplen, ==, 40);
  assert_payload (capture, FRAME (frames, 0));
  assert_payload (capture, FRAME (frames, 1));

  cs_capture_free (capture);
  g_array_unref (frames);
  g_byte_array_unref (b);
  g_free (path);
}

/* Opening must fail with the given code; returns the message for more checks. */
static char *
open_fails (const char *name, GByteArray *b, int code)
{
  char *path = write_file (name, b);
  GError *error = NULL;
  CsCapture *capture = cs_capture_open (path, &error);
  char *message;

  g_assert_null (capture);
  g_assert_error (error, CS_CAPTURE_ERROR, code);
  g_assert_nonnull (strstr (error->message, path));
  message = g_strdup (error->message);
  g_error_free (error);
  g_free (path);
  return message;
}

static void
test_open_errors (void)
{
  GByteArray *b = g_byte_array_new ();
  GError *error = NULL;
  char *message;
  char *path;

  message = open_fails ("empty.pcap", b, CS_CAPTURE_ERROR_FORMAT);
  g_assert_nonnull (strstr (message, "file is empty"));
  g_free (message);

  put_bytes (b, "GET / HTTP/1.1\r\n", 16);
  g_free (open_fails ("http.pcap", b, CS_CAPTURE_ERROR_FORMAT));

  /* a pcap magic with a short header */
  g_byte_array_set_size (b, 0);
  pcap_header (b, FALSE, FALSE, 65535, 1);
  g_byte_array_set_size (b, 10);
  message = open_fails ("short.pcap", b, CS_CAPTURE_ERROR_TRUNCATED);
  g_assert_nonnull (strstr (message, "byte offset 0"));
  g_free (message);

  /* version 1 is not pcap as anyone writes it */
  g_byte_array_set_size (b, 0);
  pcap_header (b, FALSE, FALSE, 65535, 1);
  b->data[4] = 1;
  g_free (open_fails ("version.pcap", b, CS_CAPTURE_ERROR_FORMAT));

  /* pcapng whose first block is a section header with a bad byte-order magic */
  g_byte_array_set_size (b, 0);
  ng_shb (b, FALSE, NULL);
  b->data[8] = 0x99;
  g_free (open_fails ("bom.pcapng", b, CS_CAPTURE_ERROR_CORRUPT));

  /* missing file */
  path = g_build_filename (tmp_dir, "does-not-exist.pcap", NULL);
  g_assert_null (cs_capture_open (path, &error));
  g_assert_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_OPEN);
  g_clear_error (&error);
  g_free (path);

  g_byte_array_unref (b);
}

/* Indexing must fail with the code, keep n_kept frames, and name path + offset. */
static void
index_fails (const char *name, GByteArray *b, int code, guint n_kept, guint64 offset)
{
  char *path = write_file (name, b);
  GError *error = NULL;
  GArray *frames = new_frames ();
  CsCapture *capture = cs_capture_open (path, &error);
  char *where;

  g_assert_no_error (error);
  g_assert_false (cs_capture_index (capture, 0, frames, NULL, NULL, NULL, &error));
  g_assert_error (error, CS_CAPTURE_ERROR, code);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, path));
  where = g_strdup_printf ("byte offset %" G_GUINT64_FORMAT " ", offset);
  g_assert_nonnull (strstr (error->message, where));
  g_assert_cmpuint (frames->len, ==, n_kept);
  for (guint i = 0; i < frames->len; i++)
    assert_payload (capture, FRAME (frames, i));

  g_free (where);
  g_error_free (error);
  cs_capture_free (capture);
  g_array_unref (frames);
  g_free (path);
}

static void
test_pcap_damage (void)
{
  GByteArray *b = g_byte_array_new ();
  char *path;
  GError *error = NULL;
  CsCapture *capture;
  GArray *frames = new_frames ();

  /* the third record's data runs past the end */
  pcap_header (b, FALSE, FALSE, 65535, 1);
  pcap_record (b, FALSE, 1, 0, 100, 100);
  pcap_record (b, FALSE, 2, 0, 200, 200);
  pcap_record (b, FALSE, 3, 0, 1514, 1514);
  g_byte_array_set_size (b, b->len - 1314); /* 200 of 1514 bytes left */
  path = write_file ("truncated.pcap", b);
  capture = cs_capture_open (path, &error);
  g_assert_no_error (error);
  g_assert_false (cs_capture_index (capture, 0, frames, NULL, NULL, NULL, &error));
  g_assert_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_TRUNCATED);
  g_assert_cmpuint (frames->len, ==, 2);
  {
    char *expected = g_strdup_printf (
        "%s: truncated record at byte offset 356 (needs 1530 bytes, 216 left)", path);

    g_assert_cmpstr (error->message, ==, expected);
    g_free (expected);
  }
  g_clear_error (&error);
  cs_capture_free (capture);
  g_free (path);

  /* the file ends inside a record header */
  g_byte_array_set_size (b, 0);
  pcap_header (b, FALSE, FALSE, 65535, 1);
  pcap_record (b, FALSE, 1, 0, 100, 100);
  put_zeros (b, 9);
  index_fails ("header-cut.pcap", b, CS_CAPTURE_ERROR_TRUNCATED, 1, 140);

  /* caplen far beyond any packet */
  g_byte_array_set_size (b, 0);
  pcap_header (b, TRUE, FALSE, 0, 1);
  pcap_record (b, TRUE, 1, 0, 50, 50);
  put_u32 (b, TRUE, 2);
  put_u32 (b, TRUE, 0);
  put_u32 (b, TRUE, 0x7fffffff);
  put_u32 (b, TRUE, 60);
  put_zeros (b, 64);
  index_fails ("huge.pcap", b, CS_CAPTURE_ERROR_CORRUPT, 1, 90);

  /* caplen above a sane snaplen */
  g_byte_array_set_size (b, 0);
  pcap_header (b, FALSE, FALSE, 96, 1);
  pcap_record (b, FALSE, 1, 0, 96, 1500);
  pcap_record (b, FALSE, 1, 0, 97, 1500);
  index_fails ("over-snaplen.pcap", b, CS_CAPTURE_ERROR_CORRUPT, 1, 24 + 16 + 96);

  g_array_unref (frames);
  g_byte_array_unref (b);
}

/* ---- pcapng ---- */

static void
test_pcapng_interfaces (void)
{
  GByteArray *b = g_byte_array_new ();
  GByteArray *body = g_byte_array_new ();
  GError *error = NULL;
  GArray *frames = new_frames ();
  CsCapture *capture;
  char *path;
  guint64 spb_offset, opb_offset;

  ng_shb (b, FALSE, "section note");
  ng_idb (b, FALSE, 1, 0, -1, 0);            /* 0: Ethernet, µs */
  ng_idb (b, FALSE, 101, 65535, 9, 0);       /* 1: raw IP, ns */
  ng_idb (b, FALSE, 113, 0, 0x80 | 10, 100); /* 2: Linux SLL, 2^-10 s, +100 s */
  ng_epb (b, FALSE, 0, G_GUINT64_CONSTANT (1700000000123456), 60, 60, NULL);
  /* name resolution block and a custom block are skipped */
  put_u32 (body, FALSE, 0);
  ng_block (b, FALSE, 4, body);
  put_bytes (body, "\x01\x02\x03\x04\x05", 5);
  ng_block (b, FALSE, 0x00000BAD, body);
  ng_epb (b, FALSE, 1, G_GUINT64_CONSTANT (1700000001987654321), 33, 40, "hello frame");
  ng_epb (b, FALSE, 2, (G_GUINT64_CONSTANT (1700000000) << 10) | 512, 20, 20, NULL);
  /* simple packet block: interface 0, time of the previous packet */
  spb_offset = b->len;
  put_u32 (body, FALSE, 10);
  for (guint i = 0; i < 10; i++)
    {
      guint8 v = (guint8) (10 + i);

      put_bytes (body, &v, 1);
    }
  ng_block (b, FALSE, 3, body);
  /* obsolete packet block on interface 1 */
  opb_offset = b->len;
  put_u16 (body, FALSE, 1);
  put_u16 (body, FALSE, 0);
  put_u32 (body, FALSE, (guint32) (G_GUINT64_CONSTANT (1700000005000000007) >> 32));
  put_u32 (body, FALSE, (guint32) G_GUINT64_CONSTANT (1700000005000000007));
  put_u32 (body, FALSE, 4);
  put_u32 (body, FALSE, 4);
  put_bytes (body, "\x04\x05\x06\x07", 4);
  ng_block (b, FALSE, 2, body);
  /* interface statistics block: skipped */
  put_zeros (body, 12);
  ng_block (b, FALSE, 5, body);
  path = write_file ("interfaces.pcapng", b);

  capture = cs_capture_open (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (cs_capture_get_format_name (capture), ==, "pcapng");
  g_assert_cmpstr (cs_capture_get_comment (capture), ==, "section note");
  g_assert_true (cs_capture_index (capture, 3, frames, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (frames->len, ==, 5);

  g_assert_cmpuint (FRAME (frames, 0)->linktype, ==, 1);
  g_assert_cmpint (FRAME (frames, 0)->ts_ns, ==, G_GINT64_CONSTANT (1700000000123456000));
  g_assert_cmpuint (FRAME (frames, 0)->file, ==, 3);
  g_assert_null (cs_capture_get_frame_comment (capture, FRAME (frames, 0)));

  g_assert_cmpuint (FRAME (frames, 1)->linktype, ==, 101);
  g_assert_cmpint (FRAME (frames, 1)->ts_ns, ==, G_GINT64_CONSTANT (1700000001987654321));
  g_assert_cmpuint (FRAME (frames, 1)->caplen, ==, 33);
  g_assert_cmpuint (FRAME (frames, 1)->origlen, ==, 40);
  g_assert_true (FRAME (frames, 1)->flags & CS_FRAME_HAS_COMMENT);
  g_assert_cmpstr (cs_capture_get_frame_comment (capture, FRAME (frames, 1)), ==, "hello frame");

  g_assert_cmpuint (FRAME (frames, 2)->linktype, ==, 113);
  g_assert_cmpint (FRAME (frames, 2)->ts_ns, ==, G_GINT64_CONSTANT (1700000100500000000));

  g_assert_cmpuint (FRAME (frames, 3)->offset, ==, spb_offset + 12);
  g_assert_cmpuint (FRAME (frames, 3)->linktype, ==, 1);
  g_assert_cmpuint (FRAME (frames, 3)->caplen, ==, 10);
  g_assert_cmpint (FRAME (frames, 3)->ts_ns, ==, FRAME (frames, 2)->ts_ns);

  g_assert_cmpuint (FRAME (frames, 4)->offset, ==, opb_offset + 28);
  g_assert_cmpuint (FRAME (frames, 4)->linktype, ==, 101);
  g_assert_cmpint (FRAME (frames, 4)->ts_ns, ==, G_GINT64_CONSTANT (1700000005000000007));

  for (guint i = 0; i < frames->len; i++)
    assert_payload (capture, FRAME (frames, i));

  cs_capture_free (capture);
  g_array_unref (frames);
  g_byte_array_unref (body);
  g_byte_array_unref (b);
  g_free (path);
}

/* A big-endian section followed by a little-endian one with its own interfaces. */
static void
test_pcapng_sections (void)
{
  GByteArray *b = g_byte_array_new ();
  GError *error = NULL;
  GArray *frames = new_frames ();
  CsCapture *capture;
  char *path;

  ng_shb (b, TRUE, NULL);
  ng_idb (b, TRUE, 101, 0, 3, 0); /* ms */
  ng_epb (b, TRUE, 0, 1700000000123, 8, 8, NULL);
  ng_shb (b, FALSE, NULL);
  ng_idb (b, FALSE, 1, 0, -1, 0);
  ng_epb (b, FALSE, 0, 1700000001000001, 16, 16, NULL);
  path = write_file ("sections.pcapng", b);

  capture = cs_capture_open (path, &error);
  g_assert_no_error (error);
  g_assert_true (cs_capture_index (capture, 0, frames, NULL, NULL, NULL, &error));
  g_assert_cmpuint (frames->len, ==, 2);
  g_assert_cmpuint (FRAME (frames, 0)->linktype, ==, 101);
  g_assert_cmpint (FRAME (frames, 0)->ts_ns, ==, G_GINT64_CONSTANT (1700000000123000000));
  g_assert_cmpuint (FRAME (frames, 1)->linktype, ==, 1);
  g_assert_cmpint (FRAME (frames, 1)->ts_ns, ==, G_GINT64_CONSTANT (1700000001000001000));
  assert_payload (capture, FRAME (frames, 0));
  assert_payload (capture, FRAME (frames, 1));
  cs_capture_free (capture);
  g_free (path);

  /* the second section forgets the first one's interfaces */
  ng_epb (b, FALSE, 1, 1700000002000000, 16, 16, NULL);
  index_fails ("sections-bad.pcapng", b, CS_CAPTURE_ERROR_CORRUPT, 2, b->len - 48);

  g_array_unref (frames);
  g_byte_array_unref (b);
}

static void
test_pcapng_damage (void)
{
  GByteArray *b = g_byte_array_new ();
  guint64 at;

  /* trailing length differs from the leading one */
  ng_shb (b, FALSE, NULL);
  ng_idb (b, FALSE, 1, 0, -1, 0);
  ng_epb (b, FALSE, 0, 1, 20, 20, NULL);
  at = b->len;
  ng_epb (b, FALSE, 0, 2, 20, 20, NULL);
  b->data[b->len - 4] ^= 0x10;
  ng_epb (b, FALSE, 0, 3, 20, 20, NULL);
  index_fails ("trailer.pcapng", b, CS_CAPTURE_ERROR_CORRUPT, 1, at);

  /* a length that is not a multiple of 4 */
  g_byte_array_set_size (b, at);
  ng_epb (b, FALSE, 0, 2, 20, 20, NULL);
  b->data[at + 4] = 53;
  index_fails ("odd-length.pcapng", b, CS_CAPTURE_ERROR_CORRUPT, 1, at);

  /* a length below the minimum block */
  b->data[at + 4] = 8;
  index_fails ("tiny-length.pcapng", b, CS_CAPTURE_ERROR_CORRUPT, 1, at);

  /* a length past the end of the file */
  b->data[at + 4] = 0;
  b->data[at + 5] = 0x10;
  index_fails ("long-length.pcapng", b, CS_CAPTURE_ERROR_TRUNCATED, 1, at);

  /* the file stops in the middle of a block */
  g_byte_array_set_size (b, at);
  ng_epb (b, FALSE, 0, 2, 100, 100, NULL);
  g_byte_array_set_size (b, b->len - 30);
  index_fails ("cut.pcapng", b, CS_CAPTURE_ERROR_TRUNCATED, 1, at);

  /* interface id out of range */
  g_byte_array_set_size (b, at);
  ng_epb (b, FALSE, 5, 2, 20, 20, NULL);
  index_fails ("iface.pcapng", b, CS_CAPTURE_ERROR_CORRUPT, 1, at);

  /* caplen larger than the block holds */
  g_byte_array_set_size (b, at);
  ng_epb (b, FALSE, 0, 2, 20, 20, NULL);
  b->data[at + 20] = 200;
  index_fails ("caplen.pcapng", b, CS_CAPTURE_ERROR_CORRUPT, 1, at);

  /* a packet before any interface */
  g_byte_array_set_size (b, 0);
  ng_shb (b, FALSE, NULL);
  at = b->len;
  ng_epb (b, FALSE, 0, 2, 20, 20, NULL);
  index_fails ("no-iface.pcapng", b, CS_CAPTURE_ERROR_CORRUPT, 0, at);

  /* a time resolution no clock has */
  g_byte_array_set_size (b, 0);
  ng_shb (b, FALSE, NULL);
  at = b->len;
  ng_idb (b, FALSE, 1, 0, 77, 0);
  index_fails ("tsresol.pcapng", b, CS_CAPTURE_ERROR_CORRUPT, 0, at);

  g_byte_array_unref (b);
}

/* Every blob of bytes after a valid header must give a clean answer. */
static void
test_random_bodies (void)
{
  GRand *rand = g_rand_new_with_seed (42);

  for (guint round = 0; round < 400; round++)
    {
      GByteArray *b = g_byte_array_new ();
      GArray *frames = new_frames ();
      GError *error = NULL;
      CsCapture *capture;
      char *path;
      guint n = g_rand_int_range (rand, 0, 600);

      if (round % 2 == 0)
        pcap_header (b, round % 4 == 0, FALSE, 0, 1);
      else
        {
          ng_shb (b, round % 3 == 0, NULL);
          ng_idb (b, round % 3 == 0, 1, 0, -1, 0);
        }
      for (guint i = 0; i < n; i++)
        {
          guint8 v = (guint8) g_rand_int (rand);

          /* small values keep lengths plausible often enough to reach deep paths */
          if (g_rand_int_range (rand, 0, 4) != 0)
            v &= 0x1f;
          put_bytes (b, &v, 1);
        }
      path = write_file ("random.bin", b);
      capture = cs_capture_open (path, &error);
      g_assert_no_error (error);
      if (!cs_capture_index (capture, 0, frames, NULL, NULL, NULL, &error))
        {
          g_assert_true (error->domain == CS_CAPTURE_ERROR);
          g_clear_error (&error);
        }
      for (guint i = 0; i < frames->len; i++)
        {
          const CsFrame *f = FRAME (frames, i);

          g_assert_cmpuint (f->offset + f->caplen, <=, b->len);
          g_assert_nonnull (cs_capture_frame_data (capture, f));
        }
      cs_capture_free (capture);
      g_array_unref (frames);
      g_byte_array_unref (b);
      g_free (path);
    }
  g_rand_free (rand);
}

/* ---- progress, cancel, large offsets ---- */

static void
count_progress (guint64 done, guint64 total, gpointer user_data)
{
  guint64 *calls = user_data;

  g_assert_cmpuint (done, <=, total);
  calls[0]++;
  calls[1] = done;
  calls[2] = total;
}

static void
test_progress_and_cancel (void)
{
  GByteArray *b = g_byte_array_new ();
  GArray *frames = new_frames ();
  GError *error = NULL;
  GCancellable *cancellable = g_cancellable_new ();
  guint64 calls[3] = { 0 };
  CsCapture *capture;
  char *path;

  pcap_header (b, FALSE, FALSE, 65535, 1);
  for (guint i = 0; i < 140000; i++)
    pcap_record (b, FALSE, i, 0, 0, 0);
  path = write_file ("many.pcap", b);
  capture = cs_capture_open (path, &error);
  g_assert_no_error (error);

  g_assert_true (cs_capture_index (capture, 0, frames, NULL, count_progress, calls, &error));
  g_assert_cmpuint (frames->len, ==, 140000);
  g_assert_cmpuint (calls[0], ==, 140000 / 8192 + 1); /* every 8192 records, and the end */
  g_assert_cmpuint (calls[1], ==, b->len);
  g_assert_cmpuint (calls[2], ==, b->len);

  g_array_set_size (frames, 0);
  g_cancellable_cancel (cancellable);
  g_assert_false (cs_capture_index (capture, 0, frames, cancellable, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (frames->len, <=, 4096);
  g_clear_error (&error);

  cs_capture_free (capture);
  g_object_unref (cancellable);
  g_array_unref (frames);
  g_byte_array_unref (b);
  g_free (path);
}

/* KiB of the file's mapping in memory (/proc/self/smaps), or -1 if not found. */
static gint64
mapping_rss_kib (const char *path)
{
  g_autofree char *smaps = NULL;
  const char *at, *rss;

  if (!g_file_get_contents ("/proc/self/smaps", &smaps, NULL, NULL))
    return -1;
  at = strstr (smaps, path);
  rss = at != NULL ? strstr (at, "\nRss:") : NULL;
  return rss != NULL ? g_ascii_strtoll (rss + 5, NULL, 10) : -1;
}

/* The index walk drops the pages it read behind it, unless told that its readers
 * drop them (the loader's pipeline: decoding would otherwise fault them in again). */
static void
test_walked_pages (void)
{
  GByteArray *b = g_byte_array_new ();
  guint8 payload[1000];
  char *path;

  memset (payload, 0x55, sizeof payload);
  pcap_header (b, FALSE, FALSE, 65535, 1);
  for (guint i = 0; i < 24000; i++) /* 24 MiB */
    pcap_record_data (b, FALSE, i, 0, payload, sizeof payload);
  path = write_file ("walked.pcap", b);
  for (guint keep = 0; keep < 2; keep++)
    {
      GError *error = NULL;
      CsCapture *capture = cs_capture_open (path, &error);
      CsFrameAnchors index = { g_array_new (FALSE, FALSE, sizeof (CsFramePosition)), 0, 0, 0 };
      gint64 rss;

      g_assert_no_error (error);
      cs_capture_keep_walked_pages (capture, keep);
      g_assert_true (cs_capture_index_anchors (capture, &index, NULL, NULL, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (index.n_frames, ==, 24000);
      rss = mapping_rss_kib (path);
      if (rss < 0)
        {
          g_test_skip ("no /proc/self/smaps");
          cs_capture_free (capture);
          g_array_unref (index.anchors);
          break;
        }
      /* released every 8 MiB: at most the last 8 MiB (and the fault-around) stay */
      if (keep)
        g_assert_cmpint (rss, >, 20 * 1024);
      else
        g_assert_cmpint (rss, <, 9 * 1024);
      cs_capture_free (capture);
      g_array_unref (index.anchors);
    }
  g_byte_array_unref (b);
  g_free (path);
}

/* A sparse pcapng whose second packet lies beyond 4 GiB, reached over two
 * big skipped blocks: offsets and sizes must be 64-bit all the way. */
static void
test_beyond_4gib (void)
{
  const guint32 skip_len = 0xA0000000u; /* 2.5 GiB */
  char *path = g_build_filename (tmp_dir, "big.pcapng", NULL);
  GByteArray *b = g_byte_array_new ();
  GArray *frames = new_frames ();
  GError *error = NULL;
  CsCapture *capture;
  guint64 second_at;
  FILE *f;

  if (sizeof (gsize) < 8)
    {
      g_test_skip ("needs a 64-bit address space");
      return;
    }

  ng_shb (b, FALSE, NULL);
  ng_idb (b, FALSE, 1, 0, -1, 0);
  ng_epb (b, FALSE, 0, 1, 16, 16, NULL);
  f = fopen (path, "wb");
  g_assert_nonnull (f);
  g_assert_cmpuint (fwrite (b->data, 1, b->len, f), ==, b->len);
  for (guint i = 0; i < 2; i++)
    {
      GByteArray *head = g_byte_array_new ();
      GByteArray *tail = g_byte_array_new ();

      put_u32 (head, FALSE, 0x00000BAD);
      put_u32 (head, FALSE, skip_len);
      put_u32 (tail, FALSE, skip_len);
      g_assert_cmpuint (fwrite (head->data, 1, head->len, f), ==, head->len);
      g_assert_cmpint (fseeko (f, skip_len - 12, SEEK_CUR), ==, 0); /* a hole */
      g_assert_cmpuint (fwrite (tail->data, 1, tail->len, f), ==, tail->len);
      g_byte_array_unref (head);
      g_byte_array_unref (tail);
    }
  second_at = (guint64) b->len + 2 * (guint64) skip_len;
  g_byte_array_set_size (b, 0);
  ng_epb (b, FALSE, 0, 2, 24, 24, NULL);
  g_assert_cmpuint (fwrite (b->data, 1, b->len, f), ==, b->len);
  g_assert_cmpint (fclose (f), ==, 0);

  capture = cs_capture_open (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cs_capture_get_size (capture), ==, second_at + b->len);
  g_assert_true (cs_capture_index (capture, 0, frames, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (frames->len, ==, 2);
  g_assert_cmpuint (FRAME (frames, 1)->offset, ==, second_at + 28);
  g_assert_cmpuint (FRAME (frames, 1)->offset, >, G_GUINT64_CONSTANT (0x100000000));
  assert_payload (capture, FRAME (frames, 1));
  cs_capture_release_range (capture, 0, cs_capture_get_size (capture));
  assert_payload (capture, FRAME (frames, 1));

  cs_capture_free (capture);
  g_unlink (path);
  g_array_unref (frames);
  g_byte_array_unref (b);
  g_free (path);
}

static void
test_linktype_names (void)
{
  g_assert_cmpstr (cs_linktype_name (1), ==, "EN10MB");
  g_assert_cmpstr (cs_linktype_description (1), ==, "Ethernet");
  g_assert_cmpstr (cs_linktype_name (101), ==, "RAW");
  g_assert_cmpstr (cs_linktype_name (113), ==, "LINUX_SLL");
  g_assert_cmpstr (cs_linktype_name (60000), ==, "LINKTYPE_60000");
  g_assert_cmpstr (cs_linktype_description (60000), ==, "LINKTYPE_60000");
}

/* ---- real captures ---- */

typedef struct
{
  const char *name;
  guint frames;
  gint64 first_ns, last_ns; /* tshark frame.time_epoch of the first and last frame */
  const char *format;
} CsSample;

static const CsSample samples[] = {
  { "SIP_CALL_RTP_G711", 4269, 1105725482965944000, 1105725517874679000, "pcap" },
  { "sip-rtp-g711.pcap", 852, 1480171979666393000, 1480171996569179000, "pcap" },
  { "sip-rtp-g729a.pcap", 433, 1480675281070298000, 1480675289577232000, "pcap" },
  { "invite-opus-bye.pcap", 311, 1782336735418517000, 1782336738426559000, "pcap" },
  { "sip-rtp-opus-hybrid.pcap", 7, 1480255668834427000, 1480255675158642000, "pcap" },
  { "sip-over-tcp.pcap", 84, 1311857686556175000, 1311857693090341000, "pcap" },
  { "rtp-protocol.pcap", 259, 1311238105417810000, 1311238112382576000, "pcap" },
  { "h263-over-rtp.pcap", 49, 1208261984291540000, 1208261985768136000, "pcap" },
  { "DTMFsipinfo.pcap", 32, 1303892069846846000, 1303892148321286000, "pcap" },
  { "sip-488-codec-reject.pcapng", 13, 1566926798890031000, 1566926808953340000, "pcapng" },
  { "sip-auth-failure.pcapng", 8, 1463472095431471000, 1463472095937917000, "pcapng" },
  { "sip-proxy.pcap", 11, 1312180650454022000, 1312180653424145000, "pcap" },
  { "sip-register.pcap", 2, 1312180642150251000, 1312180642184773000, "pcap" },
  { "udp_5060.pcap", 10, 1700000000000000000, 1700000009000000000, "pcap" },
  { "sip_call.pcap", 7, 1700000000000000000, 1700000060100000000, "pcap" },
  { "sip-sdp-example.pcap", 7, 1312871576583165000, 1312871581634293000, "pcap" },
  { "metasploit-sip-invite-spoof.pcap", 3, 1175737878700063000, 1175737878801278000, "pcap" },
  { "speech_8k_ulaw.pcap", 835, 0, 16680000000, "pcap" },
  { "http-example.cap", 43, 1084443427311224000, 1084443457704928000, "pcap" },
};

static void
test_samples (void)
{
  const char *dir = g_getenv ("CS_SAMPLES_DIR");
  char *path;
  GError *error = NULL;

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("CS_SAMPLES_DIR not set or missing");
      return;
    }

  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      const CsSample *s = &samples[i];
      GArray *frames = new_frames ();
      CsCapture *capture;

      path = g_build_filename (dir, s->name, NULL);
      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        {
          g_test_message ("sample %s missing", s->name);
          g_free (path);
          g_array_unref (frames);
          continue;
        }
      capture = cs_capture_open (path, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (cs_capture_get_format_name (capture), ==, s->format);
      g_assert_true (cs_capture_index (capture, 0, frames, NULL, NULL, NULL, &error));
      g_assert_no_error (error);
      g_test_message ("%s: %u frames", s->name, frames->len);
      g_assert_cmpuint (frames->len, ==, s->frames);
      g_assert_cmpint (FRAME (frames, 0)->ts_ns, ==, s->first_ns);
      g_assert_cmpint (FRAME (frames, frames->len - 1)->ts_ns, ==, s->last_ns);
      for (guint k = 0; k < frames->len; k++)
        g_assert_nonnull (cs_capture_frame_data (capture, FRAME (frames, k)));
      cs_capture_free (capture);
      g_array_unref (frames);
      g_free (path);
    }

  /* Microsoft Network Monitor, not pcap: read through libwiretap into a pcapng copy, else a
   * clear format error that says why */
  path = g_build_filename (dir, "rtsp-packets.cap", NULL);
  if (g_file_test (path, G_FILE_TEST_EXISTS))
    {
      CsCapture *capture = cs_capture_open (path, &error);
#if CS_HAVE_WIRETAP
      GArray *frames;

      g_assert_no_error (error);
      g_assert_cmpstr (cs_capture_get_source (capture), ==, "Microsoft NetMon 2.x");
      g_assert_cmpstr (cs_capture_get_format_name (capture), ==, "pcapng");
      frames = g_array_new (FALSE, FALSE, sizeof (CsFrame));
      g_assert_true (cs_capture_index (capture, 0, frames, NULL, NULL, NULL, &error));
      g_assert_cmpuint (frames->len, ==, 20); /* capinfos -c says 20 packets */
      g_array_unref (frames);
      cs_capture_free (capture);
#else
      g_assert_null (capture);
      g_assert_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_FORMAT);
      g_assert_nonnull (strstr (error->message, "no libwiretap"));
      g_clear_error (&error);
#endif
    }
  g_free (path);
}

int
main (int argc, char **argv)
{
  GError *error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("cs-capture-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/capture/pcap/us-le", test_pcap_us_le);
  g_test_add_func ("/capture/pcap/ns-be", test_pcap_ns_be);
  g_test_add_func ("/capture/open-errors", test_open_errors);
  g_test_add_func ("/capture/pcap/damage", test_pcap_damage);
  g_test_add_func ("/capture/pcapng/interfaces", test_pcapng_interfaces);
  g_test_add_func ("/capture/pcapng/sections", test_pcapng_sections);
  g_test_add_func ("/capture/pcapng/damage", test_pcapng_damage);
  g_test_add_func ("/capture/random-bodies", test_random_bodies);
  g_test_add_func ("/capture/progress-and-cancel", test_progress_and_cancel);
  g_test_add_func ("/capture/beyond-4gib", test_beyond_4gib);
  g_test_add_func ("/capture/walked-pages", test_walked_pages);
  g_test_add_func ("/capture/linktype-names", test_linktype_names);
  g_test_add_func ("/capture/samples", test_samples);

  status = g_test_run ();
  remove_tmp_dir (tmp_dir);
  g_free (tmp_dir);
  return status;
}
