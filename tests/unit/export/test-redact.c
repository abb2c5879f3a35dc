/* test-redact.c — redaction of SIP/SDP text and the replacement mapping: nothing original
 * left, documentation ranges only, relations kept, words of the same shape, Content-Length
 * following the body */
#include <gio/gio.h>
#include <string.h>

#include "export/cs-redact.h"
#include "sip/cs-sip-message.h"

static const char sip_invite[]
    = "INVITE sip:+4930123456@198.51.100.7 SIP/2.0\r\n"
      "Via: SIP/2.0/UDP pbx.corp-one.net:5060;branch=z9hG4bK776;received=10.1.2.3\r\n"
      "From: \"Alice Smith\" <sip:alice@corp-one.net>;tag=1928301774\r\n"
      "To: Bob <sip:+4930123456@carrier.de>\r\n"
      "Call-ID: a84b4c76e66710@pbx.corp-one.net\r\n"
      "CSeq: 314159 INVITE\r\n"
      "Contact: <sip:alice@[2001:4860::a1]:5060>\r\n"
      "Record-Route: <sip:edge7.carrier.de:5060;lr>\r\n"
      "P-Asserted-Identity: \"Alice Smith\" <tel:+4930999888>\r\n"
      "Authorization: Digest username=\"alice\", realm=\"corp-one.net\", "
      "nonce=\"84f1c1ae6cbe5ua8\", uri=\"sip:+4930123456@198.51.100.7\", "
      "response=\"6629fae49393a05397450978507c4ef1\"\r\n"
      "Content-Type: application/sdp\r\n"
      "Content-Length: 275\r\n"
      "\r\n"
      "v=0\r\n"
      "o=alice 2890844526 2890844526 IN IP4 10.1.2.3\r\n"
      "s=-\r\n"
      "c=IN IP4 10.1.2.3\r\n"
      "k=clear:secretkey\r\n"
      "m=audio 49170 RTP/SAVP 0\r\n"
      "a=crypto:1 AES_CM_128_HMAC_SHA1_80 "
      "inline:PS1uQCVeeCFCanVmcjkpPywjNWhcYD0mXXtxaVBR|2^20|1:32\r\n"
      "a=candidate:1 1 UDP 2130706431 81.2.69.160 49170 typ srflx\r\n";

static const char *const originals[] = {
  "alice",
  "Alice",
  "Smith",
  "4930123456",
  "4930999888",
  "198.51.100.7",
  "10.1.2.3",
  "2001:4860::a1",
  "81.2.69.160",
  "corp-one.net",
  "carrier.de",
  "1928301774",
  "84f1c1ae6cbe5ua8",
  "6629fae49393a05397450978507c4ef1",
  "PS1uQCVeeCFCanVmcjkpPywjNWhcYD0mXXtxaVBR",
  "secretkey",
  "edge7",
  "pbx",
};

/* Observes the text, seals, rewrites it: a NUL-terminated copy. */
static char *
redact (CsRedactor *r, const char *text)
{
  g_autoptr (GError) error = NULL;
  GByteArray *out;

  cs_redactor_observe_sip (r, text, strlen (text));
  g_assert_true (cs_redactor_seal (r, &error));
  g_assert_no_error (error);
  out = cs_redactor_rewrite_sip (r, text, strlen (text));
  g_byte_array_append (out, (const guint8 *) "", 1);
  return (char *) g_byte_array_free (out, FALSE);
}

static gboolean
in_doc_range (const CsAddr *a, guint8 *which)
{
  static const guint8 ranges[3][3] = { { 192, 0, 2 }, { 198, 51, 100 }, { 203, 0, 113 } };

  if (a->family == 6)
    return a->bytes[0] == 0x20 && a->bytes[1] == 0x01 && a->bytes[2] == 0x0d && a->bytes[3] == 0xb8;
  for (guint8 i = 0; i < 3; i++)
    if (memcmp (a->bytes, ranges[i], 3) == 0)
      {
        if (which != NULL)
          *which = i;
        return a->bytes[3] != 0 && a->bytes[3] != 255;
      }
  return FALSE;
}

