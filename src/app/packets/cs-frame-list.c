/* cs-frame-list.c — rows made on demand from the frame index: scope, filter and order are
 * arrays of guint32, a row object lives only while the list view shows it */
#include "cs-frame-list.h"

struct _CsFrameRow
{
  GObject parent_instance;
  guint32 number, length;
  double time;
  CsProtoTree *summary;
};

G_DEFINE_FINAL_TYPE (CsFrameRow, cs_frame_row, G_TYPE_OBJECT)

static void
cs_frame_row_finalize (GObject *object)
{
  cs_proto_tree_free (CS_FRAME_ROW (object)->summary);
  G_OBJECT_CLASS (cs_frame_row_parent_class)->finalize (object);
}

static void
cs_frame_row_class_init (CsFrameRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cs_frame_row_finalize;
}

static void
cs_frame_row_init (CsFrameRow *self)
{
}

guint32
cs_frame_row_get_number (CsFrameRow *self)
{
  return self->number;
}

double
cs_frame_row_get_time (CsFrameRow *self)
{
  return self->time;
}

guint32
cs_frame_row_get_length (CsFrameRow *self)
{
  return self->length;
}

const char *
cs_frame_row_get_source (CsFrameRow *self)
{
  return self->summary != NULL ? cs_proto_tree_get_source (self->summary) : "";
}

const char *
cs_frame_row_get_destination (CsFrameRow *self)
{
  return self->summary != NULL ? cs_proto_tree_get_destination (self->summary) : "";
}

const char *
cs_frame_row_get_protocol (CsFrameRow *self)
{
  return self->summary != NULL ? cs_proto_tree_get_protocol (self->summary) : "";
}

const char *
cs_frame_row_get_info (CsFrameRow *self)
{
  return self->summary != NULL ? cs_proto_tree_get_info (self->summary) : "";
}

struct _CsFrameList
{
  GObject parent_instance;
  CsFrameDissector *dissector;
  guint32 n_frames; /* of the capture */
  GArray *scope;    /* guint32 frame numbers, or NULL: 1..n_frames */
  GArray *view;     /* guint32 positions in the scope (filtered, sorted), or NULL: all */
  char *filter;
  CsFrameColumn sort_column;
  gboolean descending;
  guint announced; /* the item count the last items-changed told */
};

static void cs_frame_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (CsFrameList, cs_frame_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, cs_frame_list_model_init))

static guint
cs_frame_list_scope_len (CsFrameList *self)
{
  return self->scope != NULL ? self->scope->len : self->n_frames;
}

static guint32
cs_frame_list_scope_number (CsFrameList *self, guint index)
{
  return self->scope != NULL ? g_array_index (self->scope, guint32, index) : index + 1;
}

guint32
cs_frame_list_get_number (CsFrameList *self, guint position)
{
  guint n = self->view != NULL ? self->view->len : cs_frame_list_scope_len (self);

  if (position >= n || self->dissector == NULL)
    return 0;
  return cs_frame_list_scope_number (
      self, self->view != NULL ? g_array_index (self->view, guint32, position) : position);
}

static GType
cs_frame_list_get_item_type (GListModel *model)
{
  return CS_TYPE_FRAME_ROW;
}

static guint
cs_frame_list_get_n_items (GListModel *model)
{
  CsFrameList *self = CS_FRAME_LIST (model);

  if (self->dissector == NULL)
    return 0;
  return self->view != NULL ? self->view->len : cs_frame_list_scope_len (self);
}

static CsFrameRow *
cs_frame_list_make_row (CsFrameList *self, guint32 number)
{
  CsFrameRow *row = g_object_new (CS_TYPE_FRAME_ROW, NULL);
  CsFrame frame = { 0 };

  row->number = number;
  if (cs_frame_dissector_bytes (self->dissector, number, &frame) != NULL)
    {
      row->length = frame.origlen;
      row->time = cs_frame_dissector_relative_time (self->dissector, &frame);
    }
  row->summary = cs_frame_dissector_summary (self->dissector, number);
  return row;
}

static gpointer
cs_frame_list_get_item (GListModel *model, guint position)
{
  CsFrameList *self = CS_FRAME_LIST (model);
  guint32 number = cs_frame_list_get_number (self, position);

  return number != 0 ? cs_frame_list_make_row (self, number) : NULL;
}

static void
cs_frame_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = cs_frame_list_get_item_type;
  iface->get_n_items = cs_frame_list_get_n_items;
  iface->get_item = cs_frame_list_get_item;
}

static void
cs_frame_list_finalize (GObject *object)
{
  CsFrameList *self = CS_FRAME_LIST (object);

  g_clear_pointer (&self->scope, g_array_unref);
  g_clear_pointer (&self->view, g_array_unref);
  g_free (self->filter);
  G_OBJECT_CLASS (cs_frame_list_parent_class)->finalize (object);
}

static void
cs_frame_list_class_init (CsFrameListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cs_frame_list_finalize;
}

static void
cs_frame_list_init (CsFrameList *self)
{
}

CsFrameList *
cs_frame_list_new (void)
{
  return g_object_new (CS_TYPE_FRAME_LIST, NULL);
}

/* One column's key of a scope position, for sorting. */
typedef struct
{
  guint32 position;
  guint32 number;
  double number_key;
  char *text_key;
} CsSortEntry;

static int
cs_sort_entry_compare (gconstpointer a, gconstpointer b, gpointer data)
{
  const CsSortEntry *x = a, *y = b;
  gboolean descending = GPOINTER_TO_INT (data);
  int c;

  if (x->text_key != NULL)
    c = g_strcmp0 (x->text_key, y->text_key);
  else
    c = x->number_key < y->number_key ? -1 : x->number_key > y->number_key;
  if (c == 0)
    c = x->number < y->number ? -1 : x->number > y->number;
  return descending ? -c : c;
}

