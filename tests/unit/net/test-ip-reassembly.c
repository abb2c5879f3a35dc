/* test-ip-reassembly.c — IPv4/IPv6 fragment reassembly */
#include "net/cs-ip-reassembly.h"

#include "frame-bytes.h"

#include <string.h>

#define NS_PER_S G_GINT64_CONSTANT (1000000000)

/* A UDP datagram (header + a recognisable SIP-ish payload of payload_len bytes). */
static GByteArray *
make_udp_datagram (gsize payload_len)
{
  GByteArray *b = g_byte_array_new ();
  const char *head = "INVITE sip:bob@example.com SIP/2.0\r\n";

  put16 (b, 5060);
  put16 (b, 5061);
  put16 (b, (guint16) (8 + payload_len));
  put16 (b, 0);
  for (gsize i = 0; i < payload_len; i++)
    put8 (b, i < strlen (head) ? (guint8) head[i] : (guint8) ('a' + i % 26));
  return b;
}

/* An IPv4 fragment frame (LINKTYPE_IPV4) carrying datagram[offset, offset+len). */
static GByteArray *
ipv4_fragment (const GByteArray *datagram, guint16 id, guint offset, guint len, gboolean more)
{
  GByteArray *b = g_byte_array_new ();
  static const guint8 src[4] = { 10, 0, 0, 1 }, dst[4] = { 10, 0, 0, 2 };

  put8 (b, 0x45);
  put8 (b, 0);
  put16 (b, (guint16) (20 + len));
  put16 (b, id);
  put16 (b, (guint16) ((more ? 0x2000 : 0) | (offset / 8)));
  put8 (b, 64);
  put8 (b, 17);
  put16 (b, 0);
  g_byte_array_append (b, src, 4);
  g_byte_array_append (b, dst, 4);
  g_byte_array_append (b, datagram->data + offset, len);
  return b;
}

/* An IPv6 fragment frame (LINKTYPE_IPV6). */
static GByteArray *
ipv6_fragment (const GByteArray *datagram, guint32 id, guint offset, guint len, gboolean more)
{
  GByteArray *b = g_byte_array_new ();
  CsAddr src, dst;

  cs_addr_parse (&src, "2001:db8::1");
  cs_addr_parse (&dst, "2001:db8::2");
  put32 (b, 0x60000000);
  put16 (b, (guint16) (8 + len));
  put8 (b, 44);
  put8 (b, 64);
  g_byte_array_append (b, src.bytes, 16);
  g_byte_array_append (b, dst.bytes, 16);
  put8 (b, 17);
  put8 (b, 0);
  put16 (b, (guint16) (offset | (more ? 1 : 0)));
  put32 (b, id);
  g_byte_array_append (b, datagram->data + offset, len);
  return b;
}

/* Decodes frame (must be a fragment) and feeds it. */
static GBytes *
feed (CsIpReassembler *r, guint linktype, GByteArray *frame, guint32 frame_no, gint64 ts_ns,
      guint32 *first_frame)
{
  CsPacket p;

  g_assert_cmpint (cs_decode_frame (linktype, frame->data, frame->len, &p), ==, CS_DECODE_FRAGMENT);
  GBytes *out = cs_ip_reassembler_add (r, &p, frame_no, ts_ns, first_frame);
  g_byte_array_unref (frame);
  return out;
}

