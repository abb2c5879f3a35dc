/* test-text-inert.c — what a terminal or a browser would act on is shown, not obeyed */
#include <string.h>

#include "base/cs-text-inert.h"

static void
test_printable_untouched (void)
{
  const char *plain = "INVITE from alice to +4930123 — 486 Busy Here (Jürgen)";
  char *owned = (char *) 1;

  /* clean text is returned as it is, without a copy */
  g_assert_true (cs_text_inert (plain, &owned) == plain);
  g_assert_null (owned);
  g_assert_null (cs_text_inert (NULL, &owned));
}

static void
test_controls_and_bidi_escaped (void)
{
  static const struct
  {
    const char *in, *out;
  } cases[] = {
    { "\x1b[2Jclear", "\\x1B[2Jclear" },
    { "title\x1b]0;owned\x07", "title\\x1B]0;owned\\x07" },
    { "a\tb\rc\nd", "a\\x09b\\x0Dc\\x0Ad" },
    { "del\x7f", "del\\x7F" },
    { "c1\xc2\x9b"
      "31m",
      "c1\\x9B31m" },
    { "\xe2\x80\xaegnp.exe", "\\u{202E}gnp.exe" },
    { "x\xe2\x81\xa6y\xe2\x80\x8bz\xef\xbb\xbf", "x\\u{2066}y\\u{200B}z\\u{FEFF}" },
    { "bad \xff\xfe utf8", "bad \xef\xbf\xbd\xef\xbf\xbd utf8" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *owned = NULL;
      const char *out = cs_text_inert (cases[i].in, &owned);

      g_assert_cmpstr (out, ==, cases[i].out);
      g_assert_true (out == owned);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/text-inert/printable", test_printable_untouched);
  g_test_add_func ("/text-inert/escaped", test_controls_and_bidi_escaped);
  return g_test_run ();
}
