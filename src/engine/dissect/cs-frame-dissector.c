/* cs-frame-dissector.c — dissection hints from the analysis: the stream a frame belongs to,
 * its codec, events and figures, and the RTCP frames the analysis read */
#include "cs-frame-dissector.h"

#include "calls/cs-stream-rtcp.h"
#include "calls/cs-stream.h"
#include "cs-dissect.h"
#include "net/cs-decode.h"
#include "net/cs-ip-reassembly.h"
#include "quality/cs-jitter-buffer.h"
#include "quality/cs-rtp-series.h"
#include "rtp/cs-rtp-run.h"

struct _CsFrameDissector
{
  CsAnalysis *analysis;
  CsCaptureSet *set;
  gint64 origin_ns;
  GHashTable *flows;       /* CsFlow → GPtrArray of CsStream (borrowed) */
  GHashTable *rtcp_frames; /* frame numbers of the RTCP the analysis read */
  GHashTable *media_pts;   /* CsStream → its media payload type + 1 */
  /* the packet records of the streams looked at last (unpacked copies, so that scrolling
   * through a capture does not leave every stream unpacked) */
  struct
  {
    CsStream *stream;
    CsRtpPacket *records;
    guint n;
  } recent[4];
  guint next_recent;
  /* the last stream whose figures were computed */
  CsStream *figures_stream;
  GArray *series;   /* CsRtpSeriesPoint */
  guint8 *verdicts; /* CsJitterBufferVerdict per packet */
};

/* The stream's packet records (capture order), from the small cache. */
static const CsRtpPacket *
cs_frame_dissector_records (CsFrameDissector *self, CsStream *stream, guint *n)
{
  guint slot;

  for (guint i = 0; i < G_N_ELEMENTS (self->recent); i++)
    if (self->recent[i].stream == stream)
      {
        *n = self->recent[i].n;
        return self->recent[i].records;
      }
  slot = self->next_recent++ % G_N_ELEMENTS (self->recent);
  g_free (self->recent[slot].records);
  self->recent[slot].stream = stream;
  self->recent[slot].records = cs_stream_dup_packet_records (stream, &self->recent[slot].n);
  *n = self->recent[slot].n;
  return self->recent[slot].records;
}

/* The payload type the stream's codec names (its most frequent), found once per stream. */
static guint8
cs_frame_dissector_media_pt (CsFrameDissector *self, CsStream *stream)
{
  gpointer known = g_hash_table_lookup (self->media_pts, stream);
  guint n;
  const CsRtpPacket *packets;
  guint8 pt;

  if (known != NULL)
    return (guint8) (GPOINTER_TO_UINT (known) - 1);
  packets = cs_frame_dissector_records (self, stream, &n);
  pt = cs_jitter_buffer_media_payload_type (packets, n);
  g_hash_table_insert (self->media_pts, stream, GUINT_TO_POINTER (pt + 1u));
  return pt;
}

CsFrameDissector *
cs_frame_dissector_new (CsAnalysis *analysis)
{
  CsFrameDissector *self = g_new0 (CsFrameDissector, 1);
  GListModel *streams = cs_analysis_get_streams (analysis);
  const GArray *rtcp = cs_analysis_get_rtcp (analysis);
  guint n = g_list_model_get_n_items (streams);
  CsFrame first;

  self->analysis = g_object_ref (analysis);
  self->set = cs_analysis_get_capture_set (analysis);
  if (self->set != NULL && cs_capture_set_get_frame (self->set, 1, &first))
    self->origin_ns = first.ts_ns;
  self->flows = g_hash_table_new_full (cs_flow_hash, cs_flow_equal, g_free,
                                       (GDestroyNotify) g_ptr_array_unref);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (CsStream) stream = g_list_model_get_item (streams, i);
      CsFlow key = { *cs_stream_get_src (stream), *cs_stream_get_dst (stream) };
      GPtrArray *list = g_hash_table_lookup (self->flows, &key);

      if (list == NULL)
        {
          list = g_ptr_array_new ();
          g_hash_table_insert (self->flows, g_memdup2 (&key, sizeof key), list);
        }
      g_ptr_array_add (list, stream); /* the analysis keeps it */
    }
  self->rtcp_frames = g_hash_table_new (NULL, NULL);
  self->media_pts = g_hash_table_new (NULL, NULL);
  for (guint i = 0; rtcp != NULL && i < rtcp->len; i++)
    g_hash_table_add (self->rtcp_frames,
                      GUINT_TO_POINTER (g_array_index (rtcp, CsRtcpRef, i).frame));
  return self;
}

