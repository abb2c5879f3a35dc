/* cs-window-selection.c — bridges between the views and the shared cursor (CsSelection):
 * the calls list, the ladder and the Load page's time range */
#include "cs-window-private.h"

/* Calls list → selection */

static void
on_calls_view_selected_call (CsCallsView *calls_view, GParamSpec *pspec, CsWindow *self)
{
  CsCall *call = cs_calls_view_get_selected_call (calls_view);
  CsStream *stream = cs_selection_get_stream (self->selection);

  if (self->syncing_selection)
    return;
  self->syncing_selection = TRUE;
  g_object_freeze_notify (G_OBJECT (self->selection));
  cs_selection_set_call (self->selection, call);
  /* A stream of another call would make the graphs show that call instead. */
  if (stream != NULL
      && (call == NULL || cs_stream_get_call_number (stream) != cs_call_get_number (call)))
    cs_selection_set_stream (self->selection, NULL);
  g_object_thaw_notify (G_OBJECT (self->selection));
  self->syncing_selection = FALSE;
}

/* Ladder → selection */

static void
on_ladder_selected_row (CsLadderView *view, GParamSpec *pspec, CsWindow *self)
{
  const CsLadderLayout *layout = cs_ladder_view_get_layout (view);
  int row = cs_ladder_view_get_selected_row (view);
  const CsLadderRow *selected;

  if (self->syncing_selection || layout == NULL || row < 0)
    return;
  selected = &g_array_index (layout->rows, CsLadderRow, row);
  self->syncing_selection = TRUE;
  g_object_freeze_notify (G_OBJECT (self->selection));
  if (selected->kind == CS_LADDER_ROW_STREAM && selected->stream != NULL)
    cs_selection_set_stream (self->selection, selected->stream);
  cs_selection_set_cursor (self->selection, selected->frame, selected->ts_ns);
  g_object_thaw_notify (G_OBJECT (self->selection));
  self->cursor_frame_seen = selected->frame;
  self->cursor_time_seen = selected->ts_ns;
  self->syncing_selection = FALSE;
}

/* A packet of an RTP lane: the cursor at that packet of the lane's stream (the ladder keeps its
 * rows where they are). */
static void
on_ladder_frame_picked (CsLadderView *view, guint frame, gint64 ts_ns, CsStream *stream,
                        CsWindow *self)
{
  if (self->syncing_selection)
    return;
  self->syncing_selection = TRUE;
  g_object_freeze_notify (G_OBJECT (self->selection));
  cs_selection_set_stream (self->selection, stream);
  cs_selection_set_cursor (self->selection, frame, ts_ns);
  g_object_thaw_notify (G_OBJECT (self->selection));
  self->cursor_frame_seen = frame;
  self->cursor_time_seen = ts_ns;
  self->syncing_selection = FALSE;
}

/* Selection → calls list and ladder */

int
cs_window_find_ladder_row (const CsLadderLayout *layout, guint frame, gint64 time_ns)
{
  int nearest = -1;
  guint64 nearest_distance = G_MAXUINT64;

  if (layout == NULL || (frame == 0 && time_ns == 0))
    return -1;
  for (guint i = 0; i < layout->rows->len; i++)
    {
      const CsLadderRow *row = &g_array_index (layout->rows, CsLadderRow, i);
      guint64 distance;

      if (row->kind != CS_LADDER_ROW_MESSAGE)
        continue;
      if (frame != 0 && row->frame == frame)
        return (int) i;
      if (time_ns == 0)
        continue;
      distance = row->ts_ns > time_ns ? (guint64) (row->ts_ns - time_ns)
                                      : (guint64) (time_ns - row->ts_ns);
      /* Rows are in time order: on a tie the earlier message wins. */
      if (distance < nearest_distance)
        {
          nearest = (int) i;
          nearest_distance = distance;
        }
    }
  return nearest;
}

static void
clear_calls_filters (CsWindow *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  /* The entry reports changes after a delay: apply the empty filter now. */
  cs_calls_view_set_filter_text (self->calls_view, NULL);
  cs_calls_view_set_time_range (self->calls_view, 0, 0);
}

