/* cs-findings-media.c — media findings: per stream (loss, jitter, gaps) and per call
 * (one-way audio, missing or late media, SDP mismatches) */
#include "cs-findings-private.h"

#include "sip/cs-sdp.h"

#include <math.h>
#include <string.h>

/* The first max frames of a mark list, as a frame array. */
static GArray *
cs_marked_frames (const guint32 *frames, guint n, guint max)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint32));

  g_array_append_vals (out, frames, MIN (n, max));
  return out;
}

static void
cs_findings_stream_loss (CsStream *stream, const CsRtpMarks *m, const CsFindingThresholds *t,
                         GPtrArray *out)
{
  const CsRtpStats *st = cs_stream_get_stats (stream);
  GArray *frames;
  double pct = st->expected > 0 ? 100.0 * st->lost / st->expected : 0;
  CsSeverity severity = pct >= 5   ? CS_SEVERITY_ERROR
                        : pct >= 1 ? CS_SEVERITY_WARNING
                                   : CS_SEVERITY_INFO;

  if (st->lost <= 0)
    return;
  frames = cs_marked_frames (m->gap_frames, m->n_gap_frames, t->max_frames);
  cs_findings_add (out, CS_FINDING_LOSS_BURST, severity, cs_stream_get_call_number (stream),
                   cs_stream_get_id (stream), frames,
                   "%d of %u packets lost (%.1f%%) in %u gap%s; the largest, %u packet%s, "
                   "ends at frame %u",
                   st->lost, st->expected, pct, m->gaps, m->gaps == 1 ? "" : "s", m->largest_gap,
                   m->largest_gap == 1 ? "" : "s", m->largest_gap_frame);
  g_array_unref (frames);
}

static void
cs_findings_stream_timing (CsStream *stream, const CsRtpMarks *m, const CsFindingThresholds *t,
                           GPtrArray *out)
{
  const CsRtpStats *st = cs_stream_get_stats (stream);
  guint call = cs_stream_get_call_number (stream);
  guint id = cs_stream_get_id (stream);

  if (st->max_jitter_ms > t->high_jitter_ms)
    {
      GArray *frames = cs_frames_new (m->max_jitter_frame, 0);

      cs_findings_add (out, CS_FINDING_HIGH_JITTER,
                       st->max_jitter_ms > 2 * t->high_jitter_ms ? CS_SEVERITY_ERROR
                                                                 : CS_SEVERITY_WARNING,
                       call, id, frames, "Jitter reaches %.1f ms (mean %.1f ms)", st->max_jitter_ms,
                       st->mean_jitter_ms);
      g_array_unref (frames);
    }
  if (st->max_delta_ms > t->delta_spike_ms)
    {
      GArray *frames = cs_frames_new (st->max_delta_frame, 0);

      cs_findings_add (out, CS_FINDING_DELTA_SPIKE, CS_SEVERITY_WARNING, call, id, frames,
                       "No packet for %.0f ms before frame %u (mean spacing %.1f ms)",
                       st->max_delta_ms, st->max_delta_frame, st->mean_delta_ms);
      g_array_unref (frames);
    }
  /* Packets that came twice or late: a jump forward is loss, which the loss finding
   * reports once (Wireshark's "wrong sequence" count has both). */
  if (st->duplicates + st->out_of_order > 0)
    {
      GArray *frames = cs_marked_frames (m->order_frames, m->n_order_frames, t->max_frames);
      guint n = st->duplicates + st->out_of_order;

      cs_findings_add (out, CS_FINDING_SEQUENCE_ERRORS, CS_SEVERITY_WARNING, call, id, frames,
                       "%u sequence error%s: %u duplicate%s, %u out of order", n, n == 1 ? "" : "s",
                       st->duplicates, st->duplicates == 1 ? "" : "s", st->out_of_order);
      g_array_unref (frames);
    }
}

void
cs_findings_detect_stream (CsStream *stream, const CsFindingThresholds *t, GPtrArray *out)
{
  guint n_packets = cs_stream_get_n_packets (stream);
  CsRtpMarks kept, more;
  const CsRtpMarks *m = &kept;
  g_autofree guint32 *gap_frames = NULL, *order_frames = NULL;

  cs_findings_stream_srtp (stream, t, out);
  if (n_packets < 2)
    return;
  cs_stream_get_marks (stream, &kept);
  /* The stream kept the first CS_STREAM_MARK_FRAMES of each list; more are asked for. */
  if (t->max_frames > m->max_frames
      && (m->n_gap_frames == m->max_frames || m->n_order_frames == m->max_frames))
    {
      CsRtpStats stats;
      guint n;
      g_autofree CsRtpPacket *packets = cs_stream_dup_packet_records (stream, &n);

      more.max_frames = MIN (t->max_frames, n); /* no list is longer */
      more.steps = NULL;
      more.gap_frames = gap_frames = g_new (guint32, more.max_frames);
      more.order_frames = order_frames = g_new (guint32, more.max_frames);
      cs_rtp_stats_compute_marks (packets, n, cs_stream_get_clock_map (stream), &stats, &more);
      m = &more;
    }
  cs_findings_stream_loss (stream, m, t, out);
  cs_findings_stream_timing (stream, m, t, out);
}

