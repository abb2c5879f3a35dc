/* test-homer-query.c — window times (hand-computed epochs) and the parameters of the SQL */
#include <string.h>

#include "fleet/cs-homer-query.h"

static void
test_parse_time (void)
{
  g_autoptr (GError) error = NULL;
  gint64 us = 0;

  /* 2024-03-01 10:00:00 UTC = 1709287200 (19783 days × 86400 + 36000) */
  g_assert_true (cs_homer_parse_time ("2024-03-01T10:00:00Z", &us, NULL));
  g_assert_cmpint (us, ==, G_GINT64_CONSTANT (1709287200000000));
  g_assert_true (cs_homer_parse_time ("2024-03-01 10:00:00.25", &us, NULL));
  g_assert_cmpint (us, ==, G_GINT64_CONSTANT (1709287200250000));
  g_assert_true (cs_homer_parse_time ("2024-03-01T12:00:00+02:00", &us, NULL));
  g_assert_cmpint (us, ==, G_GINT64_CONSTANT (1709287200000000));
  g_assert_true (cs_homer_parse_time ("2024-03-01 10:00", &us, NULL));
  g_assert_cmpint (us, ==, G_GINT64_CONSTANT (1709287200000000));
  g_assert_true (cs_homer_parse_time ("2024-03-01T10:00Z", &us, NULL));
  g_assert_cmpint (us, ==, G_GINT64_CONSTANT (1709287200000000));
  g_assert_true (cs_homer_parse_time ("2024-03-01", &us, NULL));
  g_assert_cmpint (us, ==, G_GINT64_CONSTANT (1709251200000000));
  g_assert_true (cs_homer_parse_time ("1709287200.5", &us, NULL));
  g_assert_cmpint (us, ==, G_GINT64_CONSTANT (1709287200500000));
  g_assert_false (cs_homer_parse_time ("yesterday", &us, &error));
  g_assert_error (error, CS_HOMER_ERROR, CS_HOMER_ERROR_USAGE);
  g_autofree char *text = cs_homer_format_time (G_GINT64_CONSTANT (1709287200250000));
  g_assert_cmpstr (text, ==, "2024-03-01 10:00:00.250000+00");
}

static void
test_check (void)
{
  g_autoptr (CsHomerQuery) q = cs_homer_query_new ("postgresql:///homer_data");
  g_autoptr (GError) error = NULL;

  g_assert_false (cs_homer_query_check (q, &error));
  g_assert_nonnull (strstr (error->message, "--from and --to"));
  g_clear_error (&error);
  q->from_us = 2000;
  q->to_us = 1000;
  g_assert_false (cs_homer_query_check (q, &error));
  g_assert_nonnull (strstr (error->message, "ends before it starts"));
  q->to_us = 3000;
  g_assert_true (cs_homer_query_check (q, NULL));
}

/* every $N the SQL names is a parameter given, and the values are the query's */
static void
test_sql_params (void)
{
  g_autoptr (CsHomerQuery) q = cs_homer_query_new ("x");
  g_autoptr (GPtrArray) params = NULL;
  g_autofree char *sql = NULL;
  guint max_ref = 0;

  q->from_us = G_GINT64_CONSTANT (1709287200000000);
  q->to_us = G_GINT64_CONSTANT (1709290800000000);
  g_ptr_array_add (q->call_ids, g_strdup ("a@b"));
  g_ptr_array_add (q->call_ids, g_strdup ("c'd"));
  q->node = g_strdup ("sbc-1");
  q->from_user = g_strdup ("1001");
  sql = cs_homer_query_build_sql (q, 4, &params);
  g_assert_cmpuint (params->len, ==, 6);
  g_assert_cmpstr (params->pdata[0], ==, "2024-03-01 10:00:00.000000+00");
  g_assert_cmpstr (params->pdata[1], ==, "2024-03-01 11:00:00.000000+00");
  g_assert_cmpstr (params->pdata[2], ==, "a@b");
  g_assert_cmpstr (params->pdata[3], ==, "c'd");
  g_assert_cmpstr (params->pdata[4], ==, "sbc-1");
  g_assert_cmpstr (params->pdata[5], ==, "1001");
  /* values travel as parameters, never inside the text */
  g_assert_null (strstr (sql, "c'd"));
  for (const char *p = strchr (sql, '$'); p != NULL; p = strchr (p + 1, '$'))
    max_ref = MAX (max_ref, (guint) g_ascii_strtoull (p + 1, NULL, 10));
  g_assert_cmpuint (max_ref, ==, params->len);
  g_assert_nonnull (strstr (sql, "FROM hep_proto_5_default"));
  g_assert_nonnull (strstr (sql, "ORDER BY create_date"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/homer-query/parse-time", test_parse_time);
  g_test_add_func ("/homer-query/check", test_check);
  g_test_add_func ("/homer-query/sql-params", test_sql_params);
  return g_test_run ();
}
