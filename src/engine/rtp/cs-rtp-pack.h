/* cs-rtp-pack.h — a stream's RTP packet records, delta-packed to a few bytes each */
#pragma once

#include "cs-rtp.h"

#include <string.h>

G_BEGIN_DECLS

/* Streams keep their records packed (24-byte CsRtpPacket → 2–6 bytes for a steady stream):
 * each record is a header byte, the change of the frame-number step in 1–4 bytes, the change
 * of the arrival step in 0, 2, 3 or 8 bytes, and only those of seq, timestamp step, payload
 * length and payload type/flags that differ from what the previous record predicts. Every
 * field round-trips exactly, whatever the values (wrapping arithmetic throughout). */

/* Decoding loads 8 bytes at a time: every packed buffer has this many readable bytes
 * after its end. */
#define CS_RTP_PACK_SLACK 8
/* The most bytes one record takes. */
#define CS_RTP_PACK_MAX_RECORD 25

/* What the next record is predicted from. */
typedef struct
{
  CsRtpPacket last;
  guint64 arrival_step;   /* last arrival delta (ns, wrapping) */
  guint32 timestamp_step; /* last RTP timestamp delta (wrapping) */
  guint32 frame_step;     /* last frame number delta (wrapping) */
} CsRtpPackState;

/* Records packed one after the other; data (g_malloc) has capacity + CS_RTP_PACK_SLACK bytes. */
typedef struct
{
  guint8 *data;
  gsize n_bytes, capacity;
  guint32 n_packets;
  CsRtpPackState tail; /* after the last record */
} CsRtpPack;

/* Packs n records after the pack's others. Small packs grow to the end of malloc's block
 * (most streams of a busy capture are short), long ones double; cs_rtp_pack_trim drops the
 * slack. */
void cs_rtp_pack_append (CsRtpPack *pack, const CsRtpPacket *packets, gsize n);
/* Appends the records of more (packed on their own, from nothing): only its first two are
 * packed again, the rest is copied. A single record is packed again from more->tail alone:
 * its bytes are not read (see cs_rtp_pack_set_one). */
static inline void cs_rtp_pack_append_pack (CsRtpPack *pack, const CsRtpPack *more);
/* Makes pack a one-record pack that holds p in its tail only, no bytes (data NULL): what
 * cs_rtp_pack_append_pack needs of a chunk's run of one packet, without packing it (with tens
 * of thousands of streams live, most of a chunk's runs are one packet). Read it no other way. */
void cs_rtp_pack_set_one (CsRtpPack *pack, const CsRtpPacket *p);
/* Shrinks data to n_bytes (+ slack). */
void cs_rtp_pack_trim (CsRtpPack *pack);
/* Frees data and empties the pack. */
void cs_rtp_pack_clear (CsRtpPack *pack);
/* Unpacks all n_packets records of data (as a CsRtpPack's) into out. */
void cs_rtp_pack_unpack (const guint8 *data, guint32 n_packets, CsRtpPacket *out);
/* The same into a new g_malloc array (NULL when n_packets is 0). */
CsRtpPacket *cs_rtp_pack_unpack_new (const guint8 *data, guint32 n_packets);

/* Header byte: bits 0–1 the frame step change's size code, bits 2–3 the arrival change's, then
 * one bit per field the previous record predicted. */
#define CS_RTP_PACK_SEQ_NEXT (1u << 4)    /* seq = previous + 1 */
#define CS_RTP_PACK_SAME_STEP (1u << 5)   /* timestamp step = previous step */
#define CS_RTP_PACK_SAME_LENGTH (1u << 6) /* payload length = previous */
#define CS_RTP_PACK_SAME_TYPE (1u << 7)   /* payload type, flags and reserved = previous */

/* Bytes the frame and arrival changes take by their size codes (the shapes below are made of
 * the same sizes; test-rtp-pack packs and reads back every code). */
static const guint8 cs_rtp_pack_frame_size[4] = { 1, 2, 3, 4 };
static const guint8 cs_rtp_pack_arrival_size[4] = { 0, 2, 3, 8 };

