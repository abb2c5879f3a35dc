/* cs-player-bar.c — decoding runs in a GTask thread per selection; the player
 * reports its position on the main context, which moves the shared cursor */
#include "cs-player-bar.h"

#include <glib/gi18n.h>

#include "cs-audio-error.h"
#include "cs-audio-export.h"
#include "cs-waveform-view.h"

struct _CsPlayerBar
{
  CsView parent_instance;

  GtkWidget *box;
  GtkButton *play_button;
  GtkButton *stop_button;
  GtkLabel *position_label;
  GtkLabel *title_label;
  GtkDropDown *layout_dropdown;
  GtkDropDown *buffer_dropdown;
  GtkScaleButton *volume_button;
  GtkButton *export_button;
  GtkLabel *message_label;
  CsWaveformView *waveform;

  CsCallsView *calls_view; /* weak: its selected call is played */
  CsAudioPlayer *player;
  CsAudioRender *render;
  CsCall *call;     /* what is rendered: a call … */
  CsStream *stream; /* … or a stream */
  GCancellable *cancellable;
  char *message;
  gboolean moving_cursor; /* we are the ones setting time-ns */
  GtkFileChooserNative *chooser;
};

G_DEFINE_FINAL_TYPE (CsPlayerBar, cs_player_bar, CS_TYPE_VIEW)

enum
{
  PROP_0,
  PROP_CALLS_VIEW,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

typedef struct
{
  CsAnalysis *analysis;
  CsCall *call;
  CsStream *stream;
  CsAudioRenderOptions opts;
} RenderJob;

static void
render_job_free (RenderJob *job)
{
  g_clear_object (&job->analysis);
  g_clear_object (&job->call);
  g_clear_object (&job->stream);
  g_free (job);
}

static CsAudioRender *
run_job (RenderJob *job, GCancellable *cancellable, GError **error)
{
  if (job->call != NULL)
    return cs_audio_render_call (job->analysis, job->call, &job->opts, cancellable, error);
  return cs_audio_render_stream (job->analysis, job->stream, &job->opts, error);
}

static void
render_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  GError *error = NULL;
  CsAudioRender *render = run_job (data, cancellable, &error);

  if (render != NULL)
    g_task_return_pointer (task, render, (GDestroyNotify) cs_audio_render_unref);
  else
    g_task_return_error (task, error);
}

/* The capture's clock (seconds since its first packet), as the ladder, graphs and waveform:
 * "9.3 s · 7.9–19.9 s", the playhead and the span of the audio. */
static void
update_position_label (CsPlayerBar *self)
{
  CsAnalysis *analysis = cs_view_get_analysis (CS_VIEW (self));
  g_autofree char *text = NULL;
  double start;

  if (self->render == NULL || analysis == NULL)
    {
      gtk_label_set_label (self->position_label, "— s");
      return;
    }
  start = (double) (self->render->start_ns - cs_analysis_get_stats (analysis)->first_ns) / 1e9;
  text = g_strdup_printf ("%.1f s · %.1f–%.1f s",
                          start + cs_audio_player_get_position (self->player), start,
                          start + cs_audio_player_get_duration (self->player));
  gtk_label_set_label (self->position_label, text);
}

static void
show_message (CsPlayerBar *self, const char *text)
{
  g_free (self->message);
  self->message = g_strdup (text);
  gtk_label_set_label (self->message_label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), text != NULL && *text != '\0');
}

