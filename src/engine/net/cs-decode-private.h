/* cs-decode-private.h — the layers of one frame's decode, shared by cs-decode.c (link, IP,
 * transport) and cs-decode-tunnel.c (the encapsulations peeled in between) */
#pragma once

#include "base/cs-cursor.h"
#include "cs-decode.h"

G_BEGIN_DECLS

/* State shared by the layers of one frame's decode. */
typedef struct
{
  const guint8 *frame; /* start of the frame, for transport_offset (NULL: a reassembled buffer) */
  const guint8 *base;  /* start of the bytes decoded, for the tunnel layers' offsets */
  CsPacket *packet;
  CsDecodeLayers *layers; /* NULL unless the caller wants the header offsets */
} CsDecodeCtx;

/* Records where a header starts (cs_decode_frame_layers only: one test per header). */
static inline void
cs_decode_push_layer (CsDecodeCtx *ctx, CsLayerKind kind, const guint8 *at)
{
  CsDecodeLayers *l = ctx->layers;

  if (l != NULL && ctx->frame != NULL && l->n < CS_DECODE_MAX_LAYERS)
    {
      l->layers[l->n].kind = (guint8) kind;
      l->layers[l->n].offset = (guint32) (at - ctx->frame);
      l->n++;
    }
}

/* An IPv4 or IPv6 packet, chosen by its version nibble (NOT_IP for another). */
CsDecodeStatus cs_decode_ip_layer (CsDecodeCtx *ctx, CsCursor *c);
/* The protocol proto carried by IP, c on its header. */
CsDecodeStatus cs_decode_ip_payload_layer (CsDecodeCtx *ctx, guint8 proto, CsCursor *c);
/* An Ethernet II frame (with VLAN tags, MPLS, PPPoE inside). */
CsDecodeStatus cs_decode_ethernet_layer (CsDecodeCtx *ctx, CsCursor *c);
/* What follows an EtherType field holding type, c after it. */
CsDecodeStatus cs_decode_ethertype_layer (CsDecodeCtx *ctx, guint16 type, CsCursor *c);

/* Notes an encapsulation of kind whose header starts at header; FALSE when the frame already
 * nests CS_DECODE_MAX_TUNNELS of them. */
gboolean cs_decode_push_tunnel (CsDecodeCtx *ctx, CsTunnelKind kind, const guint8 *header);

/* The UDP datagram of ports sport/dport whose payload is c: when it carries a tunnel the
 * decoder knows, *status is the inner packet's decode and TRUE is returned; FALSE leaves the
 * datagram as it is (not a tunnel port, or no valid tunnel header there). */
gboolean cs_decode_udp_tunnel (CsDecodeCtx *ctx, guint16 sport, guint16 dport, CsCursor *c,
                               CsDecodeStatus *status);
/* GRE (IP protocol 47), c on its header. */
CsDecodeStatus cs_decode_gre (CsDecodeCtx *ctx, CsCursor *c);
/* ESP (IP protocol 50), c on its header: the payload when NULL-encrypted, else ENCRYPTED. */
CsDecodeStatus cs_decode_esp (CsDecodeCtx *ctx, CsCursor *c);

G_END_DECLS
