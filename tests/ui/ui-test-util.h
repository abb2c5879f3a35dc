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

G_END_DECLS
