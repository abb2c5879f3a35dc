/* cs-dissect.h — a frame dissected for people: every layer's fields by Wireshark display-filter
 * name with their bytes, and the list columns (protocol, addresses, Info) */
#pragma once

#include <glib.h>

#include "base/cs-addr.h"
#include "capture/cs-capture.h"
#include "cs-proto-tree.h"

G_BEGIN_DECLS

/* How to read a UDP payload the bytes alone do not name (RTP has no signature). */
typedef enum
{
  CS_DISSECT_GUESS,   /* SIP, HEP and RTCP by their signature; RTP when its header holds */
  CS_DISSECT_AS_RTP,  /* a packet of a stream the analysis found */
  CS_DISSECT_AS_RTCP, /* an RTCP datagram the analysis read */
} CsDissectAs;

/* What callscope computed for one RTP packet of a stream (cs_rtp_series_compute and the
 * jitter buffer's verdicts): shown under the RTP layer as "callscope.*" fields. */
typedef struct
{
  guint stream_id;
  double delta_ms, jitter_ms, skew_ms;
  guint32 lost_before;
  const char *verdict; /* "played", "late", "duplicate", "passed through" */
} CsDissectRtpFigures;

/* What the dissection knows beyond the frame's bytes. Zero-filled means: nothing. */
typedef struct
{
  guint32 number;        /* frame number (1-based) */
  gint64 origin_ns;      /* first frame's time, for frame.time_relative */
  gint64 previous_ns;    /* previous frame's time (frame.time_delta), or 0 */
  const char *file_name; /* the file the frame is in */
  guint interface_id;    /* pcapng interface (0 for pcap) */
  const char *comment;   /* pcapng comment or NULL */
  CsDissectAs as;
  gint16 event_pt;                /* the stream's RFC 4733 telephone-event payload type, or -1 */
  const char *codec;              /* the stream's codec name for the payload type, or NULL */
  const CsDissectRtpFigures *rtp; /* or NULL */
  /* An IP fragment: the frames of its datagram's fragments, and the datagram when this frame
   * completes it (cs_ip_reassembler_add's payload), else NULL. */
  const guint32 *fragment_frames;
  guint n_fragment_frames;
  guint32 reassembled_in; /* the frame that completes the datagram, 0 if none in the capture */
  GBytes *reassembled;
} CsDissectHints;

/* Fills tree (cs_proto_tree_new, or _new_summary for a list row) from one frame. Never fails:
 * what cannot be read is shown as a "Malformed" line or as data. */
void cs_dissect_frame (CsProtoTree *tree, const CsFrame *frame, const guint8 *data,
                       const CsDissectHints *hints);

/* "00 1a 2b …" of bytes: the tree's "Copy as hex"; free with g_free. */
char *cs_dissect_hex (const guint8 *data, gsize len);
/* Wireshark's display filter for a node: `rtp.seq == 1234`, `sip.Call-ID == "a@b"`, or the
 * layer name alone; NULL for a node without a name. Free with g_free. */
char *cs_dissect_display_filter (const CsProtoNode *node);

G_END_DECLS
