/* test-rtp-pack.c — packed RTP records round-trip exactly and stay small */
#include "rtp/cs-rtp-pack.h"
#include "loader/cs-analysis.h"
#include "loader/cs-chunk.h"
#include "loader/cs-merge.h"
#include "calls/cs-stream-private.h"

#include <string.h>

/* Packs packets in batches of the given sizes (cycled), unpacks them three ways and
 * checks every byte of every record. */
static void
check_round_trip (const CsRtpPacket *packets, guint n, const guint *batches, guint n_batches)
{
  CsRtpPack pack = { 0 };
  g_autofree CsRtpPacket *unpacked = NULL;
  CsRtpPackReader reader;
  guint done = 0;

  for (guint b = 0; done < n; b++)
    {
      guint take = MIN (batches[b % n_batches], n - done);

      cs_rtp_pack_append (&pack, packets + done, take);
      done += take;
    }
  g_assert_cmpuint (pack.n_packets, ==, n);
  g_assert_cmpuint (pack.n_bytes, <=, pack.capacity);
  g_assert_cmpmem (&pack.tail.last, sizeof (CsRtpPacket), &packets[n - 1], sizeof (CsRtpPacket));
  cs_rtp_pack_trim (&pack);
  g_assert_cmpuint (pack.capacity, ==, pack.n_bytes);
  unpacked = cs_rtp_pack_unpack_new (pack.data, pack.n_packets);
  g_assert_cmpmem (unpacked, n * sizeof (CsRtpPacket), packets, n * sizeof (CsRtpPacket));
  cs_rtp_pack_reader_init (&reader, pack.data);
  for (guint i = 0; i < n; i++)
    g_assert_cmpmem (cs_rtp_pack_reader_next (&reader), sizeof (CsRtpPacket), &packets[i],
                     sizeof (CsRtpPacket));
  g_assert_true (reader.next == pack.data + pack.n_bytes);
  cs_rtp_pack_clear (&pack);
  g_assert_null (pack.data);
}

/* Pieces packed on their own (as workers pack a chunk's run) and joined with
 * cs_rtp_pack_append_pack unpack to the same records. */
static void
check_joined_pieces (const CsRtpPacket *packets, guint n, const guint *pieces, guint n_pieces)
{
  CsRtpPack joined = { 0 };
  g_autofree CsRtpPacket *unpacked = NULL;
  guint done = 0;

  for (guint b = 0; done < n; b++)
    {
      CsRtpPack piece = { 0 };
      guint take = MIN (pieces[b % n_pieces], n - done);

      for (guint i = 0; i < take; i++)
        cs_rtp_pack_push (&piece, &packets[done + i]);
      cs_rtp_pack_append_pack (&joined, &piece);
      cs_rtp_pack_clear (&piece);
      cs_rtp_pack_append_pack (&joined, &piece); /* an empty piece changes nothing */
      done += take;
      g_assert_cmpmem (&joined.tail.last, sizeof (CsRtpPacket), &packets[done - 1],
                       sizeof (CsRtpPacket));
    }
  g_assert_cmpuint (joined.n_packets, ==, n);
  unpacked = cs_rtp_pack_unpack_new (joined.data, joined.n_packets);
  g_assert_cmpmem (unpacked, n * sizeof (CsRtpPacket), packets, n * sizeof (CsRtpPacket));
  cs_rtp_pack_clear (&joined);
}

/* A steady 20 ms G.711 stream among other traffic packs to a few bytes per record. */
static void
test_steady_stream_is_small (void)
{
  enum
  {
    N = 3000
  };
  g_autofree CsRtpPacket *packets = g_new0 (CsRtpPacket, N);
  const guint batches[] = { 1, 7, 64, 200 };
  CsRtpPack pack = { 0 };

  for (guint i = 0; i < N; i++)
    {
      packets[i].arrival_ns = 1700000000000000000ll + i * 20000000ll + (i % 7) * 1000 - 3000;
      packets[i].frame = 10 + i * 37 + i % 5;
      packets[i].timestamp = 0xfffff000u + i * 160; /* wraps */
      packets[i].seq = (guint16) (65000 + i);       /* wraps */
      packets[i].payload_len = 160;
      packets[i].payload_type = 0;
      packets[i].flags = i == 0 ? CS_RTP_FLAG_MARKER : 0;
    }
  check_round_trip (packets, N, batches, G_N_ELEMENTS (batches));
  check_joined_pieces (packets, N, batches, G_N_ELEMENTS (batches));
  cs_rtp_pack_append (&pack, packets, N);
  g_assert_cmpuint (pack.n_bytes, <=, 6 * N);
  cs_rtp_pack_clear (&pack);
}

