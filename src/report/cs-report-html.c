/* cs-report-html.c — the HTML call report: polyglot HTML5 (also well-formed XML), CSS and SVG
 * inline, nothing fetched from anywhere, readable in light and dark mode and on paper */
#include "cs-config.h"

#include "cs-report-html.h"

#include "callscope-engine.h"
#include "cs-graph-render.h"
#include "cs-ladder-render.h"
#include "cs-svg-inline.h"
#include "cs-time-format.h"

#define CS_HTML_GRAPH_WIDTH 900.0
#define CS_HTML_GRAPH_HEIGHT 260.0

const char cs_report_css[]
    = ":root{--fg:#241f31;--muted:#5e5c64;--bg:#fff;--card:#f6f5f4;--line:#deddda;"
      "--good:#26a269;--degraded:#c88800;--bad:#c01c28;--unknown:#77767b;--link:#1c71d8}"
      "@media (prefers-color-scheme:dark){:root{--fg:#f6f5f4;--muted:#c0bfbc;--bg:#1e1e1e;"
      "--card:#2a2a2a;--line:#3d3846;--link:#78aeed}.cs-figure{background:#fff;border-radius:6px}}"
      "body{font-family:Cantarell,'Noto Sans',system-ui,sans-serif;color:var(--fg);"
      "background:var(--bg);margin:0 auto;max-width:1200px;padding:24px;line-height:1.4}"
      "h1{font-size:1.7em;margin:0 0 4px}h2{font-size:1.35em;margin:0 0 12px}"
      "h3{font-size:1.05em;margin:20px 0 6px;color:var(--muted)}"
      "a{color:var(--link)}.meta{color:var(--muted);margin:0 0 18px}"
      "section{background:var(--card);border:1px solid var(--line);border-radius:12px;"
      "padding:18px 20px;margin:0 0 24px;page-break-inside:auto}"
      "section.call{page-break-before:always}"
      "table{border-collapse:collapse;width:100%;font-size:0.92em;margin:4px 0}"
      "th,td{padding:4px 8px;border-bottom:1px solid var(--line);text-align:left;"
      "vertical-align:top;overflow-wrap:anywhere}"
      "th{font-weight:600;color:var(--muted)}"
      ".num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
      "table.facts td:first-child{width:14em;color:var(--muted)}"
      "table.streams td:nth-child(-n+4){white-space:nowrap}"
      "tr.good td:first-child{box-shadow:inset 4px 0 var(--good)}"
      "tr.degraded td:first-child{box-shadow:inset 4px 0 var(--degraded)}"
      "tr.bad td:first-child{box-shadow:inset 4px 0 var(--bad)}"
      "tr.info td:first-child{box-shadow:inset 4px 0 var(--unknown)}"
      ".badge{display:inline-block;border-radius:999px;padding:1px 10px;font-size:0.75em;"
      "color:#fff;background:var(--unknown);vertical-align:middle;margin-left:8px}"
      ".badge.good{background:var(--good)}.badge.degraded{background:var(--degraded)}"
      ".badge.bad{background:var(--bad)}"
      ".figure{overflow-x:auto;margin:6px 0}.cs-figure{max-width:100%;height:auto}"
      ".note{color:var(--muted);font-style:italic}"
      "@media print{body{max-width:none;padding:0}section{border:none}}";

void
cs_html_text (FILE *out, const char *text)
{
  g_autofree char *owned = NULL;
  /* inert first: a control character would survive escaping as a reference XML rejects */
  const char *inert = cs_text_inert (text != NULL ? text : "", &owned);
  g_autofree char *escaped = g_markup_escape_text (inert, -1);

  fputs (escaped, out);
}

