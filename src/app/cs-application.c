/* cs-application.c — the callscope GtkApplication: actions, settings, recent files */
#include "cs-application.h"

#include <glib/gi18n.h>

#include "cs-config.h"
#include "cs-recent-files.h"
#include "cs-window.h"

struct _CsApplication
{
  GtkApplication parent_instance;

  GSettings *settings; /* NULL without an installed schema */
  GStrv recent_uris;   /* used when there is no GSettings */
  GMenu *recent_menu;
};

G_DEFINE_FINAL_TYPE (CsApplication, cs_application, GTK_TYPE_APPLICATION)

CsApplication *
cs_application_new (void)
{
  return g_object_new (CS_TYPE_APPLICATION, "application-id", APP_ID, "flags",
                       G_APPLICATION_HANDLES_OPEN, "resource-base-path",
                       "/io/github/callscope/Callscope", NULL);
}

GSettings *
cs_application_get_settings (CsApplication *self)
{
  g_return_val_if_fail (CS_IS_APPLICATION (self), NULL);
  return self->settings;
}

GMenuModel *
cs_application_get_recent_menu (CsApplication *self)
{
  g_return_val_if_fail (CS_IS_APPLICATION (self), NULL);
  return G_MENU_MODEL (self->recent_menu);
}

static void
refresh_recent_menu (CsApplication *self)
{
  g_auto (GStrv) from_settings = NULL;
  const char *const *uris = (const char *const *) self->recent_uris;

  if (self->settings != NULL)
    uris = (const char *const *) (from_settings
                                  = g_settings_get_strv (self->settings, "recent-files"));
  cs_recent_files_fill_menu (self->recent_menu, uris);
}

void
cs_application_add_recent_file (CsApplication *self, GFile *file)
{
  g_autofree char *uri = NULL;

  g_return_if_fail (CS_IS_APPLICATION (self));
  g_return_if_fail (G_IS_FILE (file));

  uri = g_file_get_uri (file);
  if (self->settings != NULL)
    {
      g_auto (GStrv) current = g_settings_get_strv (self->settings, "recent-files");
      g_auto (GStrv) updated
          = cs_recent_files_push ((const char *const *) current, uri, CS_RECENT_FILES_MAX);
      /* The "changed" handler refreshes the menu. */
      g_settings_set_strv (self->settings, "recent-files", (const char *const *) updated);
    }
  else
    {
      GStrv updated = cs_recent_files_push ((const char *const *) self->recent_uris, uri,
                                            CS_RECENT_FILES_MAX);
      g_strfreev (self->recent_uris);
      self->recent_uris = updated;
      refresh_recent_menu (self);
    }
  /* Let the desktop's "recent" list know too. */
  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
}

static void
on_recent_files_changed (GSettings *settings, const char *key, CsApplication *self)
{
  refresh_recent_menu (self);
}

static GSettings *
lookup_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = NULL;

  if (source == NULL)
    return NULL;
  schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  if (schema == NULL)
    {
      g_info ("GSettings schema %s is not installed; settings will not be kept", APP_ID);
      return NULL;
    }
  return g_settings_new_full (schema, NULL, NULL);
}

/* GTK 4 without libadwaita does not follow the desktop's dark-style preference
 * by itself; read it where GNOME's interface schema is available. */
static void
follow_desktop_color_scheme (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = NULL;
  g_autoptr (GSettings) interface = NULL;
  g_autofree char *scheme = NULL;

  if (source == NULL)
    return;
  schema = g_settings_schema_source_lookup (source, "org.gnome.desktop.interface", TRUE);
  if (schema == NULL || !g_settings_schema_has_key (schema, "color-scheme"))
    return;
  interface = g_settings_new_full (schema, NULL, NULL);
  scheme = g_settings_get_string (interface, "color-scheme");
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme",
                g_strcmp0 (scheme, "prefer-dark") == 0, NULL);
}

static void
load_style (void)
{
  g_autoptr (GtkCssProvider) provider = gtk_css_provider_new ();

  gtk_css_provider_load_from_resource (provider, "/io/github/callscope/Callscope/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                              GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
}

static CsWindow *
get_or_create_window (CsApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (CS_IS_WINDOW (window))
    return CS_WINDOW (window);
  return cs_window_new (self);
}

/* Actions */

static void
quit_activated (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  CsApplication *self = user_data;
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (self));

  /* Closing each window lets it save its size and cancel its load. */
  GList *copy = g_list_copy (windows);

  for (GList *l = copy; l != NULL; l = l->next)
    g_object_ref (l->data);

  for (GList *l = copy; l != NULL; l = l->next)
    gtk_window_close (GTK_WINDOW (l->data));
  g_list_free_full (copy, g_object_unref);
  g_application_quit (G_APPLICATION (self));
}

