/* cs-packets-view.c — the Packets page: scope bar, packet list (rows made on demand), protocol
 * tree with display-filter names, bytes with the selected field highlighted */
#include "cs-packets-view-private.h"

#include "cs-proto-item.h"

GtkWidget *
cs_packets_view_new (void)
{
  return g_object_new (CS_TYPE_PACKETS_VIEW, NULL);
}

/* ---- the tree and the bytes of the selected frame ---- */

static void
show_bytes (CsPacketsView *self, const CsProtoNode *node)
{
  CsFrame frame;
  const guint8 *data = self->shown_frame != 0 && self->dissector != NULL
                           ? cs_frame_dissector_bytes (self->dissector, self->shown_frame, &frame)
                           : NULL;
  gboolean in_frame = node != NULL && node->source == 0 && node->length > 0;

  cs_hex_view_set_data (self->hex_view, data, data != NULL ? frame.caplen : 0,
                        in_frame ? node->offset : 0, in_frame ? node->length : 0);
}

void
show_tree (CsPacketsView *self, guint32 number)
{
  CsProtoTree *tree = number != 0 && self->dissector != NULL
                          ? cs_frame_dissector_tree (self->dissector, number)
                          : NULL;
  g_autoptr (GtkTreeListModel) model = NULL;
  guint n;

  self->shown_frame = tree != NULL ? number : 0;
  self->shown_tree = tree;
  model = cs_proto_tree_list_new (tree != NULL ? tree : cs_proto_tree_new ());
  gtk_single_selection_set_model (self->tree_selection, G_LIST_MODEL (model));
  /* the innermost layer open, as Wireshark opens the one that matters */
  n = g_list_model_get_n_items (G_LIST_MODEL (model));
  if (n > 0)
    {
      g_autoptr (GtkTreeListRow) last = gtk_tree_list_model_get_row (model, n - 1);

      gtk_tree_list_row_set_expanded (last, TRUE);
      /* and what callscope computed for it */
      for (guint i = n; i < g_list_model_get_n_items (G_LIST_MODEL (model)); i++)
        {
          g_autoptr (GtkTreeListRow) row = gtk_tree_list_model_get_row (model, i);

          if (cs_proto_item_get_node (gtk_tree_list_row_get_item (row))->computed)
            {
              gtk_tree_list_row_set_expanded (row, TRUE);
              break;
            }
        }
    }
  gtk_single_selection_set_selected (self->tree_selection, GTK_INVALID_LIST_POSITION);
  show_bytes (self, NULL);
}

const CsProtoNode *
selected_node (CsPacketsView *self)
{
  GtkTreeListRow *row = gtk_single_selection_get_selected_item (self->tree_selection);

  return row != NULL ? cs_proto_item_get_node (gtk_tree_list_row_get_item (row)) : NULL;
}

void
on_tree_selected (GtkSingleSelection *selection, GParamSpec *pspec, CsPacketsView *self)
{
  show_bytes (self, selected_node (self));
}

/* The tree row of node index, opening its ancestors. */
static void
select_tree_node (CsPacketsView *self, guint index)
{
  GListModel *model = gtk_single_selection_get_model (self->tree_selection);
  GArray *chain = g_array_new (FALSE, FALSE, sizeof (guint));
  guint depth;

  if (self->shown_tree == NULL || index >= cs_proto_tree_get_n_nodes (self->shown_tree))
    return;
  g_array_append_val (chain, index);
  depth = cs_proto_tree_get_node (self->shown_tree, index)->depth;
  for (guint i = index; i-- > 0 && depth > 0;)
    if (cs_proto_tree_get_node (self->shown_tree, i)->depth < depth)
      {
        depth = cs_proto_tree_get_node (self->shown_tree, i)->depth;
        g_array_prepend_val (chain, i);
      }
  for (guint c = 0; c < chain->len; c++)
    for (guint pos = 0; pos < g_list_model_get_n_items (model); pos++)
      {
        g_autoptr (GtkTreeListRow) row = g_list_model_get_item (model, pos);

        if (cs_proto_item_get_index (gtk_tree_list_row_get_item (row))
            != g_array_index (chain, guint, c))
          continue;
        if (c + 1 < chain->len)
          gtk_tree_list_row_set_expanded (row, TRUE);
        else
          {
            gtk_single_selection_set_selected (self->tree_selection, pos);
            gtk_widget_activate_action (GTK_WIDGET (self->tree_view), "list.scroll-to-item", "u",
                                        pos);
          }
        break;
      }
  g_array_unref (chain);
}

