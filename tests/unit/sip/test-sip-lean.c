/* test-sip-lean.c — messages kept lean over a mapped capture (cs_sip_message_parse_mapped)
 * read back exactly what an ordinary parse gives, and outlive their capture */
#include <glib/gstdio.h>
#include <string.h>

#include "capture-builder.h"
#include "calls/cs-call.h"
#include "capture/cs-capture.h"
#include "loader/cs-loader.h"
#include "base/cs-mapped-bytes.h"
#include "sip/cs-sdp.h"
#include "sip/cs-sip-message-private.h"

static const char invite_sdp[] = "INVITE sip:bob@example.com SIP/2.0\r\n"
                                 "Via: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK-1\r\n"
                                 "Max-Forwards: 70\r\n"
                                 "From: \"Al \\\"the\\\" Ice\" <sip:alice@example.com>;tag=a1\r\n"
                                 "To: <sip:bob@example.com>\r\n"
                                 "Call-ID: lean-1@10.0.0.1\r\n"
                                 "CSeq: 1 INVITE\r\n"
                                 "Contact: <sip:alice@10.0.0.1>\r\n"
                                 "User-Agent: tester 1.0  \r\n"
                                 "X-Odd:\tvalue with\ttabs\r\n"
                                 "Content-Type: application/sdp\r\n"
                                 "Content-Length: 107\r\n"
                                 "\r\n"
                                 "v=0\r\n"
                                 "o=- 1 1 IN IP4 10.0.0.1\r\n"
                                 "s=-\r\n"
                                 "c=IN IP4 10.0.0.1\r\n"
                                 "t=0 0\r\n"
                                 "m=audio 4000 RTP/AVP 0 8\r\n"
                                 "a=rtpmap:0 PCMU/8000\r\n";

/* compact forms, a folded header, a tag written last */
static const char response_compact[] = "SIP/2.0 180 Ringing\r\n"
                                       "v: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK-1\r\n"
                                       "f: <sip:alice@example.com>;tag=a1\r\n"
                                       "t: Bob <sip:bob@example.com>;tag=b2\r\n"
                                       "i: lean-1@10.0.0.1\r\n"
                                       "CSeq: 1 INVITE\r\n"
                                       "Server: far end\r\n"
                                       "X-Folded: first\r\n"
                                       "  second\r\n"
                                       "\tthird\r\n"
                                       "m: <sip:bob@10.0.0.2>\r\n"
                                       "l: 0\r\n"
                                       "\r\n";

static const char info_dtmf[] = "INFO sip:bob@10.0.0.2 SIP/2.0\r\n"
                                "Via: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK-2\r\n"
                                "From: <sip:alice@example.com>;tag=a1\r\n"
                                "To: <sip:bob@example.com>;tag=b2\r\n"
                                "Call-ID: lean-1@10.0.0.1\r\n"
                                "CSeq: 2 INFO\r\n"
                                "Content-Type: application/dtmf-relay\r\n"
                                "Content-Length: 24\r\n"
                                "\r\n"
                                "Signal=5\r\nDuration=160\r\n";

/* odd bytes, an unknown method, a Content-Length past the end */
static const char odd_request[] = "FROB sip:x@y SIP/2.0\r\n"
                                  "Call-ID: odd\xff\x01@host\r\n"
                                  "From: <sip:\xc3\xa9@example.com>;tag=z\r\n"
                                  "Weird Name: kept?\r\n"
                                  "CSeq: 9 FROB\r\n"
                                  "Content-Length: 500\r\n"
                                  "\r\n"
                                  "short body";

/* the end of the headers is missing */
static const char cut_request[] = "OPTIONS sip:x@y SIP/2.0\r\n"
                                  "Call-ID: cut\r\n"
                                  "Via: SIP/2.0/UDP h;branch=z9hG4bK-c";

static void
assert_same_string (const char *a, const char *b)
{
  g_assert_cmpstr (a, ==, b);
}

