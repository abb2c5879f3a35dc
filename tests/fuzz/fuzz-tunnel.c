/* fuzz-tunnel.c — the tunnel decoders (GTP-U, VXLAN, Geneve, GRE/ERSPAN, ESP-NULL, IP in IP)
 * reached directly: each record's inner bytes are wrapped in a tunnel header (one byte of the
 * record picks the kind, two more bend the header), so mutations explore the headers and
 * what they carry; decode must stay inside the frame and within the nesting limit.
 *
 * Input: records (fuzz-common.h); each: kind, offset, xor, then the inner frame (Ethernet, as
 * the decode corpus holds; its IP part where the tunnel carries IP). */
#include "fuzz-common.h"

#include "../unit/net/frame-bytes.h"

#include "net/cs-decode.h"

#include <string.h>

typedef struct
{
  guint8 ip_proto;  /* outer IP protocol */
  guint16 udp_port; /* 0: not over UDP */
  gboolean carries_ethernet;
  guint8 header[24];
  guint header_len;
} Wrapper;

static const Wrapper wrappers[] = {
  { 17, 2152, FALSE, { 0x34, 0xff, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0x85, 1, 0x10, 5, 0 }, 16 },
  { 17, 2152, FALSE, { 0x30, 0xff, 0, 0, 0, 0, 0, 1 }, 8 },
  { 17, 4789, TRUE, { 0x08, 0, 0, 0, 0, 0, 1, 0 }, 8 },
  { 17, 6081, TRUE, { 0x01, 0, 0x65, 0x58, 0, 0, 7, 0, 1, 3, 1, 0 }, 12 },
  { 17, 6081, FALSE, { 0x00, 0, 0x08, 0x00, 0, 0, 7, 0 }, 8 },
  { 47, 0, FALSE, { 0x20, 0, 0x08, 0x00, 0, 0, 0, 42 }, 8 },
  { 47, 0, TRUE, { 0, 0, 0x65, 0x58 }, 4 },
  { 47, 0, TRUE, { 0, 0, 0x88, 0xbe }, 4 },
  { 47, 0, TRUE, { 0x10, 0, 0x88, 0xbe, 0, 0, 0, 1, 0x10, 100, 0, 7, 0, 0, 0, 0 }, 16 },
  { 47, 0, TRUE, { 0x10, 0, 0x22, 0xeb, 0, 0, 0, 1, 0x20, 100, 0, 7, 0, 0, 0, 9, 0, 0, 0, 1 }, 20 },
  { 50, 0, FALSE, { 0xc0, 0xff, 0xee, 1, 0, 0, 0, 1 }, 8 },
  { 4, 0, FALSE, { 0 }, 0 },
  { 41, 0, FALSE, { 0 }, 0 },
};

/* Ethernet, IPv4 of protocol w->ip_proto, UDP when w has a port, then body. */
static GByteArray *
outer_frame (const Wrapper *w, const GByteArray *body)
{
  GByteArray *f = g_byte_array_new ();
  static const guint8 macs[12] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1 };
  guint udp = w->udp_port != 0 ? 8 : 0;

  g_byte_array_append (f, macs, sizeof macs);
  put16 (f, 0x0800);
  put16 (f, 0x4500);
  put16 (f, (guint16) MIN (20 + udp + body->len, G_MAXUINT16));
  put16 (f, 0);
  put16 (f, 0);
  g_byte_array_append (f, (guint8[]){ 64, w->ip_proto, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2 }, 12);
  if (udp != 0)
    {
      put16 (f, 40000);
      put16 (f, w->udp_port);
      put16 (f, (guint16) MIN (8 + body->len, G_MAXUINT16));
      put16 (f, 0);
    }
  g_byte_array_append (f, body->data, body->len);
  return f;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  CsFuzzRecords records;
  const uint8_t *rec;
  size_t len;

  cs_fuzz_init_once ();
  cs_fuzz_records_init (&records, data, size);
  while (cs_fuzz_records_next (&records, &rec, &len))
    {
      Wrapper w;
      GByteArray *body, *frame;
      CsPacket pkt;
      const guint8 *inner;
      gsize inner_len;
      CsDecodeStatus status;

      if (len < 3)
        continue;
      w = wrappers[rec[0] % G_N_ELEMENTS (wrappers)];
      if (w.header_len > 0)
        w.header[rec[1] % w.header_len] ^= rec[2];
      inner = rec + 3;
      inner_len = len - 3;
      if (!w.carries_ethernet && inner_len >= 14)
        {
          inner += 14; /* the IP packet of the corpus's Ethernet frame */
          inner_len -= 14;
        }
      body = g_byte_array_new ();
      g_byte_array_append (body, w.header, w.header_len);
      g_byte_array_append (body, inner, (guint) inner_len);
      frame = outer_frame (&w, body);
      status = cs_decode_frame (CS_LINKTYPE_ETHERNET, frame->data, frame->len, &pkt);
      g_assert (pkt.n_tunnels <= CS_DECODE_MAX_TUNNELS);
      for (guint i = 0; i < pkt.n_tunnels; i++)
        g_assert (pkt.tunnels[i].kind != CS_TUNNEL_NONE && pkt.tunnels[i].offset < frame->len);
      if (status == CS_DECODE_OK)
        g_assert (pkt.payload_len == 0
                  || (pkt.payload >= frame->data
                      && pkt.payload + pkt.payload_len <= frame->data + frame->len));
      if (status == CS_DECODE_FRAGMENT)
        g_assert (pkt.frag.data >= frame->data
                  && pkt.frag.data + pkt.frag.len <= frame->data + frame->len);
      g_byte_array_unref (frame);
      g_byte_array_unref (body);
    }
  return 0;
}
