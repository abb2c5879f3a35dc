/* cs-loader.c — parallel map (chunk decode) and in-order merge, blocking or in the background */
#include "cs-loader.h"

#include "cs-analysis-private.h"
#include "cs-call-dtmf.h"
#include "cs-error.h"
#include "cs-findings-detect.h"
#include "cs-merge.h"
#include "cs-slab.h"
#include "cs-stream-rtcp.h"

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

/* The first chunk is small so the first calls show at once; the rest are
 * large enough that thread hand-offs cost nothing, except the last few: they shrink
 * towards the end of the capture so that the workers finish together and the merge
 * that follows the last decode is short. */
#define CS_FIRST_CHUNK_FRAMES 2000
#define CS_CHUNK_FRAMES 32768
#define CS_TAIL_CHUNK_MIN_FRAMES 8192
#define CS_CHUNKS_IN_FLIGHT_PER_WORKER 2
#define CS_SNAPSHOT_INTERVAL_US (G_USEC_PER_SEC / 5)
#define CS_INDEX_SHARE 0.1 /* part of the progress bar spent indexing */
#define CS_PROGRESS_INTERVAL_US (G_USEC_PER_SEC / 10)
/* below this, the walked pages kept for several workers cost little next to the file */
#define CS_KEEP_WALKED_MAX_BYTES (256u * 1024 * 1024)
#define CS_KEEP_WALKED_MAX_FRAME_BYTES 1024

