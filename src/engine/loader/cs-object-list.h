/* cs-object-list.h — GListModel of GObjects in an array: O(1) lookups, appends in bulk */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define CS_TYPE_OBJECT_LIST (cs_object_list_get_type ())
G_DECLARE_FINAL_TYPE (CsObjectList, cs_object_list, CS, OBJECT_LIST, GObject)

/* A list of item_type objects, changed only on its owner's main context. */
CsObjectList *cs_object_list_new (GType item_type);
/* Appends items (each gets a reference) in one items-changed emission. */
void cs_object_list_append_many (CsObjectList *self, gpointer const *items, guint n);

/* The items, borrowed (the list keeps them): for readers on any thread while the list
 * does not change, without a reference per item. */
GPtrArray *cs_object_list_peek_items (CsObjectList *self);

G_END_DECLS
