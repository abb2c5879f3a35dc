/* cs-homer-dialog.c — the From Homer dialog: reads the window in a thread, then hands over a file
 */
#include "cs-homer-dialog.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "callscope-engine.h"

struct _CsHomerDialog
{
  GtkWindow parent_instance;

  GtkEntry *uri_entry;
  GtkEntry *from_entry;
  GtkEntry *to_entry;
  GtkEntry *call_id_entry;
  GtkEntry *from_user_entry;
  GtkEntry *to_user_entry;
  GtkEntry *ruri_user_entry;
  GtkEntry *ip_entry;
  GtkEntry *node_entry;
  GtkLabel *error_label;
  GtkLabel *progress_label;
  GtkWidget *open_button;
  GtkWidget *fields_grid;

  GCancellable *cancellable; /* while reading */
};

enum
{
  SIGNAL_OPENED,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (CsHomerDialog, cs_homer_dialog, GTK_TYPE_WINDOW)

typedef struct
{
  CsHomerQuery *query;
  char *path;
  CsHomerStats stats;
} ReadJob;

typedef struct
{
  GWeakRef dialog;
  guint64 rows;
  double rate;
} ProgressUpdate;

static void
read_job_free (ReadJob *job)
{
  cs_homer_query_free (job->query);
  g_free (job->path);
  cs_homer_stats_clear (&job->stats);
  g_free (job);
}

static void
show_error (CsHomerDialog *self, const char *message)
{
  gtk_label_set_text (self->error_label, message);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

static void
set_reading (CsHomerDialog *self, gboolean reading)
{
  gtk_widget_set_sensitive (self->open_button, !reading);
  gtk_widget_set_sensitive (self->fields_grid, !reading);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_label), reading);
  if (reading)
    gtk_label_set_text (self->progress_label, _ ("Connecting…"));
}

static gboolean
progress_on_main (gpointer data)
{
  ProgressUpdate *update = data;
  g_autoptr (CsHomerDialog) self = g_weak_ref_get (&update->dialog);

  if (self != NULL && self->cancellable != NULL)
    {
      g_autofree char *text = g_strdup_printf (_ ("%" G_GUINT64_FORMAT " rows read (%.0f rows/s)"),
                                               update->rows, update->rate);
      gtk_label_set_text (self->progress_label, text);
    }
  g_weak_ref_clear (&update->dialog);
  g_free (update);
  return G_SOURCE_REMOVE;
}

/* from the reading thread, every 20000 rows */
static void
on_progress (guint64 rows, double rows_per_second, gpointer user_data)
{
  ProgressUpdate *update = g_new0 (ProgressUpdate, 1);

  g_weak_ref_init (&update->dialog, user_data);
  update->rows = rows;
  update->rate = rows_per_second;
  g_idle_add (progress_on_main, update);
}

static void
read_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  ReadJob *job = data;
  GError *error = NULL;

  if (cs_homer_spool (job->query, job->path, on_progress, source, cancellable, &job->stats, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
read_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  CsHomerDialog *self = CS_HOMER_DIALOG (source);
  ReadJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;

  g_clear_object (&self->cancellable);
  if (self->fields_grid == NULL) /* the dialog went away while reading */
    {
      g_unlink (job->path);
      return;
    }
  set_reading (self, FALSE);
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_unlink (job->path);
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_error (self, error->message);
      return;
    }
  {
    g_autoptr (GFile) file = g_file_new_for_path (job->path);
    g_signal_emit (self, signals[SIGNAL_OPENED], 0, file);
  }
  gtk_window_destroy (GTK_WINDOW (self));
}

static char *
entry_text (GtkEntry *entry)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  g_autofree char *copy = g_strstrip (g_strdup (text));

  return *copy != '\0' ? g_steal_pointer (&copy) : NULL;
}

static CsHomerQuery *
build_query (CsHomerDialog *self, GError **error)
{
  g_autofree char *uri = entry_text (self->uri_entry);
  g_autofree char *from = entry_text (self->from_entry);
  g_autofree char *to = entry_text (self->to_entry);
  g_autofree char *call_ids = entry_text (self->call_id_entry);
  g_autoptr (CsHomerQuery) query = cs_homer_query_new (uri);

  if (from == NULL || to == NULL)
    {
      g_set_error (error, CS_HOMER_ERROR, CS_HOMER_ERROR_USAGE,
                   _ ("Give the window's start and end."));
      return NULL;
    }
  if (!cs_homer_parse_time (from, &query->from_us, error)
      || !cs_homer_parse_time (to, &query->to_us, error))
    return NULL;
  if (call_ids != NULL)
    {
      g_auto (GStrv) ids = g_strsplit_set (call_ids, " ,\t", -1);
      for (guint i = 0; ids[i] != NULL; i++)
        if (*ids[i] != '\0')
          g_ptr_array_add (query->call_ids, g_strdup (ids[i]));
    }
  query->from_user = entry_text (self->from_user_entry);
  query->to_user = entry_text (self->to_user_entry);
  query->ruri_user = entry_text (self->ruri_user_entry);
  query->ip = entry_text (self->ip_entry);
  query->node = entry_text (self->node_entry);
  if (!cs_homer_query_check (query, error))
    return NULL;
  return g_steal_pointer (&query);
}

