/* cs-calls-view.c — the sortable, filterable list of calls (a GtkColumnView) */
#include "cs-calls-view.h"

#include <glib/gi18n.h>
#include <string.h>

#include "cs-calls-columns.h"
#include "cs-calls-filter.h"
#include "cs-column-chooser.h"
#include "cs-display-format.h"
#include "callscope-engine.h"
#include "cs-status-page.h"

struct _CsCallsView
{
  CsView parent_instance;

  GtkWidget *root_box; /* bound so that dispose_template unparents it */
  GtkStack *stack;
  GtkColumnView *column_view;
  CsStatusPage *empty_page;
  GtkRevealer *error_revealer;
  GtkLabel *error_label;
  GtkMenuButton *columns_button;
  GtkRevealer *range_revealer;
  GtkLabel *range_label;

  CsCallsColumnContext context; /* calls (owned) and index (owned) the cells read */
  GtkFilterListModel *filter_model;
  GtkCustomFilter *filter;
  GtkSortListModel *sort_model;
  gboolean follow_new_rows; /* live sessions: keep the newest row in view */
  GtkMultiSelection *selection;
  CsColumnChooser *chooser;
  char *filter_text;                 /* as typed, NULL when empty */
  CsCallsFilter *parsed;             /* NULL when empty or wrong */
  char *filter_error;                /* NULL unless the text is wrong */
  gint64 range_from_ns, range_to_ns; /* calls started in [from, to); equal: no range */
  gboolean loading;
  gboolean show_other_exchanges; /* REGISTER, OPTIONS… rows besides the INVITE dialogs */
  guint index_id; /* idle rebuilding the stale index ahead of the rows that need it */
};

G_DEFINE_FINAL_TYPE (CsCallsView, cs_calls_view, CS_TYPE_VIEW)

enum
{
  PROP_0,
  PROP_SELECTED_CALL,
  PROP_HAS_TIME_RANGE,
  PROP_SHOW_OTHER_EXCHANGES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

const char *
cs_calls_view_state_label (CsCallState state)
{
  return cs_calls_columns_state_label (state);
}

const char *
cs_calls_view_state_css_class (CsCallState state)
{
  return cs_calls_columns_state_css_class (state);
}

static void
add_columns (CsCallsView *self)
{
  g_autoptr (GPtrArray) view_columns = cs_calls_columns_new_view_columns (&self->context);

  for (guint i = 0; i < view_columns->len; i++)
    gtk_column_view_append_column (self->column_view, g_ptr_array_index (view_columns, i));
}

/* Filtering */

static gboolean
call_matches_filter (gpointer item, gpointer data)
{
  CsCallsView *self = data;

  if (!self->show_other_exchanges && cs_call_get_method (item) != CS_SIP_METHOD_INVITE)
    return FALSE;
  if (self->range_from_ns != self->range_to_ns
      && !cs_loadtest_call_started_in (item, self->range_from_ns, self->range_to_ns))
    return FALSE;
  return cs_calls_filter_match (self->parsed, item,
                                cs_calls_column_context_get_index (&self->context));
}

/* Empty list */

static void
update_empty_page (CsCallsView *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->sort_model));
  guint total = self->context.calls != NULL ? g_list_model_get_n_items (self->context.calls) : 0;

  if (shown > 0)
    {
      gtk_stack_set_visible_child_name (self->stack, "list");
      return;
    }
  if (total > 0 && self->range_from_ns != self->range_to_ns && self->parsed == NULL)
    {
      cs_status_page_set_icon_name (self->empty_page, "edit-find-symbolic");
      cs_status_page_set_title (self->empty_page, _ ("No calls in this time range"));
      cs_status_page_set_description (
          self->empty_page, _ ("No call started in the range picked on the Load page. Pick a "
                               "wider range there, or show all calls."));
    }
  else if (total > 0 && self->parsed == NULL && !self->show_other_exchanges)
    {
      cs_status_page_set_icon_name (self->empty_page, "call-start-symbolic");
      cs_status_page_set_title (self->empty_page, _ ("No calls"));
      cs_status_page_set_description (
          self->empty_page, _ ("This capture has only other SIP exchanges (REGISTER, OPTIONS…): "
                               "show them with Other SIP Exchanges in the column menu."));
    }
  else if (total > 0)
    {
      cs_status_page_set_icon_name (self->empty_page, "edit-find-symbolic");
      cs_status_page_set_title (self->empty_page, _ ("No matching calls"));
      cs_status_page_set_description (
          self->empty_page, _ ("No call matches the filter. Words search From, To, Call-ID and "
                               "User-Agent; try state:rejected, mos<3.5 or pdd>3s."));
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
on_selection_changed (GtkSelectionModel *selection, guint position, guint n_items,
                      CsCallsView *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_CALL]);
}

