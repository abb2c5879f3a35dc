/* cs-report-json.c — the JSON report: field names are a contract scripts rely on */
#include "cs-report-json.h"

#include <stdlib.h>

#include "cs-call-dtmf.h"
#include "cs-finding.h"
#include "cs-stream-rtcp.h"
#include "cs-stream.h"
#include "cs-time-format.h"

static int
cs_compare_strings (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

static int
cs_compare_uints (gconstpointer a, gconstpointer b)
{
  guint x = GPOINTER_TO_UINT (*(gconstpointer const *) a);
  guint y = GPOINTER_TO_UINT (*(gconstpointer const *) b);

  return x < y ? -1 : x > y;
}

static void
cs_report_json_time (CsJsonWriter *w, const char *key, gint64 ts_ns, gboolean valid)
{
  g_autofree char *text = valid ? cs_time_format_iso (ts_ns) : NULL;

  cs_json_key (w, key);
  cs_json_string (w, text);
}

/* GLib 2.74 has no g_hash_table_get_keys_as_ptr_array. */
static GPtrArray *
cs_hash_table_keys (GHashTable *table)
{
  GPtrArray *keys = g_ptr_array_sized_new (g_hash_table_size (table));
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);
  return keys;
}

static void
cs_report_json_counts (CsJsonWriter *w, const CsCaptureStats *stats)
{
  g_autoptr (GPtrArray) methods = cs_hash_table_keys (stats->sip_methods);
  g_autoptr (GPtrArray) statuses = cs_hash_table_keys (stats->sip_statuses);

  g_ptr_array_sort (methods, cs_compare_strings);
  g_ptr_array_sort (statuses, cs_compare_uints);
  cs_json_key (w, "sip_methods");
  cs_json_begin_object (w);
  for (guint i = 0; i < methods->len; i++)
    {
      const char *name = g_ptr_array_index (methods, i);

      cs_json_key (w, name);
      cs_json_uint (w, GPOINTER_TO_UINT (g_hash_table_lookup (stats->sip_methods, name)));
    }
  cs_json_end_object (w);
  cs_json_key (w, "sip_statuses");
  cs_json_begin_object (w);
  for (guint i = 0; i < statuses->len; i++)
    {
      gpointer code = g_ptr_array_index (statuses, i);
      char key[16];

      g_snprintf (key, sizeof key, "%u", GPOINTER_TO_UINT (code));
      cs_json_key (w, key);
      cs_json_uint (w, GPOINTER_TO_UINT (g_hash_table_lookup (stats->sip_statuses, code)));
    }
  cs_json_end_object (w);
}

void
cs_report_json_capture (CsJsonWriter *w, CsAnalysis *analysis)
{
  const CsCaptureStats *stats = cs_analysis_get_stats (analysis);
  CsCaptureSet *set = cs_analysis_get_capture_set (analysis);
  const GError *damage = cs_analysis_get_damage (analysis);

  cs_json_key (w, "capture");
  cs_json_begin_object (w);
  cs_json_key (w, "files");
  cs_json_begin_array (w);
  for (guint i = 0; i < cs_capture_set_get_n_files (set); i++)
    cs_json_string (w, cs_capture_get_path (cs_capture_set_get_file (set, i)));
  cs_json_end_array (w);
  cs_json_key (w, "packets");
  cs_json_uint (w, stats->packets);
  cs_json_key (w, "bytes");
  cs_json_uint (w, stats->bytes);
  cs_json_key (w, "sip_messages");
  cs_json_uint (w, stats->sip_messages);
  cs_report_json_counts (w, stats);
  cs_json_key (w, "malformed_sip");
  cs_json_uint (w, stats->malformed_sip);
  cs_json_key (w, "rtp_packets");
  cs_json_uint (w, stats->rtp_packets);
  cs_report_json_time (w, "first_time", stats->first_ns, stats->packets > 0);
  cs_report_json_time (w, "last_time", stats->last_ns, stats->packets > 0);
  cs_json_key (w, "damage");
  cs_json_string (w, damage != NULL ? damage->message : NULL);
  cs_json_end_object (w);
}

static void
cs_report_json_optional_ms (CsJsonWriter *w, const char *key, double value, int decimals)
{
  cs_json_key (w, key);
  if (value < 0)
    cs_json_null (w);
  else
    cs_json_double (w, value, decimals);
}

static void
cs_report_json_frames (CsJsonWriter *w, const GArray *frames)
{
  cs_json_key (w, "frames");
  cs_json_begin_array (w);
  for (guint i = 0; frames != NULL && i < frames->len; i++)
    cs_json_uint (w, g_array_index (frames, guint32, i));
  cs_json_end_array (w);
}

