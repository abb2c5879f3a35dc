/* cs-export-redacted.c — a redacted export: both redaction passes into a temporary file,
 * which is analysed again; reports and the findings' comments come from that analysis, so
 * nothing in them can name what the redacted packets do not */
#include "cs-export-private.h"

#include <glib/gstdio.h>
#include <unistd.h>

#include "capture/cs-capture-set.h"
#include "loader/cs-loader.h"

#define CS_EXPORT_REDACTED_NAME "redacted.pcapng"

/* Observe, seal, write redacted (no comments) to a temporary file, analyse it. */
static CsAnalysis *
cs_redacted_stage (CsAnalysis *analysis, const guint *call_numbers, guint n_calls,
                   CsExportFlags flags, guint passes, CsExportRun *run, GArray **frames_out,
                   GError **error)
{
  CsCaptureSet *set = cs_analysis_get_capture_set (analysis);
  g_autoptr (GHashTable) rtp_streams = g_hash_table_new_full (NULL, NULL, NULL, g_object_unref);
  g_autoptr (GArray) frames = cs_export_collect (analysis, call_numbers, n_calls, rtp_streams);
  g_autoptr (CsRedactor) redactor = cs_redactor_new ();
  g_autoptr (CsPcapngWriter) writer = NULL;
  g_autoptr (CsLoader) loader = NULL;
  g_autofree char *tmp = NULL;
  CsAnalysis *redacted;
  const char *paths[2] = { NULL, NULL };
  gboolean ok;
  int fd;

  run->total = (guint64) frames->len * passes;
  for (guint i = 0; i < frames->len; i++)
    {
      guint32 number = g_array_index (frames, guint32, i);
      CsFrame frame;
      const guint8 *data = cs_capture_set_read_frame (set, number, &frame);

      if (!cs_export_run_tick (run, error))
        return NULL;
      if (data != NULL)
        cs_redactor_observe_frame (redactor, number, frame.linktype, data, frame.caplen);
    }
  if (!cs_redactor_seal (redactor, error))
    return NULL;

  fd = g_file_open_tmp ("callscope-redacted-XXXXXX.pcapng", &tmp, error);
  if (fd < 0)
    return NULL;
  close (fd);
  writer = cs_pcapng_writer_new_file (tmp, CS_CAPTURE_FILE_PCAPNG, TRUE, FALSE, error);
  if (writer == NULL)
    {
      g_unlink (tmp);
      return NULL;
    }
  run->analysis = analysis;
  run->frames = frames;
  run->comments = NULL;
  run->rtp_streams = rtp_streams;
  run->voice = cs_export_voice (flags);
  run->redactor = redactor;
  run->keep_own_comments = FALSE; /* a comment may name anyone */
  ok = cs_export_run_write (run, writer, error);
  run->redactor = NULL;
  run->rtp_streams = NULL;
  run->frames = NULL;
  if (!cs_pcapng_writer_close (writer, ok ? error : NULL) || !ok)
    {
      g_unlink (tmp);
      return NULL;
    }

  loader = cs_loader_new ();
  paths[0] = tmp;
  redacted = cs_loader_load (loader, paths, run->cancellable, error);
  g_unlink (tmp); /* mapped already: the analysis keeps the bytes */
  if (redacted == NULL)
    return NULL;
  cs_capture_set_display_path (cs_capture_set_get_file (cs_analysis_get_capture_set (redacted), 0),
                               CS_EXPORT_REDACTED_NAME);
  run->done = (guint64) frames->len * 3; /* observed, written, analysed */
  if (run->progress != NULL)
    run->progress (run->done, run->total, run->user_data);
  if (frames_out != NULL)
    *frames_out = g_steal_pointer (&frames);
  return redacted;
}

CsAnalysis *
cs_export_redacted_analysis (CsAnalysis *analysis, const guint *call_numbers, guint n_calls,
                             CsExportFlags flags, GCancellable *cancellable,
                             CsExportProgressFunc progress, gpointer user_data, GError **error)
{
  CsExportRun run = { 0 };
  CsAnalysis *redacted;

  run.cancellable = cancellable;
  run.progress = progress;
  run.user_data = user_data;
  redacted = cs_redacted_stage (analysis, call_numbers, n_calls, flags | CS_EXPORT_REDACT, 3, &run,
                                NULL, error);
  if (redacted != NULL && progress != NULL)
    progress (run.total, run.total, user_data);
  return redacted;
}

gboolean
cs_export_redacted_write (CsAnalysis *analysis, const guint *call_numbers, guint n_calls,
                          CsExportFlags flags, CsPcapngWriter *writer, GCancellable *cancellable,
                          CsExportProgressFunc progress, gpointer user_data, GError **error)
{
  CsExportRun run = { 0 };
  g_autoptr (CsAnalysis) redacted = NULL;
  g_autoptr (GArray) original_frames = NULL;
  g_autoptr (GArray) frames = NULL;
  g_autoptr (GHashTable) comments = NULL;
  guint n;
  gboolean ok;

  run.cancellable = cancellable;
  run.progress = progress;
  run.user_data = user_data;
  redacted = cs_redacted_stage (analysis, call_numbers, n_calls, flags, 4, &run, &original_frames,
                                error);
  if (redacted == NULL)
    return FALSE;
  /* The redacted file holds exactly the export's frames: copy them, with the findings of
   * the redacted capture as comments (naming the original frame numbers). */
  n = cs_capture_set_get_n_frames (cs_analysis_get_capture_set (redacted));
  frames = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n);
  for (guint32 f = 1; f <= n; f++)
    g_array_append_val (frames, f);
  comments
      = cs_export_comments (redacted, NULL, 0, n == original_frames->len ? original_frames : NULL);
  run.analysis = redacted;
  run.frames = frames;
  run.comments = comments;
  run.voice = CS_EXPORT_VOICE_KEEP; /* done in the first write */
  ok = cs_export_run_write (&run, writer, error);
  if (ok && progress != NULL)
    progress (run.total, run.total, user_data);
  return ok;
}
