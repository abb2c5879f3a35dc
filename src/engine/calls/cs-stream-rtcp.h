/* cs-stream-rtcp.h — what RTCP said about each RTP stream: reception reports from the far
 * end (loss, jitter, round-trip time), sender reports, XR VoIP metrics, CNAME */
#pragma once

#include <glib.h>

#include "base/cs-addr.h"
#include "capture/cs-capture-set.h"
#include "cs-stream.h"

G_BEGIN_DECLS

/* One reception report about the stream, as the receiver sent it. */
typedef struct
{
  guint32 frame;        /* RTCP frame carrying the report block */
  gint64 arrival_ns;    /* its capture time */
  guint8 fraction_lost; /* /256, since the previous report */
  gint32 cumulative_lost;
  guint32 jitter;   /* timestamp units */
  double jitter_ms; /* at the stream's clock rate; < 0 when the rate is unknown */
  double rtt_ms;    /* < 0 when the SR that LSR names is not in the capture */
  guint32 sr_frame; /* frame of the SR that LSR names; 0 when not found */
} CsStreamRtcpReport;

struct _CsStreamRtcp
{
  guint n_sr; /* sender reports from the stream's source with its SSRC */
  guint n_rr; /* reception reports about the stream (RR or SR report blocks) */
  guint8 last_fraction_lost, max_fraction_lost; /* /256 */
  gint32 last_cumulative_lost;
  double last_jitter_ms, max_jitter_ms; /* reported by the receiver; < 0 when unknown */
  guint n_rtt;
  double min_rtt_ms, mean_rtt_ms, max_rtt_ms; /* over the reports with an RTT; < 0 when none */
  gboolean has_xr_voip;                       /* the fields below come from the last XR block */
  double xr_mos_lq, xr_mos_cq, xr_r_factor;   /* < 0 when unavailable */
  double xr_loss_rate, xr_discard_rate;       /* fractions 0..1 */
  double xr_burst_density, xr_gap_density;    /* fractions 0..1 */
  guint xr_burst_duration_ms, xr_gap_duration_ms;
  gboolean bye_seen;
  char *cname;     /* from the source's SDES; NULL when none */
  GArray *reports; /* CsStreamRtcpReport, capture order */
  GArray *frames;  /* guint32: every RTCP frame attached to the stream, capture order */
};

void cs_stream_rtcp_free (CsStreamRtcp *rtcp);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsStreamRtcp, cs_stream_rtcp_free)

/* One RTCP datagram to attach: its flow, arrival and UDP payload. */
typedef struct
{
  const CsEndpoint *src, *dst;
  guint32 frame;
  gint64 arrival_ns;
  const guint8 *data;
  gsize len;
} CsRtcpDatagram;

/* Attaches RTCP datagrams (capture order) to streams. A datagram reports on a stream when
 * the SSRC matches (SR sender SSRC = the stream's; report block / XR SSRC = the stream's)
 * and its flow is the stream's RTCP flow: same addresses, ports equal to the RTP ports
 * (rtcp-mux) or one above them — from the source for SRs, from the receiver for reports.
 * When no stream's flow fits, a stream whose SSRC matches and whose two addresses are the
 * datagram's (any ports, e.g. a=rtcp) is taken. Stores a CsStreamRtcp on each stream
 * reported on. Streams must be measured (clock rates known). */
void cs_stream_rtcp_attach (GPtrArray *streams, const CsRtcpDatagram *datagrams, gsize n);

/* The same, re-reading the RTCP frames (CsRtcpRef of rtp/cs-rtp-run.h) from the capture set. */
void cs_stream_rtcp_attach_refs (GPtrArray *streams, const GArray *rtcp_refs, CsCaptureSet *set);

G_END_DECLS
