/* cs-packets-view.h — the Packets page: a scope bar (call, stream, finding, time range, whole
 * capture), the packet list, the selected frame's protocol tree and its bytes */
#pragma once

#include "cs-view.h"

G_BEGIN_DECLS

#define CS_TYPE_PACKETS_VIEW (cs_packets_view_get_type ())
G_DECLARE_FINAL_TYPE (CsPacketsView, cs_packets_view, CS, PACKETS_VIEW, CsView)

typedef enum
{
  CS_PACKETS_SCOPE_CALL,
  CS_PACKETS_SCOPE_STREAM,
  CS_PACKETS_SCOPE_FINDING,
  CS_PACKETS_SCOPE_TIME_RANGE,
  CS_PACKETS_SCOPE_CAPTURE,
} CsPacketsScope;

GtkWidget *cs_packets_view_new (void);
/* Lists exactly the finding's frames and selects the first. */
void cs_packets_view_show_finding (CsPacketsView *self, CsFinding *finding);
/* Lists the shared cursor's stream and selects its first frame. */
void cs_packets_view_show_stream (CsPacketsView *self);
/* Lists the frames captured in [from_ns, to_ns]. */
void cs_packets_view_show_time_range (CsPacketsView *self, gint64 from_ns, gint64 to_ns);
/* Selects frame number, listing the whole capture when the scope does not hold it. */
void cs_packets_view_show_frame (CsPacketsView *self, guint32 number);
CsPacketsScope cs_packets_view_get_scope (CsPacketsView *self);
/* What the page lists and shows, for tests: the list model (CsFrameRow items), the tree's
 * model (GtkTreeListRow of CsProtoItem) and the frame whose tree is shown (0: none). */
GListModel *cs_packets_view_get_rows (CsPacketsView *self);
GListModel *cs_packets_view_get_tree (CsPacketsView *self);
guint32 cs_packets_view_get_shown_frame (CsPacketsView *self);

G_END_DECLS
