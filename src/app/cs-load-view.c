/* cs-load-view.c — the Load page: statistics, breaking point, comparison, brushing */
#include "cs-load-view.h"

#include <glib/gi18n.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "cs-load-view-chart.h"
#include "cs-load-csv.h"
#include "cs-load-html.h"
#include "cs-load-text.h"
#include "callscope-engine.h"
#include "cs-status-page.h"

struct _CsLoadView
{
  CsView parent_instance;

  GtkStack *stack;
  GtkLabel *headline_label;
  GtkLabel *verdict_label;
  GtkLabel *summary_label;
  GtkLabel *breaking_label;
  GtkButton *compare_button;
  GtkButton *stop_compare_button;
  GtkLabel *main_title;
  CsLoadChart *main_chart;
  GtkWidget *other_column;
  GtkLabel *other_title;
  GtkLabel *other_summary;

  CsAnalysis *pending; /* set, its report not computed yet */
  CsLoadReport *report;
  CsLoadReport *other_report;
  char *title, *other_title_text;
  gint64 range_from_ns, range_to_ns;
  GCancellable *compare_cancellable;
};

G_DEFINE_FINAL_TYPE (CsLoadView, cs_load_view, CS_TYPE_VIEW)

enum
{
  SIGNAL_RANGE_CHANGED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

GtkWidget *
cs_load_view_new (void)
{
  return g_object_new (CS_TYPE_LOAD_VIEW, NULL);
}

/* "80 ms", "3.20 s": response times of load tests run from milliseconds to tens of seconds. */
static char *
format_response_time (double ms)
{
  if (ms < 1000)
    return g_strdup_printf ("%.0f ms", ms);
  return g_strdup_printf ("%.2f s", ms / 1000.0);
}

static char *
dup_summary (const CsLoadReport *r)
{
  const CsLoadPercentiles *setup = &r->response_times[CS_LOAD_RT_INVITE_2XX];
  g_autofree char *setup_text = NULL;

  if (setup->n > 0)
    {
      g_autofree char *p50 = format_response_time (setup->p50);
      g_autofree char *p99 = format_response_time (setup->p99);
      /* TRANSLATORS: INVITE → 200 response time percentiles, e.g. "p50 80 ms, p99 3.20 s" */
      setup_text = g_strdup_printf (_ (" · INVITE → 2xx p50 %s, p99 %s"), p50, p99);
    }
  /* TRANSLATORS: load summary; counts */
  return g_strdup_printf (_ ("%u calls · %u answered · %u failed · %u cancelled · peak %u "
                             "concurrent · %u retransmissions · %u timeouts%s%s"),
                          (guint) r->totals.calls, (guint) r->totals.answered,
                          (guint) r->totals.failed, (guint) r->totals.cancelled,
                          r->totals.peak_concurrent, (guint) r->totals.retransmissions,
                          (guint) r->totals.timeouts, setup_text != NULL ? setup_text : "",
                          r->proxied ? _ (" · through a proxy: figures say their leg") : "");
}

static void
update_breaking_label (CsLoadView *self)
{
  const CsLoadBreakingPoint *bp = &self->report->breaking_point;
  g_autofree char *text = NULL;

  gtk_widget_remove_css_class (GTK_WIDGET (self->breaking_label), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->breaking_label), "success");
  if (bp->found)
    {
      g_autofree char *first = bp->has_symptom
                                   ? g_strdup_printf (_ (" First symptom: %s."),
                                                      cs_load_symptom_label (bp->first_symptom))
                                   : g_strdup ("");

      /* TRANSLATORS: seconds from the start, calls/s offered and handled, calls in
       * progress, the evidence, then the first symptom */
      text = g_strdup_printf (_ ("Breaking point at %.0f s, %.0f calls/s offered, %.0f handled, "
                                 "%u concurrent: %s.%s"),
                              bp->offset_s, bp->offered_cps, bp->handled_cps, bp->concurrent,
                              bp->reason, first);
      gtk_widget_add_css_class (GTK_WIDGET (self->breaking_label), "error");
    }
  else
    text = g_strdup (_ ("No breaking point: no lasting retransmissions, late 100 Trying, "
                        "timeouts or 5xx/408, and the p99 response time stayed at its baseline."));
  gtk_label_set_text (self->breaking_label, text);
}

/* The statistics of the analysis set last, computed the first time they are needed (the page
 * is shown, or asked for its report): most loads never open the Load page. */
