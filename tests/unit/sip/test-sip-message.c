/* test-sip-message.c — SIP message parser, header helpers, multipart, framing */
#include "base/cs-error.h"
#include "sip/cs-sdp.h"
#include "sip/cs-sip-headers.h"
#include "sip/cs-sip-message.h"
#include "sip/cs-sip-multipart.h"

#include <string.h>

/* sip-rtp-g711.pcap, frame 1 (SIPp → FreeSWITCH) */
static const char invite_g711[] = "INVITE sip:test@10.0.2.15:5060 SIP/2.0\r\n"
                                  "Via: SIP/2.0/UDP 10.0.2.20:5060;branch=z9hG4bK-1966-1-0\r\n"
                                  "From: \"PCMU/8000\" <sip:sipp@10.0.2.20:5060>;tag=1\r\n"
                                  "To: test <sip:test@10.0.2.15:5060>\r\n"
                                  "Call-ID: 1-1966@10.0.2.20\r\n"
                                  "CSeq: 1 INVITE\r\n"
                                  "Contact: sip:sipp@10.0.2.20:5060\r\n"
                                  "Max-Forwards: 70\r\n"
                                  "Content-Type: application/sdp\r\n"
                                  "Content-Length:   123\r\n"
                                  "\r\n"
                                  "v=0\r\n"
                                  "o=- 42 42 IN IP4 10.0.2.20\r\n"
                                  "s=-\r\n"
                                  "c=IN IP4 10.0.2.20\r\n"
                                  "t=0 0\r\n"
                                  "m=audio 6000 RTP/AVP 0\r\n"
                                  "a=rtpmap:0 PCMU/8000\r\n"
                                  "a=recvonly\r\n";

/* sip-auth-failure.pcapng: a response with Server and no User-Agent */
static const char response_401[]
    = "SIP/2.0 401 Unauthorized\r\n"
      "Via: SIP/2.0/UDP 172.16.98.1:42952;branch=z9hG4bK-d8754z-be483a0c4ceed0e1-1---d8754z-;"
      "received=172.16.98.1\r\n"
      "From: <sip:telephone1@172.16.98.101;transport=UDP>;tag=2f16b070\r\n"
      "To: <sip:telephone1@172.16.98.101;transport=UDP>;tag=as74e53fa9\r\n"
      "Call-ID: YzAwMDllYjUyNmVlZWFhZjE0NDViMWRkNDUyNzJmZDU.\r\n"
      "CSeq: 1 REGISTER\r\n"
      "Server: Asterisk PBX 11.7.0~dfsg-1ubuntu1\r\n"
      "WWW-Authenticate: Digest algorithm=MD5, realm=\"asterisk\", nonce=\"54bd660f\"\r\n"
      "Content-Length: 0\r\n"
      "\r\n";

static gsize
body_len_of (const CsSipMessage *msg)
{
  gsize len;

  cs_sip_message_get_body (msg, &len);
  return len;
}

static CsSipMessage *
parse_str (const char *text)
{
  GError *error = NULL;
  CsSipMessage *msg = cs_sip_message_parse ((const guint8 *) text, strlen (text), &error);

  g_assert_no_error (error);
  g_assert_nonnull (msg);
  return msg;
}

static void
test_method (void)
{
  g_assert_cmpint (cs_sip_method_from_string ("INVITE", 6), ==, CS_SIP_METHOD_INVITE);
  g_assert_cmpint (cs_sip_method_from_string ("UPDATE", 6), ==, CS_SIP_METHOD_UPDATE);
  g_assert_cmpint (cs_sip_method_from_string ("ACKX", 3), ==, CS_SIP_METHOD_ACK);
  g_assert_cmpint (cs_sip_method_from_string ("invite", 6), ==, CS_SIP_METHOD_UNKNOWN);
  g_assert_cmpint (cs_sip_method_from_string ("FOO", 3), ==, CS_SIP_METHOD_UNKNOWN);
  g_assert_cmpstr (cs_sip_method_to_string (CS_SIP_METHOD_SUBSCRIBE), ==, "SUBSCRIBE");
  g_assert_cmpstr (cs_sip_method_to_string (CS_SIP_METHOD_UNKNOWN), ==, "UNKNOWN");
  g_assert_cmpstr (cs_sip_method_to_string ((CsSipMethod) 99), ==, "UNKNOWN");
  for (int m = CS_SIP_METHOD_INVITE; m < CS_SIP_METHOD_COUNT; m++)
    {
      const char *name = cs_sip_method_to_string ((CsSipMethod) m);
      g_assert_cmpint (cs_sip_method_from_string (name, strlen (name)), ==, m);
      /* near misses: the first or the last letter changed, one letter short */
      g_autofree char *first = g_strdup (name), *last = g_strdup (name);
      first[0] = 'Z';
      last[strlen (name) - 1] = 'Z';
      g_assert_cmpint (cs_sip_method_from_string (first, strlen (name)), ==, CS_SIP_METHOD_UNKNOWN);
      g_assert_cmpint (cs_sip_method_from_string (last, strlen (name)), ==, CS_SIP_METHOD_UNKNOWN);
      g_assert_cmpint (cs_sip_method_from_string (name, strlen (name) - 1), !=, m);
    }
}

static gboolean
looks_like_str (const char *text)
{
  return cs_sip_looks_like ((const guint8 *) text, strlen (text));
}

