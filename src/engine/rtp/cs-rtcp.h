/* cs-rtcp.h — compound RTCP (RFC 3550 SR, RR, SDES, BYE; RFC 3611 XR VoIP metrics) */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CS_RTCP_MAX_REPORT_BLOCKS 31
#define CS_RTCP_CNAME_MAX 256

typedef struct
{
  guint32 ssrc;           /* source this block reports on */
  guint8 fraction_lost;   /* /256 */
  gint32 cumulative_lost; /* 24-bit signed */
  guint32 ext_highest_seq;
  guint32 jitter; /* interarrival jitter, timestamp units */
  guint32 lsr;    /* middle 32 bits of the last SR's NTP time */
  guint32 dlsr;   /* delay since last SR, 1/65536 s */
} CsRtcpReportBlock;

typedef struct
{
  guint64 ntp; /* NTP timestamp, 32.32 */
  guint32 rtp_timestamp;
  guint32 packet_count;
  guint32 octet_count;
} CsRtcpSenderInfo;

/* RFC 3611 §4.7 VoIP Metrics Report Block (BT = 7). */
typedef struct
{
  guint32 ssrc;
  guint8 loss_rate, discard_rate, burst_density, gap_density; /* /256 */
  guint16 burst_duration, gap_duration;                       /* ms */
  guint16 round_trip_delay, end_system_delay;                 /* ms */
  gint8 signal_level, noise_level;                            /* dBm0; 127 = unavailable */
  guint8 rerl, gmin;
  guint8 r_factor, ext_r_factor; /* 127 = unavailable */
  guint8 mos_lq, mos_cq;         /* ×10; 127 = unavailable */
  guint8 rx_config;
  guint16 jb_nominal, jb_maximum, jb_abs_max; /* ms */
} CsRtcpXrVoip;

typedef struct
{
  guint n_packets;     /* sub-packets walked */
  guint32 sender_ssrc; /* of the first SR/RR */
  gboolean has_sr, has_rr, has_sdes, has_bye, has_xr_voip;
  CsRtcpSenderInfo sender_info;
  CsRtcpReportBlock blocks[CS_RTCP_MAX_REPORT_BLOCKS];
  guint n_blocks;
  char cname[CS_RTCP_CNAME_MAX]; /* first CNAME, NUL-terminated, "" if none */
  guint32 bye_ssrc;
  CsRtcpXrVoip xr_voip;
} CsRtcpCompound;

/* Parses every sub-packet of a compound RTCP datagram. FALSE when the first
 * header is not RTCP or a length runs past the data; what was parsed before
 * a damaged sub-packet stays in out. */
gboolean cs_rtcp_parse (const guint8 *data, gsize len, CsRtcpCompound *out);

/* NTP 32.32 time of a Unix time in ns. */
guint64 cs_rtcp_ntp_from_unix_ns (gint64 unix_ns);

/* Round-trip time in ms from a report block's LSR/DLSR received at arrival_ntp
 * (RFC 3550 §6.4.1); negative when LSR is 0 or the result would be negative. */
double cs_rtcp_rtt_ms (guint32 lsr, guint32 dlsr, guint64 arrival_ntp);

/* TRUE when the n bytes left after the last sub-packet are 0..3 zero bytes. */
gboolean cs_rtcp_trailing_ok (const guint8 *rest, gsize n);

G_END_DECLS