static void
ensure_report (CsLoadView *self)
{
  g_autoptr (CsAnalysis) analysis = g_steal_pointer (&self->pending);

  if (analysis == NULL)
    return;
  self->report = cs_loadtest_compute (analysis, NULL);
  self->title = cs_analysis_dup_title (analysis);
  if (self->report->totals.calls == 0 && self->report->totals.transactions == 0)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }
  {
    g_autofree char *summary = dup_summary (self->report);
    g_autofree char *headline = cs_load_headline (self->report);
    gtk_label_set_text (self->summary_label, summary);
    gtk_label_set_text (self->headline_label, headline);
  }
  gtk_label_set_text (self->main_title, self->title);
  update_breaking_label (self);
  cs_load_chart_set_report (self->main_chart, self->report);
  cs_load_chart_set_range (self->main_chart, self->range_from_ns, self->range_to_ns);
  gtk_stack_set_visible_child_name (self->stack, "load");
}

static void
on_map (GtkWidget *widget, gpointer data)
{
  ensure_report (CS_LOAD_VIEW (widget));
}

static void
cs_load_view_analysis_changed (CsView *view, CsAnalysis *old_analysis)
{
  CsLoadView *self = CS_LOAD_VIEW (view);
  CsAnalysis *analysis = cs_view_get_analysis (view);

  cs_load_chart_set_report (self->main_chart, NULL);
  g_clear_pointer (&self->report, cs_load_report_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_object (&self->pending);
  self->range_from_ns = self->range_to_ns = 0;
  cs_load_view_set_comparison (self, NULL);
  gtk_stack_set_visible_child_name (self->stack, "empty");
  if (analysis == NULL)
    return;
  self->pending = g_object_ref (analysis);
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    ensure_report (self);
}

const CsLoadReport *
cs_load_view_get_report (CsLoadView *self)
{
  g_return_val_if_fail (CS_IS_LOAD_VIEW (self), NULL);
  ensure_report (self);
  return self->report;
}

static void
show_comparison (CsLoadView *self, CsAnalysis *other)
{
  g_autofree char *title = NULL, *summary = NULL;

  cs_load_chart_set_other (self->main_chart, NULL);
  g_clear_pointer (&self->other_report, cs_load_report_free);
  g_clear_pointer (&self->other_title_text, g_free);
  if (other == NULL)
    {
      gtk_widget_set_visible (self->other_column, FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->main_title), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->stop_compare_button), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->verdict_label), FALSE);
      return;
    }
  ensure_report (self);
  self->other_report = cs_loadtest_compute (other, NULL);
  self->other_title_text = cs_analysis_dup_title (other);
  {
    g_autofree char *headline = cs_load_headline (self->other_report);
    g_autofree char *counts = dup_summary (self->other_report);
    g_autofree char *main = g_strdup_printf (_ ("Run A (solid): %s"), self->title);
    g_autofree char *verdict
        = self->report != NULL
              ? cs_load_compare_verdict (self->report, self->other_report, _ ("run A"), _ ("run B"))
              : NULL;

    title = g_strdup_printf (_ ("Run B (dashed): %s"), self->other_title_text);
    summary = g_strdup_printf ("%s\n%s", headline, counts);
    gtk_label_set_text (self->main_title, main);
    if (verdict != NULL)
      {
        gunichar first = g_unichar_toupper (g_utf8_get_char (verdict));
        char head[8] = { 0 };
        g_autofree char *sentence = NULL;

        g_unichar_to_utf8 (first, head);
        sentence = g_strdup_printf ("%s%s.", head, g_utf8_next_char (verdict));
        gtk_label_set_text (self->verdict_label, sentence);
        gtk_widget_set_visible (GTK_WIDGET (self->verdict_label), TRUE);
      }
  }
  gtk_label_set_text (self->other_title, title);
  gtk_label_set_text (self->other_summary, summary);
  cs_load_chart_set_other (self->main_chart, self->other_report);
  gtk_widget_set_visible (self->other_column, TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->main_title), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->stop_compare_button), TRUE);
}

void
cs_load_view_set_comparison (CsLoadView *self, CsAnalysis *other)
{
  g_return_if_fail (CS_IS_LOAD_VIEW (self));
  if (self->compare_cancellable != NULL)
    {
      g_cancellable_cancel (self->compare_cancellable);
      g_clear_object (&self->compare_cancellable);
    }
  gtk_widget_set_sensitive (GTK_WIDGET (self->compare_button), TRUE);
  show_comparison (self, other);
}

gboolean
cs_load_view_get_range (CsLoadView *self, gint64 *from_ns, gint64 *to_ns)
{
  g_return_val_if_fail (CS_IS_LOAD_VIEW (self), FALSE);
  *from_ns = self->range_from_ns;
  *to_ns = self->range_to_ns;
  return self->range_to_ns > self->range_from_ns;
}

