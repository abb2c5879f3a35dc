/* cs-load-html.h — the load report as one self-contained HTML file: headline, breaking
 * point and capacity, the four charts as inline SVG (a second run on the same axes),
 * response times per leg, failures by reason, the intervals table */
#pragma once

#include <stdio.h>

#include "callscope-engine.h"

G_BEGIN_DECLS

#define CS_LOAD_HTML_WIDTH 1000.0
#define CS_LOAD_HTML_HEIGHT 820.0

/* other (and other_name) may be NULL. FALSE when writing failed. */
gboolean cs_load_html_write (const CsLoadReport *report, const char *name,
                             const CsLoadReport *other, const char *other_name, FILE *out);

G_END_DECLS
