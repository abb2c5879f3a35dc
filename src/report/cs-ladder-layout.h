/* cs-ladder-layout.h — the geometry of a ladder diagram: columns, rows, arrows, RTP lanes */
#pragma once

#include <gio/gio.h>

#include "callscope-engine.h"

G_BEGIN_DECLS

/* Geometry in logical pixels (1 px = 1 pt in PDF/SVG exports). */
#define CS_LADDER_TIME_WIDTH 118.0   /* left column with the times */
#define CS_LADDER_HEADER_HEIGHT 54.0 /* endpoint names, drawn above the rows */
#define CS_LADDER_ROW_HEIGHT 34.0    /* one message */
#define CS_LADDER_SDP_HEIGHT 15.0    /* extra line for a message carrying SDP */
#define CS_LADDER_ARROW_Y 24.0       /* arrow's offset from the top of its row */
#define CS_LADDER_LANE_WIDTH 4.0     /* an RTP lane beside its sender's lifeline */
#define CS_LADDER_MIN_GAP 190.0      /* least distance between two endpoint columns */
#define CS_LADDER_MARGIN 24.0        /* right of the last column */
#define CS_LADDER_FONT "Sans"
#define CS_LADDER_FONT_SIZE 9.0 /* points at 96 dpi, i.e. 12 px */
#define CS_LADDER_MONO_FONT "Monospace"

typedef enum
{
  CS_LADDER_TIME_ABSOLUTE, /* wall-clock capture time */
  CS_LADDER_TIME_RELATIVE, /* since the first message */
  CS_LADDER_TIME_DELTA,    /* since the previous row */
  CS_LADDER_TIME_CAPTURE,  /* since the capture's first packet: the graphs' and player's clock */
} CsLadderTimeMode;

typedef enum
{
  CS_LADDER_ROW_MESSAGE, /* a SIP message: an arrow between two columns */
  CS_LADDER_ROW_STREAM,  /* the start of an RTP stream: a thick bar, then its lane */
} CsLadderRowKind;

/* Quality of a stream or colour class of a message */
typedef enum
{
  CS_LADDER_QUALITY_UNKNOWN,
  CS_LADDER_QUALITY_GOOD,
  CS_LADDER_QUALITY_DEGRADED,
  CS_LADDER_QUALITY_BAD,
} CsLadderQuality;

typedef struct
{
  CsEndpoint endpoint; /* port 0 for a media-only column (an address seen only in RTP) */
  char *title;         /* "10.0.0.1:5060" */
  char *subtitle;      /* User-Agent / Server of that endpoint, or NULL */
  double x;            /* centre line */
} CsLadderColumn;

typedef struct
{
  CsLadderRowKind kind;
  double y;      /* top of the row, 0 = first row (the header is separate) */
  double height; /* CS_LADDER_ROW_HEIGHT, + CS_LADDER_SDP_HEIGHT with SDP */
  gint64 ts_ns;
  guint32 frame;
  guint leg;      /* index of the call in the layout: colour per leg */
  guint from_col; /* arrow tail */
  guint to_col;   /* arrow head (== from_col: a message to itself) */
  char *label;    /* "INVITE", "180 Ringing", "RTP g711U" */
  char *detail;   /* SDP summary ("g711U 10.0.0.1:4000 sendrecv") or stream numbers, or NULL */
  guint status;   /* 0 for requests and streams, else the response code */
  gboolean is_request;
  gboolean retransmission;
  gboolean sighting; /* the same transmission captured again (another point), not resent */
  /* messages: the message and its index in its call; streams: the stream */
  CsSipMessage *message;
  guint message_index;
  CsStream *stream;
  CsLadderQuality quality; /* streams: from MOS */
} CsLadderRow;

/* An RTP stream's lifetime, drawn beside the sender's lifeline from its start row down
 * to the time of its last packet. */
typedef struct
{
  guint row;      /* the CS_LADDER_ROW_STREAM row */
  guint from_col; /* sender */
  guint to_col;
  double y_start, y_end;
  CsLadderQuality quality;
  guint slot; /* 0, 1, …: side-by-side offset when lanes of one column overlap */
} CsLadderLane;

