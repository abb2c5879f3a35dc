/* cs-loader-pipeline.c — a load's decode pipeline: chunks planned behind the index walk,
 * decoded by workers, merged in order, then calls finished, streams measured and findings
 * judged; and when the walk keeps the pages it passed */
#include "cs-loader-private.h"

#include "cs-analysis-private.h"
#include "calls/cs-call-dtmf.h"
#include "findings/cs-findings-detect.h"
#include "base/cs-slab.h"
#include "calls/cs-stream-rtcp.h"
#include "calls/cs-stream-srtp.h"

/* The first chunk is small so the first calls show at once, and the next ones double
 * so that every worker starts while the walk is still near the start of the file; the
 * rest are large enough that thread hand-offs cost nothing, except towards the end of
 * the capture: there they shrink geometrically (a few shares per worker of what is left),
 * so that the workers finish together and the merge after the last decode is short. */
#define CS_FIRST_CHUNK_FRAMES 2000
#define CS_CHUNK_FRAMES 32768
#define CS_TAIL_CHUNK_MIN_FRAMES 2048
#define CS_TAIL_SHARES_PER_WORKER 4
/* frames decoded but not merged yet, per worker: bounds memory when the merge is the
 * slower side (SIP-heavy captures); counted in frames so small tail chunks do not stall
 * a worker behind a big one */
#define CS_FRAMES_IN_FLIGHT_PER_WORKER (2 * CS_CHUNK_FRAMES)
#define CS_CHUNKS_IN_FLIGHT_PER_WORKER 16
#define CS_INDEX_SHARE 0.1 /* part of the progress bar spent indexing */
/* below this, the walked pages kept for several workers cost little next to the file */
#define CS_KEEP_WALKED_MAX_BYTES (256u * 1024 * 1024)
#define CS_KEEP_WALKED_MAX_FRAME_BYTES 1024

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

/* ---- the parallel map, pipelined with the index ----
 *
 * The index walk (main thread) plans chunks as soon as their frames are known; a chunk
 * walks the records of its file itself from where the index located it, while the index
 * keeps growing. The main thread merges decoded chunks in order whenever it can, so only
 * a few chunks are ever in flight (pages and results stay bounded). */

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
      cs_chunk_decode (chunk, p->set, p->sip_share, p->cancellable);
      g_mutex_lock (&p->lock);
      g_atomic_int_set (&chunk->decoded, TRUE);
      g_cond_broadcast (&p->cond);
      g_mutex_unlock (&p->lock);
    }
  return NULL;
}

void
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
  if (cs_loader_get_keylog (p->loader) != NULL)
    cs_merge_set_keylog (p->merge, cs_loader_get_keylog (p->loader));
  if (cs_capture_set_get_n_files (p->set) == 1)
    p->sip_share = cs_sip_share_new ();
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
  p->may_keep_walked_pages = can_pipeline && cs_loader_may_keep_walked_pages (p->set);
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

guint32
cs_pipeline_chunk_frames (guint n_planned, guint64 frames_left, guint n_workers)
{
  guint64 size = CS_CHUNK_FRAMES;
  guint64 tail = frames_left / (MAX (n_workers, 1u) * CS_TAIL_SHARES_PER_WORKER);

  if (n_planned < 5)
    size = MIN (size, (guint64) CS_FIRST_CHUNK_FRAMES << n_planned);
  return (guint32) MIN (size, MAX (tail, CS_TAIL_CHUNK_MIN_FRAMES));
}

static guint32
cs_pipeline_chunk_size (CsPipeline *p, guint32 available, gboolean final)
{
  if (p->loader->chunk_frames > 0)
    return p->loader->chunk_frames;
  return cs_pipeline_chunk_frames (p->chunks->len, cs_pipeline_frames_left (p, available, final),
                                   p->n_workers);
}

/* Decoded chunks wait for the in-order merge; bounding how much is out keeps
 * memory flat when the merge is the slower side (SIP-heavy captures). */
