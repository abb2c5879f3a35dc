/* cs-stream.h — one RTP stream: (src ip:port, dst ip:port, SSRC), its packets and metrics */
#pragma once

#include <gio/gio.h>

#include "base/cs-addr.h"
#include "quality/cs-mos.h"
#include "quality/cs-rtp-metrics.h"

G_BEGIN_DECLS

#define CS_TYPE_STREAM (cs_stream_get_type ())
G_DECLARE_FINAL_TYPE (CsStream, cs_stream, CS, STREAM, GObject)

typedef struct _CsStreamRtcp CsStreamRtcp; /* cs-stream-rtcp.h */

guint cs_stream_get_id (CsStream *self); /* 1-based, in order of first packet */
const CsEndpoint *cs_stream_get_src (CsStream *self);
const CsEndpoint *cs_stream_get_dst (CsStream *self);
guint32 cs_stream_get_ssrc (CsStream *self);
/* Number of the call whose SDP announced this stream; 0 when unassociated. */
guint cs_stream_get_call_number (CsStream *self);
gboolean cs_stream_is_associated (CsStream *self);
const char *cs_stream_get_codec (CsStream *self);             /* "g711U", … or "PT 96" */
const CsCodecInfo *cs_stream_get_codec_info (CsStream *self); /* NULL when unknown */
const CsRtpStats *cs_stream_get_stats (CsStream *self);
const CsMos *cs_stream_get_mos (CsStream *self); /* mos < 0 when not an audio stream */
/* Where the stream's gaps, sequence errors and jitter peak are (cs_rtp_stats_compute_marks),
 * at most CS_STREAM_MARK_FRAMES frames per list; the lists belong to the stream. */
#define CS_STREAM_MARK_FRAMES 64
void cs_stream_get_marks (CsStream *self, CsRtpMarks *out);
/* cs_mos_packetisation_ms at the stats' clock rate: the typical packet length in ms. */
double cs_stream_get_packetisation_ms (CsStream *self);
const CsRtpClockMap *cs_stream_get_clock_map (CsStream *self);
/* The packet records (CsRtpPacket), capture order, as a read-only view: read data and len
 * only (g_array_index is fine), never pass it to other g_array_* functions. The stream keeps
 * its records packed: the array is made on the first call and kept with the stream, so a
 * pass over many streams that needs them once should use cs_stream_dup_packet_records. */
const GArray *cs_stream_get_packets (CsStream *self);
/* The same records, typed. */
const CsRtpPacket *cs_stream_get_packet_records (CsStream *self, guint *n_packets);
/* How many records the stream has. */
guint cs_stream_get_n_packets (CsStream *self);
/* The frame of its first packet (0 without packets), without unpacking the others. */
guint32 cs_stream_get_first_frame (CsStream *self);
/* The records unpacked into a new array (g_free it; NULL when there are none). */
CsRtpPacket *cs_stream_dup_packet_records (CsStream *self, guint *n_packets);
/* What RTCP reported about the stream; NULL when no RTCP packet did. */
const CsStreamRtcp *cs_stream_get_rtcp (CsStream *self);

/* The stream with this id in a list of CsStream (ids are positions + 1 as the loader
 * publishes them; another list is scanned), borrowed from the list; NULL when none. */
CsStream *cs_streams_lookup (GListModel *streams, guint id);

G_END_DECLS
