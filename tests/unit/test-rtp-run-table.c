/* test-rtp-run-table.c — the merge's run table finds every run by its key, across growth,
 * IPv6 keys, keys that differ in one field only, and runs taken out */
#include "cs-rtp-run-table.h"

#include <string.h>

static CsRtpRun *
make_run (guint i, gboolean v6)
{
  CsRtpRun *run = g_new0 (CsRtpRun, 1);
  guint8 a[16] = { 10, 0, (guint8) (i >> 8), (guint8) i };
  guint8 b[16] = { 10, 1, 0, 1 };

  if (v6)
    {
      a[15] = (guint8) i;
      cs_addr_set_v6 (&run->key.src.addr, a);
      cs_addr_set_v6 (&run->key.dst.addr, b);
    }
  else
    {
      cs_addr_set_v4 (&run->key.src.addr, a);
      cs_addr_set_v4 (&run->key.dst.addr, b);
    }
  run->key.src.port = (guint16) (20000 + 2 * (i % 7));
  run->key.dst.port = 30000;
  run->key.ssrc = i % 3; /* many keys differ from others in one field only */
  return run;
}

static gint64
find (CsRtpRunTable *table, GPtrArray *runs, const CsRtpStreamKey *key, guint32 *slot)
{
  return cs_rtp_run_table_find (table, runs, key, cs_rtp_run_table_hash (key), slot);
}

static void
test_finds_every_run (void)
{
  g_autoptr (GPtrArray) runs = g_ptr_array_new_with_free_func (g_free);
  CsRtpRunTable table;
  const guint n = 5000; /* well past the first size: the table grows several times */

  cs_rtp_run_table_init (&table);
  for (guint i = 0; i < n; i++)
    {
      CsRtpRun *run = make_run (i, i % 5 == 0);
      guint32 slot = G_MAXUINT32;

      g_assert_cmpint (find (&table, runs, &run->key, &slot), ==, -1);
      g_assert_cmpuint (slot, <=, table.mask);
      cs_rtp_run_table_insert (&table, slot, cs_rtp_run_table_hash (&run->key), runs->len);
      g_ptr_array_add (runs, run);
    }
  g_assert_cmpuint (2 * table.used, <=, table.mask + 1);
  for (guint i = 0; i < n; i++)
    {
      g_autofree CsRtpRun *probe = make_run (i, i % 5 == 0);
      guint32 slot;

      g_assert_cmpint (find (&table, runs, &probe->key, &slot), ==, (gint64) i);
      /* the same addresses, another SSRC: not the same stream */
      probe->key.ssrc += 1000;
      g_assert_cmpint (find (&table, runs, &probe->key, &slot), ==, -1);
    }

  /* take every other run out, as the eviction sweep does, and file the rest again */
  {
    guint kept = 0;

    for (guint i = 0; i < runs->len; i++)
      if (i % 2 == 0)
        runs->pdata[kept++] = runs->pdata[i];
      else
        g_free (runs->pdata[i]);
    runs->len = kept;
  }
  cs_rtp_run_table_rebuild (&table, runs);
  g_assert_cmpuint (table.used, ==, runs->len);
  for (guint i = 0; i < n; i++)
    {
      g_autofree CsRtpRun *probe = make_run (i, i % 5 == 0);
      guint32 slot;

      g_assert_cmpint (find (&table, runs, &probe->key, &slot), ==,
                       i % 2 == 0 ? (gint64) i / 2 : -1);
    }
  cs_rtp_run_table_clear (&table);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rtp-run-table/finds-every-run", test_finds_every_run);
  return g_test_run ();
}
