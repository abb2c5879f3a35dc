/* cs-graph-view.c — the quality pane: graphs of the selected call's streams and its MOS table */
#include "cs-graph-view.h"

#include <glib/gi18n.h>
#include <math.h>

#define CS_GRAPH_EXPORT_WIDTH 1200
#define CS_GRAPH_EXPORT_HEIGHT 420
#define CS_GRAPH_FINDING_SPAN_S 20.0

struct _CsGraphView
{
  GtkWidget parent_instance;

  /* Template children */
  GtkStack *pages;
  GtkWidget *kind_box;
  GtkToggleButton *kind_buttons[CS_GRAPH_N_KINDS];
  char *subtitle; /* "Call 5 · stream 4", shown in the graph's heading */
  GtkStack *graph_stack;
  GtkLabel *empty_title;
  GtkLabel *empty_description;
  CsGraphCanvas *canvas;
  CsMosTable *mos_table;

  GPtrArray *streams; /* CsStream shown, series order */
  CsGraphKind kind;
  gint64 origin_ns;
};

G_DEFINE_FINAL_TYPE (CsGraphView, cs_graph_view, CS_TYPE_VIEW)

GtkWidget *
cs_graph_view_new (void)
{
  return g_object_new (CS_TYPE_GRAPH_VIEW, NULL);
}

static CsStream *
lookup_stream (CsGraphView *self, guint id)
{
  CsAnalysis *analysis = cs_view_get_analysis (CS_VIEW (self));

  return analysis != NULL ? cs_analysis_lookup_stream (analysis, id) : NULL;
}

static CsCall *
lookup_call (CsGraphView *self, guint number)
{
  CsAnalysis *analysis = cs_view_get_analysis (CS_VIEW (self));

  return analysis != NULL ? cs_analysis_lookup_call (analysis, number) : NULL;
}

/* The frame's packet of a stream (packets are in frame order); NULL when absent. */
static const CsRtpPacket *
find_packet (CsStream *stream, guint32 frame)
{
  const GArray *packets = cs_stream_get_packets (stream);
  guint lo = 0, hi = packets->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      guint32 f = g_array_index (packets, CsRtpPacket, mid).frame;

      if (f == frame)
        return &g_array_index (packets, CsRtpPacket, mid);
      if (f < frame)
        lo = mid + 1;
      else
        hi = mid;
    }
  return NULL;
}

/* Graph */

static void
add_finding_markers (CsGraphView *self, CsGraph *graph)
{
  CsAnalysis *analysis = cs_view_get_analysis (CS_VIEW (self));
  GListModel *findings;

  if (analysis == NULL)
    return;
  findings = cs_analysis_get_findings (analysis);
  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr (CsFinding) finding = g_list_model_get_item (findings, i);
      const GArray *frames = cs_finding_get_frames (finding);

      if (cs_finding_get_stream_id (finding) != 0 && frames != NULL && frames->len > 0)
        cs_graph_add_finding_marker (graph, cs_finding_get_stream_id (finding),
                                     g_array_index (frames, guint32, 0));
    }
}

/* DTMF digits of the calls the streams belong to: RFC 4733 digits on their stream's series,
 * SIP INFO digits on the first series. */
static void
add_dtmf_markers (CsGraphView *self, CsGraph *graph)
{
  g_autoptr (GPtrArray) calls = g_ptr_array_new ();

  for (guint i = 0; i < self->streams->len; i++)
    {
      CsCall *call
          = lookup_call (self, cs_stream_get_call_number (g_ptr_array_index (self->streams, i)));
      const GArray *digits;

      if (call == NULL || g_ptr_array_find (calls, call, NULL))
        continue;
      g_ptr_array_add (calls, call);
      digits = cs_call_get_dtmf (call);
      for (guint d = 0; digits != NULL && d < digits->len; d++)
        {
          const CsCallDtmf *dtmf = &g_array_index (digits, CsCallDtmf, d);
          guint32 frame = dtmf->frames != NULL && dtmf->frames->len > 0
                              ? g_array_index (dtmf->frames, guint32, 0)
                              : 0;

          cs_graph_add_dtmf_marker (graph, dtmf->stream_id,
                                    (double) (dtmf->start_ns - self->origin_ns) / 1e9, frame,
                                    dtmf->digit);
        }
    }
}

