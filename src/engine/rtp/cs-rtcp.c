/* cs-rtcp.c — compound RTCP parsing through the bounds-checked cursor */
#include "cs-rtcp.h"

#include "base/cs-cursor.h"

#include <string.h>

#define RTCP_SR 200
#define RTCP_RR 201
#define RTCP_SDES 202
#define RTCP_BYE 203
#define RTCP_XR 207
#define SDES_CNAME 1
#define XR_VOIP_METRICS 7
/* Seconds from 1900-01-01 (NTP era 0) to 1970-01-01. */
#define NTP_UNIX_OFFSET G_GUINT64_CONSTANT (2208988800)

static gboolean
read_report_blocks (CsCursor *c, guint count, CsRtcpCompound *out)
{
  for (guint i = 0; i < count; i++)
    {
      CsRtcpReportBlock b;
      guint32 word;

      if (!cs_cursor_u32be (c, &b.ssrc) || !cs_cursor_u32be (c, &word))
        return FALSE;
      b.fraction_lost = word >> 24;
      /* 24-bit two's complement */
      b.cumulative_lost = (gint32) ((word & 0xffffffu) ^ 0x800000u) - 0x800000;
      if (!cs_cursor_u32be (c, &b.ext_highest_seq) || !cs_cursor_u32be (c, &b.jitter)
          || !cs_cursor_u32be (c, &b.lsr) || !cs_cursor_u32be (c, &b.dlsr))
        return FALSE;
      if (out->n_blocks < CS_RTCP_MAX_REPORT_BLOCKS)
        out->blocks[out->n_blocks++] = b;
    }
  return TRUE;
}

static gboolean
parse_sdes (CsCursor *c, guint chunks, CsRtcpCompound *out)
{
  for (guint i = 0; i < chunks; i++)
    {
      guint32 ssrc;

      if (!cs_cursor_u32be (c, &ssrc))
        return FALSE;
      for (;;)
        {
          guint8 type, len;
          const guint8 *text;

          if (!cs_cursor_u8 (c, &type))
            return FALSE;
          if (type == 0)
            {
              /* the item list ends with a null byte, padded to a 32-bit boundary */
              while (c->pos % 4 != 0)
                if (!cs_cursor_skip (c, 1))
                  return FALSE;
              break;
            }
          if (!cs_cursor_u8 (c, &len) || !cs_cursor_bytes (c, len, &text))
            return FALSE;
          if (type == SDES_CNAME && out->cname[0] == '\0')
            {
              gsize n = MIN ((gsize) len, CS_RTCP_CNAME_MAX - 1);

              memcpy (out->cname, text, n);
              out->cname[n] = '\0';
            }
        }
    }
  return TRUE;
}

static gboolean
parse_xr (CsCursor *c, CsRtcpCompound *out)
{
  while (cs_cursor_remaining (c) >= 4)
    {
      guint8 bt, type_specific;
      guint16 words;
      CsCursor block;

      if (!cs_cursor_u8 (c, &bt) || !cs_cursor_u8 (c, &type_specific)
          || !cs_cursor_u16be (c, &words) || !cs_cursor_sub (c, 4u * words, &block))
        return FALSE;
      if (bt == XR_VOIP_METRICS && words == 8)
        {
          CsRtcpXrVoip *x = &out->xr_voip;
          guint8 signal, noise;

          if (!cs_cursor_u32be (&block, &x->ssrc) || !cs_cursor_u8 (&block, &x->loss_rate)
              || !cs_cursor_u8 (&block, &x->discard_rate)
              || !cs_cursor_u8 (&block, &x->burst_density)
              || !cs_cursor_u8 (&block, &x->gap_density)
              || !cs_cursor_u16be (&block, &x->burst_duration)
              || !cs_cursor_u16be (&block, &x->gap_duration)
              || !cs_cursor_u16be (&block, &x->round_trip_delay)
              || !cs_cursor_u16be (&block, &x->end_system_delay) || !cs_cursor_u8 (&block, &signal)
              || !cs_cursor_u8 (&block, &noise) || !cs_cursor_u8 (&block, &x->rerl)
              || !cs_cursor_u8 (&block, &x->gmin) || !cs_cursor_u8 (&block, &x->r_factor)
              || !cs_cursor_u8 (&block, &x->ext_r_factor) || !cs_cursor_u8 (&block, &x->mos_lq)
              || !cs_cursor_u8 (&block, &x->mos_cq) || !cs_cursor_u8 (&block, &x->rx_config)
              || !cs_cursor_skip (&block, 1) || !cs_cursor_u16be (&block, &x->jb_nominal)
              || !cs_cursor_u16be (&block, &x->jb_maximum)
              || !cs_cursor_u16be (&block, &x->jb_abs_max))
            return FALSE;
          x->signal_level = (gint8) signal;
          x->noise_level = (gint8) noise;
          out->has_xr_voip = TRUE;
        }
    }
  return TRUE;
}

