/* cs-report-points.h — the report's "points" section: capture points, their clock offsets
 * and the hops seen at two points (only when the files were read as points) */
#pragma once

#include <stdio.h>

#include "cs-json-writer.h"
#include "callscope-engine.h"

G_BEGIN_DECLS

void cs_report_json_points (CsJsonWriter *w, CsAnalysis *analysis);
void cs_report_text_points (CsAnalysis *analysis, FILE *out);

G_END_DECLS
