/* cs-rtp-run-table.h — the merge's RTP runs by stream key: open addressing, no allocation
 * per run */
#pragma once

#include "cs-chunk-rtp-private.h"
#include "cs-chunk.h"

#include <string.h>

G_BEGIN_DECLS

/* Slots hold a key's hash in the high half and the index of its run (in the array the
 * table indexes) + 1 in the low one (0 = free); at most half of them are used. */
typedef struct
{
  guint64 *slots;
  guint32 mask; /* slots - 1 (a power of two) */
  guint32 used;
} CsRtpRunTable;

void cs_rtp_run_table_init (CsRtpRunTable *table);
void cs_rtp_run_table_clear (CsRtpRunTable *table);
/* The hash a chunk's worker gives the key (cs_chunk_rtp_hash), so the merge files a chunk's
 * runs by the hash they carry instead of hashing each again. */
static inline guint32
cs_rtp_run_table_hash (const CsRtpStreamKey *key)
{
  guint64 words[2];

  cs_chunk_rtp_words (&key->src, &key->dst, key->ssrc, words);
  return cs_chunk_rtp_hash (&key->src, &key->dst, words,
                            key->src.addr.family == 4 && key->dst.addr.family == 4);
}

/* Word by word: a 17-byte memcmp is a call into libc, once a lookup. */
static inline gboolean
cs_rtp_run_table_same_addr (const CsAddr *a, const CsAddr *b)
{
  guint64 x[2], y[2];

  memcpy (x, a->bytes, sizeof x);
  memcpy (y, b->bytes, sizeof y);
  return a->family == b->family && ((x[0] ^ y[0]) | (x[1] ^ y[1])) == 0;
}

static inline gboolean
cs_rtp_run_table_same_key (const CsRtpStreamKey *x, const CsRtpStreamKey *y)
{
  return x->ssrc == y->ssrc && x->src.port == y->src.port && x->dst.port == y->dst.port
         && cs_rtp_run_table_same_addr (&x->src.addr, &y->src.addr)
         && cs_rtp_run_table_same_addr (&x->dst.addr, &y->dst.addr);
}

/* The index in runs (CsRtpRun*) of the run for key, or -1 with *free_slot set to where
 * it goes (for cs_rtp_run_table_insert). Inline: the merge looks up every run of every
 * chunk. */
static inline gint64
cs_rtp_run_table_find (const CsRtpRunTable *table, const GPtrArray *runs, const CsRtpStreamKey *key,
                       guint32 hash, guint32 *free_slot)
{
  guint32 slot;
  guint64 entry;

  for (slot = hash & table->mask; (entry = table->slots[slot]) != 0;
       slot = (slot + 1) & table->mask)
    {
      guint32 index = (guint32) entry - 1;

      if ((guint32) (entry >> 32) == hash
          && cs_rtp_run_table_same_key (&((const CsRtpRun *) runs->pdata[index])->key, key))
        return index;
    }
  *free_slot = slot;
  return -1;
}

/* Files run index under hash at free_slot (from the find just before). */
void cs_rtp_run_table_insert (CsRtpRunTable *table, guint32 free_slot, guint32 hash, guint32 index);
/* Files every run of runs again, by its index (after runs were taken out of the array). */
void cs_rtp_run_table_rebuild (CsRtpRunTable *table, const GPtrArray *runs);

/* Starts loading the slot where the probe for hash begins. A hint: nothing changes. */
static inline void
cs_rtp_run_table_prefetch (const CsRtpRunTable *table, guint32 hash)
{
  __builtin_prefetch (&table->slots[hash & table->mask]);
}

/* The index of the run filed first under hash, or -1: a guess (keys not compared, only
 * the first slot looked at) for loading a run before it is looked up for real. */
static inline gint64
cs_rtp_run_table_guess (const CsRtpRunTable *table, guint32 hash)
{
  guint64 entry = table->slots[hash & table->mask];

  return entry != 0 && (guint32) (entry >> 32) == hash ? (gint64) (guint32) entry - 1 : -1;
}

G_END_DECLS
