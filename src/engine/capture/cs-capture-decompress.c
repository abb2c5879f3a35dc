/* cs-capture-decompress.c — .gz and .zst captures: the stream is inflated into an unlinked
 * temporary file (bounded in size, with progress and cancel), which is then mapped and read
 * like any pcap or pcapng file */
#include "cs-capture-private.h"

#include <errno.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#define OUT_BLOCK (1u << 20)
#define IN_STEP (1u << 20) /* compressed bytes handed to the decoder at a time */

typedef enum
{
  COMPRESSION_GZIP,
  COMPRESSION_ZSTD,
} Compression;

/* The output side: a temporary file written block by block, and what went wrong. */
typedef struct
{
  CsCapture *capture;
  const CsCaptureOpenRun *run;
  int fd;
  guint64 written;
  guint8 *block;
} Sink;

static gboolean
sink_write (Sink *sink, const guint8 *data, gsize len, GError **error)
{
  if (sink->written + len > CS_CAPTURE_MAX_DECOMPRESSED)
    {
      cs_capture_set_error (sink->capture, error, CS_CAPTURE_ERROR_CORRUPT,
                            "decompresses to more than %" G_GUINT64_FORMAT " GiB (the limit)",
                            CS_CAPTURE_MAX_DECOMPRESSED >> 30);
      return FALSE;
    }
  while (len > 0)
    {
      ssize_t n = write (sink->fd, data, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          int saved = errno;

          cs_capture_set_error (sink->capture, error, CS_CAPTURE_ERROR_OPEN,
                                "cannot write the decompressed copy: %s", g_strerror (saved));
          return FALSE;
        }
      data += n;
      len -= (gsize) n;
      sink->written += (guint64) n;
    }
  return TRUE;
}

/* Progress and cancellation after each step of input. */
static gboolean
sink_step (Sink *sink, guint64 consumed, GError **error)
{
  if (g_cancellable_set_error_if_cancelled (sink->run != NULL ? sink->run->cancellable : NULL,
                                            error))
    return FALSE;
  if (sink->run != NULL && sink->run->progress != NULL)
    sink->run->progress (consumed, sink->capture->size, sink->run->user_data);
  return TRUE;
}

/* gzip, several members one after the other as `cat a.gz b.gz` makes them. Sets *end to
 * where the input stopped being understood (the whole input when it is all right). */
static gboolean
inflate_gzip (Sink *sink, guint64 *end, GError **error)
{
  const guint8 *in = sink->capture->data;
  guint64 size = sink->capture->size, fed = 0;
  z_stream z = { 0 };
  gboolean ok = TRUE, member_done = FALSE;
  int status = Z_OK;

  if (inflateInit2 (&z, 15 + 16) != Z_OK)
    {
      cs_capture_set_error (sink->capture, error, CS_CAPTURE_ERROR_OPEN, "zlib would not start");
      return FALSE;
    }
  while (ok)
    {
      if (z.avail_in == 0)
        {
          if (fed >= size)
            break;
          ok = sink_step (sink, fed, error);
          z.next_in = (Bytef *) (in + fed);
          z.avail_in = (uInt) MIN (size - fed, (guint64) IN_STEP);
          fed += z.avail_in;
          continue;
        }
      z.next_out = sink->block;
      z.avail_out = OUT_BLOCK;
      status = inflate (&z, Z_NO_FLUSH);
      if ((status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR)
          || (status == Z_BUF_ERROR && z.avail_out == OUT_BLOCK))
        break; /* damaged data (or no progress possible) */
      ok = sink_write (sink, sink->block, OUT_BLOCK - z.avail_out, error);
      member_done = status == Z_STREAM_END;
      if (member_done)
        inflateReset (&z); /* another member may follow */
    }
  *end = (guint64) ((const guint8 *) z.next_in - in);
  if (ok && (!member_done || z.avail_in > 0))
    sink->capture->source_damage
        = g_strdup_printf ("the gzip data is damaged or cut short at byte offset %" G_GUINT64_FORMAT
                           " of the compressed file (%s); the frames before it are read",
                           *end, z.msg != NULL ? z.msg : "unexpected end");
  inflateEnd (&z);
  return ok;
}

