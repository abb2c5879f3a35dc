/* test-sip-clean-head.c — a lean message's head read in place (cs_sip_read_clean_head)
 * gives what the general readers give, takes only the heads it should, and never reads
 * past the message */
#include <string.h>

#include "base/cs-mapped-bytes.h"
#include "sip/cs-sip-header-read.h"
#include "sip/cs-sip-message-private.h"
#include "sip/cs-sip-message.h"

static const char *const bases[] = {
  "INVITE sip:2000000@192.168.2.20:5060 SIP/2.0\r\n"
  "Via: SIP/2.0/UDP 192.168.1.10:5060;branch=z9hG4bK7b1dcdaf0.1\r\n"
  "Max-Forwards: 70\r\n"
  "From: \"Caller 1000000\" <sip:1000000@192.168.1.10>;tag=f0\r\n"
  "To: <sip:2000000@192.168.2.20>\r\n"
  "Call-ID: 7b1dcdaf-0@bench.example.com\r\n"
  "CSeq: 1 INVITE\r\n"
  "Contact: <sip:1000000@192.168.1.10:5060>\r\n"
  "User-Agent: callscope-bench/1.0\r\n"
  "Content-Type: application/sdp\r\n"
  "Content-Length: 30\r\n"
  "\r\n"
  "v=0\r\no=- 0 1 IN IP4 10.1.0.1\r\n",
  "SIP/2.0 180 Ringing\r\n"
  "v: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK-1\r\n"
  "f: <sip:alice@example.com>;tag=a1\r\n"
  "t: Bob <sip:bob@example.com>;tag=b2\r\n"
  "i: lean-1@10.0.0.1\r\n"
  "CSeq: 1 INVITE\r\n"
  "Server: far end  \r\n"
  "X-Long-Header-Name-Here:\tvalue\t with tabs \r\n"
  "m: <sip:bob@10.0.0.2>\r\n"
  "l: 0\r\n"
  "\r\n",
  "FROB sip:x@y SIP/2.0\n"
  "Call-ID:odd@host\n"
  "From: <sip:a@example.com>;tag=z\n"
  "P-Asserted-Identity: <sip:pai@example.com>\n"
  "CSeq: 9 FROB\n"
  "Content-Length: 500\n"
  "\n"
  "short body",
  "SIP/2.0 200\r\nCall-ID: c\r\nCSeq: 2 BYE\r\nContent-Length: 0\r\n\r\n",
};

/* Bytes that change how a head reads: line ends, folding, colons, odd bytes. */
static const char mutations[] = " \t:\r\n\x01\xff\xc3;<>\"\\@=aZ9";

static void
assert_same_fields (const CsSipMessage *a, const CsSipMessage *b)
{
  g_assert_cmpint (a->is_request, ==, b->is_request);
  g_assert_cmpuint (a->status_code, ==, b->status_code);
  g_assert_cmpint (a->method, ==, b->method);
  g_assert_cmpuint (a->cseq, ==, b->cseq);
  g_assert_cmpint (a->cseq_method, ==, b->cseq_method);
  g_assert_cmpint (a->content_length, ==, b->content_length);
  g_assert_cmpstr (cs_sip_message_get_method_name (a), ==, cs_sip_message_get_method_name (b));
  g_assert_cmpstr (cs_sip_message_get_request_uri (a), ==, cs_sip_message_get_request_uri (b));
  g_assert_cmpstr (cs_sip_message_get_reason (a), ==, cs_sip_message_get_reason (b));
  g_assert_cmpstr (cs_sip_message_get_call_id (a), ==, cs_sip_message_get_call_id (b));
  g_assert_cmpstr (cs_sip_message_get_from (a), ==, cs_sip_message_get_from (b));
  g_assert_cmpstr (cs_sip_message_get_from_tag (a), ==, cs_sip_message_get_from_tag (b));
  g_assert_cmpstr (cs_sip_message_get_from_user (a), ==, cs_sip_message_get_from_user (b));
  g_assert_cmpstr (cs_sip_message_get_from_display (a), ==, cs_sip_message_get_from_display (b));
  g_assert_cmpstr (cs_sip_message_get_to (a), ==, cs_sip_message_get_to (b));
  g_assert_cmpstr (cs_sip_message_get_to_tag (a), ==, cs_sip_message_get_to_tag (b));
  g_assert_cmpstr (cs_sip_message_get_to_user (a), ==, cs_sip_message_get_to_user (b));
  g_assert_cmpstr (cs_sip_message_get_to_display (a), ==, cs_sip_message_get_to_display (b));
  g_assert_cmpstr (cs_sip_message_get_cseq_method_name (a), ==,
                   cs_sip_message_get_cseq_method_name (b));
  g_assert_cmpstr (cs_sip_message_get_via_branch (a), ==, cs_sip_message_get_via_branch (b));
  g_assert_cmpstr (cs_sip_message_get_user_agent (a), ==, cs_sip_message_get_user_agent (b));
  g_assert_cmpstr (cs_sip_message_get_contact (a), ==, cs_sip_message_get_contact (b));
  g_assert_cmpstr (cs_sip_message_get_content_type (a), ==, cs_sip_message_get_content_type (b));
  g_assert_cmpstr (cs_sip_message_get_malformed (a), ==, cs_sip_message_get_malformed (b));
  g_assert_true ((a->sdp == NULL) == (b->sdp == NULL));
}

