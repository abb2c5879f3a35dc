/* cs-rtp-pack.c — a stream's RTP packet records, delta-packed to a few bytes each */
#include "cs-rtp-pack.h"

#include <string.h>

/* Small packs grow 32 bytes at a time up to this many bytes; longer ones double. */
#define CS_PACK_EXACT_BYTES 2048
/* Records packed per batch on the stack before they are appended. */
#define CS_PACK_BATCH 64

void
cs_rtp_pack_reserve (CsRtpPack *pack, gsize more)
{
  gsize want = pack->n_bytes + more;

  if (want <= pack->capacity)
    return;
  if (want > CS_PACK_EXACT_BYTES)
    want = MAX (want, 2 * pack->capacity);
  else
    /* to the end of a 32-byte step of malloc's blocks (8 bytes go to its header):
     * interleaved streams append a few records a chunk, and this spares most reallocs;
     * 64-byte steps raised B's peak RSS by a MiB, 32 did not */
    want = ((want + CS_RTP_PACK_SLACK + 8 + 31) & ~(gsize) 31) - 8 - CS_RTP_PACK_SLACK;
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
        end = cs_rtp_pack_encode_one (end, &tail, &packets[i]);
      cs_rtp_pack_reserve (pack, (gsize) (end - batch));
      memcpy (pack->data + pack->n_bytes, batch, (gsize) (end - batch));
      pack->n_bytes += (gsize) (end - batch);
      pack->n_packets += (guint32) take;
      packets += take;
      n -= take;
    }
  pack->tail = tail;
}

void
cs_rtp_pack_append_pack_long (CsRtpPack *pack, const CsRtpPack *more)
{
  /* From its third record on, more was packed against the same state it has after its
   * first two here (the previous record and the steps between the two before). */
  guint8 head[2 * CS_RTP_PACK_MAX_RECORD + 8];
  guint8 *head_end = head;
  CsRtpPackState state;
  const guint8 *in = more->data;
  guint32 n_head = MIN (more->n_packets, 2u);
  gsize rest;

  if (more->n_packets == 0)
    return;
  if (more->n_packets == 1)
    {
      cs_rtp_pack_append_pack (pack, more);
      return;
    }
  memset (&state, 0, sizeof state);
  if (pack->n_packets == 0 && memcmp (&pack->tail, &state, sizeof state) == 0)
    {
      /* an empty pack is in the state more was packed from: its bytes are taken as they are */
      cs_rtp_pack_reserve (pack, more->n_bytes);
      memcpy (pack->data, more->data, more->n_bytes);
      pack->n_bytes = more->n_bytes;
      pack->n_packets = more->n_packets;
      pack->tail = more->tail;
      return;
    }
  for (guint32 i = 0; i < n_head; i++)
    {
      in = cs_rtp_pack_decode_one (in, &state);
      head_end = cs_rtp_pack_encode_one (head_end, &pack->tail, &state.last);
    }
  rest = more->n_bytes - (gsize) (in - more->data);
  cs_rtp_pack_reserve (pack, (gsize) (head_end - head) + rest);
  memcpy (pack->data + pack->n_bytes, head, (gsize) (head_end - head));
  pack->n_bytes += (gsize) (head_end - head);
  memcpy (pack->data + pack->n_bytes, in, rest);
  pack->n_bytes += rest;
  pack->n_packets += more->n_packets;
  if (more->n_packets > n_head)
    pack->tail = more->tail;
}

void
cs_rtp_pack_set_one (CsRtpPack *pack, const CsRtpPacket *p)
{
  /* the state cs_rtp_pack_encode_one leaves after packing p from nothing */
  memset (pack, 0, sizeof *pack);
  pack->n_packets = 1;
  pack->tail.last = *p;
  pack->tail.arrival_step = (guint64) p->arrival_ns;
  pack->tail.timestamp_step = p->timestamp;
  pack->tail.frame_step = p->frame;
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
  /* cs_rtp_pack_decode_one with the state in locals (registers) and the usual record
   * written straight out: this runs for every packet of every stream measured */
  const guint8 *in = data;
  guint32 frame = 0, frame_step = 0, timestamp = 0, timestamp_step = 0;
  guint64 arrival = 0, arrival_step = 0;
  CsRtpPackState slow; /* the other fields, and all of them for unusual records */

  memset (&slow, 0, sizeof slow);
  for (guint32 i = 0; i < n_packets; i++)
    {
      if (G_UNLIKELY (in[0] < 0xf0u))
        {
          slow.last.frame = frame;
          slow.last.arrival_ns = (gint64) arrival;
          slow.last.timestamp = timestamp;
          slow.arrival_step = arrival_step;
          slow.timestamp_step = timestamp_step;
          slow.frame_step = frame_step;
          in = cs_rtp_pack_decode_one (in, &slow);
          frame = slow.last.frame;
          arrival = (guint64) slow.last.arrival_ns;
          timestamp = slow.last.timestamp;
          arrival_step = slow.arrival_step;
          timestamp_step = slow.timestamp_step;
          frame_step = slow.frame_step;
          out[i] = slow.last;
          continue;
        }
      in = cs_rtp_pack_read_steps (in, &frame_step, &arrival_step);
      frame += frame_step;
      arrival += arrival_step;
      timestamp += timestamp_step;
      slow.last.seq++;
      out[i] = slow.last;
      out[i].frame = frame;
      out[i].arrival_ns = (gint64) arrival;
      out[i].timestamp = timestamp;
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