/* An occurrence of s not inside a longer number or name. */
static gboolean
contains_token (const char *text, const char *s)
{
  for (const char *p = strstr (text, s); p != NULL; p = strstr (p + 1, s))
    {
      char before = p > text ? p[-1] : ' ', after = p[strlen (s)];

      if (!g_ascii_isalnum (before) && before != '.' && !g_ascii_isalnum (after))
        return TRUE;
    }
  return FALSE;
}

/* The value of a header in the text, or NULL. */
static char *
header_value (const char *text, const char *name)
{
  g_autofree char *needle = g_strdup_printf ("\r\n%s: ", name);
  const char *p = strstr (text, needle);

  if (p == NULL)
    return NULL;
  p += strlen (needle);
  return g_strndup (p, strcspn (p, "\r\n"));
}

static void
test_text_leaves_nothing (void)
{
  g_autoptr (CsRedactor) r = cs_redactor_new ();
  g_autofree char *out = redact (r, sip_invite);
  g_autofree char *cl = header_value (out, "Content-Length");
  g_autofree char *pai = header_value (out, "P-Asserted-Identity");
  const char *body = strstr (out, "\r\n\r\n");
  const char *alice = cs_redactor_map_word (r, "alice", 5);

  for (guint i = 0; i < G_N_ELEMENTS (originals); i++)
    if (strstr (out, originals[i]) != NULL)
      g_error ("'%s' left in:\n%s", originals[i], out);
  /* Structure kept: the start line, header names, CSeq, SDP lines, crypto parameters. */
  g_assert_true (g_str_has_prefix (out, "INVITE sip:+"));
  g_assert_nonnull (strstr (out, "\r\nCSeq: 314159 INVITE\r\n"));
  g_assert_nonnull (strstr (out, "m=audio 49170 RTP/SAVP 0\r\n"));
  g_assert_nonnull (strstr (out, "|2^20|1:32\r\n"));
  g_assert_nonnull (strstr (out, "k=clear:"));
  g_assert_nonnull (strstr (out, ";branch=z9hG4bK776;"));
  /* Content-Length is the body's new length (addresses changed their length). */
  g_assert_nonnull (body);
  g_assert_cmpint (g_ascii_strtoll (cl, NULL, 10), ==, (gint64) strlen (body + 4));
  /* One user, one replacement everywhere: From, Contact, o= and username=; a number keeps
   * its length and stays digits; a display name keeps its shape. */
  g_assert_cmpuint (strlen (alice), ==, 5);
  {
    g_autofree char *from = g_strdup_printf ("<sip:%s@", alice);
    g_autofree char *owner = g_strdup_printf ("o=%s ", alice);
    g_autofree char *auth = g_strdup_printf ("username=\"%s\"", alice);
    const char *number = cs_redactor_map_word (r, "4930999888", 10);

    g_assert_nonnull (strstr (out, from));
    g_assert_nonnull (strstr (out, owner));
    g_assert_nonnull (strstr (out, auth));
    for (guint i = 0; i < 10; i++)
      g_assert_true (g_ascii_isdigit (number[i]));
    g_assert_nonnull (strstr (pai, number));
    g_assert_true (g_str_has_prefix (pai, "\""));
    g_assert_cmpuint (strcspn (pai + 1, " "), ==, 5); /* "Alice" → five letters */
  }
  /* Host names go under .example, keeping "same operator" visible: the Via host, the
   * Call-ID host and the From domain share their domain. */
  {
    g_autofree char *via = header_value (out, "Via");
    g_autofree char *call_id = header_value (out, "Call-ID");
    g_autofree char *from = header_value (out, "From");
    const char *domain = strstr (call_id, "@");

    g_assert_nonnull (domain);
    g_assert_true (g_str_has_suffix (domain, ".example"));
    g_assert_nonnull (strstr (via, strchr (domain, '.') + 1));
    g_assert_nonnull (strstr (from, strchr (domain, '.') + 1));
  }
}

