/* cs-capture-set.c — several mapped files, one frame index merged by time */
#include "cs-capture-set.h"
#include "cs-capture-filter.h"
#include "base/cs-error.h"

#include <string.h>

struct _CsCaptureSet
{
  GPtrArray *files; /* CsCapture */
  /* A single file keeps anchors only (compact); several files a CsFrame per frame (frames,
   * frame N at [N - 1]), merged by time. */
  gboolean compact;
  CsFrameAnchors anchors;
  GArray *frames;
  gint64 first_ns, last_ns; /* of frames (the anchors keep their own) */
  guint8 *filtered;         /* bit per frame index: CS_FRAME_FILTERED_OUT; NULL = none */
  guint64 total_bytes;
  CsClockAlignFunc align; /* capture points, or NULL */
  gpointer align_data;
  gint64 *clock_offsets; /* per file, once aligned */
};

typedef struct
{
  CsCaptureProgressFunc progress;
  gpointer user_data;
  guint64 bytes_before; /* sizes of the files already indexed */
  guint64 bytes_total;
} CsSetProgress;

CsCaptureSet *
cs_capture_set_new (void)
{
  CsCaptureSet *set = g_new0 (CsCaptureSet, 1);

  set->files = g_ptr_array_new_with_free_func ((GDestroyNotify) cs_capture_free);
  set->frames = g_array_new (FALSE, FALSE, sizeof (CsFrame));
  set->anchors.anchors = g_array_new (FALSE, FALSE, sizeof (CsFramePosition));
  return set;
}

void
cs_capture_set_free (CsCaptureSet *set)
{
  if (set == NULL)
    return;
  g_ptr_array_unref (set->files);
  g_array_unref (set->frames);
  g_array_unref (set->anchors.anchors);
  g_free (set->filtered);
  g_free (set->clock_offsets);
  g_free (set);
}

gboolean
cs_capture_set_add_file (CsCaptureSet *set, const char *path, GError **error)
{
  return cs_capture_set_add_file_full (set, path, NULL, NULL, NULL, error);
}

gboolean
cs_capture_set_add_file_full (CsCaptureSet *set, const char *path, CsCaptureProgressFunc progress,
                              gpointer user_data, GCancellable *cancellable, GError **error)
{
  CsCapture *capture;

  /* CsFrame.file is 16 bits */
  if (set->files->len > G_MAXUINT16)
    {
      g_set_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_OPEN,
                   "%s: too many files in one capture set (at most %u)", path, G_MAXUINT16 + 1);
      return FALSE;
    }
  capture = cs_capture_open_full (path, progress, user_data, cancellable, error);
  if (capture == NULL)
    return FALSE;
  g_ptr_array_add (set->files, capture);
  set->total_bytes += cs_capture_get_size (capture);
  return TRUE;
}

guint
cs_capture_set_get_n_files (CsCaptureSet *set)
{
  return set->files->len;
}

CsCapture *
cs_capture_set_get_file (CsCaptureSet *set, guint index)
{
  g_return_val_if_fail (index < set->files->len, NULL);
  return g_ptr_array_index (set->files, index);
}

static void
cs_set_progress_forward (guint64 bytes_done, guint64 bytes_total, gpointer user_data)
{
  CsSetProgress *set_progress = user_data;

  set_progress->progress (set_progress->bytes_before + bytes_done, set_progress->bytes_total,
                          set_progress->user_data);
}

/* Min-heap of file indices ordered by their next frame's time, then file index. */
typedef struct
{
  GArray **per_file;
  guint *next; /* next record per file */
  guint *heap;
  guint n;
} CsMergeHeap;

static gboolean
cs_merge_before (CsMergeHeap *h, guint a, guint b)
{
  gint64 ta = g_array_index (h->per_file[a], CsFrame, h->next[a]).ts_ns;
  gint64 tb = g_array_index (h->per_file[b], CsFrame, h->next[b]).ts_ns;

  return ta < tb || (ta == tb && a < b);
}

