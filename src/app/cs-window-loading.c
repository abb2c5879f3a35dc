/* cs-window-loading.c — runs the engine in the background and follows its progress */
#include "cs-window-private.h"

#include <glib/gi18n.h>

#include "cs-display-format.h"

static void
on_calls_changed (GListModel *calls, guint position, guint removed, guint added, CsWindow *self)
{
  cs_window_update_title (self);
  cs_window_update_status (self);
}

static void
on_loader_progress (CsLoader *loader, GParamSpec *pspec, CsWindow *self)
{
  double fraction = cs_loader_get_fraction (loader);
  g_autofree char *text
      = cs_display_format_progress (fraction, cs_loader_get_packets_per_second (loader));

  gtk_progress_bar_set_fraction (self->load_progress, fraction);
  gtk_progress_bar_set_text (self->load_progress, text);
  /* Only when it changes: setting a tooltip makes GTK query the pointer (an X round trip). */
  if (g_strcmp0 (gtk_widget_get_tooltip_text (GTK_WIDGET (self->load_progress)),
                 cs_loader_get_message (loader))
      != 0)
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->load_progress), cs_loader_get_message (loader));
  cs_window_update_status (self);
}

static void set_analysis (CsWindow *self, CsAnalysis *analysis);

/* The loader creates the analysis on its thread once the files are open: it may not exist
 * yet when the load starts. */
static void
on_loader_analysis (CsLoader *loader, GParamSpec *pspec, CsWindow *self)
{
  if (cs_loader_get_analysis (loader) != NULL)
    set_analysis (self, cs_loader_get_analysis (loader));
}

/* The views follow "analysis" and "loaded-analysis" through their bindings in cs-window.ui. */
static void
set_analysis (CsWindow *self, CsAnalysis *analysis)
{
  gboolean was_loaded = self->analysis_loaded;

  if (self->analysis == analysis)
    return;
  if (self->analysis != NULL)
    {
      g_signal_handlers_disconnect_by_data (cs_analysis_get_calls (self->analysis), self);
      g_signal_handlers_disconnect_by_data (self->analysis, self);
    }
  g_set_object (&self->analysis, analysis);
  self->analysis_loaded = FALSE;
  if (analysis != NULL)
    g_signal_connect (cs_analysis_get_calls (analysis), "items-changed",
                      G_CALLBACK (on_calls_changed), self);
  cs_window_notify (self, CS_WINDOW_PROP_ANALYSIS);
  if (was_loaded)
    cs_window_notify (self, CS_WINDOW_PROP_LOADED_ANALYSIS);
}

void
cs_window_forget_capture (CsWindow *self)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->loader != NULL)
    g_signal_handlers_disconnect_by_data (self->loader, self);
  /* A load still running keeps its own reference; its callback sees it is stale. */
  g_clear_object (&self->loader);
  g_clear_object (&self->publisher);
  set_analysis (self, NULL);
  if (self->selection != NULL)
    cs_selection_clear (self->selection);
}

void
cs_window_cancel_load (CsWindow *self)
{
  g_return_if_fail (CS_IS_WINDOW (self));

  if (self->state != CS_WINDOW_STATE_LOADING)
    return;
  cs_window_forget_capture (self);
  g_clear_pointer (&self->files, g_ptr_array_unref);
  cs_window_set_state (self, CS_WINDOW_STATE_EMPTY);
}

static char *
dup_files_display_name (CsWindow *self)
{
  GString *names = g_string_new (NULL);

  for (guint i = 0; self->files != NULL && i < self->files->len; i++)
    {
      g_autofree char *name = g_file_get_parse_name (g_ptr_array_index (self->files, i));
      g_autofree char *base = g_path_get_basename (name);

      if (i > 0)
        g_string_append (names, ", ");
      g_string_append (names, base);
    }
  return g_string_free (names, FALSE);
}

static void
show_damage (CsWindow *self, const GError *damage)
{
  g_autofree char *text = NULL;

  if (damage == NULL)
    {
      gtk_revealer_set_reveal_child (self->damage_revealer, FALSE);
      return;
    }
  /* TRANSLATORS: shown above a capture that could only be read in part; %s says why */
  text = g_markup_printf_escaped (_ ("<b>The capture is damaged.</b> Everything before the "
                                     "damage is shown. %s"),
                                  damage->message);
  gtk_label_set_markup (self->damage_label, text);
  gtk_revealer_set_reveal_child (self->damage_revealer, TRUE);
}

/* Every call is in the list: the other views take the analysis ("loaded-analysis"), the
 * window is loaded. */
static void
show_loaded (CsWindow *self)
{
  CsAnalysis *analysis = self->analysis;

  g_signal_handlers_disconnect_by_data (analysis, self);
  self->analysis_loaded = TRUE;
  cs_window_notify (self, CS_WINDOW_PROP_LOADED_ANALYSIS);
  show_damage (self, cs_analysis_get_damage (analysis));
  cs_window_set_state (self, CS_WINDOW_STATE_LOADED);
}

static void
on_analysis_published (CsAnalysis *analysis, GParamSpec *pspec, CsWindow *self)
{
  if (analysis == self->analysis && cs_analysis_get_published (analysis))
    show_loaded (self);
}

