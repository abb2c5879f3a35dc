/* cs-chunk-rtp.c — a chunk's RTP runs: found by key, packed as they come, grouped at the end */
#include "cs-chunk-rtp-private.h"

#define CS_CHUNK_RTP_MIN_SLOTS 1024u

static void
cs_chunk_rtp_scratch_free (gpointer data)
{
  CsChunkRtpScratch *scratch = data;

  g_free (scratch->slots);
  g_free (scratch->places);
  g_free (scratch->arena);
  g_free (scratch);
}

/* The calling thread's spare scratch (freed when the thread ends). */
static GPrivate cs_chunk_rtp_scratch_key = G_PRIVATE_INIT (cs_chunk_rtp_scratch_free);

CsChunkRtpScratch *
cs_chunk_rtp_scratch_take (void)
{
  CsChunkRtpScratch *scratch = g_private_get (&cs_chunk_rtp_scratch_key);

  if (scratch != NULL)
    {
      g_private_set (&cs_chunk_rtp_scratch_key, NULL);
      return scratch;
    }
  scratch = g_new0 (CsChunkRtpScratch, 1);
  scratch->slots = g_new0 (CsChunkRtpSlot, CS_CHUNK_RTP_MIN_SLOTS);
  scratch->slot_mask = CS_CHUNK_RTP_MIN_SLOTS - 1;
  return scratch;
}

/* Gives scratch (all slots free) back to the calling thread. */
static void
cs_chunk_rtp_scratch_give_back (CsChunkRtpScratch *scratch)
{
  scratch->arena_used = 0;
  scratch->packed_bytes = 0;
  if (g_private_get (&cs_chunk_rtp_scratch_key) == NULL)
    g_private_set (&cs_chunk_rtp_scratch_key, scratch);
  else
    cs_chunk_rtp_scratch_free (scratch);
}

void
cs_chunk_drop_rtp_scratch (CsChunk *chunk)
{
  CsChunkRtpScratch *scratch = chunk->rtp_scratch;

  if (scratch == NULL)
    return;
  for (guint32 r = 0; r < chunk->n_rtp_runs; r++)
    scratch->slots[scratch->places[r].slot] = 0;
  cs_chunk_rtp_scratch_give_back (scratch);
  chunk->rtp_scratch = NULL;
}

/* Doubles the slot table and moves the chunk's runs over. */
static void
cs_chunk_grow_rtp_slots (CsChunk *chunk, CsChunkRtpScratch *scratch)
{
  guint32 n_slots = 2 * (scratch->slot_mask + 1);

  g_free (scratch->slots);
  scratch->slots = g_new0 (CsChunkRtpSlot, n_slots);
  scratch->slot_mask = n_slots - 1;
  for (guint32 r = 0; r < chunk->n_rtp_runs; r++)
    {
      CsChunkRtpRunPlace *place = &scratch->places[r];
      guint32 slot;

      for (slot = place->hash & scratch->slot_mask; scratch->slots[slot] != 0;
           slot = (slot + 1) & scratch->slot_mask)
        ;
      scratch->slots[slot] = ((guint64) place->hash << 32) | (r + 1);
      place->slot = slot;
    }
}

/* A new block with size bytes of room (its arena offset); the arena doubles when full. */
static guint32
cs_chunk_rtp_new_block (CsChunkRtpScratch *scratch, guint size)
{
  gsize offset = scratch->arena_used;
  CsChunkRtpBlock *block;

  /* and 16 bytes after the last block for cs_chunk_group_rtp's copies */
  if (scratch->arena_capacity - offset < sizeof *block + size + 16)
    {
      scratch->arena_capacity = MAX (64 * 1024, 2 * scratch->arena_capacity);
      g_assert (scratch->arena_capacity <= G_MAXUINT32);
      scratch->arena = g_realloc (scratch->arena, scratch->arena_capacity);
    }
  scratch->arena_used += sizeof *block + size;
  block = (CsChunkRtpBlock *) (scratch->arena + offset);
  block->next = 0;
  block->used = 0;
  block->size = (guint16) size;
  return (guint32) offset;
}

/* Points the run's write position at the start of block. */
static void
cs_chunk_rtp_write_at (CsChunkRtpScratch *scratch, CsChunkRtpRunPlace *place, guint32 block)
{
  const CsChunkRtpBlock *head = (const CsChunkRtpBlock *) (scratch->arena + block);

  place->last_block = block;
  place->write = block + (guint32) sizeof *head;
  place->write_max = place->write + head->size - CS_CHUNK_RTP_RECORD_ROOM;
}