static void
cs_report_json_dtmf (CsJsonWriter *w, CsCall *call)
{
  const GArray *digits = cs_call_get_dtmf (call);

  cs_json_key (w, "dtmf");
  cs_json_begin_array (w);
  for (guint i = 0; digits != NULL && i < digits->len; i++)
    {
      const CsCallDtmf *d = &g_array_index (digits, CsCallDtmf, i);
      char digit[2] = { d->digit, '\0' };

      cs_json_begin_object (w);
      cs_json_key (w, "digit");
      cs_json_string (w, digit);
      cs_report_json_time (w, "start", d->start_ns, TRUE);
      cs_json_key (w, "duration_ms");
      cs_json_double (w, d->duration_ms, 1);
      cs_json_key (w, "source");
      cs_json_string (w, d->source);
      cs_json_key (w, "stream");
      if (d->stream_id != 0)
        cs_json_uint (w, d->stream_id);
      else
        cs_json_null (w);
      cs_report_json_frames (w, d->frames);
      cs_json_end_object (w);
    }
  cs_json_end_array (w);
}

static void
cs_report_json_call (CsJsonWriter *w, CsCall *call)
{
  const GArray *streams = cs_call_get_stream_ids (call);

  cs_json_begin_object (w);
  cs_json_key (w, "id");
  cs_json_uint (w, cs_call_get_number (call));
  cs_json_key (w, "call_id");
  cs_json_string (w, cs_call_get_call_id (call));
  cs_json_key (w, "method");
  cs_json_string (w, cs_call_get_method_name (call));
  cs_json_key (w, "from");
  cs_json_string (w, cs_call_get_from (call));
  cs_json_key (w, "to");
  cs_json_string (w, cs_call_get_to (call));
  cs_json_key (w, "state");
  cs_json_string (w, cs_call_state_to_string (cs_call_get_state (call)));
  cs_json_key (w, "final_status");
  if (cs_call_get_final_status (call) == 0)
    cs_json_null (w);
  else
    cs_json_uint (w, cs_call_get_final_status (call));
  cs_json_key (w, "final_reason");
  cs_json_string (w, cs_call_get_final_reason (call));
  cs_report_json_time (w, "start", cs_call_get_start_ns (call), TRUE);
  cs_report_json_optional_ms (w, "pdd_ms", cs_call_get_pdd_ms (call), 3);
  cs_report_json_optional_ms (w, "setup_ms", cs_call_get_setup_ms (call), 3);
  cs_report_json_optional_ms (w, "ring_ms", cs_call_get_ring_ms (call), 3);
  cs_report_json_optional_ms (w, "duration_s", cs_call_get_duration_s (call), 3);
  cs_json_key (w, "messages");
  cs_json_uint (w, cs_call_get_n_messages (call));
  cs_json_key (w, "retransmissions");
  cs_json_uint (w, cs_call_get_retransmissions (call));
  cs_json_key (w, "first_frame");
  cs_json_uint (w, cs_call_get_first_frame (call));
  cs_json_key (w, "user_agent");
  cs_json_string (w, cs_call_get_user_agent (call));
  cs_json_key (w, "streams");
  cs_json_begin_array (w);
  for (guint i = 0; i < streams->len; i++)
    cs_json_uint (w, g_array_index (streams, guint, i));
  cs_json_end_array (w);
  cs_report_json_optional_ms (w, "mos", cs_call_get_mos (call), 2);
  cs_json_key (w, "findings");
  cs_json_uint (w, cs_call_get_n_findings (call));
  cs_json_key (w, "transactions");
  cs_json_begin_array (w);
  for (guint i = 0; i < cs_call_get_n_transactions (call); i++)
    {
      const CsTransaction *t = cs_call_get_transaction (call, i);

      cs_json_begin_object (w);
      cs_json_key (w, "method");
      cs_json_string (w, t->method_name);
      cs_json_key (w, "cseq");
      cs_json_uint (w, t->cseq);
      cs_json_key (w, "request_frame");
      cs_json_uint (w, t->request_frame);
      cs_json_key (w, "transmissions");
      cs_json_uint (w, t->transmissions);
      cs_json_key (w, "final_status");
      if (t->final_status == 0)
        cs_json_null (w);
      else
        cs_json_uint (w, t->final_status);
      cs_report_json_optional_ms (w, "first_response_ms", cs_transaction_first_response_ms (t), 3);
      cs_report_json_optional_ms (w, "final_response_ms", cs_transaction_final_response_ms (t), 3);
      cs_json_end_object (w);
    }
  cs_json_end_array (w);
  cs_report_json_dtmf (w, call);
  cs_json_end_object (w);
}

