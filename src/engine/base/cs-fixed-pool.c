/* cs-fixed-pool.c — see cs-fixed-pool.h. */
#include "cs-fixed-pool.h"

#include <string.h>

/* Large enough that glibc serves a block from its own mapping or leaves a hole the next
 * page-sized allocations fit in; small enough that a little load wastes little. */
#define CS_FIXED_POOL_BLOCK_SIZE ((gsize) 256 * 1024)

typedef struct CsFixedPoolBlock
{
  struct CsFixedPoolBlock *next;
  guint8 objects[]; /* 8-byte aligned after the pointer */
} CsFixedPoolBlock;

struct _CsFixedPool
{
  gsize object_size;
  guint per_block;
  guint n_blocks;
  CsFixedPoolBlock *blocks; /* newest first */
  guint used;               /* objects carved from the newest block */
  gpointer free_list;       /* released objects, linked through their first word */
};

CsFixedPool *
cs_fixed_pool_new (gsize object_size)
{
  CsFixedPool *pool = g_new0 (CsFixedPool, 1);

  object_size = MAX (object_size, sizeof (gpointer));
  pool->object_size = (object_size + 7) & ~(gsize) 7;
  pool->per_block
      = (guint) ((CS_FIXED_POOL_BLOCK_SIZE - sizeof (CsFixedPoolBlock)) / pool->object_size);
  g_assert (pool->per_block > 0);
  pool->used = pool->per_block; /* no block yet */
  return pool;
}

gpointer
cs_fixed_pool_alloc0 (CsFixedPool *pool)
{
  gpointer object = pool->free_list;

  if (object != NULL)
    pool->free_list = *(gpointer *) object;
  else
    {
      if (pool->used == pool->per_block)
        {
          CsFixedPoolBlock *block
              = g_malloc (sizeof (CsFixedPoolBlock) + (gsize) pool->per_block * pool->object_size);

          block->next = pool->blocks;
          pool->blocks = block;
          pool->n_blocks++;
          pool->used = 0;
        }
      object = pool->blocks->objects + (gsize) pool->used++ * pool->object_size;
    }
  memset (object, 0, pool->object_size);
  return object;
}

void
cs_fixed_pool_release (CsFixedPool *pool, gpointer object)
{
  if (object == NULL)
    return;
  *(gpointer *) object = pool->free_list;
  pool->free_list = object;
}

void
cs_fixed_pool_free (CsFixedPool *pool)
{
  if (pool == NULL)
    return;
  while (pool->blocks != NULL)
    {
      CsFixedPoolBlock *next = pool->blocks->next;

      g_free (pool->blocks);
      pool->blocks = next;
    }
  g_free (pool);
}

guint
cs_fixed_pool_get_n_blocks (const CsFixedPool *pool)
{
  return pool->n_blocks;
}
