/* cs-capture.c — mapping a capture file, format detection, shared helpers */
#include "cs-capture-private.h"

#include <errno.h>
#include <fcntl.h>
#include <pcap/pcap.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static gboolean
cs_capture_map (CsCapture *capture, GError **error)
{
  struct stat st;
  int fd;
  void *map;

  fd = open (capture->path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_OPEN, "%s: cannot open: %s",
                   capture->path, g_strerror (saved));
      return FALSE;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      g_set_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_OPEN,
                   "%s: cannot open: not a regular file", capture->path);
      close (fd);
      return FALSE;
    }
  if (st.st_size == 0)
    {
      g_set_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_FORMAT, "%s: file is empty",
                   capture->path);
      close (fd);
      return FALSE;
    }
  if ((guint64) st.st_size > (guint64) SIZE_MAX)
    {
      g_set_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_OPEN,
                   "%s: file is too large to map on this system", capture->path);
      close (fd);
      return FALSE;
    }

  map = mmap (NULL, (size_t) st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (map == MAP_FAILED)
    {
      int saved = errno;
      g_set_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_OPEN, "%s: cannot map: %s",
                   capture->path, g_strerror (saved));
      close (fd);
      return FALSE;
    }
  close (fd); /* the mapping keeps the file referenced */

  capture->data = map;
  capture->bytes = cs_mapped_bytes_new_mmap (map, (gsize) st.st_size);
  capture->size = (guint64) st.st_size;
  return TRUE;
}

