/* cs-chunk-rtp-private.h — a chunk's RTP runs while its worker fills them (cs-chunk-rtp.c) */
#pragma once

#include "cs-chunk.h"
#include "net/cs-decode-fast.h"

G_BEGIN_DECLS

/* A slot of the run table: the key's hash in the high half, the index of its run + 1 in
 * the low one (0 = free). Eight bytes, so the table of a chunk with tens of thousands of
 * live streams stays small enough for the caches (it is read at random, once a packet). */
typedef guint64 CsChunkRtpSlot;

/* Each run's records are packed as they come into a chain of blocks of the thread's scratch
 * arena, so interleaved streams cost no allocation per run and grouping only copies. A run's
 * first record is only held in its state (with thousands of streams interleaved most runs of a
 * chunk have no other: cs_rtp_pack_set_one hands it over unpacked); the first block comes with
 * the second record, and the next ones grow up to CS_CHUNK_RTP_BLOCK_MAX bytes. */
typedef struct
{
  guint32 next; /* arena offset of the run's next block (valid up to its last) */
  guint16 used; /* bytes of records (set once the run moves on to its next block) */
  guint16 size; /* bytes of room after this head */
} CsChunkRtpBlock;

/* Room for the widest record the encoder writes (a record and a word). */
#define CS_CHUNK_RTP_RECORD_ROOM (CS_RTP_PACK_MAX_RECORD + 8)
#define CS_CHUNK_RTP_BLOCK_FIRST 40
#define CS_CHUNK_RTP_BLOCK_MAX 248
#define CS_CHUNK_RTP_NO_BLOCK G_MAXUINT32
G_STATIC_ASSERT (CS_CHUNK_RTP_BLOCK_FIRST >= CS_CHUNK_RTP_RECORD_ROOM);
G_STATIC_ASSERT (sizeof (CsChunkRtpBlock) == 8);

/* A run while the chunk is filled, in the order of its first packet. */
typedef struct
{
  guint64 words[2];   /* the key as the packet carries it (exact for IPv4; cs_chunk_rtp_words) */
  CsRtpStreamKey key; /* only for keys not IPv4 at both ends (the others are their words) */
  guint32 hash;       /* top bit set: both ends IPv4, so the words alone identify the key */
  guint32 slot;       /* in the table */
  guint32 first_block, last_block; /* arena offsets (CS_CHUNK_RTP_NO_BLOCK: one record held) */
  guint32 write;                   /* where the next record goes */
  guint32 write_max;               /* … as long as it is at most this */
  guint32 n_packets;
  CsRtpPackState state; /* after its last record */
} CsChunkRtpRunPlace;

/* A thread's tables for building runs, kept between its chunks: a chunk borrows them while
 * it is filled, so thousands of interleaved streams cost no allocation, zeroing or page
 * faults per chunk. The slots are left free again when the chunk is grouped. */
struct _CsChunkRtpScratch
{
  CsChunkRtpSlot *slots;      /* at most half full */
  guint32 slot_mask;          /* slots - 1 (a power of two) */
  CsChunkRtpRunPlace *places; /* of each run of the chunk */
  guint32 places_capacity;
  guint8 *arena; /* the runs' blocks */
  gsize arena_used, arena_capacity;
  gsize packed_bytes; /* in the blocks the runs have moved on from */
};

CsChunkRtpScratch *cs_chunk_rtp_scratch_take (void);
/* A new run for key (words and hash made of it; NULL for an IPv4 key, whose words are
 * enough) in the free slot at index slot, at the end
 * of the chunk's order, with rec as its first record (held, not packed). */
void cs_chunk_new_rtp_run (CsChunk *chunk, CsChunkRtpScratch *scratch, guint32 slot,
                           const CsRtpStreamKey *key, const guint64 words[2], guint32 hash,
                           const CsRtpPacket *rec);
/* Starts a new block for the run of place (its write position moves there); a run that only
 * held its first record packs it into its first block. */
void cs_chunk_rtp_next_block (CsChunkRtpScratch *scratch, CsChunkRtpRunPlace *place);
/* Gives the scratch of a chunk that was never grouped back (a cancelled decode). */
void cs_chunk_drop_rtp_scratch (CsChunk *chunk);

static inline guint64
cs_chunk_rtp_word (guint32 low, guint32 high)
{
  return (guint64) low | ((guint64) high << 32);
}

/* The run table's keys in two words, as an IPv4 packet carries them (source and destination
 * address, then both ports and the SSRC, each in network byte order): the frame decoder
 * loads them from the frame, the general path builds the same words from the endpoints. */
