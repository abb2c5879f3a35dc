/* test-redact.c — same-length scrubbing of SIP/SDP text and of IP/UDP headers */
#include <glib.h>
#include <string.h>

#include "net/cs-decode.h"
#include "export/cs-redact.h"

static const char sip_invite[]
    = "INVITE sip:+4930123456@198.51.100.7 SIP/2.0\r\n"
      "Via: SIP/2.0/UDP 192.0.2.10:5060;branch=z9hG4bK776;received=192.0.2.10\r\n"
      "From: \"Alice Smith\" <sip:alice@example.com>;tag=1928\r\n"
      "To: Bob <sip:+4930123456@example.com>\r\n"
      "Call-ID: a84b4c76e66710@192.0.2.10\r\n"
      "CSeq: 314159 INVITE\r\n"
      "Contact: <sip:alice@[2001:db8::a1]:5060>\r\n"
      "P-Asserted-Identity: <tel:+4930999888>\r\n"
      "Authorization: Digest username=\"alice\", realm=\"example.com\", nonce=\"abc\", "
      "uri=\"sip:+4930123456@198.51.100.7\", response=\"6629fae49393a05397450978507c4ef1\"\r\n"
      "Content-Type: application/sdp\r\n"
      "Content-Length: 190\r\n"
      "\r\n"
      "v=0\r\n"
      "o=alice 2890844526 2890844526 IN IP4 192.0.2.10\r\n"
      "c=IN IP4 192.0.2.10\r\n"
      "k=clear:secretkey\r\n"
      "m=audio 49170 RTP/SAVP 0\r\n"
      "a=crypto:1 AES_CM_128_HMAC_SHA1_80 "
      "inline:PS1uQCVeeCFCanVmcjkpPywjNWhcYD0mXXtxaVBR|2^20|1:32\r\n";

static const char *const originals[] = {
  "alice",
  "Alice Smith",
  "4930123456",
  "4930999888",
  "192.0.2.10",
  "198.51.100.7",
  "2001:db8::a1",
  "6629fae49393a05397450978507c4ef1",
  "PS1uQCVeeCFCanVmcjkpPywjNWhcYD0mXXtxaVBR",
  "secretkey",
};

static GByteArray *build_udp4 (const char *payload);

/* Pass 1 over a frame carrying the text, then pass 2 on a copy of the text. */
static char *
redact_text (CsRedactor *r, const char *text)
{
  g_autofree char *sip = g_strconcat ("SIP/2.0 200 OK\r\n", text, NULL);
  g_autoptr (GByteArray) frame = build_udp4 (sip);
  char *copy = g_strdup (text);

  cs_redactor_observe_frame (r, 1, frame->data, frame->len);
  cs_redactor_rewrite_text (r, (guint8 *) copy, strlen (text));
  return copy;
}

static void
test_text_scrubbed_same_length (void)
{
  g_autoptr (CsRedactor) r = cs_redactor_new ();
  g_autofree char *out = redact_text (r, sip_invite);
  const char *user;

  g_assert_cmpuint (strlen (out), ==, strlen (sip_invite));
  for (guint i = 0; i < G_N_ELEMENTS (originals); i++)
    if (strstr (out, originals[i]) != NULL)
      g_error ("'%s' left in:\n%s", originals[i], out);
  /* Structure kept: the start line, header names, Content-Length and SDP lines. */
  g_assert_true (g_str_has_prefix (out, "INVITE sip:+"));
  g_assert_nonnull (strstr (out, "Content-Length: 190\r\n"));
  g_assert_nonnull (strstr (out, "CSeq: 314159 INVITE\r\n"));
  g_assert_nonnull (strstr (out, "@example.com>"));
  g_assert_nonnull (strstr (out, "response=\"00000000000000000000000000000000\""));
  g_assert_nonnull (strstr (out, "k=xxxxxxxxxxxxxxx\r\n"));
  g_assert_nonnull (strstr (out, "|2^20|1:32\r\n"));
  /* One user, one replacement everywhere: From, Contact, o= and username=. */
  user = cs_redactor_map_user (r, "alice", 5);
  g_assert_cmpuint (strlen (user), ==, 5);
  g_assert_cmpstr (user, !=, "alice");
  {
    g_autofree char *from = g_strdup_printf ("<sip:%s@example.com>", user);
    g_autofree char *contact = g_strdup_printf ("<sip:%s@[", user);
    g_autofree char *owner = g_strdup_printf ("o=%s ", user);
    g_autofree char *auth = g_strdup_printf ("username=\"%s\"", user);

    g_assert_nonnull (strstr (out, from));
    g_assert_nonnull (strstr (out, contact));
    g_assert_nonnull (strstr (out, owner));
    g_assert_nonnull (strstr (out, auth));
  }
  g_assert_cmpuint (cs_redactor_get_n_users (r), >=, 4);
}

