/* test-json-writer.c — the JSON writer's hand-made numbers, times and strings are
 * byte-identical to what printf, GDateTime and the plain escaper produce */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/cs-fixed-format.h"
#include "cs-json-parallel.h"
#include "cs-json-writer.h"
#include "cs-time-format.h"

static void
check_fixed (double value, int decimals)
{
  static const char *const formats[]
      = { "%.0f", "%.1f", "%.2f", "%.3f", "%.4f", "%.5f", "%.6f", "%.7f", "%.8f", "%.9f" };
  char expected[CS_FIXED_BUF_SIZE], got[CS_FIXED_BUF_SIZE];
  gsize len;

  g_ascii_formatd (expected, sizeof expected, formats[decimals], value);
  len = cs_fixed_format (got, value, decimals);
  if (strcmp (expected, got) != 0 || len != strlen (expected))
    g_error ("%.17g with %d decimals: expected %s, got %s (%zu)", value, decimals, expected, got,
             len);
}

static void
test_fixed_random (void)
{
  GRand *rand = g_rand_new_with_seed (5);

  for (int i = 0; i < 400000; i++)
    {
      int decimals = i % 10;
      double magnitude = pow (10, g_rand_double_range (rand, -12, 16));
      double value = g_rand_double (rand) * magnitude;

      check_fixed (g_rand_boolean (rand) ? -value : value, decimals);
      /* metrics are often ratios of small integers */
      check_fixed (g_rand_int_range (rand, 0, 100000) / (double) g_rand_int_range (rand, 1, 5000),
                   decimals);
    }
  g_rand_free (rand);
}

static void
test_fixed_ties (void)
{
  /* exact binary ties (x.5, x.25, x.125 …) and decimal near-ties (x.xx5) */
  for (int d = 0; d < 10; d++)
    for (gint64 k = -3000; k <= 3000; k++)
      {
        check_fixed (k / 2.0, d);
        check_fixed (k / 8.0, d);
        check_fixed (k / 1024.0, d);
        check_fixed (k / 1000.0 + 0.0005, d);
        check_fixed ((k * 10 + 5) / 1e4, d);
        check_fixed ((k * 10 + 5) / pow (10, d + 1), d);
        check_fixed (nextafter ((k * 10 + 5) / pow (10, d + 1), INFINITY), d);
        check_fixed (nextafter ((k * 10 + 5) / pow (10, d + 1), -INFINITY), d);
      }
}

static void
test_fixed_edges (void)
{
  const double values[] = { 0.0,      -0.0,     1e-320, -1e-320, 4.9e-324, 0.49999999999999994,
                            0.5,      1.5,      2.5,    -2.5,    1e11,     1e12,
                            999999.9, 1e15,     1e16,   1e300,   -1e300,   DBL_MAX,
                            -DBL_MAX, 12345.678 };

  for (int d = 0; d < 10; d++)
    for (guint i = 0; i < G_N_ELEMENTS (values); i++)
      check_fixed (values[i], d);
  for (int d = 0; d < 10; d++)
    {
      check_fixed (NAN, d);
      check_fixed (INFINITY, d);
      check_fixed (-INFINITY, d);
    }
}

static char *
reference_time (gint64 ts_ns)
{
  gint64 seconds = ts_ns >= 0 ? ts_ns / 1000000000 : -((-ts_ns + 999999999) / 1000000000);
  gint64 micros = (ts_ns - seconds * 1000000000) / 1000;
  g_autoptr (GDateTime) dt = g_date_time_new_from_unix_utc (seconds);

  if (dt == NULL)
    return g_strdup ("?");
  return g_strdup_printf ("%04d-%02d-%02dT%02d:%02d:%02d.%06" G_GINT64_FORMAT "Z",
                          g_date_time_get_year (dt), g_date_time_get_month (dt),
                          g_date_time_get_day_of_month (dt), g_date_time_get_hour (dt),
                          g_date_time_get_minute (dt), g_date_time_get_second (dt), micros);
}

static void
check_time (gint64 ts_ns)
{
  g_autofree char *expected = reference_time (ts_ns);
  g_autofree char *got = cs_time_format_iso (ts_ns);
  char buf[CS_TIME_ISO_BUF_SIZE];

  if (strcmp (expected, got) != 0)
    g_error ("%" G_GINT64_FORMAT ": expected %s, got %s", ts_ns, expected, got);
  g_assert_cmpuint (cs_time_format_iso_into (ts_ns, buf), ==, strlen (expected));
}