static void
assert_same_message (const CsSipMessage *lean, const CsSipMessage *full)
{
  const char *names[] = { "Call-ID",      "i",        "via",        "From",     "t",
                          "content-type", "X-Folded", "Weird Name", "X-Missing" };
  const GPtrArray *a = cs_sip_message_get_headers (lean), *b = cs_sip_message_get_headers (full);
  gsize la, lb;
  const char *ba, *bb;

  g_assert_cmpint (cs_sip_message_is_request (lean), ==, cs_sip_message_is_request (full));
  g_assert_cmpuint (cs_sip_message_get_status_code (lean), ==,
                    cs_sip_message_get_status_code (full));
  g_assert_cmpint (cs_sip_message_get_method (lean), ==, cs_sip_message_get_method (full));
  g_assert_cmpuint (cs_sip_message_get_cseq (lean), ==, cs_sip_message_get_cseq (full));
  g_assert_cmpint (cs_sip_message_get_cseq_method (lean), ==,
                   cs_sip_message_get_cseq_method (full));
  g_assert_cmpint (cs_sip_message_get_content_length (lean), ==,
                   cs_sip_message_get_content_length (full));
  assert_same_string (cs_sip_message_get_method_name (lean), cs_sip_message_get_method_name (full));
  assert_same_string (cs_sip_message_get_request_uri (lean), cs_sip_message_get_request_uri (full));
  assert_same_string (cs_sip_message_get_reason (lean), cs_sip_message_get_reason (full));
  assert_same_string (cs_sip_message_get_call_id (lean), cs_sip_message_get_call_id (full));
  assert_same_string (cs_sip_message_get_from (lean), cs_sip_message_get_from (full));
  assert_same_string (cs_sip_message_get_from_tag (lean), cs_sip_message_get_from_tag (full));
  assert_same_string (cs_sip_message_get_from_user (lean), cs_sip_message_get_from_user (full));
  assert_same_string (cs_sip_message_get_from_display (lean),
                      cs_sip_message_get_from_display (full));
  assert_same_string (cs_sip_message_get_to (lean), cs_sip_message_get_to (full));
  assert_same_string (cs_sip_message_get_to_tag (lean), cs_sip_message_get_to_tag (full));
  assert_same_string (cs_sip_message_get_to_user (lean), cs_sip_message_get_to_user (full));
  assert_same_string (cs_sip_message_get_to_display (lean), cs_sip_message_get_to_display (full));
  assert_same_string (cs_sip_message_get_cseq_method_name (lean),
                      cs_sip_message_get_cseq_method_name (full));
  assert_same_string (cs_sip_message_get_via_branch (lean), cs_sip_message_get_via_branch (full));
  assert_same_string (cs_sip_message_get_user_agent (lean), cs_sip_message_get_user_agent (full));
  assert_same_string (cs_sip_message_get_contact (lean), cs_sip_message_get_contact (full));
  assert_same_string (cs_sip_message_get_content_type (lean),
                      cs_sip_message_get_content_type (full));
  assert_same_string (cs_sip_message_get_malformed (lean), cs_sip_message_get_malformed (full));
  g_assert_true ((cs_sip_message_get_sdp (lean) == NULL)
                 == (cs_sip_message_get_sdp (full) == NULL));
  if (cs_sip_message_get_sdp (lean) != NULL)
    {
      g_assert_cmpuint (cs_sip_message_get_sdp (lean)->media->len, ==,
                        cs_sip_message_get_sdp (full)->media->len);
      g_assert_cmpstr (cs_sip_message_get_sdp (lean)->origin_username, ==,
                       cs_sip_message_get_sdp (full)->origin_username);
    }

  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      const CsSipHeader *ha = a->pdata[i], *hb = b->pdata[i];
      g_assert_cmpstr (ha->name, ==, hb->name);
      g_assert_cmpstr (ha->value, ==, hb->value);
    }
  g_assert_true (cs_sip_message_get_headers (lean) == a); /* cached */
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_assert_cmpstr (cs_sip_message_get_header (lean, names[i]), ==,
                     cs_sip_message_get_header (full, names[i]));
  ba = cs_sip_message_get_body (lean, &la);
  bb = cs_sip_message_get_body (full, &lb);
  g_assert_cmpuint (la, ==, lb);
  g_assert_cmpmem (ba, la + 1, bb, lb + 1); /* with the terminating NUL */
}

