/* cs-findings-view.c — every finding with severity, kind, call, stream and text; filters; jumps to
 * frames */
#include "cs-findings-view.h"

#include <glib/gi18n.h>

#include "cs-deferred-rows.h"
#include "cs-list-cells.h"
#include "cs-status-page.h"

#define CS_N_FINDING_KINDS (CS_FINDING_DAMAGED_CAPTURE + 1)

struct _CsFindingsView
{
  CsView parent_instance;

  GtkStack *stack;
  GtkColumnView *column_view;
  GtkDropDown *severity_dropdown;
  GtkDropDown *kind_dropdown;
  GtkLabel *count_label;
  CsStatusPage *empty_page;

  GtkFilterListModel *filter_model;
  GtkCustomFilter *filter;
  GtkSortListModel *sorted;
  /* Rows: identical findings (kind, severity, text) as one row, their first in sorted
   * order, counting them; an expanded group lists the others below it. */
  GListStore *rows;
  GPtrArray *groups;    /* CsFindingGroup of the sorted findings (cs-finding-groups.h) */
  GHashTable *group_of; /* first finding → its CsFindingGroup (groups of two or more) */
  GHashTable *expanded; /* first findings of the groups shown open (kept across rebuilds) */
  GtkSingleSelection *row_selection;
  CsSeverity min_severity;
  int kind_filter;            /* -1 = all */
  GArray *kind_choices;       /* int kind per kind-dropdown entry after "All kinds" */
  gboolean updating_dropdown; /* rebuilding the kind list */
};

G_DEFINE_FINAL_TYPE (CsFindingsView, cs_findings_view, CS_TYPE_VIEW)

