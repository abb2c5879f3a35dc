/* cs-recent-files.c — the list of recently opened captures and its menu */
#include "cs-recent-files.h"

GStrv
cs_recent_files_push (const char *const *current, const char *uri, guint max)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  guint n = 0;

  g_return_val_if_fail (uri != NULL, NULL);

  if (max == 0)
    return g_strv_builder_end (builder);
  g_strv_builder_add (builder, uri);
  n++;
  for (guint i = 0; current != NULL && current[i] != NULL && n < max; i++)
    {
      if (g_strcmp0 (current[i], uri) == 0)
        continue;
      g_strv_builder_add (builder, current[i]);
      n++;
    }
  return g_strv_builder_end (builder);
}

static char *
dup_display_name (GFile *file)
{
  g_autofree char *basename = g_file_get_basename (file);

  return g_filename_display_name (basename != NULL ? basename : "?");
}

static gboolean
name_is_ambiguous (const char *const *uris, guint index, const char *name)
{
  for (guint i = 0; uris[i] != NULL; i++)
    {
      g_autoptr (GFile) other = NULL;
      g_autofree char *other_name = NULL;

      if (i == index)
        continue;
      other = g_file_new_for_uri (uris[i]);
      other_name = dup_display_name (other);
      if (g_strcmp0 (other_name, name) == 0)
        return TRUE;
    }
  return FALSE;
}

/* Popover menus treat "_" as a mnemonic marker; file names often contain one. */
static char *
escape_mnemonics (const char *label)
{
  GString *escaped = g_string_new (NULL);

  for (const char *c = label; *c != '\0'; c++)
    {
      if (*c == '_')
        g_string_append_c (escaped, '_');
      g_string_append_c (escaped, *c);
    }
  return g_string_free (escaped, FALSE);
}

void
cs_recent_files_fill_menu (GMenu *menu, const char *const *uris)
{
  g_return_if_fail (G_IS_MENU (menu));

  g_menu_remove_all (menu);
  for (guint i = 0; uris != NULL && uris[i] != NULL; i++)
    {
      g_autoptr (GFile) file = g_file_new_for_uri (uris[i]);
      g_autoptr (GFile) parent = g_file_get_parent (file);
      g_autoptr (GMenuItem) item = NULL;
      g_autofree char *name = dup_display_name (file);
      g_autofree char *label = NULL;
      g_autofree char *escaped_label = NULL;

      if (parent != NULL && name_is_ambiguous (uris, i, name))
        {
          g_autofree char *folder = dup_display_name (parent);
          label = g_strdup_printf ("%s (%s)", name, folder);
        }
      else
        label = g_strdup (name);
      item = g_menu_item_new (NULL, NULL);
      g_menu_item_set_label (item, escaped_label = escape_mnemonics (label));
      g_menu_item_set_action_and_target_value (item, "app.open-recent",
                                               g_variant_new_string (uris[i]));
      g_menu_append_item (menu, item);
    }
}
