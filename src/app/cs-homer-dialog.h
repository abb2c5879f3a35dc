/* cs-homer-dialog.h — open a window of a Homer 7 store: database, time window, search fields */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define CS_TYPE_HOMER_DIALOG (cs_homer_dialog_get_type ())
G_DECLARE_FINAL_TYPE (CsHomerDialog, cs_homer_dialog, CS, HOMER_DIALOG, GtkWindow)

/* Open reads the rows (progress and Cancel in the dialog) into a capture file kept in
 * ~/.cache/callscope/homer/, then emits "opened" (GFile *) and closes; an error stays shown
 * in the dialog. */
CsHomerDialog *cs_homer_dialog_new (GtkWindow *parent);
/* Prefills the database and the window (NULL leaves a field as it is). */
void cs_homer_dialog_set_window (CsHomerDialog *self, const char *uri, const char *from,
                                 const char *to);
/* Presses Open (what the button does). */
void cs_homer_dialog_open (CsHomerDialog *self);
/* The error shown, NULL when none; TRUE while rows are being read. */
const char *cs_homer_dialog_get_error (CsHomerDialog *self);
gboolean cs_homer_dialog_is_reading (CsHomerDialog *self);

G_END_DECLS
