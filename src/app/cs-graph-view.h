/* cs-graph-view.h — the quality pane: graphs of the selected call's streams and its MOS table */
#pragma once

#include <gtk/gtk.h>

#include "callscope-engine.h"
#include "cs-graph-view-canvas.h"
#include "cs-mos-table.h"
#include "cs-selection.h"
#include "cs-view.h"

G_BEGIN_DECLS

#define CS_TYPE_GRAPH_VIEW (cs_graph_view_get_type ())
G_DECLARE_FINAL_TYPE (CsGraphView, cs_graph_view, CS, GRAPH_VIEW, CsView)

/* Draws the streams and findings of the view's analysis (NULL: nothing) and follows its
 * selection: a selected stream shows its call's streams (both directions overlaid), a
 * selected call shows its streams, time-ns/frame move the cursor line. A click on a point
 * sets stream, frame and time-ns. */
GtkWidget *cs_graph_view_new (void);
void cs_graph_view_set_kind (CsGraphView *self, CsGraphKind kind);
CsGraphKind cs_graph_view_get_kind (CsGraphView *self);
/* Opens the graph that shows a finding best (jitter for high jitter, delta for
 * delta spikes…) around its first frame. The selection moves there too. */
void cs_graph_view_show_finding (CsGraphView *self, CsFinding *finding);
/* The graph shown (NULL when none) and its streams, in series order. */
const CsGraph *cs_graph_view_get_graph (CsGraphView *self);
guint cs_graph_view_get_n_streams (CsGraphView *self);
CsStream *cs_graph_view_get_stream (CsGraphView *self, guint index);
CsGraphCanvas *cs_graph_view_get_canvas (CsGraphView *self);
CsMosTable *cs_graph_view_get_mos_table (CsGraphView *self);
/* Writes the graph as shown (same time range) with the light palette; the
 * format follows the suffix (.png, .svg, .pdf). */
gboolean cs_graph_view_export (CsGraphView *self, const char *path, GError **error);

G_END_DECLS
