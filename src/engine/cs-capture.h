/* cs-capture.h — one memory-mapped pcap/pcapng file and its frame index */
#pragma once

#include <gio/gio.h>

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
 * its header. Errors: CS_CAPTURE_ERROR_OPEN, _FORMAT, _TRUNCATED. */
CsCapture *cs_capture_open (const char *path, GError **error);
void cs_capture_free (CsCapture *capture);

const char *cs_capture_get_path (CsCapture *capture);
guint64 cs_capture_get_size (CsCapture *capture);
/* "pcap", "pcap-ns" or "pcapng". */
const char *cs_capture_get_format_name (CsCapture *capture);

/* Appends one CsFrame per packet record to `frames` (GArray of CsFrame) with
 * file = file_index. On damage returns FALSE with CS_CAPTURE_ERROR_TRUNCATED or
 * _CORRUPT naming the path and byte offset; frames before the damage stay in
 * `frames`. Cancellation gives G_IO_ERROR_CANCELLED. */
gboolean cs_capture_index (CsCapture *capture, guint16 file_index, GArray *frames,
                           GCancellable *cancellable, CsCaptureProgressFunc progress,
                           gpointer user_data, GError **error);

/* A compact index of a classic pcap file: where every CS_FRAME_ANCHOR_EVERY-th record
 * starts (8 bytes per 64 frames instead of a CsFrame each); the frames between are read
 * again from their record headers (cs_capture_read_record). pcapng keeps a CsFrame array:
 * its records depend on the section and interface blocks before them. */
#define CS_FRAME_ANCHOR_EVERY 64

typedef struct
{
  GArray *anchors;  /* guint64 record offsets of frames 0, 64, 128, … */
  guint32 n_frames; /* records indexed so far (grows while the walk runs) */
  gint64 first_ns;  /* earliest and latest timestamps (0 without frames) */
  gint64 last_ns;
} CsFrameAnchors;

/* TRUE for a classic pcap file (cs_capture_index_anchors applies). */
gboolean cs_capture_has_fixed_records (CsCapture *capture);

/* cs_capture_index for a classic pcap file, keeping anchors instead of frames; errors,
 * progress and cancellation alike. */
gboolean cs_capture_index_anchors (CsCapture *capture, CsFrameAnchors *index,
                                   GCancellable *cancellable, CsCaptureProgressFunc progress,
                                   gpointer user_data, GError **error);

/* Reads the classic pcap record whose header starts at offset into frame (file 0, no flags)
 * and gives the next record's offset. FALSE if it does not fit in the file. */
gboolean cs_capture_read_record (CsCapture *capture, guint64 offset, CsFrame *frame, guint64 *next);

/* The frame's captured bytes (caplen of them) inside the mapping, or NULL if
 * the frame does not lie inside this file. */
const guint8 *cs_capture_frame_data (CsCapture *capture, const CsFrame *frame);

/* Drops the whole pages inside [from, to) from memory; they stay readable. */
void cs_capture_release_range (CsCapture *capture, guint64 from, guint64 to);

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
