/* cs-ladder-pane.c — the workspace's ladder: toolbar (legs, time column, export) over the view */
#include "cs-ladder-pane.h"

#include <glib/gi18n.h>

#include "cs-ladder-render.h"
#include "cs-status-page.h"

struct _CsLadderPane
{
  CsView parent_instance;

  GtkStack *stack;
  GtkLabel *title_label;
  GtkLabel *legs_label; /* why each added leg is there; hidden without added legs */
  GtkToggleButton *related_button;
  GtkDropDown *time_dropdown;
  GtkScrolledWindow *scroller;
  CsLadderView *view;

  GPtrArray *chosen; /* CsCall* the user selected (before adding legs) */
  CsCallsView *calls_view;
  CsDetailPane *detail;
  GSettings *settings;
};

G_DEFINE_FINAL_TYPE (CsLadderPane, cs_ladder_pane, CS_TYPE_VIEW)

enum
{
  PROP_0,
  PROP_CALLS_VIEW,
  PROP_DETAIL_PANE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The time menu, in its order: the capture's clock (as graphs, waveform and player) first. */
static const struct
{
  CsLadderTimeMode mode;
  const char *name; /* "ladder-time-mode" */
} time_modes[] = {
  { CS_LADDER_TIME_CAPTURE, "capture" },
  { CS_LADDER_TIME_RELATIVE, "relative" },
  { CS_LADDER_TIME_DELTA, "delta" },
  { CS_LADDER_TIME_ABSOLUTE, "absolute" },
};

static void
update_title (CsLadderPane *self)
{
  const CsLadderLayout *layout = cs_ladder_view_get_layout (self->view);
  g_autofree char *title = NULL;

  if (layout == NULL)
    return;
  if (layout->calls->len == 1)
    {
      CsCall *call = g_ptr_array_index (layout->calls, 0);
      /* TRANSLATORS: ladder title: call number, From → To, number of messages */
      title = g_strdup_printf (_ ("Call %u · %s → %s · %u messages"), cs_call_get_number (call),
                               cs_call_get_from (call), cs_call_get_to (call),
                               cs_call_get_n_messages (call));
    }
  else
    {
      GString *numbers = g_string_new (NULL);
      for (guint i = 0; i < layout->calls->len; i++)
        g_string_append_printf (numbers, "%s%u", i > 0 ? ", " : "",
                                cs_call_get_number (g_ptr_array_index (layout->calls, i)));
      /* TRANSLATORS: ladder title when several calls are merged, e.g. "3 legs: calls 4, 5, 9" */
      title = g_strdup_printf (_ ("%u legs: calls %s"), layout->calls->len, numbers->str);
      g_string_free (numbers, TRUE);
    }
  gtk_label_set_text (self->title_label, title);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->title_label), title);
}

/* One line per added leg: "Leg 2 · call 5 — correlation-header: X-Call-ID: … names call 1's
 * Call-ID"; hidden when no leg was added. */
static void
show_leg_reasons (CsLadderPane *self, GPtrArray *calls, GHashTable *reasons)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; reasons != NULL && calls != NULL && i < calls->len; i++)
    {
      CsCall *call = g_ptr_array_index (calls, i);
      const char *why = g_hash_table_lookup (reasons, GUINT_TO_POINTER (cs_call_get_number (call)));
      g_autofree char *inert = why != NULL ? cs_text_inert_dup (why) : NULL;

      if (why == NULL)
        continue;
      if (text->len > 0)
        g_string_append_c (text, '\n');
      /* TRANSLATORS: why a leg is in the ladder: leg number, call number, the evidence */
      g_string_append_printf (text, _ ("Leg %u · call %u — %s"), i + 1, cs_call_get_number (call),
                              inert);
    }
  gtk_label_set_text (self->legs_label, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->legs_label), text->len > 0);
  g_string_free (text, TRUE);
}

const char *
cs_ladder_pane_get_leg_reasons (CsLadderPane *self)
{
  g_return_val_if_fail (CS_IS_LADDER_PANE (self), NULL);
  if (!gtk_widget_get_visible (GTK_WIDGET (self->legs_label)))
    return NULL;
  return gtk_label_get_text (self->legs_label);
}

static void
rebuild (CsLadderPane *self)
{
  CsAnalysis *analysis = cs_view_get_analysis (CS_VIEW (self));
  g_autoptr (GPtrArray) calls = NULL;
  g_autoptr (GHashTable) reasons = NULL;
  GListModel *streams = analysis != NULL ? cs_analysis_get_streams (analysis) : NULL;

  if (self->chosen == NULL || self->chosen->len == 0)
    {
      show_leg_reasons (self, NULL, NULL);
      cs_ladder_view_set_calls (self->view, NULL, 0, NULL);
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }
  if (self->chosen->len == 1 && gtk_toggle_button_get_active (self->related_button)
      && analysis != NULL)
    calls = cs_ladder_find_related_calls (cs_analysis_get_calls (analysis), streams,
                                          g_ptr_array_index (self->chosen, 0), &reasons);
  else
    calls = g_ptr_array_ref (self->chosen);
  cs_ladder_view_set_capture_start (
      self->view, analysis != NULL ? cs_analysis_get_stats (analysis)->first_ns : 0);
  cs_ladder_view_set_calls (self->view, (CsCall *const *) calls->pdata, calls->len, streams);
  show_leg_reasons (self, calls, reasons);
  update_title (self);
  gtk_stack_set_visible_child_name (self->stack, "ladder");
}

