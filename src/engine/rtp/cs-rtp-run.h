/* cs-rtp-run.h — what the merge hands on about media: the packets of one RTP stream (its
 * flow and SSRC) and references to RTCP packets */
#pragma once

#include "base/cs-addr.h"
#include "cs-rtp-pack.h"

G_BEGIN_DECLS

/* RTP stream identity: flow and SSRC. */
typedef struct
{
  CsEndpoint src;
  CsEndpoint dst;
  guint32 ssrc;
} CsRtpStreamKey;

gboolean cs_rtp_stream_key_equal (gconstpointer a, gconstpointer b);

/* Packets of one stream, as the merge hands them to the stream binder. */
typedef struct
{
  CsRtpStreamKey key;
  CsRtpPack pack; /* the records, capture order */
} CsRtpRun;

/* An RTCP packet: kept by frame, parsed when its stream is analysed. */
typedef struct
{
  CsEndpoint src;
  CsEndpoint dst;
  guint32 frame;
} CsRtcpRef;

G_END_DECLS
