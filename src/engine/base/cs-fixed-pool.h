/* cs-fixed-pool.h — objects of one size carved from large blocks, all freed at once.
 *
 * Why: objects that are made one by one but die together (a load's RTP runs) leave
 * thousands of small holes in the heap when freed one by one, and the larger objects made
 * next (the streams) cannot use them. From a pool they go back as whole blocks. Objects
 * released one by one (evicted flows) wait on a free list for the next allocation, so a
 * pool never holds more than its most objects alive at once. Not thread-safe. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CsFixedPool CsFixedPool;

/* object_size: at least a pointer's size (rounded up to 8 bytes). */
CsFixedPool *cs_fixed_pool_new (gsize object_size);
/* One zeroed object; never NULL (aborts like g_malloc when memory runs out). */
gpointer cs_fixed_pool_alloc0 (CsFixedPool *pool);
/* Gives one object back for reuse. NULL is a no-op. */
void cs_fixed_pool_release (CsFixedPool *pool, gpointer object);
/* Frees the pool and every object it handed out. NULL is a no-op. */
void cs_fixed_pool_free (CsFixedPool *pool);
/* Blocks held now, for tests. */
guint cs_fixed_pool_get_n_blocks (const CsFixedPool *pool);

G_END_DECLS
