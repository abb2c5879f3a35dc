/* cs-graph-view-canvas.h — the drawing area of a graph: zoom, pan, hover, click (cairo in snapshot)
 */
#pragma once

#include <gtk/gtk.h>

#include "cs-graph-render.h"

G_BEGIN_DECLS

#define CS_TYPE_GRAPH_CANVAS (cs_graph_canvas_get_type ())
G_DECLARE_FINAL_TYPE (CsGraphCanvas, cs_graph_canvas, CS, GRAPH_CANVAS, GtkWidget)

/* Signals:
 *   "point-activated" (guint series_index, guint point_index): a click on a point
 *   "viewport-changed": zoom or pan */
GtkWidget *cs_graph_canvas_new (void);
/* Takes the graph (NULL clears). keep_time_range keeps the visible time span
 * when it still fits (switching kinds), otherwise the whole extent shows. */
void cs_graph_canvas_set_graph (CsGraphCanvas *self, CsGraph *graph, gboolean keep_time_range);
const CsGraph *cs_graph_canvas_get_graph (CsGraphCanvas *self);
/* Heading drawn above the plot; NULL = the kind and its unit. */
void cs_graph_canvas_set_title (CsGraphCanvas *self, const char *title);
/* Cursor line at t seconds since the graph's origin; NAN hides it. When
 * t is outside the visible span the view scrolls to it. */
void cs_graph_canvas_set_cursor (CsGraphCanvas *self, double t_s);
double cs_graph_canvas_get_cursor (CsGraphCanvas *self);
void cs_graph_canvas_get_viewport (CsGraphCanvas *self, CsGraphViewport *out);
void cs_graph_canvas_zoom (CsGraphCanvas *self, double factor);
void cs_graph_canvas_pan (CsGraphCanvas *self, double fraction);
void cs_graph_canvas_reset_zoom (CsGraphCanvas *self);
/* Show t0..t1 (clamped to the data). */
void cs_graph_canvas_set_visible_range (CsGraphCanvas *self, double t0, double t1);
/* The legend as last drawn (CsGraphLegendItem, cs-graph-legend.h; NULL before the first
 * drawing or without a legend) and the rows the title and legend took (for tests). */
const GArray *cs_graph_canvas_get_legend (CsGraphCanvas *self, guint *header_rows);
/* The hovered point, if any (for tests and the tooltip). */
gboolean cs_graph_canvas_get_hover (CsGraphCanvas *self, guint *series_index, guint *point_index);
/* Hover/click at widget coordinates, as the pointer does (tests use it). */
gboolean cs_graph_canvas_hover_at (CsGraphCanvas *self, double x, double y);
gboolean cs_graph_canvas_click_at (CsGraphCanvas *self, double x, double y);
/* Widget coordinates of a point (series, index); FALSE when not visible. */
gboolean cs_graph_canvas_point_position (CsGraphCanvas *self, guint series_index, guint point_index,
                                         double *x, double *y);
/* Issue 21. The frame named at widget point (x, y): the nearest point's, else the nearest
 * loss/late/finding marker's; 0 when none. */
guint32 cs_graph_canvas_frame_at (CsGraphCanvas *self, double x, double y);
/* What a double click does: win.show-frame with that frame (the Packets page). */
gboolean cs_graph_canvas_open_frame_at (CsGraphCanvas *self, double x, double y);
/* The capture time (ns) at widget x. */
gint64 cs_graph_canvas_time_at (CsGraphCanvas *self, double x);
/* What a Shift+drag from x0 to x1 does: win.show-time-range with those times. */
gboolean cs_graph_canvas_show_range (CsGraphCanvas *self, double x0, double x1);
/* The palette taken from the theme (CSS colours) at the last style change. */
const CsGraphPalette *cs_graph_canvas_get_palette (CsGraphCanvas *self);

G_END_DECLS