/* What a record's header byte (its low four bits: the two size codes) tells of its frame and
 * arrival fields, in one table lookup: the masks of the bytes they take, the frame field's
 * size and both fields' with the header byte's. */
typedef struct
{
  guint64 arrival_mask;
  guint32 frame_mask;
  guint8 frame_size, size;
} CsRtpPackShape;

#define CS_RTP_PACK_SHAPE(fc, ac)                                                                  \
  {                                                                                                \
    (ac) == 0   ? 0                                                                                \
    : (ac) == 1 ? 0xffffu                                                                          \
    : (ac) == 2 ? 0xffffffu                                                                        \
                : G_MAXUINT64,                                                                     \
        (guint32) (G_MAXUINT32 >> (8 * (3 - (fc)))), (fc) + 1,                                     \
        1 + (fc) + 1                                                                               \
            + ((ac) == 0   ? 0                                                                     \
               : (ac) == 1 ? 2                                                                     \
               : (ac) == 2 ? 3                                                                     \
                           : 8)                                                                    \
  }
#define CS_RTP_PACK_SHAPES(ac)                                                                     \
  CS_RTP_PACK_SHAPE (0, ac), CS_RTP_PACK_SHAPE (1, ac), CS_RTP_PACK_SHAPE (2, ac),                 \
      CS_RTP_PACK_SHAPE (3, ac)
static const CsRtpPackShape cs_rtp_pack_shapes[16]
    = { CS_RTP_PACK_SHAPES (0), CS_RTP_PACK_SHAPES (1), CS_RTP_PACK_SHAPES (2),
        CS_RTP_PACK_SHAPES (3) };

/* The frame and arrival changes a record starts with, zigzag-coded (the sign in the lowest
 * bit), added to the running steps; returns where the record's other fields start. The one
 * reading of them: every reader of packed records (decode_one, unpack, the stats pass over
 * records packed as predicted) goes through it. */
static inline __attribute__ ((always_inline)) const guint8 *
cs_rtp_pack_read_steps (const guint8 *in, guint32 *frame_step, guint64 *arrival_step)
{
  const CsRtpPackShape *shape = &cs_rtp_pack_shapes[in[0] & 15];
  guint64 word;
  guint32 frame_z;
  guint64 arrival_z;

  memcpy (&word, in + 1, sizeof word);
  frame_z = (guint32) GUINT64_FROM_LE (word) & shape->frame_mask;
  memcpy (&word, in + 1 + shape->frame_size, sizeof word);
  arrival_z = GUINT64_FROM_LE (word) & shape->arrival_mask;
  *frame_step += (frame_z >> 1) ^ (0 - (frame_z & 1));
  *arrival_step += (arrival_z >> 1) ^ (0 - (arrival_z & 1));
  return in + shape->size;
}

/* Unpacks the record at in into state->last; returns where the next one starts.
 * Inline: it runs once per packet wherever records are read. */
static inline const guint8 *
cs_rtp_pack_decode_one (const guint8 *in, CsRtpPackState *state)
{
  CsRtpPacket *p = &state->last;
  guint header = in[0];

  in = cs_rtp_pack_read_steps (in, &state->frame_step, &state->arrival_step);
  p->frame += state->frame_step;
  p->arrival_ns = (gint64) ((guint64) p->arrival_ns + state->arrival_step);
  if (G_LIKELY (header >= 0xf0u)) /* the usual record: every other field as predicted */
    {
      p->seq++;
      p->timestamp += state->timestamp_step;
      return in;
    }
  if (header & CS_RTP_PACK_SEQ_NEXT)
    p->seq++;
  else
    {
      guint16 half;

      memcpy (&half, in, sizeof half);
      p->seq = GUINT16_FROM_LE (half);
      in += 2;
    }
  if (!(header & CS_RTP_PACK_SAME_STEP))
    {
      guint32 step;

      memcpy (&step, in, sizeof step);
      state->timestamp_step = GUINT32_FROM_LE (step);
      in += 4;
    }
  p->timestamp += state->timestamp_step;
  if (!(header & CS_RTP_PACK_SAME_LENGTH))
    {
      guint16 half;

      memcpy (&half, in, sizeof half);
      p->payload_len = GUINT16_FROM_LE (half);
      in += 2;
    }
  if (!(header & CS_RTP_PACK_SAME_TYPE))
    {
      guint32 type;

      memcpy (&type, in, sizeof type);
      type = GUINT32_FROM_LE (type);
      p->payload_type = (guint8) type;
      p->flags = (guint8) (type >> 8);
      p->reserved = (guint16) (type >> 16);
      in += 4;
    }
  return in;
}

