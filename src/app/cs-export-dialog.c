/* cs-export-dialog.c — the export dialog: format, which calls, redaction; a worker thread
 * writes the file and reports progress through one pending idle */
#include "cs-export-dialog.h"

#include <glib/gi18n.h>
#include <errno.h>
#include <stdio.h>

#include "callscope-engine.h"
#include "cs-report-html.h"
#include "cs-report-pdf.h"
#include "cs-report.h"

struct _CsExportDialog
{
  GtkWindow parent_instance;

  CsAnalysis *analysis;
  GArray *selected; /* guint call numbers */
  GtkDropDown *format;
  GtkLabel *description;
  GtkCheckButton *selected_only;
  GtkCheckButton *all_calls;
  GtkCheckButton *redact;
  GtkWidget *voice_box;
  GtkDropDown *voice; /* the CsExportDialogVoice order of the template's list */
  char *suggested;    /* the last suggested file name */
  GtkProgressBar *progress;
  GtkLabel *status;
  GtkButton *export_button;
  GCancellable *cancellable; /* non-NULL while writing */
  gint progress_pending;     /* atomic: one idle at a time */
  double fraction;           /* written by the worker, read in the idle */
};

G_DEFINE_FINAL_TYPE (CsExportDialog, cs_export_dialog, GTK_TYPE_WINDOW)

typedef struct
{
  const char *label;
  const char *description;
  const char *stem, *extension; /* of the suggested file name */
  gboolean per_call;            /* honours the call selection */
} CsExportFormat;

static const CsExportFormat cs_export_formats[CS_EXPORT_N_KINDS] = {
  { N_ ("Report (HTML)"),
    N_ ("One file that opens in any browser: summary, then each call worst first with its ladder, "
        "graphs, MOS table and findings."),
    "callscope-report", "html", TRUE },
  { N_ ("Report (PDF)"), N_ ("The same report, paginated for printing and mail."),
    "callscope-report", "pdf", TRUE },
  { N_ ("Trimmed capture (pcapng)"),
    N_ ("The calls' SIP, RTP and RTCP packets only, each finding written as a packet comment that "
        "Wireshark shows."),
    "callscope-calls", "pcapng", TRUE },
  { N_ ("Calls (CSV)"), N_ ("Every call, one row each, for a spreadsheet."), "calls", "csv",
    FALSE },
  { N_ ("Streams (CSV)"), N_ ("Every RTP stream with loss, jitter and MOS."), "streams", "csv",
    FALSE },
  { N_ ("Findings (CSV)"), N_ ("Every finding with its frame numbers."), "findings", "csv", FALSE },
  { N_ ("Calls, streams and findings (JSON)"),
    N_ ("The full report with the field names of callscope-cli."), "callscope-report", "json",
    FALSE },
};

typedef struct
{
  CsAnalysis *analysis;
  CsExportKind kind;
  GArray *numbers;
  CsExportFlags flags; /* CS_EXPORT_REDACT and the voice choice */
  char *path;
  GWeakRef dialog;
} CsExportJob;

static void
cs_export_job_free (CsExportJob *job)
{
  g_object_unref (job->analysis);
  g_array_unref (job->numbers);
  g_free (job->path);
  g_weak_ref_clear (&job->dialog);
  g_free (job);
}

static gboolean
cs_export_dialog_show_progress (gpointer user_data)
{
  CsExportDialog *self = user_data;

  g_atomic_int_set (&self->progress_pending, 0);
  gtk_progress_bar_set_fraction (self->progress, self->fraction);
  return G_SOURCE_REMOVE;
}

static void
cs_export_job_progress (CsExportJob *job, double fraction)
{
  CsExportDialog *self = g_weak_ref_get (&job->dialog);

  if (self == NULL)
    return;
  self->fraction = fraction;
  if (g_atomic_int_compare_and_exchange (&self->progress_pending, 0, 1))
    g_idle_add_full (G_PRIORITY_LOW, cs_export_dialog_show_progress, g_object_ref (self),
                     g_object_unref);
  g_object_unref (self);
}

