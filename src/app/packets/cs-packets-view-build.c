/* cs-packets-view-build.c — the Packets page's widgets: scope bar, columns (sortable without
 * a sort model: the list sorts its own number arrays), tree rows with field-name tooltips, the
 * bytes pane, copy and Wireshark actions, and following the analysis and the shared cursor */
#include "cs-packets-view-private.h"

#include "cs-proto-item.h"

G_DEFINE_FINAL_TYPE (CsPacketsView, cs_packets_view, CS_TYPE_VIEW)

static const struct
{
  const char *title;
  CsFrameColumn column;
  gboolean expand, numeric;
  int width;
} cs_packets_columns[] = {
  { "No.", CS_FRAME_COLUMN_NUMBER, FALSE, TRUE, 70 },
  { "Time", CS_FRAME_COLUMN_TIME, FALSE, TRUE, 100 },
  { "Source", CS_FRAME_COLUMN_SOURCE, FALSE, FALSE, 150 },
  { "Destination", CS_FRAME_COLUMN_DESTINATION, FALSE, FALSE, 150 },
  { "Protocol", CS_FRAME_COLUMN_PROTOCOL, FALSE, FALSE, 90 },
  { "Length", CS_FRAME_COLUMN_LENGTH, FALSE, TRUE, 70 },
  { "Info", CS_FRAME_COLUMN_INFO, TRUE, FALSE, 300 },
};

/* ---- list columns ---- */

static void
setup_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkWidget *label = gtk_label_new (NULL);
  guint column = GPOINTER_TO_UINT (data);

  gtk_label_set_xalign (GTK_LABEL (label), cs_packets_columns[column].numeric ? 1.0f : 0.0f);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  if (cs_packets_columns[column].numeric)
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  CsFrameRow *row = gtk_list_item_get_item (item);
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (item));
  char text[32];
  const char *shown = text;

  switch (cs_packets_columns[GPOINTER_TO_UINT (data)].column)
    {
    case CS_FRAME_COLUMN_NUMBER:
      g_snprintf (text, sizeof text, "%u", cs_frame_row_get_number (row));
      break;
    case CS_FRAME_COLUMN_TIME:
      g_snprintf (text, sizeof text, "%.6f", cs_frame_row_get_time (row));
      break;
    case CS_FRAME_COLUMN_LENGTH:
      g_snprintf (text, sizeof text, "%u", cs_frame_row_get_length (row));
      break;
    case CS_FRAME_COLUMN_SOURCE:
      shown = cs_frame_row_get_source (row);
      break;
    case CS_FRAME_COLUMN_DESTINATION:
      shown = cs_frame_row_get_destination (row);
      break;
    case CS_FRAME_COLUMN_PROTOCOL:
      shown = cs_frame_row_get_protocol (row);
      break;
    default:
      shown = cs_frame_row_get_info (row);
      gtk_widget_set_tooltip_text (GTK_WIDGET (label), shown);
      break;
    }
  gtk_label_set_text (label, shown);
}

typedef struct
{
  CsPacketsView *view;
  int column;
} CsSortProbe;

/* Each column's sorter only says which column the column view asks first, and that a < b:
 * the column view's sorter then tells the primary column and its direction. */
static int
probe_compare (gconstpointer a, gconstpointer b, gpointer data)
{
  CsSortProbe *probe = data;

  if (probe->view->probe_column < 0)
    probe->view->probe_column = probe->column;
  return a == b ? 0 : -1;
}

static void
on_sorter_changed (GtkSorter *sorter, GtkSorterChange change, CsPacketsView *self)
{
  GtkOrdering order;

  self->probe_column = -1;
  order = gtk_sorter_compare (sorter, self->probe_a, self->probe_b);
  if (self->probe_column < 0)
    cs_frame_list_sort (self->rows, CS_FRAME_COLUMN_NUMBER, FALSE);
  else
    cs_frame_list_sort (self->rows, cs_packets_columns[self->probe_column].column,
                        order == GTK_ORDERING_LARGER);
}