static void
test_addresses_consistent (void)
{
  g_autoptr (CsRedactor) r = cs_redactor_new ();
  g_autofree char *out = redact_text (r, "c=IN IP4 192.0.2.10\r\nc=IN IP4 192.0.2.10\r\n");
  CsAddr orig, mapped, loop, loop_out;
  char text[CS_ADDR_STRLEN];
  g_autofree char *expected = NULL;

  cs_addr_parse (&orig, "192.0.2.10");
  cs_redactor_map_addr (r, &orig, &mapped);
  g_assert_false (cs_addr_equal (&orig, &mapped));
  cs_addr_to_string (&mapped, text);
  g_assert_cmpuint (strlen (text), ==, strlen ("192.0.2.10"));
  expected = g_strdup_printf ("c=IN IP4 %s\r\nc=IN IP4 %s\r\n", text, text);
  g_assert_cmpstr (out, ==, expected);
  /* Loopback names nobody: kept. */
  cs_addr_parse (&loop, "127.0.0.1");
  cs_redactor_map_addr (r, &loop, &loop_out);
  g_assert_true (cs_addr_equal (&loop, &loop_out));
  g_assert_cmpuint (cs_redactor_get_n_addresses (r), ==, 1);
}

static void
test_replacement_avoids_originals (void)
{
  g_autoptr (CsRedactor) r = cs_redactor_new ();
  /* Pass 1 sees 1000 four-digit numbers; no replacement may be any of them. */
  GString *all = g_string_new (NULL);
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *out = NULL;

  for (guint i = 0; i < 1000; i++)
    {
      g_string_append_printf (all, "To: <sip:%04u@h>\r\n", i * 7);
      g_hash_table_add (seen, g_strdup_printf ("%04u", i * 7));
    }
  out = redact_text (r, all->str);
  for (guint i = 0; i < 1000; i++)
    {
      char orig[8];
      const char *rep;

      g_snprintf (orig, sizeof orig, "%04u", i * 7);
      rep = cs_redactor_map_user (r, orig, 4);
      g_assert_cmpuint (strlen (rep), ==, 4);
      g_assert_false (g_hash_table_contains (seen, rep));
      for (guint k = 0; k < 4; k++)
        g_assert_cmpint (rep[k], !=, orig[k]);
    }
  g_assert_cmpuint (cs_redactor_get_n_users (r), ==, 1000);
  g_string_free (all, TRUE);
}

static guint16
checksum (const guint8 *p, gsize len, guint32 sum)
{
  for (gsize i = 0; i + 1 < len; i += 2)
    sum += (guint32) (p[i] << 8 | p[i + 1]);
  if (len & 1)
    sum += (guint32) p[len - 1] << 8;
  while (sum >> 16)
    sum = (sum & 0xffff) + (sum >> 16);
  return (guint16) sum;
}

/* Ethernet + IPv4 + UDP around payload. */
static GByteArray *
build_udp4 (const char *payload)
{
  GByteArray *f = g_byte_array_new ();
  gsize plen = strlen (payload);
  guint8 eth[14] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0x08, 0x00 };
  guint8 ip[20] = { 0x45, 0, 0, 0, 0, 1, 0, 0, 64, 17, 0, 0, 192, 0, 2, 10, 198, 51, 100, 7 };
  guint8 udp[8] = { 0x13, 0xc4, 0x13, 0xc4, 0, 0, 0, 0 };
  guint16 total = (guint16) (20 + 8 + plen);

  ip[2] = total >> 8, ip[3] = total & 0xff;
  udp[4] = (guint8) ((8 + plen) >> 8), udp[5] = (guint8) (8 + plen);
  udp[6] = 0x12, udp[7] = 0x34; /* a non-zero checksum: must be recomputed */
  g_byte_array_append (f, eth, 14);
  g_byte_array_append (f, ip, 20);
  g_byte_array_append (f, udp, 8);
  g_byte_array_append (f, (const guint8 *) payload, (guint) plen);
  return f;
}