static void
test_time (void)
{
  const gint64 second = 1000000000;
  const gint64 edges[] = { 0, 1, -1, 999999999, -999999999, 951782400 * second, /* 2000-02-29 */
                           4107542400 * second, /* 2100-03-01: 2100 is no leap year */
                           /* the engine saturates timestamps at ±2^62 */
                           G_GINT64_CONSTANT (1) << 62, -(G_GINT64_CONSTANT (1) << 62) };
  GRand *rand = g_rand_new_with_seed (7);
  char buf[CS_TIME_ISO_BUF_SIZE];

  for (guint i = 0; i < G_N_ELEMENTS (edges); i++)
    check_time (edges[i]);
  /* beyond that no reference (its negation overflows); every gint64 is a year 1677..2262 */
  g_assert_cmpuint (cs_time_format_iso_into (G_MAXINT64, buf), ==, 27);
  g_assert_cmpuint (cs_time_format_iso_into (G_MININT64, buf), ==, 27);
  /* consecutive times, many per day (the date of the previous call is reused) */
  for (gint64 t = 1700000000 * second; t < 1700000000 * second + 5 * 86400 * second;
       t += 7 * 60 * second + 123456789)
    check_time (t);
  for (int i = 0; i < 200000; i++)
    {
      gint64 day = g_rand_int_range (rand, -106000, 106000);

      check_time (day * 86400 * second + g_rand_int_range (rand, 0, 86400) * second
                  + g_rand_int_range (rand, 0, 1000000000));
    }
  g_rand_free (rand);
}

/* What the writer produced for one string value (not pretty). */
static char *
write_string (const char *value)
{
  char *data = NULL;
  size_t size = 0;
  FILE *out = open_memstream (&data, &size);
  CsJsonWriter *w = cs_json_writer_new (out, FALSE);

  cs_json_begin_array (w);
  cs_json_string (w, value);
  cs_json_end_array (w);
  g_assert_true (cs_json_writer_free (w));
  fclose (out);
  return data;
}

static void
check_string (const char *value, const char *expected_inner)
{
  g_autofree char *got = write_string (value);
  g_autofree char *expected = g_strdup_printf ("[\"%s\"]\n", expected_inner);

  g_assert_cmpstr (got, ==, expected);
}

static void
test_strings (void)
{
  g_autoptr (GString) plain = g_string_new (NULL);
  g_autoptr (GString) escaped = g_string_new (NULL);

  check_string ("", "");
  check_string ("sip:alice@example.com", "sip:alice@example.com");
  check_string ("a\"b", "a\\\"b");
  check_string ("12345678\\", "12345678\\\\");
  check_string ("tab\there\nnew\r\x01\x1f end", "tab\\there\\nnew\\r\\u0001\\u001f end");
  check_string ("caf\xc3\xa9 \xe2\x86\x92", "caf\xc3\xa9 \xe2\x86\x92");
  check_string ("bad \xff byte", "bad \xef\xbf\xbd byte");
  check_string ("\x7f~ ", "\x7f~ ");
  /* every single special byte at every position of a word */
  for (int pos = 0; pos < 17; pos++)
    for (int c = 1; c < 0x80; c++)
      {
        char s[20];
        g_autofree char *got = NULL;

        memset (s, 'x', sizeof s);
        s[pos] = (char) c;
        s[17] = '\0';
        got = write_string (s);
        g_assert_cmpuint (strlen (got), >=, 20);
        g_assert_true ((c >= 0x20 && c != '"' && c != '\\') == (strlen (got) == 22));
      }
  /* and in strings of every length up to three 16-byte blocks (their words and blocks
   * overlap) */
  for (int len = 1; len <= 48; len++)
    for (int pos = 0; pos < len; pos++)
      for (int c = 1; c < 0x100; c++)
        {
          char s[52];
          g_autofree char *got = NULL;
          gboolean plain_byte = c >= 0x20 && c < 0x80 && c != '"' && c != '\\';

          memset (s, 'x', sizeof s);
          s[pos] = (char) c;
          s[len] = '\0';
          got = write_string (s);
          g_assert_true (plain_byte == ((int) strlen (got) == len + 5));
          if (plain_byte)
            g_assert_true (strncmp (got + 2, s, (size_t) len) == 0);
        }
  /* longer than the writer's buffer */
  for (int i = 0; i < 100000; i++)
    {
      g_string_append_c (plain, (char) ('a' + i % 26));
      g_string_append_c (escaped, (char) ('a' + i % 26));
    }
  check_string (plain->str, escaped->str);
  g_string_append_c (plain, '"');
  g_string_append (escaped, "\\\"");
  check_string (plain->str, escaped->str);
}

