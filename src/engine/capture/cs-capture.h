/* cs-capture.h — one memory-mapped pcap/pcapng file and its frame index */
#pragma once

#include <gio/gio.h>
#include <string.h>

#include "base/cs-mapped-bytes.h"

G_BEGIN_DECLS

/* One packet record of a capture file (32 bytes). A single classic pcap file does not keep
 * one per packet (see CsFrameAnchors); pcapng files and sets of several files do. */
typedef struct
{
  guint64 offset;   /* byte offset in its file of the frame's first captured byte */
  gint64 ts_ns;     /* nanoseconds since the Unix epoch */
  guint32 caplen;   /* bytes present in the file */
  guint32 origlen;  /* bytes on the wire */
  guint16 linktype; /* DLT_* / LINKTYPE_* value */
  guint16 file;     /* index of the file in the capture set */
  guint32 flags;    /* CS_FRAME_* */
} CsFrame;

G_STATIC_ASSERT (sizeof (CsFrame) == 32);

#define CS_FRAME_FILTERED_OUT (1u << 0)
#define CS_FRAME_HAS_COMMENT (1u << 1) /* cs_capture_get_frame_comment () has text */

/* The largest caplen accepted in a pcap record (libpcap's and Wireshark's limit). */
#define CS_CAPTURE_MAX_CAPLEN (256u * 1024u)
/* Timestamps are clamped to [0, 2^62] ns (year 2116): differences never overflow. */
#define CS_TIMESTAMP_MAX_NS (G_GINT64_CONSTANT (1) << 62)

typedef struct _CsCapture CsCapture;

typedef void (*CsCaptureProgressFunc) (guint64 bytes_done, guint64 bytes_total, gpointer user_data);

/* Opens and maps a pcap (µs or ns, either byte order) or pcapng file and checks
 * its header. A gzip or zstd file is decompressed first (into a temporary file, at most
 * CS_CAPTURE_MAX_DECOMPRESSED bytes), a file in any other format libwiretap reads is
 * converted to pcapng (packets in Wireshark's order); both are then mapped like the file
 * (frame offsets are into that copy). Errors: CS_CAPTURE_ERROR_OPEN, _FORMAT, _TRUNCATED. */
CsCapture *cs_capture_open (const char *path, GError **error);
/* cs_capture_open with progress (bytes of the file read, of its size) while decompressing
 * or converting, and cancellation (G_IO_ERROR_CANCELLED). */
CsCapture *cs_capture_open_full (const char *path, CsCaptureProgressFunc progress,
                                 gpointer user_data, GCancellable *cancellable, GError **error);
void cs_capture_free (CsCapture *capture);

const char *cs_capture_get_path (CsCapture *capture);
/* What reports and errors call the file from now on (its bytes stay mapped): a redacted
 * export's temporary file is named for what it is, not where it was. */
void cs_capture_set_display_path (CsCapture *capture, const char *path);
/* The mapping's owner (borrowed; ref it to keep the bytes past cs_capture_free). */
CsMappedBytes *cs_capture_get_mapped_bytes (CsCapture *capture);
guint64 cs_capture_get_size (CsCapture *capture);
/* "pcap", "pcap-ns" or "pcapng" (of the mapped bytes: a converted file's is "pcapng"). */
const char *cs_capture_get_format_name (CsCapture *capture);
/* What the file itself is when it was not mapped as it is: "gzip", "zstd", or the format
 * libwiretap read ("Sun snoop"); NULL for a plain pcap/pcapng file. */
const char *cs_capture_get_source (CsCapture *capture);
/* The size of the file on disk (cs_capture_get_size is the mapped copy's). */
guint64 cs_capture_get_source_size (CsCapture *capture);

/* Appends one CsFrame per packet record to `frames` (GArray of CsFrame) with
 * file = file_index. On damage returns FALSE with CS_CAPTURE_ERROR_TRUNCATED or
 * _CORRUPT naming the path and byte offset; frames before the damage stay in
 * `frames`. Cancellation gives G_IO_ERROR_CANCELLED. */
gboolean cs_capture_index (CsCapture *capture, guint16 file_index, GArray *frames,
                           GCancellable *cancellable, CsCaptureProgressFunc progress,
                           gpointer user_data, GError **error);

/* A compact index of one file: where every CS_FRAME_ANCHOR_EVERY-th frame's record starts
 * (24 bytes per 64 frames instead of a 32-byte CsFrame each); the frames between are read
 * again from their record headers (cs_pcap_records_read, cs_capture_pcapng_next_frame). */
#define CS_FRAME_ANCHOR_EVERY 64

/* Where a walk over a file's records stands: the next record (pcap) or block (pcapng);
 * for pcapng also its section and the previous frame's time (simple packet blocks have
 * none of their own). */
