/* cs-findings-detect.c — signalling findings per call, and the whole-capture pass */
#include "cs-findings-detect.h"

#include "cs-findings-private.h"
#include "cs-parallel.h"
#include "cs-sdp.h"

void
cs_finding_thresholds_init (CsFindingThresholds *t)
{
  t->slow_pdd_ms = 5000;
  t->high_jitter_ms = 30;
  t->delta_spike_ms = 150;
  t->short_call_s = 2;
  t->late_media_ms = 2000;
  t->rtp_after_bye_ms = 1000;
  t->one_way_min_packets = 5;
  t->ptime_tolerance = 0.3;
  t->max_frames = 64;
}

void
cs_findings_add (GPtrArray *out, CsFindingKind kind, CsSeverity severity, guint call, guint stream,
                 GArray *frames, const char *format, ...)
{
  va_list args;
  g_autofree char *text = NULL;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  if (frames != NULL)
    g_array_sort (frames, cs_frames_compare);
  g_ptr_array_add (out, cs_finding_new (kind, severity, call, stream, frames, text));
}

int
cs_frames_compare (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

GArray *
cs_frames_new (guint32 first, guint32 second)
{
  GArray *frames = g_array_new (FALSE, FALSE, sizeof (guint32));

  if (first != 0)
    g_array_append_val (frames, first);
  if (second != 0 && second != first)
    g_array_append_val (frames, second);
  return frames;
}

/* Frames of the messages matching a predicate, at most max. */
static GArray *
cs_call_frames_where (CsCall *call, gboolean (*match) (CsCall *, guint, gpointer), gpointer data,
                      guint max)
{
  GArray *frames = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint i = 0; i < cs_call_get_n_messages (call) && frames->len < max; i++)
    if (match (call, i, data))
      g_array_append_val (frames, cs_call_get_message (call, i)->frame);
  return frames;
}

static gboolean
cs_is_request (CsCall *call, guint i, gpointer method)
{
  CsSipMessage *msg = cs_call_get_message (call, i);

  return msg->is_request && msg->method == (CsSipMethod) GPOINTER_TO_INT (method);
}

static gboolean
cs_is_final_invite_response (CsCall *call, guint i, gpointer code)
{
  CsSipMessage *msg = cs_call_get_message (call, i);

  return !msg->is_request && msg->cseq_method == CS_SIP_METHOD_INVITE
         && msg->status_code == GPOINTER_TO_UINT (code);
}

static gboolean
cs_is_retransmission (CsCall *call, guint i, gpointer unused)
{
  return cs_call_message_is_retransmission (call, i);
}

static gboolean
cs_is_first_provisional (CsCall *call, guint i, gpointer unused)
{
  CsSipMessage *msg = cs_call_get_message (call, i);

  return !msg->is_request && (msg->status_code == 180 || msg->status_code == 183);
}

static void
cs_findings_call_outcome (CsCall *call, const CsFindingThresholds *t, GPtrArray *out)
{
  guint number = cs_call_get_number (call);
  guint code = cs_call_get_final_status (call);
  const char *reason = cs_call_get_final_reason (call);
  const char *what = cs_call_get_method_name (call);

  if (cs_call_get_state (call) == CS_CALL_STATE_REJECTED)
    {
      GArray *frames = cs_call_frames_where (call, cs_is_final_invite_response,
                                             GUINT_TO_POINTER (code), t->max_frames);
      CsSeverity severity = code >= 500 && code != 603 ? CS_SEVERITY_ERROR : CS_SEVERITY_WARNING;

      if (cs_call_get_method (call) != CS_SIP_METHOD_INVITE)
        {
          /* Out-of-dialog answers are listed, but a 401 challenge alone is routine. */
          g_array_unref (frames);
          frames = cs_frames_new (cs_call_get_last_frame (call), 0);
          severity = CS_SEVERITY_INFO;
        }
      cs_findings_add (out, CS_FINDING_FAILED_CALL, severity, number, 0, frames,
                       "%s from %s to %s was rejected: %u %s", what, cs_call_get_from (call),
                       cs_call_get_to (call), code, reason != NULL ? reason : "");
      g_array_unref (frames);
    }
  else if (cs_call_get_state (call) == CS_CALL_STATE_FAILED)
    {
      GArray *frames = cs_call_frames_where (
          call, cs_is_request, GINT_TO_POINTER (cs_call_get_method (call)), t->max_frames);

      cs_findings_add (out, CS_FINDING_UNANSWERED, CS_SEVERITY_ERROR, number, 0, frames,
                       "%s from %s to %s got no final response (sent %u times)", what,
                       cs_call_get_from (call), cs_call_get_to (call), frames->len);
      g_array_unref (frames);
    }
}