static void
on_load_finished (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (CsWindow) self = user_data;
  CsLoader *loader = CS_LOADER (source);
  g_autoptr (GError) error = NULL;
  g_autoptr (CsAnalysis) analysis = NULL;

  /* Slices pay off in the calls' own order: a sorted list turns each one into a change of
   * nearly every row it shows, so there the real calls replace the copies at once. */
  if (loader == self->loader)
    cs_publisher_set_in_slices (self->publisher, !cs_calls_view_is_sorted (self->calls_view));
  analysis = cs_loader_load_finish (loader, result, &error);

  /* Cancelled, replaced by another load, or the window went away. */
  if (loader != self->loader)
    return;

  g_signal_handlers_disconnect_by_data (loader, self);
  g_clear_object (&self->loader);
  g_clear_object (&self->publisher);
  g_clear_object (&self->cancellable);

  if (analysis == NULL)
    {
      g_autofree char *names = dup_files_display_name (self);
      /* TRANSLATORS: %s is one or more file names */
      g_autofree char *title = g_strdup_printf (_ ("Could not open “%s”"), names);

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          cs_window_forget_capture (self);
          cs_window_set_state (self, CS_WINDOW_STATE_EMPTY);
          return;
        }
      cs_window_forget_capture (self);
      cs_window_show_error (self, title,
                            error != NULL ? error->message : _ ("The capture could not be read."));
      return;
    }

  set_analysis (self, analysis);
  gtk_progress_bar_set_fraction (self->load_progress, 1.0);
  /* The real calls take their rows in slices (cs_publisher_set_in_slices): the window
   * is loaded after the last one. */
  if (cs_analysis_get_published (analysis))
    show_loaded (self);
  else
    g_signal_connect (analysis, "notify::published", G_CALLBACK (on_analysis_published), self);
}

static GStrv
dup_local_paths (GFile **files, guint n_files, GFile **not_local)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  *not_local = NULL;
  for (guint i = 0; i < n_files; i++)
    {
      g_autofree char *path = g_file_get_path (files[i]);

      /* The engine maps files into memory: it needs a local path. */
      if (path == NULL)
        {
          *not_local = files[i];
          return NULL;
        }
      g_strv_builder_add (builder, path);
    }
  return g_strv_builder_end (builder);
}

static void cs_window_open (CsWindow *self, GFile **files, guint n_files);

void
cs_window_open_files (CsWindow *self, GFile **files, guint n_files)
{
  self->files_are_points = FALSE;
  cs_window_open (self, files, n_files);
}

void
cs_window_open_points (CsWindow *self, GFile **files, guint n_files)
{
  self->files_are_points = n_files > 1;
  cs_window_open (self, files, n_files);
}

static void
cs_window_open (CsWindow *self, GFile **files, guint n_files)
{
  GtkApplication *application;
  g_auto (GStrv) paths = NULL;
  GFile *not_local = NULL;

  g_return_if_fail (CS_IS_WINDOW (self));
  g_return_if_fail (files != NULL && n_files > 0);

  cs_window_forget_capture (self);
  g_clear_pointer (&self->files, g_ptr_array_unref);
  self->files = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < n_files; i++)
    g_ptr_array_add (self->files, g_object_ref (files[i]));

  paths = dup_local_paths (files, n_files, &not_local);
  if (paths == NULL)
    {
      g_autofree char *name = g_file_get_parse_name (not_local);
      g_autofree char *title = g_strdup_printf (_ ("Could not open “%s”"), name);

      cs_window_show_error (self, title,
                            _ ("Only files on this computer can be opened. Copy the capture "
                               "to a local folder first."));
      return;
    }

  application = gtk_window_get_application (GTK_WINDOW (self));
  if (CS_IS_APPLICATION (application))
    for (guint i = 0; i < n_files; i++)
      cs_application_add_recent_file (CS_APPLICATION (application), files[i]);

  self->loader = cs_loader_new ();
  cs_loader_set_points (self->loader, self->files_are_points);
  self->publisher = cs_publisher_new ();
  cs_publisher_attach (self->publisher, self->loader);
  self->cancellable = g_cancellable_new ();
  g_signal_connect (self->loader, "notify::fraction", G_CALLBACK (on_loader_progress), self);
  g_signal_connect (self->loader, "notify::packets-per-second", G_CALLBACK (on_loader_progress),
                    self);
  g_signal_connect (self->loader, "notify::message", G_CALLBACK (on_loader_progress), self);
  g_signal_connect (self->loader, "notify::analysis", G_CALLBACK (on_loader_analysis), self);

  gtk_progress_bar_set_fraction (self->load_progress, 0.0);
  gtk_progress_bar_set_text (self->load_progress, _ ("Starting…"));
  gtk_revealer_set_reveal_child (self->damage_revealer, FALSE);
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");

  cs_loader_load_async (self->loader, (const char *const *) paths, self->cancellable,
                        on_load_finished, g_object_ref (self));
  /* Its calls fill in while loading (when it exists already; else on notify::analysis). */
  set_analysis (self, cs_loader_get_analysis (self->loader));
  gtk_stack_set_visible_child_name (self->view_stack, "calls");
  cs_window_set_state (self, CS_WINDOW_STATE_LOADING);
}
