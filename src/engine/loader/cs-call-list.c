/* cs-call-list.c — GListModel of CsCall */
#include "cs-call-list.h"

#include "base/cs-prefetch.h"

#include <stdlib.h>

struct _CsCallList
{
  GObject parent_instance;
  GPtrArray *calls;
  GHashTable *by_call_id; /* Call-ID → first CsCall with it; NULL until the first lookup */
  GMutex index_lock;      /* lookups may run on several threads: one builds the index */
  guint n_invite_dialogs; /* calls whose method is INVITE: the others are other exchanges */
};

static void cs_call_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (CsCallList, cs_call_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, cs_call_list_model_init))

static GType
cs_call_list_get_item_type (GListModel *model)
{
  return CS_TYPE_CALL;
}

static guint
cs_call_list_get_n_items (GListModel *model)
{
  return CS_CALL_LIST (model)->calls->len;
}

static gpointer
cs_call_list_get_item (GListModel *model, guint position)
{
  CsCallList *self = CS_CALL_LIST (model);

  if (position >= self->calls->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->calls, position));
}

static void
cs_call_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = cs_call_list_get_item_type;
  iface->get_n_items = cs_call_list_get_n_items;
  iface->get_item = cs_call_list_get_item;
}

static void
cs_call_list_finalize (GObject *object)
{
  CsCallList *self = CS_CALL_LIST (object);

  g_clear_pointer (&self->by_call_id, g_hash_table_unref);
  g_mutex_clear (&self->index_lock);
  g_ptr_array_unref (self->calls);
  G_OBJECT_CLASS (cs_call_list_parent_class)->finalize (object);
}

static void
cs_call_list_class_init (CsCallListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cs_call_list_finalize;
}

static void
cs_call_list_init (CsCallList *self)
{
  self->calls = g_ptr_array_new_with_free_func (g_object_unref);
  g_mutex_init (&self->index_lock);
}

CsCallList *
cs_call_list_new (void)
{
  return g_object_new (CS_TYPE_CALL_LIST, NULL);
}

/* Indexes a call by Call-ID unless an earlier call has it. */
static void
cs_call_list_index (CsCallList *self, CsCall *call)
{
  const char *call_id = cs_call_get_call_id (call);

  if (call_id != NULL && !g_hash_table_contains (self->by_call_id, call_id))
    g_hash_table_insert (self->by_call_id, (gpointer) call_id, call);
}

void
cs_call_list_append_many (CsCallList *self, CsCall *const *calls, guint n)
{
  guint position = self->calls->len;

  if (n == 0)
    return;
  for (guint i = 0; i < n; i++)
    {
      if (i + 8 < n)
        CS_PREFETCH (calls[i + 8]); /* cold calls after a load: the reference waits on each */
      g_ptr_array_add (self->calls, g_object_ref (calls[i]));
      self->n_invite_dialogs += cs_call_get_method (calls[i]) == CS_SIP_METHOD_INVITE;
      if (self->by_call_id != NULL)
        cs_call_list_index (self, calls[i]);
    }
  g_list_model_items_changed (G_LIST_MODEL (self), position, 0, n);
}

void
cs_call_list_replace (CsCallList *self, guint position, CsCall *const *calls, guint n)
{
  g_return_if_fail (position + n <= self->calls->len);
  if (n == 0)
    return;
  for (guint i = 0; i < n; i++)
    {
      CsCall *old = g_ptr_array_index (self->calls, position + i);
      const char *call_id = cs_call_get_call_id (old);

      if (self->by_call_id != NULL && call_id != NULL
          && g_hash_table_lookup (self->by_call_id, call_id) == old)
        g_hash_table_remove (self->by_call_id, call_id);
      self->n_invite_dialogs -= cs_call_get_method (old) == CS_SIP_METHOD_INVITE;
      self->n_invite_dialogs += cs_call_get_method (calls[i]) == CS_SIP_METHOD_INVITE;
      self->calls->pdata[position + i] = g_object_ref (calls[i]);
      g_object_unref (old);
    }
  for (guint i = 0; self->by_call_id != NULL && i < n; i++)
    cs_call_list_index (self, calls[i]);
  g_list_model_items_changed (G_LIST_MODEL (self), position, n, n);
}

CsCall *
cs_call_list_lookup_number (CsCallList *self, guint number)
{
  if (number >= 1 && number <= self->calls->len)
    {
      CsCall *call = g_ptr_array_index (self->calls, number - 1);

      if (cs_call_get_number (call) == number)
        return call;
    }
  for (guint i = 0; i < self->calls->len; i++)
    if (cs_call_get_number (g_ptr_array_index (self->calls, i)) == number)
      return g_ptr_array_index (self->calls, i);
  return NULL;
}

CsCall *
cs_call_list_lookup_call_id (CsCallList *self, const char *call_id)
{
  CsCall *found;

  if (call_id == NULL)
    return NULL;
  /* built on the first lookup: most lists (a report) are never searched by Call-ID */
  g_mutex_lock (&self->index_lock);
  if (self->by_call_id == NULL)
    {
      self->by_call_id = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint i = 0; i < self->calls->len; i++)
        cs_call_list_index (self, g_ptr_array_index (self->calls, i));
    }
  found = g_hash_table_lookup (self->by_call_id, call_id);
  g_mutex_unlock (&self->index_lock);
  return found;
}

CsCall *
cs_call_list_lookup (CsCallList *self, const char *number_or_call_id)
{
  char *end = NULL;
  guint64 number;

  if (number_or_call_id == NULL || *number_or_call_id == '\0')
    return NULL;
  number = g_ascii_strtoull (number_or_call_id, &end, 10);
  if (end != NULL && *end == '\0' && number <= G_MAXUINT)
    {
      CsCall *call = cs_call_list_lookup_number (self, (guint) number);

      if (call != NULL)
        return call;
    }
  return cs_call_list_lookup_call_id (self, number_or_call_id);
}

GPtrArray *
cs_call_list_peek_calls (CsCallList *self)
{
  return self->calls;
}

guint
cs_call_list_get_n_invite_dialogs (CsCallList *self)
{
  return self->n_invite_dialogs;
}
