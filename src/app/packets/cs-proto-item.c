/* cs-proto-item.c — lines of a protocol tree, sharing the tree they point into */
#include "cs-proto-item.h"

typedef struct
{
  CsProtoTree *tree;
} CsProtoTreeRef;

static void
cs_proto_tree_ref_clear (gpointer data)
{
  cs_proto_tree_free (((CsProtoTreeRef *) data)->tree);
}

struct _CsProtoItem
{
  GObject parent_instance;
  CsProtoTreeRef *ref; /* g_rc_box */
  guint index;
};

G_DEFINE_FINAL_TYPE (CsProtoItem, cs_proto_item, G_TYPE_OBJECT)

static void
cs_proto_item_finalize (GObject *object)
{
  g_rc_box_release_full (CS_PROTO_ITEM (object)->ref, cs_proto_tree_ref_clear);
  G_OBJECT_CLASS (cs_proto_item_parent_class)->finalize (object);
}

static void
cs_proto_item_class_init (CsProtoItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cs_proto_item_finalize;
}

static void
cs_proto_item_init (CsProtoItem *self)
{
}

static CsProtoItem *
cs_proto_item_new (CsProtoTreeRef *ref, guint index)
{
  CsProtoItem *self = g_object_new (CS_TYPE_PROTO_ITEM, NULL);

  self->ref = g_rc_box_acquire (ref);
  self->index = index;
  return self;
}

const CsProtoNode *
cs_proto_item_get_node (CsProtoItem *self)
{
  return cs_proto_tree_get_node (self->ref->tree, self->index);
}

guint
cs_proto_item_get_index (CsProtoItem *self)
{
  return self->index;
}

/* The lines one deeper than the line at parent (or the layers when parent is -1). */
static GListModel *
cs_proto_children (CsProtoTreeRef *ref, int parent)
{
  guint n = cs_proto_tree_get_n_nodes (ref->tree);
  guint depth = parent < 0 ? 0 : cs_proto_tree_get_node (ref->tree, (guint) parent)->depth + 1u;
  GListStore *store = g_list_store_new (CS_TYPE_PROTO_ITEM);

  for (guint i = (guint) (parent + 1); i < n; i++)
    {
      const CsProtoNode *node = cs_proto_tree_get_node (ref->tree, i);

      if (parent >= 0 && node->depth < depth)
        break;
      if (node->depth == depth)
        {
          g_autoptr (CsProtoItem) item = cs_proto_item_new (ref, i);

          g_list_store_append (store, item);
        }
    }
  if (g_list_model_get_n_items (G_LIST_MODEL (store)) == 0)
    {
      g_object_unref (store);
      return NULL;
    }
  return G_LIST_MODEL (store);
}

static GListModel *
cs_proto_create_children (gpointer item, gpointer user_data)
{
  CsProtoItem *self = item;

  return cs_proto_children (self->ref, (int) self->index);
}

GtkTreeListModel *
cs_proto_tree_list_new (CsProtoTree *tree)
{
  CsProtoTreeRef *ref = g_rc_box_new0 (CsProtoTreeRef);
  GListModel *root;

  ref->tree = tree;
  root = cs_proto_children (ref, -1);
  if (root == NULL)
    root = G_LIST_MODEL (g_list_store_new (CS_TYPE_PROTO_ITEM));
  g_rc_box_release_full (ref, cs_proto_tree_ref_clear);
  return gtk_tree_list_model_new (root, FALSE, FALSE, cs_proto_create_children, NULL, NULL);
}