static void
cs_html_grid (FILE *out, const CsReportGrid *grid, const char *table_class, const char *link_prefix)
{
  fprintf (out, "<table class=\"%s\">", table_class);
  if (g_strcmp0 (table_class, "facts") != 0)
    {
      fputs ("<thead><tr>", out);
      for (guint c = 0; c < grid->columns->len; c++)
        {
          fputs ((grid->numeric >> c) & 1 ? "<th class=\"num\">" : "<th>", out);
          cs_html_text (out, g_ptr_array_index (grid->columns, c));
          fputs ("</th>", out);
        }
      fputs ("</tr></thead>", out);
    }
  fputs ("<tbody>\n", out);
  for (guint r = 0; r < grid->rows->len; r++)
    {
      char **row = g_ptr_array_index (grid->rows, r);
      const char *row_class = g_ptr_array_index (grid->row_classes, r);

      if (row_class != NULL)
        fprintf (out, "<tr class=\"%s\">", row_class);
      else
        fputs ("<tr>", out);
      for (guint c = 0; c < grid->columns->len; c++)
        {
          fputs ((grid->numeric >> c) & 1 ? "<td class=\"num\">" : "<td>", out);
          if (c == 0 && link_prefix != NULL)
            {
              fprintf (out, "<a href=\"#%s", link_prefix);
              cs_html_text (out, row[c]);
              fputs ("\">", out);
              cs_html_text (out, row[c]);
              fputs ("</a>", out);
            }
          else
            cs_html_text (out, row[c]);
          fputs ("</td>", out);
        }
      fputs ("</tr>\n", out);
    }
  fputs ("</tbody></table>\n", out);
}

typedef struct
{
  const CsLadderLayout *layout;
  CsLadderPalette palette;
  guint end_row;
  double width, height;
} CsLadderPaint;

static void
cs_paint_ladder (cairo_t *cr, gpointer user_data)
{
  CsLadderPaint *lp = user_data;

  cairo_set_source_rgb (cr, lp->palette.background.red, lp->palette.background.green,
                        lp->palette.background.blue);
  cairo_paint (cr);
  cs_ladder_paint_header (lp->layout, &lp->palette, cr);
  cairo_translate (cr, 0, CS_LADDER_HEADER_HEIGHT);
  cs_ladder_paint_rows (lp->layout, &lp->palette, cr, 0, lp->end_row, CS_LADDER_TIME_RELATIVE, -1);
}

char *
cs_report_ladder_svg (CsCall *call, GListModel *streams, const char *id_prefix)
{
  g_autoptr (CsLadderLayout) layout = cs_ladder_layout_new (&call, 1, streams);
  CsLadderPaint lp = { layout };
  const CsLadderRow *last;

  if (layout == NULL || layout->rows->len == 0)
    return NULL;
  cs_ladder_palette_init_light (&lp.palette);
  lp.end_row = MIN (layout->rows->len, CS_REPORT_MAX_LADDER_ROWS);
  last = &g_array_index (layout->rows, CsLadderRow, lp.end_row - 1);
  lp.width = layout->width;
  lp.height = CS_LADDER_HEADER_HEIGHT + last->y + last->height + 8;
  return cs_svg_inline_render (lp.width, lp.height, id_prefix, cs_paint_ladder, &lp);
}

typedef struct
{
  CsGraph *graph;
  CsGraphRenderOptions options;
  CsGraphPalette palette;
} CsGraphPaint;

static void
cs_paint_graph (cairo_t *cr, gpointer user_data)
{
  CsGraphPaint *gp = user_data;

  cs_graph_render (cr, gp->graph, &gp->options, &gp->palette);
}

char *
cs_report_graph_svg (GPtrArray *streams, GPtrArray *findings, CsGraphKind kind, double width,
                     double height, const char *id_prefix)
{
  g_autoptr (CsGraph) graph = NULL;
  CsGraphPaint gp;
  gint64 origin = G_MAXINT64;
  gboolean any = FALSE;

  for (guint i = 0; i < streams->len; i++)
    {
      const CsRtpStats *st = cs_stream_get_stats (g_ptr_array_index (streams, i));

      if (st->packets > 0)
        origin = MIN (origin, st->first_ns), any = TRUE;
    }
  if (!any)
    return NULL;
  graph = cs_graph_new (kind, origin);
  for (guint i = 0; i < streams->len; i++)
    cs_graph_add_stream (graph, g_ptr_array_index (streams, i), NULL);
  for (guint i = 0; findings != NULL && i < findings->len; i++)
    {
      CsFinding *f = g_ptr_array_index (findings, i);
      const GArray *frames = cs_finding_get_frames (f);

      if (cs_finding_get_stream_id (f) != 0 && frames->len > 0)
        cs_graph_add_finding_marker (graph, cs_finding_get_stream_id (f),
                                     g_array_index (frames, guint32, 0));
    }
  gp.graph = graph;
  cs_graph_render_options_init (&gp.options, graph, width, height);
  cs_graph_palette_init_light (&gp.palette);
  return cs_svg_inline_render (width, height, id_prefix, cs_paint_graph, &gp);
}