static void
cs_on_report_progress (guint done, guint total, gpointer user_data)
{
  cs_export_job_progress (user_data, total > 0 ? (double) done / total : 1.0);
}

static void
cs_on_pcapng_progress (guint64 done, guint64 total, gpointer user_data)
{
  cs_export_job_progress (user_data, total > 0 ? (double) done / total : 1.0);
}

static void
cs_export_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  CsExportJob *job = task_data;
  const guint *numbers = (const guint *) job->numbers->data;
  guint n_numbers = job->numbers->len;
  g_autoptr (CsAnalysis) redacted = NULL;
  CsAnalysis *analysis = job->analysis;
  GError *error = NULL;
  gboolean ok;
  FILE *out;

  if (job->kind == CS_EXPORT_KIND_PCAPNG)
    {
      ok = cs_export_pcapng_to_file (job->analysis, numbers, n_numbers, job->flags, job->path,
                                     cancellable, cs_on_pcapng_progress, job, &error);
      if (ok)
        g_task_return_boolean (task, TRUE);
      else
        g_task_return_error (task, error);
      return;
    }
  if (job->flags & CS_EXPORT_REDACT)
    {
      /* a report of the redacted calls: made from them analysed again, so it names only what
       * the redacted capture holds */
      redacted = cs_export_redacted_analysis (job->analysis, numbers, n_numbers, job->flags,
                                              cancellable, cs_on_pcapng_progress, job, &error);
      if (redacted == NULL)
        {
          g_task_return_error (task, error);
          return;
        }
      analysis = redacted;
      n_numbers = 0; /* the redacted analysis holds those calls only */
    }
  out = fopen (job->path, "wb");
  if (out == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (errno), "%s: %s", job->path,
                               g_strerror (errno));
      return;
    }
  switch (job->kind)
    {
    case CS_EXPORT_KIND_HTML:
      ok = cs_report_html_write (analysis, numbers, n_numbers, out, cs_on_report_progress, job);
      break;
    case CS_EXPORT_KIND_PDF:
      ok = cs_report_pdf_write (analysis, numbers, n_numbers, out, NULL, cs_on_report_progress, job,
                                NULL);
      break;
    case CS_EXPORT_KIND_CALLS_CSV:
      ok = cs_report_write_table (analysis, CS_TABLE_CALLS, CS_REPORT_FORMAT_CSV, out);
      break;
    case CS_EXPORT_KIND_STREAMS_CSV:
      ok = cs_report_write_table (analysis, CS_TABLE_STREAMS, CS_REPORT_FORMAT_CSV, out);
      break;
    case CS_EXPORT_KIND_FINDINGS_CSV:
      ok = cs_report_write_table (analysis, CS_TABLE_FINDINGS, CS_REPORT_FORMAT_CSV, out);
      break;
    case CS_EXPORT_KIND_JSON:
    default:
      ok = cs_report_write (analysis, CS_REPORT_FORMAT_JSON, out);
      break;
    }
  if (fclose (out) != 0)
    ok = FALSE;
  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, _ ("Could not write %s"),
                             job->path);
}

static void
cs_export_dialog_set_busy (CsExportDialog *self, gboolean busy)
{
  gtk_widget_set_visible (GTK_WIDGET (self->progress), busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->export_button), !busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->format), !busy);
}

static void
cs_export_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  CsExportDialog *self = CS_EXPORT_DIALOG (source);
  g_autoptr (GError) error = NULL;

  g_clear_object (&self->cancellable);
  cs_export_dialog_set_busy (self, FALSE);
  if (g_task_propagate_boolean (G_TASK (result), &error))
    {
      gtk_window_destroy (GTK_WINDOW (self));
      return;
    }
  gtk_label_set_text (self->status, g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
                                        ? _ ("Export cancelled.")
                                        : error->message);
  gtk_widget_add_css_class (GTK_WIDGET (self->status), "error");
}

