/* cs-window-layout.c — who gets the room: the list above the workspace collapses to the page
 * strip when a call is opened (win.call-focused), the ladder can take the whole window
 * (win.ladder-maximized), the detail pane and the quality strip can be hidden
 * (win.detail-visible, win.graphs-visible); the last three are remembered */
#include "cs-window-private.h"

static const struct
{
  CsWindowProperty property;
  const char *name;
  const char *key; /* GSettings key, or NULL when not remembered */
} layout_properties[] = {
  { CS_WINDOW_PROP_CALL_FOCUSED, "call-focused", NULL },
  { CS_WINDOW_PROP_LADDER_MAXIMIZED, "ladder-maximized", "ladder-maximized" },
  { CS_WINDOW_PROP_DETAIL_VISIBLE, "detail-visible", "detail-pane-visible" },
  { CS_WINDOW_PROP_GRAPHS_VISIBLE, "graphs-visible", "graphs-visible" },
};

static gboolean *
layout_field (CsWindow *self, CsWindowProperty property)
{
  switch (property)
    {
    case CS_WINDOW_PROP_CALL_FOCUSED:
      return &self->call_focused;
    case CS_WINDOW_PROP_LADDER_MAXIMIZED:
      return &self->ladder_maximized;
    case CS_WINDOW_PROP_DETAIL_VISIBLE:
      return &self->detail_visible;
    case CS_WINDOW_PROP_GRAPHS_VISIBLE:
      return &self->graphs_visible;
    default:
      g_assert_not_reached ();
    }
}

static gboolean
page_is_per_call (CsWindow *self)
{
  const char *name = gtk_stack_get_visible_child_name (self->view_stack);

  /* Summary, Load and Packets are about the whole capture: no workspace of one call below. */
  return g_strcmp0 (name, "summary") != 0 && g_strcmp0 (name, "load") != 0
         && g_strcmp0 (name, "packets") != 0;
}

void
cs_window_layout_apply (CsWindow *self)
{
  gboolean per_call = page_is_per_call (self);
  gboolean maximized = per_call && self->ladder_maximized;
  gboolean list_shown = !per_call || (!self->call_focused && !maximized);

  gtk_widget_set_visible (GTK_WIDGET (self->view_stack), list_shown);
  gtk_widget_set_visible (GTK_WIDGET (self->detail_paned), per_call);
  gtk_widget_set_visible (GTK_WIDGET (self->detail_pane), self->detail_visible && !maximized);
  gtk_widget_set_visible (self->quality_strip, self->graphs_visible && !maximized);
  gtk_widget_set_visible (self->back_button, !list_shown);
  gtk_widget_set_visible (GTK_WIDGET (self->page_switcher), !maximized);
  gtk_widget_set_visible (self->layout_buttons, per_call);
}

gboolean
cs_window_layout_get (CsWindow *self, CsWindowProperty property)
{
  return *layout_field (self, property);
}

void
cs_window_layout_set (CsWindow *self, CsWindowProperty property, gboolean value)
{
  gboolean *field = layout_field (self, property);

  value = !!value;
  if (*field == value)
    return;
  *field = value;
  /* Back to the list also leaves the maximised ladder. */
  if (property == CS_WINDOW_PROP_CALL_FOCUSED && !value && self->ladder_maximized)
    {
      self->ladder_maximized = FALSE;
      cs_window_notify (self, CS_WINDOW_PROP_LADDER_MAXIMIZED);
    }
  cs_window_layout_apply (self);
  cs_window_notify (self, property);
}

void
cs_window_layout_restore (CsWindow *self)
{
  if (self->settings == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (layout_properties); i++)
    if (layout_properties[i].key != NULL)
      cs_window_layout_set (self, layout_properties[i].property,
                            g_settings_get_boolean (self->settings, layout_properties[i].key));
}

void
cs_window_layout_save (CsWindow *self)
{
  if (self->settings == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (layout_properties); i++)
    if (layout_properties[i].key != NULL)
      g_settings_set_boolean (self->settings, layout_properties[i].key,
                              *layout_field (self, layout_properties[i].property));
}

GParamSpec *
cs_window_layout_param_spec (CsWindowProperty property)
{
  for (guint i = 0; i < G_N_ELEMENTS (layout_properties); i++)
    if (layout_properties[i].property == property)
      return g_param_spec_boolean (
          layout_properties[i].name, NULL, NULL,
          property != CS_WINDOW_PROP_CALL_FOCUSED && property != CS_WINDOW_PROP_LADDER_MAXIMIZED,
          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_assert_not_reached ();
}

/* Another call, one row up or down the list as shown: works with the list collapsed. */
static void
step_call_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  CsWindow *self = CS_WINDOW (widget);
  GtkSelectionModel *selection = cs_calls_view_get_selection (self->calls_view);
  GListModel *shown = cs_window_get_calls_model (self);
  guint n = g_list_model_get_n_items (shown);
  int direction = g_str_has_suffix (action_name, "previous-call") ? -1 : 1;
  g_autoptr (GtkBitset) selected = gtk_selection_model_get_selection (selection);
  gint64 position;

  if (n == 0)
    return;
  if (gtk_bitset_is_empty (selected))
    position = direction > 0 ? 0 : (gint64) n - 1;
  else
    position = (gint64) (direction > 0 ? gtk_bitset_get_maximum (selected)
                                       : gtk_bitset_get_minimum (selected))
               + direction;
  if (position < 0 || position >= n)
    return;
  gtk_selection_model_select_item (selection, (guint) position, TRUE);
  cs_calls_view_scroll_to (self->calls_view, (guint) position);
}

static void
open_call_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  CsWindow *self = CS_WINDOW (widget);

  if (cs_calls_view_get_selected_call (self->calls_view) != NULL)
    cs_window_layout_set (self, CS_WINDOW_PROP_CALL_FOCUSED, TRUE);
}

static void
back_to_list_activated (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  cs_window_layout_set (CS_WINDOW (widget), CS_WINDOW_PROP_CALL_FOCUSED, FALSE);
}

void
cs_window_layout_class_init (GtkWidgetClass *widget_class)
{
  for (guint i = 0; i < G_N_ELEMENTS (layout_properties); i++)
    {
      g_autofree char *action = g_strconcat ("win.", layout_properties[i].name, NULL);
      gtk_widget_class_install_property_action (widget_class, action, layout_properties[i].name);
    }
  gtk_widget_class_install_action (widget_class, "win.open-call", NULL, open_call_activated);
  gtk_widget_class_install_action (widget_class, "win.back-to-list", NULL, back_to_list_activated);
  gtk_widget_class_install_action (widget_class, "win.previous-call", NULL, step_call_activated);
  gtk_widget_class_install_action (widget_class, "win.next-call", NULL, step_call_activated);
}