static void
sync_calls_list (CsWindow *self)
{
  CsCall *call = cs_selection_get_call (self->selection);

  /* An unassociated stream has no call: the list keeps what it shows. */
  if (call == NULL || call == cs_calls_view_get_selected_call (self->calls_view))
    return;
  if (!cs_calls_view_select_call (self->calls_view, call))
    {
      /* Hidden by the filter or the time range: show every call rather than nothing. */
      clear_calls_filters (self);
      cs_calls_view_select_call (self->calls_view, call);
    }
}

static void
sync_ladder (CsWindow *self)
{
  CsLadderView *view = cs_ladder_pane_get_view (self->ladder_pane);
  guint frame = cs_selection_get_frame (self->selection);
  gint64 time_ns = cs_selection_get_time_ns (self->selection);
  int row;

  /* The player moves only the time: then the frame is an old one and the time decides. */
  if (frame == self->cursor_frame_seen && time_ns != self->cursor_time_seen)
    frame = 0;
  self->cursor_frame_seen = cs_selection_get_frame (self->selection);
  self->cursor_time_seen = time_ns;
  row = cs_window_find_ladder_row (cs_ladder_view_get_layout (view), frame, time_ns);
  if (row >= 0 && row != cs_ladder_view_get_selected_row (view))
    cs_ladder_view_set_selected_row (view, row);
}

static void
on_selection_changed (CsSelection *selection, GParamSpec *pspec, CsWindow *self)
{
  if (self->syncing_selection)
    return;
  /* Whatever the views do in return must not come back into the selection. */
  self->syncing_selection = TRUE;
  sync_calls_list (self);
  sync_ladder (self);
  self->syncing_selection = FALSE;
}

/* Load page → calls list */

static void
on_load_range_changed (CsLoadView *load_view, gint64 from_ns, gint64 to_ns, CsWindow *self)
{
  cs_calls_view_set_time_range (self->calls_view, from_ns, to_ns);
  if (from_ns != to_ns)
    {
      /* the Packets page lists that range's frames too */
      cs_packets_view_show_time_range (self->packets_view, from_ns, to_ns);
      gtk_stack_set_visible_child_name (self->view_stack, "calls");
    }
}

static void
on_calls_time_range (CsCallsView *calls_view, GParamSpec *pspec, CsWindow *self)
{
  gint64 from_ns = 0, to_ns = 0;

  /* Cleared from the bar above the list: the Load page forgets its brush too. */
  if (!cs_calls_view_get_time_range (calls_view, NULL, NULL)
      && cs_load_view_get_range (self->load_view, &from_ns, &to_ns))
    cs_load_view_select_range (self->load_view, 0, 0);
}

/* Setup */

void
cs_window_selection_init (CsWindow *self)
{
  g_signal_connect (self->calls_view, "notify::selected-call",
                    G_CALLBACK (on_calls_view_selected_call), self);
  g_signal_connect (self->calls_view, "notify::has-time-range", G_CALLBACK (on_calls_time_range),
                    self);
  g_signal_connect (cs_ladder_pane_get_view (self->ladder_pane), "notify::selected-row",
                    G_CALLBACK (on_ladder_selected_row), self);
  g_signal_connect (cs_ladder_pane_get_view (self->ladder_pane), "frame-picked",
                    G_CALLBACK (on_ladder_frame_picked), self);
  g_signal_connect (self->selection, "notify", G_CALLBACK (on_selection_changed), self);
  g_signal_connect (self->load_view, "range-changed", G_CALLBACK (on_load_range_changed), self);
}

void
cs_window_selection_dispose (CsWindow *self)
{
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  if (self->calls_view != NULL)
    g_signal_handlers_disconnect_by_data (self->calls_view, self);
  if (self->load_view != NULL)
    g_signal_handlers_disconnect_by_data (self->load_view, self);
  if (self->ladder_pane != NULL)
    g_signal_handlers_disconnect_by_data (cs_ladder_pane_get_view (self->ladder_pane), self);
}
