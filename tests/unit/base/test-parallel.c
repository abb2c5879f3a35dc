/* test-parallel.c — the parallel for-loop: every item once, batches fair to few items */
#include "base/cs-parallel.h"

static void
count_visit (guint index, gpointer user_data)
{
  gint *visits = user_data;

  g_atomic_int_inc (&visits[index]);
}

/* Every item is visited exactly once, for sizes around the batch edges and any threads. */
static void
test_visits_each_once (void)
{
  const guint sizes[] = { 0, 1, 2, 15, 16, 17, 63, 64, 65, 200, 1023, 1024, 1025, 40000 };
  const guint threads[] = { 0, 1, 2, 3, 8 };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint t = 0; t < G_N_ELEMENTS (threads); t++)
      {
        gint *visits = g_new0 (gint, MAX (sizes[s], 1));

        cs_parallel_for (sizes[s], threads[t], count_visit, visits);
        for (guint i = 0; i < sizes[s]; i++)
          g_assert_cmpint (visits[i], ==, 1);
        g_free (visits);
      }
}

/* Few heavy items go one by one (both threads stay busy to the end); many go 16 at a time. */
static void
test_batch_size (void)
{
  g_assert_cmpuint (cs_parallel_batch_size (0, 2), ==, 1);
  g_assert_cmpuint (cs_parallel_batch_size (104, 2), ==, 1);
  g_assert_cmpuint (cs_parallel_batch_size (200, 2), ==, 3);
  g_assert_cmpuint (cs_parallel_batch_size (1024, 2), ==, 16);
  g_assert_cmpuint (cs_parallel_batch_size (40000, 2), ==, 16);
  g_assert_cmpuint (cs_parallel_batch_size (40000, 8), ==, 16);
  g_assert_cmpuint (cs_parallel_batch_size (1000, 8), ==, 3);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/parallel/visits-each-once", test_visits_each_once);
  g_test_add_func ("/parallel/batch-size", test_batch_size);
  return g_test_run ();
}
