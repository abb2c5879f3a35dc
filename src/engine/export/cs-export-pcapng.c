/* cs-export-pcapng.c — selected calls as a trimmed pcapng with findings as packet comments */
#include "cs-export-pcapng.h"

#include <stdlib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "cs-export-private.h"
#include "cs-flow-key.h"
#include "cs-redact.h"
#include "calls/cs-stream.h"
#include "findings/cs-finding.h"
#include "loader/cs-chunk.h"
#include "net/cs-decode.h"

/* An RTCP flow a call's streams imply: both directions, same ports or one up. */
static void
cs_add_flow (GHashTable *flows, const CsEndpoint *src, const CsEndpoint *dst, guint16 up)
{
  CsFlow *k = g_new0 (CsFlow, 1);

  k->src = *src;
  k->dst = *dst;
  k->src.port = (guint16) (src->port + up);
  k->dst.port = (guint16) (dst->port + up);
  g_hash_table_add (flows, k);
}

/* Every call when n_calls is 0. */
static GArray *
cs_selected_numbers (CsAnalysis *analysis, const guint *call_numbers, guint n_calls)
{
  GArray *numbers = g_array_new (FALSE, FALSE, sizeof (guint));
  GListModel *calls = cs_analysis_get_calls (analysis);

  if (n_calls > 0)
    g_array_append_vals (numbers, call_numbers, n_calls);
  else
    for (guint i = 0; i < g_list_model_get_n_items (calls); i++)
      {
        g_autoptr (CsCall) call = g_list_model_get_item (calls, i);
        guint number = cs_call_get_number (call);

        g_array_append_val (numbers, number);
      }
  return numbers;
}

static gboolean
cs_frame_carries (CsCaptureSet *set, guint32 number, const CsSipMessage *msg)
{
  CsFrame frame;
  const guint8 *data = cs_capture_set_read_frame (set, number, &frame);
  CsPacket pkt;
  CsDecodeStatus status;

  if (data == NULL)
    return FALSE;
  status = cs_decode_frame (frame.linktype, data, frame.caplen, &pkt);
  if (status == CS_DECODE_FRAGMENT)
    return cs_addr_equal (&pkt.src.addr, &cs_sip_message_get_src (msg)->addr)
           && cs_addr_equal (&pkt.dst.addr, &cs_sip_message_get_dst (msg)->addr);
  return status == CS_DECODE_OK && cs_endpoint_equal (&pkt.src, cs_sip_message_get_src (msg))
         && cs_endpoint_equal (&pkt.dst, cs_sip_message_get_dst (msg));
}

/* A message rebuilt from IP fragments: the fragments of its datagram (same addresses and
 * identification) in the frames before the one that completed it, wherever the offset-0
 * fragment was (fragments arrive out of order). */
#define CS_EXPORT_FRAGMENT_LOOKBACK 1024

static gboolean
cs_collect_fragments (CsCaptureSet *set, const CsSipMessage *msg, GHashTable *frames)
{
  CsFrame frame;
  guint32 completed = cs_sip_message_get_frame (msg);
  const guint8 *data = cs_capture_set_read_frame (set, completed, &frame);
  CsPacket last, pkt;
  guint32 stop;

  if (data == NULL
      || cs_decode_frame (frame.linktype, data, frame.caplen, &last) != CS_DECODE_FRAGMENT)
    return FALSE;
  stop = completed > CS_EXPORT_FRAGMENT_LOOKBACK ? completed - CS_EXPORT_FRAGMENT_LOOKBACK : 1;
  for (guint32 f = completed - 1; f >= stop && f > 0; f--)
    {
      data = cs_capture_set_read_frame (set, f, &frame);
      if (data != NULL
          && cs_decode_frame (frame.linktype, data, frame.caplen, &pkt) == CS_DECODE_FRAGMENT
          && pkt.frag.id == last.frag.id && cs_addr_equal (&pkt.src.addr, &last.src.addr)
          && cs_addr_equal (&pkt.dst.addr, &last.dst.addr))
        g_hash_table_add (frames, GUINT_TO_POINTER (f));
    }
  return TRUE;
}