/* Each text at an offset inside a larger block, as in a capture file. */
static void
test_reads_back (void)
{
  /* long values: the strings are staged beyond the stack */
  g_autoptr (GString) long_values = g_string_new ("MESSAGE sip:x@y SIP/2.0\r\nCall-ID: ");
  for (guint i = 0; i < 3000; i++)
    g_string_append_c (long_values, 'a' + i % 26);
  g_string_append (long_values, "\r\nFrom: <sip:");
  for (guint i = 0; i < 3000; i++)
    g_string_append_c (long_values, 'b');
  g_string_append (long_values, "@h>;tag=t\r\nUser-Agent: ");
  /* past 32 KiB: strings further from the struct than 15 bits reach */
  for (guint i = 0; i < 40000; i++)
    g_string_append_c (long_values, 'u');
  g_string_append (long_values, "\r\nCSeq: 1 MESSAGE\r\n\r\n");
  const char *texts[]
      = { invite_sdp, response_compact, info_dtmf, odd_request, cut_request, long_values->str };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      gsize len = strlen (texts[i]);
      guint8 *block = g_malloc (len + 64);
      memset (block, 'Z', len + 64);
      memcpy (block + 40, texts[i], len);
      CsMappedBytes *bytes = cs_mapped_bytes_new_take (block, len + 64);
      g_autoptr (CsSipMessage) full = cs_sip_message_parse ((const guint8 *) texts[i], len, NULL);
      g_autoptr (CsSipMessage) lean = cs_sip_message_parse_mapped (bytes, NULL, block + 40, len);

      g_assert_nonnull (full);
      g_assert_nonnull (lean);
      g_assert_cmpuint (cs_sip_message_get_offset (lean), ==, 40);
      /* the message keeps the block alive */
      cs_mapped_bytes_unref (bytes);
      assert_same_message (lean, full);
    }
}

/* Text outside the block, or not SIP, is parsed as usual. */
static void
test_outside (void)
{
  guint8 block[16] = { 0 };
  g_autoptr (CsMappedBytes) bytes = cs_mapped_bytes_new_take (g_memdup2 (block, 16), 16);
  gsize len = strlen (info_dtmf);
  g_autoptr (CsSipMessage) msg
      = cs_sip_message_parse_mapped (bytes, NULL, (const guint8 *) info_dtmf, len);
  g_autoptr (CsSipMessage) full = cs_sip_message_parse ((const guint8 *) info_dtmf, len, NULL);

  g_assert_cmpuint (cs_sip_message_get_offset (msg), ==, 0);
  assert_same_message (msg, full);
  g_assert_null (cs_sip_message_parse_mapped (bytes, NULL, bytes->data, 16));
}

/* Bytes that changed under the message give no headers rather than wrong ones. */
static void
test_changed_bytes (void)
{
  gsize len = strlen (invite_sdp);
  guint8 *block = g_memdup2 (invite_sdp, len);
  g_autoptr (CsMappedBytes) bytes = cs_mapped_bytes_new_take (block, len);
  g_autoptr (CsSipMessage) lean = cs_sip_message_parse_mapped (bytes, NULL, block, len);
  gsize body_len;
  const char *at = g_strstr_len ((char *) block, len, "lean-1");

  memcpy (block + (at - (char *) block), "XXXX", 4);
  g_assert_cmpstr (cs_sip_message_get_call_id (lean), ==, "lean-1@10.0.0.1");
  g_assert_cmpuint (cs_sip_message_get_headers (lean)->len, ==, 0);
  g_assert_null (cs_sip_message_get_header (lean, "Call-ID"));
  g_assert_cmpstr (cs_sip_message_get_body (lean, &body_len), ==, "");
  g_assert_cmpuint (body_len, ==, 0);
}

/* The fields the load reads are kept; the ones only detail views read (Request-URI,
 * Contact, display names) come from a parse of the bytes on first request. */