static void
about_activated (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  CsApplication *self = user_data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  static const char *developers[] = { "The callscope developers", NULL };

  gtk_show_about_dialog (parent, "program-name", _ ("Callscope"), "logo-icon-name", APP_ID,
                         "version", PACKAGE_VERSION, "comments",
                         _ ("Analyze SIP calls and RTP streams in packet captures"), "website",
                         "https://github.com/callscope/callscope", "license-type",
                         GTK_LICENSE_GPL_3_0, "authors", developers,
                         /* TRANSLATORS: your name(s), one per line */
                         "translator-credits", _ ("translator-credits"), "copyright",
                         "© 2024 The callscope developers", NULL);
}

static void
open_recent_activated (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  CsApplication *self = user_data;
  g_autoptr (GFile) file = g_file_new_for_uri (g_variant_get_string (parameter, NULL));
  CsWindow *window = get_or_create_window (self);

  cs_window_open_files (window, &file, 1);
  gtk_window_present (GTK_WINDOW (window));
}

static void
clear_recent_activated (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  CsApplication *self = user_data;

  if (self->settings != NULL)
    g_settings_reset (self->settings, "recent-files");
  g_clear_pointer (&self->recent_uris, g_strfreev);
  refresh_recent_menu (self);
}

static const GActionEntry app_actions[] = {
  { "quit", quit_activated, NULL, NULL, NULL, { 0 } },
  { "about", about_activated, NULL, NULL, NULL, { 0 } },
  { "open-recent", open_recent_activated, "s", NULL, NULL, { 0 } },
  { "clear-recent", clear_recent_activated, NULL, NULL, NULL, { 0 } },
};

/* GApplication */

static void
cs_application_startup (GApplication *application)
{
  CsApplication *self = CS_APPLICATION (application);
  static const char *open_accels[] = { "<Primary>o", NULL };
  static const char *close_accels[] = { "<Primary>w", NULL };
  static const char *quit_accels[] = { "<Primary>q", NULL };
  static const char *help_accels[] = { "<Primary>question", "F1", NULL };
  static const char *cancel_accels[] = { "Escape", NULL };
  static const char *search_accels[] = { "<Primary>f", NULL };
  static const struct
  {
    const char *action;
    const char *accel;
  } layout_accels[] = {
    { "win.ladder-maximized", "<Primary>m" },
    { "win.detail-visible", "F9" },
    { "win.graphs-visible", "<Primary>g" },
    { "win.back-to-list", "<Alt>Left" },
    { "win.previous-call", "<Alt>Up" },
    { "win.next-call", "<Alt>Down" },
    { "win.next-finding", "F8" },
    { "win.previous-finding", "<Shift>F8" },
    { "win.show-frame(uint32 0)", "<Primary>Return" },
  };

  G_APPLICATION_CLASS (cs_application_parent_class)->startup (application);

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions, G_N_ELEMENTS (app_actions),
                                   self);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "win.open", open_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "window.close", close_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "win.show-help-overlay",
                                         help_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "win.cancel-load", cancel_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "win.focus-search", search_accels);
  for (guint i = 0; i < G_N_ELEMENTS (layout_accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (self), layout_accels[i].action,
                                           (const char *[]){ layout_accels[i].accel, NULL });

  self->settings = lookup_settings ();
  if (self->settings != NULL)
    g_signal_connect (self->settings, "changed::recent-files", G_CALLBACK (on_recent_files_changed),
                      self);
  refresh_recent_menu (self);
  follow_desktop_color_scheme ();
  load_style ();
}

static void
cs_application_activate (GApplication *application)
{
  CsWindow *window = get_or_create_window (CS_APPLICATION (application));

  gtk_window_present (GTK_WINDOW (window));
}

static void
cs_application_open (GApplication *application, GFile **files, int n_files, const char *hint)
{
  GtkWindow *active = gtk_application_get_active_window (GTK_APPLICATION (application));
  CsWindow *window;

  /* An empty window is reused; one showing a capture keeps it. Several files on
   * one command line are one capture set, merged by time. */
  if (CS_IS_WINDOW (active) && cs_window_is_empty (CS_WINDOW (active)))
    window = CS_WINDOW (active);
  else
    window = cs_window_new (CS_APPLICATION (application));

  cs_window_open_files (window, files, (guint) n_files);
  gtk_window_present (GTK_WINDOW (window));
}

static void
cs_application_dispose (GObject *object)
{
  CsApplication *self = CS_APPLICATION (object);

  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_object (&self->settings);
  g_clear_object (&self->recent_menu);
  g_clear_pointer (&self->recent_uris, g_strfreev);
  G_OBJECT_CLASS (cs_application_parent_class)->dispose (object);
}

static void
cs_application_class_init (CsApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *application_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = cs_application_dispose;
  application_class->startup = cs_application_startup;
  application_class->activate = cs_application_activate;
  application_class->open = cs_application_open;
}

static void
cs_application_init (CsApplication *self)
{
  self->recent_menu = g_menu_new ();
}
