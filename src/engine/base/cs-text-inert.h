/* cs-text-inert.h — text from a capture made inert for display: what a terminal, a browser
 * or a PDF viewer would act on (control characters, escape sequences, bidi overrides,
 * invisible separators, broken UTF-8) is shown as visible escapes instead */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* text itself when nothing in it needs escaping (no allocation); else a new string, also
 * stored in *owned for the caller to free: C0 controls (tab and line breaks included),
 * DEL and C1 controls become "\xHH", bidi and other invisible format characters (U+061C,
 * U+200B..U+200F, U+2028..U+202E, U+2060..U+2069, U+FEFF) "\u{XXXX}", invalid UTF-8
 * U+FFFD. NULL stays NULL. */
const char *cs_text_inert (const char *text, char **owned);
/* The same, always a new string. */
char *cs_text_inert_dup (const char *text);

G_END_DECLS
