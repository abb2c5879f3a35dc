/* cs-amr-payload.h — RFC 4867 AMR and AMR-WB RTP payloads (octet-aligned or
 * bandwidth-efficient) split into the storage-format frames the decoders take */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The most frames one payload may carry here (RFC 4867 allows more; 20 ms each, 16 is 320 ms). */
#define CS_AMR_MAX_FRAMES 16
/* A storage-format frame: the header byte (FT << 3 | Q << 2), then the speech bits. */
#define CS_AMR_FRAME_BYTES 62

typedef struct
{
  guint n_frames;
  guint8 frames[CS_AMR_MAX_FRAMES][CS_AMR_FRAME_BYTES];
} CsAmrFrames;

/* Speech bits of frame type ft (0 for NO_DATA and the reserved types; -1 when ft cannot
 * appear in a payload). */
gint cs_amr_frame_bits (gboolean wideband, guint ft);

/* Splits an RTP payload (no interleaving, no CRC). FALSE when it is not a valid payload of
 * that mode: a frame type that cannot be there, or fewer bytes than its table of contents
 * says. */
gboolean cs_amr_payload_split (gboolean wideband, gboolean octet_aligned, const guint8 *payload,
                               gsize len, CsAmrFrames *out);

/* Whether an fmtp line asks for octet-aligned payloads (octet-align=1). */
gboolean cs_amr_fmtp_octet_aligned (const char *fmtp);

G_END_DECLS