/* Signals */

static void
on_selected_row (CsLadderView *view, GParamSpec *pspec, CsLadderPane *self)
{
  if (self->detail != NULL)
    cs_detail_pane_set_message (self->detail, cs_ladder_view_get_selected_message (view));
}

static void
on_message_activated (CsLadderView *view, CsLadderPane *self)
{
  if (self->detail == NULL)
    return;
  cs_detail_pane_set_message (self->detail, cs_ladder_view_get_selected_message (view));
  cs_detail_pane_show_tab (self->detail, "message");
}

static void
on_time_mode (GtkDropDown *dropdown, GParamSpec *pspec, CsLadderPane *self)
{
  guint i = gtk_drop_down_get_selected (dropdown);

  if (i >= G_N_ELEMENTS (time_modes))
    return;
  cs_ladder_view_set_time_mode (self->view, time_modes[i].mode);
  if (self->settings != NULL)
    g_settings_set_string (self->settings, "ladder-time-mode", time_modes[i].name);
}

static void
on_related_toggled (GtkToggleButton *button, CsLadderPane *self)
{
  rebuild (self);
}

static void
on_calls_selection (CsCallsView *calls_view, GParamSpec *pspec, CsLadderPane *self)
{
  g_autoptr (GPtrArray) calls = cs_calls_view_dup_selected_calls (calls_view);

  cs_ladder_pane_set_calls (self, (CsCall *const *) calls->pdata, calls->len);
}

/* Export */

static void
on_export_response (GtkNativeDialog *dialog, int response, CsLadderPane *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;
      g_autoptr (GError) error = NULL;

      if (path != NULL && !cs_ladder_pane_export (self, path, &error))
        {
          /* TRANSLATORS: shown in the ladder's title bar; %s says why */
          g_autofree char *text
              = g_strdup_printf (_ ("Could not export the ladder: %s"), error->message);
          gtk_label_set_text (self->title_label, text);
        }
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
  g_object_unref (self);
}

static void
export_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  CsLadderPane *self = CS_LADDER_PANE (widget);
  const char *extension = g_variant_get_string (parameter, NULL);
  const CsLadderLayout *layout = cs_ladder_view_get_layout (self->view);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkFileChooserNative *chooser;
  g_autofree char *name = NULL;

  if (layout == NULL || layout->calls->len == 0)
    return;
  chooser = gtk_file_chooser_native_new (
      _ ("Export Ladder"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
      GTK_FILE_CHOOSER_ACTION_SAVE, _ ("_Export"), _ ("_Cancel"));
  name = g_strdup_printf ("call-%u-ladder.%s",
                          cs_call_get_number (g_ptr_array_index (layout->calls, 0)), extension);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_export_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* API */

GtkWidget *
cs_ladder_pane_new (void)
{
  return g_object_new (CS_TYPE_LADDER_PANE, NULL);
}

/* The calls shown belonged to the old analysis. */
static void
cs_ladder_pane_analysis_changed (CsView *view, CsAnalysis *old_analysis)
{
  cs_ladder_pane_set_calls (CS_LADDER_PANE (view), NULL, 0);
}

void
cs_ladder_pane_set_calls (CsLadderPane *self, CsCall *const *calls, guint n_calls)
{
  g_return_if_fail (CS_IS_LADDER_PANE (self));

  g_clear_pointer (&self->chosen, g_ptr_array_unref);
  self->chosen = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < n_calls; i++)
    g_ptr_array_add (self->chosen, g_object_ref (calls[i]));
  rebuild (self);
}

void
cs_ladder_pane_follow_calls_view (CsLadderPane *self, CsCallsView *calls_view)
{
  g_return_if_fail (CS_IS_LADDER_PANE (self));

  if (self->calls_view == calls_view)
    return;
  /* The calls view may be finalized first: a weak pointer, and a handler that goes away
   * with either object. */
  if (self->calls_view != NULL)
    g_signal_handlers_disconnect_by_func (self->calls_view, on_calls_selection, self);
  g_set_weak_pointer (&self->calls_view, calls_view);
  if (calls_view != NULL)
    g_signal_connect_object (calls_view, "notify::selected-call", G_CALLBACK (on_calls_selection),
                             self, 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CALLS_VIEW]);
}

void
cs_ladder_pane_set_detail_pane (CsLadderPane *self, CsDetailPane *detail)
{
  g_return_if_fail (CS_IS_LADDER_PANE (self));

  if (self->detail == detail)
    return;
  g_set_weak_pointer (&self->detail, detail);
  if (detail != NULL)
    cs_detail_pane_set_message (detail, cs_ladder_view_get_selected_message (self->view));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DETAIL_PANE]);
}