static void
cs_html_figure (FILE *out, char *svg, const char *missing)
{
  if (svg != NULL)
    {
      fputs ("<div class=\"figure\">", out);
      fputs (svg, out);
      fputs ("</div>\n", out);
      g_free (svg);
    }
  else
    {
      fputs ("<p class=\"note\">", out);
      cs_html_text (out, missing);
      fputs ("</p>\n", out);
    }
}

static void
cs_html_call_section (FILE *out, CsAnalysis *analysis, CsCall *call, gboolean figures)
{
  guint number = cs_call_get_number (call);
  g_autoptr (GPtrArray) streams = cs_report_call_streams (analysis, call);
  g_autoptr (GPtrArray) findings = cs_report_call_findings (analysis, call);
  g_autoptr (CsReportGrid) facts = cs_report_grid_call_facts (call);
  g_autoptr (CsReportGrid) messages = cs_report_grid_call_messages (call);
  const char *mos_class = cs_report_mos_class (cs_call_get_mos (call));
  CsCallState state = cs_call_get_state (call);
  const char *state_class = state == CS_CALL_STATE_FAILED || state == CS_CALL_STATE_REJECTED ? "bad"
                            : mos_class != NULL ? mos_class
                                                : "";

  fprintf (out, "<section class=\"call\" id=\"call-%u\"><h2>Call %u: ", number, number);
  cs_html_text (out, cs_call_get_method_name (call));
  fputs (" ", out);
  cs_html_text (out, cs_call_get_from (call));
  fputs (" → ", out);
  cs_html_text (out, cs_call_get_to (call));
  fprintf (out, "<span class=\"badge %s\">", state_class);
  cs_html_text (out, cs_call_state_to_string (state));
  fputs ("</span>", out);
  if (cs_call_get_mos (call) >= 0)
    fprintf (out, "<span class=\"badge %s\">MOS %.2f</span>", mos_class, cs_call_get_mos (call));
  fputs ("</h2>\n", out);
  cs_html_grid (out, facts, "facts", NULL);

  fputs ("<h3>Findings</h3>\n", out);
  if (findings->len > 0)
    {
      g_autoptr (CsReportGrid) grid = cs_report_grid_findings (findings);

      cs_html_grid (out, grid, "findings", NULL);
    }
  else
    fputs ("<p class=\"note\">No findings.</p>\n", out);

  fputs ("<h3>Ladder</h3>\n", out);
  if (figures)
    {
      g_autofree char *prefix = g_strdup_printf ("c%u-ladder-", number);

      cs_html_figure (out, cs_report_ladder_svg (call, cs_analysis_get_streams (analysis), prefix),
                      "No SIP messages to draw.");
      if (cs_call_get_n_messages (call) > CS_REPORT_MAX_LADDER_ROWS)
        fprintf (out,
                 "<p class=\"note\">The ladder shows the first %u rows; every message is "
                 "listed below.</p>\n",
                 CS_REPORT_MAX_LADDER_ROWS);
    }
  else
    fprintf (out,
             "<p class=\"note\">Ladders are drawn for the %u worst calls; the messages "
             "are listed below.</p>\n",
             CS_REPORT_MAX_FIGURES);

  fputs ("<h3>Streams and MOS</h3>\n", out);
  if (streams->len > 0)
    {
      g_autoptr (CsReportGrid) grid = cs_report_grid_streams (streams);

      cs_html_grid (out, grid, "streams", NULL);
      fputs ("<p class=\"note\">MOS: ITU-T G.107 E-model (simplified), loss after a fixed 50 ms "
             "jitter buffer; R = 93.2 − Id − Ie,eff.</p>\n",
             out);
      if (figures)
        {
          g_autofree char *jp = g_strdup_printf ("c%u-jitter-", number);
          g_autofree char *mp = g_strdup_printf ("c%u-mos-", number);

          fputs ("<h3>Jitter</h3>\n", out);
          cs_html_figure (out,
                          cs_report_graph_svg (streams, findings, CS_GRAPH_KIND_JITTER,
                                               CS_HTML_GRAPH_WIDTH, CS_HTML_GRAPH_HEIGHT, jp),
                          "No RTP packets to draw.");
          fputs ("<h3>MOS over time</h3>\n", out);
          cs_html_figure (out,
                          cs_report_graph_svg (streams, findings, CS_GRAPH_KIND_MOS,
                                               CS_HTML_GRAPH_WIDTH, CS_HTML_GRAPH_HEIGHT, mp),
                          "No RTP packets to draw.");
        }
    }
  else
    fputs ("<p class=\"note\">No RTP stream belongs to this call.</p>\n", out);

  fputs ("<h3>SIP messages</h3>\n", out);
  if (messages->rows->len > CS_REPORT_MAX_MESSAGE_ROWS)
    {
      fprintf (out, "<p class=\"note\">The first %u of %u messages.</p>\n",
               CS_REPORT_MAX_MESSAGE_ROWS, messages->rows->len);
      g_ptr_array_set_size (messages->row_classes, CS_REPORT_MAX_MESSAGE_ROWS);
      g_ptr_array_set_size (messages->rows, CS_REPORT_MAX_MESSAGE_ROWS);
    }
  cs_html_grid (out, messages, "messages", NULL);
  fputs ("</section>\n", out);
}

