/* cs-capture-set.h — several capture files opened together, frames merged by time */
#pragma once

#include "cs-capture.h"

G_BEGIN_DECLS

typedef struct _CsCaptureSet CsCaptureSet;

CsCaptureSet *cs_capture_set_new (void);
void cs_capture_set_free (CsCaptureSet *set);

/* Opens and maps the file; errors as cs_capture_open (). */
gboolean cs_capture_set_add_file (CsCaptureSet *set, const char *path, GError **error);
/* The same with progress and cancellation while a compressed or other-format file is read
 * into its mapped copy (see cs_capture_open_full). */
gboolean cs_capture_set_add_file_full (CsCaptureSet *set, const char *path,
                                       CsCaptureProgressFunc progress, gpointer user_data,
                                       GCancellable *cancellable, GError **error);
guint cs_capture_set_get_n_files (CsCaptureSet *set);
CsCapture *cs_capture_set_get_file (CsCaptureSet *set, guint index);

/* Indexes every file and, with several, merges the frames by timestamp (ties
 * keep file order, records keep their order within a file, as mergecap does).
 * On damage returns FALSE with the first file's error but keeps every frame
 * read before the damage in every file. Progress counts bytes over all files. */
gboolean cs_capture_set_index (CsCaptureSet *set, GCancellable *cancellable,
                               CsCaptureProgressFunc progress, gpointer user_data, GError **error);

/* Capture points: called by cs_capture_set_index once every file (of several) is indexed and
 * before their frames are merged. per_file[f] holds file f's frames; the function sets
 * offsets[f] (zeroed) to file f's clock minus the reference clock, which is then taken off
 * every timestamp of the file, so the merged timeline is the reference point's. */
typedef void (*CsClockAlignFunc) (CsCaptureSet *set, GArray *const *per_file, guint n_files,
                                  gint64 *offsets, gpointer user_data);
void cs_capture_set_set_clock_align (CsCaptureSet *set, CsClockAlignFunc func, gpointer user_data);
/* TRUE when the files are capture points (a clock aligner was set and there are several). */
gboolean cs_capture_set_has_points (CsCaptureSet *set);
/* What was taken off file's timestamps (0 without points). */
gint64 cs_capture_set_get_clock_offset (CsCaptureSet *set, guint file);

guint cs_capture_set_get_n_frames (CsCaptureSet *set);
/* Copies frame `number` (1-based, as Wireshark numbers them) into *frame; FALSE if out of
 * range. A single file keeps only every 64th record's position (CsFrameAnchors), so this
 * re-reads up to 63 record headers: read runs of frames with CsFrameIter instead. */
gboolean cs_capture_set_get_frame (CsCaptureSet *set, guint32 number, CsFrame *frame);
const guint8 *cs_capture_set_frame_data (CsCaptureSet *set, const CsFrame *frame);
/* Both at once: frame `number` into *frame and its bytes; NULL if the number is out of
 * range or the bytes lie outside their file. */
const guint8 *cs_capture_set_read_frame (CsCaptureSet *set, guint32 number, CsFrame *frame);
/* Earliest and latest frame timestamps (0 without frames). */
void cs_capture_set_get_time_range (CsCaptureSet *set, gint64 *first_ns, gint64 *last_ns);

/* Reads consecutive frames. Only the mapped files (and the filter marks, which are set
 * after the index) are read once it is set up, so a worker thread may use it while the
 * index still grows, for frames the index has already passed. */
typedef struct
{
  CsCaptureSet *set;
  CsPcapRecords records;     /* single pcap file (records.data set): walk from position */
  CsCapture *pcapng;         /* single pcapng file: walk from position */
  CsFramePosition position;  /* of the next record */
  const CsFrame *frames;     /* otherwise: the frames, from the one asked for */
  const CsFrame *frames_end; /* … and where they end */
  const guint8 *filtered;    /* CS_FRAME_FILTERED_OUT bits by frame index, or NULL */
  guint32 index;             /* frame index (number - 1) of the next frame */
} CsFrameIter;

/* Positions iter on the frame at index (number - 1); call on the thread that indexes. */
void cs_capture_set_iter_init (CsCaptureSet *set, guint32 index, CsFrameIter *iter);
/* Makes iter independent of the set's frame array (which moves while it grows) by copying
 * the n frames it will read; returns the copy to free after use, or NULL if nothing needed
 * copying. */
CsFrame *cs_frame_iter_pin (CsFrameIter *iter, guint32 n);
/* cs_frame_iter_next for a pcapng file or a set that keeps a frame array. */
gboolean cs_frame_iter_next_listed (CsFrameIter *iter, CsFrame *frame, const guint8 **data);

/* The next frame and its bytes (NULL if they lie outside the file); FALSE if it cannot be
 * read (only past what was indexed). Inline: the decode workers call it once per frame. */
static inline gboolean
cs_frame_iter_next (CsFrameIter *iter, CsFrame *frame, const guint8 **data)
{
  if (iter->records.data == NULL)
    return cs_frame_iter_next_listed (iter, frame, data);
  *data
      = cs_pcap_records_read (&iter->records, iter->position.offset, frame, &iter->position.offset);
  if (*data == NULL)
    return FALSE;
  if (G_UNLIKELY (iter->filtered != NULL)
      && (iter->filtered[iter->index / 8] & (1u << (iter->index % 8))) != 0)
    frame->flags |= CS_FRAME_FILTERED_OUT;
  iter->index++;
  return TRUE;
}

/* Sum of the file sizes. */
guint64 cs_capture_set_get_total_bytes (CsCaptureSet *set);

/* Sets CS_FRAME_FILTERED_OUT on frames the BPF expression does not match and
 * clears it on the others (NULL or "" clears every mark). Frame numbers do not
 * change. A bad expression gives CS_CAPTURE_ERROR_FILTER with pcap's message. */
gboolean cs_capture_set_apply_filter (CsCaptureSet *set, const char *bpf, GError **error);

G_END_DECLS