static void
test_ipv4_out_of_order_with_duplicates (void)
{
  GByteArray *dgram = make_udp_datagram (3000 - 8);
  CsIpReassembler *r = cs_ip_reassembler_new (0, 0);
  guint32 first_frame = 0;

  /* last, first, first again, middle (overlapping the first by 8 bytes) */
  g_assert_null (feed (r, 228, ipv4_fragment (dgram, 77, 2960, 40, FALSE), 10, 0, &first_frame));
  g_assert_null (feed (r, 228, ipv4_fragment (dgram, 77, 0, 1480, TRUE), 11, 1000, &first_frame));
  g_assert_null (feed (r, 228, ipv4_fragment (dgram, 77, 0, 1480, TRUE), 12, 2000, &first_frame));
  g_assert_cmpuint (cs_ip_reassembler_get_pending (r), ==, 1);
  GBytes *whole
      = feed (r, 228, ipv4_fragment (dgram, 77, 1472, 1488, TRUE), 13, 3000, &first_frame);
  g_assert_nonnull (whole);
  g_assert_cmpmem (g_bytes_get_data (whole, NULL), g_bytes_get_size (whole), dgram->data,
                   dgram->len);
  g_assert_cmpuint (first_frame, ==, 11);
  g_assert_cmpuint (cs_ip_reassembler_get_pending (r), ==, 0);
  g_assert_cmpuint (cs_ip_reassembler_get_pending_bytes (r), ==, 0);

  /* The reassembled payload decodes as UDP with the full SIP payload. */
  CsPacket p;
  GByteArray *any = ipv4_fragment (dgram, 77, 0, 8, TRUE);
  g_assert_cmpint (cs_decode_frame (228, any->data, any->len, &p), ==, CS_DECODE_FRAGMENT);
  gsize len;
  const guint8 *data = g_bytes_get_data (whole, &len);
  g_assert_cmpint (cs_decode_transport (data, len, &p), ==, CS_DECODE_OK);
  g_assert_cmpuint (p.src.port, ==, 5060);
  g_assert_cmpuint (p.dst.port, ==, 5061);
  g_assert_cmpuint (p.payload_len, ==, 3000 - 8);
  g_assert_true (p.payload == data + 8);
  g_assert_cmpuint (cs_ip_reassembler_get_evicted (r), ==, 0);

  g_byte_array_unref (any);
  g_bytes_unref (whole);
  g_byte_array_unref (dgram);
  cs_ip_reassembler_free (r);
}

static void
test_overlap_first_wins (void)
{
  GByteArray *dgram = make_udp_datagram (40);
  GByteArray *other = g_byte_array_new ();
  CsIpReassembler *r = cs_ip_reassembler_new (0, 0);

  g_byte_array_append (other, dgram->data, dgram->len);
  memset (other->data + 16, 'X', other->len - 16);
  /* [16, 32) from dgram, then [8, 48) from "other": only [8,16) and [32,48) come from other. */
  g_assert_null (feed (r, 228, ipv4_fragment (dgram, 5, 16, 16, TRUE), 1, 0, NULL));
  g_assert_null (feed (r, 228, ipv4_fragment (other, 5, 8, 40, FALSE), 2, 0, NULL));
  GBytes *whole = feed (r, 228, ipv4_fragment (dgram, 5, 0, 8, TRUE), 3, 0, NULL);
  g_assert_nonnull (whole);
  const guint8 *data = g_bytes_get_data (whole, NULL);
  g_assert_cmpuint (g_bytes_get_size (whole), ==, 48);
  g_assert_cmpmem (data, 32, dgram->data, 32);
  g_assert_cmpmem (data + 32, 16, other->data + 32, 16);
  g_bytes_unref (whole);
  g_byte_array_unref (other);
  g_byte_array_unref (dgram);
  cs_ip_reassembler_free (r);
}

static void
test_ipv6_fragments (void)
{
  GByteArray *dgram = make_udp_datagram (2000);
  CsIpReassembler *r = cs_ip_reassembler_new (0, 0);
  guint32 first_frame = 0;

  g_assert_null (feed (r, 229, ipv6_fragment (dgram, 0xabcdef01, 1232, dgram->len - 1232, FALSE), 4,
                       0, &first_frame));
  GBytes *whole
      = feed (r, 229, ipv6_fragment (dgram, 0xabcdef01, 0, 1232, TRUE), 3, 0, &first_frame);
  g_assert_nonnull (whole);
  g_assert_cmpuint (first_frame, ==, 3);
  g_assert_cmpmem (g_bytes_get_data (whole, NULL), g_bytes_get_size (whole), dgram->data,
                   dgram->len);
  g_bytes_unref (whole);
  g_byte_array_unref (dgram);
  cs_ip_reassembler_free (r);
}