static inline void
cs_chunk_rtp_words (const CsEndpoint *src, const CsEndpoint *dst, guint32 ssrc, guint64 words[2])
{
  guint8 ports[4] = { (guint8) (src->port >> 8), (guint8) src->port, (guint8) (dst->port >> 8),
                      (guint8) dst->port };
  guint8 ssrc_be[4]
      = { (guint8) (ssrc >> 24), (guint8) (ssrc >> 16), (guint8) (ssrc >> 8), (guint8) ssrc };

  words[0]
      = cs_chunk_rtp_word (cs_decode_load32 (src->addr.bytes), cs_decode_load32 (dst->addr.bytes));
  words[1] = cs_chunk_rtp_word (cs_decode_load32 (ports), cs_decode_load32 (ssrc_be));
}

/* The IPv4 key of words (cs_chunk_rtp_words), as the packet's endpoints give it. */
static inline void
cs_chunk_rtp_key_from_words (const guint64 words[2], CsRtpStreamKey *key)
{
  guint32 src = (guint32) words[0], dst = (guint32) (words[0] >> 32);
  guint32 ports = (guint32) words[1], ssrc_be = (guint32) (words[1] >> 32);
  guint8 p[4];

  memset (key, 0, sizeof *key);
  key->src.addr.family = key->dst.addr.family = 4;
  memcpy (key->src.addr.bytes, &src, sizeof src);
  memcpy (key->dst.addr.bytes, &dst, sizeof dst);
  memcpy (p, &ports, sizeof p);
  key->src.port = (guint16) ((p[0] << 8) | p[1]);
  key->dst.port = (guint16) ((p[2] << 8) | p[3]);
  key->ssrc = GUINT32_FROM_BE (ssrc_be);
}

/* The run table's own hash: the two words, and for IPv6 the other address words. The top
 * bit (never part of a slot index) tells IPv4 keys, so for them equal hashes and words are
 * equal keys. src and dst are only read when not v4. */
static inline guint32
cs_chunk_rtp_hash (const CsEndpoint *src, const CsEndpoint *dst, const guint64 words[2],
                   gboolean v4)
{
  guint64 h = words[0] * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)
              ^ words[1] * G_GUINT64_CONSTANT (0xc2b2ae3d27d4eb4f);

  if (G_UNLIKELY (!v4))
    {
      guint32 s[4], d[4];

      memcpy (s, src->addr.bytes, sizeof s);
      memcpy (d, dst->addr.bytes, sizeof d);
      for (guint i = 1; i < 4; i++)
        h = (h ^ (((guint64) s[i] << 32) | d[i])) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
      h ^= ((guint64) src->addr.family << 8) | dst->addr.family;
    }
  return ((guint32) (h ^ (h >> 29)) & 0x7fffffffu) | (v4 ? 0x80000000u : 0u);
}

static inline gboolean
cs_rtp_stream_key_same (const CsRtpStreamKey *x, const CsEndpoint *src, const CsEndpoint *dst,
                        guint32 ssrc)
{
  return x->ssrc == ssrc && x->src.port == src->port && x->dst.port == dst->port
         && memcmp (&x->src.addr, &src->addr, sizeof x->src.addr) == 0
         && memcmp (&x->dst.addr, &dst->addr, sizeof x->dst.addr) == 0;
}

/* The chunk's run for the key (NULL if it has none yet: *free_slot is then where it goes).
 * src, dst and ssrc are only read for keys that are not IPv4 at both ends. */
static inline CsChunkRtpRunPlace *
cs_chunk_find_rtp_run (CsChunk *chunk, CsChunkRtpScratch *scratch, const guint64 words[2],
                       guint32 hash, const CsEndpoint *src, const CsEndpoint *dst, guint32 ssrc,
                       guint32 *free_slot)
{
  guint32 slot;
  CsChunkRtpSlot entry;

  (void) chunk;
  for (slot = hash & scratch->slot_mask; (entry = scratch->slots[slot]) != 0;
       slot = (slot + 1) & scratch->slot_mask)
    {
      CsChunkRtpRunPlace *place;
      guint32 run = (guint32) entry - 1;

      if ((guint32) (entry >> 32) != hash)
        continue;
      place = &scratch->places[run];
      if (place->words[0] == words[0] && place->words[1] == words[1]
          && ((hash & 0x80000000u) != 0
              || (src != NULL && cs_rtp_stream_key_same (&place->key, src, dst, ssrc))))
        return place;
    }
  *free_slot = slot;
  return NULL;
}

/* Packs rec after the other records of the run of place. */
static inline void
cs_chunk_rtp_pack_record (CsChunkRtpScratch *scratch, CsChunkRtpRunPlace *place,
                          const CsRtpPacket *rec)
{
  guint8 *out;

  if (G_UNLIKELY (place->write > place->write_max))
    cs_chunk_rtp_next_block (scratch, place);
  out = scratch->arena + place->write;
  place->write += (guint32) (cs_rtp_pack_encode_one (out, &place->state, rec) - out);
  place->n_packets++;
}

G_END_DECLS