/* ---- per call ---- */

typedef struct
{
  GArray *endpoints; /* CsEndpoint announced by any SDP of the call */
  guint8 payload_types[128];
  guint ptime;
} CsCallSdp;

static void
cs_call_sdp_collect (CsCall *call, CsCallSdp *sdp)
{
  memset (sdp, 0, sizeof *sdp);
  sdp->endpoints = g_array_new (FALSE, FALSE, sizeof (CsEndpoint));
  for (guint i = 0; i < cs_call_get_n_messages (call); i++)
    {
      CsSipMessage *msg = cs_call_get_message (call, i);

      for (guint m = 0;
           cs_sip_message_get_sdp (msg) != NULL && m < cs_sip_message_get_sdp (msg)->media->len;
           m++)
        {
          const CsSdpMedia *media = g_ptr_array_index (cs_sip_message_get_sdp (msg)->media, m);
          CsEndpoint ep;

          memset (&ep, 0, sizeof ep);
          ep.addr = media->connection;
          ep.port = media->port;
          g_array_append_val (sdp->endpoints, ep);
          for (guint f = 0; media->formats != NULL && f < media->formats->len; f++)
            sdp->payload_types[g_array_index (media->formats, CsSdpFormat, f).payload_type & 0x7f]
                = 1;
          if (media->ptime > 0 && sdp->ptime == 0)
            sdp->ptime = media->ptime;
        }
    }
}

static gboolean
cs_call_sdp_announced (const CsCallSdp *sdp, const CsEndpoint *ep)
{
  for (guint i = 0; i < sdp->endpoints->len; i++)
    if (cs_endpoint_equal (&g_array_index (sdp->endpoints, CsEndpoint, i), ep))
      return TRUE;
  return FALSE;
}

/* Packets flowing in the opposite direction of stream s */
static guint
cs_reverse_packets (GPtrArray *streams, CsStream *s)
{
  guint n = 0;

  for (guint i = 0; i < streams->len; i++)
    {
      CsStream *o = g_ptr_array_index (streams, i);

      if (cs_addr_equal (&cs_stream_get_src (o)->addr, &cs_stream_get_dst (s)->addr)
          && cs_addr_equal (&cs_stream_get_dst (o)->addr, &cs_stream_get_src (s)->addr))
        n += cs_stream_get_stats (o)->packets;
    }
  return n;
}

static void
cs_findings_call_directions (CsCall *call, GPtrArray *streams, const CsFindingThresholds *t,
                             GPtrArray *out)
{
  guint number = cs_call_get_number (call);

  if (streams->len == 0)
    {
      /* no frame list to allocate: signalling-only captures have this for every call */
      if (cs_call_get_answer_ns (call) >= 0)
        cs_findings_add_two (out, CS_FINDING_NO_MEDIA, CS_SEVERITY_ERROR, number, 0,
                             cs_call_get_first_frame (call), 0,
                             "Answered call without any RTP: no audio in either direction");
      return;
    }
  for (guint i = 0; i < streams->len; i++)
    {
      CsStream *s = g_ptr_array_index (streams, i);
      const CsRtpStats *st = cs_stream_get_stats (s);
      char src[CS_ENDPOINT_STRLEN], dst[CS_ENDPOINT_STRLEN];

      if (st->packets < t->one_way_min_packets || cs_call_get_answer_ns (call) < 0)
        continue;
      if (cs_reverse_packets (streams, s) < t->one_way_min_packets)
        {
          GArray *frames = cs_frames_new (st->first_frame, st->last_frame);

          cs_findings_add (out, CS_FINDING_ONE_WAY_AUDIO, CS_SEVERITY_ERROR, number,
                           cs_stream_get_id (s), frames,
                           "One-way audio: %u packets from %s to %s, none back", st->packets,
                           cs_endpoint_to_string (cs_stream_get_src (s), src),
                           cs_endpoint_to_string (cs_stream_get_dst (s), dst));
          g_array_unref (frames);
        }
    }
}

