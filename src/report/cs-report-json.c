/* cs-report-json.c — the JSON report: field names are a contract scripts rely on */
#include "cs-report-json.h"

#include <stdlib.h>

#include "cs-call-dtmf.h"
#include "cs-call-list.h"
#include "cs-finding.h"
#include "cs-fixed-format.h"
#include "cs-json-parallel.h"
#include "cs-object-list.h"
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

/* After the key: the time as text (no allocation), or null. */
static void
cs_report_json_time (CsJsonWriter *w, gint64 ts_ns, gboolean valid)
{
  char text[CS_TIME_ISO_BUF_SIZE];

  if (!valid)
    {
      cs_json_null (w);
      return;
    }
  cs_time_format_iso_into (ts_ns, text);
  cs_json_string (w, text);
}

/* A list model's items in an array, so that two threads can read them (a GListStore's
 * lookups move its cursor): the analysis' own lists lend theirs, others are copied. */
static GPtrArray *
cs_report_json_model_items (GListModel *model)
{
  guint n;
  GPtrArray *items;

  if (CS_IS_CALL_LIST (model))
    return g_ptr_array_ref (cs_call_list_peek_calls (CS_CALL_LIST (model)));
  if (CS_IS_OBJECT_LIST (model))
    return g_ptr_array_ref (cs_object_list_peek_items (CS_OBJECT_LIST (model)));
  n = g_list_model_get_n_items (model);
  items = g_ptr_array_new_full (n, g_object_unref);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, g_list_model_get_item (model, i));
  return items;
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
  CS_JSON_KEY (w, "sip_methods");
  cs_json_begin_object (w);
  for (guint i = 0; i < methods->len; i++)
    {
      const char *name = g_ptr_array_index (methods, i);

      cs_json_key (w, name);
      cs_json_uint (w, GPOINTER_TO_UINT (g_hash_table_lookup (stats->sip_methods, name)));
    }
  cs_json_end_object (w);
  CS_JSON_KEY (w, "sip_statuses");
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

  CS_JSON_KEY (w, "capture");
  cs_json_begin_object (w);
  CS_JSON_KEY (w, "files");
  cs_json_begin_array (w);
  for (guint i = 0; i < cs_capture_set_get_n_files (set); i++)
    cs_json_string (w, cs_capture_get_path (cs_capture_set_get_file (set, i)));
  cs_json_end_array (w);
  CS_JSON_KEY (w, "packets");
  cs_json_uint (w, stats->packets);
  CS_JSON_KEY (w, "bytes");
  cs_json_uint (w, stats->bytes);
  CS_JSON_KEY (w, "sip_messages");
  cs_json_uint (w, stats->sip_messages);
  cs_report_json_counts (w, stats);
  CS_JSON_KEY (w, "malformed_sip");
  cs_json_uint (w, stats->malformed_sip);
  CS_JSON_KEY (w, "rtp_packets");
  cs_json_uint (w, stats->rtp_packets);
  CS_JSON_KEY (w, "first_time");
  cs_report_json_time (w, stats->first_ns, stats->packets > 0);
  CS_JSON_KEY (w, "last_time");
  cs_report_json_time (w, stats->last_ns, stats->packets > 0);
  CS_JSON_KEY (w, "damage");
  cs_json_string (w, damage != NULL ? damage->message : NULL);
  cs_json_end_object (w);
}

/* After the key: the value, or null when it is negative (not measured). */
static void
cs_report_json_optional_ms (CsJsonWriter *w, double value, int decimals)
{
  if (value < 0)
    cs_json_null (w);
  else
    cs_json_double (w, value, decimals);
}

static void
cs_report_json_frames (CsJsonWriter *w, const GArray *frames)
{
  CS_JSON_KEY (w, "frames");
  cs_json_begin_array (w);
  for (guint i = 0; frames != NULL && i < frames->len; i++)
    cs_json_uint (w, g_array_index (frames, guint32, i));
  cs_json_end_array (w);
}