void
cs_export_dialog_start (CsExportDialog *self, const char *path)
{
  CsExportJob *job = g_new0 (CsExportJob, 1);
  g_autoptr (GTask) task = NULL;
  CsExportKind kind = cs_export_dialog_get_kind (self);
  gboolean selection = cs_export_formats[kind].per_call && self->selected->len > 0
                       && gtk_check_button_get_active (self->selected_only);

  g_return_if_fail (self->cancellable == NULL);
  job->analysis = g_object_ref (self->analysis);
  job->kind = kind;
  job->numbers = g_array_new (FALSE, FALSE, sizeof (guint));
  if (selection)
    g_array_append_vals (job->numbers, self->selected->data, self->selected->len);
  job->flags = cs_export_dialog_get_flags (self);
  job->path = g_strdup (path);
  g_weak_ref_init (&job->dialog, self);
  self->cancellable = g_cancellable_new ();
  gtk_progress_bar_set_fraction (self->progress, 0);
  gtk_label_set_text (self->status, _ ("Writing…"));
  gtk_widget_remove_css_class (GTK_WIDGET (self->status), "error");
  cs_export_dialog_set_busy (self, TRUE);
  task = g_task_new (self, self->cancellable, cs_export_done, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) cs_export_job_free);
  g_task_run_in_thread (task, cs_export_thread);
}

static void
on_chooser_response (GtkNativeDialog *chooser, int response, gpointer user_data)
{
  CsExportDialog *self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

      if (path != NULL)
        cs_export_dialog_start (self, path);
    }
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
  g_object_unref (self);
}

static void
on_export_clicked (CsExportDialog *self)
{
  GtkFileChooserNative *chooser = gtk_file_chooser_native_new (
      _ ("Export"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE, _ ("_Export"), _ ("_Cancel"));

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser),
                                     cs_export_dialog_suggested_name (self));
  g_signal_connect (chooser, "response", G_CALLBACK (on_chooser_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
on_cancel_clicked (CsExportDialog *self)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  else
    gtk_window_destroy (GTK_WINDOW (self));
}

static void
cs_export_dialog_update (CsExportDialog *self)
{
  CsExportKind kind = cs_export_dialog_get_kind (self);
  gboolean per_call = cs_export_formats[kind].per_call;

  gtk_label_set_text (self->description, _ (cs_export_formats[kind].description));
  gtk_widget_set_sensitive (GTK_WIDGET (self->selected_only), per_call && self->selected->len > 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self->all_calls), per_call);
  gtk_widget_set_visible (self->voice_box, kind == CS_EXPORT_KIND_PCAPNG
                                               && gtk_check_button_get_active (self->redact));
}

static void
on_redact_toggled (CsExportDialog *self)
{
  cs_export_dialog_update (self);
}

static void
on_format_changed (CsExportDialog *self)
{
  cs_export_dialog_update (self);
}

static void
cs_export_dialog_dispose (GObject *object)
{
  CsExportDialog *self = CS_EXPORT_DIALOG (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->analysis);
  g_clear_pointer (&self->selected, g_array_unref);
  g_clear_pointer (&self->suggested, g_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), CS_TYPE_EXPORT_DIALOG);
  G_OBJECT_CLASS (cs_export_dialog_parent_class)->dispose (object);
}

static void
cs_export_dialog_class_init (CsExportDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = cs_export_dialog_dispose;
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/callscope/Callscope/ui/cs-export-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, CsExportDialog, format);
  gtk_widget_class_bind_template_child (widget_class, CsExportDialog, description);
  gtk_widget_class_bind_template_child (widget_class, CsExportDialog, selected_only);
  gtk_widget_class_bind_template_child (widget_class, CsExportDialog, all_calls);
  gtk_widget_class_bind_template_child (widget_class, CsExportDialog, redact);
  gtk_widget_class_bind_template_child (widget_class, CsExportDialog, voice_box);
  gtk_widget_class_bind_template_child (widget_class, CsExportDialog, voice);
  gtk_widget_class_bind_template_child (widget_class, CsExportDialog, progress);
  gtk_widget_class_bind_template_child (widget_class, CsExportDialog, status);
  gtk_widget_class_bind_template_child (widget_class, CsExportDialog, export_button);
  gtk_widget_class_bind_template_callback (widget_class, on_format_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_redact_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_export_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_cancel_clicked);
}