static void
update_cursor (CsGraphView *self)
{
  CsSelection *selection = cs_view_get_selection (CS_VIEW (self));
  gint64 time_ns = selection != NULL ? cs_selection_get_time_ns (selection) : 0;

  if (time_ns == 0 || self->streams->len == 0)
    cs_graph_canvas_set_cursor (self->canvas, NAN);
  else
    cs_graph_canvas_set_cursor (self->canvas, (double) (time_ns - self->origin_ns) / 1e9);
}

static const char *
kind_heading (CsGraphKind kind)
{
  switch (kind)
    {
    case CS_GRAPH_KIND_JITTER:
      return _ ("Jitter (ms)");
    case CS_GRAPH_KIND_DELTA:
      return _ ("Delta (ms)");
    case CS_GRAPH_KIND_SKEW:
      return _ ("Skew (ms)");
    case CS_GRAPH_KIND_MOS:
      return _ ("MOS (5 s windows)");
    case CS_GRAPH_KIND_BITRATE:
    default:
      return _ ("Bitrate (kbit/s)");
    }
}

static void
update_title (CsGraphView *self)
{
  g_autofree char *title = NULL;

  if (self->subtitle != NULL && *self->subtitle != '\0')
    /* TRANSLATORS: graph heading: what is drawn, then which call/stream */
    title = g_strdup_printf (_ ("%s — %s"), kind_heading (self->kind), self->subtitle);
  else
    title = g_strdup (kind_heading (self->kind));
  cs_graph_canvas_set_title (self->canvas, title);
}

static void
rebuild_graph (CsGraphView *self, gboolean keep_time_range)
{
  CsJitterBufferConfig jb;
  CsGraph *graph;

  if (self->streams->len == 0)
    {
      cs_graph_canvas_set_graph (self->canvas, NULL, FALSE);
      gtk_stack_set_visible_child_name (self->graph_stack, "empty");
      return;
    }
  cs_jitter_buffer_config_init_default (&jb);
  jb.delay_ms = cs_mos_table_get_jitter_buffer_ms (self->mos_table);
  graph = cs_graph_new (self->kind, self->origin_ns);
  for (guint i = 0; i < self->streams->len; i++)
    cs_graph_add_stream (graph, g_ptr_array_index (self->streams, i), &jb);
  add_finding_markers (self, graph);
  add_dtmf_markers (self, graph);
  update_title (self);
  cs_graph_canvas_set_graph (self->canvas, graph, keep_time_range);
  update_cursor (self);
  gtk_stack_set_visible_child_name (self->graph_stack, "graph");
}

static gboolean
same_streams (CsGraphView *self, GPtrArray *streams)
{
  if (streams->len != self->streams->len)
    return FALSE;
  for (guint i = 0; i < streams->len; i++)
    if (g_ptr_array_index (streams, i) != g_ptr_array_index (self->streams, i))
      return FALSE;
  return TRUE;
}

static void
show_streams (CsGraphView *self, GPtrArray *streams, const char *subtitle)
{
  g_free (self->subtitle);
  self->subtitle = g_strdup (subtitle);
  if (same_streams (self, streams))
    return;
  g_ptr_array_set_size (self->streams, 0);
  for (guint i = 0; i < streams->len; i++)
    g_ptr_array_add (self->streams, g_object_ref (g_ptr_array_index (streams, i)));
  cs_mos_table_set_streams (self->mos_table, (CsStream *const *) self->streams->pdata,
                            self->streams->len);
  rebuild_graph (self, FALSE);
}

static void
add_call_streams (CsGraphView *self, CsCall *call, GPtrArray *out)
{
  const GArray *ids = cs_call_get_stream_ids (call);

  for (guint i = 0; ids != NULL && i < ids->len; i++)
    {
      CsStream *stream = lookup_stream (self, g_array_index (ids, guint, i));
      if (stream != NULL)
        g_ptr_array_add (out, stream);
    }
}

