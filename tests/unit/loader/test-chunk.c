/* test-chunk.c — a chunk's RTP runs: many streams interleaved packet by packet, packed */
#include "loader/cs-chunk.h"
#include "loader/cs-rtp-run-table.h"

/* A stream of the tests: both ends and the SSRC; its RTP timestamp field carries id. */
typedef struct
{
  CsEndpoint src, dst;
  guint32 ssrc;
  guint32 id;
} TestStream;

static void
test_stream_v4 (TestStream *s, guint32 id, guint32 src_host, guint16 port, guint32 ssrc)
{
  guint8 a[4] = { 10, (guint8) (src_host >> 16), (guint8) (src_host >> 8), (guint8) src_host };
  guint8 b[4] = { 192, 168, 1, 1 };

  memset (s, 0, sizeof *s);
  cs_addr_set_v4 (&s->src.addr, a);
  cs_addr_set_v4 (&s->dst.addr, b);
  s->src.port = port;
  s->dst.port = 20000;
  s->ssrc = ssrc;
  s->id = id;
}

/* Adds one RTP packet of s to chunk as frame; seq is the packet's rank in its stream. */
static void
test_add_packet (CsChunk *chunk, const TestStream *s, guint32 frame, guint16 seq)
{
  guint8 rtp[20] = { 0x80, 0 };
  CsPacket pkt;

  rtp[2] = (guint8) (seq >> 8);
  rtp[3] = (guint8) seq;
  rtp[4] = (guint8) (s->id >> 24);
  rtp[5] = (guint8) (s->id >> 16);
  rtp[6] = (guint8) (s->id >> 8);
  rtp[7] = (guint8) s->id;
  rtp[8] = (guint8) (s->ssrc >> 24);
  rtp[9] = (guint8) (s->ssrc >> 16);
  rtp[10] = (guint8) (s->ssrc >> 8);
  rtp[11] = (guint8) s->ssrc;
  memset (&pkt, 0, sizeof pkt);
  pkt.src = s->src;
  pkt.dst = s->dst;
  pkt.ip_proto = 17;
  pkt.payload = rtp;
  pkt.payload_len = sizeof rtp;
  cs_chunk_add_rtp (chunk, &pkt, frame, (gint64) frame * 1000);
}

/* Every run holds its stream's packets only, in capture order (seq 0, 1, …), packed as a
 * pack of its own would be, and the runs come in the order of their first packet (ids in
 * first_order). */
static void
test_check_runs (CsChunk *chunk, const TestStream *streams, const guint32 *first_order,
                 guint n_streams, guint packets_each)
{
  guint64 total = 0;

  g_assert_true (chunk->rtp_grouped);
  g_assert_cmpuint (chunk->n_rtp_runs, ==, n_streams);
  for (guint r = 0; r < chunk->n_rtp_runs; r++)
    {
      const CsChunkRtpRun *run = &chunk->rtp_runs[r];
      const TestStream *s = &streams[first_order[r]];
      g_autofree CsRtpPacket *records = NULL;
      CsRtpPack alone;

      g_assert_true (
          cs_rtp_stream_key_equal (&run->key, &(CsRtpStreamKey){ s->src, s->dst, s->ssrc }));
      /* the merge files the run by the hash it carries */
      g_assert_cmpuint (run->hash, ==, cs_rtp_run_table_hash (&run->key));
      g_assert_cmpuint (run->pack.n_packets, ==, packets_each);
      if (run->pack.n_packets == 1)
        {
          /* a run of one packet is handed over unpacked, its record in the tail only */
          g_assert_null (run->pack.data);
          g_assert_cmpuint (run->pack.n_bytes, ==, 0);
          records = g_memdup2 (&run->pack.tail.last, sizeof (CsRtpPacket));
        }
      else
        records = cs_rtp_pack_unpack_new (run->pack.data, run->pack.n_packets);
      memset (&alone, 0, sizeof alone);
      for (guint i = 0; i < run->pack.n_packets; i++)
        {
          const CsRtpPacket *p = &records[i];

          g_assert_cmpuint (p->timestamp, ==, s->id);
          g_assert_cmpuint (p->seq, ==, i);
          if (i > 0)
            g_assert_cmpuint (p->frame, >, p[-1].frame);
          g_assert_cmpint (p->arrival_ns, ==, (gint64) p->frame * 1000);
          cs_rtp_pack_push (&alone, p);
        }
      if (run->pack.n_packets != 1)
        {
          g_assert_cmpuint (alone.n_bytes, ==, run->pack.n_bytes);
          g_assert_cmpmem (alone.data, alone.n_bytes, run->pack.data, run->pack.n_bytes);
        }
      g_assert_cmpmem (&alone.tail, sizeof alone.tail, &run->pack.tail, sizeof run->pack.tail);
      cs_rtp_pack_clear (&alone);
      total += run->pack.n_packets;
    }
  g_assert_cmpuint (total, ==, chunk->rtp_packets);
}

