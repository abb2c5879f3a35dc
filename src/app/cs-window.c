/* cs-window.c — the main window: template, properties, states, title and status, settings,
 * drag and drop */
#include "cs-window-private.h"

#include <glib/gi18n.h>

#include "cs-display-format.h"

G_DEFINE_FINAL_TYPE (CsWindow, cs_window, GTK_TYPE_APPLICATION_WINDOW)

static GParamSpec *properties[CS_WINDOW_N_PROPS];

void
cs_window_notify (CsWindow *self, CsWindowProperty property)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[property]);
}

CsWindow *
cs_window_new (CsApplication *application)
{
  return g_object_new (CS_TYPE_WINDOW, "application", application, NULL);
}

/* States */

CsWindowState
cs_window_get_state (CsWindow *self)
{
  g_return_val_if_fail (CS_IS_WINDOW (self), CS_WINDOW_STATE_EMPTY);
  return self->state;
}

gboolean
cs_window_is_empty (CsWindow *self)
{
  g_return_val_if_fail (CS_IS_WINDOW (self), FALSE);
  return self->state == CS_WINDOW_STATE_EMPTY;
}

void
cs_window_set_state (CsWindow *self, CsWindowState state)
{
  gboolean has_capture = state == CS_WINDOW_STATE_LOADING || state == CS_WINDOW_STATE_LOADED;

  self->state = state;
  switch (state)
    {
    case CS_WINDOW_STATE_EMPTY:
      gtk_stack_set_visible_child_name (self->main_stack, "empty");
      break;
    case CS_WINDOW_STATE_ERROR:
      gtk_stack_set_visible_child_name (self->main_stack, "error");
      break;
    case CS_WINDOW_STATE_LOADING:
    case CS_WINDOW_STATE_LOADED:
      gtk_stack_set_visible_child_name (self->main_stack, "analysis");
      break;
    default:
      g_assert_not_reached ();
    }
  gtk_widget_set_visible (self->statusbar, has_capture);
  gtk_widget_set_visible (self->load_box, state == CS_WINDOW_STATE_LOADING);
  gtk_widget_set_sensitive (GTK_WIDGET (self->search_entry), has_capture);
  if (!has_capture)
    gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  if (!has_capture)
    gtk_revealer_set_reveal_child (self->damage_revealer, FALSE);
  cs_calls_view_set_loading (self->calls_view, state == CS_WINDOW_STATE_LOADING);
  cs_window_actions_update (self);
  cs_window_update_title (self);
  cs_window_update_status (self);
}

void
cs_window_show_error (CsWindow *self, const char *title, const char *detail)
{
  g_free (self->error_message);
  self->error_message = g_strdup_printf ("%s\n%s", title, detail != NULL ? detail : "");
  cs_status_page_set_title (self->error_page, title);
  cs_status_page_set_description (self->error_page, detail);
  cs_window_set_state (self, CS_WINDOW_STATE_ERROR);
}

/* "42 calls", and " · 7 other SIP exchanges" when there are any: calls are INVITE
 * dialogs, as in the Summary page and the reports */
static char *
dup_call_counts (CsWindow *self)
{
  guint calls = self->analysis != NULL ? cs_analysis_get_n_calls (self->analysis) : 0;
  guint others = self->analysis != NULL ? cs_analysis_get_n_other_exchanges (self->analysis) : 0;
  char *text = g_strdup_printf (ngettext ("%u call", "%u calls", calls), calls);

  if (others > 0)
    {
      char *with_others = g_strdup_printf (
          /* TRANSLATORS: "42 calls · 7 other SIP exchanges" (REGISTER, OPTIONS…) */
          ngettext ("%s · %u other SIP exchange", "%s · %u other SIP exchanges", others), text,
          others);

      g_free (text);
      text = with_others;
    }
  return text;
}

static char *
dup_capture_name (CsWindow *self)
{
  g_autofree char *first = NULL;

  if (self->analysis != NULL)
    {
      char *title = cs_analysis_dup_title (self->analysis);
      if (title != NULL && *title != '\0')
        return title;
      g_free (title);
    }
  if (self->files == NULL || self->files->len == 0)
    return NULL;
  first = g_file_get_basename (g_ptr_array_index (self->files, 0));
  if (self->files->len == 1)
    return g_filename_display_name (first);
  {
    g_autofree char *display = g_filename_display_name (first);
    guint more = self->files->len - 1;
    /* TRANSLATORS: several files open at once, e.g. "a.pcap + 2 more" */
    return g_strdup_printf (ngettext ("%s + %u more", "%s + %u more", more), display, more);
  }
}

