/* cs-export-name.h — default export file names, made safe from what a capture holds */
#pragma once

#include <glib.h>

#include "loader/cs-analysis.h"

G_BEGIN_DECLS

#define CS_EXPORT_NAME_MAX 96 /* bytes of a made-safe part */

/* text (a Call-ID, a number, a capture's file name) as part of a file name: ASCII letters,
 * digits and "._-+@=" kept, anything else (path separators, control, bidi and other
 * non-ASCII characters) becomes '_', runs of '_' collapse, no leading dot, dash or
 * underscore, at most max_bytes; "capture" when nothing is left. */
char *cs_export_safe_file_name (const char *text, gsize max_bytes);

/* What an export of the calls suggests as its file name: "call-3-CALLID.EXT" for one call
 * (its Call-ID made safe), "STEM.EXT" for several or all; with redact the Call-ID is never
 * used ("call-3-redacted.EXT", "STEM-redacted.EXT"). extension without its dot. */
char *cs_export_suggest_file_name (CsAnalysis *analysis, const guint *call_numbers, guint n_calls,
                                   gboolean redact, const char *stem, const char *extension);

G_END_DECLS