struct _CsLoader
{
  GObject parent_instance;
  guint n_threads;
  guint chunk_frames; /* 0: the default chunk sizes */
  CsLimits limits;
  char *filter;
  gboolean publish_in_slices; /* load_finish leaves the real calls to idles (a window) */

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
  cs_limits_init_default (&self->limits);
  /* Ignored when malformed: the CLI and app validate it themselves. */
  cs_limits_parse (&self->limits, g_getenv (CS_LIMITS_ENV), NULL);
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

void
cs_loader_set_chunk_frames (CsLoader *self, guint chunk_frames)
{
  self->chunk_frames = chunk_frames;
}

guint
cs_loader_get_threads (CsLoader *self)
{
  return self->n_threads != 0 ? self->n_threads : MAX (1u, g_get_num_processors ());
}

gboolean
cs_loader_keeps_walked_pages (guint64 capture_bytes)
{
  return capture_bytes <= CS_KEEP_WALKED_MAX_BYTES;
}

gboolean
cs_loader_keeps_walked_pages_for (guint64 walked_bytes, guint64 walked_frames)
{
  return walked_bytes <= walked_frames * CS_KEEP_WALKED_MAX_FRAME_BYTES;
}

/* Tells every file of the set whether its walk keeps its pages (see the header). */
static void
cs_loader_set_walked_pages (CsCaptureSet *set, gboolean keep)
{
  for (guint i = 0; i < cs_capture_set_get_n_files (set); i++)
    cs_capture_keep_walked_pages (cs_capture_set_get_file (set, i), keep);
}

static gboolean
cs_loader_may_keep_walked_pages (CsCaptureSet *set)
{
  guint64 bytes = 0;

  for (guint i = 0; i < cs_capture_set_get_n_files (set); i++)
    bytes += cs_capture_get_size (cs_capture_set_get_file (set, i));
  return cs_loader_keeps_walked_pages (bytes);
}

void
cs_loader_set_limits (CsLoader *self, const CsLimits *limits)
{
  self->limits = *limits;
  cs_limits_fill_defaults (&self->limits);
}

const CsLimits *
cs_loader_get_limits (CsLoader *self)
{
  return &self->limits;
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
  g_object_thaw_notify (G_OBJECT (self));
  /* Only copies (the real calls, streams and findings are published by load_finish), and
   * after notify::analysis: a window showing the analysis gets the rows in budgeted slices
   * instead of all at once when it attaches. */
  if (self->analysis != NULL)
    cs_analysis_publish_snapshots (self->analysis);
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

/* CALLSCOPE_PROFILE=1 prints each phase's wall time and memory to stderr (tests/bench). */
static void
cs_loader_profile (const char *phase)
{
  static gint64 last_us;
  g_autofree char *status = NULL;
  const char *rss, *hwm;
  gint64 now = g_get_monotonic_time ();

  if (g_getenv ("CALLSCOPE_PROFILE") == NULL)
    return;
  if (last_us == 0 || g_str_equal (phase, "start"))
    last_us = now;
  g_file_get_contents ("/proc/self/status", &status, NULL, NULL);
  rss = status != NULL ? strstr (status, "VmRSS:") : NULL;
  hwm = status != NULL ? strstr (status, "VmHWM:") : NULL;
  g_printerr ("callscope-profile: %-10s %8.1f ms  rss %6lld KiB  peak %6lld KiB\n", phase,
              (now - last_us) / 1000.0, rss != NULL ? g_ascii_strtoll (rss + 6, NULL, 10) : 0LL,
              hwm != NULL ? g_ascii_strtoll (hwm + 6, NULL, 10) : 0LL);
  last_us = now;
}

/* ---- the parallel map, pipelined with the index ----
 *
 * The index walk (main thread) plans chunks as soon as their frames are known; a chunk
 * walks the records of its file itself from where the index located it, while the index
 * keeps growing. The main thread merges decoded chunks in order whenever it can, so only
 * a few chunks are ever in flight (pages and results stay bounded). */

typedef struct
{
  CsLoader *loader;
  CsCaptureSet *set;
  CsAnalysis *analysis;
  GCancellable *cancellable;
  CsMerge *merge;
  GAsyncQueue *todo;  /* CsChunk* to decode; the pipeline itself is the stop sentinel */
  GAsyncQueue *spent; /* CsChunk* merged: the workers free them between decodes */
  GThread **workers;
  guint n_workers;
  GMutex lock; /* guards CsChunk.decoded */
  GCond cond;
  GPtrArray *chunks; /* planned, in capture order; merged ones are NULL */
  guint n_merged;
  guint32 planned_frames;
  guint64 merged_frames;
  guint64 indexed_bytes; /* of index_bytes, as the walk last told */
  guint64 index_bytes;
  gboolean indexing;              /* progress: the index is still running */
  gboolean can_pipeline;          /* no filter: frames can be decoded before the index ends */
  gboolean may_keep_walked_pages; /* one worker or a small capture (see the header) */
  gboolean keeps_walked_pages;    /* and the frames seen so far are small */
  double index_share;             /* part of the progress bar the index walk stands for */
  double index_fraction;
  gint64 last_snapshot_us;   /* when calls were last copied for the GUI */
  gboolean snapshots_staged; /* copies wait for a publish: report at once */
} CsPipeline;

static gboolean
cs_chunk_is_decoded (CsChunk *chunk)
{
  return g_atomic_int_get (&chunk->decoded);
}

static gpointer
cs_pipeline_worker (gpointer user_data)
{
  CsPipeline *p = user_data;

  /* the SIP messages a worker decodes live as long as the analysis, all together; under
   * AddressSanitizer they stay on the heap, where its leak checker can see what they hold
   * (it does not scan mapped blocks) */
#if !defined(__SANITIZE_ADDRESS__)
  cs_slab_thread_enable ();
#endif
  for (;;)
    {
      gpointer item;
      CsChunk *chunk;

      /* the merge's thread is the pipeline's busiest: it leaves the frees to us */
      while ((item = g_async_queue_try_pop (p->spent)) != NULL)
        cs_chunk_free (item);
      item = g_async_queue_pop (p->todo);
      if (item == (gpointer) p)
        break;
      chunk = item;
      cs_chunk_decode (chunk, p->set, p->cancellable);
      g_mutex_lock (&p->lock);
      g_atomic_int_set (&chunk->decoded, TRUE);
      g_cond_broadcast (&p->cond);
      g_mutex_unlock (&p->lock);
    }
  return NULL;
}

static void
cs_pipeline_start (CsPipeline *p, CsLoader *self, CsAnalysis *analysis, GCancellable *cancellable,
                   gboolean can_pipeline)
{
  CsCaptureStats *stats = cs_analysis_get_stats_mutable (analysis);

  p->loader = self;
  p->analysis = analysis;
  p->set = cs_analysis_get_capture_set (analysis);
  p->cancellable = cancellable;
  stats->limits = self->limits;
  p->merge = cs_merge_new (p->set, stats);
  cs_merge_set_threads (p->merge, cs_loader_get_threads (self));
  p->todo = g_async_queue_new ();
  p->spent = g_async_queue_new ();
  p->chunks = g_ptr_array_new ();
  g_mutex_init (&p->lock);
  g_cond_init (&p->cond);
  p->n_workers = cs_loader_get_threads (self);
  p->workers = g_new0 (GThread *, p->n_workers);
  p->indexing = TRUE;
  p->can_pipeline = can_pipeline;
  /* pipelined, the walk is most of the load; otherwise decoding follows it */
  p->index_share = can_pipeline ? 0.9 : CS_INDEX_SHARE;
  for (guint i = 0; i < p->n_workers; i++)
    p->workers[i] = g_thread_new ("cs-decode", cs_pipeline_worker, p);
}

/* Frames not planned yet: exact once the walk is done, estimated from the bytes it has
 * left before. */
static guint64
cs_pipeline_frames_left (CsPipeline *p, guint32 available, gboolean final)
{
  guint64 total = available;

  if (!final && p->indexed_bytes > 0 && p->indexed_bytes < p->index_bytes)
    total = (guint64) ((double) available * p->index_bytes / p->indexed_bytes);
  return total > p->planned_frames ? total - p->planned_frames : 0;
}

static guint32
cs_pipeline_chunk_size (CsPipeline *p, guint32 available, gboolean final)
{
  guint64 tail;

  if (p->loader->chunk_frames > 0)
    return p->loader->chunk_frames;
  if (p->chunks->len == 0)
    return CS_FIRST_CHUNK_FRAMES;
  /* about one chunk per worker for what is left (a chunk costs a little in the merge,
   * per stream it holds) */
  tail = cs_pipeline_frames_left (p, available, final) / p->n_workers;
  return (guint32) CLAMP (tail, CS_TAIL_CHUNK_MIN_FRAMES, CS_CHUNK_FRAMES);
}

/* Decoded chunks wait for the in-order merge; bounding how many are out keeps
 * memory flat when the merge is the slower side (SIP-heavy captures). */
static gboolean
cs_pipeline_can_plan (CsPipeline *p)
{
  return p->chunks->len - p->n_merged < CS_CHUNKS_IN_FLIGHT_PER_WORKER * p->n_workers;
}

/* Hands the full chunks of the frames indexed so far (all of them when final) to
 * the workers, as long as not too many are waiting to be merged. */
static void
cs_pipeline_plan (CsPipeline *p, gboolean final)
{
  guint32 available = cs_capture_set_get_n_frames (p->set);

  while (p->planned_frames < available && cs_pipeline_can_plan (p))
    {
      guint32 size = cs_pipeline_chunk_size (p, available, final);
      guint32 n = MIN (size, available - p->planned_frames);
      CsChunk *chunk;

      if (n < size && !final)
        break;
      chunk = cs_chunk_new (p->planned_frames, n);
      /* while the walk runs a frame array may move; once it is done, it stays */
      cs_chunk_locate_frames (chunk, p->set, !final);
      p->planned_frames += n;
      g_ptr_array_add (p->chunks, chunk);
      g_async_queue_push (p->todo, chunk);
    }
}

/* A window is watching (background load): let it show the calls found so
 * far, as copies, a few times a second. The CLI never pays for this. */
static void
cs_pipeline_stage_snapshots (CsPipeline *p, gboolean force)
{
  gint64 now = g_get_monotonic_time ();

  if (p->loader->context == NULL || (!force && now - p->last_snapshot_us < CS_SNAPSHOT_INTERVAL_US))
    return;
  p->last_snapshot_us = now;
  /* new rows are worth a publish now, not at the next progress tick */
  if (cs_analysis_stage_snapshots (p->analysis,
                                   cs_call_tracker_get_calls (cs_merge_get_tracker (p->merge)))
      > 0)
    p->snapshots_staged = TRUE;
}

/* Merges the next chunk; FALSE when it is not decoded yet and wait is FALSE. */
static gboolean
cs_pipeline_merge_next (CsPipeline *p, gboolean wait)
{
  CsChunk *chunk = g_ptr_array_index (p->chunks, p->n_merged);
  CsCaptureStats *stats = cs_analysis_get_stats_mutable (p->analysis);
  guint32 n_frames;

  g_mutex_lock (&p->lock);
  while (wait && !cs_chunk_is_decoded (chunk))
    g_cond_wait (&p->cond, &p->lock);
  g_mutex_unlock (&p->lock);
  if (!cs_chunk_is_decoded (chunk))
    return FALSE;
  if (!g_cancellable_is_cancelled (p->cancellable))
    {
      cs_merge_add_chunk (p->merge, chunk);
      cs_pipeline_stage_snapshots (p, FALSE);
    }
  p->merged_frames += chunk->n_frames;
  stats->bytes += chunk->bytes;
  g_async_queue_push (p->spent, chunk);
  p->chunks->pdata[p->n_merged++] = NULL;
  n_frames = cs_capture_set_get_n_frames (p->set);
  if (p->indexing)
    cs_loader_report (p->loader, p->index_fraction, p->merged_frames, "Reconstructing calls",
                      p->snapshots_staged);
  else
    cs_loader_report (p->loader,
                      p->index_share
                          + (1 - p->index_share) * (double) p->merged_frames / MAX (n_frames, 1),
                      p->merged_frames, "Reconstructing calls", p->snapshots_staged);
  p->snapshots_staged = FALSE;
  return TRUE;
}

/* Called from the index walk: start decoding what is known, merge what is done, and
 * keep at most a few chunks per worker in flight. */
static void
cs_pipeline_index_progress (guint64 done, guint64 total, gpointer user_data)
{
  CsPipeline *p = user_data;

  p->index_fraction = total > 0 ? p->index_share * (double) done / total : 0;
  p->indexed_bytes = done;
  p->index_bytes = total;
  if (!p->can_pipeline)
    {
      cs_loader_report (p->loader, p->index_fraction, 0, "Indexing frames", FALSE);
      return;
    }
  if (p->may_keep_walked_pages)
    {
      /* known from the first records on (they were dropped): with big frames the chunks
       * in flight would hold too much of the file */
      gboolean keep = cs_loader_keeps_walked_pages_for (done, cs_capture_set_get_n_frames (p->set));

      if (keep != p->keeps_walked_pages)
        cs_loader_set_walked_pages (p->set, keep);
      p->keeps_walked_pages = keep;
    }
  cs_pipeline_plan (p, FALSE);
  while (p->n_merged < p->chunks->len && cs_pipeline_merge_next (p, !cs_pipeline_can_plan (p)))
    cs_pipeline_plan (p, FALSE);
}

/* Moves calls (and their references) into the analysis; returns a view of them that
 * holds no references. */
static GPtrArray *
cs_loader_adopt_calls (CsAnalysis *analysis, GPtrArray *calls)
{
  GPtrArray *view = g_ptr_array_sized_new (calls->len);

  g_ptr_array_extend (view, calls, NULL, NULL);
  cs_analysis_adopt_calls (analysis, calls);
  g_ptr_array_unref (calls);
  return view;
}

/* After the index: decodes and merges the rest, then (when analyse) measures and
 * judges. Always called once the pipeline started: it stops the workers. */
static void
cs_pipeline_finish (CsPipeline *p, gboolean analyse)
{
  CsAnalysis *analysis = p->analysis;
  GCancellable *cancellable = p->cancellable;

  p->indexing = FALSE;
  if (analyse)
    cs_pipeline_plan (p, TRUE);
  while (p->n_merged < p->chunks->len)
    {
      cs_pipeline_merge_next (p, TRUE);
      if (analyse)
        cs_pipeline_plan (p, TRUE);
    }
  for (guint i = 0; i < p->n_workers; i++)
    g_async_queue_push (p->todo, p);
  for (guint i = 0; i < p->n_workers; i++)
    g_thread_join (p->workers[i]);
  {
    gpointer spent;

    while ((spent = g_async_queue_try_pop (p->spent)) != NULL)
      cs_chunk_free (spent);
  }

  if (analyse && !g_cancellable_is_cancelled (cancellable))
    {
      const CsCaptureStats *stats = cs_analysis_get_stats (analysis);
      CsCaptureSet *set = cs_analysis_get_capture_set (analysis);
      g_autoptr (GPtrArray) calls = NULL;
      g_autoptr (GPtrArray) streams = NULL;
      g_autoptr (GPtrArray) findings = NULL;
      CsFindingThresholds thresholds;

      /* Finishing, streams and findings take a while yet: show every call found by now. */
      cs_pipeline_stage_snapshots (p, TRUE);
      if (p->snapshots_staged)
        cs_loader_report (p->loader, 1, p->merged_frames, "Finishing calls", TRUE);
      p->snapshots_staged = FALSE;
      calls = cs_call_tracker_finish (cs_merge_get_tracker (p->merge), stats->last_ns);
      cs_loader_profile ("merge");
      /* the analysis takes the tracker's references; the calls are read here through a
       * view without references of its own (no count up and down on every call) */
      calls = cs_loader_adopt_calls (analysis, calls);
      cs_loader_report (p->loader, 1, p->merged_frames, "Measuring streams", TRUE);
      streams = cs_merge_take_streams (p->merge);
      cs_stream_rtcp_attach_refs (streams, cs_merge_get_rtcp (p->merge), set);
      cs_call_dtmf_attach_all (calls, streams, set);
      cs_loader_profile ("streams");
      cs_analysis_take_streams (analysis, streams);
      cs_finding_thresholds_init (&thresholds);
      findings
          = cs_findings_detect_all (calls, streams, stats, cs_analysis_get_damage (analysis),
                                    cs_merge_get_orphans (p->merge), &thresholds, p->n_workers);
      cs_analysis_adopt_findings (analysis, findings);
      cs_loader_profile ("findings");
      cs_analysis_set_rtcp (analysis, cs_merge_get_rtcp (p->merge));
    }
  cs_merge_free (p->merge);
  g_ptr_array_unref (p->chunks);
  g_async_queue_unref (p->todo);
  g_async_queue_unref (p->spent);
  g_mutex_clear (&p->lock);
  g_cond_clear (&p->cond);
  g_free (p->workers);
}

static void
cs_loader_fill_frame_stats (CsAnalysis *analysis)
{
  CsCaptureSet *set = cs_analysis_get_capture_set (analysis);
  CsCaptureStats *stats = cs_analysis_get_stats_mutable (analysis);

  stats->n_files = cs_capture_set_get_n_files (set);
  stats->packets = cs_capture_set_get_n_frames (set);
  cs_capture_set_get_time_range (set, &stats->first_ns, &stats->last_ns);
}

static CsAnalysis *
cs_loader_run (CsLoader *self, const char *const *paths, const char *filter,
               GCancellable *cancellable, GError **error)
{
  CsCaptureSet *set = cs_capture_set_new ();
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (GError) damage = NULL;
  CsPipeline pipeline = { 0 };

  self->started_us = g_get_monotonic_time ();
  cs_loader_profile ("start");
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

  /* Without a filter, chunks decode while the index walk is still running, close behind
   * it. On a big capture the walk drops the pages it has passed:
   * chunks queued behind it would otherwise hold up to 8 MiB each, and faulting them in
   * again from the page cache costs less than that memory (B at 2 threads: peak RSS 139 ->
   * 129 MiB, 24k -> 32k minor faults). On a small capture it keeps them once the first
   * records showed the frames are not big. */
  cs_pipeline_start (&pipeline, self, analysis, cancellable, filter == NULL);
  pipeline.may_keep_walked_pages = filter == NULL && cs_loader_may_keep_walked_pages (set);
  if (!cs_capture_set_index (set, cancellable, cs_pipeline_index_progress, &pipeline, &damage))
    {
      if (g_error_matches (damage, G_IO_ERROR, G_IO_ERROR_CANCELLED)
          || g_cancellable_is_cancelled (cancellable))
        {
          cs_pipeline_finish (&pipeline, FALSE);
          goto cancelled;
        }
      if (!g_error_matches (damage, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_TRUNCATED)
          && !g_error_matches (damage, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_CORRUPT))
        {
          cs_pipeline_finish (&pipeline, FALSE);
          g_propagate_error (error, g_steal_pointer (&damage));
          return NULL;
        }
      cs_analysis_set_damage (analysis, damage);
    }
  if (filter != NULL && !cs_capture_set_apply_filter (set, filter, error))
    {
      cs_pipeline_finish (&pipeline, FALSE);
      return NULL;
    }
  cs_loader_fill_frame_stats (analysis);
  cs_loader_profile ("index");
  cs_pipeline_finish (&pipeline, TRUE);
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

/* A background load runs a little below the window that started it: on a machine whose
 * cores the decode workers fill, the main loop still gets a core when it needs one.
 * Linux nice values are per thread and the workers inherit this thread's. */
#define CS_BACKGROUND_NICE 5

static gpointer
cs_loader_background_thread (gpointer data)
{
  GTask *task = data;

#ifdef __linux__
  setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), CS_BACKGROUND_NICE);
#endif
  cs_loader_load_thread (task, g_task_get_source_object (task), g_task_get_task_data (task),
                         g_task_get_cancellable (task));
  g_object_unref (task);
  return NULL;
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
  /* its own thread, not GTask's pool: the pool's threads would keep the lower priority */
  g_thread_unref (g_thread_new ("cs-load", cs_loader_background_thread, g_object_ref (task)));
}

void
cs_loader_set_publish_in_slices (CsLoader *self, gboolean in_slices)
{
  g_return_if_fail (CS_IS_LOADER (self));
  self->publish_in_slices = in_slices;
}

CsAnalysis *
cs_loader_load_finish (CsLoader *self, GAsyncResult *result, GError **error)
{
  CsAnalysis *analysis;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  analysis = g_task_propagate_pointer (G_TASK (result), error);
  if (analysis != NULL && self->publish_in_slices)
    cs_analysis_publish_in_slices (analysis);
  else if (analysis != NULL)
    cs_analysis_publish (analysis);
  return analysis;
}
