/* test-sip-scan.c — the parser's allocation-free scanners against the copying helpers
 * they replace, the packed headers and their view built on request */
#include "sip/cs-sdp.h"
#include "sip/cs-sip-headers.h"
#include "sip/cs-sip-message-private.h"
#include "sip/cs-sip-message.h"

#include <string.h>

/* Characters that matter to name-addr and parameter syntax, plus filler. */
static const char alphabet[] = "<>;=,@:\"\\ \t?aZ9-.tagsipelbrnch";

/* The scanners read up to 16 bytes past a value's NUL (the parse scratch has them). */
static char *
padded (char *value)
{
  gsize len = strlen (value);

  value = g_realloc (value, len + 17);
  memset (value + len + 1, 0, 16);
  return value;
}

static char *
random_value (GRand *rand, gsize max_len)
{
  gsize len = (gsize) g_rand_int_range (rand, 0, (gint32) max_len + 1);
  char *s = g_malloc (len + 1);

  for (gsize i = 0; i < len; i++)
    s[i] = alphabet[g_rand_int_range (rand, 0, (gint32) sizeof alphabet - 1)];
  s[len] = '\0';
  /* the parser hands the scanners chomped values */
  g_strchomp (s);
  return s;
}

/* Prefixes that make the interesting branches likely. */
static const char *const prefixes[] = {
  "", "\"Bob\" <sip:", "<sip:", "sip:", "tel:", "Al <sips:", "x;tag=", "<sip:a@b>;tag=\"",
};

static char *
span_dup (const CsSipSpan *span)
{
  char *out = g_malloc (span->len + 1);
  gsize n = span->escaped ? cs_sip_unescape_quoted (span, out) : span->len;

  if (!span->escaped)
    memcpy (out, span->start, span->len);
  out[n] = '\0';
  return out;
}

static void
test_params_differential (void)
{
  GRand *rand = g_rand_new_with_seed (5);
  guint found_any = 0;

  for (int i = 0; i < 20000; i++)
    {
      g_autofree char *tail = random_value (rand, 24);
      g_autofree char *value
          = padded (g_strconcat (prefixes[i % G_N_ELEMENTS (prefixes)], tail, NULL));
      const char *names[] = { "tag", "branch" };

      for (gsize k = 0; k < G_N_ELEMENTS (names); k++)
        {
          g_autofree char *expected = cs_sip_params_dup_value (value, names[k]);
          CsSipSpan span;
          gboolean found = cs_sip_params_find (value, names[k], strlen (names[k]), &span);
          g_autofree char *got = found ? span_dup (&span) : NULL;

          found_any += found;
          g_assert_cmpstr (got, ==, expected);
        }
    }
  g_rand_free (rand);
  g_assert_cmpuint (found_any, >, 1000);
}

static void
test_addr_differential (void)
{
  GRand *rand = g_rand_new_with_seed (7);
  guint parsed = 0, tagged = 0, escaped = 0;

  for (int i = 0; i < 20000; i++)
    {
      g_autofree char *tail = random_value (rand, 32);
      g_autofree char *value
          = padded (g_strconcat (prefixes[i % G_N_ELEMENTS (prefixes)], tail, NULL));
      CsSipNameAddr na;
      CsSipAddrSpans a;
      gboolean expected = cs_sip_name_addr_parse (value, &na);
      gboolean got = cs_sip_addr_scan (value, &a);

      g_assert_cmpint (got, ==, expected);
      if (expected)
        {
          parsed++;
          tagged += a.has_tag;
          escaped += a.display.escaped || a.tag.escaped;
          g_autofree char *display = a.has_display ? span_dup (&a.display) : NULL;
          g_autofree char *uri = span_dup (&a.uri);
          g_autofree char *tag = a.has_tag ? span_dup (&a.tag) : NULL;
          g_autofree char *user = cs_sip_uri_dup_user (na.uri);
          CsSipSpan user_span;
          gboolean has_user = cs_sip_uri_user_span (a.uri.start, a.uri.len, &user_span);
          g_autofree char *user_got = has_user ? span_dup (&user_span) : NULL;

          g_assert_cmpstr (display, ==, na.display);
          g_assert_cmpstr (uri, ==, na.uri);
          g_assert_cmpstr (tag, ==, na.tag);
          g_assert_cmpstr (user_got, ==, user);
        }
      cs_sip_name_addr_clear (&na);
    }
  g_rand_free (rand);
  /* the random values reach every branch */
  g_assert_cmpuint (parsed, >, 2000);
  g_assert_cmpuint (tagged, >, 200);
  g_assert_cmpuint (escaped, >, 20);
}