static void
update_controls (CsPlayerBar *self)
{
  gboolean have = self->render != NULL;
  gboolean playing = cs_audio_player_get_state (self->player) == CS_AUDIO_PLAYER_PLAYING;

  gtk_widget_set_sensitive (GTK_WIDGET (self->play_button), have);
  gtk_widget_set_sensitive (GTK_WIDGET (self->stop_button), have);
  gtk_widget_set_sensitive (GTK_WIDGET (self->export_button), have);
  gtk_button_set_icon_name (self->play_button, playing ? "media-playback-pause-symbolic"
                                                       : "media-playback-start-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->play_button), playing ? _ ("Pause") : _ ("Play"));
  update_position_label (self);
}

static void
set_render (CsPlayerBar *self, CsAudioRender *render)
{
  g_clear_pointer (&self->render, cs_audio_render_unref);
  self->render = render != NULL ? cs_audio_render_ref (render) : NULL;
  cs_audio_player_set_render (self->player, render);
  cs_waveform_view_set_render (self->waveform, render);
  if (render != NULL && cs_view_get_selection (CS_VIEW (self)) != NULL)
    cs_waveform_view_set_cursor_ns (
        self->waveform, cs_selection_get_time_ns (cs_view_get_selection (CS_VIEW (self))));
  update_controls (self);
}

static void
fill_options (CsPlayerBar *self, CsAudioRenderOptions *opts)
{
  cs_audio_render_options_init (opts);
  opts->layout = gtk_drop_down_get_selected (self->layout_dropdown) == 1 ? CS_AUDIO_LAYOUT_MIXED
                                                                         : CS_AUDIO_LAYOUT_STEREO;
  switch (gtk_drop_down_get_selected (self->buffer_dropdown))
    {
    case 0:
      opts->playout.jb.kind = CS_JITTER_BUFFER_OFF;
      break;
    case 2:
      opts->playout.jb.kind = CS_JITTER_BUFFER_ADAPTIVE;
      break;
    default:
      opts->playout.jb.kind = CS_JITTER_BUFFER_FIXED;
      break;
    }
}

static void
apply_result (CsPlayerBar *self, CsAudioRender *render, const GError *error)
{
  if (render == NULL)
    {
      set_render (self, NULL);
      cs_waveform_view_set_placeholder (self->waveform, _ ("No audio to play"));
      show_message (self, error != NULL ? error->message : NULL);
      return;
    }
  set_render (self, render);
  if (render->messages->len > 0)
    {
      g_autoptr (GString) text = g_string_new (NULL);

      for (guint i = 0; i < render->messages->len; i++)
        g_string_append_printf (text, "%s%s", i > 0 ? "\n" : "",
                                (const char *) g_ptr_array_index (render->messages, i));
      show_message (self, text->str);
    }
  else
    show_message (self, NULL);
}

static void
on_render_done (GObject *source, GAsyncResult *result, gpointer data)
{
  CsPlayerBar *self = data;
  g_autoptr (GError) error = NULL;
  CsAudioRender *render = g_task_propagate_pointer (G_TASK (result), &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_object_unref (self);
      return;
    }
  apply_result (self, render, error);
  if (render != NULL)
    cs_audio_render_unref (render);
  g_object_unref (self);
}

static RenderJob *
make_job (CsPlayerBar *self)
{
  CsAnalysis *analysis = cs_view_get_analysis (CS_VIEW (self));
  RenderJob *job;

  if (analysis == NULL || (self->call == NULL && self->stream == NULL))
    return NULL;
  job = g_new0 (RenderJob, 1);
  job->analysis = g_object_ref (analysis);
  job->call = self->call != NULL ? g_object_ref (self->call) : NULL;
  job->stream = self->call == NULL && self->stream != NULL ? g_object_ref (self->stream) : NULL;
  fill_options (self, &job->opts);
  return job;
}

static void
update_title (CsPlayerBar *self)
{
  g_autofree char *title = NULL;

  if (self->call != NULL)
    /* TRANSLATORS: call number, caller, callee */
    title = g_strdup_printf (_ ("Call %u: %s → %s"), cs_call_get_number (self->call),
                             cs_call_get_from (self->call), cs_call_get_to (self->call));
  else if (self->stream != NULL)
    title = g_strdup_printf (_ ("Stream %u (%s)"), cs_stream_get_id (self->stream),
                             cs_stream_get_codec (self->stream));
  gtk_label_set_label (self->title_label, title != NULL ? title : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->title_label),
                               self->call != NULL
                                   ? _ ("Left: the caller’s voice. Right: the "
                                        "callee’s. Both as the other side heard them.")
                                   : NULL);
}

/* Decodes what is selected, in the background. */
static void
start_render (CsPlayerBar *self)
{
  RenderJob *job;
  GTask *task;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  update_title (self);
  job = make_job (self);
  set_render (self, NULL);
  show_message (self, NULL);
  if (job == NULL)
    {
      cs_waveform_view_set_placeholder (self->waveform, _ ("Select a call or a stream to hear it"));
      return;
    }
  cs_waveform_view_set_placeholder (self->waveform, _ ("Decoding…"));
  self->cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->cancellable, on_render_done, g_object_ref (self));
  g_task_set_task_data (task, job, (GDestroyNotify) render_job_free);
  g_task_set_name (task, "[callscope] decode audio");
  g_task_run_in_thread (task, render_thread);
  g_object_unref (task);
}