static gboolean
cs_pipeline_can_plan (CsPipeline *p)
{
  return p->planned_frames - p->merged_frames
             < (guint64) CS_FRAMES_IN_FLIGHT_PER_WORKER * p->n_workers
         && p->chunks->len - p->n_merged < CS_CHUNKS_IN_FLIGHT_PER_WORKER * p->n_workers;
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

/* A background load's watch (a window's publisher) hears of the calls found so far: the
 * publisher decides how often to show them. The CLI has none and never pays for it. */
static void
cs_pipeline_tell_calls (CsPipeline *p, gboolean last)
{
  CsLoader *loader = p->loader;

  if (loader->watch == NULL || loader->context == NULL)
    return;
  loader->watch->calls_found (loader->watch_data, p->analysis,
                              cs_call_tracker_get_calls (cs_merge_get_tracker (p->merge)), last);
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
      cs_pipeline_tell_calls (p, FALSE);
    }
  p->merged_frames += chunk->n_frames;
  stats->bytes += chunk->bytes;
  stats->esp_encrypted_packets += chunk->encrypted;
  g_async_queue_push (p->spent, chunk);
  p->chunks->pdata[p->n_merged++] = NULL;
  n_frames = cs_capture_set_get_n_frames (p->set);
  if (p->indexing)
    cs_loader_report (p->loader, p->index_fraction, p->merged_frames, "Reconstructing calls",
                      FALSE);
  else
    cs_loader_report (p->loader,
                      p->index_share
                          + (1 - p->index_share) * (double) p->merged_frames / MAX (n_frames, 1),
                      p->merged_frames, "Reconstructing calls", FALSE);
  return TRUE;
}

/* Called from the index walk: start decoding what is known, merge what is done, and
 * keep at most a few chunks per worker in flight. */
void
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
void
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

      /* Finishing, streams and findings take a while yet: every call found by now may show. */
      cs_pipeline_tell_calls (p, TRUE);
      cs_loader_report (p->loader, 1, p->merged_frames, "Finishing calls", TRUE);
      calls = cs_call_tracker_finish (cs_merge_get_tracker (p->merge), stats->last_ns);
      cs_loader_profile ("merge");
      /* the analysis takes the tracker's references; the calls are read here through a
       * view without references of its own (no count up and down on every call) */
      calls = cs_loader_adopt_calls (analysis, calls);
      cs_loader_report (p->loader, 1, p->merged_frames, "Measuring streams", TRUE);
      streams = cs_merge_take_streams (p->merge);
      /* before anything reads a payload: which streams are SRTP, and their keys */
      cs_stream_srtp_attach_all (calls, streams, cs_loader_get_srtp_keys (p->loader), set);
      cs_stream_rtcp_attach_refs (streams, cs_merge_get_rtcp (p->merge), set);
      cs_call_dtmf_attach_all (calls, streams, set);
      cs_loader_profile ("streams");
      cs_analysis_take_streams (analysis, streams);
      cs_finding_thresholds_init (&thresholds);
      /* on one thread: measured faster than with helpers on the 2-core build VM (A at 2
       * threads 4.4 -> 2.4 ms, S 77 -> 61 ms), likely as a helper's findings land in a fresh
       * malloc arena whose pages it must fault in first */
      findings = cs_findings_detect_all (calls, streams, stats, cs_analysis_get_damage (analysis),
                                         cs_merge_get_orphans (p->merge), &thresholds, 1);
      /* TLS sessions no key opened: where the SIP may be */
      cs_findings_tls_sessions (cs_merge_get_tls_sessions (p->merge), findings);
      /* capture points: SIP that one point saw leave and the next never saw */
      cs_findings_point_losses (cs_analysis_get_point_clock (analysis), set, calls, findings);
      cs_analysis_adopt_findings (analysis, findings);
      cs_loader_profile ("findings");
      cs_analysis_set_rtcp (analysis, cs_merge_get_rtcp (p->merge));
    }
  cs_merge_free (p->merge);
  g_clear_pointer (&p->sip_share, cs_sip_share_free);
  g_ptr_array_unref (p->chunks);
  g_async_queue_unref (p->todo);
  g_async_queue_unref (p->spent);
  g_mutex_clear (&p->lock);
  g_cond_clear (&p->cond);
  g_free (p->workers);
}