static void
test_frame_ipv4_udp (void)
{
  g_autoptr (CsRedactor) r = cs_redactor_new ();
  g_autoptr (GByteArray) frame = build_udp4 (sip_invite);
  const guint8 *ip, *udp;
  guint16 udp_len;
  guint32 pseudo;
  CsAddr src, mapped;
  CsPacket pkt;

  cs_redactor_observe_frame (r, 1, frame->data, frame->len);
  g_assert_true (cs_redactor_rewrite_frame (r, 1, frame->data, frame->len));
  ip = frame->data + 14;
  udp = ip + 20;
  /* Header checksum valid: the sum over the header folds to 0xffff. */
  g_assert_cmphex (checksum (ip, 20, 0), ==, 0xffff);
  /* The mapped source is the one the text mapping used. */
  cs_addr_parse (&src, "192.0.2.10");
  cs_redactor_map_addr (r, &src, &mapped);
  g_assert_cmpmem (ip + 12, 4, mapped.bytes, 4);
  g_assert_cmpint (memcmp (ip + 16, (guint8[]){ 198, 51, 100, 7 }, 4), !=, 0);
  /* UDP checksum over the pseudo-header is valid. */
  udp_len = (guint16) (udp[4] << 8 | udp[5]);
  pseudo = checksum (ip + 12, 8, 0) + 17 + udp_len;
  g_assert_cmphex (checksum (udp, udp_len, pseudo), ==, 0xffff);
  /* Still decodes to the same lengths, and no original text is left. */
  g_assert_cmpint (cs_decode_frame (1, frame->data, frame->len, &pkt), ==, CS_DECODE_OK);
  g_assert_cmpuint (pkt.payload_len, ==, strlen (sip_invite));
  for (guint i = 0; i < G_N_ELEMENTS (originals); i++)
    g_assert_null (g_strstr_len ((const char *) frame->data, frame->len, originals[i]));
}

static void
test_frame_ipv6_udp (void)
{
  g_autoptr (CsRedactor) r = cs_redactor_new ();
  const char *payload = "SIP/2.0 200 OK\r\nContact: <sip:bob@[2001:db8::b2]>\r\n\r\n";
  gsize plen = strlen (payload);
  GByteArray *f = g_byte_array_new ();
  guint8 ip[40] = { 0x60, 0, 0, 0, 0, 0, 17, 64 };
  guint8 udp[8] = { 0x13, 0xc4, 0x13, 0xc4, 0, 0, 0xab, 0xcd };
  guint32 pseudo;

  ip[4] = (guint8) ((8 + plen) >> 8), ip[5] = (guint8) (8 + plen);
  ip[8] = 0x20, ip[9] = 0x01, ip[10] = 0x0d, ip[11] = 0xb8, ip[23] = 0xb2;
  ip[24] = 0x20, ip[25] = 0x01, ip[26] = 0x0d, ip[27] = 0xb8, ip[39] = 0xa1;
  udp[4] = (guint8) ((8 + plen) >> 8), udp[5] = (guint8) (8 + plen);
  g_byte_array_append (f, ip, 40);
  g_byte_array_append (f, udp, 8);
  g_byte_array_append (f, (const guint8 *) payload, (guint) plen);
  cs_redactor_observe_frame (r, 101, f->data, f->len);
  g_assert_true (cs_redactor_rewrite_frame (r, 101, f->data, f->len));
  g_assert_null (g_strstr_len ((const char *) f->data, f->len, "2001:db8::b2"));
  g_assert_null (g_strstr_len ((const char *) f->data, f->len, "bob"));
  g_assert_cmpint (memcmp (f->data + 8, ip + 8, 16), !=, 0);
  pseudo = checksum (f->data + 8, 32, 0) + 17 + (guint32) (8 + plen);
  g_assert_cmphex (checksum (f->data + 40, 8 + plen, pseudo), ==, 0xffff);
  g_byte_array_unref (f);
}

static void
test_hostile_text_no_overrun (void)
{
  g_autoptr (CsRedactor) r = cs_redactor_new ();
  static const char *const cases[] = { "sip:",
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
                                       "1.2.3.4.5" };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gsize len = strlen (cases[i]);
      /* An exact-size heap copy: any read past len is an ASan error. */
      g_autofree guint8 *copy = g_memdup2 (cases[i], len);

      cs_redactor_rewrite_text (r, copy, len);
      g_assert_cmpmem (copy, len, cases[i], len); /* nothing in them to replace */
    }
  {
    g_autofree guint8 *noise = g_malloc (4096);
    GRand *rand = g_rand_new_with_seed (9);

    for (guint round = 0; round < 200; round++)
      {
        for (guint k = 0; k < 4096; k++)
          noise[k] = (guint8) g_rand_int_range (rand, 0, 256);
        cs_redactor_rewrite_text (r, noise, 4096);
        cs_redactor_rewrite_frame (r, 1, noise, 4096);
      }
    g_rand_free (rand);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/redact/text-same-length", test_text_scrubbed_same_length);
  g_test_add_func ("/redact/addresses-consistent", test_addresses_consistent);
  g_test_add_func ("/redact/replacement-avoids-originals", test_replacement_avoids_originals);
  g_test_add_func ("/redact/frame-ipv4-udp", test_frame_ipv4_udp);
  g_test_add_func ("/redact/frame-ipv6-udp", test_frame_ipv6_udp);
  g_test_add_func ("/redact/hostile-text", test_hostile_text_no_overrun);
  return g_test_run ();
}