enum
{
  SIGNAL_FINDING_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

char *
cs_findings_view_kind_label (CsFindingKind kind)
{
  /* Stable names read as words; abbreviations stay capitals, "one-way" keeps its hyphen. */
  static const char *const acronyms[] = { "pdd", "ssrc", "nat", "rtp", "sip", "ack", NULL };
  g_auto (GStrv) words = g_strsplit (cs_finding_kind_to_string (kind), "-", -1);
  GString *label = g_string_new (NULL);

  for (guint i = 0; words[i] != NULL; i++)
    {
      gboolean acronym = g_strv_contains (acronyms, words[i]);

      if (i > 0)
        g_string_append_c (label, g_str_equal (words[i - 1], "one") ? '-' : ' ');
      if (acronym)
        {
          g_autofree char *upper = g_ascii_strup (words[i], -1);
          g_string_append (label, upper);
        }
      else if (i == 0)
        {
          g_string_append_c (label, g_ascii_toupper (words[i][0]));
          g_string_append (label, words[i] + 1);
        }
      else
        g_string_append (label, words[i]);
    }
  return g_string_free (label, FALSE);
}

static const char *
severity_label (CsSeverity severity)
{
  switch (severity)
    {
    case CS_SEVERITY_ERROR:
      return C_ ("severity", "Error");
    case CS_SEVERITY_WARNING:
      return C_ ("severity", "Warning");
    default:
      return C_ ("severity", "Info");
    }
}

static const char *
severity_css_class (CsSeverity severity)
{
  switch (severity)
    {
    case CS_SEVERITY_ERROR:
      return "state-bad";
    case CS_SEVERITY_WARNING:
      return "state-degraded";
    default:
      return "state-unknown";
    }
}

/* Columns */

typedef enum
{
  COLUMN_SEVERITY,
  COLUMN_KIND,
  COLUMN_CALL,
  COLUMN_STREAM,
  COLUMN_FRAME,
  COLUMN_TEXT,
} CsFindingsColumn;

/* What a column's cells and sorter read: the view (its groups) and the column. */
typedef struct
{
  CsFindingsView *view; /* owns the column */
  CsFindingsColumn column;
} CsFindingsCell;

static char *
cell_text (CsFindingsView *self, CsFinding *finding, CsFindingsColumn column)
{
  const GArray *frames = cs_finding_get_frames (finding);
  CsFindingGroup *group = g_hash_table_lookup (self->group_of, finding);

  if (group != NULL && column == COLUMN_CALL)
    /* TRANSLATORS: a row standing for this many identical findings; ▸ closed, ▾ open */
    return g_strdup_printf (_ ("%s ×%u"),
                            g_hash_table_contains (self->expanded, finding) ? "▾" : "▸",
                            group->members->len);
  if (group != NULL && !g_hash_table_contains (self->expanded, finding)
      && (column == COLUMN_STREAM || column == COLUMN_FRAME))
    return g_strdup ("");
  switch (column)
    {
    case COLUMN_SEVERITY:
      return g_strdup (severity_label (cs_finding_get_severity (finding)));
    case COLUMN_KIND:
      return cs_findings_view_kind_label (cs_finding_get_kind (finding));
    case COLUMN_CALL:
      return cs_finding_get_call_number (finding) == 0
                 ? g_strdup ("—")
                 : g_strdup_printf ("%u", cs_finding_get_call_number (finding));
    case COLUMN_STREAM:
      return cs_finding_get_stream_id (finding) == 0
                 ? g_strdup ("—")
                 : g_strdup_printf ("%u", cs_finding_get_stream_id (finding));
    case COLUMN_FRAME:
      if (frames == NULL || frames->len == 0)
        return g_strdup ("—");
      if (frames->len == 1)
        return g_strdup_printf ("%u", g_array_index (frames, guint32, 0));
      /* TRANSLATORS: first frame of a finding and how many more there are */
      return g_strdup_printf (_ ("%u (+%u)"), g_array_index (frames, guint32, 0), frames->len - 1);
    case COLUMN_TEXT:
    default:
      return g_strdup (cs_finding_get_text (finding));
    }
}

static guint64
sort_key (CsFinding *finding, CsFindingsColumn column)
{
  const GArray *frames = cs_finding_get_frames (finding);

  switch (column)
    {
    case COLUMN_SEVERITY:
      return cs_finding_get_severity (finding);
    case COLUMN_KIND:
      return cs_finding_get_kind (finding);
    case COLUMN_CALL:
      return cs_finding_get_call_number (finding);
    case COLUMN_STREAM:
      return cs_finding_get_stream_id (finding);
    default:
      return frames != NULL && frames->len > 0 ? g_array_index (frames, guint32, 0) : 0;
    }
}

static int
compare_findings (gconstpointer a, gconstpointer b, gpointer data)
{
  CsFindingsColumn column = ((const CsFindingsCell *) data)->column;
  guint64 ka = sort_key ((CsFinding *) a, column), kb = sort_key ((CsFinding *) b, column);

  if (column == COLUMN_TEXT)
    return g_strcmp0 (cs_finding_get_text ((CsFinding *) a), cs_finding_get_text ((CsFinding *) b));
  if (ka != kb)
    return (ka > kb) - (ka < kb);
  ka = sort_key ((CsFinding *) a, COLUMN_FRAME);
  kb = sort_key ((CsFinding *) b, COLUMN_FRAME);
  return (ka > kb) - (ka < kb);
}

static char *
text_of_column (gpointer item, gpointer data)
{
  const CsFindingsCell *cell = data;

  return cell_text (cell->view, item, cell->column);
}

static void
style_severity (GtkLabel *label, gpointer item, gpointer data)
{
  cs_list_cell_set_status (label, severity_css_class (cs_finding_get_severity (item)), TRUE);
}

static void
add_columns (CsFindingsView *self)
{
  static const struct
  {
    const char *title;
    int width;
    gboolean expand;
  } specs[] = {
    { N_ ("Severity"), 96, FALSE }, { N_ ("Kind"), 152, FALSE },  { N_ ("Call"), 64, FALSE },
    { N_ ("Stream"), 72, FALSE },   { N_ ("Frame"), 112, FALSE }, { N_ ("Description"), -1, TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (specs); i++)
    {
      CsFindingsCell *cell = g_new (CsFindingsCell, 1);
      /* The description is ellipsized: its tooltip keeps the whole text. */
      CsListColumn list_column = {
        .title = _ (specs[i].title),
        .width = specs[i].width,
        .expand = specs[i].expand,
        .numeric = i == COLUMN_CALL || i == COLUMN_STREAM || i == COLUMN_FRAME,
        .tooltip = i == COLUMN_TEXT ? CS_LIST_CELL_TOOLTIP_TEXT : CS_LIST_CELL_TOOLTIP_NONE,
        .text = text_of_column,
        .style = i == COLUMN_SEVERITY ? style_severity : NULL,
        .compare = compare_findings,
        .data = cell,
        .data_free = g_free,
      };
      g_autoptr (GtkColumnViewColumn) column = NULL;

      cell->view = self;
      cell->column = (CsFindingsColumn) i;
      column = cs_list_column_new (&list_column);
      gtk_column_view_append_column (self->column_view, column);
    }
}

/* Filtering */

static gboolean
finding_matches (gpointer item, gpointer data)
{
  CsFindingsView *self = data;
  CsFinding *finding = item;

  if (cs_finding_get_severity (finding) < self->min_severity)
    return FALSE;
  return self->kind_filter < 0 || (int) cs_finding_get_kind (finding) == self->kind_filter;
}

static void
update_count (CsFindingsView *self)
{
  CsAnalysis *analysis = cs_view_get_analysis (CS_VIEW (self));
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->filter_model));
  guint total
      = analysis != NULL ? g_list_model_get_n_items (cs_analysis_get_findings (analysis)) : 0;
  g_autofree char *text = NULL;