static void
on_open_clicked (CsHomerDialog *self)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GTask) task = NULL;
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "callscope", "homer", NULL);
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "homer-%Y%m%d-%H%M%S.pcapng");
  ReadJob *job;
  CsHomerQuery *query = build_query (self, &error);

  show_error (self, NULL);
  if (query == NULL)
    {
      show_error (self, error->message);
      return;
    }
  g_mkdir_with_parents (dir, 0700);
  job = g_new0 (ReadJob, 1);
  job->query = query;
  job->path = g_build_filename (dir, stamp, NULL);
  self->cancellable = g_cancellable_new ();
  set_reading (self, TRUE);
  task = g_task_new (self, self->cancellable, read_done, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) read_job_free);
  g_task_run_in_thread (task, read_thread);
}

/* Cancel stops a running read first; the dialog closes once nothing runs */
static void
on_cancel_clicked (CsHomerDialog *self)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  else
    gtk_window_destroy (GTK_WINDOW (self));
}

static gboolean
cs_homer_dialog_close_request (GtkWindow *window)
{
  CsHomerDialog *self = CS_HOMER_DIALOG (window);

  if (self->cancellable != NULL)
    {
      g_cancellable_cancel (self->cancellable);
      return TRUE; /* read_done closes nothing; the person closes again */
    }
  return GTK_WINDOW_CLASS (cs_homer_dialog_parent_class)->close_request (window);
}

static void
cs_homer_dialog_dispose (GObject *object)
{
  CsHomerDialog *self = CS_HOMER_DIALOG (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), CS_TYPE_HOMER_DIALOG);
  G_OBJECT_CLASS (cs_homer_dialog_parent_class)->dispose (object);
}

static void
cs_homer_dialog_class_init (CsHomerDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = cs_homer_dialog_dispose;
  GTK_WINDOW_CLASS (klass)->close_request = cs_homer_dialog_close_request;
  signals[SIGNAL_OPENED] = g_signal_new ("opened", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                         NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_FILE);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/callscope/Callscope/ui/cs-homer-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, CsHomerDialog, uri_entry);
  gtk_widget_class_bind_template_child (widget_class, CsHomerDialog, from_entry);
  gtk_widget_class_bind_template_child (widget_class, CsHomerDialog, to_entry);
  gtk_widget_class_bind_template_child (widget_class, CsHomerDialog, call_id_entry);
  gtk_widget_class_bind_template_child (widget_class, CsHomerDialog, from_user_entry);
  gtk_widget_class_bind_template_child (widget_class, CsHomerDialog, to_user_entry);
  gtk_widget_class_bind_template_child (widget_class, CsHomerDialog, ruri_user_entry);
  gtk_widget_class_bind_template_child (widget_class, CsHomerDialog, ip_entry);
  gtk_widget_class_bind_template_child (widget_class, CsHomerDialog, node_entry);
  gtk_widget_class_bind_template_child (widget_class, CsHomerDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, CsHomerDialog, progress_label);
  gtk_widget_class_bind_template_child (widget_class, CsHomerDialog, open_button);
  gtk_widget_class_bind_template_child (widget_class, CsHomerDialog, fields_grid);
  gtk_widget_class_bind_template_callback (widget_class, on_open_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_cancel_clicked);
}

static void
cs_homer_dialog_init (CsHomerDialog *self)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autoptr (GDateTime) hour_ago = g_date_time_add_hours (now, -1);
  g_autofree char *to = g_date_time_format (now, "%Y-%m-%d %H:%M:%S");
  g_autofree char *from = g_date_time_format (hour_ago, "%Y-%m-%d %H:%M:%S");

  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_window_set_default_widget (GTK_WINDOW (self), self->open_button);
  gtk_editable_set_text (GTK_EDITABLE (self->from_entry), from);
  gtk_editable_set_text (GTK_EDITABLE (self->to_entry), to);
}

CsHomerDialog *
cs_homer_dialog_new (GtkWindow *parent)
{
  return g_object_new (CS_TYPE_HOMER_DIALOG, "transient-for", parent, "title",
                       _ ("Open from Homer"), NULL);
}

void
cs_homer_dialog_set_window (CsHomerDialog *self, const char *uri, const char *from, const char *to)
{
  if (uri != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->uri_entry), uri);
  if (from != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->from_entry), from);
  if (to != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->to_entry), to);
}

void
cs_homer_dialog_open (CsHomerDialog *self)
{
  on_open_clicked (self);
}

const char *
cs_homer_dialog_get_error (CsHomerDialog *self)
{
  return gtk_widget_get_visible (GTK_WIDGET (self->error_label))
             ? gtk_label_get_text (self->error_label)
             : NULL;
}

gboolean
cs_homer_dialog_is_reading (CsHomerDialog *self)
{
  return self->cancellable != NULL;
}