static void
cs_merge_sift_down (CsMergeHeap *h, guint i)
{
  for (;;)
    {
      guint smallest = i, left = 2 * i + 1, right = 2 * i + 2, tmp;

      if (left < h->n && cs_merge_before (h, h->heap[left], h->heap[smallest]))
        smallest = left;
      if (right < h->n && cs_merge_before (h, h->heap[right], h->heap[smallest]))
        smallest = right;
      if (smallest == i)
        return;
      tmp = h->heap[i];
      h->heap[i] = h->heap[smallest];
      h->heap[smallest] = tmp;
      i = smallest;
    }
}

/* k-way merge: records keep their order within each file, like mergecap. */
static void
cs_merge_frames (GArray **per_file, guint n_files, GArray *out)
{
  CsMergeHeap h = { per_file, g_new0 (guint, n_files), g_new (guint, n_files), 0 };

  for (guint f = 0; f < n_files; f++)
    if (per_file[f]->len > 0)
      h.heap[h.n++] = f;
  for (guint i = h.n / 2; i-- > 0;)
    cs_merge_sift_down (&h, i);

  while (h.n > 0)
    {
      guint f = h.heap[0];

      g_array_append_val (out, g_array_index (per_file[f], CsFrame, h.next[f]));
      if (++h.next[f] == per_file[f]->len)
        h.heap[0] = h.heap[--h.n];
      cs_merge_sift_down (&h, 0);
    }
  g_free (h.next);
  g_free (h.heap);
}

static void
cs_capture_set_find_time_range (CsCaptureSet *set)
{
  const CsFrame *frames = (const CsFrame *) set->frames->data;

  /* merged files are sorted by time, but a single file may step backwards */
  for (guint i = 0; i < set->frames->len; i++)
    {
      if (i == 0 || frames[i].ts_ns < set->first_ns)
        set->first_ns = frames[i].ts_ns;
      if (i == 0 || frames[i].ts_ns > set->last_ns)
        set->last_ns = frames[i].ts_ns;
    }
}

void
cs_capture_set_set_clock_align (CsCaptureSet *set, CsClockAlignFunc func, gpointer user_data)
{
  set->align = func;
  set->align_data = user_data;
}

gboolean
cs_capture_set_has_points (CsCaptureSet *set)
{
  return set->align != NULL && set->files->len > 1;
}

gint64
cs_capture_set_get_clock_offset (CsCaptureSet *set, guint file)
{
  return set->clock_offsets != NULL && file < set->files->len ? set->clock_offsets[file] : 0;
}

/* Puts every file on the reference clock (timestamps stay within [0, CS_TIMESTAMP_MAX_NS]). */
static void
cs_capture_set_align_clocks (CsCaptureSet *set, GArray **per_file, guint n_files)
{
  g_free (set->clock_offsets);
  set->clock_offsets = g_new0 (gint64, n_files);
  set->align (set, (GArray *const *) per_file, n_files, set->clock_offsets, set->align_data);
  for (guint f = 0; f < n_files; f++)
    {
      gint64 offset = set->clock_offsets[f];

      if (offset == 0)
        continue;
      for (guint i = 0; i < per_file[f]->len; i++)
        {
          CsFrame *frame = &g_array_index (per_file[f], CsFrame, i);

          frame->ts_ns = CLAMP (frame->ts_ns - offset, 0, CS_TIMESTAMP_MAX_NS);
        }
    }
}