static void
add_columns (CsPacketsView *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (cs_packets_columns); i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      CsSortProbe *probe = g_new0 (CsSortProbe, 1);
      GtkSorter *sorter;
      GtkColumnViewColumn *column;

      probe->view = self;
      probe->column = (int) i;
      sorter = GTK_SORTER (gtk_custom_sorter_new (probe_compare, probe, g_free));
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GUINT_TO_POINTER (i));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GUINT_TO_POINTER (i));
      column = gtk_column_view_column_new (cs_packets_columns[i].title, factory);
      gtk_column_view_column_set_sorter (column, sorter);
      gtk_column_view_column_set_expand (column, cs_packets_columns[i].expand);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_fixed_width (column, cs_packets_columns[i].width);
      gtk_column_view_append_column (self->column_view, column);
      g_object_unref (column);
      g_object_unref (sorter);
    }
  g_signal_connect (gtk_column_view_get_sorter (self->column_view), "changed",
                    G_CALLBACK (on_sorter_changed), self);
}

/* ---- tree rows ---- */

static void
setup_tree_row (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
  gtk_list_item_set_child (item, expander);
}

static void
bind_tree_row (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkTreeListRow *row = gtk_list_item_get_item (item);
  GtkTreeExpander *expander = GTK_TREE_EXPANDER (gtk_list_item_get_child (item));
  GtkWidget *label = gtk_tree_expander_get_child (expander);
  const CsProtoNode *node = cs_proto_item_get_node (gtk_tree_list_row_get_item (row));
  g_autofree char *filter = cs_dissect_display_filter (node);
  g_autofree char *tip = NULL;

  gtk_tree_expander_set_list_row (expander, row);
  gtk_label_set_text (GTK_LABEL (label), node->label);
  if (node->computed)
    tip = g_strdup_printf ("%s — computed by callscope, not in the packet", node->name);
  else if (filter != NULL)
    tip = g_strdup_printf ("%s\n%s", node->name, filter);
  gtk_widget_set_tooltip_text (label, tip != NULL ? tip : node->name);
  if (node->computed)
    gtk_widget_add_css_class (label, "dim-label");
  else
    gtk_widget_remove_css_class (label, "dim-label");
}

/* ---- actions ---- */

static void
copy_text (CsPacketsView *self, const char *text)
{
  if (text != NULL)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
}

static void
copy_hex (GtkWidget *widget, const char *action, GVariant *parameter)
{
  CsPacketsView *self = CS_PACKETS_VIEW (widget);
  const CsProtoNode *node = selected_node (self);
  CsFrame frame;
  const guint8 *data = self->shown_frame != 0
                           ? cs_frame_dissector_bytes (self->dissector, self->shown_frame, &frame)
                           : NULL;
  g_autofree char *hex = NULL;

  if (data == NULL)
    return;
  /* the selected field's bytes, else the whole frame */
  if (node != NULL && node->source == 0 && node->length > 0 && node->depth > 0
      && node->offset + node->length <= frame.caplen)
    hex = cs_dissect_hex (data + node->offset, node->length);
  else
    hex = cs_dissect_hex (data, frame.caplen);
  copy_text (self, hex);
}

static void
copy_filter (GtkWidget *widget, const char *action, GVariant *parameter)
{
  CsPacketsView *self = CS_PACKETS_VIEW (widget);
  const CsProtoNode *node = selected_node (self);
  g_autofree char *filter = node != NULL ? cs_dissect_display_filter (node) : NULL;

  if (filter == NULL && self->shown_frame != 0)
    filter = g_strdup_printf ("frame.number == %u", self->shown_frame);
  copy_text (self, filter);
}

/* `wireshark -r FILE -g N` for a single file; for several, or without Wireshark's frame
 * numbers matching ours, the scope written as a pcapng opened by the desktop. */
