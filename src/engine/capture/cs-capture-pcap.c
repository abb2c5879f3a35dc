/* cs-capture-pcap.c — classic libpcap files (µs and ns, either byte order) */
#include "cs-capture-private.h"

#define PCAP_FILE_HEADER_LEN 24
#define PCAP_RECORD_HEADER_LEN 16

gboolean
cs_capture_pcap_read_header (CsCapture *capture, GError **error)
{
  CsCursor c;
  guint32 magic = 0, snaplen = 0, network = 0, thiszone = 0, sigfigs = 0;
  guint16 major = 0, minor = 0;

  cs_cursor_init (&c, capture->data, capture->size);
  if (!cs_cursor_has (&c, PCAP_FILE_HEADER_LEN))
    {
      cs_capture_set_error (capture, error, CS_CAPTURE_ERROR_TRUNCATED,
                            "truncated pcap file header at byte offset 0 (needs %u bytes, "
                            "%" G_GUINT64_FORMAT " left)",
                            PCAP_FILE_HEADER_LEN, capture->size);
      return FALSE;
    }

  cs_cursor_u32be (&c, &magic);
  switch (magic)
    {
    case 0xa1b2c3d4:
      capture->big_endian = TRUE;
      capture->format = CS_CAPTURE_FORMAT_PCAP;
      break;
    case 0xd4c3b2a1:
      capture->big_endian = FALSE;
      capture->format = CS_CAPTURE_FORMAT_PCAP;
      break;
    case 0xa1b23c4d:
      capture->big_endian = TRUE;
      capture->format = CS_CAPTURE_FORMAT_PCAP_NS;
      break;
    case 0x4d3cb2a1:
      capture->big_endian = FALSE;
      capture->format = CS_CAPTURE_FORMAT_PCAP_NS;
      break;
    default:
      g_assert_not_reached ();
    }

  cs_cursor_u16 (&c, capture->big_endian, &major);
  cs_cursor_u16 (&c, capture->big_endian, &minor);
  cs_cursor_u32 (&c, capture->big_endian, &thiszone);
  cs_cursor_u32 (&c, capture->big_endian, &sigfigs);
  cs_cursor_u32 (&c, capture->big_endian, &snaplen);
  cs_cursor_u32 (&c, capture->big_endian, &network);

  if (major != 2)
    {
      g_set_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_FORMAT,
                   "%s: unsupported pcap version %u.%u", capture->path, major, minor);
      return FALSE;
    }
  /* upper bits carry the FCS length, not the link type */
  network &= 0x0FFFFFFF;
  if (network > G_MAXUINT16)
    {
      g_set_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_FORMAT, "%s: unsupported link type %u",
                   capture->path, network);
      return FALSE;
    }
  capture->linktype = (guint16) network;
  capture->snaplen = snaplen;
  return TRUE;
}

gboolean
cs_capture_get_pcap_records (CsCapture *capture, CsPcapRecords *records)
{
  if (capture->format == CS_CAPTURE_FORMAT_PCAPNG)
    return FALSE;
  records->data = capture->data;
  records->size = capture->size;
  /* snaplen 0 or absurd is common from odd writers; then only the hard cap applies */
  records->max_caplen = capture->snaplen > 0 && capture->snaplen < CS_CAPTURE_MAX_CAPLEN
                            ? capture->snaplen
                            : CS_CAPTURE_MAX_CAPLEN;
  records->linktype = capture->linktype;
  records->big_endian = capture->big_endian;
  records->nanoseconds = capture->format == CS_CAPTURE_FORMAT_PCAP_NS;
  return TRUE;
}

/* Why the record at offset cannot be read (cs_pcap_records_read gave NULL). */
static void
cs_pcap_record_error (CsCapture *capture, const CsPcapRecords *records, guint64 offset,
                      GError **error)
{
  guint64 left = capture->size - offset;
  guint32 caplen;

  if (left < PCAP_RECORD_HEADER_LEN)
    {
      cs_capture_set_truncated (capture, error, "record", offset, PCAP_RECORD_HEADER_LEN);
      return;
    }
  caplen = cs_pcap_records_u32 (records, capture->data + offset + 8);
  if (caplen > records->max_caplen)
    cs_capture_set_error (capture, error, CS_CAPTURE_ERROR_CORRUPT,
                          "corrupt record at byte offset %" G_GUINT64_FORMAT
                          " (captured length %u is larger than the limit of %u bytes)",
                          offset, caplen, records->max_caplen);
  else
    cs_capture_set_error (capture, error, CS_CAPTURE_ERROR_TRUNCATED,
                          "truncated record at byte offset %" G_GUINT64_FORMAT
                          " (needs %u bytes, %" G_GUINT64_FORMAT " left)",
                          offset, PCAP_RECORD_HEADER_LEN + caplen, left);
}

static inline guint32
cs_pcap_walk_u32 (const guint8 *p, gboolean big_endian)
{
  guint32 v;

  memcpy (&v, p, sizeof v);
  return big_endian ? GUINT32_FROM_BE (v) : GUINT32_FROM_LE (v);
}

/* The walk's record headers are a chain of dependent loads, one every ~250 bytes on VoIP
 * captures: every cache line up to this far ahead is prefetched (one prefetch per record
 * at a fixed distance missed most headers: A's walk over mapped pages 51 -> 11 ns per
 * record). Behind a record longer than that the lines restart at the next header. */
#define CS_PCAP_WALK_PREFETCH_BYTES 2048
#define CS_PCAP_WALK_LINE 64

