/* cs-frame-list.h — the Packets page's rows: a GListModel over a scope's frame numbers that
 * makes each row (CsFrameRow) when the list view asks for it, from the frame index and the
 * dissector, and keeps none: the whole of a 10-million-frame capture costs no memory per frame
 * until it is sorted or filtered (then 4 bytes per row kept) */
#pragma once

#include <gio/gio.h>

#include "callscope-engine.h"

G_BEGIN_DECLS

#define CS_TYPE_FRAME_ROW (cs_frame_row_get_type ())
G_DECLARE_FINAL_TYPE (CsFrameRow, cs_frame_row, CS, FRAME_ROW, GObject)

guint32 cs_frame_row_get_number (CsFrameRow *self);
double cs_frame_row_get_time (CsFrameRow *self); /* seconds from the first frame */
guint32 cs_frame_row_get_length (CsFrameRow *self);
const char *cs_frame_row_get_source (CsFrameRow *self);
const char *cs_frame_row_get_destination (CsFrameRow *self);
const char *cs_frame_row_get_protocol (CsFrameRow *self);
const char *cs_frame_row_get_info (CsFrameRow *self);

typedef enum
{
  CS_FRAME_COLUMN_NUMBER,
  CS_FRAME_COLUMN_TIME,
  CS_FRAME_COLUMN_SOURCE,
  CS_FRAME_COLUMN_DESTINATION,
  CS_FRAME_COLUMN_PROTOCOL,
  CS_FRAME_COLUMN_LENGTH,
  CS_FRAME_COLUMN_INFO,
} CsFrameColumn;

#define CS_TYPE_FRAME_LIST (cs_frame_list_get_type ())
G_DECLARE_FINAL_TYPE (CsFrameList, cs_frame_list, CS, FRAME_LIST, GObject)

/* dissector is borrowed: it must outlive the list (or be replaced with set_dissector). */
CsFrameList *cs_frame_list_new (void);
void cs_frame_list_set_dissector (CsFrameList *self, CsFrameDissector *dissector, guint32 n_frames);
/* The frames listed: numbers ascending (taken), or NULL for every frame of the capture. */
void cs_frame_list_set_scope (CsFrameList *self, GArray *frames);
/* Rows whose protocol, source or destination holds text (case-insensitive); NULL or "" for
 * all. Reads every row of the scope once. */
void cs_frame_list_set_filter (CsFrameList *self, const char *text);
/* Orders the rows by a column (frame number order breaks ties); number ascending is the
 * scope's own order. */
void cs_frame_list_sort (CsFrameList *self, CsFrameColumn column, gboolean descending);
guint32 cs_frame_list_get_number (CsFrameList *self, guint position); /* 0 past the end */
/* The position of frame number, or G_MAXUINT when it is not listed. */
guint cs_frame_list_find (CsFrameList *self, guint32 number);
/* Bytes the list keeps per listed frame (the scope, filter and order arrays). */
gsize cs_frame_list_get_bytes (CsFrameList *self);

G_END_DECLS