gboolean
cs_rtcp_parse (const guint8 *data, gsize len, CsRtcpCompound *out)
{
  CsCursor c;

  memset (out, 0, sizeof *out);
  cs_cursor_init (&c, data, len);
  while (cs_cursor_remaining (&c) >= 4)
    {
      guint8 b0, pt, count;
      guint16 words;
      CsCursor body;
      gboolean ok = TRUE;

      if (!cs_cursor_u8 (&c, &b0) || !cs_cursor_u8 (&c, &pt) || !cs_cursor_u16be (&c, &words))
        return FALSE;
      if ((b0 >> 6) != 2 || (out->n_packets == 0 && (pt < 200 || pt > 207)))
        return FALSE;
      if (!cs_cursor_sub (&c, 4u * words, &body))
        return FALSE;
      count = b0 & 0x1f;
      /* Padding (P bit) is counted in the length; the last byte says how much. */
      if ((b0 & 0x20) && body.len > 0)
        {
          guint8 pad = body.data[body.len - 1];

          if (pad <= body.len)
            body.len -= pad;
        }
      out->n_packets++;

      switch (pt)
        {
        case RTCP_SR:
          {
            guint32 ssrc, ntp_hi, ntp_lo;

            ok = cs_cursor_u32be (&body, &ssrc) && cs_cursor_u32be (&body, &ntp_hi)
                 && cs_cursor_u32be (&body, &ntp_lo)
                 && cs_cursor_u32be (&body, &out->sender_info.rtp_timestamp)
                 && cs_cursor_u32be (&body, &out->sender_info.packet_count)
                 && cs_cursor_u32be (&body, &out->sender_info.octet_count);
            if (!ok)
              break;
            if (!out->has_sr && !out->has_rr)
              out->sender_ssrc = ssrc;
            out->sender_info.ntp = ((guint64) ntp_hi << 32) | ntp_lo;
            out->has_sr = TRUE;
            ok = read_report_blocks (&body, count, out);
            break;
          }
        case RTCP_RR:
          {
            guint32 ssrc;

            ok = cs_cursor_u32be (&body, &ssrc);
            if (!ok)
              break;
            if (!out->has_sr && !out->has_rr)
              out->sender_ssrc = ssrc;
            out->has_rr = TRUE;
            ok = read_report_blocks (&body, count, out);
            break;
          }
        case RTCP_SDES:
          out->has_sdes = TRUE;
          ok = parse_sdes (&body, count, out);
          break;
        case RTCP_BYE:
          out->has_bye = TRUE;
          if (count > 0)
            ok = cs_cursor_u32be (&body, &out->bye_ssrc);
          break;
        case RTCP_XR:
          {
            guint32 ssrc;

            ok = cs_cursor_u32be (&body, &ssrc) && parse_xr (&body, out);
            break;
          }
        default:
          break;
        }
      if (!ok)
        return FALSE;
    }
  return out->n_packets > 0 && cs_rtcp_trailing_ok (cs_cursor_here (&c), cs_cursor_remaining (&c));
}

guint64
cs_rtcp_ntp_from_unix_ns (gint64 unix_ns)
{
  guint64 secs = (guint64) (unix_ns / 1000000000) + NTP_UNIX_OFFSET;
  guint64 frac_ns = (guint64) (unix_ns % 1000000000);

  return (secs << 32) | ((frac_ns << 32) / 1000000000u);
}

double
cs_rtcp_rtt_ms (guint32 lsr, guint32 dlsr, guint64 arrival_ntp)
{
  guint32 arrival_mid = (guint32) (arrival_ntp >> 16);
  guint32 rtt;

  if (lsr == 0)
    return -1.0;
  rtt = arrival_mid - lsr - dlsr; /* modular, 1/65536 s */
  if (rtt > 0x80000000u)
    return -1.0;
  return rtt * 1000.0 / 65536.0;
}
