/* cs-calls-filter.h — the calls list's filter language: "state:rejected mos<3.5 pdd>3s" */
#pragma once

#include <gio/gio.h>

#include "callscope-engine.h"

G_BEGIN_DECLS

#define CS_CALLS_FILTER_ERROR (cs_calls_filter_error_quark ())
GQuark cs_calls_filter_error_quark (void);

typedef enum
{
  CS_CALLS_FILTER_ERROR_SYNTAX, /* message says what is wrong, and where */
} CsCallsFilterError;

/* What the calls alone do not say: the codecs of their streams and the kinds of their
 * findings, indexed once per analysis. GLib only, no GTK. */
typedef struct _CsCallsIndex CsCallsIndex;

/* streams: GListModel of CsStream, findings: of CsFinding (either may be NULL). */
CsCallsIndex *cs_calls_index_new (GListModel *streams, GListModel *findings);
void cs_calls_index_free (CsCallsIndex *index);
/* "g711U", "g711U, g729" — distinct codecs of the call's streams; "" without streams. */
const char *cs_calls_index_get_codecs (CsCallsIndex *index, CsCall *call);
/* Bit (1 << CsFindingKind) for every kind of finding on the call. */
guint64 cs_calls_index_get_finding_kinds (CsCallsIndex *index, CsCall *call);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsCallsIndex, cs_calls_index_free)

/* A parsed expression. Terms separated by spaces must all match; "or" (or "|") between
 * groups matches either; "!" or "-" before a term negates it.
 *   word               From, To, Call-ID or User-Agent contains it (any case)
 *   from:X to:X callid:X ua:X method:X   that field contains X
 *   state:S            setup, ringing, in-call, completed, cancelled, rejected, failed
 *   code:486 code:4xx  final response
 *   codec:X            a stream's codec contains X
 *   has:K              a finding whose kind starts with K (one-way, loss, slow-pdd …),
 *                      or has:media / has:retransmissions
 *   FIELD OP NUMBER    OP is < <= > >= = != ; FIELD is mos, pdd, setup, ring, duration
 *                      (seconds, or with a unit: 3s, 500ms, 2m), messages, streams,
 *                      findings, retransmissions, code, number
 * A call without the value (no PDD, no MOS) never matches a comparison. */
typedef struct _CsCallsFilter CsCallsFilter;

/* NULL with CS_CALLS_FILTER_ERROR_SYNTAX on a mistake; *error_start / *error_end (may be
 * NULL) get the character range of the bad term. Empty text matches every call. */
CsCallsFilter *cs_calls_filter_new (const char *text, guint *error_start, guint *error_end,
                                    GError **error);
void cs_calls_filter_free (CsCallsFilter *filter);
gboolean cs_calls_filter_is_empty (CsCallsFilter *filter);
/* index may be NULL: then codec: and has: (other than has:media) never match. */
gboolean cs_calls_filter_match (CsCallsFilter *filter, CsCall *call, CsCallsIndex *index);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsCallsFilter, cs_calls_filter_free)

G_END_DECLS