void
cs_window_update_title (CsWindow *self)
{
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;

  if (self->state == CS_WINDOW_STATE_LOADING || self->state == CS_WINDOW_STATE_LOADED)
    name = dup_capture_name (self);
  if (name != NULL)
    {
      g_autofree char *counts = dup_call_counts (self);
      /* TRANSLATORS: window title, e.g. "office.pcapng — 42 calls" */
      title = g_strdup_printf (_ ("%s — %s"), name, counts);
    }
  else
    title = g_strdup (_ ("Callscope"));
  gtk_label_set_text (self->title_label, title);
  gtk_window_set_title (GTK_WINDOW (self), title);
}

void
cs_window_update_status (CsWindow *self)
{
  guint64 packets = 0;
  g_autofree char *packets_text = NULL;
  g_autofree char *text = NULL;
  g_autofree char *counts = dup_call_counts (self);

  if (self->state == CS_WINDOW_STATE_LOADED && self->analysis != NULL)
    packets = cs_analysis_get_stats (self->analysis)->packets;
  else if (self->loader != NULL)
    packets = cs_loader_get_packets (self->loader);
  packets_text = cs_display_format_count (packets);
  /* TRANSLATORS: status bar, e.g. "1,204,112 packets · 42 calls" */
  text = g_strdup_printf (_ ("%s packets · %s"), packets_text, counts);
  if (self->state == CS_WINDOW_STATE_LOADED && self->analysis != NULL)
    {
      guint streams = g_list_model_get_n_items (cs_analysis_get_streams (self->analysis));
      guint findings = g_list_model_get_n_items (cs_analysis_get_findings (self->analysis));
      g_autofree char *streams_text
          = g_strdup_printf (ngettext ("%u stream", "%u streams", streams), streams);
      g_autofree char *findings_text
          = g_strdup_printf (ngettext ("%u finding", "%u findings", findings), findings);
      char *full = g_strdup_printf ("%s · %s · %s", text, streams_text, findings_text);

      g_free (text);
      text = full;
    }
  gtk_label_set_text (self->status_label, text);
}

/* Test accessors */

GListModel *
cs_window_get_calls_model (CsWindow *self)
{
  g_return_val_if_fail (CS_IS_WINDOW (self), NULL);
  return cs_calls_view_get_shown_model (self->calls_view);
}

const char *
cs_window_get_error_message (CsWindow *self)
{
  g_return_val_if_fail (CS_IS_WINDOW (self), NULL);
  return self->error_message;
}

const char *
cs_window_get_title_text (CsWindow *self)
{
  g_return_val_if_fail (CS_IS_WINDOW (self), NULL);
  return gtk_label_get_text (self->title_label);
}

/* Drag and drop */

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, CsWindow *self)
{
  GSList *list;
  g_autoptr (GPtrArray) files = g_ptr_array_new ();

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  list = g_value_get_boxed (value);
  for (GSList *l = list; l != NULL; l = l->next)
    g_ptr_array_add (files, l->data);
  if (files->len == 0)
    return FALSE;
  cs_window_open_files (self, (GFile **) files->pdata, files->len);
  return TRUE;
}

/* Search */