static void
test_different_ids_kept_apart (void)
{
  GByteArray *a = make_udp_datagram (100);
  GByteArray *b = make_udp_datagram (100);
  CsIpReassembler *r = cs_ip_reassembler_new (0, 0);

  memset (b->data + 8, 'B', 100);
  g_assert_null (feed (r, 228, ipv4_fragment (a, 1, 0, 56, TRUE), 1, 0, NULL));
  g_assert_null (feed (r, 228, ipv4_fragment (b, 2, 0, 56, TRUE), 2, 0, NULL));
  GBytes *whole_b = feed (r, 228, ipv4_fragment (b, 2, 56, 52, FALSE), 3, 0, NULL);
  GBytes *whole_a = feed (r, 228, ipv4_fragment (a, 1, 56, 52, FALSE), 4, 0, NULL);
  g_assert_cmpmem (g_bytes_get_data (whole_a, NULL), g_bytes_get_size (whole_a), a->data, a->len);
  g_assert_cmpmem (g_bytes_get_data (whole_b, NULL), g_bytes_get_size (whole_b), b->data, b->len);
  g_bytes_unref (whole_a);
  g_bytes_unref (whole_b);
  g_byte_array_unref (a);
  g_byte_array_unref (b);
  cs_ip_reassembler_free (r);
}

static void
test_timeout (void)
{
  GByteArray *dgram = make_udp_datagram (100);
  CsIpReassembler *r = cs_ip_reassembler_new (0, 0);

  g_assert_null (feed (r, 228, ipv4_fragment (dgram, 9, 0, 56, TRUE), 1, 0, NULL));
  /* Another datagram 31 s later expires the first. */
  g_assert_null (feed (r, 228, ipv4_fragment (dgram, 10, 0, 56, TRUE), 2, 31 * NS_PER_S, NULL));
  g_assert_cmpuint (cs_ip_reassembler_get_timed_out (r), ==, 1);
  g_assert_cmpuint (cs_ip_reassembler_get_pending (r), ==, 1);
  /* Its last fragment alone no longer completes it. */
  g_assert_null (feed (r, 228, ipv4_fragment (dgram, 9, 56, 52, FALSE), 3, 31 * NS_PER_S, NULL));
  /* Within 30 s the second still completes. */
  GBytes *whole = feed (r, 228, ipv4_fragment (dgram, 10, 56, 52, FALSE), 4, 60 * NS_PER_S, NULL);
  g_assert_nonnull (whole);
  g_bytes_unref (whole);
  g_byte_array_unref (dgram);
  cs_ip_reassembler_free (r);
}

static void
test_datagram_cap_evicts_oldest (void)
{
  GByteArray *dgram = make_udp_datagram (100);
  CsIpReassembler *r = cs_ip_reassembler_new (0, 2);

  for (guint16 id = 1; id <= 3; id++)
    g_assert_null (feed (r, 228, ipv4_fragment (dgram, id, 0, 56, TRUE), id, 0, NULL));
  g_assert_cmpuint (cs_ip_reassembler_get_evicted (r), ==, 1);
  g_assert_cmpuint (cs_ip_reassembler_get_pending (r), ==, 2);
  /* id 1 was the oldest: gone; id 3 completes. */
  g_assert_null (feed (r, 228, ipv4_fragment (dgram, 1, 56, 52, FALSE), 4, 0, NULL));
  GBytes *whole = feed (r, 228, ipv4_fragment (dgram, 3, 56, 52, FALSE), 5, 0, NULL);
  g_assert_nonnull (whole);
  g_bytes_unref (whole);
  g_byte_array_unref (dgram);
  cs_ip_reassembler_free (r);
}

