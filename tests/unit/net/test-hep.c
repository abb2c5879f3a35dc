/* test-hep.c — HEP v2/v3 decoding and the HEP3 encoder */
#include "net/cs-hep.h"

#include <string.h>

#define SIP_PING "OPTIONS sip:a@b SIP/2.0\r\nContent-Length: 0\r\n\r\n"

static void
fill_packet (CsHepPacket *in, const char *src, guint16 sport, const char *dst, guint16 dport)
{
  memset (in, 0, sizeof *in);
  g_assert_true (cs_addr_parse (&in->src.addr, src));
  g_assert_true (cs_addr_parse (&in->dst.addr, dst));
  in->src.port = sport;
  in->dst.port = dport;
  in->ip_proto = 17;
  in->ts_ns = G_GINT64_CONSTANT (1700000000123456000);
  in->payload_type = 1;
  in->capture_id = 2001;
  in->payload = (const guint8 *) SIP_PING;
  in->payload_len = strlen (SIP_PING);
}

static void
test_hep3_roundtrip (void)
{
  const char *srcs[] = { "10.0.0.1", "2001:db8::1" };
  const char *dsts[] = { "10.0.0.2", "2001:db8::2" };

  for (guint i = 0; i < 2; i++)
    {
      CsHepPacket in, out;
      GError *error = NULL;

      fill_packet (&in, srcs[i], 5060, dsts[i], 5080);
      in.correlation_id = "call-1@host";
      in.correlation_id_len = strlen (in.correlation_id);
      in.auth_key = "secret";
      in.auth_key_len = 6;
      GByteArray *bytes = cs_hep3_encode (&in);
      g_assert_nonnull (bytes);
      g_assert_cmpmem (bytes->data, 4, "HEP3", 4);
      g_assert_cmpuint ((bytes->data[4] << 8) | bytes->data[5], ==, bytes->len);
      g_assert_true (cs_hep_looks_like (bytes->data, bytes->len));

      g_assert_true (cs_hep_decode (bytes->data, bytes->len, &out, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (out.version, ==, 3);
      g_assert_cmpuint (out.ip_proto, ==, 17);
      g_assert_true (cs_endpoint_equal (&out.src, &in.src));
      g_assert_true (cs_endpoint_equal (&out.dst, &in.dst));
      g_assert_cmpint (out.ts_ns, ==, in.ts_ns);
      g_assert_cmpuint (out.payload_type, ==, 1);
      g_assert_cmpuint (out.capture_id, ==, 2001);
      g_assert_cmpmem (out.payload, out.payload_len, SIP_PING, strlen (SIP_PING));
      g_assert_true (out.payload >= bytes->data && out.payload < bytes->data + bytes->len);
      g_assert_cmpmem (out.correlation_id, out.correlation_id_len, "call-1@host", 11);
      g_assert_cmpmem (out.auth_key, out.auth_key_len, "secret", 6);
      g_byte_array_unref (bytes);
    }
}

static void
test_hep3_optional_chunks_absent (void)
{
  CsHepPacket in, out;

  fill_packet (&in, "10.0.0.1", 1, "10.0.0.2", 2);
  in.payload_type = 5; /* RTCP */
  GByteArray *bytes = cs_hep3_encode (&in);
  g_assert_true (cs_hep_decode (bytes->data, bytes->len, &out, NULL));
  g_assert_null (out.correlation_id);
  g_assert_null (out.auth_key);
  g_assert_cmpuint (out.payload_type, ==, 5);
  g_byte_array_unref (bytes);
}

/* Appends a chunk by hand (for vendor chunks and lies). */
static void
append_chunk (GByteArray *b, guint16 vendor, guint16 type, guint16 declared_len, const void *body,
              gsize body_len)
{
  guint8 header[6] = { vendor >> 8, vendor & 0xff,     type >> 8,
                       type & 0xff, declared_len >> 8, declared_len & 0xff };
  g_byte_array_append (b, header, 6);
  g_byte_array_append (b, body, (guint) body_len);
}

static void
set_total_len (GByteArray *b)
{
  b->data[4] = (guint8) (b->len >> 8);
  b->data[5] = (guint8) (b->len & 0xff);
}

static GByteArray *
hep3_header (void)
{
  GByteArray *b = g_byte_array_new ();
  g_byte_array_append (b, (const guint8 *) "HEP3\0\0", 6);
  return b;
}

static void
test_hep3_vendor_chunk_skipped (void)
{
  GByteArray *b = hep3_header ();
  CsHepPacket out;
  const guint8 v4[4] = { 192, 0, 2, 1 };

  append_chunk (b, 0x0021, 0x0003, 6 + 3, "xyz", 3); /* another vendor's chunk 3: not an address */
  append_chunk (b, 0, 0x0003, 10, v4, 4);
  append_chunk (b, 0, 0x000f, 6 + 4, "ping", 4);
  set_total_len (b);
  g_assert_true (cs_hep_decode (b->data, b->len, &out, NULL));
  g_assert_cmpuint (out.src.addr.family, ==, 4);
  g_assert_cmpuint (out.src.addr.bytes[3], ==, 1);
  g_assert_cmpmem (out.payload, out.payload_len, "ping", 4);
  g_byte_array_unref (b);
}

static void
expect_malformed (const GByteArray *b, gint code)
{
  CsHepPacket out;
  GError *error = NULL;

  g_assert_false (cs_hep_decode (b->data, b->len, &out, &error));
  g_assert_error (error, CS_DECODE_ERROR, code);
  g_error_free (error);
}

static void
test_hep3_hostile (void)
{
  CsHepPacket in;
  const guint8 v6[16] = { 0 };

  fill_packet (&in, "10.0.0.1", 5060, "10.0.0.2", 5060);
  GByteArray *good = cs_hep3_encode (&in);

  /* Every truncation of a valid packet fails (the total length no longer matches). */
  for (gsize n = 0; n < good->len; n++)
    {
      guint8 *copy = g_memdup2 (good->data, n);
      CsHepPacket out;
      g_assert_false (cs_hep_decode (copy, n, &out, NULL));
      g_free (copy);
    }

  /* Total length larger than the datagram. */
  GByteArray *b = hep3_header ();
  append_chunk (b, 0, 0x000f, 10, "ping", 4);
  b->data[5] = (guint8) (b->len + 1);
  expect_malformed (b, CS_DECODE_ERROR_MALFORMED);
  g_byte_array_unref (b);

  /* A chunk whose length runs past the packet. */
  b = hep3_header ();
  append_chunk (b, 0, 0x000f, 200, "ping", 4);
  set_total_len (b);
  expect_malformed (b, CS_DECODE_ERROR_MALFORMED);
  g_byte_array_unref (b);

  /* A chunk length smaller than the chunk header (would loop or underflow). */
  b = hep3_header ();
  append_chunk (b, 0, 0x000f, 3, "ping", 4);
  set_total_len (b);
  expect_malformed (b, CS_DECODE_ERROR_MALFORMED);
  g_byte_array_unref (b);

  /* An IPv4 address chunk carrying 16 bytes. */
  b = hep3_header ();
  append_chunk (b, 0, 0x0003, 22, v6, 16);
  append_chunk (b, 0, 0x000f, 10, "ping", 4);
  set_total_len (b);
  expect_malformed (b, CS_DECODE_ERROR_MALFORMED);
  g_byte_array_unref (b);

  /* No payload at all; a compressed payload only. */
  b = hep3_header ();
  append_chunk (b, 0, 0x0007, 8, "\x13\xc4", 2);
  set_total_len (b);
  expect_malformed (b, CS_DECODE_ERROR_MALFORMED);
  append_chunk (b, 0, 0x0010, 10, "zzzz", 4);
  set_total_len (b);
  expect_malformed (b, CS_DECODE_ERROR_UNSUPPORTED);
  g_byte_array_unref (b);

  /* Random corruption of a valid packet never reads outside it. */
  GRand *rand = g_rand_new_with_seed (5);
  for (guint i = 0; i < 20000; i++)
    {
      guint8 *copy = g_memdup2 (good->data, good->len);
      CsHepPacket out;
      for (guint k = 0; k < 3; k++)
        copy[g_rand_int_range (rand, 4, (gint32) good->len)] = (guint8) g_rand_int (rand);
      if (cs_hep_decode (copy, good->len, &out, NULL))
        g_assert_true (out.payload >= copy && out.payload + out.payload_len <= copy + good->len);
      g_free (copy);
    }
  g_rand_free (rand);
  g_byte_array_unref (good);
}

static void
test_hep2_sample (void)
{
  /* HEP v2 as Kamailio/OpenSIPS send it: header, IPv4 addresses, time header in host order. */
  static const guint8 header[] = {
    2,    16,   2,    17,                /* version, length, AF_INET, UDP */
    0x13, 0xc4, 0x13, 0xce,              /* ports 5060 -> 5070 */
    10,   0,    0,    1,    10, 0, 0, 2, /* addresses */
    0x00, 0xf1, 0x53, 0x65,              /* 1700000000 s, little-endian */
    0x40, 0xe2, 0x01, 0x00,              /* 123456 us */
    0xd1, 0x07, 0x00, 0x00,              /* capture id 2001 + padding */
  };
  GByteArray *b = g_byte_array_new ();
  CsHepPacket out;
  GError *error = NULL;
  char buf[CS_ENDPOINT_STRLEN];

  g_byte_array_append (b, header, sizeof header);
  g_byte_array_append (b, (const guint8 *) SIP_PING, strlen (SIP_PING));
  g_assert_true (cs_hep_looks_like (b->data, b->len));
  g_assert_true (cs_hep_decode (b->data, b->len, &out, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (out.version, ==, 2);
  g_assert_cmpuint (out.ip_proto, ==, 17);
  g_assert_cmpstr (cs_endpoint_to_string (&out.src, buf), ==, "10.0.0.1:5060");
  g_assert_cmpstr (cs_endpoint_to_string (&out.dst, buf), ==, "10.0.0.2:5070");
  g_assert_cmpint (out.ts_ns, ==, G_GINT64_CONSTANT (1700000000123456000));
  g_assert_cmpuint (out.capture_id, ==, 2001);
  g_assert_cmpuint (out.payload_type, ==, 1);
  g_assert_cmpmem (out.payload, out.payload_len, SIP_PING, strlen (SIP_PING));

  /* Cut inside the time header: malformed, not a short payload. */
  g_assert_false (cs_hep_decode (b->data, 20, &out, NULL));
  g_byte_array_unref (b);
}

static void
test_looks_like (void)
{
  const char *sip = SIP_PING;
  static const guint8 bad_len[] = { 2, 40, 2, 17, 0, 0, 0, 0 }; /* IPv6 length with AF_INET */

  g_assert_false (cs_hep_looks_like ((const guint8 *) sip, strlen (sip)));
  g_assert_false (cs_hep_looks_like ((const guint8 *) "HEP", 3));
  g_assert_false (cs_hep_looks_like (bad_len, sizeof bad_len));
  g_assert_false (cs_hep_looks_like (NULL, 0));
  /* An RTP packet (version 2 in the top bits) is not HEP. */
  static const guint8 rtp[] = { 0x80, 0x00, 0x12, 0x34, 0, 0, 0, 160, 1, 2, 3, 4 };
  g_assert_false (cs_hep_looks_like (rtp, sizeof rtp));
}

static void
test_encode_too_large (void)
{
  CsHepPacket in;
  gsize n = 70000;
  guint8 *big = g_malloc0 (n);

  fill_packet (&in, "10.0.0.1", 1, "10.0.0.2", 2);
  in.payload = big;
  in.payload_len = n;
  g_assert_null (cs_hep3_encode (&in));
  g_free (big);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/hep/hep3-roundtrip", test_hep3_roundtrip);
  g_test_add_func ("/hep/hep3-optional-absent", test_hep3_optional_chunks_absent);
  g_test_add_func ("/hep/hep3-vendor-chunk", test_hep3_vendor_chunk_skipped);
  g_test_add_func ("/hep/hep3-hostile", test_hep3_hostile);
  g_test_add_func ("/hep/hep2-sample", test_hep2_sample);
  g_test_add_func ("/hep/looks-like", test_looks_like);
  g_test_add_func ("/hep/encode-too-large", test_encode_too_large);
  return g_test_run ();
}
