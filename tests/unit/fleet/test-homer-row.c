/* test-homer-row.c — Homer rows read back into frames: the engine's own decoders must find in
 * them exactly what the row's columns say (addresses, ports, time, the SIP text, heplify's
 * RTCP JSON values), and bad rows must be named by table, id and column. */
#include <string.h>

#include "fleet/cs-homer-query.h"
#include "fleet/cs-homer-row.h"
#include "net/cs-decode.h"
#include "net/cs-hep.h"
#include "rtp/cs-rtcp.h"

static const char sip_text[] = "INVITE sip:bob@example.com SIP/2.0\r\nCall-ID: a@b\r\n\r\n";

typedef struct
{
  const char *values[CS_HOMER_N_COLS];
  int lengths[CS_HOMER_N_COLS];
} Row;

static void
row_init (Row *r, const char *table, const char *src, const char *dst, const char *proto,
          const char *raw)
{
  const char *v[CS_HOMER_N_COLS] = { table, "42",   "a@b",  "1709287200", "250000", "1", src,
                                     dst,   "5060", "5062", proto,        "sbc-1",  raw };
  memcpy (r->values, v, sizeof v);
  for (guint i = 0; i < CS_HOMER_N_COLS; i++)
    r->lengths[i] = v[i] != NULL ? (int) strlen (v[i]) : 0;
}

static void
test_udp_sip (void)
{
  g_autoptr (GByteArray) frame = g_byte_array_new ();
  g_autoptr (GError) error = NULL;
  char buf[CS_ENDPOINT_STRLEN];
  CsHomerRow row;
  CsPacket pkt;
  Row r;

  row_init (&r, "0", "10.0.0.10", "10.0.0.1", "17", sip_text);
  g_assert_true (cs_homer_row_parse (r.values, r.lengths, &row, &error));
  g_assert_no_error (error);
  g_assert_cmpint (row.ts_us, ==, G_GINT64_CONSTANT (1709287200250000));
  g_assert_true (cs_homer_row_to_frame (&row, frame, &error));
  memset (&pkt, 0, sizeof pkt);
  g_assert_cmpint (cs_decode_frame (1, frame->data, frame->len, &pkt), ==, CS_DECODE_OK);
  g_assert_cmpint (pkt.ip_proto, ==, 17);
  g_assert_cmpstr (cs_endpoint_to_string (&pkt.src, buf), ==, "10.0.0.10:5060");
  g_assert_cmpstr (cs_endpoint_to_string (&pkt.dst, buf), ==, "10.0.0.1:5062");
  g_assert_cmpmem (pkt.payload, pkt.payload_len, sip_text, strlen (sip_text));
  g_autofree char *what = cs_homer_row_describe (&row);
  g_assert_cmpstr (what, ==, "Homer node sbc-1, hep_proto_1_call row 42");
}

static void
test_ipv6_sip (void)
{
  g_autoptr (GByteArray) frame = g_byte_array_new ();
  char buf[CS_ENDPOINT_STRLEN];
  CsHomerRow row;
  CsPacket pkt;
  Row r;

  row_init (&r, "2", "2001:db8::1", "2001:db8::2", "17", sip_text);
  g_assert_true (cs_homer_row_parse (r.values, r.lengths, &row, NULL));
  g_assert_true (cs_homer_row_to_frame (&row, frame, NULL));
  memset (&pkt, 0, sizeof pkt);
  g_assert_cmpint (cs_decode_frame (1, frame->data, frame->len, &pkt), ==, CS_DECODE_OK);
  g_assert_cmpint (pkt.ip_version, ==, 6);
  g_assert_cmpstr (cs_endpoint_to_string (&pkt.src, buf), ==, "[2001:db8::1]:5060");
  g_assert_cmpmem (pkt.payload, pkt.payload_len, sip_text, strlen (sip_text));
}

/* SIP over TCP comes back as HEP3 (one whole message) carrying the row's addresses and time */
static void
test_tcp_sip_as_hep (void)
{
  g_autoptr (GByteArray) frame = g_byte_array_new ();
  char buf[CS_ENDPOINT_STRLEN];
  CsHomerRow row;
  CsHepPacket hep;
  CsPacket pkt;
  Row r;

  row_init (&r, "1", "192.0.2.1", "192.0.2.2", "6", sip_text);
  g_assert_true (cs_homer_row_parse (r.values, r.lengths, &row, NULL));
  g_assert_true (cs_homer_row_to_frame (&row, frame, NULL));
  memset (&pkt, 0, sizeof pkt);
  g_assert_cmpint (cs_decode_frame (1, frame->data, frame->len, &pkt), ==, CS_DECODE_OK);
  g_assert_cmpint (pkt.dst.port, ==, 9060);
  g_assert_true (cs_hep_decode (pkt.payload, pkt.payload_len, &hep, NULL));
  g_assert_cmpint (hep.ip_proto, ==, 6);
  g_assert_cmpint (hep.ts_ns, ==, G_GINT64_CONSTANT (1709287200250000000));
  g_assert_cmpstr (cs_endpoint_to_string (&hep.src, buf), ==, "192.0.2.1:5060");
  g_assert_cmpmem (hep.payload, hep.payload_len, sip_text, strlen (sip_text));
}