static void
test_detail_fields_reread (void)
{
  gsize len = strlen (invite_sdp);
  g_autoptr (CsMappedBytes) bytes = cs_mapped_bytes_new_take (g_memdup2 (invite_sdp, len), len);
  g_autoptr (CsSipMessage) lean = cs_sip_message_parse_mapped (bytes, NULL, bytes->data, len);

  /* a compact struct: offsets, not pointers */
  g_assert_cmpuint (sizeof (CsSipMessage), <=, 168);
  g_assert_cmpstr (cs_sip_message_get_method_name (lean), ==, "INVITE");
  g_assert_cmpstr (cs_sip_message_get_cseq_method_name (lean), ==, "INVITE");
  g_assert_cmpstr (cs_sip_message_get_call_id (lean), ==, "lean-1@10.0.0.1");
  g_assert_cmpstr (cs_sip_message_get_from_tag (lean), ==, "a1");
  g_assert_cmpstr (cs_sip_message_get_user_agent (lean), ==, "tester 1.0");
  g_assert_cmpstr (cs_sip_message_get_via_branch (lean), ==, "z9hG4bK-1");
  g_assert_null (lean->priv_headers_view); /* nothing parsed again yet */
  g_assert_cmpstr (cs_sip_message_get_contact (lean), ==, "<sip:alice@10.0.0.1>");
  g_assert_nonnull (lean->priv_headers_view);
  g_assert_cmpstr (cs_sip_message_get_from_display (lean), ==, "Al \"the\" Ice");
  g_assert_null (cs_sip_message_get_to_display (lean));
  g_assert_cmpstr (cs_sip_message_get_request_uri (lean), ==, "sip:bob@example.com");
  /* common values are constants, not copies */
  g_assert_cmpstr (cs_sip_message_get_content_type (lean), ==, "application/sdp");
  g_assert_cmpuint (lean->priv_strings[CS_SIP_FIELD_CONTENT_TYPE], <=, CS_SIP_STRING_SPECIAL);
}

/* A donor whose strings lie past what 15 bits reach (a 33 KB reason phrase first) still
 * gives equal strings to the next message of its call, which then keeps its own. */
static void
test_far_donor (void)
{
  g_autoptr (GString) first = g_string_new ("SIP/2.0 200 ");
  for (guint i = 0; i < 33000; i++)
    g_string_append_c (first, 'r');
  g_string_append (first, "\r\nVia: SIP/2.0/UDP h;branch=z9hG4bK-far\r\n"
                          "From: <sip:a@h>;tag=fa\r\nTo: <sip:b@h>;tag=fb\r\n"
                          "Call-ID: far-1@h\r\nCSeq: 1 INVITE\r\n\r\n");
  const char *second = "ACK sip:b@h SIP/2.0\r\nVia: SIP/2.0/UDP h;branch=z9hG4bK-far\r\n"
                       "From: <sip:a@h>;tag=fa\r\nTo: <sip:b@h>;tag=fb\r\n"
                       "Call-ID: far-1@h\r\nCSeq: 1 ACK\r\n\r\n";
  g_autoptr (GByteArray) b = g_byte_array_new ();
  CsSipShare *share = cs_sip_share_new ();

  put_bytes (b, first->str, first->len);
  put_bytes (b, second, strlen (second));
  gsize size = b->len;
  g_autoptr (CsMappedBytes) bytes = cs_mapped_bytes_new_take (g_byte_array_steal (b, NULL), size);
  g_autoptr (CsSipMessage) lean0
      = cs_sip_message_parse_mapped (bytes, share, bytes->data, first->len);
  g_autoptr (CsSipMessage) lean1
      = cs_sip_message_parse_mapped (bytes, share, bytes->data + first->len, strlen (second));
  g_autoptr (CsSipMessage) full0
      = cs_sip_message_parse ((const guint8 *) first->str, first->len, NULL);
  g_autoptr (CsSipMessage) full1
      = cs_sip_message_parse ((const guint8 *) second, strlen (second), NULL);
  cs_sip_share_free (share);

  assert_same_message (lean0, full0);
  assert_same_message (lean1, full1);
  g_assert_cmpstr (cs_sip_message_get_call_id (lean1), ==, "far-1@h");
  g_assert_cmpstr (cs_sip_message_get_to_tag (lean1), ==, "fb");
  g_assert_cmpuint (strlen (cs_sip_message_get_reason (lean0)), ==, 33000);
}

