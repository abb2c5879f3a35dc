/* cs-live-decoder.h — one frame at a time into a CsChunk, as the file path decodes it */
#pragma once

#include "loader/cs-chunk.h"

G_BEGIN_DECLS

typedef struct _CsLiveDecoder CsLiveDecoder;

CsLiveDecoder *cs_live_decoder_new (void);
void cs_live_decoder_free (CsLiveDecoder *decoder);

/* Decodes one captured frame (frame numbers increase by one per call) and adds what it carries
 * to chunk exactly as cs_chunk_decode and cs_merge_add_chunk would for a file: SIP (UDP, HEP in
 * UDP), RTP runs and RTCP refs. IP fragments and TCP segments are reassembled here, in capture
 * order, so their SIP messages land in chunk->sip in frame order and chunk->deferred stays
 * empty: a merge fed with such chunks never needs the frame bytes. Returns FALSE when the
 * frame's headers were malformed. */
gboolean cs_live_decoder_add_frame (CsLiveDecoder *decoder, CsChunk *chunk, guint32 number,
                                    guint linktype, const guint8 *data, gsize caplen, gint64 ts_ns);

/* Reassembly state dropped for its caps (as CsCaptureStats counts them for files). */
guint64 cs_live_decoder_get_ip_fragments_evicted (CsLiveDecoder *decoder);
guint64 cs_live_decoder_get_tcp_streams_evicted (CsLiveDecoder *decoder);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsLiveDecoder, cs_live_decoder_free)

G_END_DECLS
