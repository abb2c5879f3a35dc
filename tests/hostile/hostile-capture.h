/* hostile-capture.h — a small, real call (SIP over UDP with SDP, then RTP both
 * ways) written as pcap or pcapng, that the hostile tests then damage */
#pragma once

#include "../unit/capture-builder.h"

typedef struct
{
  GByteArray *bytes;
  GArray *record_offsets; /* guint64: where each record (pcap) or EPB (pcapng) starts */
  guint n_sip;            /* SIP frames, the first ones */
  guint n_rtp;            /* RTP frames after them */
} HostileCapture;

#define HOSTILE_CALL_ID "hostile-1@192.0.2.10"

static inline void
hostile_put_be16 (guint8 *p, guint16 v)
{
  p[0] = v >> 8;
  p[1] = v & 0xff;
}

/* Ethernet + IPv4 + UDP around payload. */
static inline GByteArray *
hostile_udp_frame (guint8 src_host, guint8 dst_host, guint16 sport, guint16 dport,
                   const void *payload, gsize len)
{
  GByteArray *f = g_byte_array_new ();
  guint8 eth[14] = { 2, 0, 0, 0, 0, dst_host, 2, 0, 0, 0, 0, src_host, 0x08, 0x00 };
  guint8 ip[20]
      = { 0x45, 0, 0, 0, 0, 1, 0x40, 0, 64, 17, 0, 0, 192, 0, 2, src_host, 192, 0, 2, dst_host };
  guint8 udp[8] = { 0 };

  hostile_put_be16 (ip + 2, (guint16) (20 + 8 + len));
  hostile_put_be16 (udp, sport);
  hostile_put_be16 (udp + 2, dport);
  hostile_put_be16 (udp + 4, (guint16) (8 + len));
  g_byte_array_append (f, eth, sizeof eth);
  g_byte_array_append (f, ip, sizeof ip);
  g_byte_array_append (f, udp, sizeof udp);
  g_byte_array_append (f, payload, (guint) len);
  return f;
}

static inline char *
hostile_sip (const char *start_line, const char *cseq, gboolean to_tag, gboolean sdp_from_callee)
{
  const char *sdp_fmt = "v=0\r\no=- 1 1 IN IP4 192.0.2.%u\r\ns=-\r\nc=IN IP4 192.0.2.%u\r\n"
                        "t=0 0\r\nm=audio %u RTP/AVP 0\r\na=rtpmap:0 PCMU/8000\r\n";
  g_autofree char *sdp = NULL;

  if (strstr (start_line, "INVITE sip") == start_line)
    sdp = g_strdup_printf (sdp_fmt, 10, 10, 40000);
  else if (sdp_from_callee)
    sdp = g_strdup_printf (sdp_fmt, 20, 20, 50000);
  return g_strdup_printf ("%s\r\nVia: SIP/2.0/UDP 192.0.2.10:5060;branch=z9hG4bK-%s\r\n"
                          "From: <sip:alice@192.0.2.10>;tag=a1\r\nTo: <sip:bob@192.0.2.20>%s\r\n"
                          "Call-ID: " HOSTILE_CALL_ID "\r\nCSeq: %s\r\n%s"
                          "Content-Length: %u\r\n\r\n%s",
                          start_line, cseq, to_tag ? ";tag=b2" : "", cseq,
                          sdp != NULL ? "Content-Type: application/sdp\r\n" : "",
                          sdp != NULL ? (guint) strlen (sdp) : 0u, sdp != NULL ? sdp : "");
}

static inline void
hostile_write_frame (HostileCapture *c, gboolean pcapng, guint64 ts_us, GByteArray *frame)
{
  guint64 at = c->bytes->len;

  g_array_append_val (c->record_offsets, at);
  if (pcapng)
    {
      GByteArray *body = g_byte_array_new ();

      put_u32 (body, FALSE, 0);
      put_u32 (body, FALSE, (guint32) (ts_us >> 32));
      put_u32 (body, FALSE, (guint32) ts_us);
      put_u32 (body, FALSE, frame->len);
      put_u32 (body, FALSE, frame->len);
      put_bytes (body, frame->data, frame->len);
      put_zeros (body, (4 - frame->len % 4) % 4);
      ng_block (c->bytes, FALSE, 6, body);
      g_byte_array_unref (body);
    }
  else
    pcap_record_data (c->bytes, FALSE, (guint32) (ts_us / 1000000), (guint32) (ts_us % 1000000),
                      frame->data, frame->len);
  g_byte_array_unref (frame);
}