static void
cs_findings_call_timing (CsCall *call, const CsFindingThresholds *t, GPtrArray *out)
{
  guint number = cs_call_get_number (call);
  double pdd = cs_call_get_pdd_ms (call);
  double setup = cs_call_get_setup_ms (call);
  double duration = cs_call_get_duration_s (call);
  double wait = pdd >= 0 ? pdd : setup;

  if (wait > t->slow_pdd_ms)
    {
      GArray *provisional = cs_call_frames_where (call, cs_is_first_provisional, NULL, 1);
      GArray *frames
          = cs_frames_new (cs_call_get_first_frame (call),
                           provisional->len > 0 ? g_array_index (provisional, guint32, 0) : 0);

      cs_findings_add (out, CS_FINDING_SLOW_PDD, CS_SEVERITY_WARNING, number, 0, frames,
                       "Post-dial delay of %.1f s before the callee %s", wait / 1000,
                       pdd >= 0 ? "rang" : "answered");
      g_array_unref (provisional);
      g_array_unref (frames);
    }
  if (duration >= 0 && duration < t->short_call_s)
    {
      GArray *frames
          = cs_frames_new (cs_call_get_first_frame (call), cs_call_get_last_frame (call));

      cs_findings_add (out, CS_FINDING_SHORT_CALL, CS_SEVERITY_INFO, number, 0, frames,
                       "Call lasted only %.2f s after it was answered", duration);
      g_array_unref (frames);
    }
}

static void
cs_findings_call_transactions (CsCall *call, const CsFindingThresholds *t, GPtrArray *out)
{
  guint number = cs_call_get_number (call);

  if (cs_call_get_retransmissions (call) > 0)
    {
      GArray *frames = cs_call_frames_where (call, cs_is_retransmission, NULL, t->max_frames);

      cs_findings_add (
          out, CS_FINDING_RETRANSMISSIONS,
          cs_call_get_retransmissions (call) >= 3 ? CS_SEVERITY_WARNING : CS_SEVERITY_INFO, number,
          0, frames, "%u SIP message%s retransmitted", cs_call_get_retransmissions (call),
          cs_call_get_retransmissions (call) == 1 ? " was" : "s were");
      g_array_unref (frames);
    }
  if (cs_call_get_method (call) == CS_SIP_METHOD_INVITE && cs_call_get_setup_ms (call) >= 0)
    {
      GArray *acks
          = cs_call_frames_where (call, cs_is_request, GINT_TO_POINTER (CS_SIP_METHOD_ACK), 1);

      if (acks->len == 0)
        {
          GArray *frames = cs_call_frames_where (call, cs_is_final_invite_response,
                                                 GUINT_TO_POINTER (cs_call_get_final_status (call)),
                                                 t->max_frames);

          cs_findings_add (out, CS_FINDING_MISSING_ACK, CS_SEVERITY_WARNING, number, 0, frames,
                           "The %u answer was never acknowledged (no ACK)",
                           cs_call_get_final_status (call));
          g_array_unref (frames);
        }
      g_array_unref (acks);
    }
  for (guint i = 0; i < cs_call_get_n_messages (call); i++)
    {
      CsSipMessage *msg = cs_call_get_message (call, i);

      if (msg->malformed != NULL)
        {
          GArray *frames = cs_frames_new (msg->frame, 0);
          g_autofree char *label = cs_sip_message_dup_label (msg);

          cs_findings_add (out, CS_FINDING_MALFORMED_SIP, CS_SEVERITY_WARNING, number, 0, frames,
                           "Malformed SIP %s: %s", label, msg->malformed);
          g_array_unref (frames);
        }
    }
}