static void
update_from_selection (CsGraphView *self)
{
  CsSelection *selection = cs_view_get_selection (CS_VIEW (self));
  CsStream *stream = selection != NULL ? cs_selection_get_stream (selection) : NULL;
  CsCall *call = selection != NULL ? cs_selection_get_call (selection) : NULL;
  g_autoptr (GPtrArray) streams = g_ptr_array_new ();
  g_autofree char *subtitle = NULL;

  if (stream != NULL)
    {
      CsCall *owner = lookup_call (self, cs_stream_get_call_number (stream));

      /* Both directions of the stream's call, overlaid. */
      if (owner != NULL)
        add_call_streams (self, owner, streams);
      if (!g_ptr_array_find (streams, stream, NULL))
        g_ptr_array_add (streams, stream);
      subtitle
          = owner != NULL
                ? g_strdup_printf (_ ("Call %u · stream %u"), cs_call_get_number (owner),
                                   cs_stream_get_id (stream))
                : g_strdup_printf (_ ("Stream %u, not in any call"), cs_stream_get_id (stream));
    }
  else if (call != NULL)
    {
      add_call_streams (self, call, streams);
      subtitle
          = g_strdup_printf (ngettext ("Call %u · %u stream", "Call %u · %u streams", streams->len),
                             cs_call_get_number (call), streams->len);
      if (streams->len == 0)
        {
          gtk_label_set_text (self->empty_title, _ ("No media in this call"));
          gtk_label_set_text (self->empty_description,
                              _ ("No RTP stream was found for this call's SDP."));
        }
    }
  if (streams->len == 0 && call == NULL)
    {
      gtk_label_set_text (self->empty_title, _ ("No stream selected"));
      gtk_label_set_text (self->empty_description,
                          _ ("Select a call or a stream to see its jitter, delta, skew, MOS and "
                             "bitrate over time."));
    }
  show_streams (self, streams, subtitle);
}

static void
on_selection_changed (CsSelection *selection, GParamSpec *pspec, CsGraphView *self)
{
  update_from_selection (self);
}

static void
on_selection_cursor_changed (CsSelection *selection, GParamSpec *pspec, CsGraphView *self)
{
  update_cursor (self);
}

static void
on_point_activated (CsGraphCanvas *canvas, guint series_index, guint point_index, CsGraphView *self)
{
  const CsGraph *graph = cs_graph_canvas_get_graph (canvas);
  CsSelection *selection = cs_view_get_selection (CS_VIEW (self));
  const CsGraphSeries *series;
  const CsGraphPoint *point;
  const CsRtpPacket *packet;
  CsStream *stream;
  gint64 time_ns;

  if (graph == NULL || series_index >= self->streams->len)
    return;
  series = cs_graph_get_series (graph, series_index);
  point = &g_array_index (series->points, CsGraphPoint, point_index);
  stream = g_ptr_array_index (self->streams, series_index);
  if (point->frame == 0)
    return; /* an empty bitrate bin: no packet to show */
  packet = find_packet (stream, point->frame);
  time_ns
      = packet != NULL ? packet->arrival_ns : self->origin_ns + (gint64) llround (point->t_s * 1e9);
  if (selection != NULL)
    {
      CsCall *call = lookup_call (self, cs_stream_get_call_number (stream));
      cs_selection_select (selection, call != NULL ? call : cs_selection_get_call (selection),
                           stream, point->frame, time_ns);
    }
}

/* Kind buttons */

static void
sync_kind_buttons (CsGraphView *self)
{
  for (guint i = 0; i < CS_GRAPH_N_KINDS; i++)
    gtk_toggle_button_set_active (self->kind_buttons[i], i == (guint) self->kind);
}

