/* cs-dtmf.h — DTMF from RFC 4733 telephone-event packets and from SIP INFO bodies */
#pragma once

#include <glib.h>

#include "cs-rtp.h"

G_BEGIN_DECLS

/* RFC 4733 §2.3 event payload (first 4 bytes; later blocks are redundancy). */
typedef struct
{
  guint8 event;     /* 0-9, 10 '*', 11 '#', 12-15 A-D, 16 flash */
  gboolean end;     /* E bit */
  guint8 volume;    /* -dBm0, 0..63 */
  guint16 duration; /* timestamp units since the event's timestamp */
} CsDtmfEvent;

gboolean cs_dtmf_parse_event (const guint8 *payload, gsize len, CsDtmfEvent *out);

/* '0'..'9', '*', '#', 'A'..'D', '!' for flash, '?' for any other event. */
char cs_dtmf_event_char (guint event);

typedef struct
{
  char digit;
  guint8 event;
  guint8 volume;
  gboolean ended;        /* an end packet was seen */
  guint32 rtp_timestamp; /* identifies the event within the stream */
  gint64 start_ns;       /* arrival of the first packet of the event */
  gint64 end_ns;         /* arrival of the last packet merged into it */
  double duration_ms;    /* largest duration field / clock rate */
  guint32 first_frame, last_frame;
  guint32 packets; /* packets merged, redundant end packets included */
} CsDtmfDigit;

/* Incremental fold over one stream's telephone-event packets, capture order. */
typedef struct
{
  guint clock_rate;
} CsDtmfTracker;

void cs_dtmf_tracker_init (CsDtmfTracker *tracker, guint clock_rate /* 0 = 8000 */);
/* Appends a CsDtmfDigit to digits for a new event or updates the one the packet
 * belongs to (same RTP timestamp and event code, among the last few digits).
 * Packets that are not telephone-event payloads are ignored. */
void cs_dtmf_tracker_feed (CsDtmfTracker *tracker, const CsRtpPacket *packet, const guint8 *payload,
                           gsize payload_len, GArray *digits);

/* Whole-stream convenience: packets whose payload_type is event_pt; payloads[i]
 * and payload_lens[i] are packet i's RTP payload. GArray of CsDtmfDigit. */
GArray *cs_dtmf_fold (const CsRtpPacket *packets, const guint8 *const *payloads,
                      const gsize *payload_lens, gsize n, guint event_pt, guint clock_rate);

/* SIP INFO body: application/dtmf-relay ("Signal=5\r\nDuration=160") or
 * application/dtmf ("5"). duration_ms is 0 when the body has none. */
gboolean cs_dtmf_parse_sip_info (const char *content_type, const guint8 *body, gsize len,
                                 char *digit, guint *duration_ms);

G_END_DECLS
