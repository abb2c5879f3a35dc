/* cs-rtp-pack.c — a stream's RTP packet records, delta-packed to a few bytes each */
#include "cs-rtp-pack.h"

#include <string.h>

/* Small packs grow exactly up to this many bytes; longer ones double. */
#define CS_PACK_EXACT_BYTES 2048
/* Records packed per batch on the stack before they are appended. */
#define CS_PACK_BATCH 64

static inline guint64
zigzag64 (guint64 v)
{
  return (v << 1) ^ (0 - (v >> 63));
}

static inline guint32
zigzag32 (guint32 v)
{
  return (v << 1) ^ (0 - (v >> 31));
}

/* Stores the low size bytes of v, little-endian; out has 8 bytes of room. */
static inline guint8 *
store_le (guint8 *out, guint64 v, guint size)
{
  v = GUINT64_TO_LE (v);
  memcpy (out, &v, sizeof v);
  return out + size;
}

/* The payload type, flags and reserved bytes as one word. */
static inline guint32
type_word (const CsRtpPacket *p)
{
  guint32 word;

  memcpy (&word, &p->payload_type, sizeof word);
  return word;
}

/* Packs p after state into out (CS_RTP_PACK_MAX_RECORD + 8 bytes of room); returns the end. */
static inline guint8 *
pack_one (guint8 *out, CsRtpPackState *state, const CsRtpPacket *p)
{
  /* size code of the arrival change by how many bytes it needs (0..8) */
  static const guint8 arrival_code_by_bytes[9] = { 0, 1, 1, 2, 3, 3, 3, 3, 3 };
  const CsRtpPacket *last = &state->last;
  guint8 *o = out + 1;
  guint32 frame_z = zigzag32 (p->frame - last->frame);
  guint frame_code = (guint) (31 - __builtin_clz (frame_z | 1)) >> 3;
  guint64 arrival_step = (guint64) p->arrival_ns - (guint64) last->arrival_ns;
  guint64 arrival_z = zigzag64 (arrival_step - state->arrival_step);
  guint arrival_bytes = arrival_z == 0 ? 0 : ((guint) (63 - __builtin_clzll (arrival_z)) >> 3) + 1;
  guint arrival_code = arrival_code_by_bytes[arrival_bytes];
  guint32 timestamp_step = p->timestamp - last->timestamp;
  guint32 type = type_word (p);
  guint header = frame_code | arrival_code << 2;

  o = store_le (o, frame_z, cs_rtp_pack_frame_size[frame_code]);
  o = store_le (o, arrival_z, cs_rtp_pack_arrival_size[arrival_code]);
  if (p->seq == (guint16) (last->seq + 1))
    header |= CS_RTP_PACK_SEQ_NEXT;
  else
    o = store_le (o, p->seq, 2);
  if (timestamp_step == state->timestamp_step)
    header |= CS_RTP_PACK_SAME_STEP;
  else
    o = store_le (o, timestamp_step, 4);
  if (p->payload_len == last->payload_len)
    header |= CS_RTP_PACK_SAME_LENGTH;
  else
    o = store_le (o, p->payload_len, 2);
  if (type == type_word (last))
    header |= CS_RTP_PACK_SAME_TYPE;
  else
    o = store_le (o, GUINT32_FROM_LE (type), 4);
  out[0] = (guint8) header;
  state->last = *p;
  state->arrival_step = arrival_step;
  state->timestamp_step = timestamp_step;
  return o;
}

static void
pack_reserve (CsRtpPack *pack, gsize more)
{
  gsize want = pack->n_bytes + more;

  if (want <= pack->capacity)
    return;
  if (want > CS_PACK_EXACT_BYTES)
    want = MAX (want, 2 * pack->capacity);
  pack->data = g_realloc (pack->data, want + CS_RTP_PACK_SLACK);
  pack->capacity = want;
}

void
cs_rtp_pack_append (CsRtpPack *pack, const CsRtpPacket *packets, gsize n)
{
  guint8 batch[CS_PACK_BATCH * CS_RTP_PACK_MAX_RECORD + 8];
  CsRtpPackState tail = pack->tail; /* local: its fields stay in registers */

  while (n > 0)
    {
      gsize take = MIN (n, (gsize) CS_PACK_BATCH);
      guint8 *end = batch;

      for (gsize i = 0; i < take; i++)
        end = pack_one (end, &tail, &packets[i]);
      pack_reserve (pack, (gsize) (end - batch));
      memcpy (pack->data + pack->n_bytes, batch, (gsize) (end - batch));
      pack->n_bytes += (gsize) (end - batch);
      pack->n_packets += (guint32) take;
      packets += take;
      n -= take;
    }
  pack->tail = tail;
}

void
cs_rtp_pack_trim (CsRtpPack *pack)
{
  if (pack->data == NULL || pack->capacity == pack->n_bytes)
    return;
  pack->data = g_realloc (pack->data, pack->n_bytes + CS_RTP_PACK_SLACK);
  pack->capacity = pack->n_bytes;
}

void
cs_rtp_pack_clear (CsRtpPack *pack)
{
  g_free (pack->data);
  memset (pack, 0, sizeof *pack);
}

void
cs_rtp_pack_reader_init (CsRtpPackReader *reader, const guint8 *data)
{
  memset (reader, 0, sizeof *reader);
  reader->next = data;
}

void
cs_rtp_pack_unpack (const guint8 *data, guint32 n_packets, CsRtpPacket *out)
{
  CsRtpPackState state; /* local: its fields stay in registers */
  const guint8 *in = data;

  memset (&state, 0, sizeof state);
  for (guint32 i = 0; i < n_packets; i++)
    {
      in = cs_rtp_pack_decode_one (in, &state);
      out[i] = state.last;
    }
}

CsRtpPacket *
cs_rtp_pack_unpack_new (const guint8 *data, guint32 n_packets)
{
  CsRtpPacket *out;

  if (n_packets == 0)
    return NULL;
  out = g_new (CsRtpPacket, n_packets);
  cs_rtp_pack_unpack (data, n_packets, out);
  return out;
}