static gboolean
inflate_zstd (Sink *sink, guint64 *end, GError **error)
{
  const guint8 *in = sink->capture->data;
  guint64 size = sink->capture->size;
  ZSTD_DStream *z = ZSTD_createDStream ();
  ZSTD_inBuffer input = { in, 0, 0 };
  gboolean ok = TRUE, full = FALSE;
  size_t status = 0;

  if (z == NULL || ZSTD_isError (ZSTD_initDStream (z)))
    {
      ZSTD_freeDStream (z);
      cs_capture_set_error (sink->capture, error, CS_CAPTURE_ERROR_OPEN, "zstd would not start");
      return FALSE;
    }
  while (ok && (input.pos < size || full))
    {
      ZSTD_outBuffer output = { sink->block, OUT_BLOCK, 0 };

      if (input.pos == input.size && input.pos < size)
        {
          ok = sink_step (sink, input.pos, error);
          input.size = (size_t) MIN (size, input.pos + (guint64) IN_STEP);
        }
      status = ZSTD_decompressStream (z, &output, &input);
      if (ZSTD_isError (status))
        break;
      full = output.pos == output.size; /* more may be waiting inside the decoder */
      ok = ok && sink_write (sink, sink->block, output.pos, error);
    }
  *end = input.pos;
  /* status 0: the last frame ended exactly there */
  if (ok && status != 0)
    sink->capture->source_damage = g_strdup_printf (
        "the zstd data is damaged or cut short at byte offset %" G_GUINT64_FORMAT
        " of the compressed file (%s); the frames before it are read",
        *end, ZSTD_isError (status) ? ZSTD_getErrorName (status) : "unexpected end");
  ZSTD_freeDStream (z);
  return ok;
}

static gboolean
compression_of (CsCapture *capture, Compression *kind)
{
  const guint8 *d = capture->data;

  if (capture->size >= 3 && d[0] == 0x1f && d[1] == 0x8b && d[2] == 8)
    *kind = COMPRESSION_GZIP;
  else if (capture->size >= 4 && d[0] == 0x28 && d[1] == 0xb5 && d[2] == 0x2f && d[3] == 0xfd)
    *kind = COMPRESSION_ZSTD;
  else
    return FALSE;
  return TRUE;
}

gboolean
cs_capture_is_compressed (CsCapture *capture)
{
  Compression kind;

  return compression_of (capture, &kind);
}

gboolean
cs_capture_decompress (CsCapture *capture, const CsCaptureOpenRun *run, GError **error)
{
  Sink sink = { capture, run, -1, 0, NULL };
  Compression kind;
  guint64 end = 0;
  gboolean ok;

  if (!compression_of (capture, &kind))
    return TRUE;
  sink.fd = cs_capture_temp_fd (capture, error);
  if (sink.fd < 0)
    return FALSE;
  sink.block = g_malloc (OUT_BLOCK);
  ok = kind == COMPRESSION_GZIP ? inflate_gzip (&sink, &end, error)
                                : inflate_zstd (&sink, &end, error);
  g_free (sink.block);
  if (ok && sink.written == 0)
    {
      cs_capture_set_error (capture, error, CS_CAPTURE_ERROR_FORMAT,
                            "the %s data is damaged at byte offset %" G_GUINT64_FORMAT
                            " and holds no capture",
                            kind == COMPRESSION_GZIP ? "gzip" : "zstd", end);
      ok = FALSE;
    }
  if (ok)
    {
      capture->source = g_strdup (kind == COMPRESSION_GZIP ? "gzip" : "zstd");
      capture->source_size = capture->size;
      ok = cs_capture_map_fd (capture, sink.fd, sink.written, error);
    }
  close (sink.fd);
  return ok;
}
