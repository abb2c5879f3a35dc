/* cs-load-render.h — the story of a load run drawn with cairo: offered vs handled
 * calls/s, concurrent calls, INVITE response-time percentiles, retransmissions and
 * timeouts, breaking point and capacity; a second run on the same axes. Used by the
 * Load page and the HTML load report. */
#pragma once

#include <cairo.h>

#include "callscope-engine.h"
#include "cs-load-text.h"

G_BEGIN_DECLS

typedef struct
{
  double r, g, b, a;
} CsLoadColor;

typedef struct
{
  CsLoadColor text, grid, axis, bad, selection;
  CsLoadColor offered, handled, concurrent, capacity;
  CsLoadColor p50, p90, p99, p999, trying;
  CsLoadColor retrans_invite, retrans_200, retrans_bye, timeouts, failed;
} CsLoadPalette;

/* Light-background colours (the HTML report, and the Load page's fallbacks). */
void cs_load_palette_default (CsLoadPalette *palette);

typedef struct
{
  const CsLoadReport *report; /* run A */
  const CsLoadReport *other;  /* run B on the same axes (dashed), or NULL */
  const char *name, *other_name;
  gint64 range_from_ns, range_to_ns; /* a selected range of run A (equal: none) */
  double drag_from_x, drag_to_x;     /* a range being dragged (from < 0: none) */
} CsLoadScene;

#define CS_LOAD_RENDER_MIN_WIDTH 320
#define CS_LOAD_RENDER_MIN_HEIGHT 360

void cs_load_render (cairo_t *cr, double width, double height, const CsLoadScene *scene,
                     const CsLoadPalette *palette);

/* The plot's horizontal extent and the time it spans (for brushing). */
void cs_load_render_plot_x (double width, double *x, double *plot_width);
double cs_load_render_span_s (const CsLoadScene *scene);

G_END_DECLS
