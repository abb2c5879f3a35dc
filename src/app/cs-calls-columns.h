/* cs-calls-columns.h — the calls list's columns: titles, widths, cell texts, status colours and
 * sort orders */
#pragma once

#include <gtk/gtk.h>

#include "callscope-engine.h"
#include "cs-calls-filter.h"

G_BEGIN_DECLS

/* What cells need beyond the call itself; owned by the calls view, read when a cell binds. */
typedef struct
{
  GListModel *calls;   /* every call, in order of the first message: the first starts the clock */
  CsCallsIndex *index; /* codecs and finding kinds per call; NULL until the media is known */
  GListModel *streams, *findings; /* what the index is built from (owned; NULL: no index) */
  gboolean index_stale;           /* they changed since: rebuilt on the next use */
} CsCallsColumnContext;

/* The index, rebuilt first when stale: streams and findings arrive one after the other at the
 * end of a load, and one rebuild does for both. */
CsCallsIndex *cs_calls_column_context_get_index (const CsCallsColumnContext *context);

/* Column view columns for the calls list, in their default order. Each carries its id
 * (cs_column_chooser_get_column_id; NULL for "#", always shown), sorter, width and cells. */
GPtrArray *cs_calls_columns_new_view_columns (const CsCallsColumnContext *context);

/* Translated name of a call state: "In call", "Rejected"… */
const char *cs_calls_columns_state_label (CsCallState state);
/* CSS class that colours a state: state-good, state-degraded, state-bad, state-unknown. */
const char *cs_calls_columns_state_css_class (CsCallState state);

G_END_DECLS
