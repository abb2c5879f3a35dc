/* cs-graph-legend.h — what a graph's legend names (each series, each kind of marker drawn), how
 * it flows over the header rows, and the marker symbols it shares with the plot */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "cs-graph-render.h"

G_BEGIN_DECLS

typedef struct
{
  gboolean is_marker;
  guint series_index;     /* series: its colour */
  CsGraphMarkerKind kind; /* marker */
  const char *label;      /* borrowed: the series label or the marker's name */
  CsGraphRect box;        /* where it was laid out (cs_graph_legend_layout) */
} CsGraphLegendItem;

/* "lost packets", "late or reordered", "finding", "marker bit", "DTMF" */
const char *cs_graph_marker_kind_name (CsGraphMarkerKind kind);

/* Every series, then every marker kind present in any series (in kind order): GArray of
 * CsGraphLegendItem. */
GArray *cs_graph_legend_items (const CsGraph *graph);

/* Lays items out with cr's current font: the first row from first_x to right_x on the
 * title's line (centre y0), further rows from left_x, each row_height lower. Returns the
 * number of rows used (1 when items is empty). */
guint cs_graph_legend_layout (cairo_t *cr, GArray *items, double first_x, double left_x,
                              double right_x, double y0, double row_height);

void cs_graph_legend_draw (cairo_t *cr, const GArray *items, const CsGraphPalette *palette);

/* The symbol of a marker kind centred at (x, y): what the plot draws and the legend shows. */
void cs_graph_marker_symbol (cairo_t *cr, CsGraphMarkerKind kind, double x, double y,
                             const CsGraphPalette *palette, char digit);

G_END_DECLS
