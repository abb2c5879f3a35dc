/* test-loader.c — the loader's choices that do not show in its results */
#include "cs-loader.h"

#define MIB (G_GUINT64_CONSTANT (1024) * 1024)

/* One decode worker keeps the walked pages whatever the capture's size. */
static void
test_keeps_walked_pages_one_worker (void)
{
  g_assert_true (cs_loader_keeps_walked_pages (1, 100 * MIB));
  g_assert_true (cs_loader_keeps_walked_pages (1, 4096 * MIB));
  g_assert_true (cs_loader_keeps_walked_pages (0, 4096 * MIB));
}

/* Several workers keep them only on a small capture: on a big one the chunks in flight
 * would stay resident. */
static void
test_keeps_walked_pages_several_workers (void)
{
  g_assert_true (cs_loader_keeps_walked_pages (2, 126 * MIB));
  g_assert_true (cs_loader_keeps_walked_pages (2, 256 * MIB));
  g_assert_false (cs_loader_keeps_walked_pages (2, 256 * MIB + 1));
  g_assert_false (cs_loader_keeps_walked_pages (2, 504 * MIB));
  g_assert_false (cs_loader_keeps_walked_pages (8, 4096 * MIB));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/loader/keeps-walked-pages/one-worker", test_keeps_walked_pages_one_worker);
  g_test_add_func ("/loader/keeps-walked-pages/several-workers",
                   test_keeps_walked_pages_several_workers);
  return g_test_run ();
}