/* Thousands of streams, one packet each in turn in a shuffled order every round: the
 * run table grows several times while keys keep arriving. */
static void
test_many_interleaved (void)
{
  enum
  {
    N = 5000,
    ROUNDS = 7
  };
  g_autofree TestStream *streams = g_new (TestStream, N);
  g_autofree guint32 *order = g_new (guint32, N);
  g_autofree guint32 *first_order = g_new (guint32, N);
  GRand *rand = g_rand_new_with_seed (42);
  CsChunk *chunk = cs_chunk_new (0, 0);
  guint32 frame = 1;

  for (guint i = 0; i < N; i++)
    {
      test_stream_v4 (&streams[i], i, i / 3, (guint16) (10000 + 2 * (i % 3)), 0x1000 + i);
      order[i] = i;
    }
  for (guint round = 0; round < ROUNDS; round++)
    {
      for (guint i = N - 1; i > 0; i--)
        {
          guint j = g_rand_int_range (rand, 0, (gint32) i + 1);
          guint32 t = order[i];

          order[i] = order[j];
          order[j] = t;
        }
      if (round == 0)
        memcpy (first_order, order, N * sizeof *order);
      for (guint i = 0; i < N; i++)
        test_add_packet (chunk, &streams[order[i]], frame++, (guint16) round);
    }
  g_assert_cmpuint (chunk->rtp_packets, ==, N * ROUNDS);
  cs_chunk_group_rtp (chunk);
  test_check_runs (chunk, streams, first_order, N, ROUNDS);
  /* grouping twice changes nothing */
  cs_chunk_group_rtp (chunk);
  test_check_runs (chunk, streams, first_order, N, ROUNDS);
  cs_chunk_free (chunk);
  g_rand_free (rand);
}

/* Keys the table packs alike: an IPv4 key and IPv6 keys with the same first address bytes,
 * ports and SSRC, and IPv6 keys that differ only past their first address word. */
static void
test_key_collisions (void)
{
  TestStream streams[5];
  guint32 first_order[5] = { 0, 1, 2, 3, 4 };
  guint8 v6[16] = { 10, 0, 0, 1 };
  CsChunk *chunk = cs_chunk_new (0, 0);
  guint32 frame = 1;

  test_stream_v4 (&streams[0], 0, 1, 4000, 77);
  for (guint i = 1; i < 5; i++)
    {
      streams[i] = streams[0];
      streams[i].id = i;
    }
  cs_addr_set_v6 (&streams[1].src.addr, v6); /* same four bytes as the IPv4 source */
  v6[15] = 1;
  cs_addr_set_v6 (&streams[2].src.addr, v6);
  v6[8] = 1;
  cs_addr_set_v6 (&streams[3].src.addr, v6);
  cs_addr_set_v6 (&streams[4].src.addr, v6);
  cs_addr_set_v6 (&streams[4].dst.addr, v6);
  for (guint round = 0; round < 3; round++)
    for (guint i = 0; i < 5; i++)
      test_add_packet (chunk, &streams[i], frame++, (guint16) round);
  cs_chunk_group_rtp (chunk);
  test_check_runs (chunk, streams, first_order, 5, 3);
  cs_chunk_free (chunk);
}