static void
open_in_wireshark (GtkWidget *widget, const char *action, GVariant *parameter)
{
  CsPacketsView *self = CS_PACKETS_VIEW (widget);
  CsAnalysis *analysis = cs_view_get_analysis (CS_VIEW (self));
  CsCaptureSet *set = analysis != NULL ? cs_analysis_get_capture_set (analysis) : NULL;
  g_autofree char *wireshark = g_find_program_in_path ("wireshark");
  g_autoptr (GError) error = NULL;

  if (set == NULL)
    return;
  if (wireshark != NULL && cs_capture_set_get_n_files (set) == 1)
    {
      g_autofree char *number = g_strdup_printf ("%u", MAX (self->shown_frame, 1u));
      const char *argv[]
          = { wireshark, "-r",   cs_capture_get_path (cs_capture_set_get_file (set, 0)),
              "-g",      number, NULL };

      if (!g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, &error))
        g_warning ("wireshark: %s", error->message);
      return;
    }
  {
    guint n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
    g_autoptr (GArray) frames = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n);
    g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "callscope", NULL);
    g_autofree char *path = g_build_filename (dir, "packets-scope.pcapng", NULL);
    g_autoptr (GFile) file = g_file_new_for_path (path);
    g_autofree char *uri = g_file_get_uri (file);

    for (guint i = 0; i < n; i++)
      {
        guint32 number = cs_frame_list_get_number (self->rows, i);

        g_array_append_val (frames, number);
      }
    g_mkdir_with_parents (dir, 0700);
    if (!cs_frame_scope_write_pcapng (set, (const guint32 *) frames->data, frames->len, path,
                                      &error)
        || !g_app_info_launch_default_for_uri (uri, NULL, &error))
      g_warning ("Open in Wireshark: %s", error->message);
  }
}

static void
step_frame (GtkWidget *widget, const char *action, GVariant *parameter)
{
  CsPacketsView *self = CS_PACKETS_VIEW (widget);
  guint position = gtk_single_selection_get_selected (self->row_selection);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
  int step = g_variant_get_int32 (parameter);

  if (n == 0)
    return;
  if (position == GTK_INVALID_LIST_POSITION)
    position = 0;
  else if (step < 0 && position > 0)
    position--;
  else if (step > 0 && position + 1 < n)
    position++;
  select_position (self, position);
}

/* ---- following the analysis and the cursor ---- */

static void
on_cursor_changed (CsSelection *cursor, GParamSpec *pspec, CsPacketsView *self)
{
  const char *what = g_param_spec_get_name (pspec);

  if (self->updating)
    return;
  if ((g_str_equal (what, "call") && self->scope == CS_PACKETS_SCOPE_CALL)
      || (g_str_equal (what, "stream") && self->scope == CS_PACKETS_SCOPE_STREAM))
    apply_scope (self, TRUE);
  else if (g_str_equal (what, "frame") && cs_selection_get_frame (cursor) != 0)
    {
      guint position = cs_frame_list_find (self->rows, cs_selection_get_frame (cursor));

      if (position != G_MAXUINT)
        {
          self->updating = TRUE;
          select_position (self, position);
          self->updating = FALSE;
        }
    }
}

static void
cs_packets_view_selection_changed (CsView *view, CsSelection *old)
{
  CsPacketsView *self = CS_PACKETS_VIEW (view);
  CsSelection *cursor = cs_view_get_selection (view);

  if (old != NULL)
    g_signal_handlers_disconnect_by_data (old, self);
  if (cursor != NULL)
    g_signal_connect (cursor, "notify", G_CALLBACK (on_cursor_changed), self);
}

static void
cs_packets_view_analysis_changed (CsView *view, CsAnalysis *old)
{
  CsPacketsView *self = CS_PACKETS_VIEW (view);
  CsAnalysis *analysis = cs_view_get_analysis (view);

  show_tree (self, 0);
  g_clear_object (&self->finding);
  cs_frame_list_set_dissector (self->rows, NULL, 0);
  g_clear_pointer (&self->dissector, cs_frame_dissector_free);
  if (analysis == NULL)
    return;
  self->dissector = cs_frame_dissector_new (analysis);
  cs_frame_list_set_dissector (
      self->rows, self->dissector,
      cs_capture_set_get_n_frames (cs_analysis_get_capture_set (analysis)));
  set_scope (self, CS_PACKETS_SCOPE_CAPTURE, TRUE);
}

