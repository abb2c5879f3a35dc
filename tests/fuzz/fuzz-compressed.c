/* fuzz-compressed.c — .gz and .zst captures: the input (a capture from the corpus) is
 * compressed, one byte of the compressed stream may be bent and the tail cut, then the file
 * is opened and indexed: decompression must stay bounded and report damage, never crash.
 *
 * Input: a byte choosing gzip or zstd, a position and a value to bend, a length to keep,
 * then the capture's bytes. */
#include "fuzz-common.h"

#include "capture/cs-capture.h"

#include <zlib.h>
#include <zstd.h>

static GByteArray *
gzip_bytes (const guint8 *data, gsize size)
{
  GByteArray *out = g_byte_array_sized_new ((guint) compressBound (size) + 32);
  z_stream z = { 0 };

  g_byte_array_set_size (out, (guint) compressBound (size) + 32);
  g_assert (deflateInit2 (&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  z.next_in = (Bytef *) data;
  z.avail_in = (uInt) size;
  z.next_out = out->data;
  z.avail_out = out->len;
  g_assert (deflate (&z, Z_FINISH) == Z_STREAM_END);
  g_byte_array_set_size (out, (guint) z.total_out);
  deflateEnd (&z);
  return out;
}

static GByteArray *
zstd_bytes (const guint8 *data, gsize size)
{
  GByteArray *out = g_byte_array_sized_new ((guint) ZSTD_compressBound (size));
  size_t n;

  g_byte_array_set_size (out, (guint) ZSTD_compressBound (size));
  n = ZSTD_compress (out->data, out->len, data, size, 3);
  g_assert (!ZSTD_isError (n));
  g_byte_array_set_size (out, (guint) n);
  return out;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  GByteArray *packed;
  CsCapture *capture;
  GError *error = NULL;
  guint bend_at, bend_value, keep;

  cs_fuzz_init_once ();
  if (size < 4)
    return 0;
  packed = data[0] & 1 ? zstd_bytes (data + 4, size - 4) : gzip_bytes (data + 4, size - 4);
  bend_at = data[1];
  bend_value = data[2];
  keep = data[3];
  if (packed->len > 0 && bend_value != 0)
    packed->data[(bend_at * 7u) % packed->len] ^= (guint8) bend_value;
  if (keep < 128 && packed->len > 0)
    g_byte_array_set_size (packed, packed->len - MIN (keep, packed->len - 1));
  capture = cs_capture_open (cs_fuzz_bytes_to_path (packed->data, packed->len), &error);
  if (capture != NULL)
    {
      GArray *frames = g_array_new (FALSE, FALSE, sizeof (CsFrame));

      g_assert (cs_capture_get_source (capture) != NULL);
      cs_capture_index (capture, 0, frames, NULL, NULL, NULL, &error);
      for (guint i = 0; i < frames->len; i++)
        g_assert (cs_capture_frame_data (capture, &g_array_index (frames, CsFrame, i)) != NULL);
      g_array_unref (frames);
      cs_capture_free (capture);
    }
  else
    g_assert (error != NULL);
  g_clear_error (&error);
  g_byte_array_unref (packed);
  return 0;
}
