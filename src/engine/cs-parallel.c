/* cs-parallel.c — a parallel for-loop over independent items */
#include "cs-parallel.h"

/* Items are handed out in small batches: cheap to claim, fair to balance. */
#define CS_PARALLEL_BATCH 16

typedef struct
{
  guint n_items;
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
      guint start = (guint) g_atomic_int_add (&job->next, CS_PARALLEL_BATCH);

      if (start >= job->n_items)
        break;
      for (guint i = start; i < MIN (start + CS_PARALLEL_BATCH, job->n_items); i++)
        job->func (i, job->user_data);
    }
  return NULL;
}

void
cs_parallel_for (guint n_items, guint n_threads, CsParallelFunc func, gpointer user_data)
{
  CsParallelJob job = { n_items, 0, func, user_data };
  guint wanted = n_threads != 0 ? n_threads : g_get_num_processors ();
  guint n_helpers = MIN (wanted, (n_items + CS_PARALLEL_BATCH - 1) / CS_PARALLEL_BATCH);
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