gboolean
cs_capture_set_index (CsCaptureSet *set, GCancellable *cancellable, CsCaptureProgressFunc progress,
                      gpointer user_data, GError **error)
{
  CsSetProgress set_progress = { progress, user_data, 0, set->total_bytes };
  guint n_files = set->files->len;
  GArray **per_file;
  GError *first_error = NULL;
  gboolean cancelled = FALSE;

  g_array_set_size (set->frames, 0);
  g_clear_pointer (&set->filtered, g_free);
  set->first_ns = set->last_ns = 0;
  set->compact = n_files == 1;
  if (set->compact)
    return cs_capture_index_anchors (g_ptr_array_index (set->files, 0), &set->anchors, cancellable,
                                     progress, user_data, error);
  per_file = g_new0 (GArray *, n_files);
  for (guint f = 0; f < n_files; f++)
    {
      CsCapture *capture = g_ptr_array_index (set->files, f);
      GError *local_error = NULL;

      per_file[f] = g_array_new (FALSE, FALSE, sizeof (CsFrame));
      if (cancelled)
        continue;
      if (!cs_capture_index (capture, (guint16) f, per_file[f], cancellable,
                             progress != NULL ? cs_set_progress_forward : NULL, &set_progress,
                             &local_error))
        {
          cancelled = g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
          /* a cancel overrides damage: the caller asked to stop */
          if (first_error == NULL || cancelled)
            {
              g_clear_error (&first_error);
              first_error = local_error;
            }
          else
            g_error_free (local_error);
        }
      set_progress.bytes_before += cs_capture_get_size (capture);
    }

  if (!cancelled && set->align != NULL)
    cs_capture_set_align_clocks (set, per_file, n_files);
  if (!cancelled)
    cs_merge_frames (per_file, n_files, set->frames);
  cs_capture_set_find_time_range (set);
  for (guint f = 0; f < n_files; f++)
    g_array_unref (per_file[f]);
  g_free (per_file);

  if (first_error != NULL)
    {
      g_propagate_error (error, first_error);
      return FALSE;
    }
  return TRUE;
}

guint
cs_capture_set_get_n_frames (CsCaptureSet *set)
{
  return set->compact ? set->anchors.n_frames : set->frames->len;
}

void
cs_capture_set_get_time_range (CsCaptureSet *set, gint64 *first_ns, gint64 *last_ns)
{
  *first_ns = set->compact ? set->anchors.first_ns : set->first_ns;
  *last_ns = set->compact ? set->anchors.last_ns : set->last_ns;
}

void
cs_capture_set_iter_init (CsCaptureSet *set, guint32 index, CsFrameIter *iter)
{
  CsCapture *capture;

  memset (iter, 0, sizeof *iter);
  iter->set = set;
  iter->filtered = set->filtered;
  iter->index = index;
  if (!set->compact)
    {
      if (index < set->frames->len)
        {
          iter->frames = &g_array_index (set->frames, CsFrame, index);
          iter->frames_end = (const CsFrame *) set->frames->data + set->frames->len;
        }
      return;
    }
  capture = g_ptr_array_index (set->files, 0);
  if (!cs_capture_get_pcap_records (capture, &iter->records))
    iter->pcapng = capture;
  if (index >= set->anchors.n_frames)
    {
      iter->position.offset = cs_capture_get_size (capture); /* nothing to read */
      return;
    }
  iter->position
      = g_array_index (set->anchors.anchors, CsFramePosition, index / CS_FRAME_ANCHOR_EVERY);
  for (guint32 i = index - index % CS_FRAME_ANCHOR_EVERY; i < index; i++)
    {
      CsFrame skipped;
      const guint8 *data;

      if (!cs_frame_iter_next (iter, &skipped, &data))
        break;
    }
  iter->index = index;
}

CsFrame *
cs_frame_iter_pin (CsFrameIter *iter, guint32 n)
{
  CsFrame *copy;

  if (iter->frames == NULL || n == 0)
    return NULL;
  n = (guint32) MIN ((gsize) n, (gsize) (iter->frames_end - iter->frames));
  copy = g_memdup2 (iter->frames, (gsize) n * sizeof (CsFrame));
  iter->frames = copy;
  iter->frames_end = copy + n;
  return copy;
}

