/* cs-frame-payload.h — one engine call for a frame's bytes and what its layers carry: the
 * views that show a frame's payload (the detail pane's exact SIP text and hex dump, the audio
 * track's RTP payloads) read it here instead of decoding frames themselves */
#pragma once

#include <glib.h>

#include "base/cs-addr.h"
#include "capture/cs-capture-set.h"

G_BEGIN_DECLS

typedef struct
{
  CsFrame frame;         /* the record: lengths, time, link type, file */
  const guint8 *data;    /* its captured bytes (frame.caplen of them), in the mapped file */
  gboolean udp;          /* the payload is a UDP datagram's, else a TCP segment's */
  CsEndpoint src, dst;   /* addresses and ports */
  const guint8 *payload; /* inside data */
  gsize payload_offset;  /* from data */
  gsize payload_len;
} CsFramePayload;

/* Reads frame number (1-based, as Wireshark numbers them) of set and decodes its link, IP and
 * UDP or TCP headers: FALSE when there is no such frame or it carries no UDP or TCP payload of
 * its own (not IP, an IP fragment, malformed headers). The pointers live as long as set. */
gboolean cs_capture_set_read_payload (CsCaptureSet *set, guint32 number, CsFramePayload *out);

G_END_DECLS
