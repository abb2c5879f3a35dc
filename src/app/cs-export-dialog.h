/* cs-export-dialog.h — File → Export: a report (HTML, PDF), data (CSV, JSON) or a trimmed
 * capture (pcapng), optionally redacted, written in the background with progress */
#pragma once

#include <gtk/gtk.h>

#include "callscope-engine.h"

G_BEGIN_DECLS

typedef enum
{
  CS_EXPORT_KIND_HTML,
  CS_EXPORT_KIND_PDF,
  CS_EXPORT_KIND_PCAPNG,
  CS_EXPORT_KIND_CALLS_CSV,
  CS_EXPORT_KIND_STREAMS_CSV,
  CS_EXPORT_KIND_FINDINGS_CSV,
  CS_EXPORT_KIND_JSON,
  CS_EXPORT_N_KINDS,
} CsExportKind;

#define CS_TYPE_EXPORT_DIALOG (cs_export_dialog_get_type ())
G_DECLARE_FINAL_TYPE (CsExportDialog, cs_export_dialog, CS, EXPORT_DIALOG, GtkWindow)

/* selected_calls: CsCall* the user selected (may be NULL or empty: every call). */
CsExportDialog *cs_export_dialog_new (GtkWindow *parent, CsAnalysis *analysis,
                                      GPtrArray *selected_calls);
void cs_export_dialog_set_kind (CsExportDialog *self, CsExportKind kind);
CsExportKind cs_export_dialog_get_kind (CsExportDialog *self);
/* Writes to path in a thread, as the Export button does after the file chooser; the dialog
 * closes when done, or shows the error. For tests and scripts. */
void cs_export_dialog_start (CsExportDialog *self, const char *path);
/* "callscope-report.html", "call-3-CALLID.pcapng" (one selected call, its Call-ID made safe),
 * "…-redacted…" when redacting, for the current kind; valid until the next call. */
const char *cs_export_dialog_suggested_name (CsExportDialog *self);
/* Redaction for every format: a report of redacted calls is made from them analysed again. */
void cs_export_dialog_set_redact (CsExportDialog *self, gboolean redact);
/* What the Privacy choices ask for (CS_EXPORT_REDACT and the voice in RTP, silence by default). */
CsExportFlags cs_export_dialog_get_flags (CsExportDialog *self);

G_END_DECLS
