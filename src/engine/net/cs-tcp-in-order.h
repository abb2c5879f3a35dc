/* cs-tcp-in-order.h — one TCP direction read strictly in order: what a segment adds to the
 * bytes already seen, for the trackers that parse a stream as it comes (TLS, WebSocket) */
#pragma once

#include <glib.h>

#include "cs-decode.h"

G_BEGIN_DECLS

typedef struct
{
  gboolean have_seq;
  guint32 first_seq; /* TCP number of the direction's first payload byte */
  guint32 next_seq;
} CsTcpInOrder;

typedef enum
{
  CS_TCP_IN_ORDER_NEW, /* data, len: the bytes that continue the stream */
  CS_TCP_IN_ORDER_OLD, /* nothing new: a retransmission or an empty segment */
  CS_TCP_IN_ORDER_GAP, /* bytes are missing before this segment */
} CsTcpInOrderStep;

/* The new part of packet's payload (the first segment seen starts the stream; a SYN's
 * sequence number counts one). */
CsTcpInOrderStep cs_tcp_in_order_take (CsTcpInOrder *order, const CsPacket *packet,
                                       const guint8 **data, gsize *len);

G_END_DECLS