void
cs_graph_view_set_kind (CsGraphView *self, CsGraphKind kind)
{
  g_return_if_fail (CS_IS_GRAPH_VIEW (self));
  g_return_if_fail ((guint) kind < CS_GRAPH_N_KINDS);

  if (self->kind == kind)
    return;
  self->kind = kind;
  sync_kind_buttons (self);
  rebuild_graph (self, TRUE);
}

CsGraphKind
cs_graph_view_get_kind (CsGraphView *self)
{
  g_return_val_if_fail (CS_IS_GRAPH_VIEW (self), CS_GRAPH_KIND_JITTER);
  return self->kind;
}

static void
on_kind_toggled (GtkToggleButton *button, CsGraphView *self)
{
  if (!gtk_toggle_button_get_active (button))
    return;
  for (guint i = 0; i < CS_GRAPH_N_KINDS; i++)
    if (self->kind_buttons[i] == button)
      cs_graph_view_set_kind (self, (CsGraphKind) i);
}

static void
on_jitter_buffer_changed (CsMosTable *table, GParamSpec *pspec, CsGraphView *self)
{
  /* Only the MOS graph depends on the buffer. */
  if (self->kind == CS_GRAPH_KIND_MOS)
    rebuild_graph (self, TRUE);
}

/* Findings */

void
cs_graph_view_show_finding (CsGraphView *self, CsFinding *finding)
{
  const GArray *frames;
  CsStream *stream;
  const CsRtpPacket *packet;

  g_return_if_fail (CS_IS_GRAPH_VIEW (self));
  g_return_if_fail (CS_IS_FINDING (finding));

  stream = lookup_stream (self, cs_finding_get_stream_id (finding));
  frames = cs_finding_get_frames (finding);
  if (stream == NULL || frames == NULL || frames->len == 0)
    return;
  switch (cs_finding_get_kind (finding))
    {
    case CS_FINDING_HIGH_JITTER:
      cs_graph_view_set_kind (self, CS_GRAPH_KIND_JITTER);
      break;
    case CS_FINDING_DELTA_SPIKE:
    case CS_FINDING_LOSS_BURST:
    case CS_FINDING_SEQUENCE_ERRORS:
      /* Gaps show as delta spikes, right above their loss markers. */
      cs_graph_view_set_kind (self, CS_GRAPH_KIND_DELTA);
      break;
    case CS_FINDING_ONE_WAY_AUDIO:
    case CS_FINDING_NO_MEDIA:
      cs_graph_view_set_kind (self, CS_GRAPH_KIND_BITRATE);
      break;
    default:
      break;
    }
  gtk_stack_set_visible_child_name (self->pages, "graphs");
  packet = find_packet (stream, g_array_index (frames, guint32, 0));
  if (cs_view_get_selection (CS_VIEW (self)) != NULL)
    cs_selection_select (cs_view_get_selection (CS_VIEW (self)),
                         lookup_call (self, cs_stream_get_call_number (stream)), stream,
                         g_array_index (frames, guint32, 0),
                         packet != NULL ? packet->arrival_ns : 0);
  else
    {
      g_autoptr (GPtrArray) one = g_ptr_array_new ();
      g_ptr_array_add (one, stream);
      show_streams (self, one, NULL);
    }
  if (packet != NULL)
    {
      double t = (double) (packet->arrival_ns - self->origin_ns) / 1e9;
      cs_graph_canvas_set_visible_range (self->canvas, t - CS_GRAPH_FINDING_SPAN_S / 2,
                                         t + CS_GRAPH_FINDING_SPAN_S / 2);
      cs_graph_canvas_set_cursor (self->canvas, t);
    }
}

/* Export */

gboolean
cs_graph_view_export (CsGraphView *self, const char *path, GError **error)
{
  const CsGraph *graph = cs_graph_canvas_get_graph (self->canvas);
  CsGraphRenderOptions options;

  g_return_val_if_fail (CS_IS_GRAPH_VIEW (self), FALSE);

  if (graph == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _ ("No graph to export"));
      return FALSE;
    }
  cs_graph_render_options_init (&options, graph, CS_GRAPH_EXPORT_WIDTH, CS_GRAPH_EXPORT_HEIGHT);
  cs_graph_canvas_get_viewport (self->canvas, &options.viewport);
  options.cursor_t = cs_graph_canvas_get_cursor (self->canvas);
  return cs_graph_render_to_file (graph, &options, NULL, path, error);
}

