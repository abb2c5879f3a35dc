/* ui-test-util.h — main-loop helpers shared by the GTK tests */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The generated demo capture (CS_DEMO_CAPTURE), or NULL when it is missing. */
const char *ui_test_demo_capture_path (void);
/* Runs the default main context for about `milliseconds`. */
void ui_test_spin (guint milliseconds);

G_END_DECLS