static void
test_keys (void)
{
  for (int pretty = 0; pretty < 2; pretty++)
    {
      char *data = NULL;
      size_t size = 0;
      FILE *out = open_memstream (&data, &size);
      CsJsonWriter *w = cs_json_writer_new (out, pretty);

      cs_json_begin_object (w);
      CS_JSON_KEY (w, "id");
      cs_json_uint (w, 7);
      cs_json_key (w, "x\"y");
      cs_json_int (w, G_MININT64);
      cs_json_key (w, "m");
      cs_json_double (w, 0.0625, 3);
      CS_JSON_KEY (w, "list");
      cs_json_begin_array (w);
      cs_json_double (w, NAN, 2);
      cs_json_bool (w, TRUE);
      cs_json_end_array (w);
      CS_JSON_KEY (w, "empty");
      cs_json_begin_object (w);
      cs_json_end_object (w);
      cs_json_end_object (w);
      g_assert_true (cs_json_writer_free (w));
      fclose (out);
      if (pretty)
        g_assert_cmpstr (data, ==,
                         "{\n  \"id\": 7,\n  \"x\\\"y\": -9223372036854775808,\n  \"m\": 0.062,\n"
                         "  \"list\": [\n    null,\n    true\n  ],\n  \"empty\": {}\n}\n");
      else
        g_assert_cmpstr (data, ==,
                         "{\"id\":7,\"x\\\"y\":-9223372036854775808,\"m\":0.062,"
                         "\"list\":[null,true],\"empty\":{}}\n");
      free (data);
    }
}

static void
write_number_item (CsJsonWriter *w, gpointer item)
{
  guint n = GPOINTER_TO_UINT (item);

  cs_json_begin_object (w);
  CS_JSON_KEY (w, "n");
  cs_json_uint (w, n);
  CS_JSON_KEY (w, "half");
  cs_json_double (w, n / 2.0, 1);
  CS_JSON_KEY (w, "list");
  cs_json_begin_array (w);
  for (guint i = 0; i < n % 3; i++)
    cs_json_uint (w, i);
  cs_json_end_array (w);
  cs_json_end_object (w);
}

/* The document with `n` items written by cs_json_write_items on `threads` threads. */
static char *
write_items (guint n, guint threads)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new ();
  char *data = NULL;
  size_t size = 0;
  FILE *out = open_memstream (&data, &size);
  CsJsonWriter *w = cs_json_writer_new (out, TRUE);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, GUINT_TO_POINTER (i));
  cs_json_writer_set_threads (w, threads);
  cs_json_begin_object (w);
  CS_JSON_KEY (w, "before");
  cs_json_bool (w, TRUE);
  CS_JSON_KEY (w, "items");
  cs_json_begin_array (w);
  cs_json_write_items (w, items, write_number_item);
  cs_json_end_array (w);
  CS_JSON_KEY (w, "after");
  cs_json_null (w);
  cs_json_end_object (w);
  g_assert_true (cs_json_writer_free (w));
  fclose (out);
  return data;
}

static void
test_parallel_items (void)
{
  /* empty, below the parallel threshold, exact runs, a short last run, many runs */
  const guint counts[] = { 0, 1, 700, 1024, 1025, 1300, 5000, 20001 };

  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      g_autofree char *one = write_items (counts[i], 1);
      g_autofree char *two = write_items (counts[i], 2);
      g_autofree char *four = write_items (counts[i], 4);

      /* not cmpstr: a failure would print megabytes */
      g_assert_true (strcmp (one, two) == 0);
      g_assert_true (strcmp (one, four) == 0);
    }
}

