/* cs-loader.c — parallel map (chunk decode) and in-order merge, blocking or in the background */
#include "cs-loader.h"

#include "cs-analysis-private.h"
#include "cs-error.h"
#include "cs-findings-detect.h"
#include "cs-merge.h"

/* The first chunk is small so the first calls show at once; the rest are
 * large enough that thread hand-offs cost nothing. */
#define CS_FIRST_CHUNK_FRAMES 2000
#define CS_CHUNK_FRAMES 32768
#define CS_INDEX_SHARE 0.1 /* part of the progress bar spent indexing */
#define CS_PROGRESS_INTERVAL_US (G_USEC_PER_SEC / 10)

struct _CsLoader
{
  GObject parent_instance;
  guint n_threads;
  char *filter;

  /* Progress, written by the load thread, read on the main context. */
  GMutex lock;
  double fraction;
  guint64 packets;
  double packets_per_second;
  char *message;
  gboolean notify_pending;
  GMainContext *context;
  gint64 started_us;
  gint64 last_report_us;

  CsAnalysis *analysis;
};

enum
{
  PROP_0,
  PROP_FRACTION,
  PROP_PACKETS,
  PROP_PACKETS_PER_SECOND,
  PROP_MESSAGE,
  PROP_ANALYSIS,
  N_PROPS
};
static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (CsLoader, cs_loader, G_TYPE_OBJECT)

static void
cs_loader_finalize (GObject *object)
{
  CsLoader *self = CS_LOADER (object);

  g_free (self->filter);
  g_free (self->message);
  g_clear_object (&self->analysis);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (cs_loader_parent_class)->finalize (object);
}

static void
cs_loader_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  CsLoader *self = CS_LOADER (object);

  g_mutex_lock (&self->lock);
  switch (prop_id)
    {
    case PROP_FRACTION:
      g_value_set_double (value, self->fraction);
      break;
    case PROP_PACKETS:
      g_value_set_uint64 (value, self->packets);
      break;
    case PROP_PACKETS_PER_SECOND:
      g_value_set_double (value, self->packets_per_second);
      break;
    case PROP_MESSAGE:
      g_value_set_string (value, self->message);
      break;
    case PROP_ANALYSIS:
      g_value_set_object (value, self->analysis);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
  g_mutex_unlock (&self->lock);
}