/* Streams one after the other (already grouped as they come), a single stream, no RTP. */
static void
test_runs_in_order (void)
{
  TestStream streams[40];
  guint32 first_order[40];
  CsChunk *chunk = cs_chunk_new (0, 0);
  guint32 frame = 1;

  for (guint i = 0; i < 40; i++)
    {
      test_stream_v4 (&streams[i], i, i, 5000, 9);
      first_order[i] = i;
      for (guint k = 0; k < 50; k++)
        test_add_packet (chunk, &streams[i], frame++, (guint16) k);
    }
  cs_chunk_group_rtp (chunk);
  test_check_runs (chunk, streams, first_order, 40, 50);
  cs_chunk_free (chunk);

  chunk = cs_chunk_new (0, 100);
  for (guint k = 0; k < 300; k++)
    test_add_packet (chunk, &streams[7], frame++, (guint16) k);
  cs_chunk_group_rtp (chunk);
  test_check_runs (chunk, &streams[7], (guint32[]){ 0 }, 1, 300);
  cs_chunk_free (chunk);

  chunk = cs_chunk_new (0, 10);
  cs_chunk_group_rtp (chunk);
  g_assert_cmpuint (chunk->n_rtp_runs, ==, 0);
  cs_chunk_free (chunk);

  /* payloads that are not RTP only */
  chunk = cs_chunk_new (0, 10);
  {
    guint8 short_payload[6] = { 0x80, 0 };
    CsPacket pkt;

    memset (&pkt, 0, sizeof pkt);
    pkt.src = streams[0].src;
    pkt.dst = streams[0].dst;
    pkt.payload = short_payload;
    pkt.payload_len = sizeof short_payload;
    cs_chunk_add_rtp (chunk, &pkt, frame++, 0);
  }
  cs_chunk_group_rtp (chunk);
  g_assert_cmpuint (chunk->n_rtp_runs, ==, 0);
  g_assert_cmpuint (chunk->rtp_packets, ==, 0);
  cs_chunk_free (chunk);
}

/* A chunk freed before grouping (a cancelled decode) leaves the thread's tables clean:
 * the next chunk sees none of its keys. Two chunks filled at once each get their own. */
static void
test_abandoned_and_concurrent_chunks (void)
{
  TestStream streams[3000];
  guint32 first_order[3000];
  CsChunk *a = cs_chunk_new (0, 0), *b;
  guint32 frame = 1;

  for (guint i = 0; i < 3000; i++)
    {
      test_stream_v4 (&streams[i], i, i, 6000, 1);
      first_order[i] = 2999 - i;
      test_add_packet (a, &streams[i], frame++, 0);
    }
  cs_chunk_free (a);

  a = cs_chunk_new (0, 0);
  b = cs_chunk_new (0, 0);
  for (guint round = 0; round < 2; round++)
    for (guint i = 0; i < 3000; i++)
      {
        test_add_packet (a, &streams[2999 - i], frame++, (guint16) round);
        test_add_packet (b, &streams[2999 - i], frame++, (guint16) round);
      }
  cs_chunk_group_rtp (a);
  test_check_runs (a, streams, first_order, 3000, 2);
  cs_chunk_free (a);
  cs_chunk_group_rtp (b);
  test_check_runs (b, streams, first_order, 3000, 2);
  cs_chunk_free (b);
}

/* Runs survive frames that are not RTP and RTP headers that take the general parser. */
static void
test_non_rtp_and_general_headers (void)
{
  TestStream s;
  guint8 csrc[24] = { 0x81, 0x08, 0, 1, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 9 };
  guint8 bad[8] = { 0x80, 0x08 };
  CsChunk *chunk = cs_chunk_new (0, 0);
  CsPacket pkt;

  test_stream_v4 (&s, 3, 1, 7000, 4);
  test_add_packet (chunk, &s, 1, 0);
  memset (&pkt, 0, sizeof pkt);
  pkt.src = s.src;
  pkt.dst = s.dst;
  pkt.payload = bad; /* too short: not RTP */
  pkt.payload_len = sizeof bad;
  cs_chunk_add_rtp (chunk, &pkt, 2, 2000);
  pkt.payload = csrc; /* one CSRC: not the inline fast path */
  pkt.payload_len = sizeof csrc;
  cs_chunk_add_rtp (chunk, &pkt, 3, 3000);
  test_add_packet (chunk, &s, 4, 2);
  cs_chunk_group_rtp (chunk);
  test_check_runs (chunk, &s, (guint32[]){ 0 }, 1, 3);
  cs_chunk_free (chunk);

  /* an IPv6 stream: hashed with its whole addresses */
  {
    guint8 v6a[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 },
           v6b[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };

    chunk = cs_chunk_new (0, 0);
    cs_addr_set_v6 (&s.src.addr, v6a);
    cs_addr_set_v6 (&s.dst.addr, v6b);
    for (guint k = 0; k < 3; k++)
      test_add_packet (chunk, &s, 10 + k, (guint16) k);
    cs_chunk_group_rtp (chunk);
    test_check_runs (chunk, &s, (guint32[]){ 0 }, 1, 3);
    cs_chunk_free (chunk);
  }
}

