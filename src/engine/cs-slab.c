/* cs-slab.c — see cs-slab.h.
 *
 * Why: parsed SIP messages were one malloc each on the decode workers; a worker's glibc
 * arena then grew one page per mprotect (124k calls on a 100k-call capture) and every
 * object paid a malloc header. Here a thread bump-allocates from its own 2 MiB block
 * (madvised for a huge page: one fault instead of 512).
 *
 * Lifetime without a per-allocation atomic: a block's `live` starts at a large bias
 * that stands for the owning thread; frees subtract one each. When the owner retires
 * the block (full, or thread end) it adds the number it handed out minus the bias, so
 * `live` becomes the number still alive; whoever brings it to zero unmaps it. */
#include "cs-slab.h"

#include <sys/mman.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define SLAB_POISON(p, n) ASAN_POISON_MEMORY_REGION (p, n)
#define SLAB_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION (p, n)
#else
#define SLAB_POISON(p, n) ((void) (p), (void) (n))
#define SLAB_UNPOISON(p, n) ((void) (p), (void) (n))
#endif

#define OWNER_BIAS (1 << 30)

typedef struct
{
  gint live;      /* objects alive, plus OWNER_BIAS while a thread allocates from it */
  guint32 handed; /* objects handed out (owner only) */
  gsize used;     /* bytes used from the block start, header included (owner only) */
  gsize map_size; /* length of the mapping */
} SlabBlock;

#define HEADER_SIZE ((sizeof (SlabBlock) + 15) & ~(gsize) 15)

static gint mappings_alive;

static void retire (SlabBlock *b);
static void thread_end (gpointer data);

static GPrivate block_key = G_PRIVATE_INIT (thread_end);
/* the same pointer without g_private_get on every allocation; the GPrivate retires the
 * block when the thread ends */
static _Thread_local SlabBlock *thread_block;

/* A mapping of `size` bytes (a multiple of the page size) aligned to CS_SLAB_BLOCK_SIZE. */
static SlabBlock *
map_aligned (gsize size, gboolean huge)
{
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  gsize span = size + CS_SLAB_BLOCK_SIZE - page;
  char *raw = mmap (NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

  if (raw == MAP_FAILED)
    g_error ("cs-slab: failed to map %" G_GSIZE_FORMAT " bytes", span);
  char *start = (char *) (((guintptr) raw + CS_SLAB_BLOCK_SIZE - 1) & ~(CS_SLAB_BLOCK_SIZE - 1));
  if (start > raw)
    munmap (raw, (gsize) (start - raw));
  if (raw + span > start + size)
    munmap (start + size, (gsize) (raw + span - (start + size)));
  g_atomic_int_inc (&mappings_alive);
  /* before the first touch, or that touch maps a small page and the rest follow; THP is
   * often "madvise" only, and without it the block simply faults in small pages */
  if (huge)
    (void) madvise (start, size, MADV_HUGEPAGE);

  SlabBlock *b = (SlabBlock *) start;
  b->map_size = size;
  return b;
}

static void
unmap (SlabBlock *b)
{
  SLAB_UNPOISON (b, b->map_size);
  munmap (b, b->map_size);
  g_atomic_int_add (&mappings_alive, -1);
}

static void
block_reset (SlabBlock *b)
{
  b->live = OWNER_BIAS;
  b->handed = 0;
  b->used = HEADER_SIZE;
  SLAB_POISON ((char *) b + HEADER_SIZE, b->map_size - HEADER_SIZE);
}

static SlabBlock *
block_new (void)
{
  SlabBlock *b = map_aligned (CS_SLAB_BLOCK_SIZE, TRUE);

  block_reset (b);
  return b;
}

/* Drops the owner's reference; TRUE when no object was alive (the block is then still
 * mapped and the caller decides). */
static gboolean
owner_release (SlabBlock *b)
{
  gint delta = (gint) b->handed - OWNER_BIAS;

  return g_atomic_int_add (&b->live, delta) + delta == 0;
}

static void
retire (SlabBlock *b)
{
  if (owner_release (b))
    unmap (b);
}

static void
thread_end (gpointer data)
{
  retire (data);
}

static gpointer
alloc_large (gsize size)
{
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  SlabBlock *b = map_aligned ((HEADER_SIZE + size + page - 1) & ~(page - 1), FALSE);

  b->live = 1;
  b->handed = 1;
  b->used = HEADER_SIZE + size;
  return (char *) b + HEADER_SIZE;
}

static gpointer
alloc_slow (gsize size)
{
  if (size > CS_SLAB_MAX_SHARED)
    return alloc_large (size);

  SlabBlock *b = thread_block;
  if (b != NULL && owner_release (b))
    block_reset (b); /* every object in it is gone already: fill it again */
  else
    {
      b = block_new ();
      thread_block = b;
      g_private_set (&block_key, b);
    }
  gpointer p = (char *) b + b->used;
  b->used += size;
  b->handed++;
  SLAB_UNPOISON (p, size);
  return p;
}

gpointer
cs_slab_alloc (gsize size)
{
  SlabBlock *b = thread_block;

  size = (size + 7) & ~(gsize) 7;
  if (G_LIKELY (b != NULL && size <= CS_SLAB_BLOCK_SIZE - b->used))
    {
      gpointer p = (char *) b + b->used;
      b->used += size;
      b->handed++;
      SLAB_UNPOISON (p, size);
      return p;
    }
  return alloc_slow (size);
}

void
cs_slab_free (gpointer mem)
{
  if (mem == NULL)
    return;

  SlabBlock *b = (SlabBlock *) ((guintptr) mem & ~(CS_SLAB_BLOCK_SIZE - 1));
  if (g_atomic_int_add (&b->live, -1) == 1)
    unmap (b);
}

guint
cs_slab_mappings_alive (void)
{
  return (guint) g_atomic_int_get (&mappings_alive);
}
