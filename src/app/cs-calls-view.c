/* cs-calls-view.c — the sortable, filterable list of calls (a GtkColumnView) */
#include "cs-calls-view.h"

#include <glib/gi18n.h>
#include <string.h>

#include "cs-display-format.h"
#include "cs-status-page.h"

struct _CsCallsView
{
  GtkWidget parent_instance;

  GtkStack *stack;
  GtkColumnView *column_view;
  CsStatusPage *empty_page;

  GListModel *calls;
  GtkFilterListModel *filter_model;
  GtkCustomFilter *filter;
  GtkSortListModel *sort_model;
  GtkSingleSelection *selection;
  char *filter_text; /* casefolded, NULL when empty */
  gboolean loading;
};

G_DEFINE_FINAL_TYPE (CsCallsView, cs_calls_view, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_SELECTED_CALL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

typedef char *(*CsCallTextFunc) (CsCallsView *self, CsCall *call);

typedef struct
{
  const char *title;   /* marked with N_ () */
  const char *tooltip; /* marked with N_ (), may be NULL */
  gboolean numeric;    /* right-aligned, tabular figures */
  gboolean expand;
  int width; /* fixed width in px, or -1 */
  CsCallTextFunc text;
  GCompareDataFunc compare;
} CsCallsColumn;

const char *
cs_calls_view_state_label (CsCallState state)
{
  switch (state)
    {
    case CS_CALL_STATE_SETUP:
      return C_ ("call state", "Setup");
    case CS_CALL_STATE_RINGING:
      return C_ ("call state", "Ringing");
    case CS_CALL_STATE_IN_CALL:
      return C_ ("call state", "In call");
    case CS_CALL_STATE_COMPLETED:
      return C_ ("call state", "Completed");
    case CS_CALL_STATE_CANCELLED:
      return C_ ("call state", "Cancelled");
    case CS_CALL_STATE_REJECTED:
      return C_ ("call state", "Rejected");
    case CS_CALL_STATE_FAILED:
      return C_ ("call state", "Failed");
    default:
      return C_ ("call state", "Unknown");
    }
}

const char *
cs_calls_view_state_css_class (CsCallState state)
{
  switch (state)
    {
    case CS_CALL_STATE_COMPLETED:
    case CS_CALL_STATE_IN_CALL:
      return "state-good";
    case CS_CALL_STATE_SETUP:
    case CS_CALL_STATE_RINGING:
      return "state-degraded";
    case CS_CALL_STATE_REJECTED:
    case CS_CALL_STATE_FAILED:
      return "state-bad";
    case CS_CALL_STATE_CANCELLED:
    default:
      return "state-unknown";
    }
}

/* Cell texts */

static char *
text_number (CsCallsView *self, CsCall *call)
{
  return g_strdup_printf ("%u", cs_call_get_number (call));
}

static gint64
base_time_ns (CsCallsView *self)
{
  g_autoptr (CsCall) first = NULL;

  /* Calls arrive in order of their first message: the first one starts the clock. */
  if (self->calls == NULL || g_list_model_get_n_items (self->calls) == 0)
    return 0;
  first = g_list_model_get_item (self->calls, 0);
  return cs_call_get_start_ns (first);
}

static char *
text_start (CsCallsView *self, CsCall *call)
{
  return cs_display_format_seconds (cs_call_get_start_ns (call) - base_time_ns (self));
}

static char *
text_from (CsCallsView *self, CsCall *call)
{
  return g_strdup (cs_call_get_from (call));
}

static char *
text_to (CsCallsView *self, CsCall *call)
{
  return g_strdup (cs_call_get_to (call));
}

static char *
text_method (CsCallsView *self, CsCall *call)
{
  return g_strdup (cs_call_get_method_name (call));
}

static char *
text_call_id (CsCallsView *self, CsCall *call)
{
  return g_strdup (cs_call_get_call_id (call));
}

static char *
text_state (CsCallsView *self, CsCall *call)
{
  return g_strdup (cs_calls_view_state_label (cs_call_get_state (call)));
}

static char *
text_final (CsCallsView *self, CsCall *call)
{
  guint status = cs_call_get_final_status (call);
  const char *reason = cs_call_get_final_reason (call);

  if (status == 0)
    return g_strdup ("—");
  if (reason == NULL || *reason == '\0')
    return g_strdup_printf ("%u", status);
  return g_strdup_printf ("%u %s", status, reason);
}

static char *
text_messages (CsCallsView *self, CsCall *call)
{
  return g_strdup_printf ("%u", cs_call_get_n_messages (call));
}

/* Sorting */

static int
compare_uint (guint64 a, guint64 b)
{
  return (a > b) - (a < b);
}

static int
compare_number (gconstpointer a, gconstpointer b, gpointer data)
{
  return compare_uint (cs_call_get_number ((CsCall *) a), cs_call_get_number ((CsCall *) b));
}

static int
compare_start (gconstpointer a, gconstpointer b, gpointer data)
{
  gint64 ta = cs_call_get_start_ns ((CsCall *) a);
  gint64 tb = cs_call_get_start_ns ((CsCall *) b);

  if (ta != tb)
    return (ta > tb) - (ta < tb);
  return compare_number (a, b, data);
}

static int
compare_text (const char *a, const char *b)
{
  g_autofree char *ka = g_utf8_collate_key_for_filename (a != NULL ? a : "", -1);
  g_autofree char *kb = g_utf8_collate_key_for_filename (b != NULL ? b : "", -1);

  return strcmp (ka, kb);
}

static int
compare_from (gconstpointer a, gconstpointer b, gpointer data)
{
  return compare_text (cs_call_get_from ((CsCall *) a), cs_call_get_from ((CsCall *) b));
}

static int
compare_to (gconstpointer a, gconstpointer b, gpointer data)
{
  return compare_text (cs_call_get_to ((CsCall *) a), cs_call_get_to ((CsCall *) b));
}

static int
compare_method (gconstpointer a, gconstpointer b, gpointer data)
{
  return compare_text (cs_call_get_method_name ((CsCall *) a),
                       cs_call_get_method_name ((CsCall *) b));
}

static int
compare_call_id (gconstpointer a, gconstpointer b, gpointer data)
{
  return g_strcmp0 (cs_call_get_call_id ((CsCall *) a), cs_call_get_call_id ((CsCall *) b));
}

static int
compare_state (gconstpointer a, gconstpointer b, gpointer data)
{
  return compare_uint (cs_call_get_state ((CsCall *) a), cs_call_get_state ((CsCall *) b));
}

static int
compare_final (gconstpointer a, gconstpointer b, gpointer data)
{
  return compare_uint (cs_call_get_final_status ((CsCall *) a),
                       cs_call_get_final_status ((CsCall *) b));
}

static int
compare_messages (gconstpointer a, gconstpointer b, gpointer data)
{
  return compare_uint (cs_call_get_n_messages ((CsCall *) a),
                       cs_call_get_n_messages ((CsCall *) b));
}

static const CsCallsColumn columns[] = {
  { N_ ("#"), N_ ("Call number, in order of the first message"), TRUE, FALSE, 64, text_number,
    compare_number },
  { N_ ("Start"), N_ ("Seconds since the first call began"), TRUE, FALSE, 96, text_start,
    compare_start },
  { N_ ("From"), NULL, FALSE, TRUE, -1, text_from, compare_from },
  { N_ ("To"), NULL, FALSE, TRUE, -1, text_to, compare_to },
  { N_ ("Method"), NULL, FALSE, FALSE, 104, text_method, compare_method },
  { N_ ("Call-ID"), NULL, FALSE, TRUE, -1, text_call_id, compare_call_id },
  { N_ ("State"), NULL, FALSE, FALSE, 136, text_state, compare_state },
  { N_ ("Final"), N_ ("Final response"), FALSE, FALSE, 210, text_final, compare_final },
  { N_ ("Messages"), N_ ("SIP messages in the call"), TRUE, FALSE, 104, text_messages,
    compare_messages },
};

/* Cells */

static void
cell_setup (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  const CsCallsColumn *column = data;
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (label), column->numeric ? 1.0f : 0.0f);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  if (column->numeric)
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static void
cell_bind (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  const CsCallsColumn *column = data;
  CsCallsView *self = g_object_get_data (G_OBJECT (factory), "cs-calls-view");
  GtkWidget *label = gtk_list_item_get_child (item);
  CsCall *call = gtk_list_item_get_item (item);
  g_autofree char *text = column->text (self, call);

  gtk_label_set_text (GTK_LABEL (label), text != NULL ? text : "");
  if (column->text == text_state)
    {
      static const char *const state_classes[]
          = { "state-good", "state-degraded", "state-bad", "state-unknown" };

      for (guint i = 0; i < G_N_ELEMENTS (state_classes); i++)
        gtk_widget_remove_css_class (label, state_classes[i]);
      gtk_widget_add_css_class (label, cs_calls_view_state_css_class (cs_call_get_state (call)));
      gtk_widget_add_css_class (label, "state");
    }
  /* Long URIs and Call-IDs are ellipsized; the tooltip keeps the whole text. */
  if (!column->numeric)
    gtk_widget_set_tooltip_text (label, text);
}

static void
add_columns (CsCallsView *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      const CsCallsColumn *column = &columns[i];
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr (GtkColumnViewColumn) view_column = NULL;
      g_autoptr (GtkSorter) sorter = NULL;

      g_object_set_data (G_OBJECT (factory), "cs-calls-view", self);
      g_signal_connect (factory, "setup", G_CALLBACK (cell_setup), (gpointer) column);
      g_signal_connect (factory, "bind", G_CALLBACK (cell_bind), (gpointer) column);
      view_column = gtk_column_view_column_new (_ (column->title), factory);
      sorter = GTK_SORTER (gtk_custom_sorter_new (column->compare, NULL, NULL));
      gtk_column_view_column_set_sorter (view_column, sorter);
      gtk_column_view_column_set_expand (view_column, column->expand);
      gtk_column_view_column_set_resizable (view_column, TRUE);
      if (column->width > 0)
        gtk_column_view_column_set_fixed_width (view_column, column->width);
      gtk_column_view_append_column (self->column_view, view_column);
    }
}

