/* cs-report-pdf.c — the call report paginated with cairo's PDF surface and Pango text */
#include "cs-config.h"

#include "cs-report-pdf.h"

#include <cairo-pdf.h>
#include <errno.h>
#include <pango/pangocairo.h>

#include "callscope-engine.h"
#include "cs-graph-render.h"
#include "cs-ladder-render.h"
#include "cs-report-html.h"

#define PAGE_W CS_REPORT_PDF_PAGE_WIDTH
#define PAGE_H CS_REPORT_PDF_PAGE_HEIGHT
#define MARGIN CS_REPORT_PDF_MARGIN
#define CONTENT_W (PAGE_W - 2 * MARGIN)
#define BOTTOM (PAGE_H - MARGIN)
#define FONT "Sans"
#define CELL_PAD 3.0
#define MAX_COLUMN_W 220.0
#define GRAPH_H 180.0

typedef struct
{
  cairo_surface_t *surface;
  cairo_t *cr;
  double y;
  guint pages;
  char *title;
} CsPdf;

typedef struct
{
  double r, g, b;
} CsRgb;

static const CsRgb cs_fg = { 0.14, 0.12, 0.19 }, cs_muted = { 0.37, 0.36, 0.39 },
                   cs_line = { 0.87, 0.87, 0.85 }, cs_good = { 0.15, 0.64, 0.41 },
                   cs_degraded = { 0.78, 0.53, 0.0 }, cs_bad = { 0.75, 0.11, 0.16 },
                   cs_info = { 0.47, 0.46, 0.48 };

static void
cs_set_rgb (cairo_t *cr, const CsRgb *c)
{
  cairo_set_source_rgb (cr, c->r, c->g, c->b);
}

static const CsRgb *
cs_class_color (const char *row_class)
{
  if (g_strcmp0 (row_class, "good") == 0)
    return &cs_good;
  if (g_strcmp0 (row_class, "degraded") == 0)
    return &cs_degraded;
  if (g_strcmp0 (row_class, "bad") == 0)
    return &cs_bad;
  if (g_strcmp0 (row_class, "info") == 0)
    return &cs_info;
  return NULL;
}

static PangoLayout *
cs_pdf_layout (CsPdf *pdf, const char *text, double size, gboolean bold, double width)
{
  PangoLayout *layout = pango_cairo_create_layout (pdf->cr);
  PangoFontDescription *font = pango_font_description_from_string (FONT);

  pango_font_description_set_size (font, (gint) (size * PANGO_SCALE));
  if (bold)
    pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  if (width > 0)
    {
      pango_layout_set_width (layout, (int) (width * PANGO_SCALE));
      pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
    }
  {
    g_autofree char *owned = NULL;

    pango_layout_set_text (layout, cs_text_inert (text != NULL ? text : "", &owned), -1);
  }
  return layout;
}

static double
cs_layout_height (PangoLayout *layout)
{
  int w, h;

  pango_layout_get_size (layout, &w, &h);
  return (double) h / PANGO_SCALE;
}

static double
cs_layout_width (PangoLayout *layout)
{
  int w, h;

  pango_layout_get_size (layout, &w, &h);
  return (double) w / PANGO_SCALE;
}

static void
cs_pdf_new_page (CsPdf *pdf)
{
  g_autofree char *footer = NULL;
  PangoLayout *layout;

  if (pdf->pages > 0)
    cairo_show_page (pdf->cr);
  pdf->pages++;
  pdf->y = MARGIN;
  footer = g_strdup_printf ("%s · page %u", pdf->title, pdf->pages);
  layout = cs_pdf_layout (pdf, footer, 7, FALSE, CONTENT_W);
  cs_set_rgb (pdf->cr, &cs_muted);
  cairo_move_to (pdf->cr, MARGIN, PAGE_H - MARGIN / 2 - 6);
  pango_cairo_show_layout (pdf->cr, layout);
  g_object_unref (layout);
}

/* A new page unless h more points fit on this one. */
static void
cs_pdf_need (CsPdf *pdf, double h)
{
  if (pdf->y + h > BOTTOM && pdf->y > MARGIN)
    cs_pdf_new_page (pdf);
}

