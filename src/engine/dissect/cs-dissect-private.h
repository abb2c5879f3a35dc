/* cs-dissect-private.h — the dissectors of one frame, layer by layer, and the payload
 * dissectors tried on what UDP or TCP carries (a new protocol adds one entry to
 * cs_dissect_payloads in cs-dissect-payload.c: TLS, SRTP, T.38 …) */
#pragma once

#include "cs-dissect.h"

G_BEGIN_DECLS

/* A UDP or TCP payload, where it lies in the frame. */
typedef struct
{
  const guint8 *frame; /* the frame's bytes: offsets are from here */
  guint32 offset;      /* of the payload */
  guint32 length;
  gboolean udp;
  CsEndpoint src, dst;
  const CsDissectHints *hints;
} CsDissectPayload;

typedef struct
{
  const char *name;
  /* TRUE when it took the payload (and added its layers). */
  gboolean (*dissect) (CsProtoTree *tree, const CsDissectPayload *payload);
} CsPayloadDissector;

/* Tries the payload dissectors in order; the payload is shown as data when none takes it. */
void cs_dissect_payload (CsProtoTree *tree, const CsDissectPayload *payload);

gboolean cs_dissect_hep (CsProtoTree *tree, const CsDissectPayload *payload);
gboolean cs_dissect_sip (CsProtoTree *tree, const CsDissectPayload *payload);
gboolean cs_dissect_rtcp (CsProtoTree *tree, const CsDissectPayload *payload);
gboolean cs_dissect_rtp (CsProtoTree *tree, const CsDissectPayload *payload);
/* The SDP body at offset, length bytes of frame (under a SIP message). */
void cs_dissect_sdp (CsProtoTree *tree, const guint8 *frame, guint32 offset, guint32 length);

/* The frame's link layer up to the network header (Ethernet, VLAN, MPLS, SLL, SLL2, NULL):
 * the offset where the network header starts, or G_MAXUINT32 when it is cut short or not IP. */
guint32 cs_dissect_link (CsProtoTree *tree, guint linktype, const guint8 *data, guint32 caplen);
/* An Ethernet header at at (a frame's, or one a tunnel carries): where the network header
 * starts, or G_MAXUINT32. */
guint32 cs_dissect_ethernet (CsProtoTree *tree, const guint8 *data, guint32 caplen, guint32 at);
/* IPv4, IPv6, UDP and TCP headers at the offsets the decoder found. */
void cs_dissect_ipv4 (CsProtoTree *tree, const guint8 *data, guint32 caplen, guint32 offset);
void cs_dissect_ipv6 (CsProtoTree *tree, const guint8 *data, guint32 caplen, guint32 offset);
void cs_dissect_ipv6_fragment (CsProtoTree *tree, const guint8 *data, guint32 caplen,
                               guint32 offset);
void cs_dissect_udp (CsProtoTree *tree, const guint8 *data, guint32 caplen, guint32 offset);
/* payload_len: the segment's data (the IP length's, without Ethernet padding). */
void cs_dissect_tcp (CsProtoTree *tree, const guint8 *data, guint32 caplen, guint32 offset,
                     guint32 payload_len);

/* Bytes shown as data ("data.data", "data.len"). */
void cs_dissect_data (CsProtoTree *tree, const guint8 *data, guint32 offset, guint32 length);

/* Big-endian reads (callers check the length first). */
static inline guint32
cs_dissect_u32 (const guint8 *p)
{
  return ((guint32) p[0] << 24) | ((guint32) p[1] << 16) | ((guint32) p[2] << 8) | p[3];
}

static inline guint16
cs_dissect_u16 (const guint8 *p)
{
  return (guint16) ((p[0] << 8) | p[1]);
}

G_END_DECLS