void
cs_findings_detect_call (CsCall *call, GPtrArray *call_streams, const CsFindingThresholds *t,
                         GPtrArray *out)
{
  cs_findings_call_outcome (call, t, out);
  cs_findings_call_timing (call, t, out);
  cs_findings_call_transactions (call, t, out);
  if (cs_call_get_method (call) == CS_SIP_METHOD_INVITE)
    cs_findings_call_media (call, call_streams, t, out);
}

/* A cap (CsLimits) was reached: say what was dropped and how to raise the cap. */
static void
cs_findings_detect_limits (const CsCaptureStats *stats, GPtrArray *out)
{
  const CsLimits *l = &stats->limits;

  if (stats->call_limit_messages > 0)
    cs_findings_add (out, CS_FINDING_DROPPED_STATE, CS_SEVERITY_WARNING, 0, 0, NULL,
                     "Call limit of %u reached: %" G_GUINT64_FORMAT
                     " SIP messages of further calls were not analysed "
                     "(raise it with " CS_LIMITS_ENV "=calls=N)",
                     l->max_calls, stats->call_limit_messages);
  if (stats->call_messages_dropped > 0)
    cs_findings_add (out, CS_FINDING_DROPPED_STATE, CS_SEVERITY_WARNING, 0, 0, NULL,
                     "%" G_GUINT64_FORMAT " SIP messages beyond %u per call were not kept "
                     "(they still updated call states; " CS_LIMITS_ENV "=messages_per_call=N)",
                     stats->call_messages_dropped, l->max_messages_per_call);
  if (stats->rtp_packets_dropped > 0)
    cs_findings_add (out, CS_FINDING_DROPPED_STATE, CS_SEVERITY_WARNING, 0, 0, NULL,
                     "RTP stream limit of %u reached: %" G_GUINT64_FORMAT
                     " packets were not analysed, %" G_GUINT64_FORMAT
                     " single-packet flows evicted (" CS_LIMITS_ENV "=streams=N)",
                     l->max_streams, stats->rtp_packets_dropped, stats->rtp_flows_evicted);
  if (stats->rtcp_packets_dropped > 0)
    cs_findings_add (out, CS_FINDING_DROPPED_STATE, CS_SEVERITY_WARNING, 0, 0, NULL,
                     "%" G_GUINT64_FORMAT " RTCP packets were not attached to their streams "
                     "(over the limit of %u kept)",
                     stats->rtcp_packets_dropped, 1u << 20);
  if (stats->orphan_messages_dropped > 0)
    cs_findings_add (out, CS_FINDING_DROPPED_STATE, CS_SEVERITY_INFO, 0, 0, NULL,
                     "%" G_GUINT64_FORMAT " more SIP messages outside any call were not listed "
                     "(limit %u)",
                     stats->orphan_messages_dropped, l->max_orphan_messages);
}