static void
cs_findings_call_media_timing (CsCall *call, GPtrArray *streams, const CsFindingThresholds *t,
                               GPtrArray *out)
{
  guint number = cs_call_get_number (call);
  gint64 first_media = G_MAXINT64;
  guint32 first_media_frame = 0;

  for (guint i = 0; i < streams->len; i++)
    {
      CsStream *s = g_ptr_array_index (streams, i);
      const CsRtpStats *st = cs_stream_get_stats (s);

      if (st->first_ns < first_media)
        {
          first_media = st->first_ns;
          first_media_frame = st->first_frame;
        }
      if (cs_call_get_bye_ns (call) >= 0
          && st->last_ns - cs_call_get_bye_ns (call) > t->rtp_after_bye_ms * 1e6)
        {
          GArray *frames = cs_frames_new (st->last_frame, 0);

          cs_findings_add (out, CS_FINDING_RTP_AFTER_BYE, CS_SEVERITY_INFO, number,
                           cs_stream_get_id (s), frames, "RTP continued %.1f s after the BYE",
                           (st->last_ns - cs_call_get_bye_ns (call)) / 1e9);
          g_array_unref (frames);
        }
    }
  if (cs_call_get_answer_ns (call) >= 0 && first_media != G_MAXINT64
      && first_media - cs_call_get_answer_ns (call) > t->late_media_ms * 1e6)
    {
      GArray *frames = cs_frames_new (first_media_frame, 0);

      cs_findings_add (out, CS_FINDING_LATE_MEDIA, CS_SEVERITY_WARNING, number, 0, frames,
                       "First RTP arrived %.1f s after the call was answered",
                       (first_media - cs_call_get_answer_ns (call)) / 1e9);
      g_array_unref (frames);
    }
}

static void
cs_findings_call_sdp (CsCall *call, GPtrArray *streams, const CsFindingThresholds *t,
                      GPtrArray *out)
{
  guint number = cs_call_get_number (call);
  CsCallSdp sdp;

  if (streams->len == 0)
    return; /* every check below is per stream */
  cs_call_sdp_collect (call, &sdp);
  for (guint i = 0; i < streams->len; i++)
    {
      CsStream *s = g_ptr_array_index (streams, i);
      const CsRtpStats *st = cs_stream_get_stats (s);
      guint n_packets = cs_stream_get_n_packets (s);
      guint id = cs_stream_get_id (s);
      char src[CS_ENDPOINT_STRLEN];

      if (!sdp.payload_types[st->payload_type & 0x7f])
        {
          GArray *frames = cs_frames_new (st->first_frame, 0);
          cs_findings_add (out, CS_FINDING_CODEC_MISMATCH, CS_SEVERITY_WARNING, number, id, frames,
                           "RTP payload type %u (%s) was not offered in the SDP", st->payload_type,
                           cs_stream_get_codec (s));
          g_array_unref (frames);
        }
      if (!cs_call_sdp_announced (&sdp, cs_stream_get_src (s)))
        {
          GArray *frames = cs_frames_new (st->first_frame, 0);
          cs_findings_add (out, CS_FINDING_NAT_MISMATCH, CS_SEVERITY_INFO, number, id, frames,
                           "RTP comes from %s, which no SDP of this call announced "
                           "(NAT or a media relay)",
                           cs_endpoint_to_string (cs_stream_get_src (s), src));
          g_array_unref (frames);
        }
      if (sdp.ptime > 0 && st->clock_rate > 0 && n_packets > 2)
        {
          double measured = cs_stream_get_packetisation_ms (s);
          if (measured > 0 && fabs (measured - sdp.ptime) > t->ptime_tolerance * sdp.ptime)
            {
              GArray *frames = cs_frames_new (st->first_frame, 0);
              cs_findings_add (out, CS_FINDING_PTIME_MISMATCH, CS_SEVERITY_INFO, number, id, frames,
                               "Packets carry %.0f ms of audio but the SDP asked for %u ms",
                               measured, sdp.ptime);
              g_array_unref (frames);
            }
        }
    }
  /* Same flow, new SSRC: the sender restarted its stream mid-call. */
  for (guint i = 0; i < streams->len; i++)
    for (guint j = 0; j < streams->len; j++)
      {
        CsStream *a = g_ptr_array_index (streams, i), *b = g_ptr_array_index (streams, j);
        const CsRtpStats *sa = cs_stream_get_stats (a), *sb = cs_stream_get_stats (b);

        if (i == j || !cs_endpoint_equal (cs_stream_get_src (a), cs_stream_get_src (b))
            || !cs_endpoint_equal (cs_stream_get_dst (a), cs_stream_get_dst (b))
            || sa->first_frame >= sb->first_frame)
          continue;
        GArray *frames = cs_frames_new (sa->last_frame, sb->first_frame);
        cs_findings_add (out, CS_FINDING_SSRC_CHANGE, CS_SEVERITY_INFO, number,
                         cs_stream_get_id (b), frames, "SSRC changed from 0x%08X to 0x%08X",
                         cs_stream_get_ssrc (a), cs_stream_get_ssrc (b));
        g_array_unref (frames);
      }
  g_array_unref (sdp.endpoints);
}

void
cs_findings_call_media (CsCall *call, GPtrArray *call_streams, const CsFindingThresholds *t,
                        GPtrArray *out)
{
  cs_findings_call_directions (call, call_streams, t, out);
  cs_findings_call_media_timing (call, call_streams, t, out);
  cs_findings_call_sdp (call, call_streams, t, out);
}