static inline guint64
cs_rtp_pack_zigzag64 (guint64 v)
{
  return (v << 1) ^ (0 - (v >> 63));
}

static inline guint32
cs_rtp_pack_zigzag32 (guint32 v)
{
  return (v << 1) ^ (0 - (v >> 31));
}

/* Stores the low size bytes of v, little-endian; out has 8 bytes of room. */
static inline guint8 *
cs_rtp_pack_store_le (guint8 *out, guint64 v, guint size)
{
  v = GUINT64_TO_LE (v);
  memcpy (out, &v, sizeof v);
  return out + size;
}

/* The payload type, flags and reserved bytes as one word. */
static inline guint32
cs_rtp_pack_type_word (const CsRtpPacket *p)
{
  guint32 word;

  memcpy (&word, &p->payload_type, sizeof word);
  return word;
}

/* Packs p after state into out (CS_RTP_PACK_MAX_RECORD + 8 bytes of room); returns the end.
 * Inline: workers pack every RTP packet as they decode it. */
static inline guint8 *
cs_rtp_pack_encode_one (guint8 *out, CsRtpPackState *state, const CsRtpPacket *p)
{
  /* size code of the arrival change by how many bytes it needs (0..8) */
  static const guint8 arrival_code_by_bytes[9] = { 0, 1, 1, 2, 3, 3, 3, 3, 3 };
  const CsRtpPacket *last = &state->last;
  guint8 *o = out + 1;
  guint32 frame_step = p->frame - last->frame;
  guint32 frame_z = cs_rtp_pack_zigzag32 (frame_step - state->frame_step);
  guint frame_code = (guint) (31 - __builtin_clz (frame_z | 1)) >> 3;
  guint64 arrival_step = (guint64) p->arrival_ns - (guint64) last->arrival_ns;
  guint64 arrival_z = cs_rtp_pack_zigzag64 (arrival_step - state->arrival_step);
  guint arrival_bytes = arrival_z == 0 ? 0 : ((guint) (63 - __builtin_clzll (arrival_z)) >> 3) + 1;
  guint arrival_code = arrival_code_by_bytes[arrival_bytes];
  guint32 timestamp_step = p->timestamp - last->timestamp;
  guint32 type = cs_rtp_pack_type_word (p);
  guint header = frame_code | arrival_code << 2;
  struct
  {
    guint16 seq, payload_len;
    guint8 payload_type, flags;
    guint16 reserved;
  } predicted; /* CsRtpPacket from seq on */
  guint64 tail, predicted_tail;

  o = cs_rtp_pack_store_le (o, frame_z, cs_rtp_pack_frame_size[frame_code]);
  o = cs_rtp_pack_store_le (o, arrival_z, cs_rtp_pack_arrival_size[arrival_code]);
  /* seq, payload length, type, flags and reserved are one word: the usual record is
   * told by one comparison */
  G_STATIC_ASSERT (G_STRUCT_OFFSET (CsRtpPacket, seq) + 8 == sizeof (CsRtpPacket));
  memcpy (&predicted, &last->seq, 8); /* only seq .. reserved */
  predicted.seq++;
  memcpy (&tail, &p->seq, sizeof tail);
  memcpy (&predicted_tail, &predicted, sizeof predicted_tail);
  if (G_LIKELY (tail == predicted_tail && timestamp_step == state->timestamp_step))
    header |= CS_RTP_PACK_SEQ_NEXT | CS_RTP_PACK_SAME_STEP | CS_RTP_PACK_SAME_LENGTH
              | CS_RTP_PACK_SAME_TYPE;
  else
    {
      if (p->seq == predicted.seq)
        header |= CS_RTP_PACK_SEQ_NEXT;
      else
        o = cs_rtp_pack_store_le (o, p->seq, 2);
      if (timestamp_step == state->timestamp_step)
        header |= CS_RTP_PACK_SAME_STEP;
      else
        o = cs_rtp_pack_store_le (o, timestamp_step, 4);
      if (p->payload_len == last->payload_len)
        header |= CS_RTP_PACK_SAME_LENGTH;
      else
        o = cs_rtp_pack_store_le (o, p->payload_len, 2);
      if (type == cs_rtp_pack_type_word (last))
        header |= CS_RTP_PACK_SAME_TYPE;
      else
        o = cs_rtp_pack_store_le (o, GUINT32_FROM_LE (type), 4);
    }
  out[0] = (guint8) header;
  state->last = *p;
  state->arrival_step = arrival_step;
  state->timestamp_step = timestamp_step;
  state->frame_step = frame_step;
  return o;
}