/* Streams and findings arrive after the calls: the index is rebuilt on its next use (once for
 * both), then the filter runs again. */
static void
rebuild_index (CsCallsView *self)
{
  CsAnalysis *analysis = cs_view_get_analysis (CS_VIEW (self));

  g_clear_object (&self->context.streams);
  g_clear_object (&self->context.findings);
  if (analysis != NULL)
    {
      self->context.streams = g_object_ref (cs_analysis_get_streams (analysis));
      self->context.findings = g_object_ref (cs_analysis_get_findings (analysis));
    }
  self->context.index_stale = TRUE;
  if (self->parsed != NULL)
    gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

static gboolean
warm_index (gpointer data)
{
  CsCallsView *self = data;

  self->index_id = 0;
  cs_calls_column_context_get_index (&self->context);
  return G_SOURCE_REMOVE;
}

static void
on_media_changed (GListModel *model, guint position, guint removed, guint added, CsCallsView *self)
{
  rebuild_index (self);
  /* in a dispatch of its own, before the idles that put the real calls in the rows */
  if (self->index_id == 0)
    self->index_id = g_idle_add (warm_index, self);
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

  if (!g_set_object (&self->context.calls, calls))
    return;
  gtk_filter_list_model_set_model (self->filter_model, calls);
  update_empty_page (self);
}

static void
cs_calls_view_analysis_changed (CsView *view, CsAnalysis *old_analysis)
{
  CsCallsView *self = CS_CALLS_VIEW (view);
  CsAnalysis *analysis = cs_view_get_analysis (view);

  if (old_analysis != NULL)
    {
      g_signal_handlers_disconnect_by_data (cs_analysis_get_streams (old_analysis), self);
      g_signal_handlers_disconnect_by_data (cs_analysis_get_findings (old_analysis), self);
    }
  if (analysis != NULL)
    {
      g_signal_connect (cs_analysis_get_streams (analysis), "items-changed",
                        G_CALLBACK (on_media_changed), self);
      g_signal_connect (cs_analysis_get_findings (analysis), "items-changed",
                        G_CALLBACK (on_media_changed), self);
    }
  rebuild_index (self);
  cs_calls_view_set_calls (self, analysis != NULL ? cs_analysis_get_calls (analysis) : NULL);
}

void
cs_calls_view_set_settings (CsCallsView *self, GSettings *settings)
{
  g_return_if_fail (CS_IS_CALLS_VIEW (self));
  cs_column_chooser_bind_settings (self->chooser, settings, "calls-visible-columns");
  g_settings_bind (settings, "calls-show-other-exchanges", self, "show-other-exchanges",
                   G_SETTINGS_BIND_DEFAULT);
}

void
cs_calls_view_set_show_other_exchanges (CsCallsView *self, gboolean show)
{
  g_return_if_fail (CS_IS_CALLS_VIEW (self));

  show = !!show;
  if (self->show_other_exchanges == show)
    return;
  self->show_other_exchanges = show;
  gtk_filter_changed (GTK_FILTER (self->filter),
                      show ? GTK_FILTER_CHANGE_LESS_STRICT : GTK_FILTER_CHANGE_MORE_STRICT);
  update_empty_page (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_OTHER_EXCHANGES]);
}