static void
test_known_names (void)
{
  cs_sip_header_names_init ();
  g_assert_cmpstr (cs_sip_header_known_name ("Via", 3), ==, "Via");
  g_assert_cmpstr (cs_sip_header_known_name ("Call-ID", 7), ==, "Call-ID");
  g_assert_cmpstr (cs_sip_header_known_name ("i", 1), ==, "i");
  g_assert_null (cs_sip_header_known_name ("via", 3));
  g_assert_null (cs_sip_header_known_name ("Via2", 4));
  g_assert_null (cs_sip_header_known_name ("X-Custom", 8));
  for (int i = 0; cs_sip_header_known_by_index (i) != NULL; i++)
    {
      const char *name = cs_sip_header_known_by_index (i);
      gsize len = strlen (name);
      g_assert_cmpint (cs_sip_header_known_index (name, len), ==, i);
      /* the word lookup (16 readable bytes) finds it too, and not its near misses */
      char buf[64] = { 0 };
      memcpy (buf, name, len);
      memcpy (buf + len, ": value\r\n", 9);
      g_assert_cmpint (cs_sip_header_known_index_at (buf, len, sizeof buf), ==, i);
      g_assert_cmpint (cs_sip_header_known_index_at (buf, len + 1, sizeof buf), !=, i);
      if (len > 1)
        g_assert_cmpint (cs_sip_header_known_index_at (buf, len - 1, sizeof buf), !=, i);
      buf[len - 1] ^= 0x20; /* another case of its last letter (or another byte) */
      g_assert_cmpint (cs_sip_header_known_index_at (buf, len, sizeof buf), !=, i);
      g_assert_cmpint (cs_sip_header_known_index_at (buf, len, sizeof buf), ==,
                       cs_sip_header_known_index (buf, len));
    }
}

static const char message[] = "INVITE sip:b@example.com SIP/2.0\r\n"
                              "via: SIP/2.0/UDP h;branch=z9hG4bK1\r\n"
                              "f: <sip:a@example.com>;tag=1\r\n"
                              "To: <sip:b@example.com>\r\n"
                              "i: packed@example.com\r\n"
                              "CSeq: 1 INVITE\r\n"
                              "X-Custom:  value with  spaces  \r\n"
                              "Subject: folded\r\n"
                              " line\r\n"
                              "l: 4\r\n"
                              "\r\n"
                              "body";

static gpointer
get_view (gpointer data)
{
  return (gpointer) cs_sip_message_get_headers (data);
}

