/* cs-frame-scope.c — the frame numbers of a call, stream, finding, time range or filter */
#include "cs-frame-scope.h"

#include "calls/cs-stream-rtcp.h"
#include "export/cs-pcapng-writer.h"
#include "sip/cs-sip-message.h"

static int
cs_frame_compare (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

/* Sorts and drops repeats. */
static GArray *
cs_frame_scope_finish (GArray *frames)
{
  guint out = 0;

  g_array_sort (frames, cs_frame_compare);
  for (guint i = 0; i < frames->len; i++)
    if (out == 0 || g_array_index (frames, guint32, i) != g_array_index (frames, guint32, out - 1))
      g_array_index (frames, guint32, out++) = g_array_index (frames, guint32, i);
  g_array_set_size (frames, out);
  return frames;
}

static void
cs_frame_scope_add_stream (GArray *frames, CsStream *stream)
{
  guint n;
  const CsRtpPacket *packets = cs_stream_get_packet_records (stream, &n);
  const CsStreamRtcp *rtcp = cs_stream_get_rtcp (stream);

  for (guint i = 0; i < n; i++)
    g_array_append_val (frames, packets[i].frame);
  if (rtcp != NULL && rtcp->frames != NULL)
    g_array_append_vals (frames, rtcp->frames->data, rtcp->frames->len);
}

GArray *
cs_frame_scope_stream (CsStream *stream)
{
  GArray *frames = g_array_new (FALSE, FALSE, sizeof (guint32));

  cs_frame_scope_add_stream (frames, stream);
  return cs_frame_scope_finish (frames);
}

GArray *
cs_frame_scope_call (CsAnalysis *analysis, CsCall *call)
{
  GArray *frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  const GArray *ids = cs_call_get_stream_ids (call);

  for (guint i = 0; i < cs_call_get_n_messages (call); i++)
    {
      CsSipMessage *msg = cs_call_get_message (call, i);
      guint32 first = cs_sip_message_get_first_frame (msg);
      guint32 last = cs_sip_message_get_frame (msg);

      if (first == 0 || first > last)
        first = last;
      g_array_append_val (frames, first);
      if (last != first)
        g_array_append_val (frames, last);
    }
  for (guint i = 0; ids != NULL && i < ids->len; i++)
    {
      CsStream *stream = cs_analysis_lookup_stream (analysis, g_array_index (ids, guint, i));

      if (stream != NULL)
        cs_frame_scope_add_stream (frames, stream);
    }
  return cs_frame_scope_finish (frames);
}

GArray *
cs_frame_scope_finding (CsFinding *finding)
{
  const GArray *own = cs_finding_get_frames (finding);
  GArray *frames = g_array_sized_new (FALSE, FALSE, sizeof (guint32), own->len);

  g_array_append_vals (frames, own->data, own->len);
  return cs_frame_scope_finish (frames);
}

/* The frames of set whose record keep() accepts. */
static GArray *
cs_frame_scope_walk (CsCaptureSet *set, gboolean (*keep) (const CsFrame *, const gint64 *),
                     const gint64 *range)
{
  GArray *frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 n = cs_capture_set_get_n_frames (set);
  CsFrameIter iter;
  CsFrame frame;
  const guint8 *data;

  cs_capture_set_iter_init (set, 0, &iter);
  for (guint32 number = 1; number <= n && cs_frame_iter_next (&iter, &frame, &data); number++)
    if (keep (&frame, range))
      g_array_append_val (frames, number);
  return frames;
}

static gboolean
cs_frame_in_range (const CsFrame *frame, const gint64 *range)
{
  return frame->ts_ns >= range[0] && frame->ts_ns <= range[1];
}

static gboolean
cs_frame_kept (const CsFrame *frame, const gint64 *range)
{
  return (frame->flags & CS_FRAME_FILTERED_OUT) == 0;
}

GArray *
cs_frame_scope_time_range (CsCaptureSet *set, gint64 from_ns, gint64 to_ns)
{
  const gint64 range[2] = { from_ns, to_ns };

  return cs_frame_scope_walk (set, cs_frame_in_range, range);
}

GArray *
cs_frame_scope_kept (CsCaptureSet *set)
{
  return cs_frame_scope_walk (set, cs_frame_kept, NULL);
}

gboolean
cs_frame_scope_write_pcapng (CsCaptureSet *set, const guint32 *frames, guint n, const char *path,
                             GError **error)
{
  CsPcapngWriter *writer
      = cs_pcapng_writer_new_file (path, CS_CAPTURE_FILE_PCAPNG, TRUE, FALSE, error);
  GHashTable *interfaces = g_hash_table_new (NULL, NULL); /* link type → id + 1 */
  gboolean ok = writer != NULL;

  for (guint i = 0; ok && i < n; i++)
    {
      CsFrame frame;
      const guint8 *data = cs_capture_set_read_frame (set, frames[i], &frame);
      gpointer id;

      if (data == NULL)
        continue;
      id = g_hash_table_lookup (interfaces, GUINT_TO_POINTER (frame.linktype));
      if (id == NULL)
        {
          gint added = cs_pcapng_writer_add_interface (writer, frame.linktype, NULL, error);

          ok = added >= 0;
          id = GINT_TO_POINTER (added + 1);
          g_hash_table_insert (interfaces, GUINT_TO_POINTER (frame.linktype), id);
        }
      ok = ok
           && cs_pcapng_writer_write_packet (writer, (guint) GPOINTER_TO_INT (id) - 1, frame.ts_ns,
                                             data, frame.caplen, frame.origlen, NULL, error);
    }
  if (writer != NULL)
    {
      ok = cs_pcapng_writer_close (writer, ok ? error : NULL) && ok;
      cs_pcapng_writer_free (writer);
    }
  g_hash_table_unref (interfaces);
  return ok;
}