/* heplify's JSON of an SR with one block (field names of its protos/rtcp.go) */
static void
test_rtcp_json (void)
{
  static const char json[]
      = "{\"sender_information\":{\"ntp_timestamp_sec\":3918276000,\"ntp_timestamp_usec\":"
        "2147483648,\"rtp_timestamp\":160000,\"packets\":500,\"octets\":80000},\"ssrc\":"
        "305419896,\"type\":200,\"report_count\":1,\"report_blocks\":[{\"source_ssrc\":"
        "2271560481,\"fraction_lost\":12,\"packets_lost\":-1,\"highest_seq_no\":70000,"
        "\"ia_jitter\":37,\"lsr\":1234,\"dlsr\":65536}]}";
  g_autoptr (GByteArray) frame = g_byte_array_new ();
  g_autoptr (GError) error = NULL;
  CsRtcpCompound rtcp;
  CsHomerRow row;
  CsPacket pkt;
  Row r;

  row_init (&r, "3", "10.0.0.10", "10.0.0.20", "17", json);
  g_assert_true (cs_homer_row_parse (r.values, r.lengths, &row, NULL));
  g_assert_true (cs_homer_row_to_frame (&row, frame, &error));
  g_assert_no_error (error);
  memset (&pkt, 0, sizeof pkt);
  g_assert_cmpint (cs_decode_frame (1, frame->data, frame->len, &pkt), ==, CS_DECODE_OK);
  memset (&rtcp, 0, sizeof rtcp);
  g_assert_true (cs_rtcp_parse (pkt.payload, pkt.payload_len, &rtcp));
  g_assert_true (rtcp.has_sr);
  g_assert_cmpuint (rtcp.sender_ssrc, ==, 305419896u);
  g_assert_cmpuint (rtcp.sender_info.ntp, ==,
                    (G_GUINT64_CONSTANT (3918276000) << 32) | 2147483648u);
  g_assert_cmpuint (rtcp.sender_info.rtp_timestamp, ==, 160000);
  g_assert_cmpuint (rtcp.sender_info.packet_count, ==, 500);
  g_assert_cmpuint (rtcp.sender_info.octet_count, ==, 80000);
  g_assert_cmpuint (rtcp.n_blocks, ==, 1);
  g_assert_cmpuint (rtcp.blocks[0].ssrc, ==, 2271560481u);
  g_assert_cmpuint (rtcp.blocks[0].fraction_lost, ==, 12);
  g_assert_cmpint (rtcp.blocks[0].cumulative_lost, ==, -1);
  g_assert_cmpuint (rtcp.blocks[0].ext_highest_seq, ==, 70000);
  g_assert_cmpuint (rtcp.blocks[0].jitter, ==, 37);
  g_assert_cmpuint (rtcp.blocks[0].lsr, ==, 1234);
  g_assert_cmpuint (rtcp.blocks[0].dlsr, ==, 65536);
}

/* without timeSeconds the row's create_date (as microseconds) is its time */
static void
test_time_fallback (void)
{
  CsHomerRow row;
  Row r;

  row_init (&r, "0", "10.0.0.10", "10.0.0.1", "17", sip_text);
  r.values[CS_HOMER_COL_TS_SEC] = NULL;
  r.values[CS_HOMER_COL_CREATED_US] = "1709287201000001";
  g_assert_true (cs_homer_row_parse (r.values, r.lengths, &row, NULL));
  g_assert_cmpint (row.ts_us, ==, G_GINT64_CONSTANT (1709287201000001));
}

static void
expect_bad (Row *r, const char *message)
{
  g_autoptr (GByteArray) frame = g_byte_array_new ();
  g_autoptr (GError) error = NULL;
  CsHomerRow row;

  if (cs_homer_row_parse (r->values, r->lengths, &row, &error))
    g_assert_false (cs_homer_row_to_frame (&row, frame, &error));
  g_assert_error (error, CS_HOMER_ERROR, CS_HOMER_ERROR_ROW);
  g_assert_nonnull (strstr (error->message, message));
}

static void
test_bad_rows (void)
{
  Row r;

  row_init (&r, "0", "10.0.0.300", "10.0.0.1", "17", sip_text);
  expect_bad (&r, "hep_proto_1_call row 42: protocol_header srcIp is not an IP address "
                  "\"10.0.0.300\"");
  row_init (&r, "0", "10.0.0.1", "2001:db8::1", "17", sip_text);
  expect_bad (&r, "srcIp and dstIp are of two families");
  row_init (&r, "1", "10.0.0.1", "10.0.0.2", "17", sip_text);
  r.values[CS_HOMER_COL_DST_PORT] = "70000";
  expect_bad (&r, "hep_proto_1_registration row 42: protocol_header dstPort is not a port "
                  "\"70000\"");
  row_init (&r, "0", "10.0.0.1", "10.0.0.2", "udp", sip_text);
  expect_bad (&r, "protocol is not an IP protocol number \"udp\"");
  row_init (&r, "0", "10.0.0.1", "10.0.0.2", "17", "");
  expect_bad (&r, "raw is empty");
  row_init (&r, "3", "10.0.0.1", "10.0.0.2", "17", "{\"ssrc\": 1,");
  expect_bad (&r, "hep_proto_5_default row 42: raw is not heplify's RTCP JSON");
  row_init (&r, "3", "10.0.0.1", "10.0.0.2", "17", "{\"type\": 202, \"ssrc\": 1}");
  expect_bad (&r, "raw holds no RTCP sender or receiver report");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/homer-row/udp-sip", test_udp_sip);
  g_test_add_func ("/homer-row/ipv6-sip", test_ipv6_sip);
  g_test_add_func ("/homer-row/tcp-sip-as-hep", test_tcp_sip_as_hep);
  g_test_add_func ("/homer-row/rtcp-json", test_rtcp_json);
  g_test_add_func ("/homer-row/time-fallback", test_time_fallback);
  g_test_add_func ("/homer-row/bad-rows", test_bad_rows);
  return g_test_run ();
}