static void
on_export_response (GtkNativeDialog *dialog, int response, CsGraphView *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;
      g_autoptr (GError) error = NULL;

      if (path != NULL && !cs_graph_view_export (self, path, &error))
        {
          GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
          GtkWidget *message = gtk_message_dialog_new (
              GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, GTK_DIALOG_MODAL, GTK_MESSAGE_ERROR,
              GTK_BUTTONS_CLOSE, _ ("Could not export the graph"));

          gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (message), "%s",
                                                    error->message);
          g_signal_connect (message, "response", G_CALLBACK (gtk_window_destroy), NULL);
          gtk_window_present (GTK_WINDOW (message));
        }
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
  g_object_unref (self);
}

static void
export_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  CsGraphView *self = CS_GRAPH_VIEW (widget);
  const char *format = g_variant_get_string (parameter, NULL);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkFileChooserNative *chooser;
  g_autofree char *name = NULL;

  if (cs_graph_canvas_get_graph (self->canvas) == NULL)
    return;
  chooser = gtk_file_chooser_native_new (
      _ ("Export Graph"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
      GTK_FILE_CHOOSER_ACTION_SAVE, _ ("_Export"), _ ("_Cancel"));
  name = self->streams->len > 0
             ? g_strdup_printf ("stream-%u-%s.%s",
                                cs_stream_get_id (g_ptr_array_index (self->streams, 0)),
                                cs_graph_kind_to_string (self->kind), format)
             : g_strdup_printf ("graph.%s", format);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_export_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
zoom_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  CsGraphView *self = CS_GRAPH_VIEW (widget);

  if (g_str_equal (action_name, "graph.zoom-in"))
    cs_graph_canvas_zoom (self->canvas, 2.0);
  else if (g_str_equal (action_name, "graph.zoom-out"))
    cs_graph_canvas_zoom (self->canvas, 0.5);
  else
    cs_graph_canvas_reset_zoom (self->canvas);
}

/* API */

static void
cs_graph_view_analysis_changed (CsView *view, CsAnalysis *old_analysis)
{
  CsGraphView *self = CS_GRAPH_VIEW (view);
  CsAnalysis *analysis = cs_view_get_analysis (view);
  g_autoptr (GPtrArray) none = g_ptr_array_new ();

  show_streams (self, none, NULL);
  self->origin_ns = analysis != NULL ? cs_analysis_get_stats (analysis)->first_ns : 0;
  update_from_selection (self);
}

static void
cs_graph_view_selection_changed (CsView *view, CsSelection *old_selection)
{
  CsGraphView *self = CS_GRAPH_VIEW (view);
  CsSelection *selection = cs_view_get_selection (view);

  if (old_selection != NULL)
    g_signal_handlers_disconnect_by_data (old_selection, self);
  if (selection != NULL)
    {
      g_signal_connect (selection, "notify::call", G_CALLBACK (on_selection_changed), self);
      g_signal_connect (selection, "notify::stream", G_CALLBACK (on_selection_changed), self);
      g_signal_connect (selection, "notify::time-ns", G_CALLBACK (on_selection_cursor_changed),
                        self);
    }
  update_from_selection (self);
}

const CsGraph *
cs_graph_view_get_graph (CsGraphView *self)
{
  g_return_val_if_fail (CS_IS_GRAPH_VIEW (self), NULL);
  return cs_graph_canvas_get_graph (self->canvas);
}

guint
cs_graph_view_get_n_streams (CsGraphView *self)
{
  g_return_val_if_fail (CS_IS_GRAPH_VIEW (self), 0);
  return self->streams->len;
}

CsStream *
cs_graph_view_get_stream (CsGraphView *self, guint index)
{
  g_return_val_if_fail (CS_IS_GRAPH_VIEW (self), NULL);
  g_return_val_if_fail (index < self->streams->len, NULL);
  return g_ptr_array_index (self->streams, index);
}

