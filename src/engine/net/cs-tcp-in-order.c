/* cs-tcp-in-order.c — the new bytes of a TCP segment, retransmissions and overlaps cut off */
#include "cs-tcp-in-order.h"

CsTcpInOrderStep
cs_tcp_in_order_take (CsTcpInOrder *order, const CsPacket *packet, const guint8 **data, gsize *len)
{
  guint32 seq = packet->tcp_seq + ((packet->tcp_flags & CS_TCP_SYN) ? 1 : 0);
  gsize n = packet->payload != NULL ? packet->payload_len : 0;
  gint32 ahead;

  *data = packet->payload;
  *len = 0;
  if (n == 0)
    return CS_TCP_IN_ORDER_OLD;
  if (!order->have_seq)
    {
      order->have_seq = TRUE;
      order->first_seq = order->next_seq = seq;
    }
  ahead = (gint32) (seq - order->next_seq);
  if (ahead > 0)
    return CS_TCP_IN_ORDER_GAP;
  if ((gint64) n <= -(gint64) ahead)
    return CS_TCP_IN_ORDER_OLD;
  /* overlaps what was seen: the new part only */
  *data += (gsize) - (gint64) ahead;
  *len = n - (gsize) - (gint64) ahead;
  order->next_seq += (guint32) *len;
  return CS_TCP_IN_ORDER_NEW;
}
