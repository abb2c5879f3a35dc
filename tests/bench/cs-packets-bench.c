/* cs-packets-bench.c — the Packets page's model on a large capture (issue 21): time to open
 * the whole capture's list and show its first screen of rows, memory added per frame, and
 * protocol-tree build times for SIP and RTP frames. Prints numbers; never run by meson test.
 *
 *   build/tests/bench/cs-bench-gen --calls 94000 -o /tmp/big.pcap    # ~10M frames
 *   build/tests/bench/cs-packets-bench /tmp/big.pcap
 */
#include <stdio.h>
#include <unistd.h>

#include "cs-frame-list.h"

static double
now_ms (void)
{
  return (double) g_get_monotonic_time () / 1000.0;
}

/* Resident bytes of the process. */
static gsize
resident_bytes (void)
{
  g_autofree char *text = NULL;
  unsigned long size = 0, resident = 0;

  if (!g_file_get_contents ("/proc/self/statm", &text, NULL, NULL)
      || sscanf (text, "%lu %lu", &size, &resident) != 2)
    return 0;
  return (gsize) resident * (gsize) sysconf (_SC_PAGESIZE);
}

/* Mean and worst tree build time over up to n frames chosen by protocol. */
static void
time_trees (CsFrameDissector *dissector, CsFrameList *list, const char *protocol, guint n)
{
  guint done = 0, rows = g_list_model_get_n_items (G_LIST_MODEL (list));
  double total = 0, worst = 0;
  guint step = MAX (rows / 5000u, 1u);

  for (guint i = 0; i < rows && done < n; i += step)
    {
      g_autoptr (CsFrameRow) row = g_list_model_get_item (G_LIST_MODEL (list), i);
      double t0;

      if (!g_str_has_prefix (cs_frame_row_get_protocol (row), protocol))
        continue;
      t0 = now_ms ();
      cs_proto_tree_free (cs_frame_dissector_tree (dissector, cs_frame_row_get_number (row)));
      total += now_ms () - t0;
      worst = MAX (worst, now_ms () - t0);
      done++;
    }
  printf ("tree %-4s: %u frames, mean %.3f ms, worst %.3f ms\n", protocol, done,
          done > 0 ? total / done : 0, worst);
}

int
main (int argc, char **argv)
{
  g_autoptr (CsLoader) loader = NULL;
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (CsFrameList) list = NULL;
  CsFrameDissector *dissector;
  guint32 n_frames;
  gsize before, after;
  double t0, t_open, t_rows;

  if (argc != 2)
    {
      g_printerr ("usage: %s CAPTURE\n", argv[0]);
      return 2;
    }
  loader = cs_loader_new ();
  t0 = now_ms ();
  {
    const char *paths[] = { argv[1], NULL };

    analysis = cs_loader_load (loader, paths, NULL, &error);
  }
  if (analysis == NULL)
    {
      g_printerr ("%s: %s\n", argv[1], error->message);
      return 1;
    }
  n_frames = cs_capture_set_get_n_frames (cs_analysis_get_capture_set (analysis));
  printf ("loaded %u frames in %.0f ms (not counted below)\n", n_frames, now_ms () - t0);

  before = resident_bytes ();
  t0 = now_ms ();
  dissector = cs_frame_dissector_new (analysis);
  list = cs_frame_list_new ();
  cs_frame_list_set_dissector (list, dissector, n_frames);
  cs_frame_list_set_scope (list, NULL);
  t_open = now_ms () - t0;
  /* what a list view shows first: a screenful of rows, made on demand */
  t0 = now_ms ();
  for (guint i = 0; i < 60 && i < n_frames; i++)
    g_object_unref (g_list_model_get_item (G_LIST_MODEL (list), i));
  for (guint i = n_frames > 60 ? n_frames - 60 : 0; i < n_frames; i++)
    g_object_unref (g_list_model_get_item (G_LIST_MODEL (list), i));
  t_rows = now_ms () - t0;
  after = resident_bytes ();
  printf ("open whole capture: %.3f ms; first and last 60 rows: %.3f ms\n", t_open, t_rows);
  printf ("memory added: %.2f bytes per frame (resident %+.1f MiB; list arrays %" G_GSIZE_FORMAT
          " bytes)\n",
          n_frames > 0 ? (double) (after > before ? after - before : 0) / n_frames : 0.0,
          ((double) after - (double) before) / 1048576.0, cs_frame_list_get_bytes (list));
  time_trees (dissector, list, "SIP", 200);
  time_trees (dissector, list, "RTP", 200);
  time_trees (dissector, list, "RTCP", 200);
  cs_frame_list_set_dissector (list, NULL, 0);
  cs_frame_dissector_free (dissector);
  return 0;
}