/* Packs one more record, growing data by doubling (a worker's short-lived pack). */
static inline void
cs_rtp_pack_push (CsRtpPack *pack, const CsRtpPacket *p)
{
  if (G_UNLIKELY (pack->capacity - pack->n_bytes < CS_RTP_PACK_MAX_RECORD))
    {
      pack->capacity = MAX (256u, 2 * pack->capacity);
      pack->data = g_realloc (pack->data, pack->capacity + CS_RTP_PACK_SLACK);
    }
  pack->n_bytes
      = (gsize) (cs_rtp_pack_encode_one (pack->data + pack->n_bytes, &pack->tail, p) - pack->data);
  pack->n_packets++;
}

/* Makes room for more bytes (small packs grow in 32-byte steps, long ones double). */
void cs_rtp_pack_reserve (CsRtpPack *pack, gsize more);
/* cs_rtp_pack_append_pack for more with any number of records but one. */
void cs_rtp_pack_append_pack_long (CsRtpPack *pack, const CsRtpPack *more);

/* Inline: with tens of thousands of streams live, the merge appends a chunk's run of one
 * record per packet. */
static inline void
cs_rtp_pack_append_pack (CsRtpPack *pack, const CsRtpPack *more)
{
  guint8 record[CS_RTP_PACK_MAX_RECORD + 8];
  gsize len;

  if (more->n_packets != 1)
    {
      cs_rtp_pack_append_pack_long (pack, more);
      return;
    }
  /* its only record is the state it ends in (its bytes are not read): packed again without
   * decoding, on the stack, then stored in whole words (the buffer's slack takes what goes
   * past the record) */
  len = (gsize) (cs_rtp_pack_encode_one (record, &pack->tail, &more->tail.last) - record);
  if (G_UNLIKELY (pack->capacity - pack->n_bytes < len))
    cs_rtp_pack_reserve (pack, len);
  G_STATIC_ASSERT (CS_RTP_PACK_SLACK >= 8 && CS_RTP_PACK_MAX_RECORD <= 32);
  for (gsize k = 0; k < len; k += 8)
    memcpy (pack->data + pack->n_bytes + k, record + k, 8);
  pack->n_bytes += len;
  pack->n_packets++;
}

/* Reads records one at a time. */
typedef struct
{
  const guint8 *next;
  CsRtpPackState state;
} CsRtpPackReader;

void cs_rtp_pack_reader_init (CsRtpPackReader *reader, const guint8 *data);
/* The next record (the caller counts them: at most n_packets). */
static inline const CsRtpPacket *
cs_rtp_pack_reader_next (CsRtpPackReader *reader)
{
  reader->next = cs_rtp_pack_decode_one (reader->next, &reader->state);
  return &reader->state.last;
}

G_END_DECLS