/* INVITE, 100, 180, 200 (SDP both ways), ACK, then n_rtp RTP packets
 * alternating directions, 20 ms apart, then BYE and its 200. */
static inline HostileCapture
hostile_capture_build (gboolean pcapng, guint n_rtp)
{
  HostileCapture c = { g_byte_array_new (), g_array_new (FALSE, FALSE, sizeof (guint64)), 0, 0 };
  const struct
  {
    const char *start;
    const char *cseq;
    gboolean to_tag, from_caller, sdp;
  } sip[] = {
    { "INVITE sip:bob@192.0.2.20 SIP/2.0", "1 INVITE", FALSE, TRUE, FALSE },
    { "SIP/2.0 100 Trying", "1 INVITE", FALSE, FALSE, FALSE },
    { "SIP/2.0 180 Ringing", "1 INVITE", TRUE, FALSE, FALSE },
    { "SIP/2.0 200 OK", "1 INVITE", TRUE, FALSE, TRUE },
    { "ACK sip:bob@192.0.2.20 SIP/2.0", "1 ACK", TRUE, TRUE, FALSE },
  };
  guint64 ts = G_GUINT64_CONSTANT (1700000000) * 1000000;

  if (pcapng)
    {
      ng_shb (c.bytes, FALSE, NULL);
      ng_idb (c.bytes, FALSE, 1, 65535, -1, 0);
    }
  else
    pcap_header (c.bytes, FALSE, FALSE, 65535, 1);
  for (guint i = 0; i < G_N_ELEMENTS (sip); i++)
    {
      g_autofree char *text = hostile_sip (sip[i].start, sip[i].cseq, sip[i].to_tag, sip[i].sdp);

      ts += 100000;
      hostile_write_frame (&c, pcapng, ts,
                           sip[i].from_caller
                               ? hostile_udp_frame (10, 20, 5060, 5060, text, strlen (text))
                               : hostile_udp_frame (20, 10, 5060, 5060, text, strlen (text)));
      c.n_sip++;
    }
  for (guint i = 0; i < n_rtp; i++)
    {
      guint8 rtp[12 + 160];
      gboolean forward = i % 2 == 0;
      guint seq = i / 2;

      memset (rtp, 0xff, sizeof rtp);
      rtp[0] = 0x80;
      rtp[1] = 0;
      hostile_put_be16 (rtp + 2, (guint16) seq);
      rtp[4] = (guint8) ((seq * 160) >> 24);
      rtp[5] = (guint8) ((seq * 160) >> 16);
      rtp[6] = (guint8) ((seq * 160) >> 8);
      rtp[7] = (guint8) (seq * 160);
      rtp[8] = forward ? 0x11 : 0x22, rtp[9] = rtp[10] = rtp[11] = 0x33;
      ts += 10000;
      hostile_write_frame (&c, pcapng, ts,
                           forward ? hostile_udp_frame (10, 20, 40000, 50000, rtp, sizeof rtp)
                                   : hostile_udp_frame (20, 10, 50000, 40000, rtp, sizeof rtp));
      c.n_rtp++;
    }
  {
    g_autofree char *bye = hostile_sip ("BYE sip:bob@192.0.2.20 SIP/2.0", "2 BYE", TRUE, FALSE);
    g_autofree char *ok = hostile_sip ("SIP/2.0 200 OK", "2 BYE", TRUE, FALSE);

    hostile_write_frame (&c, pcapng, ts + 100000,
                         hostile_udp_frame (10, 20, 5060, 5060, bye, strlen (bye)));
    hostile_write_frame (&c, pcapng, ts + 200000,
                         hostile_udp_frame (20, 10, 5060, 5060, ok, strlen (ok)));
    c.n_sip += 2;
  }
  return c;
}

static inline void
hostile_capture_clear (HostileCapture *c)
{
  g_byte_array_unref (c->bytes);
  g_array_unref (c->record_offsets);
}

/* SIP and RTP frames among the first k records. */
static inline guint
hostile_sip_in_first (const HostileCapture *c, guint k)
{
  guint head = c->n_sip - 2;

  return k <= head ? k : k <= head + c->n_rtp ? head : MIN (k - c->n_rtp, c->n_sip);
}

static inline guint
hostile_rtp_in_first (const HostileCapture *c, guint k)
{
  guint head = c->n_sip - 2;

  return k <= head ? 0 : MIN (k - head, c->n_rtp);
}

static inline guint64
hostile_record_offset (const HostileCapture *c, guint index)
{
  return index < c->record_offsets->len ? g_array_index (c->record_offsets, guint64, index)
                                        : c->bytes->len;
}
