/* cs-loader.c — the loader object: settings, progress for the main context, one load
 * (blocking or in the background) driving the decode pipeline of cs-loader-pipeline.c */
#include "cs-loader-private.h"

#include "cs-analysis-private.h"
#include "base/cs-error.h"
#include "rtp/cs-srtp-key.h"

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#define CS_PROGRESS_INTERVAL_US (G_USEC_PER_SEC / 10)

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

  cs_loader_set_watch (self, NULL, NULL, NULL);
  g_free (self->filter);
  g_clear_pointer (&self->srtp_keys, g_array_unref);
  g_clear_pointer (&self->keylog, cs_tls_keylog_unref);
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
cs_loader_set_srtp_keys (CsLoader *self, const GArray *keys)
{
  g_clear_pointer (&self->srtp_keys, g_array_unref);
  if (keys == NULL || keys->len == 0)
    return;
  self->srtp_keys = g_array_sized_new (FALSE, FALSE, sizeof (CsSrtpUserKey), keys->len);
  g_array_append_vals (self->srtp_keys, keys->data, keys->len);
}

void
cs_loader_set_keylog (CsLoader *self, CsTlsKeylog *keylog)
{
  if (keylog != NULL)
    cs_tls_keylog_ref (keylog);
  g_clear_pointer (&self->keylog, cs_tls_keylog_unref);
  self->keylog = keylog;
}

void
cs_loader_set_points (CsLoader *self, gboolean points)
{
  self->points = points;
}

CsTlsKeylog *
cs_loader_get_keylog (CsLoader *self)
{
  return self->keylog;
}

const GArray *
cs_loader_get_srtp_keys (CsLoader *self)
{
  return self->srtp_keys;
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
  return G_SOURCE_REMOVE;
}

void
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
void
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

static void
cs_loader_fill_frame_stats (CsAnalysis *analysis)
{
  CsCaptureSet *set = cs_analysis_get_capture_set (analysis);
  CsCaptureStats *stats = cs_analysis_get_stats_mutable (analysis);

  stats->n_files = cs_capture_set_get_n_files (set);
  stats->packets = cs_capture_set_get_n_frames (set);
  cs_capture_set_get_time_range (set, &stats->first_ns, &stats->last_ns);
}

/* Decompressing or converting a file before it can be indexed: its own share of the bar. */
static void
cs_loader_on_open_progress (guint64 done, guint64 total, gpointer user_data)
{
  cs_loader_report (user_data, total > 0 ? (double) done / (double) total : 0, 0,
                    "Decompressing or converting the capture", FALSE);
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
    if (!cs_capture_set_add_file_full (set, paths[i], cs_loader_on_open_progress, self, cancellable,
                                       error))
      {
        cs_capture_set_free (set);
        return NULL;
      }
  analysis = cs_analysis_new (set);
  if (self->points)
    cs_capture_set_set_clock_align (set, cs_point_clock_align,
                                    cs_analysis_point_clock_slot (analysis));
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
  if (cs_analysis_get_point_clock (analysis) != NULL)
    cs_point_clock_number (*cs_analysis_point_clock_slot (analysis), set);
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
cs_loader_set_watch (CsLoader *self, const CsLoaderWatch *watch, gpointer data,
                     GDestroyNotify destroy)
{
  if (self->watch_destroy != NULL)
    self->watch_destroy (self->watch_data);
  self->watch = watch;
  self->watch_data = data;
  self->watch_destroy = destroy;
}

CsAnalysis *
cs_loader_load_finish (CsLoader *self, GAsyncResult *result, GError **error)
{
  CsAnalysis *analysis;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  analysis = g_task_propagate_pointer (G_TASK (result), error);
  if (analysis != NULL && self->watch != NULL)
    self->watch->publish (self->watch_data, analysis);
  else if (analysis != NULL)
    cs_analysis_publish (analysis);
  return analysis;
}
