/* cs-ladder-view.h — the ladder diagram widget: draws only the visible rows, keyboard and mouse
 * selection; put it in a GtkScrolledWindow (it is a GtkScrollable) */
#pragma once

#include <gtk/gtk.h>

#include "cs-ladder-layout.h"

G_BEGIN_DECLS

#define CS_TYPE_LADDER_VIEW (cs_ladder_view_get_type ())
G_DECLARE_FINAL_TYPE (CsLadderView, cs_ladder_view, CS, LADDER_VIEW, GtkWidget)

GtkWidget *cs_ladder_view_new (void);
/* Lays out the calls (legs) and their streams (GListModel of CsStream, may be NULL);
 * n_calls 0 clears. Selects the first message. */
void cs_ladder_view_set_calls (CsLadderView *self, CsCall *const *calls, guint n_calls,
                               GListModel *streams);
/* NULL when no call is shown. */
const CsLadderLayout *cs_ladder_view_get_layout (CsLadderView *self);
/* The capture's first packet, the origin of CS_LADDER_TIME_CAPTURE (0: the first row). */
void cs_ladder_view_set_capture_start (CsLadderView *self, gint64 capture_ns);
void cs_ladder_view_set_time_mode (CsLadderView *self, CsLadderTimeMode mode);
CsLadderTimeMode cs_ladder_view_get_time_mode (CsLadderView *self);
/* Row index in the layout, -1 for none ("selected-row" property); scrolls it into view. */
int cs_ladder_view_get_selected_row (CsLadderView *self);
void cs_ladder_view_set_selected_row (CsLadderView *self, int row);
/* The message of the selected row (NULL for none or a stream row). */
CsSipMessage *cs_ladder_view_get_selected_message (CsLadderView *self);
/* Milliseconds the last snapshot took (for measurements). */
double cs_ladder_view_get_last_snapshot_ms (CsLadderView *self);
/* Rows drawn by the last snapshot. */
guint cs_ladder_view_get_last_drawn_rows (CsLadderView *self);

/* The frame drawn at widget point (x, y): on an RTP lane the packet that arrived nearest to the
 * time there, else the row's frame (a SIP message, a stream's first packet); 0 when none.
 * *row: the row (a lane's stream row), -1 when none; *ts_ns: the frame's time; *on_lane: the
 * point is on a lane. */
guint32 cs_ladder_view_frame_at (CsLadderView *self, double x, double y, int *row, gint64 *ts_ns,
                                 gboolean *on_lane);
/* What a click does (n_press 1) and a double click (2): selects the row, or on a lane emits
 * "frame-picked" (guint frame, gint64 ts_ns, CsStream *stream) for the packet there (the rows
 * stay put); a double click activates win.show-frame with the frame (the Packets page). */
void cs_ladder_view_press_at (CsLadderView *self, int n_press, double x, double y);
/* Signal "message-activated" (Enter on a message row: its text in the detail pane). */

G_END_DECLS
