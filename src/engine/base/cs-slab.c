/* cs-slab.c — see cs-slab.h.
 *
 * Why: parsed SIP messages were one malloc each on the decode workers; a worker's glibc
 * arena then grew one page per mprotect (124k calls on a 100k-call capture) and every
 * object paid a malloc header. Here a worker bump-allocates from its own 2 MiB block
 * (madvised for a huge page: one fault instead of 512).
 *
 * A free tells block objects from heap ones by one bit per 2 MiB of address space, set
 * while a block is mapped there (no header per object); a block object finds its block
 * by masking its address.
 *
 * Block lifetime without a per-allocation atomic: `live` starts at a large bias that
 * stands for the owning thread; frees subtract one each. When the owner retires the
 * block (full, or thread end) it adds the number it handed out minus the bias, so
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
/* user space addresses are below 2^47 (x86-64 and arm64 with 4-level tables; a block
 * mapped higher is given back and the heap used instead) */
#define ADDRESS_BITS 47
#define BLOCK_SHIFT 21
#define MAP_WORDS (((gsize) 1 << (ADDRESS_BITS - BLOCK_SHIFT)) / 64)

typedef struct
{
  gint live;      /* objects alive, plus OWNER_BIAS while a thread allocates from it */
  guint32 handed; /* objects handed out (owner only) */
  gsize used;     /* bytes used from the block start, header included (owner only) */
} SlabBlock;

#define HEADER_SIZE ((sizeof (SlabBlock) + 15) & ~(gsize) 15)

static gint blocks_alive;
/* the bit per 2 MiB: 8 MiB of address space, reserved without memory; reading a part
 * never written maps the shared zero page */
static guint64 *block_map;

static guint64 *
block_map_get (void)
{
  static gsize once;

  if (g_once_init_enter (&once))
    {
      void *map = mmap (NULL, MAP_WORDS * sizeof (guint64), PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      g_atomic_pointer_set (&block_map, map == MAP_FAILED ? NULL : map);
      g_once_init_leave (&once, 1);
    }
  return g_atomic_pointer_get (&block_map);
}

static inline gboolean
is_block_address (gconstpointer mem)
{
  guintptr at = (guintptr) mem;
  guint64 *map = g_atomic_pointer_get (&block_map);

  if (map == NULL || at >> ADDRESS_BITS != 0)
    return FALSE;
  return (__atomic_load_n (&map[at >> (BLOCK_SHIFT + 6)], __ATOMIC_ACQUIRE)
          >> ((at >> BLOCK_SHIFT) & 63))
         & 1;
}

static void
block_map_set (gconstpointer block, gboolean mapped)
{
  guintptr at = (guintptr) block;
  guint64 bit = G_GUINT64_CONSTANT (1) << ((at >> BLOCK_SHIFT) & 63);
  guint64 *word = &block_map[at >> (BLOCK_SHIFT + 6)];

  if (mapped)
    __atomic_fetch_or (word, bit, __ATOMIC_RELEASE);
  else
    __atomic_fetch_and (word, ~bit, __ATOMIC_RELEASE);
}

static void thread_end (gpointer data);

static GPrivate block_key = G_PRIVATE_INIT (thread_end);
/* the same pointer without g_private_get on every allocation; the GPrivate retires the
 * block when the thread ends */
static _Thread_local SlabBlock *thread_block;
static _Thread_local gboolean thread_enabled;

static void
unmap (SlabBlock *b)
{
  SLAB_UNPOISON (b, CS_SLAB_BLOCK_SIZE);
  block_map_set (b, FALSE); /* before the range can hold anything else */
  munmap (b, CS_SLAB_BLOCK_SIZE);
  g_atomic_int_add (&blocks_alive, -1);
}

static void
block_reset (SlabBlock *b)
{
  b->live = OWNER_BIAS;
  b->handed = 0;
  b->used = HEADER_SIZE;
  SLAB_POISON ((char *) b + HEADER_SIZE, CS_SLAB_BLOCK_SIZE - HEADER_SIZE);
}

/* A block aligned to its size, or NULL. */
static SlabBlock *
block_new (void)
{
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  gsize span = 2 * CS_SLAB_BLOCK_SIZE - page;
  char *raw = mmap (NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

  if (raw == MAP_FAILED || block_map_get () == NULL)
    {
      if (raw != MAP_FAILED)
        munmap (raw, span);
      return NULL;
    }
  char *start = (char *) (((guintptr) raw + CS_SLAB_BLOCK_SIZE - 1) & ~(CS_SLAB_BLOCK_SIZE - 1));
  if (start > raw)
    munmap (raw, (gsize) (start - raw));
  if (raw + span > start + CS_SLAB_BLOCK_SIZE)
    munmap (start + CS_SLAB_BLOCK_SIZE, (gsize) (raw + span - (start + CS_SLAB_BLOCK_SIZE)));
  if ((guintptr) start >> ADDRESS_BITS != 0)
    {
      munmap (start, CS_SLAB_BLOCK_SIZE);
      return NULL;
    }
  /* before the first touch, or that touch maps a small page and the rest follow; THP is
   * often "madvise" only, and without it the block simply faults in small pages */
  (void) madvise (start, CS_SLAB_BLOCK_SIZE, MADV_HUGEPAGE);
  block_map_set (start, TRUE);
  g_atomic_int_inc (&blocks_alive);

  SlabBlock *b = (SlabBlock *) start;
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
thread_end (gpointer data)
{
  if (owner_release (data))
    unmap (data);
}

void
cs_slab_thread_enable (void)
{
  thread_enabled = TRUE;
}

static inline gpointer
block_take (SlabBlock *b, gsize need)
{
  gpointer p = (char *) b + b->used;

  SLAB_UNPOISON (p, need);
  b->used += need;
  b->handed++;
  return p;
}

static __attribute__ ((noinline)) gpointer
alloc_slow (gsize size, gsize need)
{
  if (!thread_enabled || size > CS_SLAB_MAX_OBJECT)
    return g_malloc (size);

  SlabBlock *b = thread_block;
  if (b != NULL && owner_release (b))
    block_reset (b); /* every object in it is gone already: fill it again */
  else
    {
      b = block_new ();
      thread_block = b;
      g_private_set (&block_key, b);
      if (b == NULL)
        return g_malloc (size);
    }
  return block_take (b, need);
}

gpointer
cs_slab_alloc (gsize size)
{
  SlabBlock *b = thread_block;
  gsize need = (size + 7) & ~(gsize) 7;

  if (G_LIKELY (b != NULL && size <= CS_SLAB_MAX_OBJECT && need <= CS_SLAB_BLOCK_SIZE - b->used))
    return block_take (b, need);
  return alloc_slow (size, need);
}

void
cs_slab_free (gpointer mem)
{
  if (mem == NULL)
    return;

  if (!is_block_address (mem))
    {
      g_free (mem);
      return;
    }
  SlabBlock *b = (SlabBlock *) ((guintptr) mem & ~(CS_SLAB_BLOCK_SIZE - 1));
  if (g_atomic_int_add (&b->live, -1) == 1)
    unmap (b);
}

guint
cs_slab_blocks_alive (void)
{
  return (guint) g_atomic_int_get (&blocks_alive);
}
