/* cs-capture-set.h — several capture files opened together, frames merged by time */
#pragma once

#include "cs-capture.h"

G_BEGIN_DECLS

typedef struct _CsCaptureSet CsCaptureSet;

CsCaptureSet *cs_capture_set_new (void);
void cs_capture_set_free (CsCaptureSet *set);

/* Opens and maps the file; errors as cs_capture_open (). */
gboolean cs_capture_set_add_file (CsCaptureSet *set, const char *path, GError **error);
guint cs_capture_set_get_n_files (CsCaptureSet *set);
CsCapture *cs_capture_set_get_file (CsCaptureSet *set, guint index);

/* Indexes every file and, with several, merges the frames by timestamp (ties
 * keep file order, records keep their order within a file, as mergecap does).
 * On damage returns FALSE with the first file's error but keeps every frame
 * read before the damage in every file. Progress counts bytes over all files. */
gboolean cs_capture_set_index (CsCaptureSet *set, GCancellable *cancellable,
                               CsCaptureProgressFunc progress, gpointer user_data, GError **error);

guint cs_capture_set_get_n_frames (CsCaptureSet *set);
/* 1-based frame number, as Wireshark numbers them; NULL if out of range. */
const CsFrame *cs_capture_set_get_frame (CsCaptureSet *set, guint32 number);
/* n_frames frames, frame N at [N - 1]. */
const CsFrame *cs_capture_set_get_frames (CsCaptureSet *set);
const guint8 *cs_capture_set_frame_data (CsCaptureSet *set, const CsFrame *frame);
/* Sum of the file sizes. */
guint64 cs_capture_set_get_total_bytes (CsCaptureSet *set);

/* Sets CS_FRAME_FILTERED_OUT on frames the BPF expression does not match and
 * clears it on the others (NULL or "" clears every mark). Frame numbers do not
 * change. A bad expression gives CS_CAPTURE_ERROR_FILTER with pcap's message. */
gboolean cs_capture_set_apply_filter (CsCaptureSet *set, const char *bpf, GError **error);

G_END_DECLS