/* The text parsed lean from a block that ends where it ends (any read past it would go
 * past the allocation) and parsed as usual give the same fields. */
static void
assert_lean_same (const char *text, gsize len)
{
  g_autoptr (CsMappedBytes) bytes = cs_mapped_bytes_new_take (g_memdup2 (text, len), len);
  g_autoptr (CsSipMessage) lean
      = cs_sip_message_parse_mapped (bytes, NULL, cs_mapped_bytes_get_data (bytes), len);
  g_autoptr (CsSipMessage) full = cs_sip_message_parse ((const guint8 *) text, len, NULL);

  g_assert_true ((lean == NULL) == (full == NULL));
  if (lean != NULL)
    assert_same_fields (lean, full);
}

/* Reads text's head in place; TRUE when it was clean. */
static gboolean
read_clean (const char *text, CsSipStartLine *start, guint *n, gsize *head_len)
{
  CsSipFirstHeaders first;
  CsSipScratch s = { g_malloc (16), 16, 0 };
  CsSipParsed msg = { 0 };
  gboolean clean;

  start->method_name = start->request_uri = start->reason = G_MAXSIZE;
  cs_sip_header_ids_init ();
  clean = cs_sip_read_clean_head (&msg, &s, (const guint8 *) text, strlen (text), FALSE, start,
                                  &first, n, head_len);
  g_assert_cmpuint (s.used, ==, clean ? *head_len : 0);
  g_free (s.data);
  return clean;
}

static void
test_taken (void)
{
  CsSipStartLine start;
  guint n;
  gsize head_len;

  g_assert_true (read_clean (bases[0], &start, &n, &head_len));
  g_assert_cmpuint (n, ==, 10);
  g_assert_cmpuint (head_len, ==, (gsize) (strstr (bases[0], "\r\n\r\n") + 4 - bases[0]));
  g_assert_cmpuint (start.request_uri, ==, 7);
  g_assert_true (read_clean (bases[1], &start, &n, &head_len));
  g_assert_cmpuint (start.reason, ==, 12);
  g_assert_true (read_clean (bases[2], &start, &n, &head_len));
  g_assert_cmpuint (start.method_name, ==, 0);
  g_assert_true (read_clean (bases[3], &start, &n, &head_len));

  /* what the general readers note or transform */
  static const char *const general[] = {
    "INVITE sip:a@b SIP/2.0\r\nX-Folded: a\r\n  b\r\n\r\n",
    "INVITE sip:a@b SIP/2.0\r\nCall-ID: caf\xc3\xa9\r\n\r\n",
    "INVITE sip:a@b SIP/2.0\r\nNo colon here\r\n\r\n",
    "INVITE sip:a@b SIP/2.0\r\nName : spaced\r\n\r\n",
    "INVITE sip:a@b SIP/2.0\r\nBad[name]: x\r\n\r\n",
    "INVITE sip:a@b SIP/2.0\r\nCall-ID: cut\r\n",
    "INVITE  sip:a@b SIP/2.0\r\n\r\n",
    "SIP/2.0 099 Low\r\n\r\n",
    "SIP/2.0 1000 Long\r\n\r\n",
    "\r\nINVITE sip:a@b SIP/2.0\r\n\r\n",
  };
  for (guint i = 0; i < G_N_ELEMENTS (general); i++)
    g_assert_false (read_clean (general[i], &start, &n, &head_len));
}

