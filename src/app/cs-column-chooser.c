/* cs-column-chooser.c — which columns of a GtkColumnView are shown, as a menu, saved in GSettings
 */
#include "cs-column-chooser.h"

#include <string.h>

struct _CsColumnChooser
{
  GObject parent_instance;

  GtkColumnView *view; /* not owned: the chooser lives as long as its view's owner */
  GSimpleActionGroup *actions;
  GMenu *menu;
  GSettings *settings;
  char *key;
  gboolean restoring;
};

G_DEFINE_FINAL_TYPE (CsColumnChooser, cs_column_chooser, G_TYPE_OBJECT)

void
cs_column_chooser_set_column_id (GtkColumnViewColumn *column, const char *id)
{
  g_object_set_data_full (G_OBJECT (column), "cs-column-id", g_strdup (id), g_free);
}

const char *
cs_column_chooser_get_column_id (GtkColumnViewColumn *column)
{
  return g_object_get_data (G_OBJECT (column), "cs-column-id");
}

static GtkColumnViewColumn *
find_column (CsColumnChooser *self, const char *id)
{
  GListModel *columns = gtk_column_view_get_columns (self->view);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      if (g_strcmp0 (cs_column_chooser_get_column_id (column), id) == 0)
        return column; /* the view keeps its reference */
    }
  return NULL;
}

GStrv
cs_column_chooser_dup_visible_ids (CsColumnChooser *self)
{
  GListModel *columns = gtk_column_view_get_columns (self->view);
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      const char *id = cs_column_chooser_get_column_id (column);
      if (id != NULL && gtk_column_view_column_get_visible (column))
        g_strv_builder_add (builder, id);
    }
  return g_strv_builder_end (builder);
}

static void
save (CsColumnChooser *self)
{
  g_auto (GStrv) ids = NULL;

  if (self->settings == NULL || self->restoring)
    return;
  ids = cs_column_chooser_dup_visible_ids (self);
  g_settings_set_strv (self->settings, self->key, (const char *const *) ids);
}

/* GTK 4.8 counts the fixed width of hidden columns in the view's minimum width, so that
 * expanding columns never get the room left over: a hidden column keeps no fixed width and
 * gets it back when shown again. */
static void
set_column_visible (GtkColumnViewColumn *column, gboolean visible)
{
  int width = gtk_column_view_column_get_fixed_width (column);

  if (visible == gtk_column_view_column_get_visible (column))
    return;
  if (!visible)
    {
      g_object_set_data (G_OBJECT (column), "cs-column-width", GINT_TO_POINTER (width));
      gtk_column_view_column_set_fixed_width (column, -1);
    }
  else if (g_object_get_data (G_OBJECT (column), "cs-column-width") != NULL)
    gtk_column_view_column_set_fixed_width (
        column, GPOINTER_TO_INT (g_object_get_data (G_OBJECT (column), "cs-column-width")));
  gtk_column_view_column_set_visible (column, visible);
}

static void
on_show_changed (GSimpleAction *action, GVariant *value, CsColumnChooser *self)
{
  const char *id = g_action_get_name (G_ACTION (action)) + strlen ("show-");
  GtkColumnViewColumn *column = find_column (self, id);

  g_simple_action_set_state (action, value);
  if (column != NULL)
    set_column_visible (column, g_variant_get_boolean (value));
  save (self);
}

void
cs_column_chooser_set_visible_ids (CsColumnChooser *self, const char *const *ids)
{
  GListModel *columns = gtk_column_view_get_columns (self->view);

  self->restoring = TRUE;
  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      const char *id = cs_column_chooser_get_column_id (column);
      g_autofree char *name = NULL;
      gboolean visible;

      if (id == NULL)
        continue;
      visible = ids != NULL && g_strv_contains (ids, id);
      name = g_strconcat ("show-", id, NULL);
      g_action_group_change_action_state (G_ACTION_GROUP (self->actions), name,
                                          g_variant_new_boolean (visible));
    }
  self->restoring = FALSE;
}

static void
build (CsColumnChooser *self)
{
  GListModel *columns = gtk_column_view_get_columns (self->view);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      const char *id = cs_column_chooser_get_column_id (column);
      g_autofree char *name = NULL, *detailed = NULL;
      g_autoptr (GSimpleAction) action = NULL;

      if (id == NULL)
        continue;
      name = g_strconcat ("show-", id, NULL);
      action = g_simple_action_new_stateful (
          name, NULL, g_variant_new_boolean (gtk_column_view_column_get_visible (column)));
      g_signal_connect (action, "change-state", G_CALLBACK (on_show_changed), self);
      g_action_map_add_action (G_ACTION_MAP (self->actions), G_ACTION (action));
      detailed = g_strconcat ("columns.", name, NULL);
      g_menu_append (self->menu, gtk_column_view_column_get_title (column), detailed);
    }
}

CsColumnChooser *
cs_column_chooser_new (GtkColumnView *view)
{
  CsColumnChooser *self = g_object_new (CS_TYPE_COLUMN_CHOOSER, NULL);

  self->view = view;
  build (self);
  return self;
}

GMenuModel *
cs_column_chooser_get_menu (CsColumnChooser *self)
{
  return G_MENU_MODEL (self->menu);
}

GActionGroup *
cs_column_chooser_get_actions (CsColumnChooser *self)
{
  return G_ACTION_GROUP (self->actions);
}

void
cs_column_chooser_bind_settings (CsColumnChooser *self, GSettings *settings, const char *key)
{
  g_auto (GStrv) ids = NULL;

  g_set_object (&self->settings, settings);
  g_free (self->key);
  self->key = g_strdup (key);
  if (settings == NULL)
    return;
  ids = g_settings_get_strv (settings, key);
  cs_column_chooser_set_visible_ids (self, (const char *const *) ids);
}

static void
cs_column_chooser_finalize (GObject *object)
{
  CsColumnChooser *self = CS_COLUMN_CHOOSER (object);

  g_clear_object (&self->actions);
  g_clear_object (&self->menu);
  g_clear_object (&self->settings);
  g_free (self->key);
  G_OBJECT_CLASS (cs_column_chooser_parent_class)->finalize (object);
}

static void
cs_column_chooser_class_init (CsColumnChooserClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cs_column_chooser_finalize;
}

static void
cs_column_chooser_init (CsColumnChooser *self)
{
  self->actions = g_simple_action_group_new ();
  self->menu = g_menu_new ();
}
