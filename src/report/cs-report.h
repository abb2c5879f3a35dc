/* cs-report.h — analysis results as JSON, text, CSV, HTML and PDF (the CLI contract) */
#pragma once

#include <stdio.h>

#include "callscope-engine.h"
#include "cs-report-table.h"

G_BEGIN_DECLS

typedef enum
{
  CS_REPORT_FORMAT_TEXT,
  CS_REPORT_FORMAT_CSV,
  CS_REPORT_FORMAT_JSON,
  CS_REPORT_FORMAT_HTML, /* one self-contained file: summary, then a section per call */
  CS_REPORT_FORMAT_PDF,  /* the same content, paginated (A4) */
} CsReportFormat;

/* Called after each call section of an HTML/PDF report: sections done / total. */
typedef void (*CsReportProgressFunc) (guint done, guint total, gpointer user_data);

gboolean cs_report_format_parse (const char *name, CsReportFormat *out);

/* The full report: capture totals, calls, streams, findings. CSV gives the calls table. */
gboolean cs_report_write (CsAnalysis *analysis, CsReportFormat format, FILE *out);
/* One table: calls, streams or findings. */
gboolean cs_report_write_table (CsAnalysis *analysis, CsTableKind kind, CsReportFormat format,
                                FILE *out);

/* HTML or PDF (or any other format, where the selection is ignored) for the calls given
 * by number; n_calls == 0 means every call. */
gboolean cs_report_write_calls (CsAnalysis *analysis, CsReportFormat format,
                                const guint *call_numbers, guint n_calls, FILE *out);
/* The same; the JSON report writes its lists on up to `threads` threads (0: one per
 * processor). The text is the same for any number. */
gboolean cs_report_write_calls_threads (CsAnalysis *analysis, CsReportFormat format,
                                        const guint *call_numbers, guint n_calls, guint threads,
                                        FILE *out);

/* The calls to report, worst first: worst finding severity, then lowest MOS, then most
 * findings, then call number. n_calls == 0: every call. CsCall* (refs). */
GPtrArray *cs_report_calls_worst_first (CsAnalysis *analysis, const guint *call_numbers,
                                        guint n_calls);
/* Findings about a call: its own and those of its streams. CsFinding* (refs). */
GPtrArray *cs_report_call_findings (CsAnalysis *analysis, CsCall *call);
/* The call's streams, by id order. CsStream* (refs). */
GPtrArray *cs_report_call_streams (CsAnalysis *analysis, CsCall *call);

/* A table of strings shared by the HTML and PDF reports. */
typedef struct
{
  GPtrArray *columns;     /* char* headings */
  guint64 numeric;        /* bit c set: column c is a number (right-aligned) */
  GPtrArray *rows;        /* char** with columns->len strings each */
  GPtrArray *row_classes; /* char* per row: "good", "degraded", "bad", "info", or NULL */
} CsReportGrid;

void cs_report_grid_free (CsReportGrid *grid);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsReportGrid, cs_report_grid_free)

/* Two columns, name and value: files, packets, times, SIP methods and statuses, totals. */
CsReportGrid *cs_report_grid_capture (CsAnalysis *analysis);
/* One row per call (as ordered in `calls`): number, from, to, state, final, MOS, findings. */
CsReportGrid *cs_report_grid_calls (GPtrArray *calls);
/* Two columns: Call-ID, parties, user agent, state, times, counts, frames. */
CsReportGrid *cs_report_grid_call_facts (CsCall *call);
/* Every SIP message of the call: frame, time since the first, source → destination, label. */
CsReportGrid *cs_report_grid_call_messages (CsCall *call);
/* The MOS table: per stream packets, loss, jitter, Ppl, Id, Ie_eff, R, MOS. */
CsReportGrid *cs_report_grid_streams (GPtrArray *streams);
/* Severity, kind, stream, frames, text. */
CsReportGrid *cs_report_grid_findings (GPtrArray *findings);
/* "good" (MOS ≥ 4.0), "degraded" (≥ 3.6), "bad", or NULL when unknown (< 0). */
const char *cs_report_mos_class (double mos);

G_END_DECLS
