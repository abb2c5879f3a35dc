/* cs-rtp-clock-map.h — the clock rate of each RTP payload type of a stream, and which types
 * are RFC 4733 events or comfort noise, as Wireshark's RTP analysis knows them */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint clock_rate_by_pt[128];    /* Hz per payload type; 0 = unknown (no jitter) */
  guint8 telephone_event_pt[128]; /* 1: RFC 4733 events (excluded from jitter) */
  guint8 comfort_noise_pt[128];   /* 1: comfort noise (excluded from delta/jitter stats) */
} CsRtpClockMap;

/* Static table only (Wireshark's clock table for PT 0..34, CN = 13 and 19). */
void cs_rtp_clock_map_init_static (CsRtpClockMap *map);

/* Applies one SDP "a=rtpmap:PT ENCODING/RATE" the way Wireshark does:
 * static payload types (< 96) keep the static clock; a dynamic
 * telephone-event is marked as such; other dynamic types take the rtpmap
 * rate, else the usual rate of the encoding name. Comfort noise is only ever
 * PT 13/19, as in Wireshark. */
void cs_rtp_clock_map_set_rtpmap (CsRtpClockMap *map, guint payload_type, const char *encoding,
                                  guint clock_rate);

G_END_DECLS
