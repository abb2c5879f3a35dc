/* cs-packets-view-private.h — what the Packets page's two files share: the page's state
 * (cs-packets-view.c: scope, list, tree, bytes) and its widgets (cs-packets-view-build.c) */
#pragma once

#include "cs-frame-list.h"
#include "cs-hex-view.h"
#include "cs-packets-view.h"

G_BEGIN_DECLS

struct _CsPacketsView
{
  CsView parent_instance;

  GtkWidget *box;
  GtkDropDown *scope_dropdown;
  GtkLabel *scope_label;
  GtkSearchEntry *filter_entry;
  GtkLabel *count_label;
  GtkColumnView *column_view;
  GtkSingleSelection *row_selection;
  CsFrameList *rows;
  GtkListView *tree_view;
  GtkSingleSelection *tree_selection;
  CsHexView *hex_view;

  CsFrameDissector *dissector;
  CsPacketsScope scope;
  CsFinding *finding;
  gint64 range_from_ns, range_to_ns;
  guint32 shown_frame;
  CsProtoTree *shown_tree; /* borrowed from the tree model's items */
  gboolean updating;
  int probe_column; /* the column a sort probe asked first (see on_sorter_changed) */
  CsFrameRow *probe_a, *probe_b;
};

void update_count (CsPacketsView *self);
void show_tree (CsPacketsView *self, guint32 number);
const CsProtoNode *selected_node (CsPacketsView *self);
void select_position (CsPacketsView *self, guint position);
/* Lists the scope's frames; selects the first (or keeps the shown frame when it is listed). */
void apply_scope (CsPacketsView *self, gboolean select_first);
/* Shows scope in the dropdown and lists it. */
void set_scope (CsPacketsView *self, CsPacketsScope scope, gboolean select_first);
void on_tree_selected (GtkSingleSelection *selection, GParamSpec *pspec, CsPacketsView *self);
void on_byte_clicked (CsHexView *hex, guint byte, CsPacketsView *self);
void on_row_selected (GtkSingleSelection *selection, GParamSpec *pspec, CsPacketsView *self);
void on_scope_selected (GtkDropDown *dropdown, GParamSpec *pspec, CsPacketsView *self);
void on_filter_changed (GtkSearchEntry *entry, CsPacketsView *self);

G_END_DECLS
