/* cs-object-list.c — GListModel of GObjects in an array
 *
 * Streams and findings are appended once, in bulk, and read by position: a GListStore
 * (a GSequence) cost several hundred instructions per item to fill and to read. */
#include "cs-object-list.h"

#include "base/cs-prefetch.h"

struct _CsObjectList
{
  GObject parent_instance;
  GType item_type;
  GPtrArray *items;
};

static void cs_object_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (CsObjectList, cs_object_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, cs_object_list_model_init))

static GType
cs_object_list_get_item_type (GListModel *model)
{
  return CS_OBJECT_LIST (model)->item_type;
}

static guint
cs_object_list_get_n_items (GListModel *model)
{
  return CS_OBJECT_LIST (model)->items->len;
}

static gpointer
cs_object_list_get_item (GListModel *model, guint position)
{
  CsObjectList *self = CS_OBJECT_LIST (model);

  if (position >= self->items->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
cs_object_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = cs_object_list_get_item_type;
  iface->get_n_items = cs_object_list_get_n_items;
  iface->get_item = cs_object_list_get_item;
}

static void
cs_object_list_finalize (GObject *object)
{
  g_ptr_array_unref (CS_OBJECT_LIST (object)->items);
  G_OBJECT_CLASS (cs_object_list_parent_class)->finalize (object);
}

static void
cs_object_list_class_init (CsObjectListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cs_object_list_finalize;
}

static void
cs_object_list_init (CsObjectList *self)
{
  self->item_type = G_TYPE_OBJECT;
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
}

CsObjectList *
cs_object_list_new (GType item_type)
{
  CsObjectList *self = g_object_new (CS_TYPE_OBJECT_LIST, NULL);

  g_return_val_if_fail (g_type_is_a (item_type, G_TYPE_OBJECT), self);
  self->item_type = item_type;
  return self;
}

void
cs_object_list_append_many (CsObjectList *self, gpointer const *items, guint n)
{
  guint position = self->items->len;

  if (n == 0)
    return;
  for (guint i = 0; i < n; i++)
    {
      if (i + 8 < n)
        CS_PREFETCH (items[i + 8]); /* cold items after a load: the reference waits on each */
      g_ptr_array_add (self->items, g_object_ref (items[i]));
    }
  g_list_model_items_changed (G_LIST_MODEL (self), position, 0, n);
}

GPtrArray *
cs_object_list_peek_items (CsObjectList *self)
{
  return self->items;
}