/* Any values at all come back: extremes, wrap-arounds, time going backwards. */
static void
test_any_values_round_trip (void)
{
  enum
  {
    N = 20000
  };
  g_autofree CsRtpPacket *packets = g_new0 (CsRtpPacket, N);
  const gint64 extremes[] = { G_MININT64, G_MAXINT64, 0, -1, 1, G_MININT64 + 1, G_MAXINT64 - 1 };
  const guint batches[] = { 3, 1, 129, 64, 1000 };
  GRand *rand = g_rand_new_with_seed (42);

  for (guint i = 0; i < N; i++)
    {
      CsRtpPacket *p = &packets[i];
      guint kind = g_rand_int_range (rand, 0, 4);

      if (kind == 0)
        p->arrival_ns = extremes[g_rand_int_range (rand, 0, G_N_ELEMENTS (extremes))];
      else if (kind == 1 && i > 0)
        /* wraps like the packer's unsigned arithmetic: signed overflow is undefined */
        p->arrival_ns = (gint64) ((guint64) packets[i - 1].arrival_ns
                                  + (guint64) (gint64) g_rand_int_range (rand, -100000, 100000));
      else
        p->arrival_ns = (gint64) ((guint64) g_rand_int (rand) << 32 | g_rand_int (rand));
      p->frame = kind == 2 ? G_MAXUINT32 - g_rand_int_range (rand, 0, 3) : g_rand_int (rand);
      p->timestamp = g_rand_int (rand);
      p->seq = (guint16) g_rand_int (rand);
      p->payload_len = (guint16) g_rand_int (rand);
      p->payload_type = (guint8) g_rand_int (rand);
      p->flags = (guint8) g_rand_int (rand);
      p->reserved = (guint16) g_rand_int (rand);
      if (kind == 3 && i > 0)
        {
          *p = packets[i - 1]; /* everything predicted */
          p->seq++;
        }
    }
  check_round_trip (packets, N, batches, G_N_ELEMENTS (batches));
  check_round_trip (packets, 1, batches, 1);
  check_joined_pieces (packets, N, batches, G_N_ELEMENTS (batches));
  {
    const guint small[] = { 1, 2, 3, 1, 1, 2 };

    check_joined_pieces (packets, 500, small, G_N_ELEMENTS (small));
  }
  g_rand_free (rand);
}

/* A stream keeps its records packed and hands them out exactly: counted, copied on
 * request, or as one array made once and kept. */
static void
test_stream_records (void)
{
  enum
  {
    N = 500
  };
  GArray *records = g_array_new (FALSE, TRUE, sizeof (CsRtpPacket));
  g_autofree CsRtpPacket *expected = g_new0 (CsRtpPacket, N);
  g_autofree CsRtpPacket *copy = NULL;
  CsEndpoint src = { 0 }, dst = { 0 };
  CsRtpClockMap clocks;
  CsStream *stream;
  const GArray *view;
  guint n = 0;

  for (guint i = 0; i < N; i++)
    {
      expected[i].arrival_ns = 1000000000ll + i * 20000000ll + (i % 3) * 125000;
      expected[i].frame = 1 + 3 * i;
      expected[i].timestamp = 160 * i;
      expected[i].seq = (guint16) (i == 250 ? 7 : i); /* one out of place */
      expected[i].payload_len = 160;
      expected[i].payload_type = 8;
    }
  g_array_append_vals (records, expected, N);
  cs_rtp_clock_map_init_static (&clocks);
  stream = cs_stream_new (1, &src, &dst, 0x1234, 0, records, &clocks, NULL);
  cs_stream_measure (stream);
  g_assert_cmpuint (cs_stream_get_n_packets (stream), ==, N);
  g_assert_cmpuint (cs_stream_get_stats (stream)->packets, ==, N);
  copy = cs_stream_dup_packet_records (stream, &n);
  g_assert_cmpuint (n, ==, N);
  g_assert_cmpmem (copy, N * sizeof (CsRtpPacket), expected, N * sizeof (CsRtpPacket));
  view = cs_stream_get_packets (stream);
  g_assert_cmpmem (view->data, view->len * sizeof (CsRtpPacket), expected,
                   N * sizeof (CsRtpPacket));
  g_assert_true (cs_stream_get_packets (stream) == view);
  g_object_unref (stream);
}

