/* cs-report-json.h — the JSON report of DESIGN.md's CLI contract */
#pragma once

#include "cs-json-writer.h"
#include "callscope-engine.h"

G_BEGIN_DECLS

void cs_report_json_capture (CsJsonWriter *w, CsAnalysis *analysis);
void cs_report_json_calls (CsJsonWriter *w, CsAnalysis *analysis);
void cs_report_json_streams (CsJsonWriter *w, CsAnalysis *analysis);
void cs_report_json_findings (CsJsonWriter *w, CsAnalysis *analysis);
/* "legs": the links between calls and their evidence (cs_call_links_find), written only
 * when there is at least one, so a capture without legs keeps its report. */
void cs_report_json_legs (CsJsonWriter *w, const GPtrArray *links);

G_END_DECLS