static void
cs_packets_view_dispose (GObject *object)
{
  CsPacketsView *self = CS_PACKETS_VIEW (object);
  CsSelection *cursor = cs_view_get_selection (CS_VIEW (self));

  if (cursor != NULL)
    g_signal_handlers_disconnect_by_data (cursor, self);
  if (self->row_selection != NULL)
    g_signal_handlers_disconnect_by_data (self->row_selection, self);
  if (self->tree_selection != NULL)
    g_signal_handlers_disconnect_by_data (self->tree_selection, self);
  if (self->column_view != NULL)
    g_signal_handlers_disconnect_by_data (gtk_column_view_get_sorter (self->column_view), self);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  self->column_view = NULL;
  g_clear_object (&self->row_selection);
  g_clear_object (&self->tree_selection);
  if (self->rows != NULL)
    cs_frame_list_set_dissector (self->rows, NULL, 0);
  g_clear_object (&self->rows);
  g_clear_pointer (&self->dissector, cs_frame_dissector_free);
  g_clear_object (&self->finding);
  g_clear_object (&self->probe_a);
  g_clear_object (&self->probe_b);
  G_OBJECT_CLASS (cs_packets_view_parent_class)->dispose (object);
}

static void
cs_packets_view_class_init (CsPacketsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  CsViewClass *view_class = CS_VIEW_CLASS (klass);

  object_class->dispose = cs_packets_view_dispose;
  view_class->analysis_changed = cs_packets_view_analysis_changed;
  view_class->selection_changed = cs_packets_view_selection_changed;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_install_action (widget_class, "packets.copy-hex", NULL, copy_hex);
  gtk_widget_class_install_action (widget_class, "packets.copy-filter", NULL, copy_filter);
  gtk_widget_class_install_action (widget_class, "packets.open-in-wireshark", NULL,
                                   open_in_wireshark);
  gtk_widget_class_install_action (widget_class, "packets.step", "i", step_frame);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, GDK_CONTROL_MASK, "packets.step",
                                       "i", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, GDK_CONTROL_MASK, "packets.step",
                                       "i", -1);
}

static GtkWidget *
scrolled (GtkWidget *child)
{
  GtkWidget *window = gtk_scrolled_window_new ();

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (window), child);
  return window;
}

static GtkWidget *
action_button (const char *label, const char *action, const char *tooltip)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (label);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_widget_set_tooltip_text (button, tooltip);
  return button;
}

static GtkWidget *
build_bar (CsPacketsView *self)
{
  static const char *const scopes[]
      = { "Selected call", "Selected stream", "Finding", "Time range", "Whole capture", NULL };
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  gtk_widget_set_margin_start (bar, 12);
  gtk_widget_set_margin_end (bar, 12);
  gtk_widget_set_margin_top (bar, 6);
  gtk_widget_set_margin_bottom (bar, 6);
  self->scope_dropdown = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (scopes));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->scope_dropdown), "Which frames the list shows");
  g_signal_connect (self->scope_dropdown, "notify::selected", G_CALLBACK (on_scope_selected), self);
  self->scope_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_ellipsize (self->scope_label, PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (GTK_WIDGET (self->scope_label), TRUE);
  gtk_label_set_xalign (self->scope_label, 0.0f);
  self->filter_entry = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  g_object_set (self->filter_entry, "placeholder-text", "Protocol or address", NULL);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->filter_entry),
                               "Keep the rows whose protocol, source or destination holds this");
  g_signal_connect (self->filter_entry, "search-changed", G_CALLBACK (on_filter_changed), self);
  self->count_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->count_label), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (self->count_label), "numeric");
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->scope_dropdown));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->scope_label));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->filter_entry));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->count_label));
  gtk_box_append (GTK_BOX (bar),
                  action_button ("Copy as _Hex", "packets.copy-hex",
                                 "The selected field's bytes (or the frame's) as hex"));
  gtk_box_append (GTK_BOX (bar),
                  action_button ("Copy as _Filter", "packets.copy-filter",
                                 "The selected field as a Wireshark display filter"));
  gtk_box_append (GTK_BOX (bar),
                  action_button ("Open in _Wireshark", "packets.open-in-wireshark",
                                 "Wireshark at this frame (or the listed frames as a capture)"));
  return bar;
}