static void
cs_pdf_text (CsPdf *pdf, const char *text, double size, gboolean bold, const CsRgb *color,
             double space_after)
{
  PangoLayout *layout = cs_pdf_layout (pdf, text, size, bold, CONTENT_W);
  double h = cs_layout_height (layout);

  cs_pdf_need (pdf, h);
  cs_set_rgb (pdf->cr, color);
  cairo_move_to (pdf->cr, MARGIN, pdf->y);
  pango_cairo_show_layout (pdf->cr, layout);
  pdf->y += h + space_after;
  g_object_unref (layout);
}

static void
cs_pdf_heading (CsPdf *pdf, const char *text)
{
  cs_pdf_need (pdf, 60); /* keep a heading with what follows it */
  pdf->y += 6;
  cs_pdf_text (pdf, text, 10.5, TRUE, &cs_muted, 4);
}

/* Column widths: natural widths, the widest shrunk until the table fits the page. */
static double *
cs_grid_widths (CsPdf *pdf, const CsReportGrid *grid, double size, gboolean header)
{
  guint n = grid->columns->len;
  double *w = g_new0 (double, n);
  double total = 0;

  for (guint c = 0; c < n; c++)
    {
      if (header)
        {
          PangoLayout *l
              = cs_pdf_layout (pdf, g_ptr_array_index (grid->columns, c), size, TRUE, -1);

          w[c] = MIN (cs_layout_width (l), 30.0); /* headings may wrap */
          g_object_unref (l);
        }
      for (guint r = 0; r < grid->rows->len && r < 200; r++)
        {
          char **row = g_ptr_array_index (grid->rows, r);
          PangoLayout *l = cs_pdf_layout (pdf, row[c], size, FALSE, -1);

          w[c] = MAX (w[c], MIN (cs_layout_width (l), MAX_COLUMN_W));
          g_object_unref (l);
        }
      w[c] += 2 * CELL_PAD;
      total += w[c];
    }
  /* Bring the widest columns down together until the table fits. */
  while (total > CONTENT_W + 0.5)
    {
      guint widest = 0;
      double second = 0, cut;

      for (guint c = 1; c < n; c++)
        if (w[c] > w[widest])
          widest = c;
      for (guint c = 0; c < n; c++)
        if (c != widest)
          second = MAX (second, w[c]);
      cut = MIN (total - CONTENT_W, MAX (w[widest] - second, 2.0));
      if (w[widest] - cut < 28)
        break;
      w[widest] -= cut;
      total -= cut;
    }
  if (total < CONTENT_W && !header)
    w[n - 1] += CONTENT_W - total; /* facts: the value column takes the rest */
  return w;
}

static double
cs_pdf_row (CsPdf *pdf, char **cells, const double *widths, guint n, guint64 numeric, double size,
            gboolean bold, const CsRgb *bar, gboolean draw)
{
  PangoLayout **layouts = g_newa (PangoLayout *, n);
  double h = 0, x = MARGIN;

  for (guint c = 0; c < n; c++)
    {
      layouts[c] = cs_pdf_layout (pdf, cells[c], size, bold, widths[c] - 2 * CELL_PAD);
      if ((numeric >> c) & 1)
        pango_layout_set_alignment (layouts[c], PANGO_ALIGN_RIGHT);
      h = MAX (h, cs_layout_height (layouts[c]));
    }
  h += 2 * CELL_PAD;
  if (draw)
    {
      if (bar != NULL)
        {
          cs_set_rgb (pdf->cr, bar);
          cairo_rectangle (pdf->cr, MARGIN, pdf->y, 2.5, h);
          cairo_fill (pdf->cr);
        }
      for (guint c = 0; c < n; c++)
        {
          cs_set_rgb (pdf->cr, bold ? &cs_muted : &cs_fg);
          cairo_move_to (pdf->cr, x + CELL_PAD, pdf->y + CELL_PAD);
          pango_cairo_show_layout (pdf->cr, layouts[c]);
          x += widths[c];
        }
      cs_set_rgb (pdf->cr, &cs_line);
      cairo_set_line_width (pdf->cr, 0.5);
      cairo_move_to (pdf->cr, MARGIN, pdf->y + h);
      cairo_line_to (pdf->cr, MARGIN + CONTENT_W, pdf->y + h);
      cairo_stroke (pdf->cr);
    }
  for (guint c = 0; c < n; c++)
    g_object_unref (layouts[c]);
  return h;
}