static gboolean
cs_frame_list_matches (CsFrameRow *row, const char *folded)
{
  const char *fields[] = { cs_frame_row_get_protocol (row), cs_frame_row_get_source (row),
                           cs_frame_row_get_destination (row) };

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      g_autofree char *f = g_utf8_casefold (fields[i], -1);

      if (strstr (f, folded) != NULL)
        return TRUE;
    }
  return FALSE;
}

/* Tells the list views everything changed. */
static void
cs_frame_list_announce (CsFrameList *self)
{
  guint old = self->announced;

  self->announced = g_list_model_get_n_items (G_LIST_MODEL (self));
  g_list_model_items_changed (G_LIST_MODEL (self), 0, old, self->announced);
}

/* Rebuilds view from the scope, the filter and the order. */
static void
cs_frame_list_rebuild (CsFrameList *self)
{
  guint n = cs_frame_list_scope_len (self);
  gboolean filtered = self->filter != NULL && *self->filter != '\0';
  gboolean sorted = !(self->sort_column == CS_FRAME_COLUMN_NUMBER && !self->descending);
  g_autofree char *folded = filtered ? g_utf8_casefold (self->filter, -1) : NULL;
  GArray *entries = NULL;

  g_clear_pointer (&self->view, g_array_unref);
  if (self->dissector != NULL && (filtered || sorted))
    {
      entries = g_array_new (FALSE, FALSE, sizeof (CsSortEntry));
      for (guint i = 0; i < n; i++)
        {
          guint32 number = cs_frame_list_scope_number (self, i);
          gboolean text = self->sort_column == CS_FRAME_COLUMN_SOURCE
                          || self->sort_column == CS_FRAME_COLUMN_DESTINATION
                          || self->sort_column == CS_FRAME_COLUMN_PROTOCOL
                          || self->sort_column == CS_FRAME_COLUMN_INFO;
          g_autoptr (CsFrameRow) row = NULL;
          CsSortEntry e = { i, number, number, NULL };

          if (filtered || text || self->sort_column != CS_FRAME_COLUMN_NUMBER)
            row = cs_frame_list_make_row (self, number);
          if (filtered && !cs_frame_list_matches (row, folded))
            continue;
          if (self->sort_column == CS_FRAME_COLUMN_TIME)
            e.number_key = row->time;
          else if (self->sort_column == CS_FRAME_COLUMN_LENGTH)
            e.number_key = row->length;
          else if (text)
            e.text_key = g_strdup (
                self->sort_column == CS_FRAME_COLUMN_SOURCE ? cs_frame_row_get_source (row)
                : self->sort_column == CS_FRAME_COLUMN_DESTINATION
                    ? cs_frame_row_get_destination (row)
                : self->sort_column == CS_FRAME_COLUMN_PROTOCOL ? cs_frame_row_get_protocol (row)
                                                                : cs_frame_row_get_info (row));
          g_array_append_val (entries, e);
        }
      if (sorted)
        g_array_sort_with_data (entries, cs_sort_entry_compare, GINT_TO_POINTER (self->descending));
      self->view = g_array_sized_new (FALSE, FALSE, sizeof (guint32), entries->len);
      for (guint i = 0; i < entries->len; i++)
        {
          CsSortEntry *e = &g_array_index (entries, CsSortEntry, i);

          g_array_append_val (self->view, e->position);
          g_free (e->text_key);
        }
      g_array_unref (entries);
    }
  cs_frame_list_announce (self);
}

void
cs_frame_list_set_dissector (CsFrameList *self, CsFrameDissector *dissector, guint32 n_frames)
{
  self->dissector = dissector;
  self->n_frames = n_frames;
  g_clear_pointer (&self->scope, g_array_unref);
  g_clear_pointer (&self->view, g_array_unref);
  cs_frame_list_announce (self);
}

void
cs_frame_list_set_scope (CsFrameList *self, GArray *frames)
{
  g_clear_pointer (&self->scope, g_array_unref);
  self->scope = frames;
  cs_frame_list_rebuild (self);
}

void
cs_frame_list_set_filter (CsFrameList *self, const char *text)
{
  if (g_strcmp0 (self->filter, text) == 0)
    return;
  g_free (self->filter);
  self->filter = g_strdup (text);
  cs_frame_list_rebuild (self);
}

void
cs_frame_list_sort (CsFrameList *self, CsFrameColumn column, gboolean descending)
{
  if (self->sort_column == column && self->descending == descending)
    return;
  self->sort_column = column;
  self->descending = descending;
  cs_frame_list_rebuild (self);
}

guint
cs_frame_list_find (CsFrameList *self, guint32 number)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self));

  /* unsorted and unfiltered: the scope is ascending, so search it */
  if (self->view == NULL && self->scope == NULL)
    return number >= 1 && number <= self->n_frames ? number - 1 : G_MAXUINT;
  if (self->view == NULL)
    {
      guint lo = 0, hi = self->scope->len;

      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;

          if (g_array_index (self->scope, guint32, mid) < number)
            lo = mid + 1;
          else
            hi = mid;
        }
      return lo < self->scope->len && g_array_index (self->scope, guint32, lo) == number
                 ? lo
                 : G_MAXUINT;
    }
  for (guint i = 0; i < n; i++)
    if (cs_frame_list_get_number (self, i) == number)
      return i;
  return G_MAXUINT;
}

gsize
cs_frame_list_get_bytes (CsFrameList *self)
{
  return (self->scope != NULL ? self->scope->len * sizeof (guint32) : 0)
         + (self->view != NULL ? self->view->len * sizeof (guint32) : 0);
}
