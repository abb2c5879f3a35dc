/* ui-test-util.h — main-loop helpers shared by the GTK tests */
#pragma once

#include <glib.h>

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

G_END_DECLS
