/* cs-cli-loadtest.h — loadtest's JSON output (cs-cli-loadtest-json.c) */
#pragma once

#include <stdio.h>

#include "callscope-engine.h"

G_BEGIN_DECLS

gboolean cs_cli_load_write_json (const CsLoadReport *report, FILE *out);

G_END_DECLS