static void
test_byte_cap (void)
{
  GByteArray *dgram = make_udp_datagram (4000);
  CsIpReassembler *r = cs_ip_reassembler_new (3000, 0);

  g_assert_null (feed (r, 228, ipv4_fragment (dgram, 1, 0, 1000, TRUE), 1, 0, NULL));
  g_assert_null (feed (r, 228, ipv4_fragment (dgram, 2, 0, 1000, TRUE), 2, 0, NULL));
  g_assert_cmpuint (cs_ip_reassembler_get_pending_bytes (r), ==, 2000);
  /* 2000 more bytes for id 2 do not fit with id 1 around: id 1 goes. */
  g_assert_null (feed (r, 228, ipv4_fragment (dgram, 2, 2000, 1000, TRUE), 3, 0, NULL));
  g_assert_cmpuint (cs_ip_reassembler_get_evicted (r), ==, 1);
  g_assert_cmpuint (cs_ip_reassembler_get_pending (r), ==, 1);
  g_assert_cmpuint (cs_ip_reassembler_get_pending_bytes (r), ==, 3000);
  /* A datagram that alone exceeds the cap is dropped, never grown. */
  g_assert_null (feed (r, 228, ipv4_fragment (dgram, 2, 3000, 1008, FALSE), 4, 0, NULL));
  g_assert_cmpuint (cs_ip_reassembler_get_evicted (r), ==, 2);
  g_assert_cmpuint (cs_ip_reassembler_get_pending (r), ==, 0);
  g_assert_cmpuint (cs_ip_reassembler_get_pending_bytes (r), ==, 0);
  g_byte_array_unref (dgram);
  cs_ip_reassembler_free (r);
}

static void
test_hostile_fragments (void)
{
  CsIpReassembler *r = cs_ip_reassembler_new (64 * 1024, 16);
  GRand *rand = g_rand_new_with_seed (99);
  guint8 junk[1500];
  CsPacket p;

  memset (&p, 0, sizeof p);
  p.ip_version = 4;
  p.ip_proto = 17;
  /* Past the largest possible datagram: refused outright. */
  p.frag.offset = 65528;
  p.frag.len = 100;
  p.frag.data = junk;
  g_assert_null (cs_ip_reassembler_add (r, &p, 1, 0, NULL));
  g_assert_cmpuint (cs_ip_reassembler_get_pending (r), ==, 0);

  /* Random fragments: whatever completes has the length its last fragment said. */
  for (guint i = 0; i < 20000; i++)
    {
      for (guint j = 0; j < 32; j++)
        junk[j] = (guint8) g_rand_int (rand);
      p.frag.id = g_rand_int_range (rand, 0, 40);
      p.frag.offset = (guint32) g_rand_int_range (rand, 0, 8192) * 8;
      p.frag.len = g_rand_int_range (rand, 0, sizeof junk);
      p.frag.more = g_rand_boolean (rand);
      GBytes *whole = cs_ip_reassembler_add (r, &p, i, (gint64) i * 1000000, NULL);
      if (whole != NULL)
        {
          g_assert_cmpuint (g_bytes_get_size (whole), <=, 65535);
          g_bytes_unref (whole);
        }
      g_assert_cmpuint (cs_ip_reassembler_get_pending (r), <=, 16);
      g_assert_cmpuint (cs_ip_reassembler_get_pending_bytes (r), <=, 64 * 1024);
    }
  g_rand_free (rand);
  cs_ip_reassembler_free (r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ip-reassembly/ipv4-out-of-order-duplicates",
                   test_ipv4_out_of_order_with_duplicates);
  g_test_add_func ("/ip-reassembly/overlap-first-wins", test_overlap_first_wins);
  g_test_add_func ("/ip-reassembly/ipv6", test_ipv6_fragments);
  g_test_add_func ("/ip-reassembly/ids-kept-apart", test_different_ids_kept_apart);
  g_test_add_func ("/ip-reassembly/timeout", test_timeout);
  g_test_add_func ("/ip-reassembly/datagram-cap", test_datagram_cap_evicts_oldest);
  g_test_add_func ("/ip-reassembly/byte-cap", test_byte_cap);
  g_test_add_func ("/ip-reassembly/hostile", test_hostile_fragments);
  return g_test_run ();
}
