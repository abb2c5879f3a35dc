/* SIP message totals, per-method and per-status counts must equal tshark's
 * `-z sip,stat` on every sample capture. */
#include "golden-common.h"

#include <stdio.h>
#include <string.h>

typedef struct
{
  guint64 total;
  GHashTable *methods;  /* "INVITE" → count */
  GHashTable *statuses; /* "200" → count */
} TsharkSipStat;

static void
tshark_sip_stat_free (TsharkSipStat *stat)
{
  g_hash_table_unref (stat->methods);
  g_hash_table_unref (stat->statuses);
  g_free (stat);
}

/* Reads the sip,stat section of a stored `tshark -q -z sip,stat` output. */
static TsharkSipStat *
tshark_sip_stat_load (const char *path)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  TsharkSipStat *stat;
  enum
  {
    NONE,
    STATUSES,
    METHODS
  } section
      = NONE;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  stat = g_new0 (TsharkSipStat, 1);
  stat->methods = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  stat->statuses = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      g_auto (GStrv) parts = NULL;
      guint64 count;
      char name[64];

      if (sscanf (line, "Number of SIP messages: %" G_GUINT64_FORMAT, &stat->total) == 1)
        continue;
      if (g_str_has_prefix (line, "* SIP Status Codes"))
        section = STATUSES;
      else if (g_str_has_prefix (line, "* List of SIP Request methods"))
        section = METHODS;
      else if (g_str_has_prefix (line, "* "))
        section = NONE;
      if (strchr (line, ':') == NULL || section == NONE || !g_str_has_prefix (line, "  "))
        continue;
      parts = g_strsplit (line, ":", 2);
      if (sscanf (parts[1], " %" G_GUINT64_FORMAT, &count) != 1)
        continue;
      if (section == STATUSES && sscanf (parts[0], " SIP %63s", name) == 1)
        g_hash_table_insert (stat->statuses, g_strdup (name), GSIZE_TO_POINTER (count));
      else if (section == METHODS && sscanf (parts[0], " %63s", name) == 1)
        g_hash_table_insert (stat->methods, g_strdup (name), GSIZE_TO_POINTER (count));
    }
  return stat;
}

static void
assert_counts_equal (const char *what, GHashTable *expected, JsonObject *actual)
{
  GHashTableIter iter;
  gpointer key, value;
  GList *members = json_object_get_members (actual);

  g_hash_table_iter_init (&iter, expected);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      gint64 got
          = json_object_has_member (actual, key) ? json_object_get_int_member (actual, key) : 0;
      if (got != (gint64) GPOINTER_TO_SIZE (value))
        g_test_message ("%s %s: tshark %zu, callscope %" G_GINT64_FORMAT, what, (const char *) key,
                        GPOINTER_TO_SIZE (value), got);
      g_assert_cmpint (got, ==, (gint64) GPOINTER_TO_SIZE (value));
    }
  /* Nothing reported that tshark did not see. */
  for (GList *l = members; l != NULL; l = l->next)
    if (!g_hash_table_contains (expected, l->data))
      {
        g_test_message ("%s %s: callscope reports it, tshark does not", what,
                        (const char *) l->data);
        g_assert_not_reached ();
      }
  g_list_free (members);
}

static void
test_sample_sip_counts (gconstpointer data)
{
  const char *name = data;
  const char *dir = golden_samples_dir ();
  g_autofree char *capture = g_build_filename (dir, name, NULL);
  g_autofree char *txt_name = g_strconcat (name, ".txt", NULL);
  g_autofree char *reference = g_build_filename (dir, "tshark", txt_name, NULL);
  TsharkSipStat *expected = tshark_sip_stat_load (reference);
  int status = -1;
  g_autoptr (JsonNode) root = NULL;
  JsonObject *cap;

  g_assert_nonnull (expected);
  root = golden_report (capture, &status);
  g_assert_cmpint (status, ==, 0);
  cap = json_object_get_object_member (json_node_get_object (root), "capture");
  g_assert_cmpint (json_object_get_int_member (cap, "sip_messages"), ==, expected->total);
  assert_counts_equal ("method", expected->methods,
                       json_object_get_object_member (cap, "sip_methods"));
  assert_counts_equal ("status", expected->statuses,
                       json_object_get_object_member (cap, "sip_statuses"));
  tshark_sip_stat_free (expected);
}

int
main (int argc, char **argv)
{
  g_autoptr (GPtrArray) names = NULL;

  g_test_init (&argc, &argv, NULL);
  names = golden_sample_names ();
  if (names == NULL)
    {
      g_print ("1..0 # SKIP ../shared/samples not present\n");
      return 0;
    }
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *path = g_strdup_printf ("/golden/samples/sip-stat/%s", name);

      g_test_add_data_func (path, name, test_sample_sip_counts);
    }
  return g_test_run ();
}