/* Packs the run's held first record into its first block (its second has come). */
static void
cs_chunk_rtp_first_block (CsChunkRtpScratch *scratch, CsChunkRtpRunPlace *place)
{
  CsRtpPacket first = place->state.last;
  guint8 *out;

  memset (&place->state, 0, sizeof place->state); /* as a pack of its own starts */
  place->first_block = cs_chunk_rtp_new_block (scratch, CS_CHUNK_RTP_BLOCK_FIRST);
  cs_chunk_rtp_write_at (scratch, place, place->first_block);
  out = scratch->arena + place->write;
  place->write += (guint32) (cs_rtp_pack_encode_one (out, &place->state, &first) - out);
}

void
cs_chunk_rtp_next_block (CsChunkRtpScratch *scratch, CsChunkRtpRunPlace *place)
{
  CsChunkRtpBlock *last;
  guint size;
  guint32 block;

  if (place->first_block == CS_CHUNK_RTP_NO_BLOCK)
    {
      cs_chunk_rtp_first_block (scratch, place);
      if (place->write <= place->write_max)
        return;
    }
  last = (CsChunkRtpBlock *) (scratch->arena + place->last_block);
  size = MIN (2u * last->size + (guint) sizeof *last, (guint) CS_CHUNK_RTP_BLOCK_MAX);
  last->used = (guint16) (place->write - place->last_block - sizeof *last);
  scratch->packed_bytes += last->used;
  block = cs_chunk_rtp_new_block (scratch, size); /* may move the arena */
  ((CsChunkRtpBlock *) (scratch->arena + place->last_block))->next = block;
  cs_chunk_rtp_write_at (scratch, place, block);
}

void
cs_chunk_new_rtp_run (CsChunk *chunk, CsChunkRtpScratch *scratch, guint32 slot,
                      const CsRtpStreamKey *key, const guint64 words[2], guint32 hash,
                      const CsRtpPacket *rec)
{
  guint32 run = chunk->n_rtp_runs;
  CsChunkRtpRunPlace *place;

  if (G_UNLIKELY (run == scratch->places_capacity))
    {
      scratch->places_capacity = MAX (256u, 2 * scratch->places_capacity);
      scratch->places = g_renew (CsChunkRtpRunPlace, scratch->places, scratch->places_capacity);
    }
  place = &scratch->places[run];
  if (key != NULL)
    place->key = *key;
  place->words[0] = words[0];
  place->words[1] = words[1];
  place->hash = hash;
  place->slot = slot;
  place->n_packets = 1;
  /* the state packing rec from nothing leaves, without packing it (cs_rtp_pack_set_one) */
  place->state.last = *rec;
  place->state.arrival_step = (guint64) rec->arrival_ns;
  place->state.timestamp_step = rec->timestamp;
  place->state.frame_step = rec->frame;
  /* no block yet: the next record goes through cs_chunk_rtp_next_block */
  place->first_block = place->last_block = CS_CHUNK_RTP_NO_BLOCK;
  place->write = 1;
  place->write_max = 0;
  scratch->slots[slot] = ((guint64) hash << 32) | (run + 1);
  chunk->n_rtp_runs++;
  chunk->rtp_packets++;
  if (G_UNLIKELY (2 * chunk->n_rtp_runs > scratch->slot_mask))
    cs_chunk_grow_rtp_slots (chunk, scratch);
}

/* The record of an RTP packet; FALSE if the payload is not RTP. The usual header (version 2,
 * no padding, extension or CSRC) is read in place; the rest goes through cs_rtp_parse_header,
 * which gives the same record. */
static gboolean
cs_chunk_rtp_record (const guint8 *data, gsize len, gint64 ts_ns, guint32 frame, CsRtpPacket *rec,
                     guint32 *ssrc)
{
  CsRtpHeader hdr;

  if (G_LIKELY (data != NULL && len >= 12 && data[0] == 0x80))
    {
      memset (rec, 0, sizeof *rec);
      rec->arrival_ns = ts_ns;
      rec->frame = frame;
      rec->timestamp = GUINT32_FROM_BE (cs_decode_load32 (data + 4));
      rec->seq = (guint16) ((data[2] << 8) | data[3]);
      rec->payload_len = (guint16) MIN (len - 12, G_MAXUINT16);
      rec->payload_type = data[1] & 0x7f;
      rec->flags = (data[1] & 0x80) != 0 ? CS_RTP_FLAG_MARKER : 0;
      *ssrc = GUINT32_FROM_BE (cs_decode_load32 (data + 8));
      return TRUE;
    }
  if (!cs_rtp_parse_header (data, len, &hdr))
    return FALSE;
  cs_rtp_packet_from_header (&hdr, ts_ns, frame, rec);
  *ssrc = hdr.ssrc;
  return TRUE;
}