/* Every base, cut at every length and with random bytes changed, reads the same lean. */
static void
test_same_as_general (void)
{
  GRand *rand = g_rand_new_with_seed (11);

  for (guint b = 0; b < G_N_ELEMENTS (bases); b++)
    {
      gsize len = strlen (bases[b]);

      for (gsize cut = 1; cut <= len; cut++)
        assert_lean_same (bases[b], cut);
      for (guint i = 0; i < 4000; i++)
        {
          g_autofree char *text = g_strdup (bases[b]);
          guint changes = (guint) g_rand_int_range (rand, 1, 4);

          for (guint k = 0; k < changes; k++)
            text[g_rand_int_range (rand, 0, (gint32) len)]
                = mutations[g_rand_int_range (rand, 0, sizeof mutations - 1)];
          assert_lean_same (text, len);
        }
    }
  g_rand_free (rand);
}

/* Many headers: the last one over CS_SIP_MAX_HEADERS takes the general reader. */
static void
test_many_headers (void)
{
  for (guint count = CS_SIP_MAX_HEADERS - 1; count <= CS_SIP_MAX_HEADERS + 1; count++)
    {
      g_autoptr (GString) text = g_string_new ("OPTIONS sip:a@b SIP/2.0\r\n");
      for (guint i = 0; i < count; i++)
        g_string_append_printf (text, "X-H%u: %u\r\n", i, i);
      g_string_append (text, "Call-ID: many\r\n\r\n");
      assert_lean_same (text->str, text->len);
    }
}

/* A value over CS_SIP_MAX_HEADER_VALUE (cut by the general reader) and one just under. */
static void
test_long_value (void)
{
  for (gsize n = CS_SIP_MAX_HEADER_VALUE - 1; n <= CS_SIP_MAX_HEADER_VALUE + 1; n++)
    {
      g_autoptr (GString) text = g_string_new ("MESSAGE sip:a@b SIP/2.0\r\nUser-Agent: ");
      for (gsize i = 0; i < n; i++)
        g_string_append_c (text, (char) ('a' + i % 26));
      g_string_append (text, "\r\nCall-ID: long\r\nCSeq: 1 MESSAGE\r\n\r\n");
      assert_lean_same (text->str, text->len);
    }
}

/* Header names in any case, near misses of the decoded ones (a letter's neighbour, a '-'
 * off by 0x20 = '\r'), each carrying a value every decoded header would read: the
 * lean head classifies them as the general readers do. */
static void
test_names (void)
{
  static const char *const names[] = {
    "Call-ID",
    "i",
    "From",
    "f",
    "To",
    "t",
    "CSeq",
    "Via",
    "v",
    "Contact",
    "m",
    "Content-Length",
    "l",
    "Content-Type",
    "c",
    "User-Agent",
    "Server",
    "Max-Forwards",
    "k",
    "X-Serialnumber",
    "P-Asserted-Identity",
    "Session-Expires",
    "Allow",
    "e",
  };
  GRand *rand = g_rand_new_with_seed (17);

  for (guint i = 0; i < 20000; i++)
    {
      g_autofree char *name = g_strdup (names[i % G_N_ELEMENTS (names)]);
      gsize len = strlen (name);

      for (gsize k = 0; k < len; k++)
        {
          guint r = (guint) g_rand_int_range (rand, 0, 16);
          if (r < 6 && g_ascii_isalpha (name[k]))
            name[k] ^= 0x20; /* the other case */
          else if (r == 6)
            name[k] ^= 0x20; /* '-' becomes '\r', a letter a symbol */
          else if (r == 7)
            name[k] = (char) (name[k] + 1);
        }
      g_autofree char *text = g_strdup_printf ("INVITE sip:a@b SIP/2.0\r\n"
                                               "Call-ID: base\r\n"
                                               "%s: 12 \"N\" <sip:u@h>;tag=t;branch=z9\r\n"
                                               "\r\n",
                                               name);
      assert_lean_same (text, strlen (text));
    }
  g_rand_free (rand);
}

/* Every byte at every place of other names 1 to 20 bytes long (the 16-byte check and the
 * byte loop past it): taken as a token exactly when the general reader takes it. */
