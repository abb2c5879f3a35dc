/* cs-recent-files.h — the list of recently opened captures and its menu */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define CS_RECENT_FILES_MAX 10

/* A new list with `uri` first, any older copy of it removed, and at most `max`
 * entries. `current` may be NULL. */
GStrv cs_recent_files_push (const char *const *current, const char *uri, guint max);

/* Fills `menu` with one "app.open-recent" item per URI (target: the URI),
 * labelled with the file name; names that occur twice also show their folder. */
void cs_recent_files_fill_menu (GMenu *menu, const char *const *uris);

G_END_DECLS
