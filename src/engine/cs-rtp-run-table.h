/* cs-rtp-run-table.h — the merge's RTP runs by stream key: open addressing, no allocation
 * per run */
#pragma once

#include "cs-chunk.h"

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
/* A hash of the key's fields (never its padding), a few instructions for IPv4. */
guint32 cs_rtp_run_table_hash (const CsRtpStreamKey *key);
/* The index in runs (CsRtpRun*) of the run for key, or -1 with *free_slot set to where
 * it goes (for cs_rtp_run_table_insert). */
gint64 cs_rtp_run_table_find (const CsRtpRunTable *table, const GPtrArray *runs,
                              const CsRtpStreamKey *key, guint32 hash, guint32 *free_slot);
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
