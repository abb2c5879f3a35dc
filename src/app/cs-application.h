/* cs-application.h — the callscope GtkApplication: actions, settings, recent files */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define CS_TYPE_APPLICATION (cs_application_get_type ())
G_DECLARE_FINAL_TYPE (CsApplication, cs_application, CS, APPLICATION, GtkApplication)

CsApplication *cs_application_new (void);
/* The app's GSettings, or NULL when the schema is not installed (nothing is
 * remembered then, and everything else works). */
GSettings *cs_application_get_settings (CsApplication *self);
/* Moves `file` to the front of the recent files. */
void cs_application_add_recent_file (CsApplication *self, GFile *file);
/* "app.open-recent" items, newest first; kept up to date. */
GMenuModel *cs_application_get_recent_menu (CsApplication *self);

G_END_DECLS