/* Workers pack each chunk's runs; the merge joins a stream's pieces from successive chunks
 * into one packed run, builds the stream from it and can then free the emptied runs. */
static void
test_chunks_join_in_merge (void)
{
  enum
  {
    N = 300,
    PER_CHUNK = 70
  };
  g_autofree CsRtpPacket *expected = g_new0 (CsRtpPacket, N);
  g_autofree CsRtpPacket *records = NULL;
  g_autoptr (GPtrArray) streams = NULL;
  CsCaptureStats stats = { 0 };
  CsMerge *merge = cs_merge_new (NULL, &stats);
  CsPacket pkt = { 0 };
  guint8 payload[12 + 20] = { 0x80, 0x00 };
  GPtrArray *runs;
  guint n = 0;

  pkt.src.addr.family = pkt.dst.addr.family = 4;
  pkt.src.addr.bytes[0] = 10;
  pkt.dst.addr.bytes[0] = 192;
  pkt.src.port = 4000;
  pkt.dst.port = 5000;
  pkt.ip_proto = 17;
  pkt.ip_version = 4;
  pkt.payload = payload;
  pkt.payload_len = sizeof payload;
  payload[8] = 0xca; /* SSRC */
  cs_merge_set_threads (merge, 1);
  for (guint c = 0; c * PER_CHUNK < N; c++)
    {
      CsChunk *chunk = cs_chunk_new (c * PER_CHUNK, PER_CHUNK);

      for (guint i = c * PER_CHUNK; i < MIN (N, (c + 1) * PER_CHUNK); i++)
        {
          guint16 seq = (guint16) (i == 100 ? 3 : 65500 + i); /* wraps; one out of place */
          guint32 ts = 1000 + 160 * i;
          gint64 arrival = 5000000000ll + i * 20000000ll + (i % 4) * 1000;

          payload[1] = (guint8) (i % 50 == 0 ? 0x80 : 0x00); /* marker now and then */
          payload[2] = (guint8) (seq >> 8);
          payload[3] = (guint8) seq;
          payload[4] = (guint8) (ts >> 24);
          payload[5] = (guint8) (ts >> 16);
          payload[6] = (guint8) (ts >> 8);
          payload[7] = (guint8) ts;
          cs_chunk_add_rtp (chunk, &pkt, 1 + 2 * i + i % 3, arrival);
          expected[i].arrival_ns = arrival;
          expected[i].frame = 1 + 2 * i + i % 3;
          expected[i].timestamp = ts;
          expected[i].seq = seq;
          expected[i].payload_len = 20;
          expected[i].flags = i % 50 == 0 ? CS_RTP_FLAG_MARKER : 0;
        }
      cs_merge_add_chunk (merge, chunk);
      cs_chunk_free (chunk);
    }
  runs = cs_merge_get_rtp_runs (merge);
  g_assert_cmpuint (runs->len, ==, 1);
  streams = cs_merge_build_streams (merge);
  g_assert_cmpuint (streams->len, ==, 1);
  records = cs_stream_dup_packet_records (g_ptr_array_index (streams, 0), &n);
  g_assert_cmpuint (n, ==, N);
  g_assert_cmpmem (records, N * sizeof (CsRtpPacket), expected, N * sizeof (CsRtpPacket));
  cs_merge_drop_rtp_runs (merge);
  g_assert_cmpuint (cs_merge_get_rtp_runs (merge)->len, ==, 0);
  cs_merge_free (merge);
}