gboolean
cs_calls_view_get_show_other_exchanges (CsCallsView *self)
{
  g_return_val_if_fail (CS_IS_CALLS_VIEW (self), TRUE);
  return self->show_other_exchanges;
}

void
cs_calls_view_set_loading (CsCallsView *self, gboolean loading)
{
  g_return_if_fail (CS_IS_CALLS_VIEW (self));

  /* No redraw needed when the load ends: the real calls replace the copies shown while
   * loading after the streams and findings are indexed (cs_analysis_publish). */
  self->loading = !!loading;
  update_empty_page (self);
}

void
cs_calls_view_set_filter_text (CsCallsView *self, const char *text)
{
  g_autoptr (GError) error = NULL;
  guint start = 0, end = 0;
  CsCallsFilter *parsed;

  g_return_if_fail (CS_IS_CALLS_VIEW (self));

  if (text != NULL && *text == '\0')
    text = NULL;
  if (g_strcmp0 (text, self->filter_text) == 0)
    return;
  g_free (self->filter_text);
  self->filter_text = g_strdup (text);
  g_clear_pointer (&self->filter_error, g_free);
  parsed = cs_calls_filter_new (text, &start, &end, &error);
  if (parsed == NULL)
    {
      /* Keep showing what the last good filter showed; say what is wrong. */
      g_autofree char *markup
          = g_markup_printf_escaped ("<b>%s</b> %s", _ ("Filter:"), error->message);
      self->filter_error = g_strdup (error->message);
      gtk_label_set_markup (self->error_label, markup);
      gtk_revealer_set_reveal_child (self->error_revealer, TRUE);
      return;
    }
  gtk_revealer_set_reveal_child (self->error_revealer, FALSE);
  g_clear_pointer (&self->parsed, cs_calls_filter_free);
  self->parsed = cs_calls_filter_is_empty (parsed) ? (cs_calls_filter_free (parsed), NULL) : parsed;
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

static gint64
first_call_start_ns (CsCallsView *self)
{
  g_autoptr (CsCall) first = NULL;

  if (self->context.calls == NULL || g_list_model_get_n_items (self->context.calls) == 0)
    return 0;
  first = g_list_model_get_item (self->context.calls, 0);
  return cs_call_get_start_ns (first);
}

void
cs_calls_view_set_time_range (CsCallsView *self, gint64 from_ns, gint64 to_ns)
{
  gboolean had_range;

  g_return_if_fail (CS_IS_CALLS_VIEW (self));

  if (to_ns < from_ns || from_ns == to_ns)
    from_ns = to_ns = 0;
  if (from_ns == self->range_from_ns && to_ns == self->range_to_ns)
    return;
  had_range = self->range_from_ns != self->range_to_ns;
  self->range_from_ns = from_ns;
  self->range_to_ns = to_ns;
  if (from_ns != to_ns)
    {
      gint64 base = first_call_start_ns (self);
      g_autofree char *from_text = cs_display_format_seconds (from_ns - base);
      g_autofree char *to_text = cs_display_format_seconds (to_ns - base);
      /* TRANSLATORS: above the calls list; times in seconds since the first call */
      g_autofree char *text
          = g_strdup_printf (_ ("Calls started between %s s and %s s"), from_text, to_text);
      gtk_label_set_text (self->range_label, text);
    }
  gtk_revealer_set_reveal_child (self->range_revealer, from_ns != to_ns);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  update_empty_page (self);
  if (had_range != (from_ns != to_ns))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_TIME_RANGE]);
}

