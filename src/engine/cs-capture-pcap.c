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
cs_capture_pcap_index (CsCapture *capture, guint16 file_index, GArray *frames, CsIndexRun *run,
                       GError **error)
{
  gboolean be = capture->big_endian;
  gboolean nanoseconds = capture->format == CS_CAPTURE_FORMAT_PCAP_NS;
  /* snaplen 0 or absurd is common from odd writers; then only the hard cap applies */
  guint32 max_caplen = capture->snaplen > 0 && capture->snaplen < CS_CAPTURE_MAX_CAPLEN
                           ? capture->snaplen
                           : CS_CAPTURE_MAX_CAPLEN;
  CsCursor c;

  cs_cursor_init (&c, capture->data, capture->size);
  cs_cursor_skip (&c, PCAP_FILE_HEADER_LEN);

  while (cs_cursor_remaining (&c) > 0)
    {
      guint64 record_offset = c.pos;
      guint32 ts_sec = 0, ts_frac = 0, caplen = 0, origlen = 0;
      CsFrame frame;

      if (!cs_cursor_has (&c, PCAP_RECORD_HEADER_LEN))
        {
          cs_capture_set_error (capture, error, CS_CAPTURE_ERROR_TRUNCATED,
                                "truncated record header at byte offset %" G_GUINT64_FORMAT
                                " (needs %u bytes, %" G_GSIZE_FORMAT " left)",
                                record_offset, PCAP_RECORD_HEADER_LEN, cs_cursor_remaining (&c));
          return FALSE;
        }
      cs_cursor_u32 (&c, be, &ts_sec);
      cs_cursor_u32 (&c, be, &ts_frac);
      cs_cursor_u32 (&c, be, &caplen);
      cs_cursor_u32 (&c, be, &origlen);

      if (caplen > max_caplen)
        {
          cs_capture_set_error (capture, error, CS_CAPTURE_ERROR_CORRUPT,
                                "corrupt record at byte offset %" G_GUINT64_FORMAT
                                " (captured length %u is larger than the limit of %u bytes)",
                                record_offset, caplen, max_caplen);
          return FALSE;
        }
      if (!cs_cursor_has (&c, caplen))
        {
          cs_capture_set_error (capture, error, CS_CAPTURE_ERROR_TRUNCATED,
                                "truncated record at byte offset %" G_GUINT64_FORMAT
                                " (needs %u bytes, %" G_GUINT64_FORMAT " left)",
                                record_offset, PCAP_RECORD_HEADER_LEN + caplen,
                                capture->size - record_offset);
          return FALSE;
        }

      /* Records are walked by a chain of dependent loads (each caplen gives the next
       * header): prefetching ahead turns the memory latency into streaming. */
      __builtin_prefetch (c.data + c.pos + 4096);
      frame.offset = c.pos;
      frame.ts_ns = (gint64) ((guint64) ts_sec * G_GUINT64_CONSTANT (1000000000)
                              + (nanoseconds ? ts_frac : (guint64) ts_frac * 1000u));
      frame.caplen = caplen;
      frame.origlen = origlen;
      frame.linktype = capture->linktype;
      frame.file = file_index;
      frame.flags = 0;
      g_array_append_val (frames, frame);
      cs_cursor_skip (&c, caplen);

      if (!cs_index_run_tick (run, c.pos, error))
        return FALSE;
    }
  return TRUE;
}
