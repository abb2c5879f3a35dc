/* cs-finding-groups.c — identical findings together (the Findings page, the text report) */
#include "cs-finding-groups.h"

#include <stdlib.h>
#include <string.h>

static void
cs_finding_group_free (gpointer data)
{
  CsFindingGroup *group = data;

  g_object_unref (group->first);
  g_ptr_array_unref (group->members);
  g_free (group);
}

static guint
cs_finding_group_hash (gconstpointer key)
{
  CsFinding *f = (CsFinding *) key;
  const char *text = cs_finding_get_text (f);

  return g_str_hash (text != NULL ? text : "") * 31u + cs_finding_get_kind (f) * 7u
         + cs_finding_get_severity (f);
}

static gboolean
cs_finding_group_equal (gconstpointer a, gconstpointer b)
{
  CsFinding *fa = (CsFinding *) a, *fb = (CsFinding *) b;
  const char *ta = cs_finding_get_text (fa), *tb = cs_finding_get_text (fb);

  return cs_finding_get_kind (fa) == cs_finding_get_kind (fb)
         && cs_finding_get_severity (fa) == cs_finding_get_severity (fb)
         && (ta == tb || g_strcmp0 (ta, tb) == 0);
}

GPtrArray *
cs_finding_groups_new (GListModel *findings)
{
  GPtrArray *groups = g_ptr_array_new_with_free_func (cs_finding_group_free);
  g_autoptr (GHashTable) by_first
      = g_hash_table_new (cs_finding_group_hash, cs_finding_group_equal);
  guint n = g_list_model_get_n_items (findings);

  for (guint i = 0; i < n; i++)
    {
      CsFinding *f = g_list_model_get_item (findings, i); /* a reference, kept or dropped */
      CsFindingGroup *group = g_hash_table_lookup (by_first, f);

      if (group == NULL)
        {
          group = g_new0 (CsFindingGroup, 1);
          group->first = g_object_ref (f);
          group->members = g_ptr_array_new_with_free_func (g_object_unref);
          g_hash_table_insert (by_first, group->first, group);
          g_ptr_array_add (groups, group);
        }
      g_ptr_array_add (group->members, f);
    }
  return groups;
}

static int
cs_compare_uint (const void *a, const void *b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return (x > y) - (x < y);
}

char *
cs_finding_group_calls_text (const CsFindingGroup *group, guint max_ranges)
{
  g_autofree guint *calls = g_new (guint, group->members->len + 1);
  GString *text = g_string_new (NULL);
  guint n = 0, kept = 0, ranges = 0, left_out = 0;

  for (guint i = 0; i < group->members->len; i++)
    {
      guint call = cs_finding_get_call_number (g_ptr_array_index (group->members, i));

      if (call != 0)
        calls[n++] = call;
    }
  qsort (calls, n, sizeof *calls, cs_compare_uint);
  /* a call with two such findings (two streams) counts once */
  for (guint i = 0; i < n; i++)
    if (kept == 0 || calls[i] != calls[kept - 1])
      calls[kept++] = calls[i];
  n = kept;
  for (guint i = 0; i < n;)
    {
      guint j = i;

      while (j + 1 < n && calls[j + 1] <= calls[j] + 1)
        j++;
      if (ranges == max_ranges)
        left_out += j - i + 1;
      else if (calls[j] == calls[i])
        g_string_append_printf (text, "%s%u", ranges > 0 ? ", " : "", calls[i]);
      else
        g_string_append_printf (text, "%s%u–%u", ranges > 0 ? ", " : "", calls[i], calls[j]);
      ranges += ranges < max_ranges;
      i = j + 1;
    }
  if (left_out > 0)
    g_string_append_printf (text, " … (%u more)", left_out);
  return g_string_free (text, FALSE);
}
