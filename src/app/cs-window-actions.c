/* cs-window-actions.c — the window's actions (win.open, win.export, win.cancel-load,
 * win.focus-search, win.hide-damage, win.play-pause), installed on the class; their
 * accelerators are the application's (cs-application.c), Space is the window's own */
#include "cs-window-private.h"

#include <glib/gi18n.h>

#include "cs-export-dialog.h"
#include "cs-homer-dialog.h"

/* Open */

static void
on_file_chooser_response (GtkNativeDialog *dialog, int response, CsWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));
      g_autoptr (GPtrArray) array = g_ptr_array_new_with_free_func (g_object_unref);

      const char *points = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (dialog), "points");

      for (guint i = 0; i < g_list_model_get_n_items (files); i++)
        g_ptr_array_add (array, g_list_model_get_item (files, i));
      if (array->len > 0 && g_strcmp0 (points, "true") == 0)
        cs_window_open_points (self, (GFile **) array->pdata, array->len);
      else if (array->len > 0)
        cs_window_open_files (self, (GFile **) array->pdata, array->len);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
add_capture_filters (GtkFileChooser *chooser)
{
  g_autoptr (GtkFileFilter) captures = gtk_file_filter_new ();
  g_autoptr (GtkFileFilter) all = gtk_file_filter_new ();

  gtk_file_filter_set_name (captures, _ ("Packet captures (pcap, pcapng)"));
  gtk_file_filter_add_mime_type (captures, "application/vnd.tcpdump.pcap");
  gtk_file_filter_add_mime_type (captures, "application/x-pcapng");
  gtk_file_filter_add_suffix (captures, "pcap");
  gtk_file_filter_add_suffix (captures, "pcapng");
  gtk_file_filter_add_suffix (captures, "cap");
  gtk_file_filter_add_suffix (captures, "dmp");
  gtk_file_chooser_add_filter (chooser, captures);

  gtk_file_filter_set_name (all, _ ("All files"));
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (chooser, all);
  gtk_file_chooser_set_filter (chooser, captures);
}

/* Open (several files as parts of one capture) and Open Capture Points (several files taken at
 * different places of one network): one chooser, its check box says which. */
static void
show_open_chooser (CsWindow *self, const char *title, gboolean points)
{
  GtkFileChooserNative *chooser = gtk_file_chooser_native_new (
      title, GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN, _ ("_Open"), _ ("_Cancel"));

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), TRUE);
  add_capture_filters (GTK_FILE_CHOOSER (chooser));
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (chooser), "points",
                               _ ("Files are capture points of one network (align their clocks)"),
                               NULL, NULL);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (chooser), "points", points ? "true" : "false");
  g_signal_connect (chooser, "response", G_CALLBACK (on_file_chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
open_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  show_open_chooser (CS_WINDOW (widget), _ ("Open Captures"), FALSE);
}

static void
open_points_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  show_open_chooser (CS_WINDOW (widget), _ ("Open Capture Points"), TRUE);
}

static void
on_homer_opened (CsHomerDialog *dialog, GFile *file, CsWindow *self)
{
  cs_window_open_files (self, &file, 1);
}

static void
open_homer_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  CsHomerDialog *dialog = cs_homer_dialog_new (GTK_WINDOW (widget));

  g_signal_connect_object (dialog, "opened", G_CALLBACK (on_homer_opened), widget, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The others */

static void
cancel_load_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  cs_window_cancel_load (CS_WINDOW (widget));
}

static void
focus_search_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  CsWindow *self = CS_WINDOW (widget);

  gtk_stack_set_visible_child_name (self->view_stack, "calls");
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

static void
hide_damage_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  gtk_revealer_set_reveal_child (CS_WINDOW (widget)->damage_revealer, FALSE);
}

/* File → Export: reports, data and trimmed captures (cs-export-dialog.c). */
static void
export_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  CsWindow *self = CS_WINDOW (widget);
  g_autoptr (GPtrArray) selected = cs_calls_view_dup_selected_calls (self->calls_view);

  if (self->analysis != NULL)
    gtk_window_present (
        GTK_WINDOW (cs_export_dialog_new (GTK_WINDOW (self), self->analysis, selected)));
}

static void
play_pause_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  cs_player_bar_toggle_play (CS_WINDOW (widget)->player_bar);
}

/* Space plays and pauses anywhere but where it types a space. */
static gboolean
on_space (GtkWidget *widget, GVariant *args, gpointer user_data)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (widget));

  if (focus != NULL && (GTK_IS_EDITABLE (focus) || GTK_IS_TEXT_VIEW (focus)))
    return FALSE;
  return gtk_widget_activate_action (widget, "win.play-pause", NULL);
}

void
cs_window_actions_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_activated);
  gtk_widget_class_install_action (widget_class, "win.open-homer", NULL, open_homer_activated);
  gtk_widget_class_install_action (widget_class, "win.open-points", NULL, open_points_activated);
  gtk_widget_class_install_action (widget_class, "win.export", NULL, export_activated);
  gtk_widget_class_install_action (widget_class, "win.cancel-load", NULL, cancel_load_activated);
  gtk_widget_class_install_action (widget_class, "win.focus-search", NULL, focus_search_activated);
  gtk_widget_class_install_action (widget_class, "win.hide-damage", NULL, hide_damage_activated);
  gtk_widget_class_install_action (widget_class, "win.play-pause", NULL, play_pause_activated);
}

void
cs_window_actions_init (CsWindow *self)
{
  GtkEventController *controller = gtk_shortcut_controller_new ();

  /* Capture phase: before the focused list row or button takes Space for itself. */
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  gtk_shortcut_controller_add_shortcut (
      GTK_SHORTCUT_CONTROLLER (controller),
      gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_space, 0),
                        gtk_callback_action_new (on_space, NULL, NULL)));
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}

void
cs_window_actions_update (CsWindow *self)
{
  gboolean has_capture
      = self->state == CS_WINDOW_STATE_LOADING || self->state == CS_WINDOW_STATE_LOADED;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-load",
                                 self->state == CS_WINDOW_STATE_LOADING);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.focus-search", has_capture);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export",
                                 self->state == CS_WINDOW_STATE_LOADED);
}