void
on_byte_clicked (CsHexView *hex, guint byte, CsPacketsView *self)
{
  int index = self->shown_tree != NULL ? cs_proto_tree_node_at_offset (self->shown_tree, byte) : -1;

  if (index >= 0)
    select_tree_node (self, (guint) index);
}

/* ---- the packet list ---- */

void
update_count (CsPacketsView *self)
{
  g_autofree char *text
      = g_strdup_printf ("%u frames", g_list_model_get_n_items (G_LIST_MODEL (self->rows)));

  gtk_label_set_text (self->count_label, text);
}

void
on_row_selected (GtkSingleSelection *selection, GParamSpec *pspec, CsPacketsView *self)
{
  CsFrameRow *row = gtk_single_selection_get_selected_item (selection);
  CsSelection *cursor = cs_view_get_selection (CS_VIEW (self));
  guint32 number = row != NULL ? cs_frame_row_get_number (row) : 0;
  CsFrame frame;

  if (number == self->shown_frame)
    return;
  show_tree (self, number);
  if (number != 0 && cursor != NULL && !self->updating
      && cs_frame_dissector_bytes (self->dissector, number, &frame) != NULL)
    {
      self->updating = TRUE;
      cs_selection_set_cursor (cursor, number, frame.ts_ns);
      self->updating = FALSE;
    }
}

void
select_position (CsPacketsView *self, guint position)
{
  gtk_single_selection_set_selected (self->row_selection, position);
  if (position != GTK_INVALID_LIST_POSITION)
    gtk_widget_activate_action (GTK_WIDGET (self->column_view), "list.scroll-to-item", "u",
                                position);
}

/* Lists the scope's frames; selects first (or keeps the shown frame when it is listed). */
void
apply_scope (CsPacketsView *self, gboolean select_first)
{
  CsAnalysis *analysis = cs_view_get_analysis (CS_VIEW (self));
  CsSelection *cursor = cs_view_get_selection (CS_VIEW (self));
  CsCall *call = cursor != NULL ? cs_selection_get_call (cursor) : NULL;
  CsStream *stream = cursor != NULL ? cs_selection_get_stream (cursor) : NULL;
  g_autofree char *label = NULL;
  GArray *frames = NULL;
  guint32 keep = self->shown_frame;
  guint position;

  if (analysis == NULL || self->dissector == NULL)
    return;
  switch (self->scope)
    {
    case CS_PACKETS_SCOPE_CALL:
      frames = call != NULL ? cs_frame_scope_call (analysis, call)
                            : g_array_new (FALSE, FALSE, sizeof (guint32));
      label = call != NULL ? g_strdup_printf ("Call %u: SIP, RTP, RTCP and events",
                                              cs_call_get_number (call))
                           : g_strdup ("Select a call");
      break;
    case CS_PACKETS_SCOPE_STREAM:
      frames = stream != NULL ? cs_frame_scope_stream (stream)
                              : g_array_new (FALSE, FALSE, sizeof (guint32));
      label = stream != NULL
                  ? g_strdup_printf ("Stream %u: RTP, RTCP and events", cs_stream_get_id (stream))
                  : g_strdup ("Select a stream");
      break;
    case CS_PACKETS_SCOPE_FINDING:
      frames = self->finding != NULL ? cs_frame_scope_finding (self->finding)
                                     : g_array_new (FALSE, FALSE, sizeof (guint32));
      label = self->finding != NULL ? g_strdup (cs_finding_get_text (self->finding))
                                    : g_strdup ("Activate a finding on the Findings page");
      break;
    case CS_PACKETS_SCOPE_TIME_RANGE:
      frames = cs_frame_scope_time_range (cs_analysis_get_capture_set (analysis),
                                          self->range_from_ns, self->range_to_ns);
      {
        CsFrame from = { .ts_ns = self->range_from_ns }, to = { .ts_ns = self->range_to_ns };

        label = g_strdup_printf ("From %.3f s to %.3f s",
                                 cs_frame_dissector_relative_time (self->dissector, &from),
                                 cs_frame_dissector_relative_time (self->dissector, &to));
      }
      break;
    case CS_PACKETS_SCOPE_CAPTURE:
      label = g_strdup ("Every frame of the capture");
      break;
    }
  gtk_label_set_text (self->scope_label, label);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->scope_label), label);
  cs_frame_list_set_scope (self->rows, frames);
  update_count (self);
  position = !select_first && keep != 0 ? cs_frame_list_find (self->rows, keep) : G_MAXUINT;
  if (position == G_MAXUINT)
    position
        = g_list_model_get_n_items (G_LIST_MODEL (self->rows)) > 0 ? 0 : GTK_INVALID_LIST_POSITION;
  self->shown_frame = 0;
  select_position (self, position);
  if (position == GTK_INVALID_LIST_POSITION)
    show_tree (self, 0);
}