static const char bye_reversed[] = "BYE sip:alice@10.0.0.1 SIP/2.0\r\n"
                                   "Via: SIP/2.0/UDP 10.0.0.2:5060;branch=z9hG4bK-9\r\n"
                                   "From: Bob <sip:bob@example.com>;tag=b2\r\n"
                                   "To: <sip:alice@example.com>;tag=a1\r\n"
                                   "Call-ID: lean-1@10.0.0.1\r\n"
                                   "CSeq: 7 BYE\r\n"
                                   "Content-Length: 0\r\n"
                                   "\r\n";

/* Messages of one call parsed through a share point at the first one's strings where
 * they are equal, even From and To swapped, and read back as an ordinary parse. */
static void
test_shared_strings (void)
{
  const char *texts[] = { invite_sdp, response_compact, info_dtmf, bye_reversed, odd_request };
  CsSipMessage *lean[G_N_ELEMENTS (texts)];
  g_autoptr (GByteArray) b = g_byte_array_new ();
  gsize at[G_N_ELEMENTS (texts)];
  CsSipShare *share = cs_sip_share_new ();

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      at[i] = b->len;
      put_bytes (b, texts[i], strlen (texts[i]));
    }
  gsize size = b->len;
  g_autoptr (CsMappedBytes) bytes = cs_mapped_bytes_new_take (g_byte_array_steal (b, NULL), size);
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    lean[i] = cs_sip_message_parse_mapped (bytes, share, bytes->data + at[i], strlen (texts[i]));
  cs_sip_share_free (share);

  g_assert_true (cs_sip_message_get_call_id (lean[1]) == cs_sip_message_get_call_id (lean[0]));
  g_assert_true (cs_sip_message_get_via_branch (lean[1])
                 == cs_sip_message_get_via_branch (lean[0]));
  g_assert_true (cs_sip_message_get_to_user (lean[1]) == cs_sip_message_get_to_user (lean[0]));
  g_assert_false (cs_sip_message_get_from (lean[1])
                  == cs_sip_message_get_from (lean[0])); /* differs: no display name */
  g_assert_true (cs_sip_message_get_from_user (lean[2]) == cs_sip_message_get_from_user (lean[0]));
  g_assert_true (cs_sip_message_get_to_user (lean[3])
                 == cs_sip_message_get_from_user (lean[0])); /* the other way round */
  g_assert_false (cs_sip_message_get_from (lean[3])
                  == cs_sip_message_get_to (lean[0])); /* differs: Bob and a tag */
  g_assert_false (cs_sip_message_get_call_id (lean[4])
                  == cs_sip_message_get_call_id (lean[0])); /* another call */
  /* the first message goes first: the others keep its strings alive */
  cs_sip_message_unref (lean[0]);
  for (guint i = 1; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr (CsSipMessage) full
          = cs_sip_message_parse ((const guint8 *) texts[i], strlen (texts[i]), NULL);
      assert_same_message (lean[i], full);
      cs_sip_message_unref (lean[i]);
    }
}

/* A user or tag read from a From/To that is the donor's (its From, or its To the other
 * way round) is the donor's one read from that same header. */