void
cs_player_bar_render_now (CsPlayerBar *self)
{
  RenderJob *job;
  g_autoptr (GError) error = NULL;
  CsAudioRender *render;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  update_title (self);
  job = make_job (self);
  if (job == NULL)
    {
      apply_result (self, NULL, NULL);
      return;
    }
  render = run_job (job, NULL, &error);
  apply_result (self, render, error);
  if (render != NULL)
    cs_audio_render_unref (render);
  render_job_free (job);
}

static void
on_selection_target_changed (CsPlayerBar *self)
{
  CsCall *call = cs_selection_get_call (cs_view_get_selection (CS_VIEW (self)));
  CsStream *stream = cs_selection_get_stream (cs_view_get_selection (CS_VIEW (self)));

  /* A stream of another call than the selected one wins: it was picked last. */
  if (call != NULL && stream != NULL
      && cs_stream_get_call_number (stream) != cs_call_get_number (call))
    call = NULL;
  if (call == self->call && (call != NULL || stream == self->stream))
    return;
  g_set_object (&self->call, call);
  if (call != NULL)
    stream = NULL;
  g_set_object (&self->stream, stream);
  start_render (self);
}

static void
on_selection_time_changed (CsPlayerBar *self)
{
  gint64 t = cs_selection_get_time_ns (cs_view_get_selection (CS_VIEW (self)));

  if (self->moving_cursor)
    return;
  cs_waveform_view_set_cursor_ns (self->waveform, t);
  if (self->render != NULL && t >= self->render->start_ns)
    cs_audio_player_seek (self->player, (double) (t - self->render->start_ns) / 1e9);
}

static void
on_player_position (CsPlayerBar *self)
{
  gint64 t;

  update_position_label (self);
  if (self->render == NULL)
    return;
  t = cs_audio_player_get_position_ns (self->player);
  cs_waveform_view_set_cursor_ns (self->waveform, t);
  if (cs_view_get_selection (CS_VIEW (self)) != NULL
      && cs_audio_player_get_state (self->player) != CS_AUDIO_PLAYER_STOPPED)
    {
      self->moving_cursor = TRUE;
      cs_selection_set_time_ns (cs_view_get_selection (CS_VIEW (self)), t);
      self->moving_cursor = FALSE;
    }
}

static void
on_waveform_seek (CsPlayerBar *self, gint64 time_ns)
{
  cs_audio_player_seek (self->player, (double) (time_ns - self->render->start_ns) / 1e9);
  cs_waveform_view_set_cursor_ns (self->waveform, time_ns);
  if (cs_view_get_selection (CS_VIEW (self)) != NULL)
    {
      self->moving_cursor = TRUE;
      cs_selection_set_time_ns (cs_view_get_selection (CS_VIEW (self)), time_ns);
      self->moving_cursor = FALSE;
    }
  update_position_label (self);
}

static void
on_play_clicked (CsPlayerBar *self)
{
  g_autoptr (GError) error = NULL;

  if (cs_audio_player_get_state (self->player) == CS_AUDIO_PLAYER_PLAYING)
    {
      cs_audio_player_pause (self->player);
      return;
    }
  if (!cs_audio_player_play (self->player, &error))
    show_message (self, error->message);
}

void
cs_player_bar_toggle_play (CsPlayerBar *self)
{
  g_return_if_fail (CS_IS_PLAYER_BAR (self));

  /* Nothing decoded yet (or nothing selected): the button is insensitive too. */
  if (self->render == NULL)
    return;
  on_play_clicked (self);
}

static void
on_stop_clicked (CsPlayerBar *self)
{
  cs_audio_player_stop (self->player);
}