/* A chunk's pack appended to an empty one is taken byte for byte, and what follows packs
 * exactly as after the original. */
static void
test_append_to_empty_pack (void)
{
  CsRtpPacket packets[40];
  CsRtpPack original = { 0 }, joined = { 0 };

  memset (packets, 0, sizeof packets);
  for (guint i = 0; i < G_N_ELEMENTS (packets); i++)
    {
      packets[i].seq = (guint16) (100 + i);
      packets[i].timestamp = 8000 + 160 * i;
      packets[i].arrival_ns = 1000000000ll + i * 20000000ll + (i % 3) * 777;
      packets[i].frame = 3 + 2 * i;
      packets[i].payload_len = 160;
    }
  cs_rtp_pack_append (&original, packets, 30);
  cs_rtp_pack_append_pack (&joined, &original);
  g_assert_cmpuint (joined.n_packets, ==, 30);
  g_assert_cmpmem (joined.data, joined.n_bytes, original.data, original.n_bytes);
  g_assert_cmpmem (&joined.tail, sizeof joined.tail, &original.tail, sizeof original.tail);
  cs_rtp_pack_append (&original, packets + 30, 10);
  cs_rtp_pack_append (&joined, packets + 30, 10);
  g_assert_cmpmem (joined.data, joined.n_bytes, original.data, original.n_bytes);
  cs_rtp_pack_clear (&original);
  cs_rtp_pack_clear (&joined);
}

/* Pieces of one record (a chunk per packet, as when tens of thousands of streams interleave),
 * packed or kept in their tail only, join to the very bytes and state one pack of the same
 * records has. */
static void
test_one_record_pieces_join_exactly (void)
{
  enum
  {
    N = 4000
  };
  g_autofree CsRtpPacket *packets = g_new0 (CsRtpPacket, N);
  CsRtpPack whole = { 0 }, joined = { 0 };
  GRand *rand = g_rand_new_with_seed (7);

  for (guint i = 0; i < N; i++)
    {
      CsRtpPacket *p = &packets[i];

      if (i > 0 && g_rand_int_range (rand, 0, 4) != 0)
        {
          /* mostly a steady stream, now and then jitter, a gap or a new payload type */
          *p = packets[i - 1];
          p->seq++;
          p->timestamp += 160;
          p->frame += (guint32) g_rand_int_range (rand, 1, 40000);
          p->arrival_ns += 20000000 + g_rand_int_range (rand, -5000, 5000);
          if (g_rand_int_range (rand, 0, 50) == 0)
            p->payload_type = (guint8) g_rand_int (rand);
        }
      else
        {
          p->arrival_ns = (gint64) ((guint64) g_rand_int (rand) << 32 | g_rand_int (rand));
          p->frame = g_rand_int (rand);
          p->timestamp = g_rand_int (rand);
          p->seq = (guint16) g_rand_int (rand);
          p->payload_len = (guint16) g_rand_int (rand);
          p->payload_type = (guint8) g_rand_int (rand);
          p->flags = (guint8) g_rand_int (rand);
          p->reserved = (guint16) g_rand_int (rand);
        }
    }
  cs_rtp_pack_append (&whole, packets, N);
  for (guint i = 0; i < N; i++)
    {
      CsRtpPack piece = { 0 }, unpacked;

      cs_rtp_pack_push (&piece, &packets[i]);
      /* a record kept in the tail only ends in the state packing it leaves */
      cs_rtp_pack_set_one (&unpacked, &packets[i]);
      g_assert_null (unpacked.data);
      g_assert_cmpuint (unpacked.n_packets, ==, 1);
      g_assert_cmpmem (&unpacked.tail, sizeof unpacked.tail, &piece.tail, sizeof piece.tail);
      cs_rtp_pack_append_pack (&joined, i % 2 == 1 ? &piece : &unpacked);
      cs_rtp_pack_clear (&piece);
      g_assert_cmpmem (&joined.tail.last, sizeof (CsRtpPacket), &packets[i], sizeof (CsRtpPacket));
      g_assert_cmpuint (joined.n_bytes, <=, joined.capacity);
    }
  g_assert_cmpuint (joined.n_packets, ==, N);
  g_assert_cmpmem (joined.data, joined.n_bytes, whole.data, whole.n_bytes);
  g_assert_cmpmem (&joined.tail, sizeof joined.tail, &whole.tail, sizeof whole.tail);
  cs_rtp_pack_clear (&whole);
  cs_rtp_pack_clear (&joined);
  g_rand_free (rand);
}