static void
test_headers_view (void)
{
  CsSipMessage *msg = cs_sip_message_parse ((const guint8 *) message, strlen (message), NULL);
  static const char *const expected[][2] = {
    { "via", "SIP/2.0/UDP h;branch=z9hG4bK1" },
    { "f", "<sip:a@example.com>;tag=1" },
    { "To", "<sip:b@example.com>" },
    { "i", "packed@example.com" },
    { "CSeq", "1 INVITE" },
    { "X-Custom", "value with  spaces" },
    { "Subject", "folded line" },
    { "l", "4" },
  };
  GThread *threads[4];
  gsize body_len;

  g_assert_nonnull (msg);
  g_assert_null (cs_sip_message_get_malformed (msg));
  g_assert_cmpstr (cs_sip_message_get_header (msg, "Call-ID"), ==, "packed@example.com");
  g_assert_cmpstr (cs_sip_message_get_header (msg, "x-custom"), ==, "value with  spaces");
  g_assert_cmpstr (cs_sip_message_get_body (msg, &body_len), ==, "body");
  g_assert_cmpuint (body_len, ==, 4);
  /* the decoded fields share the packed values */
  g_assert_cmpstr (cs_sip_message_get_call_id (msg), ==, "packed@example.com");
  g_assert_cmpstr (cs_sip_message_get_from_tag (msg), ==, "1");
  g_assert_cmpstr (cs_sip_message_get_via_branch (msg), ==, "z9hG4bK1");

  /* concurrent first requests all get the one published view */
  for (gsize i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("view", get_view, msg);
  const GPtrArray *view = cs_sip_message_get_headers (msg);
  for (gsize i = 0; i < G_N_ELEMENTS (threads); i++)
    g_assert_true (g_thread_join (threads[i]) == view);
  g_assert_cmpuint (view->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < view->len; i++)
    {
      const CsSipHeader *h = g_ptr_array_index (view, i);
      g_assert_cmpstr (h->name, ==, expected[i][0]);
      g_assert_cmpstr (h->value, ==, expected[i][1]);
    }
  cs_sip_message_unref (msg);
}

static void
test_sdp_views (void)
{
  static const char text[] = "v=0\r\n"
                             "o=- 1 2 IN IP4 10.0.0.1\r\n"
                             "s=x\r\n"
                             "c=IN IP4 10.0.0.1\r\n"
                             "m=audio 4000 RTP/AVP 0 8 101\r\n"
                             "a=rtpmap:8 PCMA/8000\r\n"
                             "a=rtpmap:8 PCMA/16000\r\n"
                             "a=rtpmap:101 telephone-event/8000\r\n"
                             "a=fmtp:101 0-15\r\n"
                             "m=video 5000 RTP/AVP 96\r\n"
                             "a=rtpmap:96 H264/90000\r\n"
                             "m=image 6000 udptl t38\r\n";
  g_autoptr (CsSdp) sdp = cs_sdp_parse (text, strlen (text), NULL);

  g_assert_nonnull (sdp);
  g_assert_cmpuint (sdp->media->len, ==, 3);
  const CsSdpMedia *audio = g_ptr_array_index (sdp->media, 0);
  const CsSdpMedia *video = g_ptr_array_index (sdp->media, 1);
  const CsSdpMedia *image = g_ptr_array_index (sdp->media, 2);
  g_assert_cmpstr (audio->media, ==, "audio");
  g_assert_cmpuint (audio->formats->len, ==, 3);
  g_assert_cmpstr (cs_sdp_media_find_format (audio, 8)->encoding, ==, "PCMA");
  g_assert_cmpuint (cs_sdp_media_find_format (audio, 8)->clock_rate, ==, 16000);
  g_assert_cmpstr (cs_sdp_media_find_format (audio, 101)->fmtp, ==, "0-15");
  g_assert_null (cs_sdp_media_find_format (audio, 0)->encoding);
  g_assert_cmpuint (video->formats->len, ==, 1);
  g_assert_cmpstr (cs_sdp_media_find_format (video, 96)->encoding, ==, "H264");
  g_assert_cmpstr (image->proto, ==, "udptl");
  g_assert_cmpuint (image->formats->len, ==, 0);
  g_assert_cmpstr (sdp->origin_username, ==, "-");
  g_assert_cmpstr (sdp->session_name, ==, "x");
}

/* The one-pass From/To scanner gives exactly the spans of cs_sip_addr_scan and
 * cs_sip_uri_user_span, on values shaped like the usual ones and on random ones. */
static void
test_addr_user_differential (void)
{
  static const char *const usual[] = {
    "\"Bob\" <sip:", "<sip:", "<SIPS:", "\"\" <sip:", "\"A\tB\"\t<sip:", "<sip:", "\"x\" <sips:",
  };
  GRand *rand = g_rand_new_with_seed (13);
  guint users = 0;

  for (int i = 0; i < 40000; i++)
    {
      const char *prefix = i % 2 == 0 ? usual[(i / 2) % G_N_ELEMENTS (usual)]
                                      : prefixes[(i / 2) % G_N_ELEMENTS (prefixes)];
      g_autofree char *tail = random_value (rand, 32);
      g_autofree char *value
          = padded (g_strconcat (prefix, i % 3 == 0 ? "1001@h>;tag=" : "", tail, NULL));
      CsSipAddrSpans a, b;
      CsSipSpan user_a, user_b;
      gboolean has_user_b = FALSE;
      gboolean ok_a = cs_sip_addr_scan (value, &a);
      gboolean ok_b = cs_sip_addr_scan_user (value, &b, &user_b, &has_user_b);

      g_assert_cmpint (ok_a, ==, ok_b);
      if (!ok_a)
        continue;
      gboolean has_user_a = cs_sip_uri_user_span (a.uri.start, a.uri.len, &user_a);
      g_assert_cmpint (a.has_display, ==, b.has_display);
      g_assert_cmpint (a.has_tag, ==, b.has_tag);
      g_assert_true (a.uri.start == b.uri.start && a.uri.len == b.uri.len);
      if (a.has_display)
        g_assert_true (a.display.start == b.display.start && a.display.len == b.display.len
                       && a.display.escaped == b.display.escaped);
      if (a.has_tag)
        g_assert_true (a.tag.start == b.tag.start && a.tag.len == b.tag.len
                       && a.tag.escaped == b.tag.escaped);
      g_assert_cmpint (has_user_a, ==, has_user_b);
      if (has_user_a)
        g_assert_true (user_a.start == user_b.start && user_a.len == user_b.len);
      users += has_user_a;
    }
  g_rand_free (rand);
  g_assert_cmpuint (users, >, 2000);
}

static void
test_via_branch_differential (void)
{
  GRand *rand = g_rand_new_with_seed (11);
  static const char *const via_prefixes[] = {
    "SIP/2.0/UDP h",
    "SIP/2.0/UDP h;branch=",
    "SIP/2.0/UDP h;BRANCH=z9",
    "SIP/2.0/UDP h;rport;branch=",
    "SIP/2.0/UDP h, x;branch=",
    "SIP/2.0/UDP h;branch = \"q",
    "",
    ";branch",
  };
  guint found_any = 0;

  for (int i = 0; i < 20000; i++)
    {
      g_autofree char *tail = random_value (rand, 24);
      g_autofree char *value
          = padded (g_strconcat (via_prefixes[i % G_N_ELEMENTS (via_prefixes)], tail, NULL));
      g_autofree char *expected = cs_sip_via_dup_branch (value);
      CsSipSpan span;
      gboolean found = cs_sip_via_branch_find (value, &span);
      g_autofree char *got = found ? span_dup (&span) : NULL;

      found_any += found;
      g_assert_cmpstr (got, ==, expected);
    }
  g_rand_free (rand);
  g_assert_cmpuint (found_any, >, 1000);
}

/* The plain-text check at every length around its block sizes, with one NUL or high
 * byte at every position (and none). */
static void
test_text_is_plain (void)
{
  char text[80];

  for (gsize n = 0; n <= 70; n++)
    {
      memset (text, 'a', sizeof text);
      g_assert_true (cs_sip_text_is_plain (text, n));
      for (gsize at = 0; at < n; at++)
        for (int k = 0; k < 3; k++)
          {
            static const char bad[] = { '\0', (char) 0x80, (char) 0xff };
            memset (text, 'a', sizeof text);
            text[at] = bad[k];
            g_assert_false (cs_sip_text_is_plain (text, n));
          }
      /* a bad byte just past the end is not looked at */
      memset (text, 'a', sizeof text);
      text[n] = '\0';
      g_assert_true (cs_sip_text_is_plain (text, n));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sip-scan/params-differential", test_params_differential);
  g_test_add_func ("/sip-scan/addr-differential", test_addr_differential);
  g_test_add_func ("/sip-scan/known-names", test_known_names);
  g_test_add_func ("/sip-scan/headers-view", test_headers_view);
  g_test_add_func ("/sip-scan/sdp-views", test_sdp_views);
  g_test_add_func ("/sip-scan/via-branch-differential", test_via_branch_differential);
  g_test_add_func ("/sip-scan/addr-user-differential", test_addr_user_differential);
  g_test_add_func ("/sip-scan/text-is-plain", test_text_is_plain);
  return g_test_run ();
}