int
cs_capture_temp_fd (CsCapture *capture, GError **error)
{
  int fd = open (g_get_tmp_dir (), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

  /* a file system without O_TMPFILE: memory (and swap) instead */
  if (fd < 0)
    fd = memfd_create ("callscope-capture", MFD_CLOEXEC);
  if (fd < 0)
    {
      int saved = errno;

      cs_capture_set_error (capture, error, CS_CAPTURE_ERROR_OPEN,
                            "cannot make a temporary file to hold it: %s", g_strerror (saved));
    }
  return fd;
}

gboolean
cs_capture_map_fd (CsCapture *capture, int fd, guint64 size, GError **error)
{
  void *map;

  if (size == 0 || size > (guint64) SIZE_MAX)
    {
      cs_capture_set_error (capture, error, CS_CAPTURE_ERROR_FORMAT, "holds no capture once %s",
                            size == 0 ? "read" : "too large");
      return FALSE;
    }
  map = mmap (NULL, (size_t) size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (map == MAP_FAILED)
    {
      int saved = errno;

      cs_capture_set_error (capture, error, CS_CAPTURE_ERROR_OPEN, "cannot map its copy: %s",
                            g_strerror (saved));
      return FALSE;
    }
  g_clear_pointer (&capture->bytes, cs_mapped_bytes_unref);
  capture->data = map;
  capture->bytes = cs_mapped_bytes_new_mmap (map, (gsize) size);
  capture->size = size;
  return TRUE;
}

CsCapture *
cs_capture_open (const char *path, GError **error)
{
  return cs_capture_open_full (path, NULL, NULL, NULL, error);
}

CsCapture *
cs_capture_open_full (const char *path, CsCaptureProgressFunc progress, gpointer user_data,
                      GCancellable *cancellable, GError **error)
{
  CsCaptureOpenRun run = { progress, user_data, cancellable };
  CsCapture *capture;
  guint32 magic_le;
  gboolean ok;

  g_return_val_if_fail (path != NULL, NULL);

  capture = g_new0 (CsCapture, 1);
  capture->path = g_strdup (path);
  g_rw_lock_init (&capture->walk_lock);
  if (!cs_capture_map (capture, error)
      || (cs_capture_is_compressed (capture) && !cs_capture_decompress (capture, &run, error)))
    {
      cs_capture_free (capture);
      return NULL;
    }

  if (capture->size < 4)
    {
      g_set_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_FORMAT,
                   "%s: not a pcap or pcapng file (only %" G_GUINT64_FORMAT " bytes)",
                   capture->path, capture->size);
      cs_capture_free (capture);
      return NULL;
    }

  magic_le = (guint32) capture->data[0] | ((guint32) capture->data[1] << 8)
             | ((guint32) capture->data[2] << 16) | ((guint32) capture->data[3] << 24);
  switch (magic_le)
    {
    case 0xa1b2c3d4:
    case 0xd4c3b2a1:
    case 0xa1b23c4d:
    case 0x4d3cb2a1:
      ok = cs_capture_pcap_read_header (capture, error);
      break;
    case 0x0a0d0d0a:
      ok = cs_capture_pcapng_read_header (capture, error);
      break;
    default:
      if (capture->source != NULL)
        {
          /* decompressed, but not to pcap or pcapng */
          cs_capture_set_error (capture, error, CS_CAPTURE_ERROR_FORMAT,
                                "the %s data inside is not a pcap or pcapng file (unknown magic "
                                "%02x%02x%02x%02x at byte offset 0 of the decompressed data)",
                                capture->source, capture->data[0], capture->data[1],
                                capture->data[2], capture->data[3]);
          ok = FALSE;
        }
      else
        /* every other format Wireshark reads, converted to pcapng */
        ok = cs_capture_read_with_wiretap (capture, &run, error)
             && cs_capture_pcapng_read_header (capture, error);
      break;
    }
  if (!ok)
    {
      cs_capture_free (capture);
      return NULL;
    }
  return capture;
}

void
cs_capture_free (CsCapture *capture)
{
  if (capture == NULL)
    return;
  g_clear_pointer (&capture->bytes, cs_mapped_bytes_unref); /* unmaps after its last user */
  g_clear_pointer (&capture->frame_comments, g_hash_table_unref);
  g_clear_pointer (&capture->sections, g_array_unref);
  g_clear_pointer (&capture->interfaces, g_array_unref);
  g_rw_lock_clear (&capture->walk_lock);
  g_free (capture->comment);
  g_free (capture->source);
  g_free (capture->source_damage);
  g_free (capture->path);
  g_free (capture);
}

const char *
cs_capture_get_path (CsCapture *capture)
{
  return capture->path;
}

void
cs_capture_set_display_path (CsCapture *capture, const char *path)
{
  g_free (capture->path);
  capture->path = g_strdup (path);
}

guint64
cs_capture_get_size (CsCapture *capture)
{
  return capture->size;
}

const char *
cs_capture_get_format_name (CsCapture *capture)
{
  switch (capture->format)
    {
    case CS_CAPTURE_FORMAT_PCAP:
      return "pcap";
    case CS_CAPTURE_FORMAT_PCAP_NS:
      return "pcap-ns";
    case CS_CAPTURE_FORMAT_PCAPNG:
      return "pcapng";
    }
  return "unknown";
}

const char *
cs_capture_get_source (CsCapture *capture)
{
  return capture->source;
}

guint64
cs_capture_get_source_size (CsCapture *capture)
{
  return capture->source != NULL ? capture->source_size : capture->size;
}

const char *
cs_capture_get_comment (CsCapture *capture)
{
  return capture->comment;
}

const char *
cs_capture_get_frame_comment (CsCapture *capture, const CsFrame *frame)
{
  if (capture->frame_comments == NULL)
    return NULL;
  return g_hash_table_lookup (capture->frame_comments, &frame->offset);
}

void
cs_capture_add_frame_comment (CsCapture *capture, guint64 offset, const guint8 *text, gsize len)
{
  guint64 *key;

  if (capture->frame_comments == NULL)
    capture->frame_comments = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  if (g_hash_table_size (capture->frame_comments) >= CS_CAPTURE_MAX_FRAME_COMMENTS)
    return;
  key = g_new (guint64, 1);
  *key = offset;
  g_hash_table_replace (capture->frame_comments, key, g_strndup ((const char *) text, len));
}

/* After a clean index walk of a converted file: the damage its conversion stopped at. */
static gboolean
cs_capture_report_source_damage (CsCapture *capture, GError **error)
{
  if (capture->source_damage == NULL)
    return TRUE;
  cs_capture_set_error (capture, error, CS_CAPTURE_ERROR_TRUNCATED, "%s", capture->source_damage);
  return FALSE;
}

gboolean
cs_capture_index (CsCapture *capture, guint16 file_index, GArray *frames, GCancellable *cancellable,
                  CsCaptureProgressFunc progress, gpointer user_data, GError **error)
{
  CsIndexRun run = { capture, cancellable, progress, user_data, 0, 0 };
  gboolean ok;

  g_return_val_if_fail (capture != NULL, FALSE);
  g_return_val_if_fail (frames != NULL && g_array_get_element_size (frames) == sizeof (CsFrame),
                        FALSE);

  if (capture->frame_comments != NULL)
    g_hash_table_remove_all (capture->frame_comments);

  if (capture->format == CS_CAPTURE_FORMAT_PCAPNG)
    ok = cs_capture_pcapng_index (capture, file_index, frames, NULL, &run, error);
  else
    ok = cs_capture_pcap_index (capture, file_index, frames, NULL, &run, error);
  ok = ok && cs_capture_report_source_damage (capture, error);

  if (ok && progress != NULL)
    progress (capture->size, capture->size, user_data);
  return ok;
}

gboolean
cs_capture_index_anchors (CsCapture *capture, CsFrameAnchors *index, GCancellable *cancellable,
                          CsCaptureProgressFunc progress, gpointer user_data, GError **error)
{
  CsIndexRun run = { capture, cancellable, progress, user_data, 0, 0 };
  gboolean ok;

  g_return_val_if_fail (index != NULL && index->anchors != NULL, FALSE);

  if (capture->frame_comments != NULL)
    g_hash_table_remove_all (capture->frame_comments);
  g_array_set_size (index->anchors, 0);
  index->n_frames = 0;
  index->first_ns = 0;
  index->last_ns = 0;
  if (capture->format == CS_CAPTURE_FORMAT_PCAPNG)
    ok = cs_capture_pcapng_index (capture, 0, NULL, index, &run, error);
  else
    ok = cs_capture_pcap_index (capture, 0, NULL, index, &run, error);
  ok = ok && cs_capture_report_source_damage (capture, error);
  if (ok && progress != NULL)
    progress (capture->size, capture->size, user_data);
  return ok;
}

gboolean
cs_index_run_tick_slow (CsIndexRun *run, guint64 bytes_done, GError **error)
{
  if (run->records % CS_INDEX_CANCEL_CHECK_EVERY_RECORDS == 0
      && g_cancellable_set_error_if_cancelled (run->cancellable, error))
    return FALSE;
  /* The walk only reads record headers: drop its pages behind it so that indexing
   * does not hold the whole file in memory (decoding faults them back from the page
   * cache chunk by chunk, and drops them again after the merge) — unless the readers
   * that follow close behind drop them themselves. */
  if (bytes_done >= run->released + CS_INDEX_RELEASE_EVERY_BYTES)
    {
      if (!run->capture->keep_walked_pages)
        cs_capture_release_range (run->capture, run->released, bytes_done);
      run->released = bytes_done;
    }
  if (run->progress != NULL && run->records % CS_INDEX_PROGRESS_EVERY_RECORDS == 0)
    run->progress (bytes_done, run->capture->size, run->user_data);
  return TRUE;
}

void
cs_capture_set_error (CsCapture *capture, GError **error, CsCaptureError code, const char *format,
                      ...)
{
  va_list args;
  char *message;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  if (capture->source != NULL && capture->size != capture->source_size)
    /* offsets found by the reader are in the decompressed or converted copy */
    g_set_error (error, CS_CAPTURE_ERROR, code, "%s: %s (in its %s copy%s%s)", capture->path,
                 message,
                 g_str_equal (capture->source, "gzip") || g_str_equal (capture->source, "zstd")
                     ? "decompressed"
                     : "pcapng",
                 capture->source_damage != NULL ? "; " : "",
                 capture->source_damage != NULL ? capture->source_damage : "");
  else
    g_set_error (error, CS_CAPTURE_ERROR, code, "%s: %s", capture->path, message);
  g_free (message);
}

void
cs_capture_set_truncated (CsCapture *capture, GError **error, const char *what, guint64 offset,
                          guint needs)
{
  cs_capture_set_error (capture, error, CS_CAPTURE_ERROR_TRUNCATED,
                        "truncated %s header at byte offset %" G_GUINT64_FORMAT
                        " (needs %u bytes, %" G_GUINT64_FORMAT " left)",
                        what, offset, needs, capture->size - offset);
}

CsMappedBytes *
cs_capture_get_mapped_bytes (CsCapture *capture)
{
  return capture->bytes;
}

const guint8 *
cs_capture_frame_data (CsCapture *capture, const CsFrame *frame)
{
  if (frame->offset > capture->size || frame->caplen > capture->size - frame->offset)
    return NULL;
  return capture->data + frame->offset;
}

void
cs_capture_keep_walked_pages (CsCapture *capture, gboolean keep)
{
  capture->keep_walked_pages = keep;
}

void
cs_capture_release_range (CsCapture *capture, guint64 from, guint64 to)
{
  guint64 page = (guint64) sysconf (_SC_PAGESIZE);
  guint64 start, end;

  if (to > capture->size)
    to = capture->size;
  if (from >= to)
    return;
  /* only whole pages inside the range: a neighbour frame may share the edge pages */
  start = (from + page - 1) / page * page;
  end = to / page * page;
  if (to == capture->size)
    end = (to + page - 1) / page * page; /* the mapping's last page is ours alone */
  if (start >= end)
    return;
  madvise ((void *) (capture->data + start), (size_t) (end - start), MADV_DONTNEED);
}

int
cs_linktype_to_dlt (guint linktype)
{
  /* the few LINKTYPE_ values that differ from the local DLT_ ones (libpcap's table) */
  switch (linktype)
    {
    case 100:
      return DLT_ATM_RFC1483;
    case 101:
      return DLT_RAW;
    case 102:
      return DLT_SLIP_BSDOS;
    case 103:
      return DLT_PPP_BSDOS;
    case 106:
      return DLT_ATM_CLIP;
    case 50:
      return DLT_PPP_SERIAL;
    case 51:
      return DLT_PPP_ETHER;
    case 117:
      return DLT_PFLOG;
    default:
      return (int) linktype;
    }
}

static const char *
cs_linktype_unknown (guint linktype)
{
  char buf[32];

  g_snprintf (buf, sizeof buf, "LINKTYPE_%u", linktype);
  return g_intern_string (buf);
}

const char *
cs_linktype_name (guint linktype)
{
  const char *name = pcap_datalink_val_to_name (cs_linktype_to_dlt (linktype));

  return name != NULL ? name : cs_linktype_unknown (linktype);
}

const char *
cs_linktype_description (guint linktype)
{
  const char *text = pcap_datalink_val_to_description (cs_linktype_to_dlt (linktype));

  return text != NULL ? text : cs_linktype_unknown (linktype);
}