void
cs_findings_detect_capture (const CsCaptureStats *stats, const GError *damage,
                            GPtrArray *orphan_messages, GPtrArray *out)
{
  if (damage != NULL)
    cs_findings_add (out, CS_FINDING_DAMAGED_CAPTURE, CS_SEVERITY_ERROR, 0, 0, NULL, "%s",
                     damage->message);
  if (stats->ip_fragments_evicted > 0)
    cs_findings_add (out, CS_FINDING_DROPPED_STATE, CS_SEVERITY_WARNING, 0, 0, NULL,
                     "%" G_GUINT64_FORMAT " incomplete IP datagrams were dropped "
                     "(fragment reassembly limit reached)",
                     stats->ip_fragments_evicted);
  if (stats->tcp_streams_evicted > 0)
    cs_findings_add (out, CS_FINDING_DROPPED_STATE, CS_SEVERITY_WARNING, 0, 0, NULL,
                     "%" G_GUINT64_FORMAT " TCP streams were dropped (reassembly limit reached)",
                     stats->tcp_streams_evicted);
  cs_findings_detect_limits (stats, out);
  for (guint i = 0; orphan_messages != NULL && i < orphan_messages->len; i++)
    {
      CsSipMessage *msg = g_ptr_array_index (orphan_messages, i);
      GArray *frames = cs_frames_new (msg->frame, 0);
      g_autofree char *label = cs_sip_message_dup_label (msg);

      cs_findings_add (out, CS_FINDING_MALFORMED_SIP, CS_SEVERITY_WARNING, 0, 0, frames,
                       "Malformed SIP %s: %s", label,
                       msg->malformed != NULL ? msg->malformed : "belongs to no call");
      g_array_unref (frames);
    }
}

static guint32
cs_finding_first_frame (CsFinding *f)
{
  const GArray *frames = cs_finding_get_frames (f);

  return frames->len > 0 ? g_array_index (frames, guint32, 0) : 0;
}

static int
cs_findings_compare (gconstpointer a, gconstpointer b)
{
  CsFinding *x = *(CsFinding *const *) a, *y = *(CsFinding *const *) b;
  guint32 fx = cs_finding_first_frame (x), fy = cs_finding_first_frame (y);

  if (fx != fy)
    return fx < fy ? -1 : 1;
  return (int) cs_finding_get_kind (x) - (int) cs_finding_get_kind (y);
}

typedef struct
{
  GPtrArray *calls;
  GPtrArray *streams;
  GPtrArray *per_call_streams; /* GPtrArray of CsStream* per call */
  GPtrArray **found;           /* one array of findings per stream, then per call */
  const CsFindingThresholds *t;
} CsFindingsJob;

static void
cs_findings_detect_item (guint index, gpointer data)
{
  CsFindingsJob *job = data;
  GPtrArray *out = g_ptr_array_new_with_free_func (g_object_unref);

  if (index < job->streams->len)
    cs_findings_detect_stream (g_ptr_array_index (job->streams, index), job->t, out);
  else
    {
      guint c = index - job->streams->len;

      cs_findings_detect_call (g_ptr_array_index (job->calls, c),
                               g_ptr_array_index (job->per_call_streams, c), job->t, out);
    }
  job->found[index] = out;
}

GPtrArray *
cs_findings_detect_all (GPtrArray *calls, GPtrArray *streams, const CsCaptureStats *stats,
                        const GError *damage, GPtrArray *orphan_messages,
                        const CsFindingThresholds *t, guint n_threads)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_object_unref);
  guint n_items = streams->len + calls->len;
  CsFindingsJob job = { calls, streams, NULL, g_new0 (GPtrArray *, n_items), t };

  job.per_call_streams = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  for (guint i = 0; i < calls->len; i++)
    g_ptr_array_add (job.per_call_streams, g_ptr_array_new ());
  for (guint i = 0; i < streams->len; i++)
    {
      CsStream *stream = g_ptr_array_index (streams, i);
      guint number = cs_stream_get_call_number (stream);

      if (number > 0 && number <= calls->len)
        g_ptr_array_add (g_ptr_array_index (job.per_call_streams, number - 1), stream);
    }
  /* Streams and calls are independent: detect on all cores, then gather in
   * item order so the result does not depend on scheduling. */
  cs_parallel_for (n_items, n_threads, cs_findings_detect_item, &job);
  for (guint i = 0; i < n_items; i++)
    {
      g_ptr_array_extend_and_steal (out, job.found[i]);
    }
  g_free (job.found);
  g_ptr_array_unref (job.per_call_streams);
  cs_findings_detect_capture (stats, damage, orphan_messages, out);
  /* g_ptr_array_sort is stable: equal keys keep item order. */
  g_ptr_array_sort (out, cs_findings_compare);
  return out;
}
