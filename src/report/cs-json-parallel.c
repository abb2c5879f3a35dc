/* cs-json-parallel.c — the elements of a long JSON array written on two threads
 *
 * Items are cut into runs of CS_JSON_RUN_ITEMS. This thread writes the even runs straight
 * into the document; the helper writes the odd runs into pieces (two slots, so it can
 * work one run ahead) that this thread appends in order. */
#include "cs-json-parallel.h"

/* ~1.5 KiB of JSON per call: a run is a few hundred KiB, two of them in memory */
#define CS_JSON_RUN_ITEMS 256
/* below this, a thread costs more than it saves */
#define CS_JSON_MIN_PARALLEL_ITEMS (4 * CS_JSON_RUN_ITEMS)

typedef struct
{
  CsJsonWriter *model; /* an empty piece: the helper's pieces copy its depth and style */
  GPtrArray *items;
  CsJsonItemFunc write_item;
  guint n_runs;
  GMutex lock;
  GCond changed;
  GBytes *slots[2]; /* odd run r goes to slots[(r / 2) % 2]; NULL = free */
} CsJsonRuns;

static void
cs_json_write_run (CsJsonWriter *w, const CsJsonRuns *runs, guint run)
{
  guint end = MIN ((run + 1) * CS_JSON_RUN_ITEMS, runs->items->len);

  for (guint i = run * CS_JSON_RUN_ITEMS; i < end; i++)
    runs->write_item (w, g_ptr_array_index (runs->items, i));
}

static gpointer
cs_json_runs_helper (gpointer data)
{
  CsJsonRuns *runs = data;

  for (guint run = 1; run < runs->n_runs; run += 2)
    {
      guint slot = (run / 2) % 2;
      CsJsonWriter *piece;
      GBytes *text;

      g_mutex_lock (&runs->lock);
      while (runs->slots[slot] != NULL)
        g_cond_wait (&runs->changed, &runs->lock);
      g_mutex_unlock (&runs->lock);
      piece = cs_json_writer_new_piece (runs->model);
      cs_json_write_run (piece, runs, run);
      text = cs_json_writer_free_to_piece (piece);
      g_mutex_lock (&runs->lock);
      runs->slots[slot] = text;
      g_cond_broadcast (&runs->changed);
      g_mutex_unlock (&runs->lock);
    }
  return NULL;
}

/* This thread's part: the even runs, and the helper's odd ones in order. */
static void
cs_json_write_runs (CsJsonWriter *w, CsJsonRuns *runs, GThread *helper)
{
  for (guint run = 0; run < runs->n_runs; run++)
    {
      guint slot = (run / 2) % 2;
      GBytes *text;

      if (run % 2 == 0)
        {
          cs_json_write_run (w, runs, run);
          continue;
        }
      g_mutex_lock (&runs->lock);
      while (runs->slots[slot] == NULL)
        g_cond_wait (&runs->changed, &runs->lock);
      text = runs->slots[slot];
      runs->slots[slot] = NULL;
      g_cond_broadcast (&runs->changed);
      g_mutex_unlock (&runs->lock);
      cs_json_append_piece (w, text);
      g_bytes_unref (text);
    }
  g_thread_join (helper);
  g_bytes_unref (cs_json_writer_free_to_piece (runs->model));
  g_cond_clear (&runs->changed);
  g_mutex_clear (&runs->lock);
}

void
cs_json_write_items (CsJsonWriter *w, GPtrArray *items, CsJsonItemFunc write_item)
{
  CsJsonRuns runs = { .items = items, .write_item = write_item };
  GThread *helper;

  if (cs_json_writer_get_threads (w) >= 2 && items->len >= CS_JSON_MIN_PARALLEL_ITEMS)
    {
      runs.n_runs = (items->len + CS_JSON_RUN_ITEMS - 1) / CS_JSON_RUN_ITEMS;
      g_mutex_init (&runs.lock);
      g_cond_init (&runs.changed);
      /* made here: the helper must not read w, which this thread keeps writing */
      runs.model = cs_json_writer_new_piece (w);
      helper = g_thread_try_new ("cs-json-runs", cs_json_runs_helper, &runs, NULL);
      if (helper != NULL)
        {
          cs_json_write_runs (w, &runs, helper);
          return;
        }
      g_bytes_unref (cs_json_writer_free_to_piece (runs.model));
      g_cond_clear (&runs.changed);
      g_mutex_clear (&runs.lock);
    }
  /* one thread (or no thread could be started) */
  for (guint i = 0; i < items->len; i++)
    write_item (w, g_ptr_array_index (items, i));
}