static void
test_shared_address_parts (void)
{
  const char *texts[] = {
    "INVITE sip:bob@example.com SIP/2.0\r\nVia: SIP/2.0/UDP 10.0.0.1;branch=z9hG4bK-1\r\n"
    "From: \"Alice\" <sip:alice@example.com>;tag=a1\r\nTo: <sip:bob@example.com>;tag=b1\r\n"
    "Call-ID: parts@h\r\nCSeq: 1 INVITE\r\nContent-Length: 0\r\n\r\n",
    "ACK sip:bob@example.com SIP/2.0\r\nVia: SIP/2.0/UDP 10.0.0.1;branch=z9hG4bK-2\r\n"
    "From: \"Alice\" <sip:alice@example.com>;tag=a1\r\nTo: <sip:bob@example.com>;tag=b2\r\n"
    "Call-ID: parts@h\r\nCSeq: 1 ACK\r\nContent-Length: 0\r\n\r\n",
    "BYE sip:alice@example.com SIP/2.0\r\nVia: SIP/2.0/UDP 10.0.0.2;branch=z9hG4bK-3\r\n"
    "From: <sip:bob@example.com>;tag=b1\r\nTo: \"Alice\" <sip:alice@example.com>;tag=a1\r\n"
    "Call-ID: parts@h\r\nCSeq: 2 BYE\r\nContent-Length: 0\r\n\r\n",
  };
  CsSipMessage *lean[G_N_ELEMENTS (texts)];
  g_autoptr (GByteArray) b = g_byte_array_new ();
  gsize at[G_N_ELEMENTS (texts)];
  CsSipShare *share = cs_sip_share_new ();

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      at[i] = b->len;
      put_bytes (b, texts[i], strlen (texts[i]));
    }
  gsize size = b->len;
  g_autoptr (CsMappedBytes) bytes = cs_mapped_bytes_new_take (g_byte_array_steal (b, NULL), size);
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    lean[i] = cs_sip_message_parse_mapped (bytes, share, bytes->data + at[i], strlen (texts[i]));
  cs_sip_share_free (share);

  /* same From: its user and tag */
  g_assert_true (cs_sip_message_get_from_user (lean[1]) == cs_sip_message_get_from_user (lean[0]));
  g_assert_true (cs_sip_message_get_from_tag (lean[1]) == cs_sip_message_get_from_tag (lean[0]));
  g_assert_cmpstr (cs_sip_message_get_to_tag (lean[1]), ==, "b2"); /* its own To */
  g_assert_true (cs_sip_message_get_to_user (lean[1]) == cs_sip_message_get_to_user (lean[0]));
  /* the other way round: From is the donor's To, To its From */
  g_assert_true (cs_sip_message_get_from_user (lean[2]) == cs_sip_message_get_to_user (lean[0]));
  g_assert_true (cs_sip_message_get_from_tag (lean[2]) == cs_sip_message_get_to_tag (lean[0]));
  g_assert_true (cs_sip_message_get_to_user (lean[2]) == cs_sip_message_get_from_user (lean[0]));
  g_assert_true (cs_sip_message_get_to_tag (lean[2]) == cs_sip_message_get_from_tag (lean[0]));
  g_assert_cmpstr (cs_sip_message_get_from_user (lean[2]), ==, "bob");
  g_assert_cmpstr (cs_sip_message_get_to_tag (lean[2]), ==, "a1");
  cs_sip_message_unref (lean[0]);
  for (guint i = 1; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr (CsSipMessage) full
          = cs_sip_message_parse ((const guint8 *) texts[i], strlen (texts[i]), NULL);
      assert_same_message (lean[i], full);
      cs_sip_message_unref (lean[i]);
    }
}

/* A message of other bytes never shares: its donor would hold the wrong bytes. */
static void
test_share_other_bytes (void)
{
  gsize len = strlen (invite_sdp);
  CsSipShare *share = cs_sip_share_new ();
  CsMappedBytes *one = cs_mapped_bytes_new_take (g_memdup2 (invite_sdp, len), len);
  CsMappedBytes *two = cs_mapped_bytes_new_take (g_memdup2 (invite_sdp, len), len);
  CsSipMessage *first = cs_sip_message_parse_mapped (one, share, one->data, len);
  CsSipMessage *second = cs_sip_message_parse_mapped (two, share, two->data, len);
  CsSipMessage *third = cs_sip_message_parse_mapped (two, share, two->data, len);

  cs_sip_share_free (share);
  g_assert_false (cs_sip_message_get_call_id (second) == cs_sip_message_get_call_id (first));
  g_assert_true (cs_sip_message_get_call_id (third)
                 == cs_sip_message_get_call_id (second)); /* the newer one took the slot */
  cs_sip_message_unref (first);
  cs_sip_message_unref (second); /* third keeps it, and the bytes */
  cs_mapped_bytes_unref (one);
  cs_mapped_bytes_unref (two);
  g_autoptr (CsSipMessage) full = cs_sip_message_parse ((const guint8 *) invite_sdp, len, NULL);
  assert_same_message (third, full);
  cs_sip_message_unref (third);
}

