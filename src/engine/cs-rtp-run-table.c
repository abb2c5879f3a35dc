/* cs-rtp-run-table.c — the merge's RTP runs by stream key */
#include "cs-rtp-run-table.h"

#include <string.h>

#define CS_RTP_RUN_TABLE_MIN_SLOTS 1024u

void
cs_rtp_run_table_init (CsRtpRunTable *table)
{
  table->slots = g_new0 (guint64, CS_RTP_RUN_TABLE_MIN_SLOTS);
  table->mask = CS_RTP_RUN_TABLE_MIN_SLOTS - 1;
  table->used = 0;
}

void
cs_rtp_run_table_clear (CsRtpRunTable *table)
{
  g_clear_pointer (&table->slots, g_free);
  table->mask = 0;
  table->used = 0;
}

static inline guint64
cs_rtp_run_table_mix (guint64 h, guint64 word)
{
  return (h ^ word) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
}

guint32
cs_rtp_run_table_hash (const CsRtpStreamKey *key)
{
  guint32 s[4], d[4];
  guint64 h;

  memcpy (s, key->src.addr.bytes, sizeof s);
  memcpy (d, key->dst.addr.bytes, sizeof d);
  h = cs_rtp_run_table_mix (0, ((guint64) s[0] << 32) | d[0]);
  h = cs_rtp_run_table_mix (h, ((guint64) key->src.port << 48) | ((guint64) key->dst.port << 32)
                                   | key->ssrc);
  if (G_UNLIKELY (key->src.addr.family != 4 || key->dst.addr.family != 4))
    {
      for (guint i = 1; i < 4; i++)
        h = cs_rtp_run_table_mix (h, ((guint64) s[i] << 32) | d[i]);
      h = cs_rtp_run_table_mix (h, ((guint64) key->src.addr.family << 8) | key->dst.addr.family);
    }
  return (guint32) (h >> 32);
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

gint64
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

/* Files entry in the first free slot from its hash's own. */
static void
cs_rtp_run_table_place (CsRtpRunTable *table, guint64 entry)
{
  guint32 slot;

  for (slot = (guint32) (entry >> 32) & table->mask; table->slots[slot] != 0;
       slot = (slot + 1) & table->mask)
    ;
  table->slots[slot] = entry;
}

static void
cs_rtp_run_table_resize (CsRtpRunTable *table, guint32 n_slots)
{
  guint64 *old = table->slots;
  guint32 old_n = table->mask + 1;

  table->slots = g_new0 (guint64, n_slots);
  table->mask = n_slots - 1;
  for (guint32 i = 0; i < old_n; i++)
    if (old[i] != 0)
      cs_rtp_run_table_place (table, old[i]);
  g_free (old);
}

void
cs_rtp_run_table_insert (CsRtpRunTable *table, guint32 free_slot, guint32 hash, guint32 index)
{
  table->slots[free_slot] = ((guint64) hash << 32) | ((guint64) index + 1);
  table->used++;
  if (2 * (guint64) table->used > table->mask)
    cs_rtp_run_table_resize (table, 2 * (table->mask + 1));
}

void
cs_rtp_run_table_rebuild (CsRtpRunTable *table, const GPtrArray *runs)
{
  memset (table->slots, 0, sizeof (guint64) * ((gsize) table->mask + 1));
  table->used = 0;
  for (guint i = 0; i < runs->len; i++)
    {
      const CsRtpRun *run = runs->pdata[i];

      cs_rtp_run_table_place (table, ((guint64) cs_rtp_run_table_hash (&run->key) << 32)
                                         | ((guint64) i + 1));
      table->used++;
    }
}