static inline guint64
cs_pcap_walk_prefetch (const guint8 *data, guint64 size, guint64 offset, guint64 prefetched)
{
  guint64 until = MIN (offset + CS_PCAP_WALK_PREFETCH_BYTES, size);

  if (prefetched < offset)
    prefetched = offset & ~(guint64) (CS_PCAP_WALK_LINE - 1);
  for (; prefetched < until; prefetched += CS_PCAP_WALK_LINE)
    __builtin_prefetch (data + prefetched);
  return prefetched;
}

/* The anchors walk: it reads every record header of the file once, ahead of the decode
 * workers, on the one thread that indexes, so it keeps to what the anchors need (length,
 * time, every 64th position). Inlined per byte order; the index's counters are written
 * back before anything else may read them (the progress callback plans chunks). */
static inline gboolean
cs_pcap_walk_anchors (CsCapture *capture, const CsPcapRecords *records, CsFrameAnchors *index,
                      CsIndexRun *run, gboolean big_endian, GError **error)
{
  const guint8 *data = records->data;
  guint64 size = records->size, offset = PCAP_FILE_HEADER_LEN, prefetched = 0;
  guint64 max_caplen = records->max_caplen;
  guint64 frac_ns = records->nanoseconds ? 1 : 1000;
  guint32 n_frames = index->n_frames;
  gint64 first_ns = index->first_ns, last_ns = index->last_ns;
  /* the tick's counters, kept in registers between its rare slow calls */
  guint64 records_base = run->records - n_frames;
  guint32 until_check = CS_INDEX_CANCEL_CHECK_EVERY_RECORDS
                        - (guint32) (run->records % CS_INDEX_CANCEL_CHECK_EVERY_RECORDS);
  guint64 release_at = run->released + CS_INDEX_RELEASE_EVERY_BYTES;
  gboolean ok = TRUE;

  while (offset < size)
    {
      const guint8 *header = data + offset;
      guint64 caplen;
      gint64 ts_ns;

      if (G_UNLIKELY (size - offset < PCAP_RECORD_HEADER_LEN))
        goto bad_record;
      caplen = cs_pcap_walk_u32 (header + 8, big_endian);
      if (G_UNLIKELY (caplen > max_caplen || caplen > size - offset - PCAP_RECORD_HEADER_LEN))
        goto bad_record;
      prefetched = cs_pcap_walk_prefetch (data, size, offset, prefetched);
      ts_ns = (gint64) ((guint64) cs_pcap_walk_u32 (header, big_endian)
                            * G_GUINT64_CONSTANT (1000000000)
                        + (guint64) cs_pcap_walk_u32 (header + 4, big_endian) * frac_ns);
      if (G_UNLIKELY (n_frames % CS_FRAME_ANCHOR_EVERY == 0))
        {
          CsFramePosition position = { offset, 0, 0 };

          g_array_append_val (index->anchors, position);
          if (n_frames == 0)
            first_ns = last_ns = ts_ns;
        }
      first_ns = MIN (first_ns, ts_ns);
      last_ns = MAX (last_ns, ts_ns);
      n_frames++;
      offset += PCAP_RECORD_HEADER_LEN + caplen;
      if (G_LIKELY (--until_check != 0 && offset < release_at))
        continue;
      /* what cs_index_run_tick does when it has something to do */
      index->n_frames = n_frames;
      index->first_ns = first_ns;
      index->last_ns = last_ns;
      run->records = records_base + n_frames;
      if (!cs_index_run_tick_slow (run, offset, error))
        return FALSE;
      until_check = CS_INDEX_CANCEL_CHECK_EVERY_RECORDS
                    - (guint32) (run->records % CS_INDEX_CANCEL_CHECK_EVERY_RECORDS);
      release_at = run->released + CS_INDEX_RELEASE_EVERY_BYTES;
    }
  goto done;

bad_record:
  cs_pcap_record_error (capture, records, offset, error);
  ok = FALSE;
done:
  index->n_frames = n_frames;
  index->first_ns = first_ns;
  index->last_ns = last_ns;
  run->records = records_base + n_frames;
  return ok;
}

/* Walks the records; appends each to frames, or (frames NULL) keeps anchors in index. */
gboolean
cs_capture_pcap_index (CsCapture *capture, guint16 file_index, GArray *frames,
                       CsFrameAnchors *index, CsIndexRun *run, GError **error)
{
  CsPcapRecords records;
  guint64 offset = PCAP_FILE_HEADER_LEN, next, prefetched = 0;

  cs_capture_get_pcap_records (capture, &records);
  if (frames == NULL)
    return records.big_endian ? cs_pcap_walk_anchors (capture, &records, index, run, TRUE, error)
                              : cs_pcap_walk_anchors (capture, &records, index, run, FALSE, error);
  while (offset < capture->size)
    {
      CsFrame frame;

      if (cs_pcap_records_read (&records, offset, &frame, &next) == NULL)
        {
          cs_pcap_record_error (capture, &records, offset, error);
          return FALSE;
        }
      /* each caplen gives the next header: stream the lines ahead */
      prefetched = cs_pcap_walk_prefetch (capture->data, capture->size, offset, prefetched);
      if (frames != NULL)
        {
          frame.file = file_index;
          g_array_append_val (frames, frame);
        }
      else
        {
          CsFramePosition position = { offset, 0, 0 };

          cs_frame_anchors_add (index, &position, frame.ts_ns);
        }
      offset = next;
      if (!cs_index_run_tick (run, offset, error))
        return FALSE;
    }
  return TRUE;
}