/* Runs of one packet (most of a chunk's when thousands of streams interleave) are handed
 * over unpacked; appended to a stream's pack with other chunks' runs they give the pack a
 * stream's records packed on their own would. */
static void
test_one_packet_runs (void)
{
  enum
  {
    N = 1500
  };
  TestStream streams[N];
  guint32 first_order[N];
  CsRtpPack merged[N];
  CsChunk *chunks[3];
  guint32 frame = 1;

  memset (merged, 0, sizeof merged);
  for (guint i = 0; i < N; i++)
    {
      test_stream_v4 (&streams[i], i, i, 8000, 5);
      first_order[i] = i;
    }
  for (guint c = 0; c < 3; c++)
    chunks[c] = cs_chunk_new (0, frame);
  /* chunk 0: one packet each; chunk 1: two for odd streams; chunk 2: one again */
  for (guint i = 0; i < N; i++)
    test_add_packet (chunks[0], &streams[i], frame++, 0);
  for (guint k = 0; k < 2; k++)
    for (guint i = 0; i < N; i++)
      if (k == 0 || i % 2 == 1)
        test_add_packet (chunks[1], &streams[i], frame++, (guint16) (1 + k));
  cs_chunk_group_rtp (chunks[0]);
  test_check_runs (chunks[0], streams, first_order, N, 1);
  for (guint i = 0; i < N; i++)
    test_add_packet (chunks[2], &streams[i], frame++, (guint16) (i % 2 == 1 ? 3 : 2));
  cs_chunk_group_rtp (chunks[1]);
  cs_chunk_group_rtp (chunks[2]);
  for (guint c = 0; c < 3; c++)
    {
      g_assert_cmpuint (chunks[c]->n_rtp_runs, ==, N);
      for (guint r = 0; r < N; r++)
        {
          g_assert_cmpuint (chunks[c]->rtp_runs[r].pack.n_packets, ==,
                            c == 1 && r % 2 == 1 ? 2 : 1);
          cs_rtp_pack_append_pack (&merged[r], &chunks[c]->rtp_runs[r].pack);
        }
      cs_chunk_free (chunks[c]);
    }
  for (guint i = 0; i < N; i++)
    {
      guint n = i % 2 == 1 ? 4 : 3;
      g_autofree CsRtpPacket *records = cs_rtp_pack_unpack_new (merged[i].data, n);
      CsRtpPack alone;

      g_assert_cmpuint (merged[i].n_packets, ==, n);
      memset (&alone, 0, sizeof alone);
      for (guint k = 0; k < n; k++)
        {
          g_assert_cmpuint (records[k].seq, ==, k);
          g_assert_cmpuint (records[k].timestamp, ==, i);
          g_assert_cmpint (records[k].arrival_ns, ==, (gint64) records[k].frame * 1000);
          cs_rtp_pack_push (&alone, &records[k]);
        }
      g_assert_cmpmem (alone.data, alone.n_bytes, merged[i].data, merged[i].n_bytes);
      g_assert_cmpmem (&alone.tail, sizeof alone.tail, &merged[i].tail, sizeof alone.tail);
      cs_rtp_pack_clear (&alone);
      cs_rtp_pack_clear (&merged[i]);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/chunk/many-interleaved", test_many_interleaved);
  g_test_add_func ("/chunk/key-collisions", test_key_collisions);
  g_test_add_func ("/chunk/runs-in-order", test_runs_in_order);
  g_test_add_func ("/chunk/one-packet-runs", test_one_packet_runs);
  g_test_add_func ("/chunk/abandoned-and-concurrent", test_abandoned_and_concurrent_chunks);
  g_test_add_func ("/chunk/non-rtp-and-general-headers", test_non_rtp_and_general_headers);
  return g_test_run ();
}
