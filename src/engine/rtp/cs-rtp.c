/* cs-rtp.c — RTP fixed header parsing (RFC 3550 §5.1) and RTCP recognition */
#include "cs-rtp.h"

#include "base/cs-cursor.h"
#include "cs-rtcp.h"

#include <string.h>

gboolean
cs_rtp_parse_header (const guint8 *data, gsize len, CsRtpHeader *out)
{
  CsCursor c;
  guint8 b0, b1;
  guint16 ext_words;

  memset (out, 0, sizeof *out);
  cs_cursor_init (&c, data, len);
  if (!cs_cursor_u8 (&c, &b0) || !cs_cursor_u8 (&c, &b1) || !cs_cursor_u16be (&c, &out->seq)
      || !cs_cursor_u32be (&c, &out->timestamp) || !cs_cursor_u32be (&c, &out->ssrc))
    return FALSE;

  out->version = b0 >> 6;
  out->padding = (b0 >> 5) & 1;
  out->extension = (b0 >> 4) & 1;
  out->csrc_count = b0 & 0x0f;
  out->marker = b1 >> 7;
  out->payload_type = b1 & 0x7f;
  if (out->version != 2)
    return FALSE;

  if (!cs_cursor_skip (&c, 4u * out->csrc_count))
    return FALSE;
  if (out->extension)
    {
      if (!cs_cursor_skip (&c, 2) || !cs_cursor_u16be (&c, &ext_words)
          || !cs_cursor_skip (&c, 4u * ext_words))
        return FALSE;
    }
  out->header_len = c.pos;

  if (out->padding)
    {
      guint8 count;

      /* The padding count is the packet's last byte and includes itself. */
      if (cs_cursor_remaining (&c) == 0
          || !cs_cursor_peek_u8 (&c, cs_cursor_remaining (&c) - 1, &count) || count == 0
          || count > cs_cursor_remaining (&c))
        return FALSE;
      out->padding_len = count;
    }
  out->payload_len = cs_cursor_remaining (&c) - out->padding_len;
  return TRUE;
}

/* Some stacks leave up to 3 zero bytes after the last sub-packet (seen after
 * SDES in the wild; Wireshark accepts them). Anything else is inconsistent. */
gboolean
cs_rtcp_trailing_ok (const guint8 *rest, gsize n)
{
  if (n >= 4)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    if (rest[i] != 0)
      return FALSE;
  return TRUE;
}

gboolean
cs_rtcp_looks_like (const guint8 *data, gsize len)
{
  CsCursor c;
  gboolean first = TRUE;

  cs_cursor_init (&c, data, len);
  if (len < 8)
    return FALSE;
  while (cs_cursor_remaining (&c) >= 4 || first)
    {
      guint8 b0, pt;
      guint16 words;

      if (!cs_cursor_u8 (&c, &b0) || !cs_cursor_u8 (&c, &pt) || !cs_cursor_u16be (&c, &words))
        return FALSE;
      if ((b0 >> 6) != 2)
        return FALSE;
      if (first ? (pt < 200 || pt > 207) : (pt < 192 || pt > 223))
        return FALSE;
      if (!cs_cursor_skip (&c, 4u * words))
        return FALSE;
      first = FALSE;
    }
  return cs_rtcp_trailing_ok (cs_cursor_here (&c), cs_cursor_remaining (&c));
}

void
cs_rtp_packet_from_header (const CsRtpHeader *header, gint64 arrival_ns, guint32 frame,
                           CsRtpPacket *out)
{
  memset (out, 0, sizeof *out);
  out->arrival_ns = arrival_ns;
  out->frame = frame;
  out->timestamp = header->timestamp;
  out->seq = header->seq;
  out->payload_len = (guint16) MIN (header->payload_len, G_MAXUINT16);
  out->payload_type = header->payload_type & 0x7f;
  if (header->marker)
    out->flags |= CS_RTP_FLAG_MARKER;
  if (header->padding)
    out->flags |= CS_RTP_FLAG_PADDING;
  if (header->extension)
    out->flags |= CS_RTP_FLAG_EXTENSION;
}

gint64
cs_rtp_extend_timestamp (gint64 reference, guint32 raw)
{
  return reference + (gint32) (raw - (guint32) reference);
}
