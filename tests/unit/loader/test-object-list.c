/* cs-object-list: the array-backed list model of streams and findings. */
#include "findings/cs-finding.h"
#include "loader/cs-object-list.h"

static void
on_items_changed (GListModel *model, guint position, guint removed, guint added, guint *seen)
{
  seen[0] = position;
  seen[1] = removed;
  seen[2] = added;
  seen[3]++;
}

static void
test_append_and_read (void)
{
  g_autoptr (CsObjectList) list = cs_object_list_new (CS_TYPE_FINDING);
  GListModel *model = G_LIST_MODEL (list);
  CsFinding *items[3];
  guint seen[4] = { 0 };

  for (guint i = 0; i < G_N_ELEMENTS (items); i++)
    items[i] = cs_finding_new (CS_FINDING_NO_MEDIA, CS_SEVERITY_ERROR, i + 1, 0, NULL, "x");
  g_signal_connect (list, "items-changed", G_CALLBACK (on_items_changed), seen);
  g_assert_true (g_list_model_get_item_type (model) == CS_TYPE_FINDING);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);
  cs_object_list_append_many (list, (gpointer *) items, 0);
  g_assert_cmpuint (seen[3], ==, 0); /* nothing added: no signal */
  cs_object_list_append_many (list, (gpointer *) items, 2);
  g_assert_cmpuint (seen[3], ==, 1);
  g_assert_cmpuint (seen[0], ==, 0);
  g_assert_cmpuint (seen[2], ==, 2);
  cs_object_list_append_many (list, (gpointer *) items + 2, 1);
  g_assert_cmpuint (seen[0], ==, 2);
  g_assert_cmpuint (seen[1], ==, 0);
  g_assert_cmpuint (seen[2], ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3);
  for (guint i = 0; i < G_N_ELEMENTS (items); i++)
    {
      g_autoptr (CsFinding) got = g_list_model_get_item (model, i);

      g_assert_true (got == items[i]);
      g_object_unref (items[i]); /* the list holds its own reference */
    }
  g_assert_null (g_list_model_get_item (model, 3));
  g_assert_cmpuint (cs_object_list_peek_items (list)->len, ==, 3);
  g_assert_true (g_ptr_array_index (cs_object_list_peek_items (list), 1) == items[1]);
  g_assert_cmpuint (cs_finding_get_call_number (CS_FINDING (g_list_model_get_object (model, 2))),
                    ==, 3);
  g_object_unref (g_list_model_get_object (model, 2));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/object-list/append-and-read", test_append_and_read);
  return g_test_run ();
}
