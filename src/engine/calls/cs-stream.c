/* cs-stream.c — one RTP stream and its metrics */
#include "cs-stream-private.h"

#include "rtp/cs-rtp-pack.h"
#include "cs-stream-rtcp.h"

#include <string.h>

/* 40 000 of these on a busy capture: the fields are ordered without holes, and pointers
 * whose lifetimes do not overlap share a slot (400 bytes, ten to a GSlice slab). */
struct _CsStream
{
  GObject parent_instance;
  guint id;
  guint32 ssrc;
  guint call_number;
  guint32 max_jitter_frame;
  guint32 n_packets;
  guint flags; /* CS_STREAM_* */
  CsEndpoint src, dst;
  union
  {
    const CsCodecInfo *info; /* without CS_STREAM_CODEC_IS_NAME */
    const char *name;        /* with it: static or interned, not one copy per stream */
  } codec;
  CsRtpClockMap *clocks; /* atomic rc box shared with the call's other streams */
  union
  {
    const char *const *encoding_by_pt; /* until measured: the call's rtpmap names */
    CsRtpMarks *marks; /* once measured: one block with its frame lists; NULL without gaps
                          nor order problems */
  } call_or_marks;
  /* The records packed (cs-rtp-pack.h, a few bytes each instead of 24), unpacked for a
   * measurement and dropped again; readers that want them all as an array get one made on
   * first request and kept as the object's data (cs_stream_unpacked_quark). */
  guint8 *packed;
  CsStreamRtcp *rtcp; /* NULL when no RTCP reported on the stream */
  double packetisation_ms;
  CsRtpStats stats;
  CsMos mos;
};

#define CS_STREAM_MEASURED (1u << 0)
#define CS_STREAM_CODEC_IS_NAME (1u << 1)

G_STATIC_ASSERT (sizeof (struct _CsStream) <= 400 || sizeof (gpointer) != 8);

G_DEFINE_QUARK (cs - stream - unpacked, cs_stream_unpacked)

G_DEFINE_FINAL_TYPE (CsStream, cs_stream, G_TYPE_OBJECT)