static void
cs_pdf_grid (CsPdf *pdf, const CsReportGrid *grid, gboolean header, guint max_rows)
{
  double size = !header ? 8.0 : grid->columns->len > 10 ? 6.5 : 7.0;
  guint n = grid->columns->len;
  g_autofree double *widths = cs_grid_widths (pdf, grid, size, header);
  char **heads = g_newa (char *, n);

  for (guint c = 0; c < n; c++)
    heads[c] = g_ptr_array_index (grid->columns, c);
  if (header)
    {
      cs_pdf_need (pdf, 64); /* the header row and at least one row under it */
      pdf->y += cs_pdf_row (pdf, heads, widths, n, grid->numeric, size, TRUE, NULL, TRUE);
    }
  for (guint r = 0; r < grid->rows->len && r < max_rows; r++)
    {
      char **row = g_ptr_array_index (grid->rows, r);
      const CsRgb *bar = cs_class_color (g_ptr_array_index (grid->row_classes, r));
      double h = cs_pdf_row (pdf, row, widths, n, grid->numeric, size, FALSE, bar, FALSE);

      if (pdf->y + h > BOTTOM)
        {
          cs_pdf_new_page (pdf);
          if (header) /* the header row again on the new page */
            pdf->y += cs_pdf_row (pdf, heads, widths, n, grid->numeric, size, TRUE, NULL, TRUE);
        }
      pdf->y += cs_pdf_row (pdf, row, widths, n, grid->numeric, size, FALSE, bar, TRUE);
    }
  pdf->y += 6;
}

/* The ladder scaled to the page width, cut between rows across pages, header on each. */
static void
cs_pdf_ladder (CsPdf *pdf, CsCall *call, GListModel *streams)
{
  g_autoptr (CsLadderLayout) layout = cs_ladder_layout_new (&call, 1, streams);
  CsLadderPalette palette;
  guint end, first = 0;
  double scale;

  if (layout == NULL || layout->rows->len == 0)
    {
      cs_pdf_text (pdf, "No SIP messages to draw.", 8, FALSE, &cs_muted, 4);
      return;
    }
  cs_ladder_palette_init_light (&palette);
  scale = MIN (1.0, CONTENT_W / layout->width);
  end = MIN (layout->rows->len, CS_REPORT_MAX_LADDER_ROWS);
  while (first < end)
    {
      double top = g_array_index (layout->rows, CsLadderRow, first).y;
      double room = (BOTTOM - pdf->y) / scale - CS_LADDER_HEADER_HEIGHT;
      guint last = first;

      while (last < end)
        {
          const CsLadderRow *row = &g_array_index (layout->rows, CsLadderRow, last);

          if (row->y + row->height - top > room)
            break;
          last++;
        }
      if (last == first)
        {
          if (pdf->y > MARGIN)
            {
              cs_pdf_new_page (pdf);
              continue;
            }
          last = first + 1; /* a row taller than a page: draw it anyway */
        }
      const CsLadderRow *tail = &g_array_index (layout->rows, CsLadderRow, last - 1);
      double h = CS_LADDER_HEADER_HEIGHT + tail->y + tail->height - top;

      cairo_save (pdf->cr);
      cairo_translate (pdf->cr, MARGIN, pdf->y);
      cairo_scale (pdf->cr, scale, scale);
      cairo_rectangle (pdf->cr, 0, 0, layout->width, h);
      cairo_clip (pdf->cr);
      cs_ladder_paint_header (layout, &palette, pdf->cr);
      cairo_translate (pdf->cr, 0, CS_LADDER_HEADER_HEIGHT - top);
      cs_ladder_paint_rows (layout, &palette, pdf->cr, first, last, CS_LADDER_TIME_RELATIVE, -1);
      cairo_restore (pdf->cr);
      pdf->y += h * scale + 6;
      first = last;
    }
}

