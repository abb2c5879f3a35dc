/* cs-export-pcapng.h — a trimmed capture: selected calls with their SIP, RTP and RTCP
 * frames, each finding written as a packet comment on its frames, optionally redacted */
#pragma once

#include <gio/gio.h>

#include "loader/cs-analysis.h"
#include "cs-pcapng-writer.h"

G_BEGIN_DECLS

typedef enum
{
  /* addresses, host names, numbers, user and display names, tags, Call-ID hosts, digest
   * parameters, keys, HEP credentials (cs-redact.h); the file's own comments are dropped and
   * the findings' comments come from the redacted capture analysed again */
  CS_EXPORT_REDACT = 1 << 0,
  /* RTP voice payloads (voice is personal data): by default silenced when redacting and kept
   * otherwise; these choose explicitly */
  CS_EXPORT_KEEP_VOICE = 1 << 1,
  CS_EXPORT_SILENCE_VOICE = 1 << 2,
  CS_EXPORT_DROP_VOICE = 1 << 3,
} CsExportFlags;

/* Called every few hundred frames with frames done / total (both passes counted). */
typedef void (*CsExportProgressFunc) (guint64 done, guint64 total, gpointer user_data);

/* The frames (guint32, ascending, no repeats) a call is made of: its SIP messages
 * (every segment/fragment of reassembled ones), the packets of its streams and the
 * RTCP on those flows (same port pair or the next one up). */
GArray *cs_export_collect_frames (CsAnalysis *analysis, const guint *call_numbers, guint n_calls);

/* The comment written on a frame: one line per finding naming it ("callscope:
 * warning loss-burst (call 2, stream 3): …"); NULL when no finding does. Keys are
 * frame numbers (GUINT_TO_POINTER); free with g_hash_table_unref. */
GHashTable *cs_export_finding_comments (CsAnalysis *analysis, const guint *call_numbers,
                                        guint n_calls);

/* Writes the calls' frames to `writer` (pcapng for comments; one interface per link
 * type). n_calls == 0 exports every call. Returns FALSE on a write error or when
 * cancelled (G_IO_ERROR_CANCELLED). *n_written (may be NULL) gets the packet count. */
gboolean cs_export_pcapng_write (CsAnalysis *analysis, const guint *call_numbers, guint n_calls,
                                 CsExportFlags flags, CsPcapngWriter *writer,
                                 GCancellable *cancellable, CsExportProgressFunc progress,
                                 gpointer user_data, guint64 *n_written, GError **error);

/* The same into a new pcapng file at path. */
gboolean cs_export_pcapng_to_file (CsAnalysis *analysis, const guint *call_numbers, guint n_calls,
                                   CsExportFlags flags, const char *path, GCancellable *cancellable,
                                   CsExportProgressFunc progress, gpointer user_data,
                                   GError **error);

/* The calls' frames written redacted into a temporary file, analysed again: what reports of
 * a redacted export are made from. Its capture is called "redacted.pcapng" (the temporary
 * file is gone already). Errors: cs_redactor_seal's, write errors, G_IO_ERROR_CANCELLED. */
CsAnalysis *cs_export_redacted_analysis (CsAnalysis *analysis, const guint *call_numbers,
                                         guint n_calls, CsExportFlags flags,
                                         GCancellable *cancellable, CsExportProgressFunc progress,
                                         gpointer user_data, GError **error);

/* A CALL argument: a call's number ("3") or its Call-ID. 0 when none matches. */
guint cs_export_find_call (CsAnalysis *analysis, const char *call);

G_END_DECLS