static void
cs_collect_call (CsAnalysis *analysis, CsCall *call, GHashTable *frames, GHashTable *flows,
                 GHashTable *rtp_streams)
{
  CsCaptureSet *set = cs_analysis_get_capture_set (analysis);
  const GArray *ids = cs_call_get_stream_ids (call);

  for (guint i = 0; i < cs_call_get_n_messages (call); i++)
    {
      CsSipMessage *msg = cs_call_get_message (call, i);

      g_hash_table_add (frames, GUINT_TO_POINTER (cs_sip_message_get_frame (msg)));
      if (cs_sip_message_get_transport (msg) == CS_SIP_TRANSPORT_UDP
          && cs_collect_fragments (set, msg, frames))
        continue;
      /* A reassembled message: only the segments or fragments of its own flow. */
      if (cs_sip_message_get_first_frame (msg) != 0
          && cs_sip_message_get_first_frame (msg) < cs_sip_message_get_frame (msg))
        for (guint32 f = cs_sip_message_get_first_frame (msg); f < cs_sip_message_get_frame (msg);
             f++)
          if (cs_frame_carries (set, f, msg))
            g_hash_table_add (frames, GUINT_TO_POINTER (f));
    }
  for (guint i = 0; i < ids->len; i++)
    {
      CsStream *stream = cs_analysis_lookup_stream (analysis, g_array_index (ids, guint, i));
      g_autofree CsRtpPacket *packets = NULL;
      guint n_packets;

      if (stream == NULL)
        continue;
      packets = cs_stream_dup_packet_records (stream, &n_packets); /* not kept with the stream */
      for (guint p = 0; p < n_packets; p++)
        {
          g_hash_table_add (frames, GUINT_TO_POINTER (packets[p].frame));
          if (rtp_streams != NULL)
            g_hash_table_insert (rtp_streams, GUINT_TO_POINTER (packets[p].frame),
                                 g_object_ref (stream));
        }
      for (guint16 up = 0; up <= 1; up++)
        {
          cs_add_flow (flows, cs_stream_get_src (stream), cs_stream_get_dst (stream), up);
          cs_add_flow (flows, cs_stream_get_dst (stream), cs_stream_get_src (stream), up);
        }
    }
}

static int
cs_compare_u32 (const void *a, const void *b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

GArray *
cs_export_collect (CsAnalysis *analysis, const guint *call_numbers, guint n_calls,
                   GHashTable *rtp_streams)
{
  g_autoptr (GArray) numbers = cs_selected_numbers (analysis, call_numbers, n_calls);
  g_autoptr (GHashTable) frames = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) flows = g_hash_table_new_full (cs_flow_hash, cs_flow_equal, g_free, NULL);
  const GArray *rtcp = cs_analysis_get_rtcp (analysis);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint32));
  GHashTableIter iter;
  gpointer key;

  for (guint i = 0; i < numbers->len; i++)
    {
      CsCall *call = cs_analysis_lookup_call (analysis, g_array_index (numbers, guint, i));

      if (call != NULL)
        cs_collect_call (analysis, call, frames, flows, rtp_streams);
    }
  for (guint i = 0; i < rtcp->len; i++)
    {
      const CsRtcpRef *ref = &g_array_index (rtcp, CsRtcpRef, i);
      CsFlow k = { ref->src, ref->dst };

      if (g_hash_table_contains (flows, &k))
        g_hash_table_add (frames, GUINT_TO_POINTER (ref->frame));
    }
  g_hash_table_remove (frames, GUINT_TO_POINTER (0));
  g_hash_table_iter_init (&iter, frames);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      guint32 f = GPOINTER_TO_UINT (key);

      g_array_append_val (out, f);
    }
  if (out->len > 1) /* an empty array has no data to sort (UBSan: qsort of NULL) */
    qsort (out->data, out->len, sizeof (guint32), cs_compare_u32);
  return out;
}

GArray *
cs_export_collect_frames (CsAnalysis *analysis, const guint *call_numbers, guint n_calls)
{
  return cs_export_collect (analysis, call_numbers, n_calls, NULL);
}

