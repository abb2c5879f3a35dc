/* cs-live-session.c — live frames: queue, save, decode, merge, publish in batches */
#include "cs-live-session.h"

#include "cs-live-decoder.h"
#include "loader/cs-loader.h"
#include "loader/cs-merge.h"
#include "cs-ring-writer.h"

#define CS_LIVE_PUBLISH_INTERVAL_MS 100 /* at most ~10 UI updates a second */
#define CS_LIVE_MAX_PENDING_BYTES (64u * 1024 * 1024)
#define CS_LIVE_DEFAULT_MAX_CALLS 20000
/* A finished call stays this long after its last message before it may be evicted: SIP
 * retransmissions and late answers end within 64·T1 = 32 s. */
#define CS_LIVE_EVICT_IDLE_NS (G_GINT64_CONSTANT (32) * G_TIME_SPAN_SECOND * 1000)
#define CS_LIVE_RATE_WINDOW_US G_USEC_PER_SEC

GQuark
cs_live_error_quark (void)
{
  return g_quark_from_static_string ("cs-live-error-quark");
}

typedef struct
{
  gint64 ts_ns;
  guint32 caplen, origlen;
  guint16 linktype;
  guint8 data[];
} CsLiveFrame;

struct _CsLiveSession
{
  GObject parent_instance;

  /* Filled by sources on any thread. */
  GMutex lock;
  GPtrArray *pending; /* CsLiveFrame* */
  gsize pending_bytes;
  guint64 queue_drops;

  /* Owner's context only. */
  CsRingWriter *ring;
  GError *write_error;
  CsLiveDecoder *decoder;
  CsCaptureStats stats;
  CsMerge *merge;
  guint32 n_frames;
  guint64 malformed;
  GListStore *calls;          /* CsCall* shown */
  GHashTable *shown;          /* CsCall* in `calls` → messages it had when last published */
  GPtrArray *evicted_unshown; /* CsCall* evicted while paused, still in `calls` */
  guint max_calls;            /* calls kept in memory (tracker and list); 0 = no limit */
  guint64 calls_evicted;
  guint64 rtp_packets_evicted;
  gboolean paused;
  guint timer_id;
  gboolean running;

  gint64 rate_window_us;
  guint64 rate_packets, rate_messages;
  double packets_per_second, messages_per_second;
};