void
cs_report_json_calls (CsJsonWriter *w, CsAnalysis *analysis)
{
  GListModel *calls = cs_analysis_get_calls (analysis);
  guint n = g_list_model_get_n_items (calls);

  cs_json_key (w, "calls");
  cs_json_begin_array (w);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (CsCall) call = g_list_model_get_item (calls, i);
      cs_report_json_call (w, call);
    }
  cs_json_end_array (w);
}

static void
cs_report_json_endpoint (CsJsonWriter *w, const char *key, const CsEndpoint *ep)
{
  char buf[CS_ENDPOINT_STRLEN];

  cs_json_key (w, key);
  cs_json_string (w, cs_endpoint_to_string (ep, buf));
}

static void
cs_report_json_rtcp (CsJsonWriter *w, const CsStreamRtcp *r)
{
  cs_json_key (w, "rtcp");
  if (r == NULL)
    {
      cs_json_null (w);
      return;
    }
  cs_json_begin_object (w);
  cs_json_key (w, "sender_reports");
  cs_json_uint (w, r->n_sr);
  cs_json_key (w, "receiver_reports");
  cs_json_uint (w, r->n_rr);
  cs_json_key (w, "cname");
  cs_json_string (w, r->cname);
  cs_json_key (w, "fraction_lost_last");
  cs_json_double (w, r->last_fraction_lost / 256.0, 4);
  cs_json_key (w, "fraction_lost_max");
  cs_json_double (w, r->max_fraction_lost / 256.0, 4);
  cs_json_key (w, "cumulative_lost");
  cs_json_int (w, r->last_cumulative_lost);
  cs_report_json_optional_ms (w, "jitter_ms_last", r->last_jitter_ms, 3);
  cs_report_json_optional_ms (w, "jitter_ms_max", r->max_jitter_ms, 3);
  cs_json_key (w, "rtt_samples");
  cs_json_uint (w, r->n_rtt);
  cs_report_json_optional_ms (w, "rtt_ms_min", r->min_rtt_ms, 3);
  cs_report_json_optional_ms (w, "rtt_ms_mean", r->mean_rtt_ms, 3);
  cs_report_json_optional_ms (w, "rtt_ms_max", r->max_rtt_ms, 3);
  cs_json_key (w, "bye");
  cs_json_bool (w, r->bye_seen);
  cs_json_key (w, "xr_voip");
  if (!r->has_xr_voip)
    cs_json_null (w);
  else
    {
      cs_json_begin_object (w);
      cs_report_json_optional_ms (w, "mos_lq", r->xr_mos_lq, 1);
      cs_report_json_optional_ms (w, "mos_cq", r->xr_mos_cq, 1);
      cs_report_json_optional_ms (w, "r_factor", r->xr_r_factor, 0);
      cs_json_key (w, "loss_rate");
      cs_json_double (w, r->xr_loss_rate, 4);
      cs_json_key (w, "discard_rate");
      cs_json_double (w, r->xr_discard_rate, 4);
      cs_json_key (w, "burst_density");
      cs_json_double (w, r->xr_burst_density, 4);
      cs_json_key (w, "gap_density");
      cs_json_double (w, r->xr_gap_density, 4);
      cs_json_key (w, "burst_duration_ms");
      cs_json_uint (w, r->xr_burst_duration_ms);
      cs_json_key (w, "gap_duration_ms");
      cs_json_uint (w, r->xr_gap_duration_ms);
      cs_json_end_object (w);
    }
  cs_report_json_frames (w, r->frames);
  cs_json_end_object (w);
}

