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
