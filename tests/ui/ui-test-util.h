/* ui-test-util.h — main-loop helpers shared by the GTK tests */
#pragma once

#include <gtk/gtk.h>

#include "cs-application.h"
#include "cs-window.h"

G_BEGIN_DECLS

/* The generated demo capture (CS_DEMO_CAPTURE), or NULL when it is missing. */
const char *ui_test_demo_capture_path (void);
/* Runs the default main context for about `milliseconds`. */
void ui_test_spin (guint milliseconds);

/* g_test_init, gtk_init_check and a registered CsApplication without a D-Bus
 * name (tests may run side by side), numbers printed the C way. Returns NULL
 * after printing TAP's "1..0 # SKIP no display" when there is no display. */
CsApplication *ui_test_init (int *argc, char ***argv);

/* Runs the main loop until the window leaves the loading state (60 s at most). */
void ui_test_wait_for_load (CsWindow *window);
/* A presented window of that size with the demo capture loaded; NULL when the
 * demo capture is missing. */
CsWindow *ui_test_load_demo (CsApplication *application, int width, int height);
/* The same with the capture at path. */
CsWindow *ui_test_load_file (CsApplication *application, const char *path, int width, int height);

/* Whether a button or menu item bound to action_name ("win.export") below widget would be
 * sensitive: the action exists there and is enabled. */
gboolean ui_test_action_enabled (GtkWidget *widget, const char *action_name);
/* Runs the shortcut the window's controllers hold for accel ("<Primary>f", "Escape") as a key
 * press would; FALSE when none has it or its action refuses (disabled, missing). */
gboolean ui_test_activate_accel (GtkWidget *window, const char *accel);

/* The first widget of that type in the tree below widget (itself included), or NULL. */
GtkWidget *ui_test_find_widget (GtkWidget *widget, GType type);
/* Selects only the call with this number in the window's calls list, as a click would. */
void ui_test_select_call (CsWindow *window, guint number);
/* Saves a presented widget (a window) as the cairo renderer draws it, waiting up to 5 s
 * for its first frame; FALSE when nothing was drawn or the PNG could not be written. */
gboolean ui_test_save_png (GtkWidget *widget, const char *png);

G_END_DECLS
