/* cs-export-private.h — what the plain and the redacted export share (export/ only) */
#pragma once

#include "cs-export-pcapng.h"
#include "cs-export-rtp.h"
#include "cs-redact.h"

G_BEGIN_DECLS

#define CS_EXPORT_PROGRESS_EVERY 512

/* One pass writing frames of an analysis's capture into a pcapng writer. */
typedef struct
{
  CsAnalysis *analysis;
  const GArray *frames;    /* guint32, ascending */
  GHashTable *comments;    /* frame → char*, or NULL */
  GHashTable *rtp_streams; /* frame → CsStream* of the RTP packets, or NULL */
  CsExportVoice voice;
  CsRedactor *redactor; /* NULL: the frames as they are */
  gboolean keep_own_comments;
  guint64 done, total; /* progress over every pass of the export */
  GCancellable *cancellable;
  CsExportProgressFunc progress;
  gpointer user_data;
} CsExportRun;

gboolean cs_export_run_write (CsExportRun *run, CsPcapngWriter *writer, GError **error);
/* One unit of progress; FALSE (G_IO_ERROR_CANCELLED) when cancelled. */
gboolean cs_export_run_tick (CsExportRun *run, GError **error);

/* cs_export_collect_frames, also filling rtp_streams (frame → a CsStream reference). */
GArray *cs_export_collect (CsAnalysis *analysis, const guint *call_numbers, guint n_calls,
                           GHashTable *rtp_streams);
/* cs_export_finding_comments naming, for frame k, original_frames[k - 1]. */
GHashTable *cs_export_comments (CsAnalysis *analysis, const guint *call_numbers, guint n_calls,
                                const GArray *original_frames);
CsExportVoice cs_export_voice (CsExportFlags flags);

/* cs-export-redacted.c: the redacted export into writer. */
gboolean cs_export_redacted_write (CsAnalysis *analysis, const guint *call_numbers, guint n_calls,
                                   CsExportFlags flags, CsPcapngWriter *writer,
                                   GCancellable *cancellable, CsExportProgressFunc progress,
                                   gpointer user_data, GError **error);

G_END_DECLS