/* Whole numbers take the writer's own path: the same text as printf's "%.Nf". */
static void
test_whole_doubles (void)
{
  static const double values[]
      = { 0.0,  -0.0, 1,  5,   9,    10, 20, 520, 1000, 123456789, 999999999999999.0,
          1e15, 1e16, -3, 2.5, 1e300 };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    for (int decimals = -1; decimals <= 10; decimals++)
      for (int combined = 0; combined < 2; combined++)
        {
          char *data = NULL;
          size_t size = 0;
          FILE *out = open_memstream (&data, &size);
          CsJsonWriter *w = cs_json_writer_new (out, FALSE);
          char expected[CS_FIXED_BUF_SIZE + 16], text[CS_FIXED_BUF_SIZE];

          cs_fixed_format (text, values[i], decimals);
          g_snprintf (expected, sizeof expected, "{\"v\":%s}\n", text);
          cs_json_begin_object (w);
          if (combined)
            CS_JSON_KEY_DOUBLE (w, "v", values[i], decimals);
          else
            {
              CS_JSON_KEY (w, "v");
              cs_json_double (w, values[i], decimals);
            }
          cs_json_end_object (w);
          g_assert_true (cs_json_writer_free (w));
          fclose (out);
          g_assert_cmpstr (data, ==, expected);
          free (data);
        }
  /* and printf's own text, for the usual decimals */
  for (int decimals = 0; decimals <= 9; decimals++)
    {
      static const char *const formats[]
          = { "%.0f", "%.1f", "%.2f", "%.3f", "%.4f", "%.5f", "%.6f", "%.7f", "%.8f", "%.9f" };
      char expected[CS_FIXED_BUF_SIZE], got[CS_FIXED_BUF_SIZE];

      g_ascii_formatd (expected, sizeof expected, formats[decimals], 520.0);
      cs_fixed_format (got, 520.0, decimals);
      g_assert_cmpstr (got, ==, expected);
    }
}

/* One object written with key-and-value calls (combined) or key then value. */
static char *
write_key_values (gboolean pretty, gboolean combined, guint depth)
{
  static const char *const strings[]
      = { "", "a", "plain text of some length", "tab\there", "quote\"", "caf\xc3\xa9", NULL };
  static const guint64 numbers[] = { 0, 9, 10, 99, 12345, G_MAXUINT64 };
  static const double doubles[] = { 0, 0.0625, -1.5, 1e15, NAN, INFINITY };
  char *data = NULL;
  size_t size = 0;
  FILE *out = open_memstream (&data, &size);
  CsJsonWriter *w = cs_json_writer_new (out, pretty);
  g_autofree char *long_text = g_strnfill (100000, 'x');

  for (guint d = 0; d < depth; d++)
    cs_json_begin_array (w);
  cs_json_begin_object (w);
  for (guint i = 0; i < G_N_ELEMENTS (strings); i++)
    if (combined)
      CS_JSON_KEY_STRING (w, "s", strings[i]);
    else
      {
        CS_JSON_KEY (w, "s");
        cs_json_string (w, strings[i]);
      }
  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    if (combined)
      CS_JSON_KEY_UINT (w, "a_rather_long_key_name_here", numbers[i]);
    else
      {
        CS_JSON_KEY (w, "a_rather_long_key_name_here");
        cs_json_uint (w, numbers[i]);
      }
  for (guint i = 0; i < G_N_ELEMENTS (doubles); i++)
    if (combined)
      CS_JSON_KEY_DOUBLE (w, "d", doubles[i], 3);
    else
      {
        CS_JSON_KEY (w, "d");
        cs_json_double (w, doubles[i], 3);
      }
  /* longer than the writer's buffer */
  if (combined)
    CS_JSON_KEY_STRING (w, "long", long_text);
  else
    {
      CS_JSON_KEY (w, "long");
      cs_json_string (w, long_text);
    }
  cs_json_end_object (w);
  for (guint d = 0; d < depth; d++)
    cs_json_end_array (w);
  g_assert_true (cs_json_writer_free (w));
  fclose (out);
  return data;
}

static void
test_key_values (void)
{
  for (int pretty = 0; pretty < 2; pretty++)
    for (guint depth = 0; depth < 40; depth += 13)
      {
        char *two_calls = write_key_values (pretty, FALSE, depth);
        char *one_call = write_key_values (pretty, TRUE, depth);

        g_assert_cmpstr (one_call, ==, two_calls);
        free (two_calls);
        free (one_call);
      }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json/fixed/random", test_fixed_random);
  g_test_add_func ("/json/fixed/ties", test_fixed_ties);
  g_test_add_func ("/json/fixed/edges", test_fixed_edges);
  g_test_add_func ("/json/time", test_time);
  g_test_add_func ("/json/strings", test_strings);
  g_test_add_func ("/json/keys", test_keys);
  g_test_add_func ("/json/key-values", test_key_values);
  g_test_add_func ("/json/whole-doubles", test_whole_doubles);
  g_test_add_func ("/json/parallel-items", test_parallel_items);
  return g_test_run ();
}
