/* cs-frame-payload.c — a frame's bytes decoded to its UDP or TCP payload, for the views */
#include "cs-frame-payload.h"

#include "cs-decode.h"

gboolean
cs_capture_set_read_payload (CsCaptureSet *set, guint32 number, CsFramePayload *out)
{
  CsPacket packet;

  memset (out, 0, sizeof *out);
  out->data = set != NULL ? cs_capture_set_read_frame (set, number, &out->frame) : NULL;
  if (out->data == NULL
      || cs_decode_frame (out->frame.linktype, out->data, out->frame.caplen, &packet)
             != CS_DECODE_OK
      || (packet.ip_proto != CS_IP_PROTO_UDP && packet.ip_proto != CS_IP_PROTO_TCP))
    return FALSE;
  out->udp = packet.ip_proto == CS_IP_PROTO_UDP;
  out->src = packet.src;
  out->dst = packet.dst;
  out->payload = packet.payload;
  out->payload_offset = (gsize) (packet.payload - out->data);
  out->payload_len = packet.payload_len;
  return TRUE;
}