static void
test_addresses_documentation_ranges (void)
{
  static const char *const addrs[] = {
    "10.0.0.1", "10.0.0.2",      "10.0.7.1",    "172.16.98.145", "192.168.1.100", "8.8.8.8",
    "8.8.8.9",  "118.39.75.226", "81.2.69.160", "192.0.2.10",    "100.64.1.2",    "169.254.3.4",
  };
  g_autoptr (CsRedactor) r = cs_redactor_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GString *text = g_string_new ("SIP/2.0 200 OK\r\n");
  g_autofree char *out = NULL;
  CsAddr mapped[G_N_ELEMENTS (addrs)];
  guint8 range[G_N_ELEMENTS (addrs)];

  for (guint i = 0; i < G_N_ELEMENTS (addrs); i++)
    g_string_append_printf (text, "X-Addr: %s\r\n", addrs[i]);
  out = redact (r, text->str);
  for (guint i = 0; i < G_N_ELEMENTS (addrs); i++)
    {
      CsAddr a;
      char buf[CS_ADDR_STRLEN];

      cs_addr_parse (&a, addrs[i]);
      cs_redactor_map_addr (r, &a, &mapped[i]);
      g_assert_true (in_doc_range (&mapped[i], &range[i]));
      g_assert_false (g_hash_table_contains (seen, cs_addr_to_string (&mapped[i], buf)));
      g_hash_table_add (seen, g_strdup (buf));
      /* the text says what the mapping says */
      g_assert_nonnull (strstr (out, buf));
      g_assert_false (contains_token (out, addrs[i]));
    }
  /* private (RFC 1918, shared, link-local) → 192.0.2.0/24; public → the two others */
  for (guint i = 0; i < G_N_ELEMENTS (addrs); i++)
    {
      gboolean private = i <= 4 || i >= 10;

      if (private)
        g_assert_cmpuint (range[i], ==, 0);
      else
        g_assert_cmpuint (range[i], !=, 0);
    }
  /* one original /24 → one replacement /24 */
  g_assert_cmpuint (range[5], ==, range[6]);
  g_assert_cmpmem (mapped[5].bytes, 3, mapped[6].bytes, 3);
  /* kept: they name nobody */
  {
    const char *kept[] = { "127.0.0.1", "0.0.0.0", "255.255.255.255", "224.0.0.5", "::1" };

    for (guint i = 0; i < G_N_ELEMENTS (kept); i++)
      {
        CsAddr a, m;

        cs_addr_parse (&a, kept[i]);
        cs_redactor_map_addr (r, &a, &m);
        g_assert_true (cs_addr_equal (&a, &m));
      }
  }
  g_string_free (text, TRUE);
}