static void
cs_pdf_graph (CsPdf *pdf, GPtrArray *streams, GPtrArray *findings, CsGraphKind kind)
{
  g_autoptr (CsGraph) graph = NULL;
  CsGraphRenderOptions options;
  CsGraphPalette palette;
  gint64 origin = G_MAXINT64;

  for (guint i = 0; i < streams->len; i++)
    {
      const CsRtpStats *st = cs_stream_get_stats (g_ptr_array_index (streams, i));

      if (st->packets > 0)
        origin = MIN (origin, st->first_ns);
    }
  if (origin == G_MAXINT64)
    return;
  graph = cs_graph_new (kind, origin);
  for (guint i = 0; i < streams->len; i++)
    cs_graph_add_stream (graph, g_ptr_array_index (streams, i), NULL);
  for (guint i = 0; i < findings->len; i++)
    {
      CsFinding *f = g_ptr_array_index (findings, i);
      const GArray *frames = cs_finding_get_frames (f);

      if (cs_finding_get_stream_id (f) != 0 && frames->len > 0)
        cs_graph_add_finding_marker (graph, cs_finding_get_stream_id (f),
                                     g_array_index (frames, guint32, 0));
    }
  cs_pdf_need (pdf, GRAPH_H + 6);
  cs_graph_render_options_init (&options, graph, CONTENT_W, GRAPH_H);
  cs_graph_palette_init_light (&palette);
  cairo_save (pdf->cr);
  cairo_translate (pdf->cr, MARGIN, pdf->y);
  cairo_rectangle (pdf->cr, 0, 0, CONTENT_W, GRAPH_H);
  cairo_clip (pdf->cr);
  cs_graph_render (pdf->cr, graph, &options, &palette);
  cairo_restore (pdf->cr);
  pdf->y += GRAPH_H + 6;
}

static void
cs_pdf_call (CsPdf *pdf, CsAnalysis *analysis, CsCall *call, gboolean figures)
{
  g_autoptr (GPtrArray) streams = cs_report_call_streams (analysis, call);
  g_autoptr (GPtrArray) findings = cs_report_call_findings (analysis, call);
  g_autoptr (CsReportGrid) facts = cs_report_grid_call_facts (call);
  g_autoptr (CsReportGrid) messages = cs_report_grid_call_messages (call);
  g_autofree char *title = NULL;

  cs_pdf_new_page (pdf);
  title = g_strdup_printf ("Call %u: %s %s → %s", cs_call_get_number (call),
                           cs_call_get_method_name (call), cs_call_get_from (call),
                           cs_call_get_to (call));
  cs_pdf_text (pdf, title, 14, TRUE, &cs_fg, 6);
  cs_pdf_grid (pdf, facts, FALSE, G_MAXUINT);

  cs_pdf_heading (pdf, "Findings");
  if (findings->len > 0)
    {
      g_autoptr (CsReportGrid) grid = cs_report_grid_findings (findings);

      cs_pdf_grid (pdf, grid, TRUE, G_MAXUINT);
    }
  else
    cs_pdf_text (pdf, "No findings.", 8, FALSE, &cs_muted, 4);

  cs_pdf_heading (pdf, "Ladder");
  if (figures)
    cs_pdf_ladder (pdf, call, cs_analysis_get_streams (analysis));
  else
    cs_pdf_text (pdf, "Ladders are drawn for the worst calls only; the messages are listed below.",
                 8, FALSE, &cs_muted, 4);

  cs_pdf_heading (pdf, "Streams and MOS");
  if (streams->len > 0)
    {
      g_autoptr (CsReportGrid) grid = cs_report_grid_streams (streams);

      cs_pdf_grid (pdf, grid, TRUE, G_MAXUINT);
      if (figures)
        {
          cs_pdf_need (pdf, GRAPH_H + 30); /* a heading stays with its graph */
          cs_pdf_heading (pdf, "Jitter");
          cs_pdf_graph (pdf, streams, findings, CS_GRAPH_KIND_JITTER);
          cs_pdf_need (pdf, GRAPH_H + 30);
          cs_pdf_heading (pdf, "MOS over time");
          cs_pdf_graph (pdf, streams, findings, CS_GRAPH_KIND_MOS);
        }
    }
  else
    cs_pdf_text (pdf, "No RTP stream belongs to this call.", 8, FALSE, &cs_muted, 4);

  cs_pdf_heading (pdf, "SIP messages");
  cs_pdf_grid (pdf, messages, TRUE, CS_REPORT_MAX_MESSAGE_ROWS);
}

