/* cs-proto-item.h — the Packets page's protocol tree as a GtkTreeListModel: one CsProtoItem per
 * line of a CsProtoTree, children made when a line is expanded */
#pragma once

#include <gtk/gtk.h>

#include "callscope-engine.h"

G_BEGIN_DECLS

#define CS_TYPE_PROTO_ITEM (cs_proto_item_get_type ())
G_DECLARE_FINAL_TYPE (CsProtoItem, cs_proto_item, CS, PROTO_ITEM, GObject)

const CsProtoNode *cs_proto_item_get_node (CsProtoItem *self);
guint cs_proto_item_get_index (CsProtoItem *self); /* in the tree */

/* A tree list model of tree (taken): its layers at the top, each expandable. */
GtkTreeListModel *cs_proto_tree_list_new (CsProtoTree *tree);

G_END_DECLS
