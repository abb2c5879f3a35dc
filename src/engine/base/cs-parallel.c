/* cs-parallel.c — a parallel for-loop over independent items */
#include "cs-parallel.h"

/* Items are handed out in batches of at most this many: cheap to claim. */
#define CS_PARALLEL_MAX_BATCH 16
/* and at least this many batches per thread, so that the threads finish close together
 * when the items are few and heavy (A: 200 streams, ~50 us each to measure) */
#define CS_PARALLEL_BATCHES_PER_THREAD 32

typedef struct
{
  guint n_items;
  guint batch;
  gint next; /* atomic */
  CsParallelFunc func;
  gpointer user_data;
} CsParallelJob;

static gpointer
cs_parallel_worker (gpointer data)
{
  CsParallelJob *job = data;

  for (;;)
    {
      guint start = (guint) g_atomic_int_add (&job->next, (gint) job->batch);

      if (start >= job->n_items)
        break;
      for (guint i = start; i < MIN (start + job->batch, job->n_items); i++)
        job->func (i, job->user_data);
    }
  return NULL;
}

guint
cs_parallel_batch_size (guint n_items, guint n_threads)
{
  guint per_thread = n_items / (MAX (n_threads, 1u) * CS_PARALLEL_BATCHES_PER_THREAD);

  return CLAMP (per_thread, 1u, CS_PARALLEL_MAX_BATCH);
}

void
cs_parallel_for (guint n_items, guint n_threads, CsParallelFunc func, gpointer user_data)
{
  guint wanted = n_threads != 0 ? n_threads : g_get_num_processors ();
  CsParallelJob job = { n_items, cs_parallel_batch_size (n_items, wanted), 0, func, user_data };
  guint n_helpers = MIN (wanted, (n_items + job.batch - 1) / job.batch);
  GThread **helpers;

  if (n_helpers <= 1)
    {
      cs_parallel_worker (&job);
      return;
    }
  helpers = g_new (GThread *, n_helpers - 1);
  for (guint i = 0; i + 1 < n_helpers; i++)
    helpers[i] = g_thread_new ("cs-parallel", cs_parallel_worker, &job);
  cs_parallel_worker (&job);
  for (guint i = 0; i + 1 < n_helpers; i++)
    g_thread_join (helpers[i]);
  g_free (helpers);
}
