/* cs-parallel.h — run independent per-item work on all cores */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef void (*CsParallelFunc) (guint index, gpointer user_data);

/* Calls func (i, user_data) for every i in [0, n_items) on up to n_threads
 * threads (0 = one per processor), the calling thread included, and returns
 * when all are done. Items must not depend on each other. */
void cs_parallel_for (guint n_items, guint n_threads, CsParallelFunc func, gpointer user_data);

/* Items a thread claims at a time among n_threads (>= 1): up to 16, fewer when there are
 * few items per thread. */
guint cs_parallel_batch_size (guint n_items, guint n_threads);

G_END_DECLS
