/* cs-ladder-text.h — a ladder diagram as plain text, for terminals, tickets and diffs */
#pragma once

#include "cs-ladder-layout.h"

G_BEGIN_DECLS

/* One line per message ("0.080000  |<--180 Ringing--|"), a line under it for SDP or
 * stream figures, endpoint names on top. Columns are as wide as their labels need. */
char *cs_ladder_text_render (const CsLadderLayout *layout, CsLadderTimeMode mode);

G_END_DECLS
