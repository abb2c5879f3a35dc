/* cs-window.h — the main window: one capture (set), its calls and views */
#pragma once

#include <gtk/gtk.h>

#include "cs-application.h"

G_BEGIN_DECLS

#define CS_TYPE_WINDOW (cs_window_get_type ())
G_DECLARE_FINAL_TYPE (CsWindow, cs_window, CS, WINDOW, GtkApplicationWindow)

/* Properties (read-only; cs-window.ui binds the views to them): "analysis", the capture's
 * analysis from the moment the loader makes it (its calls fill in while loading);
 * "loaded-analysis", the same once every call is in (NULL before); "selection", the cursor
 * every view shares. */
CsWindow *cs_window_new (CsApplication *application);
/* Reads the files (merged by time when several) in the background, replacing
 * whatever the window showed. */
void cs_window_open_files (CsWindow *self, GFile **files, guint n_files);
/* The same, reading several files as capture points of one network (clocks aligned, a message
 * seen at several points is one message: cs_loader_set_points). */
void cs_window_open_points (CsWindow *self, GFile **files, guint n_files);
/* TRUE while the window shows nothing (its empty state): a good place to open files. */
gboolean cs_window_is_empty (CsWindow *self);

G_END_DECLS