static void
test_token_names (void)
{
  for (gsize len = 1; len <= 20; len++)
    for (gsize at = 0; at < len; at++)
      for (guint b = 1; b < 256; b++)
        {
          char name[21];
          memset (name, 'x', len);
          name[len] = '\0';
          name[at] = (char) b;
          g_autofree char *text = g_strdup_printf ("INVITE sip:a@b SIP/2.0\r\n"
                                                   "Call-ID: base\r\n"
                                                   "%s: v\r\n"
                                                   "\r\n",
                                                   name);
          assert_lean_same (text, strlen (text));
          /* a ':' only ends the name early, a '\n' first ends the head; any other byte
           * must be a token character */
          CsSipStartLine start;
          guint n;
          gsize head_len;
          gboolean token
              = cs_sip_is_token_char ((guint8) b) || (b == ':' && at > 0) || (b == '\n' && at == 0);
          g_assert_cmpint (read_clean (text, &start, &n, &head_len), ==, token);
        }
}

/* The chunk path's parse (start line already checked) gives the same message as the
 * checking one, on every text cs_sip_looks_like accepts. */
static void
test_start_checked (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (bases); i++)
    for (gsize at = 0; at < 24; at++)
      for (gsize m = 0; m < sizeof mutations - 1; m++)
        {
          g_autofree char *text = g_strdup (bases[i]);
          gsize len = strlen (text);
          text[at] = mutations[m];
          if (!cs_sip_looks_like ((const guint8 *) text, len))
            continue;
          g_autoptr (CsMappedBytes) bytes = cs_mapped_bytes_new_take (g_memdup2 (text, len), len);
          const guint8 *data = cs_mapped_bytes_get_data (bytes);
          g_autoptr (CsSipMessage) checked
              = cs_sip_message_parse_mapped_sip (bytes, NULL, data, len);
          g_autoptr (CsSipMessage) plain = cs_sip_message_parse_mapped (bytes, NULL, data, len);
          g_assert_nonnull (checked);
          g_assert_nonnull (plain);
          assert_same_fields (checked, plain);
        }
}

/* With several bad decoded values, the reason noted is that of the first in the message,
 * whatever the kinds (the decoding reads the first header of each kind, in a fixed order). */
static void
test_first_bad_noted (void)
{
  static const char *const lines[][2] = {
    { "CSeq: x INVITE\r\n", "bad CSeq" },
    { "From: <sip:a@b\r\n", "bad From" },
    { "t: \"open <sip:b@c>\r\n", "bad To" },
    { "Content-Length: x\r\n", "bad Content-Length" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (lines); i++)
    for (gsize k = 0; k < G_N_ELEMENTS (lines); k++)
      {
        if (i == k)
          continue;
        g_autofree char *text
            = g_strdup_printf ("INVITE sip:a@b SIP/2.0\r\nCall-ID: c\r\nVia: SIP/2.0/UDP h\r\n"
                               "%s%s\r\n",
                               lines[i][0], lines[k][0]);
        gsize len = strlen (text);
        g_autoptr (CsMappedBytes) bytes = cs_mapped_bytes_new_take (g_memdup2 (text, len), len);
        g_autoptr (CsSipMessage) lean
            = cs_sip_message_parse_mapped (bytes, NULL, cs_mapped_bytes_get_data (bytes), len);
        g_autoptr (CsSipMessage) full = cs_sip_message_parse ((const guint8 *) text, len, NULL);
        g_assert_cmpstr (cs_sip_message_get_malformed (lean), ==, lines[i][1]);
        g_assert_cmpstr (cs_sip_message_get_malformed (full), ==, lines[i][1]);
      }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sip-clean-head/taken", test_taken);
  g_test_add_func ("/sip-clean-head/same-as-general", test_same_as_general);
  g_test_add_func ("/sip-clean-head/many-headers", test_many_headers);
  g_test_add_func ("/sip-clean-head/names", test_names);
  g_test_add_func ("/sip-clean-head/long-value", test_long_value);
  g_test_add_func ("/sip-clean-head/token-names", test_token_names);
  g_test_add_func ("/sip-clean-head/start-checked", test_start_checked);
  g_test_add_func ("/sip-clean-head/first-bad-noted", test_first_bad_noted);
  return g_test_run ();
}