  if (shown == total)
    text = g_strdup_printf (ngettext ("%u finding", "%u findings", total), total);
  else
    /* TRANSLATORS: findings shown by the filter, of all findings */
    text
        = g_strdup_printf (ngettext ("%u of %u finding", "%u of %u findings", total), shown, total);
  gtk_label_set_text (self->count_label, text);
  if (shown > 0)
    gtk_stack_set_visible_child_name (self->stack, "list");
  else
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      cs_status_page_set_title (self->empty_page,
                                total > 0 ? _ ("No matching findings") : _ ("No findings"));
      cs_status_page_set_description (
          self->empty_page,
          total > 0 ? _ ("No finding has this severity and kind. Choose “All” to see them all.")
          : analysis != NULL
              ? _ ("Nothing looks wrong in this capture: calls were set up and media flowed "
                   "both ways without notable loss or jitter.")
              : _ ("Problems in calls and streams — failed setup, retransmissions, one-way "
                   "audio, loss — are listed here, each leading to the frames that show it."));
    }
}

void
cs_findings_view_set_min_severity (CsFindingsView *self, CsSeverity severity)
{
  g_return_if_fail (CS_IS_FINDINGS_VIEW (self));

  self->min_severity = severity;
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

void
cs_findings_view_set_kind_filter (CsFindingsView *self, int kind)
{
  g_return_if_fail (CS_IS_FINDINGS_VIEW (self));

  self->kind_filter = kind;
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

static void
on_severity_selected (GtkDropDown *dropdown, GParamSpec *pspec, CsFindingsView *self)
{
  /* Entries: all, warnings and errors, errors. */
  static const CsSeverity levels[] = { CS_SEVERITY_INFO, CS_SEVERITY_WARNING, CS_SEVERITY_ERROR };
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (selected < G_N_ELEMENTS (levels))
    cs_findings_view_set_min_severity (self, levels[selected]);
}

static void
on_kind_selected (GtkDropDown *dropdown, GParamSpec *pspec, CsFindingsView *self)
{
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (self->updating_dropdown)
    return;
  if (selected == 0 || selected == GTK_INVALID_LIST_POSITION || selected > self->kind_choices->len)
    cs_findings_view_set_kind_filter (self, -1);
  else
    cs_findings_view_set_kind_filter (self, g_array_index (self->kind_choices, int, selected - 1));
}

/* The kind list offers only kinds present in the capture. */
static void
rebuild_kind_dropdown (CsFindingsView *self)
{
  g_autoptr (GtkStringList) strings = gtk_string_list_new (NULL);
  gboolean present[CS_N_FINDING_KINDS] = { FALSE };
  CsAnalysis *analysis = cs_view_get_analysis (CS_VIEW (self));
  GListModel *findings = analysis != NULL ? cs_analysis_get_findings (analysis) : NULL;

  for (guint i = 0; findings != NULL && i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr (CsFinding) finding = g_list_model_get_item (findings, i);
      guint kind = cs_finding_get_kind (finding);
      if (kind < CS_N_FINDING_KINDS)
        present[kind] = TRUE;
    }
  g_array_set_size (self->kind_choices, 0);
  gtk_string_list_append (strings, _ ("All kinds"));
  for (int k = 0; k < CS_N_FINDING_KINDS; k++)
    if (present[k])
      {
        g_autofree char *label = cs_findings_view_kind_label ((CsFindingKind) k);
        gtk_string_list_append (strings, label);
        g_array_append_val (self->kind_choices, k);
      }
  self->updating_dropdown = TRUE;
  gtk_drop_down_set_model (self->kind_dropdown, G_LIST_MODEL (strings));
  gtk_drop_down_set_selected (self->kind_dropdown, 0);
  self->updating_dropdown = FALSE;
  cs_findings_view_set_kind_filter (self, -1);
}

/* Rows: groups of identical findings */

/* Puts the rows back from the sorted findings: one per group, the others of the open ones
 * below their first. */
static void
rebuild_rows (CsFindingsView *self)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new ();
  g_autoptr (GHashTable) still_open = g_hash_table_new (NULL, NULL);

  g_hash_table_remove_all (self->group_of);
  g_clear_pointer (&self->groups, g_ptr_array_unref);
  self->groups = cs_finding_groups_new (G_LIST_MODEL (self->sorted));
  for (guint g = 0; g < self->groups->len; g++)
    {
      CsFindingGroup *group = g_ptr_array_index (self->groups, g);
      gboolean open = g_hash_table_contains (self->expanded, group->first);

      g_ptr_array_add (items, group->first);
      if (group->members->len < 2)
        continue;
      g_hash_table_insert (self->group_of, group->first, group);
      if (!open)
        continue;
      g_hash_table_add (still_open, group->first);
      for (guint m = 1; m < group->members->len; m++)
        g_ptr_array_add (items, g_ptr_array_index (group->members, m));
    }
  /* groups that are gone are forgotten, kept ones stay open */
  g_hash_table_unref (self->expanded);
  self->expanded = g_steal_pointer (&still_open);
  cs_deferred_rows_before_change (self->column_view, GTK_SELECTION_MODEL (self->row_selection));
  g_list_store_splice (self->rows, 0, g_list_model_get_n_items (G_LIST_MODEL (self->rows)),
                       items->pdata, items->len);
}

static void
on_sorted_changed (GListModel *sorted, guint position, guint removed, guint added,
                   CsFindingsView *self)
{
  rebuild_rows (self);
}

gboolean
cs_findings_view_set_group_expanded (CsFindingsView *self, CsFinding *first, gboolean expanded)
{
  CsFindingGroup *group;
  guint position;

  g_return_val_if_fail (CS_IS_FINDINGS_VIEW (self), FALSE);
  group = g_hash_table_lookup (self->group_of, first);
  if (group == NULL || !g_list_store_find (self->rows, first, &position))
    return FALSE;
  if (expanded == g_hash_table_contains (self->expanded, first))
    return TRUE;
  if (expanded)
    {
      g_hash_table_add (self->expanded, first);
      g_list_store_splice (self->rows, position + 1, 0, group->members->pdata + 1,
                           group->members->len - 1);
    }
  else
    {
      g_hash_table_remove (self->expanded, first);
      g_list_store_splice (self->rows, position + 1, group->members->len - 1, NULL, 0);
    }
  /* the first row's count shows ▸ or ▾ */
  g_list_store_splice (self->rows, position, 1, (gpointer *) &first, 1);
  return TRUE;
}

guint
cs_findings_view_get_group_size (CsFindingsView *self, CsFinding *first)
{
  CsFindingGroup *group;

  g_return_val_if_fail (CS_IS_FINDINGS_VIEW (self), 0);
  group = g_hash_table_lookup (self->group_of, first);
  return group != NULL ? group->members->len : 1;
}

/* Activation */

static gint64
frame_time_ns (CsCall *call, CsStream *stream, guint32 frame)
{
  if (stream != NULL)
    {
      const GArray *packets = cs_stream_get_packets (stream);
      for (guint i = 0; i < packets->len; i++)
        if (g_array_index (packets, CsRtpPacket, i).frame == frame)
          return g_array_index (packets, CsRtpPacket, i).arrival_ns;
    }
  if (call != NULL)
    for (guint i = 0; i < cs_call_get_n_messages (call); i++)
      {
        CsSipMessage *msg = cs_call_get_message (call, i);
        if (cs_sip_message_get_frame (msg) == frame
            || cs_sip_message_get_first_frame (msg) == frame)
          return cs_sip_message_get_ts_ns (msg);
      }
  return 0;
}

void
cs_findings_view_activate (CsFindingsView *self, CsFinding *finding)
{
  CsAnalysis *analysis;
  CsSelection *selection;
  const GArray *frames;
  CsCall *call = NULL;
  CsStream *stream;
  guint32 frame;

  g_return_if_fail (CS_IS_FINDINGS_VIEW (self));
  g_return_if_fail (CS_IS_FINDING (finding));

  analysis = cs_view_get_analysis (CS_VIEW (self));
  selection = cs_view_get_selection (CS_VIEW (self));
  if (analysis != NULL && cs_finding_get_call_number (finding) != 0)
    call = cs_analysis_lookup_call (analysis, cs_finding_get_call_number (finding));
  stream = analysis != NULL && cs_finding_get_stream_id (finding) != 0
               ? cs_analysis_lookup_stream (analysis, cs_finding_get_stream_id (finding))
               : NULL;
  frames = cs_finding_get_frames (finding);
  frame = frames != NULL && frames->len > 0 ? g_array_index (frames, guint32, 0) : 0;
  if (selection != NULL)
    cs_selection_select (selection, call, stream, frame,
                         frame != 0 ? frame_time_ns (call, stream, frame) : 0);
  g_signal_emit (self, signals[SIGNAL_FINDING_ACTIVATED], 0, finding);
}

static void
on_row_selected (GtkSingleSelection *selection, GParamSpec *pspec, CsFindingsView *self)
{
  CsFinding *finding = gtk_single_selection_get_selected_item (selection);

  if (finding != NULL)
    cs_findings_view_activate (self, finding);
}

static void
on_row_activated (GtkColumnView *view, guint position, CsFindingsView *self)
{
  g_autoptr (CsFinding) finding
      = g_list_model_get_item (G_LIST_MODEL (self->row_selection), position);

  if (finding == NULL)
    return;
  /* a group's row opens or closes it; any row shows its frames */
  if (g_hash_table_contains (self->group_of, finding))
    cs_findings_view_set_group_expanded (self, finding,
                                         !g_hash_table_contains (self->expanded, finding));
  cs_findings_view_activate (self, finding);
  /* Enter or a double click: the finding's frames in the Packets page (a group's row only
   * opens or closes) */
  if (!g_hash_table_contains (self->group_of, finding))
    gtk_widget_activate_action (GTK_WIDGET (self), "win.show-finding-packets", NULL);
}

void
cs_findings_view_select_next (CsFindingsView *self, int direction)
{
  GListModel *rows;
  guint n, position;

  g_return_if_fail (CS_IS_FINDINGS_VIEW (self));
  rows = G_LIST_MODEL (self->row_selection);
  n = g_list_model_get_n_items (rows);
  if (n == 0)
    return;
  position = gtk_single_selection_get_selected (self->row_selection);
  if (position == GTK_INVALID_LIST_POSITION)
    position = direction > 0 ? 0 : n - 1;
  else if (direction > 0)
    position = position + 1 < n ? position + 1 : 0;
  else
    position = position > 0 ? position - 1 : n - 1;
  /* selecting the row activates it (on_row_selected) */
  gtk_single_selection_set_selected (self->row_selection, position);
  gtk_widget_activate_action (GTK_WIDGET (self->column_view), "list.scroll-to-item", "u", position);
}

/* API */

GtkWidget *
cs_findings_view_new (void)
{
  return g_object_new (CS_TYPE_FINDINGS_VIEW, NULL);
}

static void
cs_findings_view_analysis_changed (CsView *view, CsAnalysis *old_analysis)
{
  CsFindingsView *self = CS_FINDINGS_VIEW (view);
  CsAnalysis *analysis = cs_view_get_analysis (view);

  cs_deferred_rows_before_change (self->column_view, GTK_SELECTION_MODEL (self->row_selection));
  gtk_filter_list_model_set_model (self->filter_model,
                                   analysis != NULL ? cs_analysis_get_findings (analysis) : NULL);
  rebuild_kind_dropdown (self);
  update_count (self);
}

GListModel *
cs_findings_view_get_shown_model (CsFindingsView *self)
{
  g_return_val_if_fail (CS_IS_FINDINGS_VIEW (self), NULL);
  return G_LIST_MODEL (self->row_selection);
}

/* GObject */

static void
cs_findings_view_dispose (GObject *object)
{
  CsFindingsView *self = CS_FINDINGS_VIEW (object);

  if (self->row_selection != NULL)
    g_signal_handlers_disconnect_by_data (self->row_selection, self);
  if (self->filter_model != NULL)
    g_signal_handlers_disconnect_by_data (self->filter_model, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), CS_TYPE_FINDINGS_VIEW);
  /* The template's root box has no id, so dispose_template leaves it. */
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  if (self->sorted != NULL)
    g_signal_handlers_disconnect_by_data (self->sorted, self);
  g_clear_object (&self->row_selection);
  g_clear_object (&self->rows);
  g_clear_object (&self->sorted);
  g_clear_pointer (&self->group_of, g_hash_table_unref);
  g_clear_pointer (&self->expanded, g_hash_table_unref);
  g_clear_pointer (&self->groups, g_ptr_array_unref);
  g_clear_object (&self->filter_model);
  g_clear_pointer (&self->kind_choices, g_array_unref);
  G_OBJECT_CLASS (cs_findings_view_parent_class)->dispose (object);
}

