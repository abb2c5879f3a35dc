/* test-csv.c — CSV cells a spreadsheet would run are neutralised, numbers are not */
#include <stdio.h>
#include <string.h>

#include "cs-report-table.h"

static char *
field (void (*write) (FILE *, const char *, gboolean), const char *value)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *out = open_memstream (&buf, &len);

  write (out, value, TRUE);
  fclose (out);
  return buf;
}

static void
test_owasp_prefix (void)
{
  static const struct
  {
    const char *in, *out;
  } cases[] = {
    { "=1+2", "\"'=1+2\"\n" },
    { "+4930123456", "\"'+4930123456\"\n" },
    { "-2+3", "\"'-2+3\"\n" },
    { "@SUM(A1)", "\"'@SUM(A1)\"\n" },
    { "\t=cmd", "\"'\t=cmd\"\n" },
    { "\r=cmd", "\"'\r=cmd\"\n" },
    { "  =cmd", "\"'  =cmd\"\n" },
    { "=HYPERLINK(\"x\")", "\"'=HYPERLINK(\"\"x\"\")\"\n" },
    { "alice", "alice\n" },
    { "a,b", "\"a,b\"\n" },
    { "", "\n" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = field (cs_csv_field, cases[i].in);

      g_assert_cmpstr (out, ==, cases[i].out);
    }
}

static void
test_numbers_stay_numbers (void)
{
  g_autofree char *lost = field (cs_csv_number, "-4");
  g_autofree char *pct = field (cs_csv_number, "-1.3");

  g_assert_cmpstr (lost, ==, "-4\n");
  g_assert_cmpstr (pct, ==, "-1.3\n");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/csv/owasp-prefix", test_owasp_prefix);
  g_test_add_func ("/csv/numbers", test_numbers_stay_numbers);
  return g_test_run ();
}
