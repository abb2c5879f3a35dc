/* cs-report-html.h — the call report as one self-contained HTML file: summary first, then a
 * section per call, worst first, with inline SVG ladders and graphs, MOS tables, findings */
#pragma once

#include <gio/gio.h>
#include <stdio.h>

#include "callscope-engine.h"
#include "cs-graph-series.h"
#include "cs-report.h"

G_BEGIN_DECLS

/* The reports' shared style sheet, and text escaped for HTML (controls made inert). */
extern const char cs_report_css[];
void cs_html_text (FILE *out, const char *text);

/* Sections after this many calls are left out (the summary table still lists every call). */
#define CS_REPORT_MAX_SECTIONS 500
/* Calls (worst first) that get a ladder and graphs; the rest get tables only. */
#define CS_REPORT_MAX_FIGURES 50
/* Rows of a ladder drawn in a report; a note says how many more there are. */
#define CS_REPORT_MAX_LADDER_ROWS 300
/* Rows of a call's message table. */
#define CS_REPORT_MAX_MESSAGE_ROWS 1000

/* Writes the report (UTF-8, well-formed XML too, so XML tools can read it). n_calls == 0:
 * every call. progress (may be NULL) runs after each call section. FALSE when writing failed. */
gboolean cs_report_html_write (CsAnalysis *analysis, const guint *call_numbers, guint n_calls,
                               FILE *out, CsReportProgressFunc progress, gpointer user_data);

/* The ladder of one call as an inline <svg> (at most CS_REPORT_MAX_LADDER_ROWS rows);
 * NULL when the call has no messages. */
char *cs_report_ladder_svg (CsCall *call, GListModel *streams, const char *id_prefix);
/* A graph (jitter, MOS, …) of the given streams with finding markers, as inline <svg>;
 * NULL when no stream has packets. */
char *cs_report_graph_svg (GPtrArray *streams, GPtrArray *findings, CsGraphKind kind, double width,
                           double height, const char *id_prefix);

G_END_DECLS