void
cs_load_view_select_range (CsLoadView *self, gint64 from_ns, gint64 to_ns)
{
  g_return_if_fail (CS_IS_LOAD_VIEW (self));
  self->range_from_ns = MIN (from_ns, to_ns);
  self->range_to_ns = MAX (from_ns, to_ns);
  if (self->range_from_ns == self->range_to_ns)
    self->range_from_ns = self->range_to_ns = 0;
  cs_load_chart_set_range (self->main_chart, self->range_from_ns, self->range_to_ns);
  g_signal_emit (self, signals[SIGNAL_RANGE_CHANGED], 0, self->range_from_ns, self->range_to_ns);
}

static void
on_range_selected (CsLoadChart *chart, gint64 from_ns, gint64 to_ns, CsLoadView *self)
{
  cs_load_view_select_range (self, from_ns, to_ns);
}

guint32
cs_load_view_first_retransmission (CsLoadView *self, gint64 from_ns, gint64 to_ns)
{
  CsAnalysis *analysis = cs_view_get_analysis (CS_VIEW (self));
  GListModel *calls = analysis != NULL ? cs_analysis_get_calls (analysis) : NULL;
  guint32 first = 0;

  for (guint c = 0; calls != NULL && c < g_list_model_get_n_items (calls); c++)
    {
      g_autoptr (CsCall) call = g_list_model_get_item (calls, c);

      for (guint i = 0; i < cs_call_get_n_messages (call); i++)
        {
          CsSipMessage *msg = cs_call_get_message (call, i);
          gint64 ts = cs_sip_message_get_ts_ns (msg);

          if (ts >= from_ns && ts < to_ns && cs_call_message_is_retransmission (call, i)
              && (first == 0 || cs_sip_message_get_frame (msg) < first))
            first = cs_sip_message_get_frame (msg);
        }
    }
  return first;
}

/* A double click on an interval: its frames on the Packets page, its first retransmission
 * selected. */
static void
on_interval_activated (CsLoadChart *chart, gint64 from_ns, gint64 to_ns, CsLoadView *self)
{
  guint32 frame = cs_load_view_first_retransmission (self, from_ns, to_ns);

  gtk_widget_activate_action (GTK_WIDGET (self), "win.show-time-range", "(xx)", from_ns, to_ns);
  if (frame != 0)
    gtk_widget_activate_action (GTK_WIDGET (self), "win.show-frame", "u", frame);
}

/* Comparison: a second capture read in the background */

static void
on_compare_loaded (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (CsLoadView) self = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (CsAnalysis) other = cs_loader_load_finish (CS_LOADER (source), result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->compare_cancellable);
  gtk_widget_set_sensitive (GTK_WIDGET (self->compare_button), TRUE);
  if (other == NULL)
    {
      gtk_label_set_text (self->other_title, _ ("Could not read the capture to compare"));
      gtk_label_set_text (self->other_summary, error != NULL ? error->message : "");
      gtk_widget_set_visible (self->other_column, TRUE);
      gtk_widget_set_visible (GTK_WIDGET (self->stop_compare_button), TRUE);
      return;
    }
  show_comparison (self, other);
}

static void
on_compare_response (GtkNativeDialog *dialog, int response, CsLoadView *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;
      g_autoptr (CsLoader) loader = cs_loader_new ();
      const char *paths[] = { path, NULL };

      if (path != NULL)
        {
          cs_load_view_set_comparison (self, NULL);
          self->compare_cancellable = g_cancellable_new ();
          gtk_widget_set_sensitive (GTK_WIDGET (self->compare_button), FALSE);
          cs_loader_load_async (loader, paths, self->compare_cancellable, on_compare_loaded,
                                g_object_ref (self));
        }
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
on_compare_clicked (GtkButton *button, CsLoadView *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *chooser = gtk_file_chooser_native_new (
      _ ("Compare With Capture"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
      GTK_FILE_CHOOSER_ACTION_OPEN, _ ("_Compare"), _ ("_Cancel"));

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_compare_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
on_stop_compare_clicked (GtkButton *button, CsLoadView *self)
{
  cs_load_view_set_comparison (self, NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->compare_button), TRUE);
}

/* Export: the load report as HTML, the intervals as CSV */

gboolean
cs_load_view_export (CsLoadView *self, const char *path, gboolean html, GError **error)
{
  FILE *out;
  gboolean written;

  g_return_val_if_fail (CS_IS_LOAD_VIEW (self), FALSE);
  ensure_report (self);
  if (self->report == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _ ("No load statistics to export"));
      return FALSE;
    }
  out = fopen (path, "w");
  if (out == NULL)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), _ ("Cannot write %s: %s"),
                   path, g_strerror (errno));
      return FALSE;
    }
  written = html ? cs_load_html_write (self->report, self->title, self->other_report,
                                       self->other_title_text, out)
                 : cs_load_write_csv (self->report, out);
  if (fclose (out) != 0 || !written)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _ ("Writing %s failed"), path);
      return FALSE;
    }
  return TRUE;
}

