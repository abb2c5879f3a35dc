/* cs-stream.c — one RTP stream and its metrics */
#include "cs-stream-private.h"

#include "cs-rtp-pack.h"
#include "cs-stream-rtcp.h"

#include <string.h>

struct _CsStream
{
  GObject parent_instance;
  guint id;
  CsEndpoint src, dst;
  guint32 ssrc;
  guint call_number;
  const char *codec; /* static or interned: not one copy per stream */
  const CsCodecInfo *codec_info;
  CsRtpClockMap *clocks;             /* atomic rc box shared with the call's other streams */
  const char *const *encoding_by_pt; /* until measured: the call's rtpmap names */
  CsRtpStats stats;
  CsRtpMarks *marks; /* one block with its frame lists; NULL without gaps nor order problems */
  guint32 max_jitter_frame;
  double packetisation_ms;
  CsMos mos;
  /* The records packed (cs-rtp-pack.h, ~5 bytes each instead of 24), unpacked for a
   * measurement and dropped again; readers that want them all as an array get one made on
   * first request and kept (published with a compare-and-exchange). */
  guint8 *packed;
  guint32 n_packets;
  GArray *unpacked;
  CsStreamRtcp *rtcp; /* NULL when no RTCP reported on the stream */
};

G_DEFINE_FINAL_TYPE (CsStream, cs_stream, G_TYPE_OBJECT)

static void
cs_stream_finalize (GObject *object)
{
  CsStream *self = CS_STREAM (object);

  g_free (self->marks);
  g_free (self->packed);
  if (self->unpacked != NULL)
    g_array_unref (self->unpacked);
  g_atomic_rc_box_release (self->clocks);
  g_clear_pointer (&self->rtcp, cs_stream_rtcp_free);
  G_OBJECT_CLASS (cs_stream_parent_class)->finalize (object);
}

static void
cs_stream_class_init (CsStreamClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cs_stream_finalize;
}

static void
cs_stream_init (CsStream *self)
{
  self->mos.mos = -1;
  self->mos.r = -1;
}

CsStream *
cs_stream_new_sharing_clocks (guint id, const CsEndpoint *src, const CsEndpoint *dst, guint32 ssrc,
                              guint call_number, guint8 *packed, guint32 n_packets,
                              CsRtpClockMap *shared_clocks, const char *const *encoding_by_pt)
{
  CsStream *self = g_object_new (CS_TYPE_STREAM, NULL);

  self->id = id;
  self->src = *src;
  self->dst = *dst;
  self->ssrc = ssrc;
  self->call_number = call_number;
  self->packed = packed;
  self->n_packets = n_packets;
  self->clocks = g_atomic_rc_box_acquire (shared_clocks);
  self->encoding_by_pt = encoding_by_pt;
  return self;
}

CsStream *
cs_stream_new (guint id, const CsEndpoint *src, const CsEndpoint *dst, guint32 ssrc,
               guint call_number, GArray *packets, const CsRtpClockMap *clocks,
               const char *const *encoding_by_pt)
{
  CsRtpClockMap *own = g_atomic_rc_box_new (CsRtpClockMap);
  CsRtpPack pack = { 0 };
  CsStream *self;

  cs_rtp_pack_append (&pack, (const CsRtpPacket *) packets->data, packets->len);
  cs_rtp_pack_trim (&pack);
  g_array_unref (packets);
  *own = *clocks;
  self = cs_stream_new_sharing_clocks (id, src, dst, ssrc, call_number, pack.data, pack.n_packets,
                                       own, encoding_by_pt);
  g_atomic_rc_box_release (own);
  return self;
}

/* The marks of a stream with gaps or order problems, in one block with their frame lists
 * (most streams have neither and keep nothing). */
static CsRtpMarks *
marks_keep (const CsRtpMarks *marks)
{
  gsize frames = marks->n_gap_frames + marks->n_order_frames;
  CsRtpMarks *kept;

  if (frames == 0)
    return NULL;
  kept = g_malloc (sizeof *kept + frames * sizeof (guint32));
  *kept = *marks;
  kept->gap_frames = (guint32 *) (kept + 1);
  kept->order_frames = kept->gap_frames + marks->n_gap_frames;
  kept->steps = NULL;
  memcpy (kept->gap_frames, marks->gap_frames, marks->n_gap_frames * sizeof (guint32));
  memcpy (kept->order_frames, marks->order_frames, marks->n_order_frames * sizeof (guint32));
  return kept;
}

/* cs_mos_packetisation_ms, from the steps the stats pass counted when it can. */
static double
stream_packetisation_ms (const CsRtpPacket *packets, guint n, const CsRtpStepTable *steps,
                         guint clock_rate)
{
  double ms;

  if (cs_mos_packetisation_from_steps (steps, clock_rate, &ms))
    return ms;
  return cs_mos_packetisation_ms (packets, n, clock_rate);
}

