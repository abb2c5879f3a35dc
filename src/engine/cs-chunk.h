/* cs-chunk.h — the map step: one worker decodes a range of frames on its own */
#pragma once

#include <gio/gio.h>

#include "cs-addr.h"
#include "cs-capture-set.h"
#include "cs-decode.h"
#include "cs-rtp.h"
#include "cs-sip-message.h"

G_BEGIN_DECLS

/* RTP stream identity: flow and SSRC. */
typedef struct
{
  CsEndpoint src;
  CsEndpoint dst;
  guint32 ssrc;
} CsRtpStreamKey;

guint cs_rtp_stream_key_hash (gconstpointer key);
gboolean cs_rtp_stream_key_equal (gconstpointer a, gconstpointer b);

/* Packets of one stream found in one chunk. */
typedef struct
{
  CsRtpStreamKey key;
  GArray *packets; /* CsRtpPacket, capture order */
} CsRtpRun;

/* An RTCP packet: kept by frame, parsed when its stream is analysed. */
typedef struct
{
  CsEndpoint src;
  CsEndpoint dst;
  guint32 frame;
} CsRtcpRef;

typedef struct
{
  guint32 first_index; /* index into the frame array */
  guint32 n_frames;

  GPtrArray *sip;       /* CsSipMessage*, complete in one frame, frame order */
  GArray *deferred;     /* guint32 frame numbers: IP fragments and TCP segments */
  GHashTable *rtp_runs; /* CsRtpStreamKey* → CsRtpRun* */
  GPtrArray *rtp_order; /* CsRtpRun* in order of first packet */
  GArray *rtcp;         /* CsRtcpRef */
  guint64 bytes;
  guint64 undecodable;
  /* Its own copy of its frames (so the index may keep growing while workers decode),
   * or NULL to read them from the capture set. */
  CsFrame *frames;
  gint decoded; /* atomic: the loader's hand-off flag (see cs-loader.c) */
} CsChunk;

CsChunk *cs_chunk_new (guint32 first_index, guint32 n_frames);
void cs_chunk_free (CsChunk *chunk);
/* Gives the chunk a private copy of its n_frames frames. */
void cs_chunk_copy_frames (CsChunk *chunk, const CsFrame *frames);
/* Decodes the chunk's frames. Thread-safe with respect to other chunks. */
void cs_chunk_decode (CsChunk *chunk, CsCaptureSet *set, GCancellable *cancellable);

/* Sorts a UDP datagram of frame into the chunk: SIP, HEP-carried SIP, RTP or RTCP. */
void cs_chunk_add_udp (CsChunk *chunk, const CsPacket *pkt, guint32 frame, gint64 ts_ns);
/* Adds an RTP packet (UDP payload of pkt) to the chunk's run for its flow and SSRC. */
void cs_chunk_add_rtp (CsChunk *chunk, const CsPacket *pkt, guint32 frame, gint64 ts_ns);

/* What a UDP payload carries, decided on content (SIP is found on any port). */
typedef enum
{
  CS_UDP_PAYLOAD_OTHER,
  CS_UDP_PAYLOAD_SIP,
  CS_UDP_PAYLOAD_HEP,
  CS_UDP_PAYLOAD_RTP,
  CS_UDP_PAYLOAD_RTCP,
} CsUdpPayloadKind;

CsUdpPayloadKind cs_udp_payload_classify (const guint8 *data, gsize len, guint16 sport,
                                          guint16 dport);
/* Parses a SIP message out of a UDP or HEP payload and stamps where it came from. */
CsSipMessage *cs_sip_message_from_payload (const guint8 *data, gsize len, const CsEndpoint *src,
                                           const CsEndpoint *dst, CsSipTransport transport,
                                           guint32 frame, gint64 ts_ns);

G_END_DECLS
