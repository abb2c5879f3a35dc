/* The fixed-size pool: zeroed, aligned, distinct objects; released ones come back before
 * a new block is taken; freeing the pool frees what it handed out. */
#include <string.h>

#include "base/cs-fixed-pool.h"

typedef struct
{
  guint64 a;
  guint8 b[13];
} Thing; /* 21 bytes: rounded up to 24 */

static void
test_objects_are_zeroed_aligned_distinct (void)
{
  CsFixedPool *pool = cs_fixed_pool_new (sizeof (Thing));
  g_autoptr (GHashTable) seen = g_hash_table_new (NULL, NULL);
  enum
  {
    N = 50000 /* several blocks */
  };

  for (guint i = 0; i < N; i++)
    {
      Thing *t = cs_fixed_pool_alloc0 (pool);

      g_assert_cmpuint (GPOINTER_TO_SIZE (t) % 8, ==, 0);
      g_assert_cmpuint (t->a, ==, 0);
      for (guint j = 0; j < sizeof t->b; j++)
        g_assert_cmpuint (t->b[j], ==, 0);
      g_assert_false (g_hash_table_contains (seen, t));
      g_hash_table_add (seen, t);
      t->a = G_MAXUINT64;
      memset (t->b, 0xff, sizeof t->b); /* a neighbour overlapping would be caught above */
    }
  g_assert_cmpuint (cs_fixed_pool_get_n_blocks (pool), >, 1);
  g_assert_cmpuint (cs_fixed_pool_get_n_blocks (pool), <=, N * 24 / (256 * 1024) + 1);
  cs_fixed_pool_free (pool);
}

static void
test_released_objects_are_reused (void)
{
  CsFixedPool *pool = cs_fixed_pool_new (sizeof (Thing));
  Thing *kept = cs_fixed_pool_alloc0 (pool);
  Thing *gone = cs_fixed_pool_alloc0 (pool);
  guint blocks;

  gone->a = 42;
  cs_fixed_pool_release (pool, gone);
  cs_fixed_pool_release (pool, NULL);
  g_assert_true (cs_fixed_pool_alloc0 (pool) == gone);
  g_assert_cmpuint (gone->a, ==, 0); /* zeroed again */
  g_assert_true (gone != kept);
  /* a flood of short-lived objects does not grow the pool */
  blocks = cs_fixed_pool_get_n_blocks (pool);
  for (guint i = 0; i < 100000; i++)
    cs_fixed_pool_release (pool, cs_fixed_pool_alloc0 (pool));
  g_assert_cmpuint (cs_fixed_pool_get_n_blocks (pool), ==, blocks);
  cs_fixed_pool_free (pool);
  cs_fixed_pool_free (NULL);
}

static void
test_tiny_objects_hold_the_free_link (void)
{
  CsFixedPool *pool = cs_fixed_pool_new (1);
  guint8 *a = cs_fixed_pool_alloc0 (pool);
  guint8 *b = cs_fixed_pool_alloc0 (pool);

  g_assert_cmpuint ((gsize) (b > a ? b - a : a - b), >=, sizeof (gpointer));
  cs_fixed_pool_release (pool, a);
  cs_fixed_pool_release (pool, b);
  g_assert_true (cs_fixed_pool_alloc0 (pool) == b);
  g_assert_true (cs_fixed_pool_alloc0 (pool) == a);
  cs_fixed_pool_free (pool);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fixed-pool/zeroed-aligned-distinct", test_objects_are_zeroed_aligned_distinct);
  g_test_add_func ("/fixed-pool/released-reused", test_released_objects_are_reused);
  g_test_add_func ("/fixed-pool/tiny-objects", test_tiny_objects_hold_the_free_link);
  return g_test_run ();
}