/* Ethernet + IPv4 + UDP around a SIP text. */
static void
put_udp_frame (GByteArray *b, const char *sip, guint32 ts)
{
  static const guint8 eth[14] = { 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 6, 0x08, 0x00 };
  gsize len = strlen (sip);
  guint16 ip_len = (guint16) (20 + 8 + len), udp_len = (guint16) (8 + len);
  guint8 ip[20]
      = { 0x45, 0, ip_len >> 8, ip_len & 0xff, 0, 1, 0, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2 };
  guint8 udp[8] = { 0x13, 0xc4, 0x13, 0xc4, udp_len >> 8, udp_len & 0xff, 0, 0 };

  put_u32 (b, FALSE, ts);
  put_u32 (b, FALSE, 0);
  put_u32 (b, FALSE, (guint32) (14 + ip_len));
  put_u32 (b, FALSE, (guint32) (14 + ip_len));
  put_bytes (b, eth, sizeof eth);
  put_bytes (b, ip, sizeof ip);
  put_bytes (b, udp, sizeof udp);
  put_bytes (b, sip, len);
}

/* A message of an analysis stays readable after the analysis and its capture are gone. */
static void
test_outlives_capture (void)
{
  g_autoptr (GByteArray) b = g_byte_array_new ();
  g_autofree char *dir = g_dir_make_tmp ("cs-sip-lean-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "lean.pcap", NULL);
  g_autoptr (CsLoader) loader = cs_loader_new ();
  g_autoptr (GError) error = NULL;
  const char *files[] = { path, NULL };
  guint64 invite_at;

  pcap_header (b, FALSE, FALSE, 65535, 1);
  put_udp_frame (b, invite_sdp, 1000);
  invite_at = b->len - strlen (invite_sdp);
  put_udp_frame (b, response_compact, 1001);
  put_udp_frame (b, info_dtmf, 1002);
  g_assert_true (g_file_set_contents (path, (const char *) b->data, b->len, NULL));

  CsAnalysis *analysis = cs_loader_load (loader, files, NULL, &error);
  g_assert_no_error (error);
  GListModel *calls = cs_analysis_get_calls (analysis);
  g_assert_cmpuint (g_list_model_get_n_items (calls), ==, 1);
  CsCall *call = g_list_model_get_item (calls, 0);
  g_assert_cmpuint (cs_call_get_n_messages (call), ==, 3);
  CsSipMessage *invite = cs_sip_message_ref ((CsSipMessage *) cs_call_get_message (call, 0));
  CsSipMessage *info = cs_sip_message_ref ((CsSipMessage *) cs_call_get_message (call, 2));
  g_object_unref (call);
  g_object_unref (analysis);
  g_assert_cmpint (g_unlink (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);

  g_assert_cmpuint (cs_sip_message_get_offset (invite), ==, invite_at);
  g_assert_true (cs_sip_message_get_call_id (info)
                 == cs_sip_message_get_call_id (invite)); /* through the capture's share */
  g_autoptr (CsSipMessage) full
      = cs_sip_message_parse ((const guint8 *) invite_sdp, strlen (invite_sdp), NULL);
  assert_same_message (invite, full);
  g_autoptr (CsSipMessage) full_info
      = cs_sip_message_parse ((const guint8 *) info_dtmf, strlen (info_dtmf), NULL);
  assert_same_message (info, full_info);
  cs_sip_message_unref (invite);
  cs_sip_message_unref (info);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sip-lean/reads-back", test_reads_back);
  g_test_add_func ("/sip-lean/outside", test_outside);
  g_test_add_func ("/sip-lean/shared-strings", test_shared_strings);
  g_test_add_func ("/sip-lean/shared-address-parts", test_shared_address_parts);
  g_test_add_func ("/sip-lean/share-other-bytes", test_share_other_bytes);
  g_test_add_func ("/sip-lean/changed-bytes", test_changed_bytes);
  g_test_add_func ("/sip-lean/detail-fields-reread", test_detail_fields_reread);
  g_test_add_func ("/sip-lean/far-donor", test_far_donor);
  g_test_add_func ("/sip-lean/outlives-capture", test_outlives_capture);
  return g_test_run ();
}