static cairo_status_t
cs_pdf_write_file (void *closure, const unsigned char *data, unsigned int length)
{
  return fwrite (data, 1, length, closure) == length ? CAIRO_STATUS_SUCCESS
                                                     : CAIRO_STATUS_WRITE_ERROR;
}

gboolean
cs_report_pdf_write (CsAnalysis *analysis, const guint *call_numbers, guint n_calls, FILE *out,
                     guint *n_pages, CsReportProgressFunc progress, gpointer user_data,
                     GError **error)
{
  g_autoptr (GPtrArray) calls = cs_report_calls_worst_first (analysis, call_numbers, n_calls);
  g_autoptr (CsReportGrid) capture = cs_report_grid_capture (analysis);
  g_autoptr (CsReportGrid) overview = cs_report_grid_calls (calls);
  g_autofree char *name = cs_analysis_dup_title (analysis);
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *generated = g_date_time_format_iso8601 (now);
  g_autofree char *meta = NULL;
  guint sections = MIN (calls->len, CS_REPORT_MAX_SECTIONS);
  CsPdf pdf = { 0 };
  cairo_status_t status;

  {
    g_autofree char *inert = cs_text_inert_dup (name);

    pdf.title = g_strdup_printf ("Call report: %s", inert);
  }
  pdf.surface = cairo_pdf_surface_create_for_stream (cs_pdf_write_file, out, PAGE_W, PAGE_H);
  cairo_pdf_surface_set_metadata (pdf.surface, CAIRO_PDF_METADATA_TITLE, pdf.title);
  cairo_pdf_surface_set_metadata (pdf.surface, CAIRO_PDF_METADATA_CREATOR,
                                  "callscope " PACKAGE_VERSION);
  pdf.cr = cairo_create (pdf.surface);

  cs_pdf_new_page (&pdf);
  cs_pdf_text (&pdf, pdf.title, 18, TRUE, &cs_fg, 2);
  meta = g_strdup_printf ("%u of %u calls, worst first · generated %s by callscope %s", calls->len,
                          g_list_model_get_n_items (cs_analysis_get_calls (analysis)), generated,
                          PACKAGE_VERSION);
  cs_pdf_text (&pdf, meta, 8, FALSE, &cs_muted, 10);
  cs_pdf_heading (&pdf, "Summary");
  cs_pdf_grid (&pdf, capture, FALSE, G_MAXUINT);
  cs_pdf_heading (&pdf, "Calls, worst first");
  if (calls->len > 0)
    cs_pdf_grid (&pdf, overview, TRUE, G_MAXUINT);
  else
    cs_pdf_text (&pdf, "No calls were found in this capture.", 8, FALSE, &cs_muted, 4);

  for (guint i = 0; i < sections; i++)
    {
      cs_pdf_call (&pdf, analysis, g_ptr_array_index (calls, i), i < CS_REPORT_MAX_FIGURES);
      if (progress != NULL)
        progress (i + 1, sections, user_data);
    }
  cairo_show_page (pdf.cr);
  status = cairo_status (pdf.cr);
  cairo_destroy (pdf.cr);
  cairo_surface_finish (pdf.surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (pdf.surface);
  cairo_surface_destroy (pdf.surface);
  g_free (pdf.title);
  if (n_pages != NULL)
    *n_pages = pdf.pages;
  if (status != CAIRO_STATUS_SUCCESS || fflush (out) != 0 || ferror (out))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Could not write the PDF report: %s",
                   status != CAIRO_STATUS_SUCCESS ? cairo_status_to_string (status)
                                                  : g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}