CsGraphCanvas *
cs_graph_view_get_canvas (CsGraphView *self)
{
  return self->canvas;
}

CsMosTable *
cs_graph_view_get_mos_table (CsGraphView *self)
{
  return self->mos_table;
}

/* GObject */

static void
cs_graph_view_dispose (GObject *object)
{
  CsGraphView *self = CS_GRAPH_VIEW (object);

  if (cs_view_get_selection (CS_VIEW (self)) != NULL)
    g_signal_handlers_disconnect_by_data (cs_view_get_selection (CS_VIEW (self)), self);
  gtk_widget_dispose_template (GTK_WIDGET (self), CS_TYPE_GRAPH_VIEW);
  /* The template's root box has no id, so dispose_template leaves it. */
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  g_clear_pointer (&self->streams, g_ptr_array_unref);
  g_clear_pointer (&self->subtitle, g_free);
  G_OBJECT_CLASS (cs_graph_view_parent_class)->dispose (object);
}

static void
cs_graph_view_class_init (CsGraphViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cs_graph_view_dispose;
  CS_VIEW_CLASS (klass)->analysis_changed = cs_graph_view_analysis_changed;
  CS_VIEW_CLASS (klass)->selection_changed = cs_graph_view_selection_changed;

  g_type_ensure (CS_TYPE_GRAPH_CANVAS);
  g_type_ensure (CS_TYPE_MOS_TABLE);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/callscope/Callscope/ui/cs-graph-view.ui");
  gtk_widget_class_bind_template_child (widget_class, CsGraphView, pages);
  gtk_widget_class_bind_template_child (widget_class, CsGraphView, kind_box);
  gtk_widget_class_bind_template_child_full (widget_class, "jitter_button", FALSE,
                                             G_STRUCT_OFFSET (CsGraphView, kind_buttons[0]));
  gtk_widget_class_bind_template_child_full (widget_class, "delta_button", FALSE,
                                             G_STRUCT_OFFSET (CsGraphView, kind_buttons[1]));
  gtk_widget_class_bind_template_child_full (widget_class, "skew_button", FALSE,
                                             G_STRUCT_OFFSET (CsGraphView, kind_buttons[2]));
  gtk_widget_class_bind_template_child_full (widget_class, "mos_button", FALSE,
                                             G_STRUCT_OFFSET (CsGraphView, kind_buttons[3]));
  gtk_widget_class_bind_template_child_full (widget_class, "bitrate_button", FALSE,
                                             G_STRUCT_OFFSET (CsGraphView, kind_buttons[4]));
  gtk_widget_class_bind_template_child (widget_class, CsGraphView, graph_stack);
  gtk_widget_class_bind_template_child (widget_class, CsGraphView, empty_title);
  gtk_widget_class_bind_template_child (widget_class, CsGraphView, empty_description);
  gtk_widget_class_bind_template_child (widget_class, CsGraphView, canvas);
  gtk_widget_class_bind_template_child (widget_class, CsGraphView, mos_table);
  gtk_widget_class_bind_template_callback (widget_class, on_kind_toggled);
  gtk_widget_class_install_action (widget_class, "graph.export", "s", export_activated);
  gtk_widget_class_install_action (widget_class, "graph.zoom-in", NULL, zoom_activated);
  gtk_widget_class_install_action (widget_class, "graph.zoom-out", NULL, zoom_activated);
  gtk_widget_class_install_action (widget_class, "graph.zoom-reset", NULL, zoom_activated);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
cs_graph_view_init (CsGraphView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->streams = g_ptr_array_new_with_free_func (g_object_unref);
  self->kind = CS_GRAPH_KIND_JITTER;
  sync_kind_buttons (self);
  g_signal_connect (self->canvas, "point-activated", G_CALLBACK (on_point_activated), self);
  g_signal_connect (self->mos_table, "notify::jitter-buffer-ms",
                    G_CALLBACK (on_jitter_buffer_changed), self);
}
