/* cs-detail-pane.h — one SIP message in detail: raw text, parsed SDP, frame and hex dump */
#pragma once

#include <gtk/gtk.h>

#include "callscope-engine.h"
#include "cs-view.h"

G_BEGIN_DECLS

#define CS_TYPE_DETAIL_PANE (cs_detail_pane_get_type ())
G_DECLARE_FINAL_TYPE (CsDetailPane, cs_detail_pane, CS, DETAIL_PANE, CsView)

/* Frames are read back from the view's analysis (the mapped capture). */
GtkWidget *cs_detail_pane_new (void);
/* The message shown, or NULL for the empty state. */
void cs_detail_pane_set_message (CsDetailPane *self, CsSipMessage *msg);
/* "message", "sdp" or "frame" */
void cs_detail_pane_show_tab (CsDetailPane *self, const char *name);
const char *cs_detail_pane_get_visible_tab (CsDetailPane *self);
/* What the tabs show, for tests: the message text, the hex dump. */
char *cs_detail_pane_dup_message_text (CsDetailPane *self);
char *cs_detail_pane_dup_hex_text (CsDetailPane *self);

/* The message as captured: the UDP payload read back from the mapped frame when the
 * message lies in one frame, else rebuilt from its parsed start line, headers and body
 * (*exact = FALSE). Also gives the payload's offset and length inside the frame. */
char *cs_detail_dup_sip_text (CsCaptureSet *set, const CsSipMessage *msg, gboolean *exact,
                              gsize *payload_offset, gsize *payload_len);

/* The Frame tab's frame number: a link ("frame:N") that opens it in the Packets page; NULL when
 * no message is shown. */
GtkLabel *cs_detail_pane_get_frame_link (CsDetailPane *self);

G_END_DECLS