void
cs_frame_dissector_free (CsFrameDissector *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->flows);
  g_hash_table_unref (self->rtcp_frames);
  g_hash_table_unref (self->media_pts);
  for (guint i = 0; i < G_N_ELEMENTS (self->recent); i++)
    g_free (self->recent[i].records);
  if (self->series != NULL)
    g_array_unref (self->series);
  g_free (self->verdicts);
  g_object_unref (self->analysis);
  g_free (self);
}

const guint8 *
cs_frame_dissector_bytes (CsFrameDissector *self, guint32 number, CsFrame *frame)
{
  return self->set != NULL ? cs_capture_set_read_frame (self->set, number, frame) : NULL;
}

double
cs_frame_dissector_relative_time (CsFrameDissector *self, const CsFrame *frame)
{
  return (double) (frame->ts_ns - self->origin_ns) / 1e9;
}

/* The index of frame number among a stream's packets (they are in capture order), or -1. */
static gint64
cs_frame_dissector_packet_index (CsFrameDissector *self, CsStream *stream, guint32 number)
{
  guint n;
  const CsRtpPacket *packets = cs_frame_dissector_records (self, stream, &n);
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (packets[mid].frame < number)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < n && packets[lo].frame == number ? (gint64) lo : -1;
}

static const char *
cs_verdict_name (guint8 verdict)
{
  switch (verdict)
    {
    case CS_JITTER_BUFFER_PLAYED:
      return "played";
    case CS_JITTER_BUFFER_LATE:
      return "late (dropped by the jitter buffer)";
    case CS_JITTER_BUFFER_DUPLICATE:
      return "duplicate (dropped)";
    default:
      return "passed through (not media)";
    }
}

/* Series and verdicts of stream, computed once for a run of frames of the same stream. */
static void
cs_frame_dissector_compute_figures (CsFrameDissector *self, CsStream *stream)
{
  CsJitterBufferConfig cfg;
  CsJitterBufferResult result;
  const CsCodecInfo *codec = cs_stream_get_codec_info (stream);
  guint n;
  const CsRtpPacket *packets = cs_frame_dissector_records (self, stream, &n);

  if (self->figures_stream == stream)
    return;
  if (self->series != NULL)
    g_array_unref (self->series);
  g_free (self->verdicts);
  self->series
      = cs_rtp_series_compute (packets, n, cs_stream_get_clock_map (stream), self->origin_ns);
  self->verdicts = g_new0 (guint8, MAX (n, 1));
  cs_jitter_buffer_config_init_default (&cfg);
  cs_jitter_buffer_emulate_media (packets, n, cs_frame_dissector_media_pt (self, stream),
                                  codec != NULL ? codec->clock_rate : 8000, &cfg, self->verdicts,
                                  &result);
  self->figures_stream = stream;
}

/* How far from a fragment its datagram's other fragments are looked for. */
#define CS_FRAGMENT_WINDOW 64

static gboolean
cs_same_datagram (const CsPacket *a, const CsPacket *b)
{
  return a->ip_version == b->ip_version && a->ip_proto == b->ip_proto && a->frag.id == b->frag.id
         && cs_addr_equal (&a->src.addr, &b->src.addr)
         && cs_addr_equal (&a->dst.addr, &b->dst.addr);
}

/* The fragments of the datagram of fragment (frame number) near it, reassembled in frame
 * order as the loader does: hints get their frames, the frame completing the datagram, and the
 * datagram itself when number is that frame. */
static void
cs_frame_dissector_fragments (CsFrameDissector *self, guint32 number, const CsPacket *fragment,
                              GArray *frames, CsDissectHints *hints)
{
  guint32 n = cs_capture_set_get_n_frames (self->set);
  guint32 from = number > CS_FRAGMENT_WINDOW ? number - CS_FRAGMENT_WINDOW : 1;
  guint32 to = MIN (n, number + CS_FRAGMENT_WINDOW);
  CsIpReassembler *r = cs_ip_reassembler_new (0, 0);

  for (guint32 i = from; i <= to && hints->reassembled_in == 0; i++)
    {
      CsFrame frame;
      CsPacket packet;
      const guint8 *data = cs_capture_set_read_frame (self->set, i, &frame);
      GBytes *datagram;

      if (data == NULL
          || cs_decode_frame (frame.linktype, data, frame.caplen, &packet) != CS_DECODE_FRAGMENT
          || !cs_same_datagram (&packet, fragment))
        continue;
      g_array_append_val (frames, i);
      datagram = cs_ip_reassembler_add (r, &packet, i, frame.ts_ns, NULL);
      if (datagram == NULL)
        continue;
      hints->reassembled_in = i;
      if (i == number)
        hints->reassembled = datagram;
      else
        g_bytes_unref (datagram);
    }
  cs_ip_reassembler_free (r);
  hints->fragment_frames = (const guint32 *) frames->data;
  hints->n_fragment_frames = frames->len;
}