static void
on_export_response (GtkNativeDialog *dialog, int response, CsLoadView *self)
{
  gboolean html = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "html"));

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;
      g_autoptr (GError) error = NULL;

      if (path != NULL && !cs_load_view_export (self, path, html, &error))
        gtk_label_set_text (self->breaking_label, error->message);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
start_export (CsLoadView *self, gboolean html)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *chooser = gtk_file_chooser_native_new (
      html ? _ ("Export Load Report") : _ ("Export Intervals as CSV"),
      GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, GTK_FILE_CHOOSER_ACTION_SAVE, _ ("_Export"),
      _ ("_Cancel"));

  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser),
                                     html ? "load-report.html" : "load-intervals.csv");
  g_object_set_data (G_OBJECT (chooser), "html", GINT_TO_POINTER (html));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_export_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
on_export_html_clicked (GtkButton *button, CsLoadView *self)
{
  start_export (self, TRUE);
}

static void
on_export_csv_clicked (GtkButton *button, CsLoadView *self)
{
  start_export (self, FALSE);
}

/* GObject */

static void
cs_load_view_dispose (GObject *object)
{
  CsLoadView *self = CS_LOAD_VIEW (object);

  if (self->compare_cancellable != NULL)
    g_cancellable_cancel (self->compare_cancellable);
  g_clear_object (&self->compare_cancellable);
  g_clear_object (&self->pending);
  gtk_widget_dispose_template (GTK_WIDGET (self), CS_TYPE_LOAD_VIEW);
  G_OBJECT_CLASS (cs_load_view_parent_class)->dispose (object);
}

static void
cs_load_view_finalize (GObject *object)
{
  CsLoadView *self = CS_LOAD_VIEW (object);

  g_clear_pointer (&self->report, cs_load_report_free);
  g_clear_pointer (&self->other_report, cs_load_report_free);
  g_free (self->title);
  g_free (self->other_title_text);
  G_OBJECT_CLASS (cs_load_view_parent_class)->finalize (object);
}

static void
cs_load_view_class_init (CsLoadViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cs_load_view_dispose;
  CS_VIEW_CLASS (klass)->analysis_changed = cs_load_view_analysis_changed;
  object_class->finalize = cs_load_view_finalize;
  signals[SIGNAL_RANGE_CHANGED]
      = g_signal_new ("range-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                      NULL, G_TYPE_NONE, 2, G_TYPE_INT64, G_TYPE_INT64);
  g_type_ensure (CS_TYPE_STATUS_PAGE);
  g_type_ensure (CS_TYPE_LOAD_CHART);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/callscope/Callscope/ui/cs-load-view.ui");
  gtk_widget_class_bind_template_child (widget_class, CsLoadView, stack);
  gtk_widget_class_bind_template_child (widget_class, CsLoadView, summary_label);
  gtk_widget_class_bind_template_child (widget_class, CsLoadView, breaking_label);
  gtk_widget_class_bind_template_child (widget_class, CsLoadView, compare_button);
  gtk_widget_class_bind_template_child (widget_class, CsLoadView, stop_compare_button);
  gtk_widget_class_bind_template_child (widget_class, CsLoadView, main_title);
  gtk_widget_class_bind_template_child (widget_class, CsLoadView, main_chart);
  gtk_widget_class_bind_template_child (widget_class, CsLoadView, other_column);
  gtk_widget_class_bind_template_child (widget_class, CsLoadView, other_title);
  gtk_widget_class_bind_template_child (widget_class, CsLoadView, other_summary);
  gtk_widget_class_bind_template_child (widget_class, CsLoadView, headline_label);
  gtk_widget_class_bind_template_child (widget_class, CsLoadView, verdict_label);
  gtk_widget_class_bind_template_callback (widget_class, on_compare_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_stop_compare_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_export_html_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_export_csv_clicked);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
cs_load_view_init (CsLoadView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect (self->main_chart, "range-selected", G_CALLBACK (on_range_selected), self);
  g_signal_connect (self->main_chart, "interval-activated", G_CALLBACK (on_interval_activated),
                    self);
  g_signal_connect (self, "map", G_CALLBACK (on_map), NULL);
}