static void
cs_packets_view_init (CsPacketsView *self)
{
  GtkWidget *lower = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  GtkWidget *upper = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  GtkListItemFactory *tree_factory = gtk_signal_list_item_factory_new ();

  self->probe_a = g_object_new (CS_TYPE_FRAME_ROW, NULL);
  self->probe_b = g_object_new (CS_TYPE_FRAME_ROW, NULL);
  self->scope = CS_PACKETS_SCOPE_CAPTURE;
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (self->box), build_bar (self));
  gtk_box_append (GTK_BOX (self->box), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));

  self->rows = cs_frame_list_new ();
  self->row_selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->rows)));
  gtk_single_selection_set_autoselect (self->row_selection, FALSE);
  g_signal_connect (self->row_selection, "notify::selected", G_CALLBACK (on_row_selected), self);
  self->column_view = GTK_COLUMN_VIEW (
      gtk_column_view_new (GTK_SELECTION_MODEL (g_object_ref (self->row_selection))));
  gtk_column_view_set_show_column_separators (self->column_view, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->column_view), "data-table");
  add_columns (self);

  self->tree_selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->tree_selection, FALSE);
  gtk_single_selection_set_can_unselect (self->tree_selection, TRUE);
  g_signal_connect (self->tree_selection, "notify::selected", G_CALLBACK (on_tree_selected), self);
  g_signal_connect (tree_factory, "setup", G_CALLBACK (setup_tree_row), NULL);
  g_signal_connect (tree_factory, "bind", G_CALLBACK (bind_tree_row), NULL);
  self->tree_view = GTK_LIST_VIEW (
      gtk_list_view_new (GTK_SELECTION_MODEL (g_object_ref (self->tree_selection)), tree_factory));
  self->hex_view = CS_HEX_VIEW (cs_hex_view_new ());
  g_signal_connect (self->hex_view, "byte-clicked", G_CALLBACK (on_byte_clicked), self);

  gtk_paned_set_start_child (GTK_PANED (lower), scrolled (GTK_WIDGET (self->tree_view)));
  gtk_paned_set_end_child (GTK_PANED (lower), GTK_WIDGET (self->hex_view));
  /* the tree takes what the bytes (16 per row and their ASCII, never clipped) leave */
  gtk_paned_set_resize_start_child (GTK_PANED (lower), TRUE);
  gtk_paned_set_resize_end_child (GTK_PANED (lower), FALSE);
  gtk_paned_set_shrink_start_child (GTK_PANED (lower), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (lower), FALSE);
  gtk_paned_set_position (GTK_PANED (lower), 640);
  gtk_widget_set_size_request (GTK_WIDGET (self->tree_view), 320, -1);
  gtk_widget_set_size_request (GTK_WIDGET (self->hex_view), 600, -1);
  gtk_paned_set_start_child (GTK_PANED (upper), scrolled (GTK_WIDGET (self->column_view)));
  gtk_paned_set_end_child (GTK_PANED (upper), lower);
  gtk_paned_set_position (GTK_PANED (upper), 300);
  gtk_paned_set_wide_handle (GTK_PANED (upper), TRUE);
  gtk_widget_set_vexpand (upper, TRUE);
  gtk_box_append (GTK_BOX (self->box), upper);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  show_tree (self, 0);
}
