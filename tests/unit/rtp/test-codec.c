/* test-codec.c — payload format table */
#include "rtp/cs-codec.h"

static void
test_static_table (void)
{
  const CsCodecInfo *c;

  c = cs_codec_lookup_static (0);
  g_assert_nonnull (c);
  g_assert_cmpstr (c->name, ==, "g711U");
  g_assert_cmpuint (c->clock_rate, ==, 8000);
  g_assert_cmpfloat (c->ie, ==, 0.0);
  g_assert_cmpfloat (c->bpl, ==, 25.1);
  g_assert_true (c->is_audio);

  c = cs_codec_lookup_static (8);
  g_assert_cmpstr (c->name, ==, "g711A");
  c = cs_codec_lookup_static (9);
  g_assert_cmpstr (c->name, ==, "g722");
  g_assert_cmpuint (c->clock_rate, ==, 8000); /* RFC 3551's historical G.722 clock */
  c = cs_codec_lookup_static (18);
  g_assert_cmpstr (c->name, ==, "g729");
  g_assert_cmpfloat (c->ie, ==, 11.0);
  g_assert_cmpfloat (c->bpl, ==, 19.0);
  c = cs_codec_lookup_static (13);
  g_assert_cmpstr (c->name, ==, "CN");
  g_assert_false (c->is_audio);
  c = cs_codec_lookup_static (34);
  g_assert_cmpstr (c->name, ==, "h263");
  g_assert_cmpuint (c->clock_rate, ==, 90000);
  g_assert_false (c->is_audio);

  g_assert_null (cs_codec_lookup_static (20));
  g_assert_null (cs_codec_lookup_static (96));
  g_assert_null (cs_codec_lookup_static (1000));
}

static void
test_encoding_lookup (void)
{
  const CsCodecInfo *c;

  c = cs_codec_lookup_encoding ("pcmu", 8000);
  g_assert_nonnull (c);
  g_assert_cmpstr (c->name, ==, "g711U");
  c = cs_codec_lookup_encoding ("OPUS", 48000);
  g_assert_cmpstr (c->name, ==, "opus");
  g_assert_cmpuint (c->clock_rate, ==, 48000);
  c = cs_codec_lookup_encoding ("AMR-WB", 16000);
  g_assert_cmpstr (c->name, ==, "AMR-WB");
  c = cs_codec_lookup_encoding ("AMR", 0);
  g_assert_cmpstr (c->name, ==, "AMR");
  g_assert_cmpfloat (c->ie, ==, 5.0);
  c = cs_codec_lookup_encoding ("G729", 8000);
  g_assert_cmpfloat (c->bpl, ==, 19.0);
  c = cs_codec_lookup_encoding ("iLBC", 8000);
  g_assert_cmpstr (c->name, ==, "iLBC");
  c = cs_codec_lookup_encoding ("GSM", 8000);
  g_assert_cmpfloat (c->ie, ==, 20.0);
  c = cs_codec_lookup_encoding ("CN", 16000);
  g_assert_cmpuint (c->clock_rate, ==, 16000);
  /* unknown clock: first row of the name */
  c = cs_codec_lookup_encoding ("telephone-event", 44100);
  g_assert_cmpuint (c->clock_rate, ==, 8000);
  g_assert_null (cs_codec_lookup_encoding ("no-such-codec", 8000));
  g_assert_null (cs_codec_lookup_encoding (NULL, 8000));
}

static void
test_predicates (void)
{
  g_assert_true (cs_codec_is_telephone_event ("Telephone-Event"));
  g_assert_false (cs_codec_is_telephone_event ("telephone"));
  g_assert_false (cs_codec_is_telephone_event (NULL));
  g_assert_true (cs_codec_is_comfort_noise ("cn"));
  g_assert_false (cs_codec_is_comfort_noise ("PCMU"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/codec/static-table", test_static_table);
  g_test_add_func ("/codec/encoding-lookup", test_encoding_lookup);
  g_test_add_func ("/codec/predicates", test_predicates);
  return g_test_run ();
}