gboolean
cs_report_html_write (CsAnalysis *analysis, const guint *call_numbers, guint n_calls, FILE *out,
                      CsReportProgressFunc progress, gpointer user_data)
{
  g_autoptr (GPtrArray) calls = cs_report_calls_worst_first (analysis, call_numbers, n_calls);
  g_autoptr (CsReportGrid) capture = cs_report_grid_capture (analysis);
  g_autoptr (CsReportGrid) overview = cs_report_grid_calls (calls);
  g_autofree char *title = cs_analysis_dup_title (analysis);
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *generated = g_date_time_format_iso8601 (now);
  guint sections = MIN (calls->len, CS_REPORT_MAX_SECTIONS);
  guint severity_counts[3] = { 0 };
  GListModel *findings = cs_analysis_get_findings (analysis);

  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr (CsFinding) f = g_list_model_get_item (findings, i);

      severity_counts[cs_finding_get_severity (f)]++;
    }

  fputs ("<!DOCTYPE html>\n<html lang=\"en\" xmlns=\"http://www.w3.org/1999/xhtml\"><head>"
         "<meta charset=\"utf-8\"/>"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>",
         out);
  fprintf (out, "<meta name=\"generator\" content=\"callscope %s\"/><title>Call report: ",
           PACKAGE_VERSION);
  cs_html_text (out, title);
  fprintf (out,
           "</title><style>%s</style></head>\n<body>\n<header><h1>Call report: ", cs_report_css);
  cs_html_text (out, title);
  fprintf (out,
           "</h1><p class=\"meta\">%u of %u calls, worst first · generated %s by "
           "callscope %s</p></header>\n",
           calls->len, g_list_model_get_n_items (cs_analysis_get_calls (analysis)), generated,
           PACKAGE_VERSION);

  fputs ("<section id=\"summary\"><h2>Summary</h2>\n", out);
  cs_html_grid (out, capture, "facts", NULL);
  fprintf (out,
           "<p>Findings: <span class=\"badge bad\">%u errors</span><span class=\"badge "
           "degraded\">%u warnings</span><span class=\"badge\">%u notes</span></p>\n",
           severity_counts[CS_SEVERITY_ERROR], severity_counts[CS_SEVERITY_WARNING],
           severity_counts[CS_SEVERITY_INFO]);
  fputs ("<h3>Calls, worst first</h3>\n", out);
  if (calls->len > 0)
    cs_html_grid (out, overview, "calls", "call-");
  else
    fputs ("<p class=\"note\">No calls were found in this capture.</p>\n", out);
  if (calls->len > sections)
    fprintf (out,
             "<p class=\"note\">Sections follow for the %u worst calls; export fewer calls "
             "for the others.</p>\n",
             sections);
  fputs ("</section>\n", out);

  for (guint i = 0; i < sections; i++)
    {
      cs_html_call_section (out, analysis, g_ptr_array_index (calls, i), i < CS_REPORT_MAX_FIGURES);
      if (progress != NULL)
        progress (i + 1, sections, user_data);
    }
  fputs ("<footer><p class=\"meta\">Frame numbers are those of the capture file, as Wireshark "
         "numbers them.</p></footer>\n</body></html>\n",
         out);
  return fflush (out) == 0 && !ferror (out);
}