void
cs_chunk_add_rtp (CsChunk *chunk, const CsPacket *pkt, guint32 frame, gint64 ts_ns)
{
  const CsEndpoint *src = &pkt->src, *dst = &pkt->dst;
  CsChunkRtpScratch *scratch = chunk->rtp_scratch;
  CsChunkRtpRunPlace *place;
  CsRtpPacket rec;
  guint64 words[2];
  guint32 ssrc, hash, slot;

  if (G_UNLIKELY (scratch == NULL))
    {
      g_return_if_fail (!chunk->rtp_grouped);
      scratch = chunk->rtp_scratch = cs_chunk_rtp_scratch_take ();
    }
  if (!cs_chunk_rtp_record (pkt->payload, pkt->payload_len, ts_ns, frame, &rec, &ssrc))
    return;
  cs_chunk_rtp_words (src, dst, ssrc, words);
  hash = cs_chunk_rtp_hash (src, dst, words, src->addr.family == 4 && dst->addr.family == 4);
  place = cs_chunk_find_rtp_run (chunk, scratch, words, hash, src, dst, ssrc, &slot);
  if (place == NULL)
    {
      CsRtpStreamKey key;

      memset (&key, 0, sizeof key);
      key.src = *src;
      key.dst = *dst;
      key.ssrc = ssrc;
      cs_chunk_new_rtp_run (chunk, scratch, slot, &key, words, hash, &rec);
      return;
    }
  cs_chunk_rtp_pack_record (scratch, place, &rec);
  chunk->rtp_packets++;
}

void
cs_chunk_group_rtp (CsChunk *chunk)
{
  CsChunkRtpScratch *scratch = chunk->rtp_scratch;
  gsize n_bytes = 0;
  guint8 *out;

  chunk->rtp_grouped = TRUE;
  if (scratch == NULL)
    return;
  chunk->rtp_scratch = NULL;
  if (chunk->n_rtp_runs == 0) /* only payloads that were not RTP */
    {
      cs_chunk_rtp_scratch_give_back (scratch);
      return;
    }
  /* the runs' last blocks close now */
  n_bytes = scratch->packed_bytes;
  for (guint32 r = 0; r < chunk->n_rtp_runs; r++)
    {
      CsChunkRtpRunPlace *place = &scratch->places[r];
      CsChunkRtpBlock *last;

      if (place->first_block == CS_CHUNK_RTP_NO_BLOCK)
        continue;
      last = (CsChunkRtpBlock *) (scratch->arena + place->last_block);
      last->used = (guint16) (place->write - place->last_block - sizeof *last);
      n_bytes += last->used;
    }
  /* the runs and their packs in one allocation of the exact size (a growing array per chunk
   * left holes in the worker's heap that long-lived objects then kept); blocks are copied 16
   * bytes at a time: the last copy may go 15 bytes past the end */
  G_STATIC_ASSERT (sizeof (CsChunkRtpRun) % 8 == 0);
  chunk->rtp_runs = g_malloc (chunk->n_rtp_runs * sizeof (CsChunkRtpRun) + n_bytes
                              + MAX (16, CS_RTP_PACK_SLACK));
  chunk->rtp_pack_bytes = (guint8 *) (chunk->rtp_runs + chunk->n_rtp_runs);
  out = chunk->rtp_pack_bytes;
  for (guint32 r = 0; r < chunk->n_rtp_runs; r++)
    {
      CsChunkRtpRunPlace *place = &scratch->places[r];
      CsRtpPack *pack = &chunk->rtp_runs[r].pack;
      guint8 *start = out;

      if ((place->hash & 0x80000000u) != 0)
        cs_chunk_rtp_key_from_words (place->words, &chunk->rtp_runs[r].key);
      else
        chunk->rtp_runs[r].key = place->key;
      chunk->rtp_runs[r].hash = place->hash;
      scratch->slots[place->slot] = 0;
      if (place->first_block == CS_CHUNK_RTP_NO_BLOCK)
        {
          cs_rtp_pack_set_one (pack, &place->state.last);
          continue;
        }
      for (guint32 b = place->first_block;;
           b = ((const CsChunkRtpBlock *) (scratch->arena + b))->next)
        {
          const CsChunkRtpBlock *block = (const CsChunkRtpBlock *) (scratch->arena + b);
          const guint8 *in = scratch->arena + b + sizeof *block;

          memcpy (out, in, 16); /* most blocks of interleaved streams hold one record */
          for (guint k = 16; k < block->used; k += 16)
            memcpy (out + k, in + k, 16);
          out += block->used;
          if (b == place->last_block)
            break;
        }
      pack->data = start;
      pack->n_bytes = pack->capacity = (gsize) (out - start);
      pack->n_packets = place->n_packets;
      pack->tail = place->state;
    }
  memset (out, 0, CS_RTP_PACK_SLACK);
  cs_chunk_rtp_scratch_give_back (scratch);
}