static void
cs_findings_view_class_init (CsFindingsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cs_findings_view_dispose;
  CS_VIEW_CLASS (klass)->analysis_changed = cs_findings_view_analysis_changed;

  signals[SIGNAL_FINDING_ACTIVATED]
      = g_signal_new ("finding-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                      NULL, NULL, G_TYPE_NONE, 1, CS_TYPE_FINDING);

  g_type_ensure (CS_TYPE_STATUS_PAGE);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/callscope/Callscope/ui/cs-findings-view.ui");
  gtk_widget_class_bind_template_child (widget_class, CsFindingsView, stack);
  gtk_widget_class_bind_template_child (widget_class, CsFindingsView, column_view);
  gtk_widget_class_bind_template_child (widget_class, CsFindingsView, severity_dropdown);
  gtk_widget_class_bind_template_child (widget_class, CsFindingsView, kind_dropdown);
  gtk_widget_class_bind_template_child (widget_class, CsFindingsView, count_label);
  gtk_widget_class_bind_template_child (widget_class, CsFindingsView, empty_page);
  gtk_widget_class_bind_template_callback (widget_class, on_severity_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_kind_selected);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
cs_findings_view_init (CsFindingsView *self)
{
  self->kind_choices = g_array_new (FALSE, FALSE, sizeof (int));
  self->kind_filter = -1;
  self->min_severity = CS_SEVERITY_INFO;
  gtk_widget_init_template (GTK_WIDGET (self));

  self->filter = gtk_custom_filter_new (finding_matches, self, NULL);
  self->filter_model = gtk_filter_list_model_new (NULL, GTK_FILTER (self->filter));
  self->sorted
      = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->filter_model)),
                                 g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  self->rows = g_list_store_new (CS_TYPE_FINDING);
  self->group_of = g_hash_table_new (NULL, NULL);
  self->expanded = g_hash_table_new (NULL, NULL);
  self->row_selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->rows)));
  gtk_single_selection_set_autoselect (self->row_selection, FALSE);
  gtk_single_selection_set_can_unselect (self->row_selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->row_selection));
  add_columns (self);
  g_signal_connect (self->row_selection, "notify::selected-item", G_CALLBACK (on_row_selected),
                    self);
  g_signal_connect (self->column_view, "activate", G_CALLBACK (on_row_activated), self);
  g_signal_connect_swapped (self->filter_model, "items-changed", G_CALLBACK (update_count), self);
  g_signal_connect (self->sorted, "items-changed", G_CALLBACK (on_sorted_changed), self);
  rebuild_kind_dropdown (self);
  update_count (self);
}