static void
on_export_response (GtkNativeDialog *dialog, int response, CsPlayerBar *self)
{
  g_autoptr (GFile) file = NULL;
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;
  CsAudioFileFormat format;

  if (response == GTK_RESPONSE_ACCEPT && self->render != NULL
      && (file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog))) != NULL)
    {
      path = g_file_get_path (file);
      if (path != NULL && !cs_audio_file_format_from_path (path, &format))
        {
          char *with_ext = g_strconcat (path, ".wav", NULL);

          g_free (path);
          path = with_ext;
          format = CS_AUDIO_FILE_WAV;
        }
      if (path == NULL)
        show_message (self, _ ("Audio can only be exported to a local file."));
      else if (!cs_audio_export (self->render, path, format, &error))
        show_message (self, error->message);
    }
  g_clear_object (&self->chooser);
}

static void
on_export_clicked (CsPlayerBar *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  g_autofree char *name = NULL;
  GtkFileFilter *filter;

  if (self->render == NULL || self->chooser != NULL)
    return;
  self->chooser = gtk_file_chooser_native_new (_ ("Export Audio"),
                                               GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                               GTK_FILE_CHOOSER_ACTION_SAVE, _ ("_Export"), NULL);
  name = self->call != NULL ? g_strdup_printf ("call-%u.wav", cs_call_get_number (self->call))
                            : g_strdup_printf ("stream-%u.wav", cs_stream_get_id (self->stream));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), name);
  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _ ("WAV or FLAC audio"));
  gtk_file_filter_add_suffix (filter, "wav");
  gtk_file_filter_add_suffix (filter, "flac");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  g_object_unref (filter);
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_export_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
on_options_changed (CsPlayerBar *self)
{
  if (self->call != NULL || self->stream != NULL)
    start_render (self);
}

static void
cs_player_bar_analysis_changed (CsView *view, CsAnalysis *old_analysis)
{
  CsPlayerBar *self = CS_PLAYER_BAR (view);

  g_clear_object (&self->call);
  g_clear_object (&self->stream);
  start_render (self);
  if (cs_view_get_selection (view) != NULL)
    on_selection_target_changed (self);
}

static void
cs_player_bar_selection_changed (CsView *view, CsSelection *old_selection)
{
  CsPlayerBar *self = CS_PLAYER_BAR (view);
  CsSelection *selection = cs_view_get_selection (view);

  if (old_selection != NULL)
    g_signal_handlers_disconnect_by_data (old_selection, self);
  if (selection == NULL)
    return;
  g_signal_connect_swapped (selection, "notify::call", G_CALLBACK (on_selection_target_changed),
                            self);
  g_signal_connect_swapped (selection, "notify::stream", G_CALLBACK (on_selection_target_changed),
                            self);
  g_signal_connect_swapped (selection, "notify::time-ns", G_CALLBACK (on_selection_time_changed),
                            self);
  on_selection_target_changed (self);
}

static void
on_calls_view_selected (GObject *calls_view, GParamSpec *pspec, CsPlayerBar *self)
{
  g_autoptr (CsCall) call = NULL;

  g_object_get (calls_view, "selected-call", &call, NULL);
  if (call == NULL || call == self->call)
    return;
  g_set_object (&self->call, call);
  g_clear_object (&self->stream);
  start_render (self);
}

void
cs_player_bar_follow_calls_view (CsPlayerBar *self, CsCallsView *calls_view)
{
  g_return_if_fail (CS_IS_PLAYER_BAR (self));

  if (self->calls_view == calls_view)
    return;
  /* The calls view may be finalized first: a weak pointer, and a handler that goes away
   * with either object. */
  if (self->calls_view != NULL)
    g_signal_handlers_disconnect_by_func (self->calls_view, on_calls_view_selected, self);
  g_set_weak_pointer (&self->calls_view, calls_view);
  if (calls_view != NULL)
    g_signal_connect_object (calls_view, "notify::selected-call",
                             G_CALLBACK (on_calls_view_selected), self, 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CALLS_VIEW]);
}

CsAudioPlayer *
cs_player_bar_get_player (CsPlayerBar *self)
{
  return self->player;
}

CsAudioRender *
cs_player_bar_get_render (CsPlayerBar *self)
{
  return self->render;
}

const char *
cs_player_bar_get_message (CsPlayerBar *self)
{
  return self->message;
}