gboolean
cs_frame_iter_next_listed (CsFrameIter *iter, CsFrame *frame, const guint8 **data)
{
  if (iter->pcapng != NULL)
    {
      *data = cs_capture_pcapng_next_frame (iter->pcapng, &iter->position, frame);
      if (*data == NULL)
        return FALSE;
    }
  else if (iter->frames != NULL && iter->frames < iter->frames_end)
    {
      *frame = *iter->frames++;
      *data = cs_capture_set_frame_data (iter->set, frame);
    }
  else
    return FALSE;
  if (iter->filtered != NULL && (iter->filtered[iter->index / 8] & (1u << (iter->index % 8))) != 0)
    frame->flags |= CS_FRAME_FILTERED_OUT;
  iter->index++;
  return TRUE;
}

gboolean
cs_capture_set_get_frame (CsCaptureSet *set, guint32 number, CsFrame *frame)
{
  return cs_capture_set_read_frame (set, number, frame) != NULL;
}

const guint8 *
cs_capture_set_read_frame (CsCaptureSet *set, guint32 number, CsFrame *frame)
{
  CsFrameIter iter;
  const guint8 *data;

  if (number == 0 || number > cs_capture_set_get_n_frames (set))
    return NULL;
  cs_capture_set_iter_init (set, number - 1, &iter);
  return cs_frame_iter_next (&iter, frame, &data) ? data : NULL;
}

const guint8 *
cs_capture_set_frame_data (CsCaptureSet *set, const CsFrame *frame)
{
  if (frame->file >= set->files->len)
    return NULL;
  return cs_capture_frame_data (g_ptr_array_index (set->files, frame->file), frame);
}

guint64
cs_capture_set_get_total_bytes (CsCaptureSet *set)
{
  return set->total_bytes;
}

gboolean
cs_capture_set_apply_filter (CsCaptureSet *set, const char *bpf, GError **error)
{
  guint n_frames = cs_capture_set_get_n_frames (set);
  GArray *linktypes;
  CsCaptureFilter *filter;
  CsFrameIter iter;
  guint8 *seen; /* one bit per link type */
  guint8 *filtered;

  if (bpf == NULL || *bpf == '\0')
    {
      g_clear_pointer (&set->filtered, g_free);
      return TRUE;
    }

  linktypes = g_array_new (FALSE, FALSE, sizeof (guint16));
  seen = g_malloc0 ((G_MAXUINT16 + 1) / 8);
  cs_capture_set_iter_init (set, 0, &iter);
  for (guint i = 0; i < n_frames; i++)
    {
      CsFrame frame;
      const guint8 *data;
      guint16 linktype;

      if (!cs_frame_iter_next (&iter, &frame, &data))
        break;
      linktype = frame.linktype;
      if ((seen[linktype / 8] & (1u << (linktype % 8))) == 0)
        {
          seen[linktype / 8] |= (guint8) (1u << (linktype % 8));
          g_array_append_val (linktypes, linktype);
        }
      if (set->compact)
        break; /* one file, one link type */
    }
  g_free (seen);
  filter = cs_capture_filter_new (bpf, (const guint16 *) linktypes->data, linktypes->len, error);
  g_array_unref (linktypes);
  if (filter == NULL)
    return FALSE;

  /* a bad expression above leaves the marks as they were */
  g_clear_pointer (&set->filtered, g_free);
  filtered = g_malloc0 (n_frames / 8 + 1);
  cs_capture_set_iter_init (set, 0, &iter);
  for (guint i = 0; i < n_frames; i++)
    {
      CsFrame frame;
      const guint8 *data;

      if (!cs_frame_iter_next (&iter, &frame, &data))
        break;
      if (!cs_capture_filter_matches (filter, &frame, data))
        filtered[i / 8] |= (guint8) (1u << (i % 8));
    }
  cs_capture_filter_free (filter);
  set->filtered = filtered;
  return TRUE;
}