/* Filtering */

static gboolean
contains_casefolded (const char *haystack, const char *needle)
{
  g_autofree char *folded = NULL;

  if (haystack == NULL)
    return FALSE;
  folded = g_utf8_casefold (haystack, -1);
  return strstr (folded, needle) != NULL;
}

static gboolean
call_matches_filter (gpointer item, gpointer data)
{
  CsCallsView *self = data;
  CsCall *call = item;

  if (self->filter_text == NULL)
    return TRUE;
  return contains_casefolded (cs_call_get_from (call), self->filter_text)
         || contains_casefolded (cs_call_get_to (call), self->filter_text)
         || contains_casefolded (cs_call_get_call_id (call), self->filter_text)
         || contains_casefolded (cs_call_get_method_name (call), self->filter_text);
}

/* Empty list */

static void
update_empty_page (CsCallsView *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->sort_model));
  guint total = self->calls != NULL ? g_list_model_get_n_items (self->calls) : 0;

  if (shown > 0)
    {
      gtk_stack_set_visible_child_name (self->stack, "list");
      return;
    }
  if (total > 0)
    {
      cs_status_page_set_icon_name (self->empty_page, "edit-find-symbolic");
      cs_status_page_set_title (self->empty_page, _ ("No matching calls"));
      cs_status_page_set_description (
          self->empty_page, _ ("No call has this text in its From, To, Call-ID or method."));
    }
  else if (self->loading)
    {
      cs_status_page_set_icon_name (self->empty_page, "call-start-symbolic");
      cs_status_page_set_title (self->empty_page, _ ("Looking for calls…"));
      cs_status_page_set_description (self->empty_page,
                                      _ ("Calls appear here as soon as they are found."));
    }
  else
    {
      cs_status_page_set_icon_name (self->empty_page, "call-start-symbolic");
      cs_status_page_set_title (self->empty_page, _ ("No calls"));
      cs_status_page_set_description (
          self->empty_page,
          _ ("This capture has no SIP messages. Check that it was recorded on the "
             "interface and ports your SIP traffic uses."));
    }
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