void
set_scope (CsPacketsView *self, CsPacketsScope scope, gboolean select_first)
{
  self->scope = scope;
  self->updating = TRUE;
  gtk_drop_down_set_selected (self->scope_dropdown, scope);
  self->updating = FALSE;
  apply_scope (self, select_first);
}

void
on_scope_selected (GtkDropDown *dropdown, GParamSpec *pspec, CsPacketsView *self)
{
  if (!self->updating)
    {
      self->scope = gtk_drop_down_get_selected (dropdown);
      apply_scope (self, FALSE);
    }
}

void
on_filter_changed (GtkSearchEntry *entry, CsPacketsView *self)
{
  guint32 keep = self->shown_frame;
  guint position;

  cs_frame_list_set_filter (self->rows, gtk_editable_get_text (GTK_EDITABLE (entry)));
  update_count (self);
  position = keep != 0 ? cs_frame_list_find (self->rows, keep) : G_MAXUINT;
  self->shown_frame = 0;
  select_position (self, position != G_MAXUINT ? position
                         : g_list_model_get_n_items (G_LIST_MODEL (self->rows)) > 0
                             ? 0
                             : GTK_INVALID_LIST_POSITION);
}

void
cs_packets_view_show_finding (CsPacketsView *self, CsFinding *finding)
{
  g_return_if_fail (CS_IS_PACKETS_VIEW (self));
  g_set_object (&self->finding, finding);
  set_scope (self, CS_PACKETS_SCOPE_FINDING, TRUE);
}

void
cs_packets_view_show_stream (CsPacketsView *self)
{
  g_return_if_fail (CS_IS_PACKETS_VIEW (self));
  set_scope (self, CS_PACKETS_SCOPE_STREAM, TRUE);
}

void
cs_packets_view_show_time_range (CsPacketsView *self, gint64 from_ns, gint64 to_ns)
{
  g_return_if_fail (CS_IS_PACKETS_VIEW (self));
  self->range_from_ns = MIN (from_ns, to_ns);
  self->range_to_ns = MAX (from_ns, to_ns);
  set_scope (self, CS_PACKETS_SCOPE_TIME_RANGE, TRUE);
}

void
cs_packets_view_show_frame (CsPacketsView *self, guint32 number)
{
  guint position;

  g_return_if_fail (CS_IS_PACKETS_VIEW (self));
  position = cs_frame_list_find (self->rows, number);
  if (position == G_MAXUINT)
    {
      gtk_editable_set_text (GTK_EDITABLE (self->filter_entry), "");
      set_scope (self, CS_PACKETS_SCOPE_CAPTURE, TRUE);
      position = cs_frame_list_find (self->rows, number);
    }
  if (position != G_MAXUINT)
    select_position (self, position);
}

CsPacketsScope
cs_packets_view_get_scope (CsPacketsView *self)
{
  return self->scope;
}

GListModel *
cs_packets_view_get_rows (CsPacketsView *self)
{
  return G_LIST_MODEL (self->rows);
}

GListModel *
cs_packets_view_get_tree (CsPacketsView *self)
{
  return G_LIST_MODEL (self->tree_selection);
}

guint32
cs_packets_view_get_shown_frame (CsPacketsView *self)
{
  return self->shown_frame;
}