/* Thousands of streams interleaved packet by packet across chunks (new runs, a growing run
 * table and lookups loaded ahead in the same chunk): every stream gets its own records. */
static void
test_interleaved_streams_merge (void)
{
  enum
  {
    STREAMS = 3000,
    ROUNDS = 5,
    PER_CHUNK = 2500
  };
  CsCaptureStats stats = { 0 };
  CsMerge *merge = cs_merge_new (NULL, &stats);
  CsPacket pkt = { 0 };
  guint8 payload[12 + 20] = { 0x80, 0x00 };
  CsChunk *chunk = NULL;
  GPtrArray *runs;
  guint32 frame = 1;

  pkt.src.addr.family = pkt.dst.addr.family = 4;
  pkt.src.addr.bytes[0] = 10;
  pkt.dst.addr.bytes[0] = 192;
  pkt.dst.port = 5000;
  pkt.ip_proto = 17;
  pkt.ip_version = 4;
  pkt.payload = payload;
  pkt.payload_len = sizeof payload;
  for (guint r = 0; r < ROUNDS; r++)
    for (guint s = 0; s < STREAMS; s++)
      {
        guint16 seq = (guint16) (r + 10 * s);

        if (chunk == NULL)
          chunk = cs_chunk_new (frame - 1, PER_CHUNK);
        pkt.src.addr.bytes[2] = (guint8) (s >> 8);
        pkt.src.addr.bytes[3] = (guint8) s;
        pkt.src.port = (guint16) (10000 + 2 * s);
        payload[2] = (guint8) (seq >> 8);
        payload[3] = (guint8) seq;
        payload[11] = (guint8) s; /* SSRC */
        cs_chunk_add_rtp (chunk, &pkt, frame, (gint64) frame * 1000);
        if (frame++ % PER_CHUNK == 0)
          {
            cs_merge_add_chunk (merge, chunk);
            g_clear_pointer (&chunk, cs_chunk_free);
          }
      }
  if (chunk != NULL)
    {
      cs_merge_add_chunk (merge, chunk);
      cs_chunk_free (chunk);
    }
  runs = cs_merge_get_rtp_runs (merge);
  g_assert_cmpuint (runs->len, ==, STREAMS);
  for (guint s = 0; s < STREAMS; s++)
    {
      const CsRtpRun *run = g_ptr_array_index (runs, s);
      g_autofree CsRtpPacket *records = NULL;

      g_assert_cmpuint (run->key.src.port, ==, 10000 + 2 * s);
      g_assert_cmpuint (run->pack.n_packets, ==, ROUNDS);
      records = cs_rtp_pack_unpack_new (run->pack.data, run->pack.n_packets);
      for (guint r = 0; r < ROUNDS; r++)
        {
          g_assert_cmpuint (records[r].seq, ==, (guint16) (r + 10 * s));
          g_assert_cmpuint (records[r].frame, ==, 1 + r * STREAMS + s);
          g_assert_cmpint (records[r].arrival_ns, ==, (gint64) (1 + r * STREAMS + s) * 1000);
        }
    }
  cs_merge_free (merge);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rtp-pack/steady-stream-is-small", test_steady_stream_is_small);
  g_test_add_func ("/rtp-pack/any-values-round-trip", test_any_values_round_trip);
  g_test_add_func ("/rtp-pack/stream-records", test_stream_records);
  g_test_add_func ("/rtp-pack/chunks-join-in-merge", test_chunks_join_in_merge);
  g_test_add_func ("/rtp-pack/append-to-empty-pack", test_append_to_empty_pack);
  g_test_add_func ("/rtp-pack/one-record-pieces-join-exactly", test_one_record_pieces_join_exactly);
  g_test_add_func ("/rtp-pack/interleaved-streams-merge", test_interleaved_streams_merge);
  return g_test_run ();
}