static void
cs_stream_finalize (GObject *object)
{
  CsStream *self = CS_STREAM (object);

  if (self->flags & CS_STREAM_MEASURED)
    g_free (self->call_or_marks.marks);
  g_free (self->packed);
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
  self->call_or_marks.encoding_by_pt = encoding_by_pt;
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

/* The records as an array, for the rare measurements the stats pass cannot answer: unpacked
 * on first request, for the measurement only (all streams' records at 24 bytes would be most of
 * a load). */
typedef struct
{
  const guint8 *packed;
  guint n;
  CsRtpPacket *unpacked;
} CsStreamRecords;

static const CsRtpPacket *
records_get (CsStreamRecords *r)
{
  if (r->unpacked == NULL)
    r->unpacked = cs_rtp_pack_unpack_new (r->packed, r->n);
  return r->unpacked;
}

/* cs_mos_packetisation_ms, from the steps the stats pass counted when it can. */
static double
stream_packetisation_ms (CsStreamRecords *records, const CsRtpStepTable *steps, guint clock_rate)
{
  double ms;

  if (cs_mos_packetisation_from_steps (steps, clock_rate, &ms))
    return ms;
  return cs_mos_packetisation_ms (records_get (records), records->n, clock_rate);
}

/* The payload type of the first record (0 without records). */
static guint8
first_payload_type (const guint8 *packed, guint n)
{
  CsRtpPackReader reader;

  if (n == 0)
    return 0;
  cs_rtp_pack_reader_init (&reader, packed);
  return cs_rtp_pack_reader_next (&reader)->payload_type;
}

void
cs_stream_measure (CsStream *self)
{
  guint n = self->n_packets;
  CsStreamRecords records = { self->packed, n, NULL };
  const char *const *encoding_by_pt;
  const char *encoding;
  const CsCodecInfo *info;
  guint32 gap_frames[CS_STREAM_MARK_FRAMES], order_frames[CS_STREAM_MARK_FRAMES];
  CsRtpStepTable steps;
  CsRtpMarks marks = { CS_STREAM_MARK_FRAMES, gap_frames, order_frames };
  /* MOS judges the most frequent payload type, the first one unless the types mix: the jitter
   * buffer is fed in the stats pass for that one (and run again in the rare other case) */
  guint8 first_pt = first_payload_type (self->packed, n) & 0x7f;
  guint first_clock = self->clocks->clock_rate_by_pt[first_pt];
  CsJitterBufferConfig jb_config;
  CsJitterBuffer jb;

  cs_jitter_buffer_config_init_default (&jb_config);
  if (first_clock != 0)
    cs_jitter_buffer_init (&jb, first_pt, first_clock, &jb_config);
  marks.steps = &steps;
  cs_rtp_stats_compute_packed (self->packed, n, self->clocks, &self->stats, &marks,
                               first_clock != 0 ? &jb : NULL);
  /* the call's encodings are read before their slot takes the marks */
  encoding_by_pt = (self->flags & CS_STREAM_MEASURED) ? NULL : self->call_or_marks.encoding_by_pt;
  if (self->flags & CS_STREAM_MEASURED)
    g_free (self->call_or_marks.marks);
  self->call_or_marks.marks = marks_keep (&marks);
  self->flags |= CS_STREAM_MEASURED;
  self->max_jitter_frame = marks.max_jitter_frame;
  encoding = encoding_by_pt != NULL ? encoding_by_pt[self->stats.payload_type & 0x7f] : NULL;
  info = cs_stream_get_codec_info (self);
  if (encoding != NULL)
    info = cs_codec_lookup_encoding (encoding, self->stats.clock_rate);
  if (info == NULL)
    info = cs_codec_lookup_static (self->stats.payload_type);
  self->flags &= ~CS_STREAM_CODEC_IS_NAME;
  self->codec.info = info;
  if (info == NULL)
    {
      char name[16];

      if (encoding == NULL)
        g_snprintf (name, sizeof name, "PT %u", self->stats.payload_type);
      /* at most 256 "PT" names */
      self->codec.name = g_intern_string (encoding != NULL ? encoding : name);
      self->flags |= CS_STREAM_CODEC_IS_NAME;
    }
  if (info != NULL && info->is_audio)
    {
      /* One payload type throughout (the usual case): it is the most frequent one. */
      guint8 media_pt = !marks.mixed_payload_types && n > 0
                            ? first_pt
                            : cs_jitter_buffer_media_payload_type (records_get (&records), n);
      guint clock_rate = cs_mos_clock_rate (self->clocks, info, media_pt);
      double packetisation_ms = stream_packetisation_ms (&records, &steps, clock_rate);

      if (first_clock != 0 && media_pt == first_pt && clock_rate == first_clock)
        {
          CsJitterBufferResult result;

          cs_jitter_buffer_finish (&jb, &result);
          cs_mos_for_buffer_result (&result, packetisation_ms, info, &jb_config, &self->mos);
        }
      else
        cs_mos_for_stream_at (records_get (&records), n, media_pt, clock_rate, packetisation_ms,
                              info, &jb_config, &self->mos);
    }
  if (first_clock != 0)
    cs_jitter_buffer_clear (&jb);
  self->packetisation_ms = stream_packetisation_ms (&records, &steps, self->stats.clock_rate);
  g_free (records.unpacked);
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
  if (self->flags & CS_STREAM_CODEC_IS_NAME)
    return self->codec.name;
  return self->codec.info != NULL ? self->codec.info->name : NULL;
}

const CsCodecInfo *
cs_stream_get_codec_info (CsStream *self)
{
  return (self->flags & CS_STREAM_CODEC_IS_NAME) ? NULL : self->codec.info;
}

const CsRtpStats *
cs_stream_get_stats (CsStream *self)
{
  return &self->stats;
}

void
cs_stream_get_marks (CsStream *self, CsRtpMarks *out)
{
  const CsRtpMarks *marks = (self->flags & CS_STREAM_MEASURED) ? self->call_or_marks.marks : NULL;

  if (marks != NULL)
    *out = *marks;
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
  GQuark quark = cs_stream_unpacked_quark ();
  GArray *unpacked = g_object_get_qdata (G_OBJECT (self), quark);

  if (unpacked != NULL)
    return unpacked;
  unpacked = g_array_sized_new (FALSE, FALSE, sizeof (CsRtpPacket), self->n_packets);
  g_array_set_size (unpacked, self->n_packets);
  cs_rtp_pack_unpack (self->packed, self->n_packets, (CsRtpPacket *) unpacked->data);
  if (!g_object_replace_qdata (G_OBJECT (self), quark, NULL, unpacked,
                               (GDestroyNotify) g_array_unref, NULL))
    {
      g_array_unref (unpacked); /* another thread published its copy first */
      unpacked = g_object_get_qdata (G_OBJECT (self), quark);
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

guint32
cs_stream_get_first_frame (CsStream *self)
{
  CsRtpPacket first;

  if (self->n_packets == 0 || self->packed == NULL)
    return 0;
  cs_rtp_pack_unpack (self->packed, 1, &first);
  return first.frame;
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

CsStream *
cs_streams_lookup (GListModel *streams, guint id)
{
  guint n = streams != NULL ? g_list_model_get_n_items (streams) : 0;

  if (id >= 1 && id <= n)
    {
      g_autoptr (CsStream) stream = g_list_model_get_item (streams, id - 1);

      if (cs_stream_get_id (stream) == id)
        return stream; /* the list keeps it */
    }
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (CsStream) stream = g_list_model_get_item (streams, i);

      if (cs_stream_get_id (stream) == id)
        return stream;
    }
  return NULL;
}