static void
cs_player_bar_dispose (GObject *object)
{
  CsPlayerBar *self = CS_PLAYER_BAR (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (cs_view_get_selection (CS_VIEW (self)) != NULL)
    g_signal_handlers_disconnect_by_data (cs_view_get_selection (CS_VIEW (self)), self);
  if (self->calls_view != NULL)
    g_signal_handlers_disconnect_by_func (self->calls_view, on_calls_view_selected, self);
  g_clear_weak_pointer (&self->calls_view);
  if (self->player != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->player, self);
      cs_audio_player_stop (self->player);
    }
  g_clear_object (&self->player);
  g_clear_pointer (&self->render, cs_audio_render_unref);
  g_clear_object (&self->call);
  g_clear_object (&self->stream);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  gtk_widget_dispose_template (GTK_WIDGET (self), CS_TYPE_PLAYER_BAR);
  G_OBJECT_CLASS (cs_player_bar_parent_class)->dispose (object);
}

static void
cs_player_bar_finalize (GObject *object)
{
  g_free (CS_PLAYER_BAR (object)->message);
  G_OBJECT_CLASS (cs_player_bar_parent_class)->finalize (object);
}

static void
cs_player_bar_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  CsPlayerBar *self = CS_PLAYER_BAR (object);

  switch (prop_id)
    {
    case PROP_CALLS_VIEW:
      g_value_set_object (value, self->calls_view);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_player_bar_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  CsPlayerBar *self = CS_PLAYER_BAR (object);

  switch (prop_id)
    {
    case PROP_CALLS_VIEW:
      cs_player_bar_follow_calls_view (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_player_bar_class_init (CsPlayerBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cs_player_bar_dispose;
  object_class->get_property = cs_player_bar_get_property;
  object_class->set_property = cs_player_bar_set_property;
  CS_VIEW_CLASS (klass)->analysis_changed = cs_player_bar_analysis_changed;
  CS_VIEW_CLASS (klass)->selection_changed = cs_player_bar_selection_changed;
  properties[PROP_CALLS_VIEW]
      = g_param_spec_object ("calls-view", NULL, NULL, CS_TYPE_CALLS_VIEW,
                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  object_class->finalize = cs_player_bar_finalize;
  g_type_ensure (CS_TYPE_WAVEFORM_VIEW);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/callscope/Callscope/ui/cs-player-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, CsPlayerBar, box);
  gtk_widget_class_bind_template_child (widget_class, CsPlayerBar, play_button);
  gtk_widget_class_bind_template_child (widget_class, CsPlayerBar, stop_button);
  gtk_widget_class_bind_template_child (widget_class, CsPlayerBar, position_label);
  gtk_widget_class_bind_template_child (widget_class, CsPlayerBar, title_label);
  gtk_widget_class_bind_template_child (widget_class, CsPlayerBar, layout_dropdown);
  gtk_widget_class_bind_template_child (widget_class, CsPlayerBar, buffer_dropdown);
  gtk_widget_class_bind_template_child (widget_class, CsPlayerBar, volume_button);
  gtk_widget_class_bind_template_child (widget_class, CsPlayerBar, export_button);
  gtk_widget_class_bind_template_child (widget_class, CsPlayerBar, message_label);
  gtk_widget_class_bind_template_child (widget_class, CsPlayerBar, waveform);
  gtk_widget_class_bind_template_callback (widget_class, on_play_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_stop_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_export_clicked);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "playerbar");
}

static void
cs_player_bar_init (CsPlayerBar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->player = cs_audio_player_new ();
  g_signal_connect_swapped (self->player, "notify::position", G_CALLBACK (on_player_position),
                            self);
  g_signal_connect_swapped (self->player, "notify::state", G_CALLBACK (update_controls), self);
  g_signal_connect_swapped (self->player, "notify::duration", G_CALLBACK (update_position_label),
                            self);
  g_signal_connect_swapped (self->waveform, "seek", G_CALLBACK (on_waveform_seek), self);
  g_signal_connect_swapped (self->layout_dropdown, "notify::selected",
                            G_CALLBACK (on_options_changed), self);
  g_signal_connect_swapped (self->buffer_dropdown, "notify::selected",
                            G_CALLBACK (on_options_changed), self);
  g_object_bind_property (self->volume_button, "value", self->player, "volume",
                          G_BINDING_SYNC_CREATE);
  cs_waveform_view_set_placeholder (self->waveform, _ ("Select a call or a stream to hear it"));
}

GtkWidget *
cs_player_bar_new (void)
{
  return g_object_new (CS_TYPE_PLAYER_BAR, NULL);
}