static void
test_ipv6_prefixes (void)
{
  g_autoptr (CsRedactor) r = cs_redactor_new ();
  g_autofree char *out = redact (r, "SIP/2.0 200 OK\r\n"
                                    "X-A: 2a00:1450:4001:81c::200e\r\n"
                                    "X-B: 2a00:1450:4001:81c::1\r\n"
                                    "X-C: 2a00:1450:4001:900::5\r\n"
                                    "X-D: fd12:3456:789a:1::2\r\n"
                                    "X-E: fe80::21a:2bff:fe3c:4d5e\r\n"
                                    "X-F: ::ffff:10.0.0.9\r\n"
                                    "c=IN IP4 10.0.0.9\r\n");
  const char *texts[]
      = { "2a00:1450:4001:81c::200e", "2a00:1450:4001:81c::1",    "2a00:1450:4001:900::5",
          "fd12:3456:789a:1::2",      "fe80::21a:2bff:fe3c:4d5e", "::ffff:10.0.0.9" };
  CsAddr m[G_N_ELEMENTS (texts)], v4, v4m;

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      CsAddr a;

      cs_addr_parse (&a, texts[i]);
      cs_redactor_map_addr (r, &a, &m[i]);
      g_assert_null (strstr (out, texts[i]));
    }
  for (guint i = 0; i < 5; i++)
    g_assert_true (in_doc_range (&m[i], NULL));
  /* same /64 → same /64; same /48 → same /48; another /64 differs */
  g_assert_cmpmem (m[0].bytes, 8, m[1].bytes, 8);
  g_assert_cmpmem (m[0].bytes, 6, m[2].bytes, 6);
  g_assert_cmpint (memcmp (m[0].bytes, m[2].bytes, 8), !=, 0);
  /* private (ULA, link-local) → 2001:db8:0::/48, public elsewhere */
  g_assert_cmpuint (m[3].bytes[4] | m[3].bytes[5], ==, 0);
  g_assert_cmpuint (m[4].bytes[4] | m[4].bytes[5], ==, 0);
  g_assert_cmpuint (m[0].bytes[4] | m[0].bytes[5], !=, 0);
  /* an IPv4-mapped address carries the IPv4 replacement */
  cs_addr_parse (&v4, "10.0.0.9");
  cs_redactor_map_addr (r, &v4, &v4m);
  g_assert_cmpmem (m[5].bytes + 12, 4, v4m.bytes, 4);
}