static void
cs_report_json_dtmf (CsJsonWriter *w, CsCall *call)
{
  const GArray *digits = cs_call_get_dtmf (call);

  CS_JSON_KEY (w, "dtmf");
  cs_json_begin_array (w);
  for (guint i = 0; digits != NULL && i < digits->len; i++)
    {
      const CsCallDtmf *d = &g_array_index (digits, CsCallDtmf, i);
      char digit[2] = { d->digit, '\0' };

      cs_json_begin_object (w);
      CS_JSON_KEY (w, "digit");
      cs_json_string (w, digit);
      CS_JSON_KEY (w, "start");
      cs_report_json_time (w, d->start_ns, TRUE);
      CS_JSON_KEY (w, "duration_ms");
      cs_json_double (w, d->duration_ms, 1);
      CS_JSON_KEY (w, "source");
      cs_json_string (w, d->source);
      CS_JSON_KEY (w, "stream");
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
  CS_JSON_KEY (w, "id");
  cs_json_uint (w, cs_call_get_number (call));
  CS_JSON_KEY (w, "call_id");
  cs_json_string (w, cs_call_get_call_id (call));
  CS_JSON_KEY (w, "method");
  cs_json_string (w, cs_call_get_method_name (call));
  CS_JSON_KEY (w, "from");
  cs_json_string (w, cs_call_get_from (call));
  CS_JSON_KEY (w, "to");
  cs_json_string (w, cs_call_get_to (call));
  CS_JSON_KEY (w, "state");
  cs_json_string (w, cs_call_state_to_string (cs_call_get_state (call)));
  CS_JSON_KEY (w, "final_status");
  if (cs_call_get_final_status (call) == 0)
    cs_json_null (w);
  else
    cs_json_uint (w, cs_call_get_final_status (call));
  CS_JSON_KEY (w, "final_reason");
  cs_json_string (w, cs_call_get_final_reason (call));
  CS_JSON_KEY (w, "start");
  cs_report_json_time (w, cs_call_get_start_ns (call), TRUE);
  CS_JSON_KEY (w, "pdd_ms");
  cs_report_json_optional_ms (w, cs_call_get_pdd_ms (call), 3);
  CS_JSON_KEY (w, "setup_ms");
  cs_report_json_optional_ms (w, cs_call_get_setup_ms (call), 3);
  CS_JSON_KEY (w, "ring_ms");
  cs_report_json_optional_ms (w, cs_call_get_ring_ms (call), 3);
  CS_JSON_KEY (w, "duration_s");
  cs_report_json_optional_ms (w, cs_call_get_duration_s (call), 3);
  CS_JSON_KEY (w, "messages");
  cs_json_uint (w, cs_call_get_n_messages (call));
  CS_JSON_KEY (w, "retransmissions");
  cs_json_uint (w, cs_call_get_retransmissions (call));
  CS_JSON_KEY (w, "first_frame");
  cs_json_uint (w, cs_call_get_first_frame (call));
  CS_JSON_KEY (w, "user_agent");
  cs_json_string (w, cs_call_get_user_agent (call));
  CS_JSON_KEY (w, "streams");
  cs_json_begin_array (w);
  for (guint i = 0; i < streams->len; i++)
    cs_json_uint (w, g_array_index (streams, guint, i));
  cs_json_end_array (w);
  CS_JSON_KEY (w, "mos");
  cs_report_json_optional_ms (w, cs_call_get_mos (call), 2);
  CS_JSON_KEY (w, "findings");
  cs_json_uint (w, cs_call_get_n_findings (call));
  CS_JSON_KEY (w, "transactions");
  cs_json_begin_array (w);
  for (guint i = 0; i < cs_call_get_n_transactions (call); i++)
    {
      const CsTransaction *t = cs_call_get_transaction (call, i);

      cs_json_begin_object (w);
      CS_JSON_KEY (w, "method");
      cs_json_string (w, t->method_name);
      CS_JSON_KEY (w, "cseq");
      cs_json_uint (w, t->cseq);
      CS_JSON_KEY (w, "request_frame");
      cs_json_uint (w, t->request_frame);
      CS_JSON_KEY (w, "transmissions");
      cs_json_uint (w, t->transmissions);
      CS_JSON_KEY (w, "final_status");
      if (t->final_status == 0)
        cs_json_null (w);
      else
        cs_json_uint (w, t->final_status);
      CS_JSON_KEY (w, "first_response_ms");
      cs_report_json_optional_ms (w, cs_transaction_first_response_ms (t), 3);
      CS_JSON_KEY (w, "final_response_ms");
      cs_report_json_optional_ms (w, cs_transaction_final_response_ms (t), 3);
      cs_json_end_object (w);
    }
  cs_json_end_array (w);
  cs_report_json_dtmf (w, call);
  cs_json_end_object (w);
}

static void
cs_report_json_call_item (CsJsonWriter *w, gpointer call)
{
  cs_report_json_call (w, call);
}

void
cs_report_json_calls (CsJsonWriter *w, CsAnalysis *analysis)
{
  g_autoptr (GPtrArray) calls = cs_report_json_model_items (cs_analysis_get_calls (analysis));

  CS_JSON_KEY (w, "calls");
  cs_json_begin_array (w);
  cs_json_write_items (w, calls, cs_report_json_call_item);
  cs_json_end_array (w);
}

/* IPv4 "a.b.c.d:port" as inet_ntop and "%u" write it, without their cost (two
 * per stream); IPv6 and unset addresses through cs_endpoint_to_string. */
static void
cs_report_json_endpoint (CsJsonWriter *w, const CsEndpoint *ep)
{
  char buf[CS_ENDPOINT_STRLEN];
  char *end = buf + sizeof buf - 1;
  char *p = end;

  if (ep->addr.family != 4)
    {
      cs_json_string (w, cs_endpoint_to_string (ep, buf));
      return;
    }
  *end = '\0';
  p = cs_decimal_digits_before (p, ep->port, 1);
  *--p = ':';
  for (int i = 3; i >= 0; i--)
    {
      p = cs_decimal_digits_before (p, ep->addr.bytes[i], 1);
      if (i > 0)
        *--p = '.';
    }
  cs_json_string (w, p);
}

static void
cs_report_json_rtcp (CsJsonWriter *w, const CsStreamRtcp *r)
{
  CS_JSON_KEY (w, "rtcp");
  if (r == NULL)
    {
      cs_json_null (w);
      return;
    }
  cs_json_begin_object (w);
  CS_JSON_KEY (w, "sender_reports");
  cs_json_uint (w, r->n_sr);
  CS_JSON_KEY (w, "receiver_reports");
  cs_json_uint (w, r->n_rr);
  CS_JSON_KEY (w, "cname");
  cs_json_string (w, r->cname);
  CS_JSON_KEY (w, "fraction_lost_last");
  cs_json_double (w, r->last_fraction_lost / 256.0, 4);
  CS_JSON_KEY (w, "fraction_lost_max");
  cs_json_double (w, r->max_fraction_lost / 256.0, 4);
  CS_JSON_KEY (w, "cumulative_lost");
  cs_json_int (w, r->last_cumulative_lost);
  CS_JSON_KEY (w, "jitter_ms_last");
  cs_report_json_optional_ms (w, r->last_jitter_ms, 3);
  CS_JSON_KEY (w, "jitter_ms_max");
  cs_report_json_optional_ms (w, r->max_jitter_ms, 3);
  CS_JSON_KEY (w, "rtt_samples");
  cs_json_uint (w, r->n_rtt);
  CS_JSON_KEY (w, "rtt_ms_min");
  cs_report_json_optional_ms (w, r->min_rtt_ms, 3);
  CS_JSON_KEY (w, "rtt_ms_mean");
  cs_report_json_optional_ms (w, r->mean_rtt_ms, 3);
  CS_JSON_KEY (w, "rtt_ms_max");
  cs_report_json_optional_ms (w, r->max_rtt_ms, 3);
  CS_JSON_KEY (w, "bye");
  cs_json_bool (w, r->bye_seen);
  CS_JSON_KEY (w, "xr_voip");
  if (!r->has_xr_voip)
    cs_json_null (w);
  else
    {
      cs_json_begin_object (w);
      CS_JSON_KEY (w, "mos_lq");
      cs_report_json_optional_ms (w, r->xr_mos_lq, 1);
      CS_JSON_KEY (w, "mos_cq");
      cs_report_json_optional_ms (w, r->xr_mos_cq, 1);
      CS_JSON_KEY (w, "r_factor");
      cs_report_json_optional_ms (w, r->xr_r_factor, 0);
      CS_JSON_KEY (w, "loss_rate");
      cs_json_double (w, r->xr_loss_rate, 4);
      CS_JSON_KEY (w, "discard_rate");
      cs_json_double (w, r->xr_discard_rate, 4);
      CS_JSON_KEY (w, "burst_density");
      cs_json_double (w, r->xr_burst_density, 4);
      CS_JSON_KEY (w, "gap_density");
      cs_json_double (w, r->xr_gap_density, 4);
      CS_JSON_KEY (w, "burst_duration_ms");
      cs_json_uint (w, r->xr_burst_duration_ms);
      CS_JSON_KEY (w, "gap_duration_ms");
      cs_json_uint (w, r->xr_gap_duration_ms);
      cs_json_end_object (w);
    }
  cs_report_json_frames (w, r->frames);
  cs_json_end_object (w);
}

/* "0x%08X" without printf: one per stream. */
static void
cs_report_json_hex32 (char out[11], guint32 value)
{
  static const char digits[] = "0123456789ABCDEF";

  out[0] = '0';
  out[1] = 'x';
  for (int i = 0; i < 8; i++)
    out[2 + i] = digits[(value >> (28 - 4 * i)) & 0xf];
  out[10] = '\0';
}

static void
cs_report_json_stream (CsJsonWriter *w, CsStream *stream)
{
  const CsRtpStats *st = cs_stream_get_stats (stream);
  const CsMos *mos = cs_stream_get_mos (stream);
  char ssrc[16];

  cs_report_json_hex32 (ssrc, cs_stream_get_ssrc (stream));
  cs_json_begin_object (w);
  CS_JSON_KEY (w, "id");
  cs_json_uint (w, cs_stream_get_id (stream));
  CS_JSON_KEY (w, "call");
  if (cs_stream_is_associated (stream))
    cs_json_uint (w, cs_stream_get_call_number (stream));
  else
    cs_json_null (w);
  CS_JSON_KEY (w, "ssrc");
  cs_json_string (w, ssrc);
  CS_JSON_KEY (w, "src");
  cs_report_json_endpoint (w, cs_stream_get_src (stream));
  CS_JSON_KEY (w, "dst");
  cs_report_json_endpoint (w, cs_stream_get_dst (stream));
  CS_JSON_KEY (w, "payload_type");
  cs_json_uint (w, st->payload_type);
  CS_JSON_KEY (w, "codec");
  cs_json_string (w, cs_stream_get_codec (stream));
  CS_JSON_KEY (w, "clock_rate");
  cs_json_uint (w, st->clock_rate);
  CS_JSON_KEY (w, "associated");
  cs_json_bool (w, cs_stream_is_associated (stream));
  CS_JSON_KEY (w, "packets");
  cs_json_uint (w, st->packets);
  CS_JSON_KEY (w, "expected");
  cs_json_uint (w, st->expected);
  CS_JSON_KEY (w, "lost");
  cs_json_int (w, st->lost);
  CS_JSON_KEY (w, "duplicates");
  cs_json_uint (w, st->duplicates);
  CS_JSON_KEY (w, "out_of_order");
  cs_json_uint (w, st->out_of_order);
  CS_JSON_KEY (w, "sequence_errors");
  cs_json_uint (w, st->sequence_errors);
  CS_JSON_KEY (w, "min_delta_ms");
  cs_json_double (w, st->min_delta_ms, 3);
  CS_JSON_KEY (w, "mean_delta_ms");
  cs_json_double (w, st->mean_delta_ms, 3);
  CS_JSON_KEY (w, "max_delta_ms");
  cs_json_double (w, st->max_delta_ms, 3);
  CS_JSON_KEY (w, "max_delta_frame");
  cs_json_uint (w, st->max_delta_frame);
  CS_JSON_KEY (w, "min_jitter_ms");
  cs_json_double (w, st->min_jitter_ms, 3);
  CS_JSON_KEY (w, "mean_jitter_ms");
  cs_json_double (w, st->mean_jitter_ms, 3);
  CS_JSON_KEY (w, "max_jitter_ms");
  cs_json_double (w, st->max_jitter_ms, 3);
  CS_JSON_KEY (w, "max_skew_ms");
  cs_json_double (w, st->max_skew_ms, 3);
  CS_JSON_KEY (w, "mean_bitrate_kbps");
  cs_json_double (w, st->mean_bitrate_kbps, 3);
  CS_JSON_KEY (w, "r_factor");
  cs_report_json_optional_ms (w, mos->r, 2);
  CS_JSON_KEY (w, "mos");
  cs_report_json_optional_ms (w, mos->mos, 2);
  CS_JSON_KEY (w, "first_frame");
  cs_json_uint (w, st->first_frame);
  CS_JSON_KEY (w, "last_frame");
  cs_json_uint (w, st->last_frame);
  CS_JSON_KEY (w, "start");
  cs_report_json_time (w, st->first_ns, TRUE);
  CS_JSON_KEY (w, "end");
  cs_report_json_time (w, st->last_ns, TRUE);
  cs_report_json_rtcp (w, cs_stream_get_rtcp (stream));
  cs_json_end_object (w);
}

static void
cs_report_json_stream_item (CsJsonWriter *w, gpointer stream)
{
  cs_report_json_stream (w, stream);
}

void
cs_report_json_streams (CsJsonWriter *w, CsAnalysis *analysis)
{
  g_autoptr (GPtrArray) streams = cs_report_json_model_items (cs_analysis_get_streams (analysis));

  CS_JSON_KEY (w, "streams");
  cs_json_begin_array (w);
  cs_json_write_items (w, streams, cs_report_json_stream_item);
  cs_json_end_array (w);
}

static void
cs_report_json_finding (CsJsonWriter *w, CsFinding *finding)
{
  const GArray *frames = cs_finding_get_frames (finding);

  cs_json_begin_object (w);
  CS_JSON_KEY (w, "kind");
  cs_json_string (w, cs_finding_kind_to_string (cs_finding_get_kind (finding)));
  CS_JSON_KEY (w, "severity");
  cs_json_string (w, cs_severity_to_string (cs_finding_get_severity (finding)));
  CS_JSON_KEY (w, "call");
  if (cs_finding_get_call_number (finding) == 0)
    cs_json_null (w);
  else
    cs_json_uint (w, cs_finding_get_call_number (finding));
  CS_JSON_KEY (w, "stream");
  if (cs_finding_get_stream_id (finding) == 0)
    cs_json_null (w);
  else
    cs_json_uint (w, cs_finding_get_stream_id (finding));
  CS_JSON_KEY (w, "frames");
  cs_json_begin_array (w);
  for (guint i = 0; i < frames->len; i++)
    cs_json_uint (w, g_array_index (frames, guint32, i));
  cs_json_end_array (w);
  CS_JSON_KEY (w, "text");
  cs_json_string (w, cs_finding_get_text (finding));
  cs_json_end_object (w);
}

static void
cs_report_json_finding_item (CsJsonWriter *w, gpointer finding)
{
  cs_report_json_finding (w, finding);
}

void
cs_report_json_findings (CsJsonWriter *w, CsAnalysis *analysis)
{
  g_autoptr (GPtrArray) findings = cs_report_json_model_items (cs_analysis_get_findings (analysis));

  CS_JSON_KEY (w, "findings");
  cs_json_begin_array (w);
  cs_json_write_items (w, findings, cs_report_json_finding_item);
  cs_json_end_array (w);
}
