/* cs-slab.h — per-thread bump allocation for objects that are kept long and die
 * together (the SIP messages a file load parses): 2 MiB blocks, no malloc header, no
 * lock. Threads that have not opted in, and large objects, get the heap instead. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Blocks are this size and aligned to it, so an object finds its block by masking. */
#define CS_SLAB_BLOCK_SIZE ((gsize) 2 * 1024 * 1024)
/* Larger objects always come from the heap. */
#define CS_SLAB_MAX_OBJECT ((gsize) 128 * 1024)

/* From now on the calling thread's cs_slab_alloc uses its own blocks. Only for threads
 * whose objects live about as long as each other (a load's decode workers): one live
 * object keeps its whole block. Idempotent; the block goes when the thread ends. */
void cs_slab_thread_enable (void);

/* size bytes, 8-byte aligned. Never NULL (aborts like g_malloc when memory runs out). */
gpointer cs_slab_alloc (gsize size);

/* Frees an object from cs_slab_alloc; any thread. NULL is a no-op. */
void cs_slab_free (gpointer mem);

/* Blocks mapped now, for tests. */
guint cs_slab_blocks_alive (void);

G_END_DECLS
