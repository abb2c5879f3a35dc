/* cs-homer-load.c — rows streamed from the store's cursor into a capture the engine loads */
#include "cs-homer-load.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "cs-homer-row.h"
#include "cs-homer-store.h"
#include "export/cs-pcapng-writer.h"

#define CS_HOMER_FETCH_BATCH 5000
#define CS_HOMER_PROGRESS_EVERY 20000

typedef struct
{
  CsPcapngWriter *writer;
  GByteArray *frame;
  CsHomerStats *stats;
  CsHomerProgressFunc progress;
  gpointer user_data;
  gint64 started_us;
} SpoolState;

void
cs_homer_stats_clear (CsHomerStats *stats)
{
  if (stats->bad_row_messages != NULL)
    g_ptr_array_unref (stats->bad_row_messages);
  memset (stats, 0, sizeof *stats);
}

static gboolean
spool_row (const char *const values[CS_HOMER_N_COLS], const int lengths[CS_HOMER_N_COLS],
           gpointer user_data, GError **error)
{
  SpoolState *state = user_data;
  g_autoptr (GError) bad = NULL;
  g_autofree char *comment = NULL;
  CsHomerRow row;

  state->stats->rows++;
  if (!cs_homer_row_parse (values, lengths, &row, &bad)
      || !cs_homer_row_to_frame (&row, state->frame, &bad))
    {
      state->stats->bad_rows++;
      if (state->stats->bad_row_messages->len < CS_HOMER_MAX_BAD_MESSAGES)
        g_ptr_array_add (state->stats->bad_row_messages, g_strdup (bad->message));
      return TRUE;
    }
  state->stats->rows_per_table[row.table]++;
  comment = cs_homer_row_describe (&row);
  if (!cs_pcapng_writer_write_packet (state->writer, 0, row.ts_us * 1000, state->frame->data,
                                      state->frame->len, state->frame->len, comment, error))
    return FALSE;
  if (state->progress != NULL && state->stats->rows % CS_HOMER_PROGRESS_EVERY == 0)
    {
      double s = (g_get_monotonic_time () - state->started_us) / 1e6;
      state->progress (state->stats->rows, s > 0 ? state->stats->rows / s : 0, state->user_data);
    }
  return TRUE;
}

gboolean
cs_homer_spool (const CsHomerQuery *query, const char *path, CsHomerProgressFunc progress,
                gpointer user_data, GCancellable *cancellable, CsHomerStats *stats, GError **error)
{
  g_autoptr (CsHomerStore) store = NULL;
  g_autoptr (CsPcapngWriter) writer = NULL;
  g_autoptr (GByteArray) frame = g_byte_array_new ();
  SpoolState state = { 0 };
  gboolean ok;

  memset (stats, 0, sizeof *stats);
  stats->bad_row_messages = g_ptr_array_new_with_free_func (g_free);
  if (!cs_homer_query_check (query, error))
    return FALSE;
  store = cs_homer_store_open (query->uri, error);
  if (store == NULL || !cs_homer_store_check_window (store, query, error))
    return FALSE;
  /* microseconds are all a Homer row keeps */
  writer = cs_pcapng_writer_new_file (path, CS_CAPTURE_FILE_PCAPNG, FALSE, FALSE, error);
  if (writer == NULL
      || cs_pcapng_writer_add_interface (writer, CS_LINKTYPE_ETHERNET, "homer", error) < 0)
    return FALSE;
  state.writer = writer;
  state.frame = frame;
  state.stats = stats;
  state.progress = progress;
  state.user_data = user_data;
  state.started_us = g_get_monotonic_time ();
  ok = cs_homer_store_read (store, query, CS_HOMER_FETCH_BATCH, spool_row, &state, cancellable,
                            error);
  stats->fetch_seconds = (g_get_monotonic_time () - state.started_us) / 1e6;
  if (progress != NULL && ok)
    progress (stats->rows, stats->fetch_seconds > 0 ? stats->rows / stats->fetch_seconds : 0,
              user_data);
  if (!ok || !cs_pcapng_writer_close (writer, error))
    return FALSE;
  if (stats->rows == stats->bad_rows)
    {
      g_autofree char *from = cs_homer_format_time (query->from_us);
      g_autofree char *to = cs_homer_format_time (query->to_us);
      if (stats->rows == 0)
        g_set_error (error, CS_HOMER_ERROR, CS_HOMER_ERROR_NO_ROWS,
                     "the Homer database holds no row from %s to %s that matches", from, to);
      else
        g_set_error (error, CS_HOMER_ERROR, CS_HOMER_ERROR_ROW,
                     "every one of the %" G_GUINT64_FORMAT " rows is malformed; the first: %s",
                     stats->rows, (const char *) stats->bad_row_messages->pdata[0]);
      return FALSE;
    }
  return TRUE;
}

CsAnalysis *
cs_homer_load (CsLoader *loader, const CsHomerQuery *query, CsHomerProgressFunc progress,
               gpointer user_data, GCancellable *cancellable, CsHomerStats *stats, GError **error)
{
  g_autofree char *path = NULL;
  const char *paths[2] = { NULL, NULL };
  CsAnalysis *analysis;
  gint64 started;
  int fd;

  fd = g_file_open_tmp ("callscope-homer-XXXXXX.pcapng", &path, error);
  if (fd < 0)
    return NULL;
  close (fd);
  if (!cs_homer_spool (query, path, progress, user_data, cancellable, stats, error))
    {
      g_unlink (path);
      return NULL;
    }
  started = g_get_monotonic_time ();
  paths[0] = path;
  analysis = cs_loader_load (loader, paths, cancellable, error);
  stats->load_seconds = (g_get_monotonic_time () - started) / 1e6;
  g_unlink (path);
  return analysis;
}