void
cs_stream_measure (CsStream *self)
{
  guint n = self->n_packets;
  /* unpacked for this pass only: all streams' records at 24 bytes would be most of a load */
  g_autofree CsRtpPacket *packets = cs_rtp_pack_unpack_new (self->packed, n);
  const char *encoding;
  guint32 gap_frames[CS_STREAM_MARK_FRAMES], order_frames[CS_STREAM_MARK_FRAMES];
  CsRtpStepTable steps;
  CsRtpMarks marks = { CS_STREAM_MARK_FRAMES, gap_frames, order_frames };

  marks.steps = &steps;
  cs_rtp_stats_compute_marks (packets, n, self->clocks, &self->stats, &marks);
  g_free (self->marks);
  self->marks = marks_keep (&marks);
  self->max_jitter_frame = marks.max_jitter_frame;
  encoding
      = self->encoding_by_pt != NULL ? self->encoding_by_pt[self->stats.payload_type & 0x7f] : NULL;
  self->encoding_by_pt = NULL;
  if (encoding != NULL)
    self->codec_info = cs_codec_lookup_encoding (encoding, self->stats.clock_rate);
  if (self->codec_info == NULL)
    self->codec_info = cs_codec_lookup_static (self->stats.payload_type);
  if (self->codec_info != NULL)
    self->codec = self->codec_info->name;
  else if (encoding != NULL)
    self->codec = g_intern_string (encoding);
  else
    {
      char name[16];

      g_snprintf (name, sizeof name, "PT %u", self->stats.payload_type);
      self->codec = g_intern_string (name); /* at most 256 of them */
    }
  if (self->codec_info != NULL && self->codec_info->is_audio)
    {
      /* One payload type throughout (the usual case): it is the most frequent one. */
      guint8 media_pt = !marks.mixed_payload_types && n > 0
                            ? packets[0].payload_type & 0x7f
                            : cs_jitter_buffer_media_payload_type (packets, n);
      guint clock_rate = cs_mos_clock_rate (self->clocks, self->codec_info, media_pt);

      cs_mos_for_stream_at (packets, n, media_pt, clock_rate,
                            stream_packetisation_ms (packets, n, &steps, clock_rate),
                            self->codec_info, NULL, &self->mos);
    }
  self->packetisation_ms = stream_packetisation_ms (packets, n, &steps, self->stats.clock_rate);
}

void
cs_stream_set_id (CsStream *self, guint id)
{
  self->id = id;
}

guint
cs_stream_get_id (CsStream *self)
{
  return self->id;
}

const CsEndpoint *
cs_stream_get_src (CsStream *self)
{
  return &self->src;
}

const CsEndpoint *
cs_stream_get_dst (CsStream *self)
{
  return &self->dst;
}

guint32
cs_stream_get_ssrc (CsStream *self)
{
  return self->ssrc;
}

guint
cs_stream_get_call_number (CsStream *self)
{
  return self->call_number;
}

gboolean
cs_stream_is_associated (CsStream *self)
{
  return self->call_number != 0;
}

const char *
cs_stream_get_codec (CsStream *self)
{
  return self->codec;
}

const CsCodecInfo *
cs_stream_get_codec_info (CsStream *self)
{
  return self->codec_info;
}

const CsRtpStats *
cs_stream_get_stats (CsStream *self)
{
  return &self->stats;
}

void
cs_stream_get_marks (CsStream *self, CsRtpMarks *out)
{
  if (self->marks != NULL)
    *out = *self->marks;
  else
    {
      memset (out, 0, sizeof *out);
      out->max_frames = CS_STREAM_MARK_FRAMES;
      out->max_jitter_frame = self->max_jitter_frame;
    }
}

double
cs_stream_get_packetisation_ms (CsStream *self)
{
  return self->packetisation_ms;
}

const CsMos *
cs_stream_get_mos (CsStream *self)
{
  return &self->mos;
}

const CsRtpClockMap *
cs_stream_get_clock_map (CsStream *self)
{
  return self->clocks;
}

const GArray *
cs_stream_get_packets (CsStream *self)
{
  GArray *unpacked = g_atomic_pointer_get (&self->unpacked);

  if (unpacked != NULL)
    return unpacked;
  unpacked = g_array_sized_new (FALSE, FALSE, sizeof (CsRtpPacket), self->n_packets);
  g_array_set_size (unpacked, self->n_packets);
  cs_rtp_pack_unpack (self->packed, self->n_packets, (CsRtpPacket *) unpacked->data);
  if (!g_atomic_pointer_compare_and_exchange (&self->unpacked, NULL, unpacked))
    {
      g_array_unref (unpacked); /* another thread published its copy first */
      unpacked = g_atomic_pointer_get (&self->unpacked);
    }
  return unpacked;
}

const CsRtpPacket *
cs_stream_get_packet_records (CsStream *self, guint *n_packets)
{
  const GArray *packets = cs_stream_get_packets (self);

  *n_packets = packets->len;
  return (const CsRtpPacket *) packets->data;
}

guint
cs_stream_get_n_packets (CsStream *self)
{
  return self->n_packets;
}

CsRtpPacket *
cs_stream_dup_packet_records (CsStream *self, guint *n_packets)
{
  *n_packets = self->n_packets;
  return cs_rtp_pack_unpack_new (self->packed, self->n_packets);
}

const CsStreamRtcp *
cs_stream_get_rtcp (CsStream *self)
{
  return self->rtcp;
}

void
cs_stream_set_rtcp (CsStream *self, CsStreamRtcp *rtcp)
{
  g_clear_pointer (&self->rtcp, cs_stream_rtcp_free);
  self->rtcp = rtcp;
}
