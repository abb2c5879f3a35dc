/* cs-capture-dialog.c — the Capture dialog: interface or HEP, and their options */
#include "cs-capture-dialog.h"

#include <glib/gi18n.h>

#include "callscope-engine.h"

struct _CsCaptureDialog
{
  GtkWindow parent_instance;

  GtkStack *mode_stack;
  GtkDropDown *interface_dropdown;
  GtkEntry *filter_entry;
  GtkSwitch *promiscuous_switch;
  GtkSpinButton *snaplen_spin;
  GtkEntry *hep_address_entry;
  GtkPasswordEntry *hep_key_entry;
  GtkLabel *error_label;
  GtkWidget *start_button;

  GPtrArray *interfaces; /* CsLiveInterface*, in the dropdown's order */
};

enum
{
  SIGNAL_START,
  N_SIGNALS
};
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (CsCaptureDialog, cs_capture_dialog, GTK_TYPE_WINDOW)

static void
on_start_clicked (CsCaptureDialog *self)
{
  CsCaptureRequest request = { 0 };
  guint selected = gtk_drop_down_get_selected (self->interface_dropdown);

  request.mode = g_strcmp0 (gtk_stack_get_visible_child_name (self->mode_stack), "hep") == 0
                     ? CS_CAPTURE_MODE_HEP
                     : CS_CAPTURE_MODE_INTERFACE;
  if (self->interfaces != NULL && selected < self->interfaces->len)
    request.interface = ((CsLiveInterface *) g_ptr_array_index (self->interfaces, selected))->name;
  request.filter = gtk_editable_get_text (GTK_EDITABLE (self->filter_entry));
  request.promiscuous = gtk_switch_get_active (self->promiscuous_switch);
  request.snaplen = (guint) gtk_spin_button_get_value_as_int (self->snaplen_spin);
  request.hep_address = gtk_editable_get_text (GTK_EDITABLE (self->hep_address_entry));
  request.hep_key = gtk_editable_get_text (GTK_EDITABLE (self->hep_key_entry));
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
  if (request.mode == CS_CAPTURE_MODE_INTERFACE && request.interface == NULL)
    {
      cs_capture_dialog_show_error (self, _ ("No capture interface is available."));
      return;
    }
  g_signal_emit (self, signals[SIGNAL_START], 0, &request);
}

void
cs_capture_dialog_show_error (CsCaptureDialog *self, const char *message)
{
  gtk_label_set_text (self->error_label, message);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
}

/* "lo — 127.0.0.1, ::1", the loopback and down interfaces last. */
static void
fill_interfaces (CsCaptureDialog *self)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GtkStringList) names = gtk_string_list_new (NULL);
  guint preferred = 0;
  gboolean have_preferred = FALSE;

  self->interfaces = cs_live_pcap_list_interfaces (&error);
  if (self->interfaces == NULL)
    {
      cs_capture_dialog_show_error (self, error->message);
      return;
    }
  for (guint i = 0; i < self->interfaces->len; i++)
    {
      CsLiveInterface *iface = g_ptr_array_index (self->interfaces, i);
      g_autofree char *label = NULL;

      if (*iface->addresses != '\0')
        label = g_strdup_printf ("%s — %s", iface->name, iface->addresses);
      else if (iface->description != NULL)
        label = g_strdup_printf ("%s — %s", iface->name, iface->description);
      else
        label = g_strdup (iface->name);
      if (!iface->up)
        {
          g_autofree char *down = g_strdup_printf (_ ("%s (down)"), label);

          g_free (label);
          label = g_steal_pointer (&down);
        }
      gtk_string_list_append (names, label);
      /* The first interface that is up and has an address is the likely choice. */
      if (!have_preferred && iface->up && *iface->addresses != '\0' && !iface->loopback)
        {
          preferred = i;
          have_preferred = TRUE;
        }
    }
  gtk_drop_down_set_model (self->interface_dropdown, G_LIST_MODEL (names));
  gtk_drop_down_set_selected (self->interface_dropdown, preferred);
}

static void
cs_capture_dialog_dispose (GObject *object)
{
  CsCaptureDialog *self = CS_CAPTURE_DIALOG (object);

  g_clear_pointer (&self->interfaces, g_ptr_array_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), CS_TYPE_CAPTURE_DIALOG);
  G_OBJECT_CLASS (cs_capture_dialog_parent_class)->dispose (object);
}

static void
cs_capture_dialog_class_init (CsCaptureDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = cs_capture_dialog_dispose;
  signals[SIGNAL_START] = g_signal_new ("start", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                        NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/callscope/Callscope/ui/cs-capture-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, CsCaptureDialog, mode_stack);
  gtk_widget_class_bind_template_child (widget_class, CsCaptureDialog, interface_dropdown);
  gtk_widget_class_bind_template_child (widget_class, CsCaptureDialog, filter_entry);
  gtk_widget_class_bind_template_child (widget_class, CsCaptureDialog, promiscuous_switch);
  gtk_widget_class_bind_template_child (widget_class, CsCaptureDialog, snaplen_spin);
  gtk_widget_class_bind_template_child (widget_class, CsCaptureDialog, hep_address_entry);
  gtk_widget_class_bind_template_child (widget_class, CsCaptureDialog, hep_key_entry);
  gtk_widget_class_bind_template_child (widget_class, CsCaptureDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, CsCaptureDialog, start_button);
  gtk_widget_class_bind_template_callback (widget_class, on_start_clicked);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
cs_capture_dialog_init (CsCaptureDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_window_set_default_widget (GTK_WINDOW (self), self->start_button);
  fill_interfaces (self);
}

CsCaptureDialog *
cs_capture_dialog_new (GtkWindow *parent, CsCaptureMode mode)
{
  CsCaptureDialog *self = g_object_new (CS_TYPE_CAPTURE_DIALOG, "transient-for", parent, "title",
                                        _ ("Live capture"), NULL);

  gtk_stack_set_visible_child_name (self->mode_stack,
                                    mode == CS_CAPTURE_MODE_HEP ? "hep" : "interface");
  return self;
}
