/* test-loader.c — the loader's choices that do not show in its results */
#include "cs-loader.h"

#define MIB (G_GUINT64_CONSTANT (1024) * 1024)

/* The walked pages are kept on a small capture only, whatever the number of workers:
 * on a big one the chunks in flight would stay resident. */
static void
test_keeps_walked_pages_small_capture (void)
{
  g_assert_true (cs_loader_keeps_walked_pages (126 * MIB));
  g_assert_true (cs_loader_keeps_walked_pages (256 * MIB));
  g_assert_false (cs_loader_keeps_walked_pages (256 * MIB + 1));
  g_assert_false (cs_loader_keeps_walked_pages (504 * MIB));
  g_assert_false (cs_loader_keeps_walked_pages (4096 * MIB));
}

/* The walk stops keeping them once its frames average over 1 KiB. */
static void
test_keeps_walked_pages_small_frames (void)
{
  g_assert_true (cs_loader_keeps_walked_pages_for (0, 0));
  g_assert_true (cs_loader_keeps_walked_pages_for (246 * 535000, 535000));
  g_assert_true (cs_loader_keeps_walked_pages_for (1024 * 1000, 1000));
  g_assert_false (cs_loader_keeps_walked_pages_for (1024 * 1000 + 1, 1000));
  g_assert_false (cs_loader_keeps_walked_pages_for (65536 * 100, 100));
  g_assert_false (cs_loader_keeps_walked_pages_for (24, 0));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/loader/keeps-walked-pages/small-capture",
                   test_keeps_walked_pages_small_capture);
  g_test_add_func ("/loader/keeps-walked-pages/small-frames", test_keeps_walked_pages_small_frames);
  return g_test_run ();
}