typedef struct
{
  guint64 offset;
  gint64 last_ts_ns;
  guint32 section;
} CsFramePosition;

typedef struct
{
  GArray *anchors;  /* CsFramePosition of frames 0, 64, 128, … */
  guint32 n_frames; /* records indexed so far (grows while the walk runs) */
  gint64 first_ns;  /* earliest and latest timestamps (0 without frames) */
  gint64 last_ns;
} CsFrameAnchors;

/* cs_capture_index keeping anchors instead of frames; errors, progress and cancellation
 * alike. Afterwards (and for the frames indexed so far) cs_capture_pcapng_next_frame can
 * walk a pcapng file from any anchor. */
gboolean cs_capture_index_anchors (CsCapture *capture, CsFrameAnchors *index,
                                   GCancellable *cancellable, CsCaptureProgressFunc progress,
                                   gpointer user_data, GError **error);

/* Reads the pcapng frame at or after pos (skipping blocks that are not packets), fills
 * frame (file 0; CS_FRAME_HAS_COMMENT as the index found it), moves pos past it and
 * returns its bytes; NULL if there is none or it cannot be read. Only for positions the
 * anchors index gave (it knows the sections' byte orders and interfaces); thread-safe. */
const guint8 *cs_capture_pcapng_next_frame (CsCapture *capture, CsFramePosition *pos,
                                            CsFrame *frame);

/* What walking a classic pcap file's records needs, so that the walk can be inlined
 * (it runs once per frame in the index and again in the decode workers). */
typedef struct
{
  const guint8 *data; /* the mapping */
  guint64 size;
  guint32 max_caplen;
  guint16 linktype;
  gboolean big_endian;
  gboolean nanoseconds;
} CsPcapRecords;

/* FALSE for pcapng (its records are not self-describing). */
gboolean cs_capture_get_pcap_records (CsCapture *capture, CsPcapRecords *records);

static inline guint32
cs_pcap_records_u32 (const CsPcapRecords *records, const guint8 *p)
{
  guint32 v;

  memcpy (&v, p, sizeof v);
  return records->big_endian ? GUINT32_FROM_BE (v) : GUINT32_FROM_LE (v);
}

/* Reads the record whose 16-byte header starts at offset into frame (file 0, no flags),
 * sets *next to the following record and returns the frame's bytes; NULL when the header
 * or the captured bytes do not fit in the file or caplen is over the limit. */
static inline const guint8 *
cs_pcap_records_read (const CsPcapRecords *records, guint64 offset, CsFrame *frame, guint64 *next)
{
  const guint8 *header = records->data + offset;
  guint32 ts_sec, ts_frac, caplen;

  if (offset > records->size || records->size - offset < 16)
    return NULL;
  caplen = cs_pcap_records_u32 (records, header + 8);
  if (caplen > records->max_caplen || caplen > records->size - offset - 16)
    return NULL;
  ts_sec = cs_pcap_records_u32 (records, header);
  ts_frac = cs_pcap_records_u32 (records, header + 4);
  frame->offset = offset + 16;
  frame->ts_ns = (gint64) ((guint64) ts_sec * G_GUINT64_CONSTANT (1000000000)
                           + (records->nanoseconds ? ts_frac : (guint64) ts_frac * 1000u));
  frame->caplen = caplen;
  frame->origlen = cs_pcap_records_u32 (records, header + 12);
  frame->linktype = records->linktype;
  frame->file = 0;
  frame->flags = 0;
  *next = frame->offset + caplen;
  return header + 16;
}

/* The frame's captured bytes (caplen of them) inside the mapping, or NULL if
 * the frame does not lie inside this file. */
const guint8 *cs_capture_frame_data (CsCapture *capture, const CsFrame *frame);

/* Drops the whole pages inside [from, to) from memory; they stay readable. */
void cs_capture_release_range (CsCapture *capture, guint64 from, guint64 to);
/* With keep, the index walk does not drop the pages it read: whoever reads the frames
 * right after it (the loader's decode workers) drops them once done, and does not
 * fault them in a second time. */
void cs_capture_keep_walked_pages (CsCapture *capture, gboolean keep);

/* The first section's comment (pcapng shb_comment), or NULL. */
const char *cs_capture_get_comment (CsCapture *capture);
/* The packet's comment (pcapng opt_comment), or NULL; known after indexing. */
const char *cs_capture_get_frame_comment (CsCapture *capture, const CsFrame *frame);

/* Short name of a link type as libpcap spells it ("EN10MB"), "LINKTYPE_N" if unknown. */
const char *cs_linktype_name (guint linktype);
/* Human description ("Ethernet"), "LINKTYPE_N" if unknown. */
const char *cs_linktype_description (guint linktype);
/* The libpcap DLT_ value for a LINKTYPE_ value found in a file (they differ for a few). */
int cs_linktype_to_dlt (guint linktype);

G_END_DECLS
