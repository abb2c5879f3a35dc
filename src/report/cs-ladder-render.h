/* cs-ladder-render.h — paints a ladder layout with cairo, on screen and into PNG/SVG/PDF files */
#pragma once

#include <cairo.h>

#include "cs-ladder-layout.h"

G_BEGIN_DECLS

typedef struct
{
  double red, green, blue, alpha;
} CsLadderColor;

#define CS_LADDER_N_LEG_COLORS 6

/* Every colour the painter uses: the window fills it from CSS, files use the light one. */
typedef struct
{
  CsLadderColor background;
  CsLadderColor foreground;
  CsLadderColor secondary; /* times, SDP lines, subtitles */
  CsLadderColor lifeline;
  CsLadderColor header_background;
  CsLadderColor selection;
  CsLadderColor request;
  CsLadderColor provisional;                  /* 1xx */
  CsLadderColor success;                      /* 2xx */
  CsLadderColor redirect;                     /* 3xx */
  CsLadderColor client_error;                 /* 4xx */
  CsLadderColor server_error;                 /* 5xx, 6xx */
  CsLadderColor good, degraded, bad, unknown; /* stream quality */
  CsLadderColor legs[CS_LADDER_N_LEG_COLORS];
} CsLadderPalette;

void cs_ladder_palette_init_light (CsLadderPalette *palette);
void cs_ladder_palette_init_dark (CsLadderPalette *palette);
/* Colour of a message row's arrow (status class, or the leg's colour for requests). */
const CsLadderColor *cs_ladder_palette_row_color (const CsLadderPalette *palette,
                                                  const CsLadderLayout *layout,
                                                  const CsLadderRow *row);

/* The endpoint names across the top, from y = 0 to CS_LADDER_HEADER_HEIGHT. */
void cs_ladder_paint_header (const CsLadderLayout *layout, const CsLadderPalette *palette,
                             cairo_t *cr);
/* Rows [first_row, end_row) at their layout y (y = 0 is the top of the first row), with the
 * lifelines and RTP lanes behind them; selected_row < 0 for none. Only what lies in the
 * rows' vertical range is drawn, so a caller can paint a visible slice of a huge ladder. */
void cs_ladder_paint_rows (const CsLadderLayout *layout, const CsLadderPalette *palette,
                           cairo_t *cr, guint first_row, guint end_row, CsLadderTimeMode mode,
                           int selected_row);

typedef enum
{
  CS_LADDER_FORMAT_PNG,
  CS_LADDER_FORMAT_SVG,
  CS_LADDER_FORMAT_PDF,
  CS_LADDER_FORMAT_TEXT,
} CsLadderFormat;

/* From the file name's extension (.png .svg .pdf .txt); FALSE when unknown. */
gboolean cs_ladder_format_from_path (const char *path, CsLadderFormat *format);

/* PNG files are at most CS_LADDER_PNG_MAX_HEIGHT px tall: longer ladders are cut there and
 * say so at the bottom (PDF pages and SVG hold everything). */
#define CS_LADDER_PNG_MAX_HEIGHT 32000
#define CS_LADDER_PDF_PAGE_WIDTH 842.0 /* A4 landscape, points */
#define CS_LADDER_PDF_PAGE_HEIGHT 595.0
#define CS_LADDER_PDF_MARGIN 24.0

/* Writes the ladder with the light palette. PDF is paginated (A4 landscape, scaled to the
 * page width, header repeated on every page). Errors: G_IO_ERROR. */
gboolean cs_ladder_export (const CsLadderLayout *layout, CsLadderTimeMode mode, const char *path,
                           CsLadderFormat format, GError **error);
/* Number of PDF pages cs_ladder_export would write. */
guint cs_ladder_pdf_page_count (const CsLadderLayout *layout);

G_END_DECLS