GHashTable *
cs_export_comments (CsAnalysis *analysis, const guint *call_numbers, guint n_calls,
                    const GArray *original_frames)
{
  g_autoptr (GArray) numbers = cs_selected_numbers (analysis, call_numbers, n_calls);
  g_autoptr (GHashTable) wanted_calls = g_hash_table_new (NULL, NULL);
  g_autoptr (GHashTable) wanted_streams = g_hash_table_new (NULL, NULL);
  GListModel *findings = cs_analysis_get_findings (analysis);
  GHashTable *comments = g_hash_table_new_full (NULL, NULL, NULL, g_free);

  for (guint i = 0; i < numbers->len; i++)
    {
      guint number = g_array_index (numbers, guint, i);
      CsCall *call = cs_analysis_lookup_call (analysis, number);
      const GArray *ids = call != NULL ? cs_call_get_stream_ids (call) : NULL;

      g_hash_table_add (wanted_calls, GUINT_TO_POINTER (number));
      for (guint s = 0; ids != NULL && s < ids->len; s++)
        g_hash_table_add (wanted_streams, GUINT_TO_POINTER (g_array_index (ids, guint, s)));
    }
  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr (CsFinding) finding = g_list_model_get_item (findings, i);
      guint call = cs_finding_get_call_number (finding);
      guint stream = cs_finding_get_stream_id (finding);
      const GArray *frames = cs_finding_get_frames (finding);
      g_autofree char *where = NULL;
      g_autofree char *line = NULL;

      if (!g_hash_table_contains (wanted_calls, GUINT_TO_POINTER (call))
          && !(stream != 0 && g_hash_table_contains (wanted_streams, GUINT_TO_POINTER (stream))))
        continue;
      if (call != 0 && stream != 0)
        where = g_strdup_printf (" (call %u, stream %u", call, stream);
      else if (call != 0)
        where = g_strdup_printf (" (call %u", call);
      else
        where = g_strdup_printf (" (stream %u", stream);
      for (guint f = 0; f < frames->len; f++)
        {
          guint32 number = g_array_index (frames, guint32, f);
          gpointer key = GUINT_TO_POINTER (number);
          const char *old = g_hash_table_lookup (comments, key);

          guint32 original
              = original_frames != NULL && number >= 1 && number <= original_frames->len
                    ? g_array_index (original_frames, guint32, number - 1)
                    : number;

          /* Frame numbers change in a trimmed file: name the original one. */
          g_free (line);
          line = g_strdup_printf ("callscope: %s %s%s, original frame %u: %s",
                                  cs_severity_to_string (cs_finding_get_severity (finding)),
                                  cs_finding_kind_to_string (cs_finding_get_kind (finding)), where,
                                  original, cs_finding_get_text (finding));

          g_hash_table_insert (comments, key,
                               old != NULL ? g_strconcat (old, "\n", line, NULL) : g_strdup (line));
        }
    }
  return comments;
}

GHashTable *
cs_export_finding_comments (CsAnalysis *analysis, const guint *call_numbers, guint n_calls)
{
  return cs_export_comments (analysis, call_numbers, n_calls, NULL);
}

CsExportVoice
cs_export_voice (CsExportFlags flags)
{
  if (flags & CS_EXPORT_DROP_VOICE)
    return CS_EXPORT_VOICE_DROP;
  if (flags & CS_EXPORT_SILENCE_VOICE)
    return CS_EXPORT_VOICE_SILENCE;
  if (flags & CS_EXPORT_KEEP_VOICE)
    return CS_EXPORT_VOICE_KEEP;
  return (flags & CS_EXPORT_REDACT) != 0 ? CS_EXPORT_VOICE_SILENCE : CS_EXPORT_VOICE_KEEP;
}

static gint
cs_interface_for (CsPcapngWriter *writer, GHashTable *interfaces, guint16 linktype, GError **error)
{
  gpointer id;
  gint added;

  if (g_hash_table_lookup_extended (interfaces, GUINT_TO_POINTER (linktype), NULL, &id))
    return GPOINTER_TO_INT (id);
  added = cs_pcapng_writer_add_interface (writer, linktype, cs_linktype_name (linktype), error);
  if (added >= 0)
    g_hash_table_insert (interfaces, GUINT_TO_POINTER (linktype), GINT_TO_POINTER (added));
  return added;
}

gboolean
cs_export_run_tick (CsExportRun *run, GError **error)
{
  if (run->done++ % CS_EXPORT_PROGRESS_EVERY != 0)
    return TRUE;
  if (run->progress != NULL)
    run->progress (MIN (run->done, run->total), run->total, run->user_data);
  return !g_cancellable_set_error_if_cancelled (run->cancellable, error);
}