static CsProtoTree *
cs_frame_dissector_run (CsFrameDissector *self, guint32 number, CsProtoTree *tree)
{
  CsDissectHints hints = { .number = number, .origin_ns = self->origin_ns, .event_pt = -1 };
  CsDissectRtpFigures figures = { 0 };
  CsFrame frame;
  CsPacket packet;
  const guint8 *data = cs_frame_dissector_bytes (self, number, &frame);
  CsCapture *file;
  CsDecodeStatus status;
  g_autoptr (GArray) fragments = g_array_new (FALSE, FALSE, sizeof (guint32));

  if (data == NULL)
    {
      cs_proto_tree_free (tree);
      return NULL;
    }
  file = cs_capture_set_get_file (self->set, frame.file);
  if (file != NULL)
    {
      hints.file_name = cs_capture_get_path (file);
      if (frame.flags & CS_FRAME_HAS_COMMENT)
        hints.comment = cs_capture_get_frame_comment (file, &frame);
    }
  status = cs_decode_frame (frame.linktype, data, frame.caplen, &packet);
  if (status == CS_DECODE_FRAGMENT)
    cs_frame_dissector_fragments (self, number, &packet, fragments, &hints);
  if (g_hash_table_contains (self->rtcp_frames, GUINT_TO_POINTER (number)))
    hints.as = CS_DISSECT_AS_RTCP;
  else if (status == CS_DECODE_OK && packet.ip_proto == CS_IP_PROTO_UDP)
    {
      CsFlow key = { packet.src, packet.dst };
      GPtrArray *list = g_hash_table_lookup (self->flows, &key);
      guint32 ssrc = packet.payload_len >= 12
                         ? ((guint32) packet.payload[8] << 24) | ((guint32) packet.payload[9] << 16)
                               | ((guint32) packet.payload[10] << 8) | packet.payload[11]
                         : 0;
      CsStream *stream = NULL;
      gint64 index = -1;
      const CsRtpPacket *records;
      guint n;

      /* a flow reused by many calls holds many streams: the one with this SSRC that started
       * last before the frame is the only one that can hold it */
      for (guint i = 0; list != NULL && i < list->len; i++)
        {
          CsStream *candidate = g_ptr_array_index (list, i);
          guint32 first
              = cs_stream_get_ssrc (candidate) == ssrc ? cs_stream_get_first_frame (candidate) : 0;

          if (first != 0 && first <= number
              && (stream == NULL || first > cs_stream_get_first_frame (stream)))
            stream = candidate;
        }
      if (stream != NULL)
        index = cs_frame_dissector_packet_index (self, stream, number);
      if (index >= 0)
        {
          records = cs_frame_dissector_records (self, stream, &n);
          hints.as = CS_DISSECT_AS_RTP;
          if (cs_stream_get_clock_map (stream)->telephone_event_pt[records[index].payload_type])
            hints.event_pt = records[index].payload_type;
          if (cs_proto_tree_wants_fields (tree))
            {
              const CsRtpSeriesPoint *point;

              cs_frame_dissector_compute_figures (self, stream);
              point = &g_array_index (self->series, CsRtpSeriesPoint, index);
              figures.stream_id = cs_stream_get_id (stream);
              figures.delta_ms = point->delta_ms;
              figures.jitter_ms = point->jitter_ms;
              figures.skew_ms = point->skew_ms;
              figures.lost_before = point->lost_before;
              figures.verdict = cs_verdict_name (self->verdicts[index]);
              hints.rtp = &figures;
            }
          if (records[index].payload_type == cs_frame_dissector_media_pt (self, stream)
              && cs_stream_get_codec_info (stream) != NULL)
            hints.codec = cs_stream_get_codec_info (stream)->encoding;
        }
    }
  cs_dissect_frame (tree, &frame, data, &hints);
  if (hints.reassembled != NULL)
    g_bytes_unref (hints.reassembled);
  return tree;
}

CsProtoTree *
cs_frame_dissector_tree (CsFrameDissector *self, guint32 number)
{
  return cs_frame_dissector_run (self, number, cs_proto_tree_new ());
}

CsProtoTree *
cs_frame_dissector_summary (CsFrameDissector *self, guint32 number)
{
  return cs_frame_dissector_run (self, number, cs_proto_tree_new_summary ());
}
