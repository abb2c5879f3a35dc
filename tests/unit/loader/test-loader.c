/* test-loader.c — the loader's choices that do not show in its results */
#include "loader/cs-loader-private.h"

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

/* Chunk sizes: a ramp up from 2000 frames, 32768 in the middle, and a geometric shrink
 * towards the end down to 2048 frames, so that workers finish together and the merge after
 * the last decode is short. */
static void
test_chunk_frames (void)
{
  guint32 previous = 0;
  guint64 left = 687000;
  guint n;

  g_assert_cmpuint (cs_pipeline_chunk_frames (0, 535000, 2), ==, 2000);
  g_assert_cmpuint (cs_pipeline_chunk_frames (1, 533000, 2), ==, 4000);
  g_assert_cmpuint (cs_pipeline_chunk_frames (4, 500000, 2), ==, 32000);
  g_assert_cmpuint (cs_pipeline_chunk_frames (5, 500000, 2), ==, 32768);
  g_assert_cmpuint (cs_pipeline_chunk_frames (9, 262144, 2), ==, 32768);
  /* a quarter per worker of what is left */
  g_assert_cmpuint (cs_pipeline_chunk_frames (9, 80000, 2), ==, 10000);
  g_assert_cmpuint (cs_pipeline_chunk_frames (9, 80000, 1), ==, 20000);
  g_assert_cmpuint (cs_pipeline_chunk_frames (9, 1000, 2), ==, 2048);
  g_assert_cmpuint (cs_pipeline_chunk_frames (9, 0, 0), ==, 2048);
  /* one worker through S: the last chunks are small, and they are not many */
  for (n = 0; left > 0; n++)
    {
      guint32 size = (guint32) MIN (left, cs_pipeline_chunk_frames (n, left, 1));

      if (n >= 5 && left < 131072)
        g_assert_cmpuint (size, <=, MAX (previous, 2048));
      previous = size;
      left -= size;
    }
  g_assert_cmpuint (previous, <=, 2048);
  g_assert_cmpuint (n, <, 40);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/loader/keeps-walked-pages/small-capture",
                   test_keeps_walked_pages_small_capture);
  g_test_add_func ("/loader/keeps-walked-pages/small-frames", test_keeps_walked_pages_small_frames);
  g_test_add_func ("/loader/chunk-frames", test_chunk_frames);
  return g_test_run ();
}