gboolean
cs_export_run_write (CsExportRun *run, CsPcapngWriter *writer, GError **error)
{
  CsCaptureSet *set = cs_analysis_get_capture_set (run->analysis);
  g_autoptr (GHashTable) interfaces = g_hash_table_new (NULL, NULL);

  for (guint i = 0; i < run->frames->len; i++)
    {
      guint32 number = g_array_index (run->frames, guint32, i);
      CsFrame frame;
      const guint8 *data = cs_capture_set_read_frame (set, number, &frame);
      const char *finding_comment
          = run->comments != NULL ? g_hash_table_lookup (run->comments, GUINT_TO_POINTER (number))
                                  : NULL;
      CsStream *stream = run->rtp_streams != NULL
                             ? g_hash_table_lookup (run->rtp_streams, GUINT_TO_POINTER (number))
                             : NULL;
      const char *own_comment = NULL;
      g_autofree char *comment = NULL;
      g_autoptr (GByteArray) bytes = NULL;
      gsize origlen;
      gint interface;

      if (!cs_export_run_tick (run, error))
        return FALSE;
      if (data == NULL)
        continue;
      interface = cs_interface_for (writer, interfaces, frame.linktype, error);
      if (interface < 0)
        return FALSE;
      if (run->keep_own_comments && (frame.flags & CS_FRAME_HAS_COMMENT) != 0)
        own_comment
            = cs_capture_get_frame_comment (cs_capture_set_get_file (set, frame.file), &frame);
      if (own_comment != NULL && finding_comment != NULL)
        comment = g_strconcat (own_comment, "\n", finding_comment, NULL);
      else
        comment = g_strdup (own_comment != NULL ? own_comment : finding_comment);
      origlen = frame.origlen;
      if (run->redactor != NULL)
        bytes = cs_redactor_rewrite_frame (run->redactor, number, frame.linktype, data,
                                           frame.caplen, &origlen);
      else
        bytes = g_byte_array_append (g_byte_array_new (), data, frame.caplen);
      if (stream != NULL)
        cs_export_rtp_scrub (stream, run->voice, frame.linktype, bytes);
      if (!cs_pcapng_writer_write_packet (writer, (guint) interface, frame.ts_ns, bytes->data,
                                          bytes->len, MAX (origlen, bytes->len), comment, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
cs_export_pcapng_write (CsAnalysis *analysis, const guint *call_numbers, guint n_calls,
                        CsExportFlags flags, CsPcapngWriter *writer, GCancellable *cancellable,
                        CsExportProgressFunc progress, gpointer user_data, guint64 *n_written,
                        GError **error)
{
  CsExportRun run = { 0 };
  g_autoptr (GHashTable) rtp_streams = NULL;
  g_autoptr (GArray) frames = NULL;
  g_autoptr (GHashTable) comments = NULL;
  gboolean ok;

  if (n_written != NULL)
    *n_written = 0;
  if ((flags & CS_EXPORT_REDACT) != 0)
    ok = cs_export_redacted_write (analysis, call_numbers, n_calls, flags, writer, cancellable,
                                   progress, user_data, error);
  else
    {
      rtp_streams = g_hash_table_new_full (NULL, NULL, NULL, g_object_unref);
      frames = cs_export_collect (analysis, call_numbers, n_calls, rtp_streams);
      comments = cs_export_comments (analysis, call_numbers, n_calls, NULL);
      run.analysis = analysis;
      run.frames = frames;
      run.comments = comments;
      run.rtp_streams = rtp_streams;
      run.voice = cs_export_voice (flags);
      run.keep_own_comments = TRUE;
      run.total = frames->len;
      run.cancellable = cancellable;
      run.progress = progress;
      run.user_data = user_data;
      ok = cs_export_run_write (&run, writer, error);
      if (ok && progress != NULL)
        progress (run.total, run.total, user_data);
    }
  if (ok && n_written != NULL)
    *n_written = cs_pcapng_writer_get_packet_count (writer);
  return ok;
}

gboolean
cs_export_pcapng_to_file (CsAnalysis *analysis, const guint *call_numbers, guint n_calls,
                          CsExportFlags flags, const char *path, GCancellable *cancellable,
                          CsExportProgressFunc progress, gpointer user_data, GError **error)
{
  g_autoptr (CsPcapngWriter) writer
      = cs_pcapng_writer_new_file (path, CS_CAPTURE_FILE_PCAPNG, TRUE, FALSE, error);

  if (writer == NULL)
    return FALSE;
  if (!cs_export_pcapng_write (analysis, call_numbers, n_calls, flags, writer, cancellable,
                               progress, user_data, NULL, error))
    {
      cs_pcapng_writer_close (writer, NULL);
      g_unlink (path);
      return FALSE;
    }
  return cs_pcapng_writer_close (writer, error);
}

guint
cs_export_find_call (CsAnalysis *analysis, const char *call)
{
  guint64 number;
  CsCall *found;

  if (call == NULL || *call == '\0')
    return 0;
  if (g_ascii_string_to_unsigned (call, 10, 1, G_MAXUINT, &number, NULL))
    return cs_analysis_lookup_call (analysis, (guint) number) != NULL ? (guint) number : 0;
  found = cs_analysis_find_call_id (analysis, call);
  return found != NULL ? cs_call_get_number (found) : 0;
}