enum
{
  SIGNAL_UPDATED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (CsLiveSession, cs_live_session, G_TYPE_OBJECT)

static void
cs_live_session_finalize (GObject *object)
{
  CsLiveSession *self = CS_LIVE_SESSION (object);

  if (self->timer_id != 0)
    g_source_remove (self->timer_id);
  cs_merge_free (self->merge);
  cs_live_decoder_free (self->decoder);
  cs_ring_writer_free (self->ring);
  g_clear_error (&self->write_error);
  g_ptr_array_unref (self->pending);
  g_clear_object (&self->calls);
  g_hash_table_unref (self->shown);
  g_ptr_array_unref (self->evicted_unshown);
  g_hash_table_unref (self->stats.sip_methods);
  g_hash_table_unref (self->stats.sip_statuses);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (cs_live_session_parent_class)->finalize (object);
}

static void
cs_live_session_class_init (CsLiveSessionClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cs_live_session_finalize;
  /* Emitted after a batch was published (≤ 10 times a second). */
  signals[SIGNAL_UPDATED] = g_signal_new ("updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
cs_live_session_init (CsLiveSession *self)
{
  g_mutex_init (&self->lock);
  self->pending = g_ptr_array_new_with_free_func (g_free);
  self->decoder = cs_live_decoder_new ();
  self->stats.sip_methods = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->stats.sip_statuses = g_hash_table_new (g_direct_hash, g_direct_equal);
  self->merge = cs_merge_new (NULL, &self->stats); /* live chunks never defer frames */
  self->calls = g_list_store_new (CS_TYPE_CALL);
  self->shown = g_hash_table_new (NULL, NULL);
  self->evicted_unshown = g_ptr_array_new_with_free_func (g_object_unref);
  self->max_calls = CS_LIVE_DEFAULT_MAX_CALLS;
}

static gboolean
cs_live_session_tick (gpointer user_data)
{
  cs_live_session_process_pending (user_data);
  return G_SOURCE_CONTINUE;
}

CsLiveSession *
cs_live_session_new (const char *path, guint64 file_bytes, guint max_files, GError **error)
{
  g_autoptr (CsLiveSession) self = g_object_new (CS_TYPE_LIVE_SESSION, NULL);
  GSource *source;

  g_return_val_if_fail (path != NULL, NULL);
  self->ring = cs_ring_writer_new (path, file_bytes, max_files, error);
  if (self->ring == NULL)
    return NULL;
  self->running = TRUE;
  self->rate_window_us = g_get_monotonic_time ();
  source = g_timeout_source_new (CS_LIVE_PUBLISH_INTERVAL_MS);
  /* The timer must not keep the session alive: finalize removes it. */
  g_source_set_callback (source, cs_live_session_tick, self, NULL);
  self->timer_id = g_source_attach (source, g_main_context_get_thread_default ());
  g_source_unref (source);
  return g_steal_pointer (&self);
}

void
cs_live_session_push_frame (CsLiveSession *self, guint16 linktype, gint64 ts_ns, const guint8 *data,
                            gsize caplen, gsize origlen)
{
  CsLiveFrame *frame;

  if (caplen > G_MAXUINT32)
    return;
  g_mutex_lock (&self->lock);
  if (self->pending_bytes + caplen > CS_LIVE_MAX_PENDING_BYTES)
    {
      self->queue_drops++;
      g_mutex_unlock (&self->lock);
      return;
    }
  self->pending_bytes += caplen;
  g_mutex_unlock (&self->lock);
  frame = g_malloc (sizeof (CsLiveFrame) + caplen);
  frame->ts_ns = ts_ns;
  frame->caplen = (guint32) caplen;
  frame->origlen = (guint32) MIN (MAX (origlen, caplen), G_MAXUINT32);
  frame->linktype = linktype;
  memcpy (frame->data, data, caplen);
  g_mutex_lock (&self->lock);
  g_ptr_array_add (self->pending, frame);
  g_mutex_unlock (&self->lock);
}

/* Takes evicted calls out of the live list, in one pass, a run of rows at a time (the oldest
 * rows usually go together). */
static void
cs_live_session_unshow (CsLiveSession *self, GPtrArray *calls)
{
  GListModel *model = G_LIST_MODEL (self->calls);
  guint removed = 0;

  for (guint i = 0; i < calls->len; i++)
    removed += g_hash_table_remove (self->shown, g_ptr_array_index (calls, i));
  for (guint i = g_list_model_get_n_items (model); removed > 0 && i > 0;)
    {
      guint end = i;

      while (i > 0)
        {
          g_autoptr (CsCall) call = g_list_model_get_item (model, i - 1);

          if (g_hash_table_contains (self->shown, call))
            break;
          i--;
        }
      if (i < end)
        {
          g_list_store_splice (self->calls, i, end - i, NULL, 0);
          removed -= MIN (removed, end - i);
        }
      else
        i--;
    }
}

/* Keeps memory bounded: above max_calls, finished calls leave the tracker (idle ones first,
 * then any finished one), with their SDP and RTP runs, and the live list. Calls still in
 * progress are never evicted. */
static void
cs_live_session_evict (CsLiveSession *self)
{
  CsCallTracker *tracker = cs_merge_get_tracker (self->merge);
  g_autoptr (GPtrArray) gone = NULL;

  if (self->max_calls == 0 || cs_call_tracker_get_calls (tracker)->len <= self->max_calls)
    return;
  gone = g_ptr_array_new_with_free_func (g_object_unref);
  cs_call_tracker_evict_finished (tracker, self->stats.last_ns - CS_LIVE_EVICT_IDLE_NS,
                                  self->max_calls, gone);
  if (cs_call_tracker_get_calls (tracker)->len > self->max_calls)
    cs_call_tracker_evict_finished (tracker, G_MAXINT64, self->max_calls, gone);
  self->rtp_packets_evicted += cs_merge_forget_calls (self->merge, gone);
  self->calls_evicted += gone->len;
  /* A paused list keeps its rows until it resumes. */
  if (!self->paused)
    {
      cs_live_session_unshow (self, gone);
      return;
    }
  for (guint i = 0; i < gone->len; i++)
    if (g_hash_table_contains (self->shown, g_ptr_array_index (gone, i)))
      g_ptr_array_add (self->evicted_unshown, g_object_ref (g_ptr_array_index (gone, i)));
}

/* New calls are appended; calls with new messages are replaced in place so rows refresh. */
static void
cs_live_session_publish (CsLiveSession *self)
{
  const GPtrArray *all = cs_call_tracker_get_calls (cs_merge_get_tracker (self->merge));
  g_autoptr (GPtrArray) fresh = g_ptr_array_new ();

  cs_live_session_unshow (self, self->evicted_unshown);
  g_ptr_array_set_size (self->evicted_unshown, 0);
  for (guint i = 0; i < all->len; i++)
    {
      CsCall *call = g_ptr_array_index (all, i);
      guint count = cs_call_get_n_messages (call);
      gpointer seen;
      guint position;

      if (!g_hash_table_lookup_extended (self->shown, call, NULL, &seen))
        g_ptr_array_add (fresh, call);
      else if (GPOINTER_TO_UINT (seen) == count)
        continue;
      else if (g_list_store_find (self->calls, call, &position))
        g_list_store_splice (self->calls, position, 1, (gpointer *) &call, 1);
      g_hash_table_insert (self->shown, call, GUINT_TO_POINTER (count));
    }
  if (fresh->len > 0)
    g_list_store_splice (self->calls, g_list_model_get_n_items (G_LIST_MODEL (self->calls)), 0,
                         fresh->pdata, fresh->len);
}

static void
cs_live_session_update_rates (CsLiveSession *self)
{
  gint64 now = g_get_monotonic_time ();
  double elapsed = (double) (now - self->rate_window_us) / G_USEC_PER_SEC;

  if (now - self->rate_window_us < CS_LIVE_RATE_WINDOW_US)
    return;
  self->packets_per_second = (double) (self->n_frames - self->rate_packets) / elapsed;
  self->messages_per_second = (double) (self->stats.sip_messages - self->rate_messages) / elapsed;
  self->rate_window_us = now;
  self->rate_packets = self->n_frames;
  self->rate_messages = self->stats.sip_messages;
}

guint
cs_live_session_process_pending (CsLiveSession *self)
{
  g_autoptr (GPtrArray) batch = NULL;
  CsChunk *chunk;

  g_mutex_lock (&self->lock);
  batch = self->pending;
  self->pending = g_ptr_array_new_with_free_func (g_free);
  self->pending_bytes = 0;
  g_mutex_unlock (&self->lock);

  chunk = cs_chunk_new (self->n_frames, 0);
  for (guint i = 0; i < batch->len; i++)
    {
      const CsLiveFrame *frame = g_ptr_array_index (batch, i);
      guint32 number = ++self->n_frames;

      if (self->write_error == NULL && self->ring != NULL
          && !cs_ring_writer_write (self->ring, frame->linktype, frame->ts_ns, frame->data,
                                    frame->caplen, frame->origlen, &self->write_error))
        g_warning ("Live capture: %s", self->write_error->message);
      if (!cs_live_decoder_add_frame (self->decoder, chunk, number, frame->linktype, frame->data,
                                      frame->caplen, frame->ts_ns))
        self->malformed++;
      if (self->stats.packets == 0 || frame->ts_ns < self->stats.first_ns)
        self->stats.first_ns = frame->ts_ns;
      self->stats.last_ns = MAX (self->stats.last_ns, frame->ts_ns);
      self->stats.packets++;
    }
  self->stats.bytes += chunk->bytes;
  self->stats.esp_encrypted_packets += chunk->encrypted;
  self->stats.rtp_packets += chunk->rtp_packets;
  cs_merge_add_chunk (self->merge, chunk);
  cs_chunk_free (chunk);
  cs_live_session_evict (self);
  cs_live_session_update_rates (self);
  if (!self->paused && batch->len > 0)
    cs_live_session_publish (self);
  g_signal_emit (self, signals[SIGNAL_UPDATED], 0);
  return batch->len;
}

gboolean
cs_live_session_stop (CsLiveSession *self, GError **error)
{
  if (!self->running)
    return TRUE;
  cs_live_session_process_pending (self);
  if (!self->paused)
    cs_live_session_publish (self);
  self->running = FALSE;
  if (self->timer_id != 0)
    {
      g_source_remove (self->timer_id);
      self->timer_id = 0;
    }
  if (!cs_ring_writer_close (self->ring, error))
    return FALSE;
  if (self->write_error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->write_error));
      return FALSE;
    }
  return TRUE;
}

gboolean
cs_live_session_is_running (CsLiveSession *self)
{
  return self->running;
}

void
cs_live_session_set_paused (CsLiveSession *self, gboolean paused)
{
  self->paused = paused;
  if (!paused)
    cs_live_session_publish (self);
}

gboolean
cs_live_session_get_paused (CsLiveSession *self)
{
  return self->paused;
}

void
cs_live_session_set_max_calls (CsLiveSession *self, guint max_calls)
{
  self->max_calls = max_calls;
  cs_live_session_evict (self);
}

GListModel *
cs_live_session_get_calls (CsLiveSession *self)
{
  return G_LIST_MODEL (self->calls);
}

void
cs_live_session_get_counters (CsLiveSession *self, CsLiveCounters *out)
{
  memset (out, 0, sizeof *out);
  g_mutex_lock (&self->lock);
  out->queue_drops = self->queue_drops;
  g_mutex_unlock (&self->lock);
  out->packets = self->stats.packets;
  out->bytes = self->stats.bytes;
  out->sip_messages = self->stats.sip_messages;
  out->rtp_packets = self->stats.rtp_packets;
  out->calls = cs_call_tracker_get_n_created (cs_merge_get_tracker (self->merge));
  out->calls_kept = cs_call_tracker_get_calls (cs_merge_get_tracker (self->merge))->len;
  out->calls_evicted = self->calls_evicted;
  out->rtp_packets_evicted = self->rtp_packets_evicted;
  out->malformed = self->malformed;
  out->packets_per_second = self->packets_per_second;
  out->messages_per_second = self->messages_per_second;
  out->first_ns = self->stats.first_ns;
  out->last_ns = self->stats.last_ns;
}

GPtrArray *
cs_live_session_dup_streams (CsLiveSession *self)
{
  GPtrArray *runs = cs_merge_get_rtp_runs (self->merge);
  g_autofree CsRtpRun *kept = g_new (CsRtpRun, runs->len);
  GPtrArray *streams;

  /* Building streams steals the runs' packets: hand it copies and keep the originals. */
  for (guint i = 0; i < runs->len; i++)
    {
      CsRtpRun *run = g_ptr_array_index (runs, i);

      kept[i] = *run;
      if (run->pack.data != NULL)
        run->pack.data = g_memdup2 (run->pack.data, run->pack.capacity + CS_RTP_PACK_SLACK);
    }
  streams = cs_merge_build_streams (self->merge);
  for (guint i = 0; i < runs->len; i++)
    {
      CsRtpRun *run = g_ptr_array_index (runs, i);

      g_free (run->pack.data);
      *run = kept[i];
    }
  return streams;
}

char **
cs_live_session_dup_paths (CsLiveSession *self)
{
  return cs_ring_writer_dup_paths (self->ring);
}

const GError *
cs_live_session_get_write_error (CsLiveSession *self)
{
  return self->write_error;
}

CsAnalysis *
cs_live_session_load_saved (CsLiveSession *self, GError **error)
{
  g_auto (GStrv) paths = cs_ring_writer_dup_paths (self->ring);
  g_autoptr (CsLoader) loader = cs_loader_new ();

  return cs_loader_load (loader, (const char *const *) paths, NULL, error);
}