gboolean
cs_calls_view_get_time_range (CsCallsView *self, gint64 *from_ns, gint64 *to_ns)
{
  g_return_val_if_fail (CS_IS_CALLS_VIEW (self), FALSE);

  if (from_ns != NULL)
    *from_ns = self->range_from_ns;
  if (to_ns != NULL)
    *to_ns = self->range_to_ns;
  return self->range_from_ns != self->range_to_ns;
}

/* Enter or a double click opens the call in the workspace (the window's win.open-call). */
static void
on_row_activated (GtkColumnView *column_view, guint position, CsCallsView *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.open-call", NULL);
}

static void
on_clear_range_clicked (CsCallsView *self)
{
  cs_calls_view_set_time_range (self, 0, 0);
}

/* GTK 4.8 has no gtk_column_view_scroll_to (): its inner list view has the action. */
void
cs_calls_view_scroll_to (CsCallsView *self, guint position)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->column_view));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      gtk_widget_activate_action (child, "list.scroll-to-item", "u", position);
}

static void
on_new_rows (GListModel *model, guint position, guint removed, guint added, CsCallsView *self)
{
  guint n = g_list_model_get_n_items (model);

  if (self->follow_new_rows && added > removed && n > 0)
    cs_calls_view_scroll_to (self, n - 1);
}

void
cs_calls_view_set_follow_new_rows (CsCallsView *self, gboolean follow)
{
  g_return_if_fail (CS_IS_CALLS_VIEW (self));

  if (self->follow_new_rows == follow)
    return;
  self->follow_new_rows = follow;
  if (follow)
    g_signal_connect_object (self->sort_model, "items-changed", G_CALLBACK (on_new_rows), self,
                             G_CONNECT_DEFAULT);
  else
    g_signal_handlers_disconnect_by_func (self->sort_model, on_new_rows, self);
}

gboolean
cs_calls_view_follows_new_rows (CsCallsView *self)
{
  return self->follow_new_rows;
}

gboolean
cs_calls_view_select_call (CsCallsView *self, CsCall *call)
{
  GListModel *shown;

  g_return_val_if_fail (CS_IS_CALLS_VIEW (self), FALSE);
  g_return_val_if_fail (call == NULL || CS_IS_CALL (call), FALSE);

  if (call == NULL)
    {
      gtk_selection_model_unselect_all (GTK_SELECTION_MODEL (self->selection));
      return TRUE;
    }
  shown = G_LIST_MODEL (self->sort_model);
  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr (CsCall) item = g_list_model_get_item (shown, i);

      g_autoptr (GtkBitset) selected = NULL;

      if (item != call)
        continue;
      /* Already the only selected row: nothing to redo (the ladder keeps its row). */
      selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
      if (gtk_bitset_get_size (selected) != 1 || !gtk_bitset_contains (selected, i))
        gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), i, TRUE);
      cs_calls_view_scroll_to (self, i);
      return TRUE;
    }
  return FALSE;
}

gboolean
cs_calls_view_is_sorted (CsCallsView *self)
{
  g_return_val_if_fail (CS_IS_CALLS_VIEW (self), FALSE);
  return gtk_sorter_get_order (gtk_column_view_get_sorter (self->column_view))
         != GTK_SORTER_ORDER_NONE;
}

