/* cs-export-rtp.c — the voice of exported RTP packets: silence keeps every length (the
 * metrics read the same), drop cuts the captured bytes after the RTP header */
#include "cs-export-rtp.h"

#include <string.h>

#include "net/cs-decode.h"
#include "rtp/cs-codec.h"
#include "rtp/cs-rtp.h"

/* What a codec plays as silence, as one repeated byte; 0 where no byte does. */
static guint8
cs_silence_byte (const char *encoding)
{
  if (encoding == NULL)
    return 0;
  if (g_ascii_strcasecmp (encoding, "PCMU") == 0)
    return 0xff;
  if (g_ascii_strcasecmp (encoding, "PCMA") == 0)
    return 0xd5;
  return 0;
}

static const char *
cs_encoding_of (CsStream *stream, guint8 payload_type)
{
  const CsCodecInfo *info = NULL;

  if (payload_type == cs_stream_get_stats (stream)->payload_type)
    info = cs_stream_get_codec_info (stream);
  if (info == NULL)
    info = cs_codec_lookup_static (payload_type);
  return info != NULL ? info->encoding : NULL;
}

void
cs_export_rtp_scrub (CsStream *stream, CsExportVoice mode, guint linktype, GByteArray *frame)
{
  const CsRtpClockMap *clocks = cs_stream_get_clock_map (stream);
  CsPacket pkt;
  CsRtpHeader rtp;
  gsize start;

  if (mode == CS_EXPORT_VOICE_KEEP
      || cs_decode_frame (linktype, frame->data, frame->len, &pkt) != CS_DECODE_OK
      || pkt.ip_proto != CS_IP_PROTO_UDP
      || !cs_rtp_parse_header (pkt.payload, pkt.payload_len, &rtp))
    return;
  /* RFC 4733 events and comfort noise carry no voice, and DTMF analysis reads them. */
  if (clocks != NULL
      && (clocks->telephone_event_pt[rtp.payload_type]
          || clocks->comfort_noise_pt[rtp.payload_type]))
    return;
  start = (gsize) (pkt.payload - frame->data) + rtp.header_len;
  /* With padding the packet only parses whole: its voice is silenced instead of cut. */
  if (mode == CS_EXPORT_VOICE_DROP && rtp.padding_len == 0)
    g_byte_array_set_size (frame, (guint) start);
  else
    memset (frame->data + start, cs_silence_byte (cs_encoding_of (stream, rtp.payload_type)),
            rtp.payload_len);
}