static void
cs_loader_class_init (CsLoaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = cs_loader_finalize;
  object_class->get_property = cs_loader_get_property;
  properties[PROP_FRACTION] = g_param_spec_double ("fraction", NULL, NULL, 0, 1, 0,
                                                   G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_PACKETS] = g_param_spec_uint64 ("packets", NULL, NULL, 0, G_MAXUINT64, 0,
                                                  G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_PACKETS_PER_SECOND]
      = g_param_spec_double ("packets-per-second", NULL, NULL, 0, G_MAXDOUBLE, 0,
                             G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_MESSAGE] = g_param_spec_string ("message", NULL, NULL, NULL,
                                                  G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_ANALYSIS] = g_param_spec_object ("analysis", NULL, NULL, CS_TYPE_ANALYSIS,
                                                   G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
cs_loader_init (CsLoader *self)
{
  g_mutex_init (&self->lock);
}

CsLoader *
cs_loader_new (void)
{
  return g_object_new (CS_TYPE_LOADER, NULL);
}

void
cs_loader_set_threads (CsLoader *self, guint n_threads)
{
  self->n_threads = n_threads;
}

guint
cs_loader_get_threads (CsLoader *self)
{
  return self->n_threads != 0 ? self->n_threads : MAX (1u, g_get_num_processors ());
}

void
cs_loader_set_filter (CsLoader *self, const char *bpf)
{
  g_free (self->filter);
  self->filter = (bpf != NULL && *bpf != '\0') ? g_strdup (bpf) : NULL;
}

double
cs_loader_get_fraction (CsLoader *self)
{
  return self->fraction;
}

guint64
cs_loader_get_packets (CsLoader *self)
{
  return self->packets;
}

double
cs_loader_get_packets_per_second (CsLoader *self)
{
  return self->packets_per_second;
}

const char *
cs_loader_get_message (CsLoader *self)
{
  return self->message;
}

CsAnalysis *
cs_loader_get_analysis (CsLoader *self)
{
  return self->analysis;
}

/* ---- progress: folded into one pending idle on the owner's context ---- */

static gboolean
cs_loader_notify_idle (gpointer user_data)
{
  CsLoader *self = user_data;

  g_mutex_lock (&self->lock);
  self->notify_pending = FALSE;
  g_mutex_unlock (&self->lock);
  g_object_freeze_notify (G_OBJECT (self));
  for (guint i = PROP_FRACTION; i <= PROP_ANALYSIS; i++)
    g_object_notify_by_pspec (G_OBJECT (self), properties[i]);
  if (self->analysis != NULL)
    cs_analysis_publish (self->analysis);
  g_object_thaw_notify (G_OBJECT (self));
  return G_SOURCE_REMOVE;
}

static void
cs_loader_report (CsLoader *self, double fraction, guint64 packets, const char *message,
                  gboolean force)
{
  gint64 now = g_get_monotonic_time ();
  gboolean schedule = FALSE;

  g_mutex_lock (&self->lock);
  if (force || now - self->last_report_us >= CS_PROGRESS_INTERVAL_US)
    {
      double elapsed = (double) (now - self->started_us) / G_USEC_PER_SEC;

      self->last_report_us = now;
      self->fraction = CLAMP (fraction, 0.0, 1.0);
      self->packets = packets;
      self->packets_per_second = elapsed > 0 ? (double) packets / elapsed : 0;
      if (message != NULL && g_strcmp0 (message, self->message) != 0)
        {
          g_free (self->message);
          self->message = g_strdup (message);
        }
      schedule = self->context != NULL && !self->notify_pending;
      if (schedule)
        self->notify_pending = TRUE;
    }
  g_mutex_unlock (&self->lock);
  if (schedule)
    {
      GSource *source = g_idle_source_new ();

      g_source_set_priority (source, G_PRIORITY_DEFAULT_IDLE);
      g_source_set_callback (source, cs_loader_notify_idle, g_object_ref (self), g_object_unref);
      g_source_attach (source, self->context);
      g_source_unref (source);
    }
}

typedef struct
{
  CsLoader *loader;
  guint64 total_bytes;
} CsIndexProgress;

static void
cs_loader_index_progress (guint64 done, guint64 total, gpointer user_data)
{
  CsIndexProgress *p = user_data;

  cs_loader_report (p->loader, total > 0 ? CS_INDEX_SHARE * (double) done / total : 0, 0,
                    "Indexing frames", FALSE);
}

/* ---- the parallel map ---- */

typedef struct
{
  CsCaptureSet *set;
  GCancellable *cancellable;
  CsChunk **chunks;
  gboolean *done;
  guint n_chunks;
  gint next; /* atomic: next chunk to decode */
  GMutex lock;
  GCond cond;
} CsMapJob;

static gpointer
cs_map_worker (gpointer user_data)
{
  CsMapJob *job = user_data;

  for (;;)
    {
      guint index = (guint) g_atomic_int_add (&job->next, 1);

      if (index >= job->n_chunks)
        break;
      cs_chunk_decode (job->chunks[index], job->set, job->cancellable);
      g_mutex_lock (&job->lock);
      job->done[index] = TRUE;
      g_cond_broadcast (&job->cond);
      g_mutex_unlock (&job->lock);
    }
  return NULL;
}

static GPtrArray *
cs_loader_plan_chunks (guint32 n_frames)
{
  GPtrArray *chunks = g_ptr_array_new ();
  guint32 start = 0;

  while (start < n_frames)
    {
      guint32 size = chunks->len == 0 ? CS_FIRST_CHUNK_FRAMES : CS_CHUNK_FRAMES;
      guint32 n = MIN (size, n_frames - start);

      g_ptr_array_add (chunks, cs_chunk_new (start, n));
      start += n;
    }
  return chunks;
}

static void
cs_loader_decode_and_merge (CsLoader *self, CsAnalysis *analysis, GCancellable *cancellable)
{
  CsCaptureSet *set = cs_analysis_get_capture_set (analysis);
  guint32 n_frames = cs_capture_set_get_n_frames (set);
  g_autoptr (GPtrArray) chunks = cs_loader_plan_chunks (n_frames);
  CsMapJob job = { 0 };
  CsMerge *merge = cs_merge_new (set, cs_analysis_get_stats_mutable (analysis));
  guint n_workers = MIN (cs_loader_get_threads (self), MAX (chunks->len, 1u));
  GThread **workers = g_new0 (GThread *, n_workers);
  guint64 merged_frames = 0;
  const CsFrame *frames = cs_capture_set_get_frames (set);

  job.set = set;
  job.cancellable = cancellable;
  job.chunks = (CsChunk **) chunks->pdata;
  job.n_chunks = chunks->len;
  job.done = g_new0 (gboolean, chunks->len);
  g_mutex_init (&job.lock);
  g_cond_init (&job.cond);
  for (guint i = 0; i < n_workers; i++)
    workers[i] = g_thread_new ("cs-decode", cs_map_worker, &job);

  for (guint i = 0; i < job.n_chunks; i++)
    {
      CsChunk *chunk = job.chunks[i];

      g_mutex_lock (&job.lock);
      while (!job.done[i])
        g_cond_wait (&job.cond, &job.lock);
      g_mutex_unlock (&job.lock);
      if (!g_cancellable_is_cancelled (cancellable))
        cs_merge_add_chunk (merge, chunk);
      merged_frames += chunk->n_frames;
      cs_analysis_get_stats_mutable (analysis)->bytes += chunk->bytes;
      /* The chunk's pages will not be read again soon. */
      if (chunk->n_frames > 0)
        {
          const CsFrame *last = &frames[chunk->first_index + chunk->n_frames - 1];

          if (cs_capture_set_get_n_files (set) == 1)
            cs_capture_release_range (cs_capture_set_get_file (set, 0),
                                      frames[chunk->first_index].offset,
                                      last->offset + last->caplen);
        }
      cs_chunk_free (chunk);
      job.chunks[i] = NULL;
      cs_loader_report (
          self, CS_INDEX_SHARE + (1 - CS_INDEX_SHARE) * (double) merged_frames / MAX (n_frames, 1),
          merged_frames, "Reconstructing calls", FALSE);
    }
  for (guint i = 0; i < n_workers; i++)
    g_thread_join (workers[i]);

  if (!g_cancellable_is_cancelled (cancellable))
    {
      const CsCaptureStats *stats = cs_analysis_get_stats (analysis);
      g_autoptr (GPtrArray) calls
          = cs_call_tracker_finish (cs_merge_get_tracker (merge), stats->last_ns);
      g_autoptr (GPtrArray) streams = NULL;
      g_autoptr (GPtrArray) findings = NULL;
      CsFindingThresholds thresholds;

      cs_analysis_take_calls (analysis, calls);
      cs_loader_report (self, 1, n_frames, "Measuring streams", TRUE);
      streams = cs_merge_build_streams (merge);
      cs_analysis_take_streams (analysis, streams);
      cs_finding_thresholds_init (&thresholds);
      findings = cs_findings_detect_all (calls, streams, stats, cs_analysis_get_damage (analysis),
                                         cs_merge_get_orphans (merge), &thresholds);
      cs_analysis_take_findings (analysis, findings);
    }
  cs_merge_free (merge);
  g_mutex_clear (&job.lock);
  g_cond_clear (&job.cond);
  g_free (job.done);
  g_free (workers);
}

static void
cs_loader_fill_frame_stats (CsAnalysis *analysis)
{
  CsCaptureSet *set = cs_analysis_get_capture_set (analysis);
  CsCaptureStats *stats = cs_analysis_get_stats_mutable (analysis);
  guint32 n = cs_capture_set_get_n_frames (set);
  const CsFrame *frames = cs_capture_set_get_frames (set);

  stats->n_files = cs_capture_set_get_n_files (set);
  stats->packets = n;
  stats->first_ns = n > 0 ? frames[0].ts_ns : 0;
  stats->last_ns = n > 0 ? frames[n - 1].ts_ns : 0;
  /* Merged files are sorted by time; a single file may step backwards. */
  for (guint32 i = 0; i < n; i++)
    {
      stats->first_ns = MIN (stats->first_ns, frames[i].ts_ns);
      stats->last_ns = MAX (stats->last_ns, frames[i].ts_ns);
    }
}

static CsAnalysis *
cs_loader_run (CsLoader *self, const char *const *paths, const char *filter,
               GCancellable *cancellable, GError **error)
{
  CsCaptureSet *set = cs_capture_set_new ();
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (GError) damage = NULL;
  CsIndexProgress index_progress = { self, 0 };

  self->started_us = g_get_monotonic_time ();
  if (paths == NULL || paths[0] == NULL)
    {
      cs_capture_set_free (set);
      g_set_error (error, CS_LOADER_ERROR, CS_LOADER_ERROR_NO_FILES, "No capture files given");
      return NULL;
    }
  for (guint i = 0; paths[i] != NULL; i++)
    if (!cs_capture_set_add_file (set, paths[i], error))
      {
        cs_capture_set_free (set);
        return NULL;
      }
  analysis = cs_analysis_new (set);
  g_mutex_lock (&self->lock);
  g_set_object (&self->analysis, analysis);
  g_mutex_unlock (&self->lock);
  cs_loader_report (self, 0, 0, "Indexing frames", TRUE);

  if (!cs_capture_set_index (set, cancellable, cs_loader_index_progress, &index_progress, &damage))
    {
      if (g_error_matches (damage, G_IO_ERROR, G_IO_ERROR_CANCELLED)
          || g_cancellable_is_cancelled (cancellable))
        goto cancelled;
      if (!g_error_matches (damage, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_TRUNCATED)
          && !g_error_matches (damage, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_CORRUPT))
        {
          g_propagate_error (error, g_steal_pointer (&damage));
          return NULL;
        }
      cs_analysis_set_damage (analysis, damage);
    }
  if (filter != NULL && !cs_capture_set_apply_filter (set, filter, error))
    return NULL;
  cs_loader_fill_frame_stats (analysis);
  cs_loader_decode_and_merge (self, analysis, cancellable);
  if (g_cancellable_is_cancelled (cancellable))
    goto cancelled;
  cs_loader_report (self, 1, cs_capture_set_get_n_frames (set), "Done", TRUE);
  return g_steal_pointer (&analysis);

cancelled:
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Loading was cancelled");
  return NULL;
}

CsAnalysis *
cs_loader_load (CsLoader *self, const char *const *paths, GCancellable *cancellable, GError **error)
{
  CsAnalysis *analysis;

  g_return_val_if_fail (CS_IS_LOADER (self), NULL);
  analysis = cs_loader_run (self, paths, self->filter, cancellable, error);
  if (analysis != NULL)
    cs_analysis_publish (analysis);
  return analysis;
}

/* ---- background load ---- */

typedef struct
{
  char **paths;
  char *filter;
} CsLoadTaskData;

static void
cs_load_task_data_free (CsLoadTaskData *data)
{
  g_strfreev (data->paths);
  g_free (data->filter);
  g_free (data);
}

static void
cs_loader_load_thread (GTask *task, gpointer source_object, gpointer task_data,
                       GCancellable *cancellable)
{
  CsLoader *self = source_object;
  CsLoadTaskData *data = task_data;
  GError *error = NULL;
  CsAnalysis *analysis
      = cs_loader_run (self, (const char *const *) data->paths, data->filter, cancellable, &error);

  if (analysis == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, analysis, g_object_unref);
}

void
cs_loader_load_async (CsLoader *self, const char *const *paths, GCancellable *cancellable,
                      GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  CsLoadTaskData *data = g_new0 (CsLoadTaskData, 1);

  data->paths = g_strdupv ((char **) paths);
  data->filter = g_strdup (self->filter);
  g_clear_pointer (&self->context, g_main_context_unref);
  self->context = g_main_context_ref_thread_default ();
  g_clear_object (&self->analysis);
  g_task_set_source_tag (task, cs_loader_load_async);
  g_task_set_task_data (task, data, (GDestroyNotify) cs_load_task_data_free);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, cs_loader_load_thread);
}

CsAnalysis *
cs_loader_load_finish (CsLoader *self, GAsyncResult *result, GError **error)
{
  CsAnalysis *analysis;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  analysis = g_task_propagate_pointer (G_TASK (result), error);
  if (analysis != NULL)
    cs_analysis_publish (analysis);
  return analysis;
}
