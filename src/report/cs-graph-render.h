/* cs-graph-render.h — paints a CsGraph with cairo: the same code for the window and for files */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "cs-graph-series.h"

G_BEGIN_DECLS

typedef struct
{
  double r, g, b, a;
} CsGraphColor;

#define CS_GRAPH_N_SERIES_COLORS 4

/* Every colour the renderer uses: the window fills it from the theme (CSS),
 * files use the fixed light palette. */
typedef struct
{
  CsGraphColor background, text, grid, axis;
  CsGraphColor series[CS_GRAPH_N_SERIES_COLORS];
  CsGraphColor loss, seq_error, finding, cursor;
  CsGraphColor marker_bit, dtmf;
  CsGraphColor good, degraded, bad; /* MOS bands */
  char font_family[64];
  double font_size; /* px */
} CsGraphPalette;

void cs_graph_palette_init_light (CsGraphPalette *palette);

typedef struct
{
  double width, height; /* px (pt for PDF/SVG) */
  CsGraphViewport viewport;
  double cursor_t; /* seconds since origin; NAN = no cursor */
  gboolean has_hover;
  guint hover_series, hover_point;
  const char *title; /* top-left heading; NULL = the kind and its unit */
  gboolean legend;
  /* Optional: per series, a GArray of CsGraphScaledPoint already scaled to
   * this viewport (cs_graph_series_scale); NULL = scaled while drawing. */
  const GPtrArray *scaled;
} CsGraphRenderOptions;

/* Whole extent, no cursor, no hover, legend on. */
void cs_graph_render_options_init (CsGraphRenderOptions *options, const CsGraph *graph,
                                   double width, double height);

typedef struct
{
  double x, y, width, height;
} CsGraphRect;

/* Where the plot (inside the axes) lies for a given size: the widget maps
 * pointer positions through it. */
void cs_graph_render_plot_area (double width, double height, CsGraphRect *out);
/* The same when the header (title and legend) takes header_rows rows: a legend too wide for
 * the title's line flows onto rows of its own above the plot. */
void cs_graph_render_plot_area_rows (double width, double height, guint header_rows,
                                     CsGraphRect *out);
/* Rows the header takes for these options (1 when the legend fits beside the title);
 * legend_out (optional) receives the legend's items where they are drawn
 * (CsGraphLegendItem, cs-graph-legend.h), NULL without a legend. */
guint cs_graph_render_header_rows (cairo_t *cr, const CsGraph *graph,
                                   const CsGraphRenderOptions *options,
                                   const CsGraphPalette *palette, GArray **legend_out);

void cs_graph_render (cairo_t *cr, const CsGraph *graph, const CsGraphRenderOptions *options,
                      const CsGraphPalette *palette);

/* Writes the graph to path; the format follows the suffix (.png, .svg, .pdf).
 * palette NULL = the light palette. */
gboolean cs_graph_render_to_file (const CsGraph *graph, const CsGraphRenderOptions *options,
                                  const CsGraphPalette *palette, const char *path, GError **error);

G_END_DECLS