gboolean
cs_calls_view_sort_by (CsCallsView *self, const char *column_id, GtkSortType order)
{
  GListModel *view_columns;

  g_return_val_if_fail (CS_IS_CALLS_VIEW (self), FALSE);

  view_columns = gtk_column_view_get_columns (self->column_view);
  for (guint i = 0; i < g_list_model_get_n_items (view_columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (view_columns, i);
      if (g_strcmp0 (cs_column_chooser_get_column_id (column), column_id) == 0)
        {
          gtk_column_view_sort_by_column (self->column_view, column, order);
          return TRUE;
        }
    }
  return FALSE;
}

const char *
cs_calls_view_get_filter_error (CsCallsView *self)
{
  g_return_val_if_fail (CS_IS_CALLS_VIEW (self), NULL);
  return self->filter_error;
}

GListModel *
cs_calls_view_get_shown_model (CsCallsView *self)
{
  g_return_val_if_fail (CS_IS_CALLS_VIEW (self), NULL);
  return G_LIST_MODEL (self->sort_model);
}

GtkSelectionModel *
cs_calls_view_get_selection (CsCallsView *self)
{
  g_return_val_if_fail (CS_IS_CALLS_VIEW (self), NULL);
  return GTK_SELECTION_MODEL (self->selection);
}

GPtrArray *
cs_calls_view_dup_selected_calls (CsCallsView *self)
{
  GPtrArray *calls = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GtkBitset) selected = NULL;
  GtkBitsetIter iter;
  guint position;

  g_return_val_if_fail (CS_IS_CALLS_VIEW (self), calls);

  selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  /* A ladder of hundreds of merged calls helps nobody: the first 32 selected. */
  for (gboolean ok = gtk_bitset_iter_init_first (&iter, selected, &position); ok && calls->len < 32;
       ok = gtk_bitset_iter_next (&iter, &position))
    g_ptr_array_add (calls, g_list_model_get_item (G_LIST_MODEL (self->selection), position));
  return calls;
}