static void
on_search_changed (GtkSearchEntry *entry, CsWindow *self)
{
  cs_calls_view_set_filter_text (self->calls_view, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
on_stop_search (GtkSearchEntry *entry, CsWindow *self)
{
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  gtk_widget_grab_focus (GTK_WIDGET (self->calls_view));
}

/* Pages */

/* An activated finding scopes the Packets page to its frames, the first one selected (the
 * findings page stays, with the ladder and graphs following the finding below it). */
static void
on_finding_opened (CsFindingsView *view, CsFinding *finding, CsWindow *self)
{
  cs_packets_view_show_finding (self->packets_view, finding);
}

/* Summary, Load and Packets are about the whole capture: they get the whole height, without
 * the workspace of one call below them (cs-window-layout.c). */
static void
on_view_page_changed (GtkStack *stack, GParamSpec *pspec, CsWindow *self)
{
  cs_window_layout_apply (self);
}

/* Settings */

static void
restore_settings (CsWindow *self)
{
  if (self->settings == NULL)
    return;
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
  cs_calls_view_set_settings (self->calls_view, self->settings);
  cs_ladder_pane_set_settings (self->ladder_pane, self->settings);
  cs_window_layout_restore (self);
  cs_window_panes_init (self);
}

static gboolean
cs_window_close_request (GtkWindow *window)
{
  CsWindow *self = CS_WINDOW (window);

  cs_window_cancel_load (self);
  if (self->settings != NULL)
    {
      int width = 0, height = 0;
      gboolean maximized = gtk_window_is_maximized (window);

      /* The default size is the unmaximized size GTK keeps for us. */
      gtk_window_get_default_size (window, &width, &height);
      g_settings_delay (self->settings);
      if (width > 0 && height > 0)
        {
          g_settings_set_int (self->settings, "window-width", MAX (width, 360));
          g_settings_set_int (self->settings, "window-height", MAX (height, 360));
        }
      g_settings_set_boolean (self->settings, "window-maximized", maximized);
      cs_window_panes_save (self);
      cs_window_layout_save (self);
      g_settings_apply (self->settings);
    }
  return GTK_WINDOW_CLASS (cs_window_parent_class)->close_request (window);
}

/* Recent files menu */

static void
on_recent_items_changed (GMenuModel *recent, guint position, guint removed, guint added,
                         CsWindow *self)
{
  /* "From Homer…" is always there: the button stays sensitive */
  gtk_widget_set_sensitive (GTK_WIDGET (self->recent_button), TRUE);
}

static void
setup_recent_menu (CsWindow *self, CsApplication *application)
{
  GMenuModel *recent = cs_application_get_recent_menu (application);
  g_autoptr (GMenu) menu = g_menu_new ();
  g_autoptr (GMenu) clear_section = g_menu_new ();
  g_autoptr (GMenu) homer_section = g_menu_new ();

  g_menu_append (homer_section, _ ("From _Homer…"), "win.open-homer");
  g_menu_append (homer_section, _ ("Capture _Points…"), "win.open-points");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (homer_section));
  g_menu_append_section (menu, NULL, recent);
  g_menu_append (clear_section, _ ("_Clear Recent Files"), "app.clear-recent");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (clear_section));
  gtk_menu_button_set_menu_model (self->recent_button, G_MENU_MODEL (menu));
  g_signal_connect_object (recent, "items-changed", G_CALLBACK (on_recent_items_changed), self, 0);
  on_recent_items_changed (recent, 0, 0, 0, self);
}

/* GObject */

/* "application" is set after construction (it is not a construct property),
 * so settings and the recent menu are attached when it arrives. */
static void
on_application_changed (CsWindow *self, GParamSpec *pspec, gpointer user_data)
{
  GtkApplication *application = gtk_window_get_application (GTK_WINDOW (self));
  GSettings *settings;

  if (!CS_IS_APPLICATION (application) || self->attached_to_application)
    return;
  self->attached_to_application = TRUE;
  settings = cs_application_get_settings (CS_APPLICATION (application));
  if (settings != NULL)
    self->settings = g_object_ref (settings);
  setup_recent_menu (self, CS_APPLICATION (application));
  restore_settings (self);
}

