/* cs-column-chooser.h — which columns of a GtkColumnView are shown, as a menu, saved in GSettings
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define CS_TYPE_COLUMN_CHOOSER (cs_column_chooser_get_type ())
G_DECLARE_FINAL_TYPE (CsColumnChooser, cs_column_chooser, CS, COLUMN_CHOOSER, GObject)

/* Columns take part when they carry an id set with cs_column_chooser_set_column_id ();
 * the others are always shown. The actions are "columns.show-ID" (boolean state). */
CsColumnChooser *cs_column_chooser_new (GtkColumnView *view);
void cs_column_chooser_set_column_id (GtkColumnViewColumn *column, const char *id);
const char *cs_column_chooser_get_column_id (GtkColumnViewColumn *column);
/* A menu of check items, one per column, and the action group they act on. */
GMenuModel *cs_column_chooser_get_menu (CsColumnChooser *self);
GActionGroup *cs_column_chooser_get_actions (CsColumnChooser *self);
/* Shows exactly these ids (unknown ids are ignored). */
void cs_column_chooser_set_visible_ids (CsColumnChooser *self, const char *const *ids);
/* Ids of the shown columns, in display order. */
GStrv cs_column_chooser_dup_visible_ids (CsColumnChooser *self);
/* Restores from and saves to a string-array key (e.g. "calls-visible-columns"). */
void cs_column_chooser_bind_settings (CsColumnChooser *self, GSettings *settings, const char *key);

G_END_DECLS