typedef struct
{
  GPtrArray *calls;   /* CsCall*, one per leg, in order of start */
  GArray *columns;    /* CsLadderColumn */
  GArray *rows;       /* CsLadderRow, by time */
  GArray *lanes;      /* CsLadderLane */
  double width;       /* time column + columns + margin */
  double rows_height; /* sum of the row heights */
  gint64 first_ns;    /* time of the first row */
  gint64 capture_ns;  /* the capture's first packet (CS_LADDER_TIME_CAPTURE); first_ns unless set */
  GHashTable *leg_reasons; /* call number → why the leg is there (char*), or NULL */
} CsLadderLayout;

/* Lays out the calls (one or more legs) and the RTP streams bound to them, looked up by
 * id in `streams` (a GListModel of CsStream, may be NULL). Message texts are measured
 * with Pango so columns are wide enough for their labels. */
CsLadderLayout *cs_ladder_layout_new (CsCall *const *calls, guint n_calls, GListModel *streams);
void cs_ladder_layout_free (CsLadderLayout *layout);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsLadderLayout, cs_ladder_layout_free)

/* Index of the first row whose bottom is below y (rows.len when none). */
guint cs_ladder_layout_row_at (const CsLadderLayout *layout, double y);
/* The x span of a lane as drawn: [*left, *right]. */
void cs_ladder_layout_lane_span (const CsLadderLayout *layout, const CsLadderLane *lane,
                                 double *left, double *right);
/* The lane drawn at (x, y) (slack pixels around it count), -1 when none; the last drawn wins. */
int cs_ladder_layout_lane_at (const CsLadderLayout *layout, double x, double y, double slack);
/* The time drawn at y: the inverse of where rows and lanes are placed (between two rows' arrows,
 * linear in time). */
gint64 cs_ladder_layout_time_at (const CsLadderLayout *layout, double y);
/* The packet of lane's stream that arrived nearest to the time drawn at y; NULL when none. */
const CsRtpPacket *cs_ladder_layout_lane_packet (const CsLadderLayout *layout, guint lane,
                                                 double y);
/* Row holding the message at index message_index of the call at leg; -1 when none. */
int cs_ladder_layout_find_message (const CsLadderLayout *layout, guint leg, guint message_index);
/* Next / previous message row from row (skipping stream rows); row itself when none. */
guint cs_ladder_layout_next_message (const CsLadderLayout *layout, guint row, int direction);

/* Time label of a row in the given mode: "2.080000" (since the call's first message or the
 * capture's first packet), "+0.080000"; absolute times name the hour only on the first row and
 * where it changes ("10:00:02.080"), then minutes and seconds ("00:02.081000"). */
char *cs_ladder_layout_format_time (const CsLadderLayout *layout, guint row, CsLadderTimeMode mode);
/* "g711U 10.0.0.1:4000 sendrecv" for the first audio (else first) m= block; NULL w/o SDP. */
char *cs_ladder_sdp_summary (const CsSipMessage *msg);
/* good ≥ 4.0, degraded ≥ 3.6, bad below; unknown when mos < 0 */
CsLadderQuality cs_ladder_quality_for_mos (double mos);
/* The whole wall-clock time of a row, UTC: "2024-03-01 10:00:02.080000". */
char *cs_ladder_layout_format_utc (const CsLadderLayout *layout, guint row);
/* CLI names: "absolute", "relative", "delta", "capture"; FALSE for anything else. */
gboolean cs_ladder_time_mode_parse (const char *text, CsLadderTimeMode *mode);

/* The B2BUA legs and other calls related to `call` in `calls` (GListModel of CsCall) by
 * evidence (calls/cs-call-legs.h: correlation headers, Replaces, REFER, the same Call-ID on
 * another hop, Diversion/History-Info, one SSRC relayed on both; streams may be NULL: no
 * media evidence), legs of legs included. Returns CsCall* (refs) sorted by start, `call`
 * included; *reasons (when reasons is not NULL) maps each other leg's number
 * (GUINT_TO_POINTER) to why it is there: "correlation-header: X-Call-ID: … names call 1's
 * Call-ID". */
GPtrArray *cs_ladder_find_related_calls (GListModel *calls, GListModel *streams, CsCall *call,
                                         GHashTable **reasons);
/* Why each leg is in the ladder (the map of cs_ladder_find_related_calls, referenced):
 * the text ladder names it after each leg. */
void cs_ladder_layout_set_leg_reasons (CsLadderLayout *layout, GHashTable *reasons);

G_END_DECLS