static void
on_shown_items_changed (GListModel *model, guint position, guint removed, guint added,
                        CsCallsView *self)
{
  update_empty_page (self);
}

static void
on_selected_item_changed (GtkSingleSelection *selection, GParamSpec *pspec, CsCallsView *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_CALL]);
}

/* API */

GtkWidget *
cs_calls_view_new (void)
{
  return g_object_new (CS_TYPE_CALLS_VIEW, NULL);
}

void
cs_calls_view_set_calls (CsCallsView *self, GListModel *calls)
{
  g_return_if_fail (CS_IS_CALLS_VIEW (self));
  g_return_if_fail (calls == NULL || G_IS_LIST_MODEL (calls));

  if (!g_set_object (&self->calls, calls))
    return;
  gtk_filter_list_model_set_model (self->filter_model, calls);
  update_empty_page (self);
}

void
cs_calls_view_set_loading (CsCallsView *self, gboolean loading)
{
  g_return_if_fail (CS_IS_CALLS_VIEW (self));

  self->loading = !!loading;
  update_empty_page (self);
}

void
cs_calls_view_set_filter_text (CsCallsView *self, const char *text)
{
  g_autofree char *folded = NULL;
  GtkFilterChange change = GTK_FILTER_CHANGE_DIFFERENT;

  g_return_if_fail (CS_IS_CALLS_VIEW (self));

  if (text != NULL && *text != '\0')
    folded = g_utf8_casefold (text, -1);
  if (g_strcmp0 (folded, self->filter_text) == 0)
    return;
  /* A longer needle can only hide rows; a shorter one can only show more. */
  if (self->filter_text != NULL && folded != NULL && strstr (folded, self->filter_text) != NULL)
    change = GTK_FILTER_CHANGE_MORE_STRICT;
  else if (folded == NULL || (self->filter_text != NULL && strstr (self->filter_text, folded)))
    change = GTK_FILTER_CHANGE_LESS_STRICT;
  g_free (self->filter_text);
  self->filter_text = g_steal_pointer (&folded);
  gtk_filter_changed (GTK_FILTER (self->filter), change);
}

