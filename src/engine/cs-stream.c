/* cs-stream.c — one RTP stream and its metrics */
#include "cs-stream-private.h"

#include "cs-stream-rtcp.h"

struct _CsStream
{
  GObject parent_instance;
  guint id;
  CsEndpoint src, dst;
  guint32 ssrc;
  guint call_number;
  char *codec;
  const CsCodecInfo *codec_info;
  CsRtpClockMap clocks;
  const char *const *encoding_by_pt; /* until measured: the call's rtpmap names */
  CsRtpStats stats;
  CsMos mos;
  GArray *packets;
  CsStreamRtcp *rtcp; /* NULL when no RTCP reported on the stream */
};

G_DEFINE_FINAL_TYPE (CsStream, cs_stream, G_TYPE_OBJECT)

static void
cs_stream_finalize (GObject *object)
{
  CsStream *self = CS_STREAM (object);

  g_free (self->codec);
  g_array_unref (self->packets);
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
cs_stream_new (guint id, const CsEndpoint *src, const CsEndpoint *dst, guint32 ssrc,
               guint call_number, GArray *packets, const CsRtpClockMap *clocks,
               const char *const *encoding_by_pt)
{
  CsStream *self = g_object_new (CS_TYPE_STREAM, NULL);

  self->id = id;
  self->src = *src;
  self->dst = *dst;
  self->ssrc = ssrc;
  self->call_number = call_number;
  self->packets = packets;
  self->clocks = *clocks;
  self->encoding_by_pt = encoding_by_pt;
  return self;
}

void
cs_stream_measure (CsStream *self)
{
  const CsRtpPacket *packets = (const CsRtpPacket *) self->packets->data;
  guint n = self->packets->len;
  const char *encoding;

  cs_rtp_stats_compute (packets, n, &self->clocks, &self->stats);
  encoding
      = self->encoding_by_pt != NULL ? self->encoding_by_pt[self->stats.payload_type & 0x7f] : NULL;
  self->encoding_by_pt = NULL;
  if (encoding != NULL)
    self->codec_info = cs_codec_lookup_encoding (encoding, self->stats.clock_rate);
  if (self->codec_info == NULL)
    self->codec_info = cs_codec_lookup_static (self->stats.payload_type);
  if (self->codec_info != NULL)
    self->codec = g_strdup (self->codec_info->name);
  else if (encoding != NULL)
    self->codec = g_strdup (encoding);
  else
    self->codec = g_strdup_printf ("PT %u", self->stats.payload_type);
  if (self->codec_info != NULL && self->codec_info->is_audio)
    cs_mos_for_stream (packets, n, &self->clocks, self->codec_info, NULL, &self->mos);
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

const CsMos *
cs_stream_get_mos (CsStream *self)
{
  return &self->mos;
}

const CsRtpClockMap *
cs_stream_get_clock_map (CsStream *self)
{
  return &self->clocks;
}

const GArray *
cs_stream_get_packets (CsStream *self)
{
  return self->packets;
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
