/* cs-rtp.h — RTP fixed header parsing and the compact per-packet record streams keep */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint8 version, padding, extension, csrc_count, marker, payload_type;
  guint16 seq;
  guint32 timestamp;
  guint32 ssrc;
  gsize header_len;  /* 12 + CSRCs + header extension */
  gsize payload_len; /* without padding */
  gsize padding_len; /* bytes of padding (incl. the count byte), 0 without P */
} CsRtpHeader;

/* Parses an RTP header from a UDP payload. FALSE unless version 2 and the
 * CSRC list, extension and padding all fit inside len. */
gboolean cs_rtp_parse_header (const guint8 *data, gsize len, CsRtpHeader *out);

/* TRUE when data looks like a compound RTCP packet: version 2, first packet
 * type 200..207, every sub-packet version 2 with type 192..223, and the
 * sub-packet lengths adding up to len (up to 3 trailing zero bytes tolerated,
 * as Wireshark does). */
gboolean cs_rtcp_looks_like (const guint8 *data, gsize len);

/* One RTP packet of a stream: a few machine words. */
typedef struct
{
  gint64 arrival_ns; /* capture timestamp (ns since the epoch) */
  guint32 frame;     /* frame number, 1-based */
  guint32 timestamp; /* RTP timestamp */
  guint16 seq;
  guint16 payload_len; /* clamped to 65535 */
  guint8 payload_type; /* 0..127 */
  guint8 flags;        /* CS_RTP_FLAG_* */
  guint16 reserved;
} CsRtpPacket;

#define CS_RTP_FLAG_MARKER (1u << 0)
#define CS_RTP_FLAG_PADDING (1u << 1)
#define CS_RTP_FLAG_EXTENSION (1u << 2)

G_STATIC_ASSERT (sizeof (CsRtpPacket) == 24);

/* Fills a packet record from a parsed header. */
void cs_rtp_packet_from_header (const CsRtpHeader *header, gint64 arrival_ns, guint32 frame,
                                CsRtpPacket *out);

/* The extended (32-bit) sequence number nearest to reference for a 16-bit one. */
/* Inline: it runs once per packet in the stream measurement. */
static inline guint32
cs_rtp_extend_seq (guint32 reference, guint16 raw)
{
  guint32 seq = (reference & 0xffff0000u) | raw;

  if (seq + 0x8000u < reference)
    seq += 0x10000u;
  else if (reference + 0x8000u < seq && seq >= 0x10000u)
    seq -= 0x10000u;
  return seq;
}
/* The 64-bit timestamp nearest to reference for a 32-bit RTP timestamp. */
gint64 cs_rtp_extend_timestamp (gint64 reference, guint32 raw);

G_END_DECLS
