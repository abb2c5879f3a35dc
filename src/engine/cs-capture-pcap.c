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

static inline guint32
cs_pcap_u32 (const guint8 *p, gboolean be)
{
  if (be)
    return ((guint32) p[0] << 24) | ((guint32) p[1] << 16) | ((guint32) p[2] << 8) | p[3];
  return ((guint32) p[3] << 24) | ((guint32) p[2] << 16) | ((guint32) p[1] << 8) | p[0];
}

static guint32
cs_pcap_max_caplen (CsCapture *capture)
{
  /* snaplen 0 or absurd is common from odd writers; then only the hard cap applies */
  return capture->snaplen > 0 && capture->snaplen < CS_CAPTURE_MAX_CAPLEN ? capture->snaplen
                                                                          : CS_CAPTURE_MAX_CAPLEN;
}

/* Reads the record whose header is at offset (file 0, no flags). On damage sets the error
 * (when asked) and returns FALSE. */
static gboolean
cs_pcap_read_record (CsCapture *capture, guint64 offset, guint32 max_caplen, CsFrame *frame,
                     GError **error)
{
  const guint8 *header = capture->data + offset;
  guint64 left = offset <= capture->size ? capture->size - offset : 0;
  gboolean be = capture->big_endian;
  guint32 ts_sec, ts_frac, caplen;

  if (left < PCAP_RECORD_HEADER_LEN)
    {
      if (error != NULL)
        cs_capture_set_error (capture, error, CS_CAPTURE_ERROR_TRUNCATED,
                              "truncated record header at byte offset %" G_GUINT64_FORMAT
                              " (needs %u bytes, %" G_GUINT64_FORMAT " left)",
                              offset, PCAP_RECORD_HEADER_LEN, left);
      return FALSE;
    }
  ts_sec = cs_pcap_u32 (header, be);
  ts_frac = cs_pcap_u32 (header + 4, be);
  caplen = cs_pcap_u32 (header + 8, be);
  if (caplen > max_caplen)
    {
      if (error != NULL)
        cs_capture_set_error (capture, error, CS_CAPTURE_ERROR_CORRUPT,
                              "corrupt record at byte offset %" G_GUINT64_FORMAT
                              " (captured length %u is larger than the limit of %u bytes)",
                              offset, caplen, max_caplen);
      return FALSE;
    }
  if (caplen > left - PCAP_RECORD_HEADER_LEN)
    {
      if (error != NULL)
        cs_capture_set_error (capture, error, CS_CAPTURE_ERROR_TRUNCATED,
                              "truncated record at byte offset %" G_GUINT64_FORMAT
                              " (needs %u bytes, %" G_GUINT64_FORMAT " left)",
                              offset, PCAP_RECORD_HEADER_LEN + caplen, left);
      return FALSE;
    }
  frame->offset = offset + PCAP_RECORD_HEADER_LEN;
  frame->ts_ns
      = (gint64) ((guint64) ts_sec * G_GUINT64_CONSTANT (1000000000)
                  + (capture->format == CS_CAPTURE_FORMAT_PCAP_NS ? ts_frac
                                                                  : (guint64) ts_frac * 1000u));
  frame->caplen = caplen;
  frame->origlen = cs_pcap_u32 (header + 12, be);
  frame->linktype = capture->linktype;
  frame->file = 0;
  frame->flags = 0;
  return TRUE;
}

gboolean
cs_capture_pcap_read_record (CsCapture *capture, guint64 offset, CsFrame *frame, guint64 *next)
{
  if (!cs_pcap_read_record (capture, offset, CS_CAPTURE_MAX_CAPLEN, frame, NULL))
    return FALSE;
  *next = frame->offset + frame->caplen;
  return TRUE;
}

/* Walks the records; appends each to frames, or (frames NULL) keeps anchors in index. */
gboolean
cs_capture_pcap_index (CsCapture *capture, guint16 file_index, GArray *frames,
                       CsFrameAnchors *index, CsIndexRun *run, GError **error)
{
  guint32 max_caplen = cs_pcap_max_caplen (capture);
  guint64 offset = PCAP_FILE_HEADER_LEN;

  while (offset < capture->size)
    {
      CsFrame frame;

      if (!cs_pcap_read_record (capture, offset, max_caplen, &frame, error))
        return FALSE;
      /* Records are walked by a chain of dependent loads (each caplen gives the next
       * header): prefetching ahead turns the memory latency into streaming. */
      __builtin_prefetch (capture->data + frame.offset + 4096);
      if (frames != NULL)
        {
          frame.file = file_index;
          g_array_append_val (frames, frame);
        }
      else
        {
          if (index->n_frames % CS_FRAME_ANCHOR_EVERY == 0)
            g_array_append_val (index->anchors, offset);
          if (index->n_frames == 0 || frame.ts_ns < index->first_ns)
            index->first_ns = frame.ts_ns;
          if (index->n_frames == 0 || frame.ts_ns > index->last_ns)
            index->last_ns = frame.ts_ns;
          index->n_frames++;
        }
      offset = frame.offset + frame.caplen;
      if (!cs_index_run_tick (run, offset, error))
        return FALSE;
    }
  return TRUE;
}
