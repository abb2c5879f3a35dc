/* cs-chunk.h — the map step: one worker decodes a range of frames on its own */
#pragma once

#include <gio/gio.h>

#include "base/cs-addr.h"
#include "capture/cs-capture-set.h"
#include "net/cs-decode.h"
#include "rtp/cs-rtp-pack.h"
#include "rtp/cs-rtp-run.h"
#include "rtp/cs-rtp.h"
#include "sip/cs-sip-message.h"

G_BEGIN_DECLS

/* Packets of one stream found in one chunk, packed by the worker (cs_chunk_group_rtp). The
 * pack is a view into the chunk's rtp_pack_bytes: read it, never grow or free it. */
typedef struct
{
  CsRtpStreamKey key;
  guint32 hash;   /* cs_rtp_run_table_hash (&key), in what was padding: the merge files by it */
  CsRtpPack pack; /* capture order */
} CsChunkRtpRun;

/* The tables a chunk borrows from its thread while it is filled (cs-chunk.c). */
typedef struct _CsChunkRtpScratch CsChunkRtpScratch;

/* A frame the merge decodes itself (IP fragments, TCP segments: their order matters). */
typedef struct
{
  CsFrame frame;
  guint32 number;
} CsDeferredFrame;

typedef struct
{
  guint32 first_index; /* index (number - 1) of the first frame */
  guint32 n_frames;

  GPtrArray *sip;          /* CsSipMessage*, complete in one frame, frame order */
  GArray *deferred;        /* CsDeferredFrame, frame order */
  CsChunkRtpRun *rtp_runs; /* in order of first packet; set when grouped */
  guint32 n_rtp_runs;
  /* While the chunk is filled its records go, in capture order, to the thread's scratch,
   * each linked to the next of its run; cs_chunk_group_rtp then packs run after run into
   * one block, so interleaved streams cost no allocation per run. */
  CsChunkRtpScratch *rtp_scratch;
  guint8 *rtp_pack_bytes; /* the runs' packs, one after the other (+ slack), after rtp_runs in
                           * its allocation */
  gboolean rtp_grouped;
  guint64 rtp_packets; /* packets in all runs */
  GArray *rtcp;        /* CsRtcpRef */
  guint64 bytes;
  guint64 undecodable;
  guint64 encrypted; /* ESP packets whose payload is ciphertext (not NULL encryption) */
  /* Where its frames are read from (set up by the thread that indexes), and the copy of
   * them it reads when the set's frame array may still move (or NULL). */
  CsFrameIter start;
  CsFrame *frames;
  CsMappedBytes *mapped; /* borrowed while decoding one file: its SIP messages stay lean */
  CsSipShare *sip_share; /* borrowed too: their strings shared within a call */
  gint decoded;          /* atomic: the loader's hand-off flag (see cs-loader.c) */
} CsChunk;

CsChunk *cs_chunk_new (guint32 first_index, guint32 n_frames);
void cs_chunk_free (CsChunk *chunk);
/* Points the chunk at its frames in set; with pin, copies them if the set's frame array
 * may still move (while indexing). Call on the thread that indexes. */
void cs_chunk_locate_frames (CsChunk *chunk, CsCaptureSet *set, gboolean pin);
/* Decodes the chunk's frames. Thread-safe with respect to other chunks. Messages of a
 * one-file set keep their text in the mapped file and share strings through sip_share
 * (or none when NULL). */
void cs_chunk_decode (CsChunk *chunk, CsCaptureSet *set, CsSipShare *sip_share,
                      GCancellable *cancellable);

/* Sorts a UDP datagram of frame into the chunk: SIP, HEP-carried SIP, RTP or RTCP. */
void cs_chunk_add_udp (CsChunk *chunk, const CsPacket *pkt, guint32 frame, gint64 ts_ns);
/* Adds an RTP packet (UDP payload of pkt) to the chunk's run for its flow and SSRC. */
void cs_chunk_add_rtp (CsChunk *chunk, const CsPacket *pkt, guint32 frame, gint64 ts_ns);
/* Packs each run's records (run->pack). cs_chunk_decode does it on its worker; the merge
 * calls it for chunks filled otherwise. No packet may be added afterwards. */
void cs_chunk_group_rtp (CsChunk *chunk);

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