static void
cs_window_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  CsWindow *self = CS_WINDOW (object);

  switch (prop_id)
    {
    case CS_WINDOW_PROP_ANALYSIS:
      g_value_set_object (value, self->analysis);
      break;
    case CS_WINDOW_PROP_LOADED_ANALYSIS:
      g_value_set_object (value, self->analysis_loaded ? self->analysis : NULL);
      break;
    case CS_WINDOW_PROP_SELECTION:
      g_value_set_object (value, self->selection);
      break;
    case CS_WINDOW_PROP_LIVE_PAUSED:
      g_value_set_boolean (value, self->live_paused);
      break;
    case CS_WINDOW_PROP_CALL_FOCUSED:
    case CS_WINDOW_PROP_LADDER_MAXIMIZED:
    case CS_WINDOW_PROP_DETAIL_VISIBLE:
    case CS_WINDOW_PROP_GRAPHS_VISIBLE:
      g_value_set_boolean (value, cs_window_layout_get (self, prop_id));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_window_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  CsWindow *self = CS_WINDOW (object);

  switch (prop_id)
    {
    case CS_WINDOW_PROP_LIVE_PAUSED:
      cs_window_live_set_paused (self, g_value_get_boolean (value));
      break;
    case CS_WINDOW_PROP_CALL_FOCUSED:
    case CS_WINDOW_PROP_LADDER_MAXIMIZED:
    case CS_WINDOW_PROP_DETAIL_VISIBLE:
    case CS_WINDOW_PROP_GRAPHS_VISIBLE:
      cs_window_layout_set (self, prop_id, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_window_dispose (GObject *object)
{
  CsWindow *self = CS_WINDOW (object);

  cs_window_selection_dispose (self);
  cs_window_panes_dispose (self);
  cs_window_forget_capture (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), CS_TYPE_WINDOW);
  g_clear_object (&self->settings);
  g_clear_object (&self->selection);
  G_OBJECT_CLASS (cs_window_parent_class)->dispose (object);
}

static void
cs_window_finalize (GObject *object)
{
  CsWindow *self = CS_WINDOW (object);

  g_clear_pointer (&self->files, g_ptr_array_unref);
  g_free (self->error_message);
  G_OBJECT_CLASS (cs_window_parent_class)->finalize (object);
}

static void
cs_window_class_init (CsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = cs_window_dispose;
  object_class->finalize = cs_window_finalize;
  object_class->get_property = cs_window_get_property;
  object_class->set_property = cs_window_set_property;
  window_class->close_request = cs_window_close_request;

  properties[CS_WINDOW_PROP_ANALYSIS]
      = g_param_spec_object ("analysis", NULL, NULL, CS_TYPE_ANALYSIS,
                             G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[CS_WINDOW_PROP_LOADED_ANALYSIS]
      = g_param_spec_object ("loaded-analysis", NULL, NULL, CS_TYPE_ANALYSIS,
                             G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[CS_WINDOW_PROP_SELECTION]
      = g_param_spec_object ("selection", NULL, NULL, CS_TYPE_SELECTION,
                             G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[CS_WINDOW_PROP_LIVE_PAUSED]
      = g_param_spec_boolean ("live-paused", NULL, NULL, FALSE,
                              G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  for (guint i = CS_WINDOW_PROP_CALL_FOCUSED; i <= CS_WINDOW_PROP_GRAPHS_VISIBLE; i++)
    properties[i] = cs_window_layout_param_spec (i);
  g_object_class_install_properties (object_class, CS_WINDOW_N_PROPS, properties);

  g_type_ensure (CS_TYPE_STATUS_PAGE);
  g_type_ensure (CS_TYPE_CALLS_VIEW);
  g_type_ensure (CS_TYPE_SUMMARY_VIEW);
  g_type_ensure (CS_TYPE_LOAD_VIEW);
  g_type_ensure (CS_TYPE_STREAMS_VIEW);
  g_type_ensure (CS_TYPE_FINDINGS_VIEW);
  g_type_ensure (CS_TYPE_PACKETS_VIEW);
  g_type_ensure (CS_TYPE_GRAPH_VIEW);
  g_type_ensure (CS_TYPE_LADDER_PANE);
  g_type_ensure (CS_TYPE_DETAIL_PANE);
  g_type_ensure (CS_TYPE_PLAYER_BAR);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/callscope/Callscope/ui/cs-window.ui");
  gtk_widget_class_bind_template_child (widget_class, CsWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, recent_button);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, damage_revealer);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, damage_label);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, error_page);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, view_stack);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, calls_view);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, summary_view);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, load_view);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, streams_view);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, findings_view);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, packets_view);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, graph_view);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, player_bar);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, ladder_pane);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, detail_pane);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, list_paned);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, detail_paned);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, workspace_paned);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, quality_strip);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, page_switcher);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, back_button);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, layout_buttons);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, statusbar);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, load_box);
  gtk_widget_class_bind_template_child (widget_class, CsWindow, load_progress);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_stop_search);
  gtk_widget_class_bind_template_callback (widget_class, on_view_page_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_finding_opened);
  gtk_widget_class_bind_template_callback (widget_class, cs_graph_view_show_finding);
  cs_window_actions_class_init (widget_class);
  cs_window_frames_class_init (widget_class);
  cs_window_live_class_init (widget_class);
  cs_window_layout_class_init (widget_class);
}

static void
cs_window_init (CsWindow *self)
{
  GtkDropTarget *drop_target;

  /* Before the template: its views bind to "selection" as they are built. */
  self->selection = cs_selection_new ();
  self->detail_visible = TRUE;
  self->graphs_visible = TRUE;
  gtk_widget_init_template (GTK_WIDGET (self));
  cs_window_selection_init (self);

  cs_window_actions_init (self);
  drop_target = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop_target, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop_target));

  g_signal_connect (self, "notify::application", G_CALLBACK (on_application_changed), NULL);
  cs_window_live_init (self);
  cs_window_set_state (self, CS_WINDOW_STATE_EMPTY);
  cs_window_layout_apply (self);
}