static void
cs_report_json_stream (CsJsonWriter *w, CsStream *stream)
{
  const CsRtpStats *st = cs_stream_get_stats (stream);
  const CsMos *mos = cs_stream_get_mos (stream);
  char ssrc[16];

  g_snprintf (ssrc, sizeof ssrc, "0x%08X", cs_stream_get_ssrc (stream));
  cs_json_begin_object (w);
  cs_json_key (w, "id");
  cs_json_uint (w, cs_stream_get_id (stream));
  cs_json_key (w, "call");
  if (cs_stream_is_associated (stream))
    cs_json_uint (w, cs_stream_get_call_number (stream));
  else
    cs_json_null (w);
  cs_json_key (w, "ssrc");
  cs_json_string (w, ssrc);
  cs_report_json_endpoint (w, "src", cs_stream_get_src (stream));
  cs_report_json_endpoint (w, "dst", cs_stream_get_dst (stream));
  cs_json_key (w, "payload_type");
  cs_json_uint (w, st->payload_type);
  cs_json_key (w, "codec");
  cs_json_string (w, cs_stream_get_codec (stream));
  cs_json_key (w, "clock_rate");
  cs_json_uint (w, st->clock_rate);
  cs_json_key (w, "associated");
  cs_json_bool (w, cs_stream_is_associated (stream));
  cs_json_key (w, "packets");
  cs_json_uint (w, st->packets);
  cs_json_key (w, "expected");
  cs_json_uint (w, st->expected);
  cs_json_key (w, "lost");
  cs_json_int (w, st->lost);
  cs_json_key (w, "duplicates");
  cs_json_uint (w, st->duplicates);
  cs_json_key (w, "out_of_order");
  cs_json_uint (w, st->out_of_order);
  cs_json_key (w, "sequence_errors");
  cs_json_uint (w, st->sequence_errors);
  cs_json_key (w, "min_delta_ms");
  cs_json_double (w, st->min_delta_ms, 3);
  cs_json_key (w, "mean_delta_ms");
  cs_json_double (w, st->mean_delta_ms, 3);
  cs_json_key (w, "max_delta_ms");
  cs_json_double (w, st->max_delta_ms, 3);
  cs_json_key (w, "max_delta_frame");
  cs_json_uint (w, st->max_delta_frame);
  cs_json_key (w, "min_jitter_ms");
  cs_json_double (w, st->min_jitter_ms, 3);
  cs_json_key (w, "mean_jitter_ms");
  cs_json_double (w, st->mean_jitter_ms, 3);
  cs_json_key (w, "max_jitter_ms");
  cs_json_double (w, st->max_jitter_ms, 3);
  cs_json_key (w, "max_skew_ms");
  cs_json_double (w, st->max_skew_ms, 3);
  cs_json_key (w, "mean_bitrate_kbps");
  cs_json_double (w, st->mean_bitrate_kbps, 3);
  cs_report_json_optional_ms (w, "r_factor", mos->r, 2);
  cs_report_json_optional_ms (w, "mos", mos->mos, 2);
  cs_json_key (w, "first_frame");
  cs_json_uint (w, st->first_frame);
  cs_json_key (w, "last_frame");
  cs_json_uint (w, st->last_frame);
  cs_report_json_time (w, "start", st->first_ns, TRUE);
  cs_report_json_time (w, "end", st->last_ns, TRUE);
  cs_report_json_rtcp (w, cs_stream_get_rtcp (stream));
  cs_json_end_object (w);
}

void
cs_report_json_streams (CsJsonWriter *w, CsAnalysis *analysis)
{
  GListModel *streams = cs_analysis_get_streams (analysis);
  guint n = g_list_model_get_n_items (streams);

  cs_json_key (w, "streams");
  cs_json_begin_array (w);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (CsStream) stream = g_list_model_get_item (streams, i);
      cs_report_json_stream (w, stream);
    }
  cs_json_end_array (w);
}

static void
cs_report_json_finding (CsJsonWriter *w, CsFinding *finding)
{
  const GArray *frames = cs_finding_get_frames (finding);

  cs_json_begin_object (w);
  cs_json_key (w, "kind");
  cs_json_string (w, cs_finding_kind_to_string (cs_finding_get_kind (finding)));
  cs_json_key (w, "severity");
  cs_json_string (w, cs_severity_to_string (cs_finding_get_severity (finding)));
  cs_json_key (w, "call");
  if (cs_finding_get_call_number (finding) == 0)
    cs_json_null (w);
  else
    cs_json_uint (w, cs_finding_get_call_number (finding));
  cs_json_key (w, "stream");
  if (cs_finding_get_stream_id (finding) == 0)
    cs_json_null (w);
  else
    cs_json_uint (w, cs_finding_get_stream_id (finding));
  cs_json_key (w, "frames");
  cs_json_begin_array (w);
  for (guint i = 0; i < frames->len; i++)
    cs_json_uint (w, g_array_index (frames, guint32, i));
  cs_json_end_array (w);
  cs_json_key (w, "text");
  cs_json_string (w, cs_finding_get_text (finding));
  cs_json_end_object (w);
}

void
cs_report_json_findings (CsJsonWriter *w, CsAnalysis *analysis)
{
  GListModel *findings = cs_analysis_get_findings (analysis);
  guint n = g_list_model_get_n_items (findings);

  cs_json_key (w, "findings");
  cs_json_begin_array (w);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (CsFinding) finding = g_list_model_get_item (findings, i);
      cs_report_json_finding (w, finding);
    }
  cs_json_end_array (w);
}
