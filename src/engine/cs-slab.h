/* cs-slab.h — per-thread bump allocation for objects that are kept long and die
 * together (parsed SIP messages): 2 MiB blocks, no per-object header, no lock. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Blocks are this size and aligned to it, so an object finds its block by masking. */
#define CS_SLAB_BLOCK_SIZE ((gsize) 2 * 1024 * 1024)
/* Larger objects get a mapping of their own (same layout, one object). */
#define CS_SLAB_MAX_SHARED ((gsize) 128 * 1024)

/* size bytes, 8-byte aligned, from the calling thread's current block. Never NULL
 * (aborts like g_malloc when memory runs out). */
gpointer cs_slab_alloc (gsize size);

/* Frees an object from cs_slab_alloc; any thread. A block is unmapped when its last
 * object is freed and the thread that filled it has moved on or ended. NULL is a no-op. */
void cs_slab_free (gpointer mem);

/* Mappings alive now (blocks and large objects), for tests. */
guint cs_slab_mappings_alive (void);

G_END_DECLS
