/* test-rtp-run-table.c — the merge's run table finds every run by its key, across growth,
 * IPv6 keys, keys that differ in one field only, and runs taken out */
#include "loader/cs-rtp-run-table.h"
#include "loader/cs-analysis.h"
#include "loader/cs-merge.h"

#include <string.h>

static CsRtpRun *
make_run (guint i, gboolean v6)
{
  CsRtpRun *run = g_new0 (CsRtpRun, 1);
  guint8 a[16] = { 10, 0, (guint8) (i >> 8), (guint8) i };
  guint8 b[16] = { 10, 1, 0, 1 };

  if (v6)
    {
      a[15] = (guint8) i;
      cs_addr_set_v6 (&run->key.src.addr, a);
      cs_addr_set_v6 (&run->key.dst.addr, b);
    }
  else
    {
      cs_addr_set_v4 (&run->key.src.addr, a);
      cs_addr_set_v4 (&run->key.dst.addr, b);
    }
  run->key.src.port = (guint16) (20000 + 2 * (i % 7));
  run->key.dst.port = 30000;
  run->key.ssrc = i % 3; /* many keys differ from others in one field only */
  return run;
}

static gint64
find (CsRtpRunTable *table, GPtrArray *runs, const CsRtpStreamKey *key, guint32 *slot)
{
  return cs_rtp_run_table_find (table, runs, key, cs_rtp_run_table_hash (key), slot);
}

static void
test_finds_every_run (void)
{
  g_autoptr (GPtrArray) runs = g_ptr_array_new_with_free_func (g_free);
  CsRtpRunTable table;
  const guint n = 5000; /* well past the first size: the table grows several times */

  cs_rtp_run_table_init (&table);
  for (guint i = 0; i < n; i++)
    {
      CsRtpRun *run = make_run (i, i % 5 == 0);
      guint32 slot = G_MAXUINT32;

      g_assert_cmpint (find (&table, runs, &run->key, &slot), ==, -1);
      g_assert_cmpuint (slot, <=, table.mask);
      cs_rtp_run_table_insert (&table, slot, cs_rtp_run_table_hash (&run->key), runs->len);
      g_ptr_array_add (runs, run);
    }
  g_assert_cmpuint (2 * table.used, <=, table.mask + 1);
  for (guint i = 0; i < n; i++)
    {
      g_autofree CsRtpRun *probe = make_run (i, i % 5 == 0);
      guint32 slot;

      g_assert_cmpint (find (&table, runs, &probe->key, &slot), ==, (gint64) i);
      /* the same addresses, another SSRC: not the same stream */
      probe->key.ssrc += 1000;
      g_assert_cmpint (find (&table, runs, &probe->key, &slot), ==, -1);
    }

  /* take every other run out, as the eviction sweep does, and file the rest again */
  {
    guint kept = 0;

    for (guint i = 0; i < runs->len; i++)
      if (i % 2 == 0)
        runs->pdata[kept++] = runs->pdata[i];
      else
        g_free (runs->pdata[i]);
    runs->len = kept;
  }
  cs_rtp_run_table_rebuild (&table, runs);
  g_assert_cmpuint (table.used, ==, runs->len);
  for (guint i = 0; i < n; i++)
    {
      g_autofree CsRtpRun *probe = make_run (i, i % 5 == 0);
      guint32 slot;

      g_assert_cmpint (find (&table, runs, &probe->key, &slot), ==,
                       i % 2 == 0 ? (gint64) i / 2 : -1);
    }
  cs_rtp_run_table_clear (&table);
}

/* Adds one RTP packet of the flow with source port port to chunk. */
static void
add_packet (CsChunk *chunk, guint16 port, guint32 frame)
{
  CsPacket pkt = { 0 };
  guint8 payload[12 + 20] = { 0x80, 0x00 };

  pkt.src.addr.family = pkt.dst.addr.family = 4;
  pkt.src.addr.bytes[0] = 10;
  pkt.dst.addr.bytes[0] = 192;
  pkt.src.port = port;
  pkt.dst.port = 5000;
  pkt.ip_proto = 17;
  pkt.ip_version = 4;
  pkt.payload = payload;
  pkt.payload_len = sizeof payload;
  payload[3] = (guint8) frame; /* sequence number */
  payload[8] = 0xca;           /* SSRC */
  cs_chunk_add_rtp (chunk, &pkt, frame, 1000000000ll + frame * 20000000ll);
}

/* At the stream cap the merge evicts single-packet flows and files the others again: a new
 * flow right after, and the kept flows' next packets, still find their own runs. */
static void
test_merge_finds_runs_after_eviction (void)
{
  CsCaptureStats stats = { 0 };
  CsMerge *merge;
  GPtrArray *runs;
  guint32 frame = 1;

  stats.limits.max_streams = 10;
  merge = cs_merge_new (NULL, &stats);
  for (guint c = 0; c < 3; c++)
    {
      CsChunk *chunk = cs_chunk_new (frame - 1, 64);

      if (c == 0)
        for (guint16 f = 0; f < 10; f++)
          {
            add_packet (chunk, (guint16) (4000 + f), frame++);
            if (f % 2 == 0) /* the even flows have two packets, the odd ones one */
              add_packet (chunk, (guint16) (4000 + f), frame++);
          }
      else
        {
          add_packet (chunk, 4100, frame++); /* new at the cap: the odd flows go */
          for (guint16 f = 0; f < 10; f += 2)
            add_packet (chunk, (guint16) (4000 + f), frame++);
        }
      cs_merge_add_chunk (merge, chunk);
      cs_chunk_free (chunk);
    }
  runs = cs_merge_get_rtp_runs (merge);
  g_assert_cmpuint (stats.rtp_flows_evicted, ==, 5);
  g_assert_cmpuint (runs->len, ==, 6);
  for (guint i = 0; i < runs->len; i++)
    {
      CsRtpRun *run = g_ptr_array_index (runs, i);

      g_assert_cmpuint (run->key.src.port, ==, i < 5 ? 4000 + 2 * i : 4100);
      g_assert_cmpuint (run->pack.n_packets, ==, i < 5 ? 4 : 2);
    }
  cs_merge_free (merge);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rtp-run-table/finds-every-run", test_finds_every_run);
  g_test_add_func ("/rtp-run-table/merge-finds-runs-after-eviction",
                   test_merge_finds_runs_after_eviction);
  return g_test_run ();
}
