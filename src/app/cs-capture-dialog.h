/* cs-capture-dialog.h — choose what to watch live: an interface (filter, promiscuous, snap
 * length) or a HEP listen address (with an optional key) */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef enum
{
  CS_CAPTURE_MODE_INTERFACE,
  CS_CAPTURE_MODE_HEP,
} CsCaptureMode;

/* What the person chose; strings owned by the dialog until it is destroyed. */
typedef struct
{
  CsCaptureMode mode;
  const char *interface;
  const char *filter; /* may be "" */
  gboolean promiscuous;
  guint snaplen;
  const char *hep_address; /* "127.0.0.1:9060" */
  const char *hep_key;     /* may be "" */
} CsCaptureRequest;

#define CS_TYPE_CAPTURE_DIALOG (cs_capture_dialog_get_type ())
G_DECLARE_FINAL_TYPE (CsCaptureDialog, cs_capture_dialog, CS, CAPTURE_DIALOG, GtkWindow)

/* "start" (const CsCaptureRequest *) is emitted when Start is pressed; the dialog stays open
 * so that an error can be shown with cs_capture_dialog_show_error, else the caller closes it. */
CsCaptureDialog *cs_capture_dialog_new (GtkWindow *parent, CsCaptureMode mode);
void cs_capture_dialog_show_error (CsCaptureDialog *self, const char *message);

G_END_DECLS