void
cs_ladder_pane_set_settings (CsLadderPane *self, GSettings *settings)
{
  g_autofree char *mode = NULL;

  g_return_if_fail (CS_IS_LADDER_PANE (self));

  if (!g_set_object (&self->settings, settings) || settings == NULL)
    return;
  mode = g_settings_get_string (settings, "ladder-time-mode");
  for (guint i = 0; i < G_N_ELEMENTS (time_modes); i++)
    if (g_strcmp0 (mode, time_modes[i].name) == 0)
      gtk_drop_down_set_selected (self->time_dropdown, i);
}

CsLadderView *
cs_ladder_pane_get_view (CsLadderPane *self)
{
  g_return_val_if_fail (CS_IS_LADDER_PANE (self), NULL);
  return self->view;
}

gboolean
cs_ladder_pane_export (CsLadderPane *self, const char *path, GError **error)
{
  const CsLadderLayout *layout = cs_ladder_view_get_layout (self->view);
  CsLadderFormat format;

  g_return_val_if_fail (CS_IS_LADDER_PANE (self), FALSE);

  if (layout == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _ ("No call is shown"));
      return FALSE;
    }
  if (!cs_ladder_format_from_path (path, &format))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _ ("Use a file name ending in .png, .svg, .pdf or .txt"));
      return FALSE;
    }
  return cs_ladder_export (layout, cs_ladder_view_get_time_mode (self->view), path, format, error);
}

/* GObject */

static void
cs_ladder_pane_dispose (GObject *object)
{
  CsLadderPane *self = CS_LADDER_PANE (object);

  if (self->calls_view != NULL)
    g_signal_handlers_disconnect_by_func (self->calls_view, on_calls_selection, self);
  g_clear_weak_pointer (&self->calls_view);
  g_clear_weak_pointer (&self->detail);
  gtk_widget_dispose_template (GTK_WIDGET (self), CS_TYPE_LADDER_PANE);
  g_clear_pointer (&self->chosen, g_ptr_array_unref);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (cs_ladder_pane_parent_class)->dispose (object);
}

static void
cs_ladder_pane_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  CsLadderPane *self = CS_LADDER_PANE (object);

  switch (prop_id)
    {
    case PROP_CALLS_VIEW:
      g_value_set_object (value, self->calls_view);
      break;
    case PROP_DETAIL_PANE:
      g_value_set_object (value, self->detail);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_ladder_pane_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  CsLadderPane *self = CS_LADDER_PANE (object);

  switch (prop_id)
    {
    case PROP_CALLS_VIEW:
      cs_ladder_pane_follow_calls_view (self, g_value_get_object (value));
      break;
    case PROP_DETAIL_PANE:
      cs_ladder_pane_set_detail_pane (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_ladder_pane_class_init (CsLadderPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cs_ladder_pane_dispose;
  object_class->get_property = cs_ladder_pane_get_property;
  object_class->set_property = cs_ladder_pane_set_property;
  CS_VIEW_CLASS (klass)->analysis_changed = cs_ladder_pane_analysis_changed;
  properties[PROP_CALLS_VIEW]
      = g_param_spec_object ("calls-view", NULL, NULL, CS_TYPE_CALLS_VIEW,
                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DETAIL_PANE]
      = g_param_spec_object ("detail-pane", NULL, NULL, CS_TYPE_DETAIL_PANE,
                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_type_ensure (CS_TYPE_STATUS_PAGE);
  g_type_ensure (CS_TYPE_LADDER_VIEW);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/callscope/Callscope/ui/cs-ladder-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, CsLadderPane, stack);
  gtk_widget_class_bind_template_child (widget_class, CsLadderPane, title_label);
  gtk_widget_class_bind_template_child (widget_class, CsLadderPane, related_button);
  gtk_widget_class_bind_template_child (widget_class, CsLadderPane, legs_label);
  gtk_widget_class_bind_template_child (widget_class, CsLadderPane, time_dropdown);
  gtk_widget_class_bind_template_child (widget_class, CsLadderPane, scroller);
  gtk_widget_class_bind_template_child (widget_class, CsLadderPane, view);
  gtk_widget_class_install_action (widget_class, "ladder.export", "s", export_activated);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
cs_ladder_pane_init (CsLadderPane *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_drop_down_set_selected (self->time_dropdown, CS_LADDER_TIME_RELATIVE);
  g_signal_connect (self->view, "notify::selected-row", G_CALLBACK (on_selected_row), self);
  g_signal_connect (self->view, "message-activated", G_CALLBACK (on_message_activated), self);
  g_signal_connect (self->time_dropdown, "notify::selected", G_CALLBACK (on_time_mode), self);
  g_signal_connect (self->related_button, "toggled", G_CALLBACK (on_related_toggled), self);
}