GListModel *
cs_calls_view_get_shown_model (CsCallsView *self)
{
  g_return_val_if_fail (CS_IS_CALLS_VIEW (self), NULL);
  return G_LIST_MODEL (self->sort_model);
}

CsCall *
cs_calls_view_get_selected_call (CsCallsView *self)
{
  g_return_val_if_fail (CS_IS_CALLS_VIEW (self), NULL);
  return gtk_single_selection_get_selected_item (self->selection);
}

/* GObject */

static void
cs_calls_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  CsCallsView *self = CS_CALLS_VIEW (object);

  switch (prop_id)
    {
    case PROP_SELECTED_CALL:
      g_value_set_object (value, cs_calls_view_get_selected_call (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_calls_view_dispose (GObject *object)
{
  CsCallsView *self = CS_CALLS_VIEW (object);

  if (self->sort_model != NULL)
    g_signal_handlers_disconnect_by_data (self->sort_model, self);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), CS_TYPE_CALLS_VIEW);
  g_clear_object (&self->selection);
  g_clear_object (&self->sort_model);
  g_clear_object (&self->filter_model);
  g_clear_object (&self->calls);
  G_OBJECT_CLASS (cs_calls_view_parent_class)->dispose (object);
}

static void
cs_calls_view_finalize (GObject *object)
{
  CsCallsView *self = CS_CALLS_VIEW (object);

  g_free (self->filter_text);
  G_OBJECT_CLASS (cs_calls_view_parent_class)->finalize (object);
}

static void
cs_calls_view_class_init (CsCallsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = cs_calls_view_get_property;
  object_class->dispose = cs_calls_view_dispose;
  object_class->finalize = cs_calls_view_finalize;

  properties[PROP_SELECTED_CALL] = g_param_spec_object ("selected-call", NULL, NULL, CS_TYPE_CALL,
                                                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (CS_TYPE_STATUS_PAGE);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/callscope/Callscope/ui/cs-calls-view.ui");
  gtk_widget_class_bind_template_child (widget_class, CsCallsView, stack);
  gtk_widget_class_bind_template_child (widget_class, CsCallsView, column_view);
  gtk_widget_class_bind_template_child (widget_class, CsCallsView, empty_page);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
cs_calls_view_init (CsCallsView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->filter = gtk_custom_filter_new (call_matches_filter, self, NULL);
  self->filter_model = gtk_filter_list_model_new (NULL, GTK_FILTER (self->filter));
  self->sort_model
      = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->filter_model)),
                                 g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->sort_model)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  add_columns (self);

  g_signal_connect (self->sort_model, "items-changed", G_CALLBACK (on_shown_items_changed), self);
  g_signal_connect (self->selection, "notify::selected-item", G_CALLBACK (on_selected_item_changed),
                    self);
  update_empty_page (self);
}
