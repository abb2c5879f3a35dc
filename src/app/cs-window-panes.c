/* cs-window-panes.c — the window's dividers, remembered as fractions of the room they split so
 * that they hold at any window size */
#include "cs-window-private.h"

static const struct
{
  const char *key;
  gsize offset;
} panes[] = {
  { "list-pane-fraction", G_STRUCT_OFFSET (CsWindow, list_paned) },
  { "detail-pane-fraction", G_STRUCT_OFFSET (CsWindow, detail_paned) },
  { "workspace-pane-fraction", G_STRUCT_OFFSET (CsWindow, workspace_paned) },
};

#define RESTORED_KEY "cs-pane-restored"

static GtkPaned *
paned_at (CsWindow *self, guint i)
{
  return G_STRUCT_MEMBER (GtkPaned *, self, panes[i].offset);
}

int
cs_window_paned_room (GtkPaned *paned)
{
  GtkOrientation orientation = gtk_orientable_get_orientation (GTK_ORIENTABLE (paned));
  GtkWidget *widget = GTK_WIDGET (paned);
  int total = orientation == GTK_ORIENTATION_HORIZONTAL ? gtk_widget_get_width (widget)
                                                        : gtk_widget_get_height (widget);
  int handle = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (child != gtk_paned_get_start_child (paned) && child != gtk_paned_get_end_child (paned))
      gtk_widget_measure (child, orientation, -1, &handle, NULL, NULL, NULL);
  return total - handle;
}

static gboolean
restore_pane (CsWindow *self, guint i)
{
  GtkPaned *paned = paned_at (self, i);
  int room = cs_window_paned_room (paned);
  double fraction;

  if (self->settings == NULL || g_object_get_data (G_OBJECT (paned), RESTORED_KEY) != NULL
      || room <= 0)
    return FALSE;
  fraction = g_settings_get_double (self->settings, panes[i].key);
  g_object_set_data (G_OBJECT (paned), RESTORED_KEY, GINT_TO_POINTER (TRUE));
  gtk_paned_set_position (paned, (int) (fraction * room + 0.5));
  return TRUE;
}

/* One divider a frame, outer first: an inner paned's room follows from the outer position only
 * once the frame has laid the window out again (the room an outer divider gives or takes goes
 * to the ladder, not proportionally). */
static gboolean
restore_next_pane (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  CsWindow *self = data;

  for (guint i = 0; i < G_N_ELEMENTS (panes); i++)
    if (restore_pane (self, i))
      return G_SOURCE_CONTINUE;
  self->restore_panes_id = 0;
  return G_SOURCE_REMOVE;
}

/* A paned knows its size once allocated (its max-position changes then); positions are set
 * after the allocation, from the next frame, rather than in the middle of it. */
static void
on_paned_allocated (GtkPaned *paned, GParamSpec *pspec, CsWindow *self)
{
  if (self->restore_panes_id == 0 && g_object_get_data (G_OBJECT (paned), RESTORED_KEY) == NULL)
    self->restore_panes_id
        = gtk_widget_add_tick_callback (GTK_WIDGET (self), restore_next_pane, self, NULL);
}

void
cs_window_panes_init (CsWindow *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (panes); i++)
    g_signal_connect (paned_at (self, i), "notify::max-position", G_CALLBACK (on_paned_allocated),
                      self);
}

void
cs_window_panes_save (CsWindow *self)
{
  if (self->settings == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (panes); i++)
    {
      GtkPaned *paned = paned_at (self, i);
      int room = cs_window_paned_room (paned);

      /* Never shown (no capture opened), hidden (Summary, Load) or one side hidden (list
       * collapsed, graphs or detail pane hidden, ladder maximised): nothing to learn. */
      if (g_object_get_data (G_OBJECT (paned), RESTORED_KEY) == NULL || room <= 0
          || !gtk_widget_get_mapped (GTK_WIDGET (paned))
          || !gtk_widget_get_visible (gtk_paned_get_start_child (paned))
          || !gtk_widget_get_visible (gtk_paned_get_end_child (paned)))
        continue;
      g_settings_set_double (self->settings, panes[i].key,
                             CLAMP ((double) gtk_paned_get_position (paned) / room, 0.05, 0.95));
    }
}

void
cs_window_panes_dispose (CsWindow *self)
{
  if (self->restore_panes_id != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->restore_panes_id);
  self->restore_panes_id = 0;
}