static void
test_looks_like (void)
{
  static const guint8 rtp[] = { 0x80, 0x00, 0x12, 0x34, 0x00, 0x00, 0x00, 0xa0,
                                0xde, 0xad, 0xbe, 0xef, 0xff, 0xff, 0xff, 0xff };
  static const guint8 dns[] = { 0x12, 0x34, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
                                0x00, 0x00, 0x00, 0x03, 'w',  'w',  'w',  0x00 };

  g_assert_true (looks_like_str (invite_g711));
  g_assert_true (looks_like_str (response_401));
  g_assert_true (looks_like_str ("SIP/2.0 200 OK\nVia: x\n"));
  g_assert_true (looks_like_str ("SIP/2.0 200\r\n"));
  g_assert_true (looks_like_str ("FOO sip:x SIP/2.0\r\n"));
  g_assert_true (looks_like_str ("OPTIONS sip:a@b SIP/2.0\n"));

  g_assert_false (cs_sip_looks_like (rtp, sizeof rtp));
  g_assert_false (cs_sip_looks_like (dns, sizeof dns));
  g_assert_false (cs_sip_looks_like (NULL, 0));
  g_assert_false (looks_like_str ("HTTP/1.1 200 OK\r\n\r\n"));
  g_assert_false (looks_like_str ("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
  g_assert_false (looks_like_str ("OPTIONS rtsp://10.0.0.1/a RTSP/1.0\r\nCSeq: 1\r\n"));
  g_assert_false (looks_like_str ("RTSP/1.0 200 OK\r\nCSeq: 1\r\n"));
  g_assert_false (looks_like_str ("INVITE sip:x SIP/2.0")); /* no line end */
  g_assert_false (looks_like_str ("INVITE  sip:x SIP/2.0\r\n"));
  g_assert_false (looks_like_str ("SIP/2.0 20 OK\r\n"));
  g_assert_false (looks_like_str ("SIP/2.0 2000 OK\r\n"));
  g_assert_false (looks_like_str ("INVITE sip:x SIP/2.00\r\n"));
  g_assert_false (looks_like_str ("INV@TE sip:x SIP/2.0\r\n"));
}

static void
test_real_invite (void)
{
  g_autoptr (CsSipMessage) msg = parse_str (invite_g711);
  g_autofree char *label = cs_sip_message_dup_label (msg);

  g_assert_null (cs_sip_message_get_malformed (msg));
  g_assert_true (cs_sip_message_is_request (msg));
  g_assert_cmpint (cs_sip_message_get_method (msg), ==, CS_SIP_METHOD_INVITE);
  g_assert_cmpstr (cs_sip_message_get_method_name (msg), ==, "INVITE");
  g_assert_cmpstr (cs_sip_message_get_request_uri (msg), ==, "sip:test@10.0.2.15:5060");
  g_assert_cmpuint (cs_sip_message_get_status_code (msg), ==, 0);
  g_assert_null (cs_sip_message_get_reason (msg));
  g_assert_cmpstr (cs_sip_message_get_call_id (msg), ==, "1-1966@10.0.2.20");
  g_assert_cmpstr (cs_sip_message_get_from (msg), ==,
                   "\"PCMU/8000\" <sip:sipp@10.0.2.20:5060>;tag=1");
  g_assert_cmpstr (cs_sip_message_get_from_display (msg), ==, "PCMU/8000");
  g_assert_cmpstr (cs_sip_message_get_from_user (msg), ==, "sipp");
  g_assert_cmpstr (cs_sip_message_get_from_tag (msg), ==, "1");
  g_assert_cmpstr (cs_sip_message_get_to_display (msg), ==, "test");
  g_assert_cmpstr (cs_sip_message_get_to_user (msg), ==, "test");
  g_assert_null (cs_sip_message_get_to_tag (msg));
  g_assert_cmpuint (cs_sip_message_get_cseq (msg), ==, 1);
  g_assert_cmpint (cs_sip_message_get_cseq_method (msg), ==, CS_SIP_METHOD_INVITE);
  g_assert_cmpstr (cs_sip_message_get_cseq_method_name (msg), ==, "INVITE");
  g_assert_cmpstr (cs_sip_message_get_via_branch (msg), ==, "z9hG4bK-1966-1-0");
  g_assert_null (cs_sip_message_get_user_agent (msg));
  g_assert_cmpstr (cs_sip_message_get_contact (msg), ==, "sip:sipp@10.0.2.20:5060");
  g_assert_cmpstr (cs_sip_message_get_content_type (msg), ==, "application/sdp");
  g_assert_cmpint (cs_sip_message_get_content_length (msg), ==, 123);
  g_assert_cmpuint (cs_sip_message_get_headers (msg)->len, ==, 9);
  g_assert_cmpuint (body_len_of (msg), ==, 123);
  g_assert_true (g_str_has_prefix (cs_sip_message_get_body (msg, NULL), "v=0\r\n"));
  g_assert_true (g_str_has_suffix (cs_sip_message_get_body (msg, NULL), "a=recvonly\r\n"));
  g_assert_cmpstr (cs_sip_message_get_header (msg, "max-forwards"), ==, "70");
  g_assert_cmpstr (cs_sip_message_get_header (msg, "Content-Length"), ==, "123");
  g_assert_null (cs_sip_message_get_header (msg, "Subject"));
  g_assert_cmpstr (label, ==, "INVITE");
  g_assert_false (cs_sip_message_is_provisional (msg));
  g_assert_false (cs_sip_message_is_final (msg));

  g_assert_nonnull (cs_sip_message_get_sdp (msg));
  g_assert_cmpuint (cs_sip_message_get_sdp (msg)->media->len, ==, 1);
  CsSdpMedia *media = g_ptr_array_index (cs_sip_message_get_sdp (msg)->media, 0);
  g_assert_cmpuint (media->port, ==, 6000);
  g_assert_cmpint (media->direction, ==, CS_SDP_RECVONLY);
  g_assert_cmpstr (cs_sdp_media_find_format (media, 0)->encoding, ==, "PCMU");
}

static void
test_real_response (void)
{
  g_autoptr (CsSipMessage) msg = parse_str (response_401);
  g_autofree char *label = cs_sip_message_dup_label (msg);

  g_assert_null (cs_sip_message_get_malformed (msg));
  g_assert_false (cs_sip_message_is_request (msg));
  g_assert_null (cs_sip_message_get_method_name (msg));
  g_assert_cmpuint (cs_sip_message_get_status_code (msg), ==, 401);
  g_assert_cmpstr (cs_sip_message_get_reason (msg), ==, "Unauthorized");
  g_assert_cmpstr (label, ==, "401 Unauthorized");
  g_assert_true (cs_sip_message_is_final (msg));
  g_assert_cmpstr (cs_sip_message_get_user_agent (msg), ==, "Asterisk PBX 11.7.0~dfsg-1ubuntu1");
  g_assert_cmpstr (cs_sip_message_get_from_user (msg), ==, "telephone1");
  g_assert_cmpstr (cs_sip_message_get_to_tag (msg), ==, "as74e53fa9");
  g_assert_cmpint (cs_sip_message_get_cseq_method (msg), ==, CS_SIP_METHOD_REGISTER);
  g_assert_cmpstr (cs_sip_message_get_via_branch (msg), ==,
                   "z9hG4bK-d8754z-be483a0c4ceed0e1-1---d8754z-");
  g_assert_cmpint (cs_sip_message_get_content_length (msg), ==, 0);
  g_assert_cmpuint (body_len_of (msg), ==, 0);
  g_assert_cmpstr (cs_sip_message_get_body (msg, NULL), ==, "");
  g_assert_null (cs_sip_message_get_sdp (msg));
  g_assert_null (cs_sip_message_get_content_type (msg));
  g_assert_cmpstr (cs_sip_message_get_header (msg, "www-authenticate"), ==,
                   "Digest algorithm=MD5, realm=\"asterisk\", nonce=\"54bd660f\"");
}

static void
test_labels_and_status (void)
{
  g_autoptr (CsSipMessage) ringing
      = parse_str ("SIP/2.0 180\r\nVia: SIP/2.0/UDP h\r\nFrom: <sip:a@b>;tag=1\r\n"
                   "To: <sip:c@d>\r\nCall-ID: x\r\nCSeq: 1 INVITE\r\n\r\n");
  g_autoptr (CsSipMessage) unknown
      = parse_str ("FOO sip:c@d SIP/2.0\r\nVia: SIP/2.0/UDP h\r\nFrom: <sip:a@b>;tag=1\r\n"
                   "To: <sip:c@d>\r\nCall-ID: x\r\nCSeq: 1 FOO\r\n\r\n");
  g_autofree char *ringing_label = cs_sip_message_dup_label (ringing);
  g_autofree char *unknown_label = cs_sip_message_dup_label (unknown);

  g_assert_null (cs_sip_message_get_malformed (ringing));
  g_assert_cmpstr (ringing_label, ==, "180");
  g_assert_cmpstr (cs_sip_message_get_reason (ringing), ==, "");
  g_assert_true (cs_sip_message_is_provisional (ringing));
  g_assert_false (cs_sip_message_is_final (ringing));
  g_assert_null (cs_sip_message_get_malformed (unknown));
  g_assert_cmpint (cs_sip_message_get_method (unknown), ==, CS_SIP_METHOD_UNKNOWN);
  g_assert_cmpstr (cs_sip_message_get_method_name (unknown), ==, "FOO");
  g_assert_cmpint (cs_sip_message_get_cseq_method (unknown), ==, CS_SIP_METHOD_UNKNOWN);
  g_assert_cmpstr (cs_sip_message_get_cseq_method_name (unknown), ==, "FOO");
  g_assert_cmpstr (unknown_label, ==, "FOO");
  /* no Content-Length over UDP: the body is the rest */
  g_assert_cmpint (cs_sip_message_get_content_length (unknown), ==, -1);
}

static void
test_compact_forms (void)
{
  g_autoptr (CsSipMessage) msg
      = parse_str ("BYE sip:bob@192.0.2.4 SIP/2.0\r\n"
                   "v: SIP/2.0/UDP 192.0.2.1:5060;branch=z9hG4bKcompact\r\n"
                   "i: compact-1@192.0.2.1\r\n"
                   "f: Alice <sip:alice@example.com>;tag=fa\r\n"
                   "T: <sip:bob@example.com>;tag=tb\r\n"
                   "m: <sip:alice@192.0.2.1>\r\n"
                   "CSeq: 7 BYE\r\n"
                   "k: timer\r\n"
                   "s: hello\r\n"
                   "o: dialog\r\n"
                   "r: <sip:carol@example.com>\r\n"
                   "u: talk\r\n"
                   "x: 1800\r\n"
                   "b: <sip:dave@example.com>\r\n"
                   "e: gzip\r\n"
                   "c: text/plain;charset=utf-8\r\n"
                   "l: 5\r\n"
                   "\r\n"
                   "hello");

  g_assert_null (cs_sip_message_get_malformed (msg));
  g_assert_cmpstr (cs_sip_message_get_call_id (msg), ==, "compact-1@192.0.2.1");
  g_assert_cmpstr (cs_sip_message_get_from_display (msg), ==, "Alice");
  g_assert_cmpstr (cs_sip_message_get_from_tag (msg), ==, "fa");
  g_assert_cmpstr (cs_sip_message_get_to_tag (msg), ==, "tb");
  g_assert_cmpstr (cs_sip_message_get_via_branch (msg), ==, "z9hG4bKcompact");
  g_assert_cmpstr (cs_sip_message_get_contact (msg), ==, "<sip:alice@192.0.2.1>");
  g_assert_cmpstr (cs_sip_message_get_content_type (msg), ==, "text/plain");
  g_assert_cmpint (cs_sip_message_get_content_length (msg), ==, 5);
  g_assert_cmpstr (cs_sip_message_get_body (msg, NULL), ==, "hello");
  /* names stay as written; lookups match both forms */
  CsSipHeader *first = g_ptr_array_index (cs_sip_message_get_headers (msg), 0);
  g_assert_cmpstr (first->name, ==, "v");
  g_assert_cmpstr (cs_sip_message_get_header (msg, "Call-ID"), ==, "compact-1@192.0.2.1");
  g_assert_cmpstr (cs_sip_message_get_header (msg, "i"), ==, "compact-1@192.0.2.1");
  g_assert_cmpstr (cs_sip_message_get_header (msg, "I"), ==, "compact-1@192.0.2.1");
  g_assert_cmpstr (cs_sip_message_get_header (msg, "Supported"), ==, "timer");
  g_assert_cmpstr (cs_sip_message_get_header (msg, "Subject"), ==, "hello");
  g_assert_cmpstr (cs_sip_message_get_header (msg, "Event"), ==, "dialog");
  g_assert_cmpstr (cs_sip_message_get_header (msg, "Refer-To"), ==, "<sip:carol@example.com>");
  g_assert_cmpstr (cs_sip_message_get_header (msg, "Allow-Events"), ==, "talk");
  g_assert_cmpstr (cs_sip_message_get_header (msg, "Session-Expires"), ==, "1800");
  g_assert_cmpstr (cs_sip_message_get_header (msg, "Referred-By"), ==, "<sip:dave@example.com>");
  g_assert_cmpstr (cs_sip_message_get_header (msg, "Content-Encoding"), ==, "gzip");
  g_assert_cmpstr (cs_sip_message_get_header (msg, "Content-Length"), ==, "5");

  g_assert_cmpstr (cs_sip_header_long_name ("y"), ==, "Identity");
  g_assert_cmpstr (cs_sip_header_long_name ("a"), ==, "Accept-Contact");
  g_assert_cmpstr (cs_sip_header_long_name ("j"), ==, "Reject-Contact");
  g_assert_cmpstr (cs_sip_header_long_name ("D"), ==, "Request-Disposition");
  g_assert_cmpstr (cs_sip_header_long_name ("q"), ==, "q");
  g_assert_cmpstr (cs_sip_header_long_name ("Via"), ==, "Via");
  g_assert_true (cs_sip_header_name_equal ("l", "content-length"));
  g_assert_false (cs_sip_header_name_equal ("l", "Content-Type"));
}

static void
test_folding (void)
{
  g_autoptr (CsSipMessage) msg = parse_str ("OPTIONS sip:x@y SIP/2.0\r\n"
                                            "Via: SIP/2.0/UDP h;branch=z9hG4bKfold\r\n"
                                            "Subject: I know you're there,\r\n"
                                            "   pick up the phone\r\n"
                                            "\tand talk to me!  \r\n"
                                            "From: <sip:a@b>\r\n"
                                            " ;tag=folded\r\n"
                                            "To: <sip:x@y>\r\n"
                                            "Call-ID:\r\n"
                                            " fold-1\r\n"
                                            "CSeq: 1 OPTIONS\r\n"
                                            "\r\n");

  g_assert_null (cs_sip_message_get_malformed (msg));
  g_assert_cmpstr (cs_sip_message_get_header (msg, "Subject"), ==,
                   "I know you're there, pick up the phone and talk to me!");
  g_assert_cmpstr (cs_sip_message_get_from_tag (msg), ==, "folded");
  g_assert_cmpstr (cs_sip_message_get_call_id (msg), ==, "fold-1");
  g_assert_cmpuint (cs_sip_message_get_headers (msg)->len, ==, 6);
}

/* Headers are written as their line is read; a continuation takes the value back (also
 * a non-ASCII one), and the headers around it keep theirs. */
static void
test_folding_written (void)
{
  g_autoptr (CsSipMessage) msg = parse_str ("OPTIONS sip:x@y SIP/2.0\r\n"
                                            "Via: SIP/2.0/UDP h;branch=z9hG4bKw\r\n"
                                            "X-A: caf\xc3\xa9  \r\n"
                                            "   au lait\r\n"
                                            "X-D :  spaced \t\r\n"
                                            "From: <sip:a@b>;tag=1\r\n"
                                            "To: <sip:x@y>\r\n"
                                            "Call-ID: w-1\r\n"
                                            "CSeq: 1 OPTIONS\r\n"
                                            "X-C: a\r\n"
                                            " b\r\n"
                                            "\r\n");
  static const char *const expected[][2] = {
    { "Via", "SIP/2.0/UDP h;branch=z9hG4bKw" },
    { "X-A", "caf\xc3\xa9 au lait" },
    { "X-D", "spaced" },
    { "From", "<sip:a@b>;tag=1" },
    { "To", "<sip:x@y>" },
    { "Call-ID", "w-1" },
    { "CSeq", "1 OPTIONS" },
    { "X-C", "a b" },
  };

  g_assert_null (cs_sip_message_get_malformed (msg));
  const GPtrArray *view = cs_sip_message_get_headers (msg);
  g_assert_cmpuint (view->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < view->len; i++)
    {
      const CsSipHeader *h = g_ptr_array_index (view, i);
      g_assert_cmpstr (h->name, ==, expected[i][0]);
      g_assert_cmpstr (h->value, ==, expected[i][1]);
    }
  g_assert_cmpstr (cs_sip_message_get_call_id (msg), ==, "w-1");
  g_assert_cmpstr (cs_sip_message_get_via_branch (msg), ==, "z9hG4bKw");
}

/* Trailing white space is what g_strchomp drops: not \v; and a short value cut at the
 * very end of the data is copied without reading past it. */
static void
test_value_ends (void)
{
  g_autoptr (CsSipMessage) msg = parse_str ("OPTIONS sip:x@y SIP/2.0\r\n"
                                            "Via: SIP/2.0/UDP h;branch=z9hG4bKe\r\n"
                                            "X-V: v\v\r\n"
                                            "X-F: f\f \t\r\n"
                                            "X-E: ab");

  g_assert_cmpstr (cs_sip_message_get_header (msg, "X-V"), ==, "v\v");
  g_assert_cmpstr (cs_sip_message_get_header (msg, "X-F"), ==, "f");
  g_assert_cmpstr (cs_sip_message_get_header (msg, "X-E"), ==, "ab");
}

static void
test_addresses (void)
{
  g_autoptr (CsSipMessage) msg = parse_str (
      "MESSAGE sip:x@y SIP/2.0\n"
      "Via: SIP/2.0/UDP h;branch=z9hG4bKaddr\n"
      "From: \"Smith; John <boss> \\\"JS\\\"\" <sip:1001@pbx.example.com;transport=udp>"
      " ; tag = a1b2 ;x=\"y;z\"\n"
      "To: sip:+15551234@gw.example.com;user=phone;tag=t9\n"
      "Call-ID: addr\n"
      "CSeq: 3 MESSAGE\n"
      "\n");

  g_assert_null (cs_sip_message_get_malformed (msg));
  g_assert_cmpstr (cs_sip_message_get_from_display (msg), ==, "Smith; John <boss> \"JS\"");
  g_assert_cmpstr (cs_sip_message_get_from_user (msg), ==, "1001");
  g_assert_cmpstr (cs_sip_message_get_from_tag (msg), ==, "a1b2");
  /* addr-spec without <>: the parameters belong to the header */
  g_assert_null (cs_sip_message_get_to_display (msg));
  g_assert_cmpstr (cs_sip_message_get_to_user (msg), ==, "+15551234");
  g_assert_cmpstr (cs_sip_message_get_to_tag (msg), ==, "t9");

  CsSipNameAddr na;
  g_assert_true (cs_sip_name_addr_parse ("Bob Smith <tel:+4930123;phone-context=x>;tag=q", &na));
  g_assert_cmpstr (na.display, ==, "Bob Smith");
  g_assert_cmpstr (na.uri, ==, "tel:+4930123;phone-context=x");
  g_assert_cmpstr (na.params, ==, ";tag=q");
  g_assert_cmpstr (na.tag, ==, "q");
  cs_sip_name_addr_clear (&na);
  g_assert_true (cs_sip_name_addr_parse ("\"testtest\"<sip:10.0.1.199>", &na));
  g_assert_cmpstr (na.display, ==, "testtest");
  g_assert_cmpstr (na.uri, ==, "sip:10.0.1.199");
  g_assert_null (na.tag);
  cs_sip_name_addr_clear (&na);
  g_assert_true (cs_sip_name_addr_parse ("\"\" <sip:a@b>", &na));
  g_assert_null (na.display);
  cs_sip_name_addr_clear (&na);
  g_assert_false (cs_sip_name_addr_parse ("\"unterminated <sip:a@b>", &na));
  g_assert_false (cs_sip_name_addr_parse ("Bob <sip:a@b", &na));
  g_assert_false (cs_sip_name_addr_parse ("  ", &na));
  g_assert_null (na.uri);

  g_autofree char *u1 = cs_sip_uri_dup_user ("sips:alice:secret@example.com:5061");
  g_autofree char *u2 = cs_sip_uri_dup_user ("SIP:bob@example.com");
  g_autofree char *u3 = cs_sip_uri_dup_user ("tel:+1-555-0100;ext=7");
  g_autofree char *u4 = cs_sip_uri_dup_user ("sip:example.com;transport=tcp");
  g_autofree char *u5 = cs_sip_uri_dup_user ("sip:@127.0.0.1");
  g_autofree char *u6 = cs_sip_uri_dup_user ("mailto:a@b");
  g_autofree char *u7 = cs_sip_uri_dup_user ("sip:+123;npdi@gw;user=phone");
  g_assert_cmpstr (u1, ==, "alice");
  g_assert_cmpstr (u2, ==, "bob");
  g_assert_cmpstr (u3, ==, "+1-555-0100");
  g_assert_null (u4);
  g_assert_null (u5);
  g_assert_null (u6);
  g_assert_cmpstr (u7, ==, "+123;npdi");
}

static void
test_via (void)
{
  g_autoptr (CsSipMessage) msg
      = parse_str ("SIP/2.0 200 OK\r\n"
                   "Via: SIP/2.0/UDP [2001:db8::1]:5060;rport=5060;branch=\"z9hG4bKtop\", "
                   "SIP/2.0/UDP 10.0.0.2;branch=z9hG4bKsecond\r\n"
                   "v: SIP/2.0/TCP 10.0.0.3;branch=z9hG4bKthird\r\n"
                   "From: <sip:a@b>;tag=1\r\nTo: <sip:c@d>;tag=2\r\nCall-ID: v\r\n"
                   "CSeq: 2 INVITE\r\nContent-Length: 0\r\n\r\n");

  g_assert_null (cs_sip_message_get_malformed (msg));
  g_assert_cmpstr (cs_sip_message_get_via_branch (msg), ==, "z9hG4bKtop");

  g_autofree char *b1 = cs_sip_via_dup_branch ("SIP/2.0/UDP h, SIP/2.0/UDP g;branch=no");
  g_autofree char *b2 = cs_sip_via_dup_branch ("SIP/2.0/UDP h;received=1.2.3.4;BRANCH=z9hG4bKx");
  g_autofree char *rport = cs_sip_params_dup_value (";rport;branch=x", "rport");
  g_assert_null (b1);
  g_assert_cmpstr (b2, ==, "z9hG4bKx");
  g_assert_cmpstr (rport, ==, "");
}

static const char multipart_invite[]
    = "INVITE sip:bob@example.com SIP/2.0\r\n"
      "Via: SIP/2.0/UDP 192.0.2.1;branch=z9hG4bKmp\r\n"
      "From: <sip:alice@example.com>;tag=mp\r\n"
      "To: <sip:bob@example.com>\r\n"
      "Call-ID: multipart-1\r\n"
      "CSeq: 1 INVITE\r\n"
      "Content-Type: Multipart/Mixed; boundary=\"unique boundary-1\"\r\n"
      "MIME-Version: 1.0\r\n"
      "\r\n"
      "--unique boundary-1\r\n"
      "Content-Type: application/isup;version=itu-t92+\r\n"
      "Content-Disposition: signal; handling=optional\r\n"
      "\r\n"
      "\x01\x00\x49\x00\x00\x03\x02\x00\x07\x04\x10\x00\x33\x63\x21\x43\x00\x00\x03\r\n"
      "--unique boundary-1\r\n"
      "content-type: application/SDP\r\n"
      "\r\n"
      "v=0\r\n"
      "o=- 1 1 IN IP4 192.0.2.1\r\n"
      "s=-\r\n"
      "c=IN IP4 192.0.2.1\r\n"
      "t=0 0\r\n"
      "m=audio 20000 RTP/AVP 8\r\n"
      "\r\n"
      "--unique boundary-1--\r\n";

static void
test_multipart (void)
{
  /* the ISUP part holds a NUL byte: give the length explicitly */
  g_autoptr (CsSipMessage) msg
      = cs_sip_message_parse ((const guint8 *) multipart_invite, sizeof multipart_invite - 1, NULL);

  g_assert_nonnull (msg);
  g_assert_null (cs_sip_message_get_malformed (msg));
  g_assert_cmpstr (cs_sip_message_get_content_type (msg), ==, "multipart/mixed");
  g_assert_cmpuint (body_len_of (msg), >, 100);
  g_assert_nonnull (cs_sip_message_get_sdp (msg));
  g_assert_null (cs_sip_message_get_sdp (msg)->malformed);
  g_assert_cmpuint (cs_sip_message_get_sdp (msg)->media->len, ==, 1);
  CsSdpMedia *media = g_ptr_array_index (cs_sip_message_get_sdp (msg)->media, 0);
  g_assert_cmpuint (media->port, ==, 20000);
  g_assert_cmpuint (g_array_index (media->formats, CsSdpFormat, 0).payload_type, ==, 8);

  /* nested: multipart/related holding multipart/alternative holding the SDP */
  static const char nested[] = "--outer\r\n"
                               "Content-Type: multipart/alternative;boundary=inner\r\n"
                               "\r\n"
                               "--inner\r\n"
                               "\r\n"
                               "plain text part\r\n"
                               "--inner\r\n"
                               "Content-Type: application/sdp\r\n"
                               "\r\n"
                               "v=0\r\n"
                               "--inner--\r\n"
                               "--outer--\r\n";
  const char *part = NULL;
  gsize part_len = 0;
  g_assert_true (cs_sip_multipart_find_part (nested, strlen (nested), "outer", "application/sdp",
                                             &part, &part_len));
  /* the CRLF before a delimiter belongs to the delimiter (RFC 2046 §5.1.1) */
  g_assert_cmpuint (part_len, ==, 3);
  g_assert_cmpint (memcmp (part, "v=0", 3), ==, 0);
  g_assert_true (cs_sip_multipart_find_part (nested, strlen (nested), "outer", "text/plain", &part,
                                             &part_len));
  g_assert_cmpuint (part_len, ==, strlen ("plain text part"));
  g_assert_cmpint (memcmp (part, "plain text part", part_len), ==, 0);
  g_assert_false (
      cs_sip_multipart_find_part (nested, strlen (nested), "outer", "image/png", &part, &part_len));
  g_assert_false (cs_sip_multipart_find_part (nested, strlen (nested), "nosuch", "application/sdp",
                                              &part, &part_len));

  g_autofree char *boundary
      = cs_sip_content_type_dup_param ("multipart/mixed ; Boundary=\"a;b\"", "boundary");
  g_autofree char *type = cs_sip_content_type_dup_media_type (" Application / SDP ;x=y");
  g_assert_cmpstr (boundary, ==, "a;b");
  g_assert_cmpstr (type, ==, "application/sdp");
}

/* A header block with Via, From, To, Call-ID and CSeq, to build malformed cases on. */
#define GOOD_HEADERS                                                                               \
  "Via: SIP/2.0/UDP h;branch=z9hG4bKm\r\nFrom: <sip:a@b>;tag=1\r\nTo: <sip:c@d>\r\n"               \
  "Call-ID: m-1\r\nCSeq: 1 INVITE\r\n"

static void
assert_malformed (const char *text, const char *reason)
{
  g_autoptr (CsSipMessage) msg = parse_str (text);

  g_assert_cmpstr (cs_sip_message_get_malformed (msg), ==, reason);
}

static void
test_malformed (void)
{
  assert_malformed ("INVITE sip:a@b SIP/2.0\r\n" GOOD_HEADERS "\r\n", NULL);
  assert_malformed ("INVITE sip:a@b SIP/2.0\r\nVia: SIP/2.0/UDP h\r\nFrom: <sip:a@b>\r\n"
                    "To: <sip:c@d>\r\nCSeq: 1 INVITE\r\n\r\n",
                    "missing Call-ID");
  assert_malformed ("INVITE sip:a@b SIP/2.0\r\nFrom: <sip:a@b>\r\nTo: <sip:c@d>\r\n"
                    "Call-ID: x\r\nCSeq: 1 INVITE\r\n\r\n",
                    "missing Via");
  assert_malformed ("INVITE sip:a@b SIP/2.0\r\nVia: SIP/2.0/UDP h\r\nTo: <sip:c@d>\r\n"
                    "Call-ID: x\r\nCSeq: 1 INVITE\r\n\r\n",
                    "missing From");
  assert_malformed ("INVITE sip:a@b SIP/2.0\r\nVia: SIP/2.0/UDP h\r\nFrom: <sip:c@d>\r\n"
                    "Call-ID: x\r\nCSeq: 1 INVITE\r\n\r\n",
                    "missing To");
  assert_malformed ("INVITE sip:a@b SIP/2.0\r\nVia: SIP/2.0/UDP h\r\nFrom: <sip:a@b>\r\n"
                    "To: <sip:c@d>\r\nCall-ID: x\r\n\r\n",
                    "missing CSeq");
  assert_malformed ("INVITE sip:a@b SIP/2.0\r\nVia: SIP/2.0/UDP h\r\nFrom: <sip:a@b>\r\n"
                    "To: <sip:c@d>\r\nCall-ID: x\r\nCSeq: abc INVITE\r\n\r\n",
                    "bad CSeq");
  assert_malformed ("INVITE sip:a@b SIP/2.0\r\nVia: SIP/2.0/UDP h\r\nFrom: <sip:a@b>\r\n"
                    "To: <sip:c@d>\r\nCall-ID: x\r\nCSeq: 12\r\n\r\n",
                    "bad CSeq");
  assert_malformed ("INVITE sip:a@b SIP/2.0\r\nVia: SIP/2.0/UDP h\r\nFrom: <sip:a@b>\r\n"
                    "To: <sip:c@d>\r\nCall-ID: x\r\nCSeq: 99999999999 INVITE\r\n\r\n",
                    "bad CSeq");
  assert_malformed ("INVITE sip:a@b SIP/2.0\r\nVia: SIP/2.0/UDP h\r\nFrom: <sip:a@b>\r\n"
                    "To: <sip:c@d>\r\nCall-ID: x\r\nCSeq: 1 BYE\r\n\r\n",
                    "CSeq method differs from request method");
  assert_malformed ("INVITE sip:a@b SIP/2.0\r\n" GOOD_HEADERS "Broken line\r\n\r\n",
                    "bad header line");
  assert_malformed ("INVITE sip:a@b SIP/2.0\r\n" GOOD_HEADERS ": no name\r\n\r\n",
                    "bad header line");
  assert_malformed ("INVITE sip:a@b SIP/2.0\r\n" GOOD_HEADERS "Bad Name: x\r\n\r\n",
                    "bad header line");
  assert_malformed ("INVITE sip:a@b SIP/2.0\r\n continuation first\r\n" GOOD_HEADERS "\r\n",
                    "bad header line");
  assert_malformed ("INVITE sip:a@b SIP/2.0\r\n" GOOD_HEADERS "Content-Length: 1x\r\n\r\n",
                    "bad Content-Length");
  assert_malformed ("INVITE sip:a@b SIP/2.0\r\n" GOOD_HEADERS "From: <sip:a@b>;tag=1\r\n"
                    "To: \"open <sip:c@d>\r\n\r\n",
                    NULL); /* only the first From/To counts */
  assert_malformed ("INVITE sip:a@b SIP/2.0\r\nTo: \"open <sip:c@d>\r\n" GOOD_HEADERS "\r\n",
                    "bad To");
  assert_malformed ("SIP/2.0 2x0 OK\r\n" GOOD_HEADERS "\r\n", "bad start line");
  assert_malformed ("SIP/2.0 099 Early\r\n" GOOD_HEADERS "\r\n", "bad status code");
  assert_malformed ("INVITE  sip:a@b  SIP/2.0\r\n" GOOD_HEADERS "\r\n", "bad start line");
  assert_malformed ("INVITE sip:a@b SIP/2.0\r\n" GOOD_HEADERS, "missing end of headers");
  assert_malformed ("INVITE sip:a@b SIP/2.0\r\n" GOOD_HEADERS "Content-Type: multipart/mixed\r\n"
                    "\r\n--x\r\n\r\nv=0\r\n",
                    "multipart body without boundary");
  assert_malformed ("INVITE sip:a@b SIP/2.0\r\n" GOOD_HEADERS "Content-Type: application/sdp\r\n"
                    "\r\nnot sdp\r\n",
                    "SDP body without v= line");

  /* the exact reason text for a body shorter than Content-Length */
  GString *text
      = g_string_new ("INVITE sip:a@b SIP/2.0\r\n" GOOD_HEADERS "Content-Length: 500\r\n\r\n");
  for (int i = 0; i < 120; i++)
    g_string_append_c (text, 'x');
  g_autoptr (CsSipMessage) cut = parse_str (text->str);
  g_assert_cmpstr (cs_sip_message_get_malformed (cut), ==,
                   "Content-Length 500 exceeds body (120 bytes)");
  g_assert_cmpint (cs_sip_message_get_content_length (cut), ==, 500);
  g_assert_cmpuint (body_len_of (cut), ==, 120);
  g_string_free (text, TRUE);

  /* the start line is cut: still a message */
  g_autoptr (CsSipMessage) no_eol = parse_str ("SIP/2.0 200 OK");
  g_assert_cmpstr (cs_sip_message_get_malformed (no_eol), ==, "missing end of headers");
  g_assert_cmpuint (cs_sip_message_get_status_code (no_eol), ==, 200);
  g_assert_cmpstr (cs_sip_message_get_reason (no_eol), ==, "OK");
  g_assert_cmpuint (cs_sip_message_get_headers (no_eol)->len, ==, 0);
}

static void
test_nul_and_utf8 (void)
{
  static const char with_nul[] = "INVITE sip:a@b SIP/2.0\r\n" GOOD_HEADERS "Subject: a\0b\r\n\r\n";
  g_autoptr (CsSipMessage) msg
      = cs_sip_message_parse ((const guint8 *) with_nul, sizeof with_nul - 1, NULL);

  g_assert_nonnull (msg);
  g_assert_cmpstr (cs_sip_message_get_malformed (msg), ==, "NUL byte in headers");
  g_assert_cmpstr (cs_sip_message_get_header (msg, "Subject"), ==, "a b");
  g_assert_cmpstr (cs_sip_message_get_call_id (msg), ==, "m-1");

  g_autoptr (CsSipMessage) latin1 = parse_str ("INVITE sip:a@b SIP/2.0\r\n" GOOD_HEADERS
                                               "Subject: caf\xe9 \xc3\xa9t\xc3\xa9\r\n"
                                               "From: \"Jos\xe9\" <sip:j@b>\r\n\r\n");
  const char *subject = cs_sip_message_get_header (latin1, "Subject");
  g_assert_true (g_utf8_validate (subject, -1, NULL));
  g_assert_true (g_str_has_suffix (subject, " \xc3\xa9t\xc3\xa9"));
}

static void
test_bounds (void)
{
  GString *text = g_string_new ("INVITE sip:a@b SIP/2.0\r\n" GOOD_HEADERS);

  for (int i = 0; i < 300; i++)
    g_string_append_printf (text, "X-Filler-%d: %d\r\n", i, i);
  g_string_append (text, "\r\nbody");
  g_autoptr (CsSipMessage) many = parse_str (text->str);
  g_assert_cmpstr (cs_sip_message_get_malformed (many), ==, "too many headers");
  g_assert_cmpuint (cs_sip_message_get_headers (many)->len, ==, CS_SIP_MAX_HEADERS);
  g_assert_cmpstr (cs_sip_message_get_body (many, NULL), ==, "body");

  g_string_assign (text, "INVITE sip:a@b SIP/2.0\r\n" GOOD_HEADERS "X-Long: ");
  for (int i = 0; i < 70000; i++)
    g_string_append_c (text, 'a' + i % 26);
  g_string_append (text, "\r\n");
  for (int i = 0; i < 1000; i++)
    g_string_append (text, " folded more text\r\n");
  g_string_append (text, "\r\n");
  g_autoptr (CsSipMessage) longv = parse_str (text->str);
  g_assert_cmpstr (cs_sip_message_get_malformed (longv), ==, "header value too long");
  g_assert_cmpuint (strlen (cs_sip_message_get_header (longv, "X-Long")), <=,
                    CS_SIP_MAX_HEADER_VALUE);
  g_assert_cmpstr (cs_sip_message_get_call_id (longv), ==, "m-1");
  g_string_free (text, TRUE);
}

static void
test_content_length (void)
{
  g_autoptr (CsSipMessage) shorter = parse_str ("INVITE sip:a@b SIP/2.0\n" GOOD_HEADERS
                                                "Content-Length: 3\n\nabcSIP/2.0 200 OK\r\n");
  g_assert_null (cs_sip_message_get_malformed (shorter));
  g_assert_cmpuint (body_len_of (shorter), ==, 3);
  g_assert_cmpstr (cs_sip_message_get_body (shorter, NULL), ==, "abc");

  g_autoptr (CsSipMessage) absent
      = parse_str ("INVITE sip:a@b SIP/2.0\r\n" GOOD_HEADERS "\r\nwhole rest\r\n");
  g_assert_null (cs_sip_message_get_malformed (absent));
  g_assert_cmpint (cs_sip_message_get_content_length (absent), ==, -1);
  g_assert_cmpstr (cs_sip_message_get_body (absent, NULL), ==, "whole rest\r\n");
}

static void
test_not_sip (void)
{
  static const char *not_sip[] = {
    "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
    "GET /index.html HTTP/1.1\r\nHost: example.com\r\n\r\n",
    "RTSP/1.0 200 OK\r\nCSeq: 2\r\n\r\n",
    "\x80\x08\x00\x01\x00\x00\x00\xa0\x12\x34\x56\x78",
    "",
    "SIP/2.0",
    "INVITE sip:a@b SIP/2.",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (not_sip); i++)
    {
      GError *error = NULL;
      CsSipMessage *msg
          = cs_sip_message_parse ((const guint8 *) not_sip[i], strlen (not_sip[i]), &error);
      g_assert_null (msg);
      g_assert_error (error, CS_SIP_ERROR, CS_SIP_ERROR_NOT_SIP);
      g_clear_error (&error);
    }
  g_assert_null (cs_sip_message_parse (NULL, 10, NULL));
}

static void
test_truncated (void)
{
  gsize full = strlen (invite_g711);
  gsize request_line = strlen ("INVITE sip:test@10.0.2.15:5060 SIP/2.0");
  gsize body_start = strstr (invite_g711, "\r\n\r\n") - invite_g711 + 4;

  for (gsize n = 0; n <= full; n++)
    {
      /* an exact-size heap copy so that memory checkers catch any read past len */
      guint8 *copy = g_memdup2 (invite_g711, n > 0 ? n : 1);
      CsSipMessage *msg = cs_sip_message_parse (copy, n, NULL);
      if (n < request_line)
        g_assert_null (msg);
      else
        {
          g_assert_nonnull (msg);
          g_assert_cmpstr (cs_sip_message_get_method_name (msg), ==, "INVITE");
          if (n < body_start)
            g_assert_cmpstr (cs_sip_message_get_malformed (msg), ==, "missing end of headers");
          else if (n < full)
            {
              g_autofree char *reason = g_strdup_printf (
                  "Content-Length 123 exceeds body (%" G_GSIZE_FORMAT " bytes)", n - body_start);
              g_assert_cmpstr (cs_sip_message_get_malformed (msg), ==, reason);
              g_assert_cmpuint (body_len_of (msg), ==, n - body_start);
            }
          else
            g_assert_null (cs_sip_message_get_malformed (msg));
          g_assert_true (cs_sip_looks_like (copy, n) == (n >= request_line + 2)); /* CR LF */
          cs_sip_message_unref (msg);
        }
      g_free (copy);
    }
}

static void
test_mutations (void)
{
  gsize full = sizeof multipart_invite - 1;
  guint8 *buf = g_malloc (full);

  /* fuzz-like: random byte changes never crash and keep the bounds */
  for (int round = 0; round < 3000; round++)
    {
      memcpy (buf, multipart_invite, full);
      int changes = g_test_rand_int_range (1, 12);
      for (int i = 0; i < changes; i++)
        {
          static const guint8 interesting[] = { '\r', '\n', ':', ';', '"', '<', '>', ' ', 0, '-' };
          gsize at = (gsize) g_test_rand_int_range (0, (gint32) full);
          buf[at] = g_test_rand_bit () ? interesting[g_test_rand_int_range (0, 10)]
                                       : (guint8) g_test_rand_int_range (0, 256);
        }
      gsize len = (gsize) g_test_rand_int_range (0, (gint32) full + 1);
      CsSipMessage *msg = cs_sip_message_parse (buf, len, NULL);
      if (msg != NULL)
        {
          g_assert_cmpuint (body_len_of (msg), <=, len);
          g_assert_cmpuint (cs_sip_message_get_headers (msg)->len, <=, CS_SIP_MAX_HEADERS);
          cs_sip_message_unref (msg);
        }
    }
  g_free (buf);
}

static void
test_ref (void)
{
  CsSipMessage *msg = parse_str (invite_g711);

  g_assert_true (cs_sip_message_ref (msg) == msg);
  cs_sip_message_unref (msg);
  g_assert_cmpstr (cs_sip_message_get_call_id (msg), ==, "1-1966@10.0.2.20");
  cs_sip_message_unref (msg);
}

static void
test_framing (void)
{
  g_autofree char *two = g_strconcat (response_401, invite_g711, NULL);
  gsize first_len = strlen (response_401);
  gsize len = 0;

  g_assert_cmpint (cs_sip_message_frame_length ((const guint8 *) two, strlen (two), &len), ==,
                   CS_SIP_FRAMING_COMPLETE);
  g_assert_cmpuint (len, ==, first_len);
  g_assert_cmpint (cs_sip_message_frame_length ((const guint8 *) two + first_len,
                                                strlen (two) - first_len, &len),
                   ==, CS_SIP_FRAMING_COMPLETE);
  g_assert_cmpuint (len, ==, strlen (invite_g711));
  /* body incomplete, headers incomplete, start line incomplete */
  g_assert_cmpint (
      cs_sip_message_frame_length ((const guint8 *) invite_g711, strlen (invite_g711) - 1, &len),
      ==, CS_SIP_FRAMING_INCOMPLETE);
  g_assert_cmpint (cs_sip_message_frame_length ((const guint8 *) invite_g711, 100, &len), ==,
                   CS_SIP_FRAMING_INCOMPLETE);
  g_assert_cmpint (cs_sip_message_frame_length ((const guint8 *) invite_g711, 10, &len), ==,
                   CS_SIP_FRAMING_INCOMPLETE);
  g_assert_cmpint (cs_sip_message_frame_length ((const guint8 *) "HTTP/1.1 200 OK\r\n", 17, &len),
                   ==, CS_SIP_FRAMING_INVALID);
  g_assert_cmpint (cs_sip_message_frame_length ((const guint8 *) "\x80\x00", 2, &len), ==,
                   CS_SIP_FRAMING_INVALID);
  static const char compact_l[] = "SIP/2.0 200 OK\r\nl: 4\r\n\r\nbodyEXTRA";
  g_assert_cmpint (
      cs_sip_message_frame_length ((const guint8 *) compact_l, strlen (compact_l), &len), ==,
      CS_SIP_FRAMING_COMPLETE);
  g_assert_cmpuint (len, ==, strlen (compact_l) - 5);
  static const char bad_l[] = "SIP/2.0 200 OK\r\nContent-Length: -4\r\n\r\n";
  g_assert_cmpint (cs_sip_message_frame_length ((const guint8 *) bad_l, strlen (bad_l), &len), ==,
                   CS_SIP_FRAMING_INVALID);
  static const char huge_l[] = "SIP/2.0 200 OK\r\nContent-Length: 999999999\r\n\r\n";
  g_assert_cmpint (cs_sip_message_frame_length ((const guint8 *) huge_l, strlen (huge_l), &len), ==,
                   CS_SIP_FRAMING_INVALID);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sip/method", test_method);
  g_test_add_func ("/sip/looks-like", test_looks_like);
  g_test_add_func ("/sip/real-invite", test_real_invite);
  g_test_add_func ("/sip/real-response", test_real_response);
  g_test_add_func ("/sip/labels-and-status", test_labels_and_status);
  g_test_add_func ("/sip/compact-forms", test_compact_forms);
  g_test_add_func ("/sip/folding", test_folding);
  g_test_add_func ("/sip/folding-written", test_folding_written);
  g_test_add_func ("/sip/value-ends", test_value_ends);
  g_test_add_func ("/sip/addresses", test_addresses);
  g_test_add_func ("/sip/via", test_via);
  g_test_add_func ("/sip/multipart", test_multipart);
  g_test_add_func ("/sip/malformed", test_malformed);
  g_test_add_func ("/sip/nul-and-utf8", test_nul_and_utf8);
  g_test_add_func ("/sip/bounds", test_bounds);
  g_test_add_func ("/sip/content-length", test_content_length);
  g_test_add_func ("/sip/not-sip", test_not_sip);
  g_test_add_func ("/sip/truncated", test_truncated);
  g_test_add_func ("/sip/mutations", test_mutations);
  g_test_add_func ("/sip/ref", test_ref);
  g_test_add_func ("/sip/framing", test_framing);
  return g_test_run ();
}