static void
test_ipv4_ranges_full (void)
{
  g_autoptr (CsRedactor) r = cs_redactor_new ();
  g_autoptr (GError) error = NULL;
  GString *text = g_string_new ("SIP/2.0 200 OK\r\n");

  /* 800 distinct public addresses: more than the three /24s hold */
  for (guint i = 0; i < 800; i++)
    g_string_append_printf (text, "X: 81.%u.%u.7\r\n", i / 200, i % 200);
  cs_redactor_observe_sip (r, text->str, text->len);
  g_assert_false (cs_redactor_seal (r, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_string_free (text, TRUE);
}

static void
test_ipv4_spill_stays_distinct (void)
{
  g_autoptr (CsRedactor) r = cs_redactor_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new (g_int_hash, g_int_equal);
  g_autoptr (GError) error = NULL;
  GString *text = g_string_new ("SIP/2.0 200 OK\r\n");
  static guint keys[600];

  /* 600 private addresses: the private range holds 254, the rest spill over */
  for (guint i = 0; i < 600; i++)
    g_string_append_printf (text, "X: 10.%u.%u.1\r\n", i / 250, i % 250);
  cs_redactor_observe_sip (r, text->str, text->len);
  g_assert_true (cs_redactor_seal (r, &error));
  for (guint i = 0; i < 600; i++)
    {
      CsAddr a, m;
      guint8 b[4] = { 10, (guint8) (i / 250), (guint8) (i % 250), 1 };

      cs_addr_set_v4 (&a, b);
      cs_redactor_map_addr (r, &a, &m);
      g_assert_true (in_doc_range (&m, NULL));
      keys[i] = (guint) m.bytes[0] << 24 | (guint) m.bytes[1] << 16 | (guint) m.bytes[2] << 8
                | m.bytes[3];
      g_assert_false (g_hash_table_contains (seen, &keys[i]));
      g_hash_table_add (seen, &keys[i]);
    }
  g_string_free (text, TRUE);
}

static void
test_words_same_shape_unique (void)
{
  g_autoptr (CsRedactor) r = cs_redactor_new ();
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) outs = g_hash_table_new (g_str_hash, g_str_equal);
  GString *all = g_string_new ("SIP/2.0 200 OK\r\n");
  g_autofree char *out = NULL;

  /* 1000 four-digit numbers: no replacement is any of them, none repeats, no digit stays */
  for (guint i = 0; i < 1000; i++)
    {
      g_string_append_printf (all, "To: <sip:%04u@h>\r\n", i * 7);
      g_hash_table_add (seen, g_strdup_printf ("%04u", i * 7));
    }
  out = redact (r, all->str);
  for (guint i = 0; i < 1000; i++)
    {
      char orig[8];
      const char *rep;

      g_snprintf (orig, sizeof orig, "%04u", i * 7);
      rep = cs_redactor_map_word (r, orig, 4);
      g_assert_cmpuint (strlen (rep), ==, 4);
      g_assert_false (g_hash_table_contains (seen, rep));
      g_assert_false (g_hash_table_contains (outs, rep));
      g_hash_table_add (outs, (gpointer) rep);
      for (guint k = 0; k < 4; k++)
        g_assert_cmpint (rep[k], !=, orig[k]);
    }
  /* letters keep their case; non-ASCII bytes become letters, byte for byte */
  {
    const char *w = cs_redactor_map_word (r, "J\xc3\xbcrgenX", 8);

    g_assert_cmpuint (strlen (w), ==, 8);
    g_assert_true (g_ascii_isupper (w[0]) && g_ascii_isupper (w[7]));
    for (guint k = 1; k < 7; k++)
      g_assert_true (g_ascii_islower (w[k]));
  }
  g_string_free (all, TRUE);
}

static void
test_content_length_follows_each_message (void)
{
  /* two messages in a row (a TCP stream): each body's addresses change length */
  static const char two[] = "MESSAGE sip:bob@10.0.0.2 SIP/2.0\r\n"
                            "Content-Type: text/plain\r\n"
                            "Content-Length: 26\r\n"
                            "\r\n"
                            "call me at 10.0.0.1 please"
                            "SIP/2.0 200 OK\r\n"
                            "Content-Type: application/sdp\r\n"
                            "Content-Length: 23\r\n"
                            "\r\n"
                            "v=0\r\nc=IN IP4 1.2.3.4\r\n";
  g_autoptr (CsRedactor) r = cs_redactor_new ();
  g_autofree char *out = redact (r, two);
  const char *second = strstr (out, "SIP/2.0 200 OK");
  g_autoptr (GError) error = NULL;
  g_autoptr (CsSipMessage) a = NULL;
  g_autoptr (CsSipMessage) b = NULL;
  gsize body_len;
  const char *body;

  g_assert_nonnull (second);
  a = cs_sip_message_parse ((const guint8 *) out, (gsize) (second - out), &error);
  b = cs_sip_message_parse ((const guint8 *) second, strlen (second), &error);
  g_assert_nonnull (a);
  g_assert_nonnull (b);
  /* the first body ends exactly where the second message starts */
  body = cs_sip_message_get_body (a, &body_len);
  g_assert_cmpint (cs_sip_message_get_content_length (a), ==, (gint64) body_len);
  g_assert_cmpint ((gint64) (strstr (out, "\r\n\r\n") + 4 - out)
                       + cs_sip_message_get_content_length (a),
                   ==, second - out);
  g_assert_null (strstr (body, "10.0.0.1"));
  /* text/plain is what people wrote: every word replaced */
  g_assert_null (strstr (body, "please"));
  cs_sip_message_get_body (b, &body_len);
  g_assert_cmpint (cs_sip_message_get_content_length (b), ==, (gint64) body_len);
  g_assert_cmpint (cs_sip_message_get_content_length (b), ==,
                   (gint64) strlen (strstr (second, "\r\n\r\n") + 4));
}

static void
test_learned_names_everywhere (void)
{
  /* a user learned from a URI is replaced where it recurs as a word; protocol words and
   * ports are not */
  static const char text[] = "INVITE sip:kowalski@pbx.firm-x.pl SIP/2.0\r\n"
                             "From: <sip:kowalski@pbx.firm-x.pl>;tag=98asd\r\n"
                             "Subject: call for kowalski\r\n"
                             "X-Note: kowalski via pbx.firm-x.pl\r\n"
                             "Via: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK98asd;id=kowalski\r\n"
                             "Warning: 399 pbx.firm-x.pl \"kowalski busy\"\r\n"
                             "P-Visited-Network-ID: \"firm-x.pl\"\r\n"
                             "Content-Length: 0\r\n\r\n";
  g_autoptr (CsRedactor) r = cs_redactor_new ();
  g_autofree char *out = redact (r, text);

  g_assert_null (strstr (out, "kowalski"));
  g_assert_null (strstr (out, "firm-x"));
  g_assert_null (strstr (out, "98asd")); /* the tag repeated in the branch */
  g_assert_nonnull (strstr (out, ":5060;branch=z9hG4bK"));
  g_assert_nonnull (strstr (out, "Subject: "));
  g_assert_nonnull (strstr (out, "Content-Length: 0\r\n"));
}

static void
test_hostile_text_no_overrun (void)
{
  static const char *const cases[] = {
    "sip:",
    "sip:@",
    "tel:",
    "a=crypto:inline:",
    "From: \"<",
    "username=",
    "1.2.3.",
    "::",
    "1:2:3:4:5:6:7:8:9:a",
    "999.1.1.1",
    "k=",
    "o=",
    "X:<",
    "\"",
    "a=key-mgmt:",
    "1.2.3.4.5",
    "INVITE sip:a SIP/2.0\r\nContent-Length: 99999999999\r\n\r\nx",
    "SIP/2.0 200 OK\r\nVia: ",
    "SIP/2.0 200 OK\r\nContent-Type: multipart/mixed;boundary=\r\n\r\n--\r\n",
    "sip:[",
    "sip:a@[",
    "http://",
    "a=candidate:",
    "Call-ID: @",
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (CsRedactor) r = cs_redactor_new ();
      gsize len = strlen (cases[i]);
      /* An exact-size heap copy: any read past len is an ASan error. */
      g_autofree char *copy = g_memdup2 (cases[i], len);
      GByteArray *out;

      cs_redactor_observe_sip (r, copy, len);
      g_assert_true (cs_redactor_seal (r, NULL));
      out = cs_redactor_rewrite_sip (r, copy, len);
      g_byte_array_unref (out);
    }
  {
    g_autofree char *noise = g_malloc (4096);
    GRand *rand = g_rand_new_with_seed (9);

    for (guint round = 0; round < 100; round++)
      {
        g_autoptr (CsRedactor) r = cs_redactor_new ();

        for (guint k = 0; k < 4096; k++)
          noise[k] = (char) g_rand_int_range (rand, round % 2 ? 0 : 32, 128);
        cs_redactor_observe_sip (r, noise, 4096);
        g_assert_true (cs_redactor_seal (r, NULL));
        g_byte_array_unref (cs_redactor_rewrite_sip (r, noise, 4096));
      }
    g_rand_free (rand);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/redact/text-leaves-nothing", test_text_leaves_nothing);
  g_test_add_func ("/redact/addresses-documentation-ranges", test_addresses_documentation_ranges);
  g_test_add_func ("/redact/ipv6-prefixes", test_ipv6_prefixes);
  g_test_add_func ("/redact/ipv4-ranges-full", test_ipv4_ranges_full);
  g_test_add_func ("/redact/ipv4-spill-stays-distinct", test_ipv4_spill_stays_distinct);
  g_test_add_func ("/redact/words-same-shape-unique", test_words_same_shape_unique);
  g_test_add_func ("/redact/content-length-follows", test_content_length_follows_each_message);
  g_test_add_func ("/redact/learned-names-everywhere", test_learned_names_everywhere);
  g_test_add_func ("/redact/hostile-text", test_hostile_text_no_overrun);
  return g_test_run ();
}