CsCall *
cs_calls_view_get_selected_call (CsCallsView *self)
{
  g_autoptr (GtkBitset) selected = NULL;
  g_autoptr (CsCall) call = NULL;

  g_return_val_if_fail (CS_IS_CALLS_VIEW (self), NULL);

  selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  if (gtk_bitset_is_empty (selected))
    return NULL;
  call = g_list_model_get_item (G_LIST_MODEL (self->selection), gtk_bitset_get_minimum (selected));
  /* The model keeps the call alive. */
  return call;
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
    case PROP_HAS_TIME_RANGE:
      g_value_set_boolean (value, self->range_from_ns != self->range_to_ns);
      break;
    case PROP_SHOW_OTHER_EXCHANGES:
      g_value_set_boolean (value, self->show_other_exchanges);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_calls_view_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  CsCallsView *self = CS_CALLS_VIEW (object);

  switch (prop_id)
    {
    case PROP_SHOW_OTHER_EXCHANGES:
      cs_calls_view_set_show_other_exchanges (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_calls_view_dispose (GObject *object)
{
  CsCallsView *self = CS_CALLS_VIEW (object);

  cs_view_set_analysis (CS_VIEW (self), NULL);
  if (self->sort_model != NULL)
    g_signal_handlers_disconnect_by_data (self->sort_model, self);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), CS_TYPE_CALLS_VIEW);
  g_clear_object (&self->selection);
  g_clear_object (&self->sort_model);
  g_clear_object (&self->filter_model);
  g_clear_object (&self->context.calls);
  g_clear_object (&self->chooser);
  g_clear_pointer (&self->context.index, cs_calls_index_free);
  g_clear_object (&self->context.streams);
  g_clear_object (&self->context.findings);
  g_clear_handle_id (&self->index_id, g_source_remove);
  G_OBJECT_CLASS (cs_calls_view_parent_class)->dispose (object);
}

static void
cs_calls_view_finalize (GObject *object)
{
  CsCallsView *self = CS_CALLS_VIEW (object);

  g_free (self->filter_text);
  g_free (self->filter_error);
  g_clear_pointer (&self->parsed, cs_calls_filter_free);
  G_OBJECT_CLASS (cs_calls_view_parent_class)->finalize (object);
}

static void
cs_calls_view_class_init (CsCallsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = cs_calls_view_get_property;
  object_class->set_property = cs_calls_view_set_property;
  object_class->dispose = cs_calls_view_dispose;
  object_class->finalize = cs_calls_view_finalize;
  CS_VIEW_CLASS (klass)->analysis_changed = cs_calls_view_analysis_changed;

  properties[PROP_SELECTED_CALL] = g_param_spec_object ("selected-call", NULL, NULL, CS_TYPE_CALL,
                                                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_HAS_TIME_RANGE] = g_param_spec_boolean (
      "has-time-range", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /* REGISTER, OPTIONS… rows shown besides the calls (INVITE dialogs) */
  properties[PROP_SHOW_OTHER_EXCHANGES]
      = g_param_spec_boolean ("show-other-exchanges", NULL, NULL, TRUE,
                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (CS_TYPE_STATUS_PAGE);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/callscope/Callscope/ui/cs-calls-view.ui");
  gtk_widget_class_bind_template_child (widget_class, CsCallsView, root_box);
  gtk_widget_class_bind_template_child (widget_class, CsCallsView, stack);
  gtk_widget_class_bind_template_child (widget_class, CsCallsView, column_view);
  gtk_widget_class_bind_template_child (widget_class, CsCallsView, empty_page);
  gtk_widget_class_bind_template_child (widget_class, CsCallsView, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, CsCallsView, error_label);
  gtk_widget_class_bind_template_child (widget_class, CsCallsView, columns_button);
  gtk_widget_class_bind_template_child (widget_class, CsCallsView, range_revealer);
  gtk_widget_class_bind_template_child (widget_class, CsCallsView, range_label);
  gtk_widget_class_bind_template_callback (widget_class, on_clear_range_clicked);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

/* The column chooser's menu, then the toggle for the other SIP exchanges ("calls." actions):
 * the ⋮ button and every header offer it. */
static GMenuModel *
new_list_menu (CsCallsView *self)
{
  GMenu *menu = g_menu_new ();
  g_autoptr (GMenu) others = g_menu_new ();
  g_autoptr (GSimpleActionGroup) actions = g_simple_action_group_new ();
  g_autoptr (GPropertyAction) show_others
      = g_property_action_new ("show-other-exchanges", self, "show-other-exchanges");

  g_action_map_add_action (G_ACTION_MAP (actions), G_ACTION (show_others));
  gtk_widget_insert_action_group (GTK_WIDGET (self), "calls", G_ACTION_GROUP (actions));
  g_menu_append_section (menu, NULL, cs_column_chooser_get_menu (self->chooser));
  g_menu_append (others, _ ("Other SIP _Exchanges"), "calls.show-other-exchanges");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (others));
  return G_MENU_MODEL (menu);
}

static void
cs_calls_view_init (CsCallsView *self)
{
  GListModel *view_columns;
  g_autoptr (GMenuModel) menu = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->show_other_exchanges = TRUE;

  self->filter = gtk_custom_filter_new (call_matches_filter, self, NULL);
  self->filter_model = gtk_filter_list_model_new (NULL, GTK_FILTER (self->filter));
  self->sort_model
      = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->filter_model)),
                                 g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  /* 100,000 rows sort in steps: the window keeps drawing while a header click sorts. */
  gtk_sort_list_model_set_incremental (self->sort_model, TRUE);
  self->selection = gtk_multi_selection_new (G_LIST_MODEL (g_object_ref (self->sort_model)));
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  add_columns (self);
  self->chooser = cs_column_chooser_new (self->column_view);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "columns",
                                  cs_column_chooser_get_actions (self->chooser));
  menu = new_list_menu (self);
  gtk_menu_button_set_menu_model (self->columns_button, menu);
  /* Right-click on any header offers the same menu. */
  view_columns = gtk_column_view_get_columns (self->column_view);
  for (guint i = 0; i < g_list_model_get_n_items (view_columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (view_columns, i);
      gtk_column_view_column_set_header_menu (column, menu);
    }

  g_signal_connect (self->sort_model, "items-changed", G_CALLBACK (on_shown_items_changed), self);
  g_signal_connect (self->selection, "selection-changed", G_CALLBACK (on_selection_changed), self);
  g_signal_connect (self->column_view, "activate", G_CALLBACK (on_row_activated), self);
  update_empty_page (self);
}