static void
cs_export_dialog_init (CsExportDialog *self)
{
  g_autoptr (GtkStringList) names = gtk_string_list_new (NULL);

  self->selected = g_array_new (FALSE, FALSE, sizeof (guint));
  gtk_widget_init_template (GTK_WIDGET (self));
  /* The formats' names come from the table that describes them. */
  for (guint i = 0; i < CS_EXPORT_N_KINDS; i++)
    gtk_string_list_append (names, _ (cs_export_formats[i].label));
  gtk_drop_down_set_model (self->format, G_LIST_MODEL (names));
  cs_export_dialog_update (self);
}

CsExportDialog *
cs_export_dialog_new (GtkWindow *parent, CsAnalysis *analysis, GPtrArray *selected_calls)
{
  CsExportDialog *self = g_object_new (CS_TYPE_EXPORT_DIALOG, "transient-for", parent, "modal",
                                       TRUE, "destroy-with-parent", TRUE, NULL);
  g_autofree char *selected_label = NULL;
  g_autofree char *all_label = NULL;
  guint n_all = g_list_model_get_n_items (cs_analysis_get_calls (analysis));

  self->analysis = g_object_ref (analysis);
  for (guint i = 0; selected_calls != NULL && i < selected_calls->len; i++)
    {
      guint number = cs_call_get_number (g_ptr_array_index (selected_calls, i));

      g_array_append_val (self->selected, number);
    }
  selected_label = g_strdup_printf (
      g_dngettext (NULL, "_Selected call (%u)", "_Selected calls (%u)", self->selected->len),
      self->selected->len);
  all_label
      = g_strdup_printf (g_dngettext (NULL, "_All calls (%u)", "_All calls (%u)", n_all), n_all);
  gtk_check_button_set_label (self->selected_only, selected_label);
  gtk_check_button_set_label (self->all_calls, all_label);
  if (self->selected->len > 0)
    gtk_check_button_set_active (self->selected_only, TRUE);
  cs_export_dialog_update (self);
  return self;
}

void
cs_export_dialog_set_kind (CsExportDialog *self, CsExportKind kind)
{
  gtk_drop_down_set_selected (self->format, kind);
}

CsExportKind
cs_export_dialog_get_kind (CsExportDialog *self)
{
  guint selected = gtk_drop_down_get_selected (self->format);

  return selected < CS_EXPORT_N_KINDS ? (CsExportKind) selected : CS_EXPORT_KIND_HTML;
}

const char *
cs_export_dialog_suggested_name (CsExportDialog *self)
{
  const CsExportFormat *format = &cs_export_formats[cs_export_dialog_get_kind (self)];
  gboolean selection = format->per_call && self->selected->len > 0
                       && gtk_check_button_get_active (self->selected_only);

  /* one call: its number and Call-ID, made safe (a Call-ID may be "../.x" or worse); redacted,
   * never its Call-ID */
  g_free (self->suggested);
  self->suggested = cs_export_suggest_file_name (
      self->analysis, (const guint *) self->selected->data, selection ? self->selected->len : 0,
      gtk_check_button_get_active (self->redact), format->stem, format->extension);
  return self->suggested;
}

CsExportFlags
cs_export_dialog_get_flags (CsExportDialog *self)
{
  static const CsExportFlags voice[]
      = { CS_EXPORT_SILENCE_VOICE, CS_EXPORT_KEEP_VOICE, CS_EXPORT_DROP_VOICE };
  guint choice = gtk_drop_down_get_selected (self->voice);

  if (!gtk_check_button_get_active (self->redact))
    return 0;
  return CS_EXPORT_REDACT | voice[MIN (choice, G_N_ELEMENTS (voice) - 1)];
}

void
cs_export_dialog_set_redact (CsExportDialog *self, gboolean redact)
{
  gtk_check_button_set_active (self->redact, redact);
}
