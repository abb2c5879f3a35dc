/* cs-mos.h — ITU-T G.107 E-model, simplified; one formula everywhere (docs/metrics.md) */
#pragma once

#include <glib.h>

#include "rtp/cs-codec.h"
#include "cs-jitter-buffer.h"
#include "cs-rtp-metrics.h"

G_BEGIN_DECLS

/* One-way network delay assumed on top of buffer and packetisation delay:
 * a typical same-region VoIP path; RTCP RTT/2 replaces it when known. */
#define CS_MOS_NETWORK_DELAY_MS 20.0
#define CS_MOS_DEFAULT_WINDOW_S 5.0

typedef struct
{
  double id;          /* delay impairment */
  double ie_eff;      /* effective equipment impairment after loss */
  double ppl;         /* packet loss after the jitter buffer, percent */
  double bpl;         /* codec packet-loss robustness */
  double ie;          /* codec equipment impairment */
  double burst_ratio; /* BurstR */
  double delay_ms;    /* one-way delay used for id */
  double r;           /* rating factor, 93.2 − id − ie_eff */
  double mos;         /* 1 .. 4.5 */
} CsMos;

/* codec NULL = unknown: treated as G.711 with PLC (Ie 0, Bpl 25.1). */
void cs_mos_compute (const CsCodecInfo *codec, double ppl_percent, double burst_ratio,
                     double one_way_delay_ms, CsMos *out);

/* 1 + 0.035R + 7e-6·R(R−60)(100−R), clamped 1..4.5 (R<0 → 1, R>100 → 4.5). */
double cs_mos_from_r (double r);

/* Cole–Rosenbluth simplification of G.107's Id. */
double cs_mos_delay_impairment (double one_way_delay_ms);

/* Typical timestamp step between consecutive packets of the main payload type, in ms
 * (median); 20 when it cannot be told. */
double cs_mos_packetisation_ms (const CsRtpPacket *packets, gsize n, guint clock_rate);
/* The same from a stream's step table (cs_rtp_stats_compute_marks); FALSE when the table
 * overflowed and only the packets can tell. */
gboolean cs_mos_packetisation_from_steps (const CsRtpStepTable *steps, guint clock_rate,
                                          double *out_ms);

/* Stream → MOS: loss after the jitter buffer (jb NULL = fixed 50 ms); delay =
 * buffer delay + packetisation + CS_MOS_NETWORK_DELAY_MS. */
void cs_mos_for_stream (const CsRtpPacket *packets, gsize n, const CsRtpClockMap *clocks,
                        const CsCodecInfo *codec, const CsJitterBufferConfig *jb, CsMos *out);
/* The clock rate cs_mos_for_stream judges at: the media payload type's
 * (cs_jitter_buffer_media_payload_type), else the codec's, else 8000. */
guint cs_mos_clock_rate (const CsRtpClockMap *clocks, const CsCodecInfo *codec, guint8 media_pt);
/* cs_mos_for_stream with the media payload type, its clock rate and
 * cs_mos_packetisation_ms at that rate already known. */
void cs_mos_for_stream_at (const CsRtpPacket *packets, gsize n, guint8 media_pt, guint clock_rate,
                           double packetisation_ms, const CsCodecInfo *codec,
                           const CsJitterBufferConfig *jb, CsMos *out);

/* cs_mos_for_stream_at from the jitter buffer's result (jb the buffer's configuration, NULL =
 * the default). */
void cs_mos_for_buffer_result (const CsJitterBufferResult *result, double packetisation_ms,
                               const CsCodecInfo *codec, const CsJitterBufferConfig *jb,
                               CsMos *out);

typedef struct
{
  double start_s; /* window start relative to origin_ns */
  guint32 packets;
  CsMos mos;
} CsMosWindow;

/* MOS per window of window_s seconds (CS_MOS_DEFAULT_WINDOW_S). A gap in the sequence
 * numbers is loss where it falls: the windows it covers that got no packet at all are
 * total loss (packets 0, ppl 100 %), the window it ends in counts its share (by time).
 * Windows with no packet and no such gap (the sender paused) are left out. GArray of
 * CsMosWindow. */
GArray *cs_mos_windows (const CsRtpPacket *packets, gsize n, const CsRtpClockMap *clocks,
                        const CsCodecInfo *codec, const CsJitterBufferConfig *jb, double window_s,
                        gint64 origin_ns);

G_END_DECLS
