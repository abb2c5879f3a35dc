/* cs-report-json.c — the JSON report: field names are a contract scripts rely on */
#include "cs-report-json.h"

#include <stdlib.h>

#include "callscope-engine.h"
#include "cs-json-parallel.h"
#include "cs-report-json-raw.h"
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

/* The report reads each call's object and then its strings, which the call's messages keep
 * far apart in memory: on S (100 000 calls, 200 000 findings) waiting for those cache misses
 * was most of the report's time. Items this many ahead are fetched, their strings half as
 * far ahead (by then the object is in cache). */
#define CS_REPORT_JSON_AHEAD 8

static void
cs_report_json_prefetch_call (GPtrArray *calls, guint i)
{
  if (i + CS_REPORT_JSON_AHEAD < calls->len)
    cs_call_prefetch (g_ptr_array_index (calls, i + CS_REPORT_JSON_AHEAD), FALSE);
  if (i + CS_REPORT_JSON_AHEAD / 2 < calls->len)
    cs_call_prefetch (g_ptr_array_index (calls, i + CS_REPORT_JSON_AHEAD / 2), TRUE);
}

/* A finding is a small object with its text (often shared) elsewhere. */
static void
cs_report_json_prefetch_finding (GPtrArray *findings, guint i)
{
  if (i + CS_REPORT_JSON_AHEAD < findings->len)
    cs_prefetch_bytes (g_ptr_array_index (findings, i + CS_REPORT_JSON_AHEAD),
                       80 /* its size on 64-bit */);
  if (i + CS_REPORT_JSON_AHEAD / 2 < findings->len)
    CS_PREFETCH (cs_finding_get_text (g_ptr_array_index (findings, i + CS_REPORT_JSON_AHEAD / 2)));
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
 * lookups move its cursor). Once every call is published the analysis' lists no longer
 * change: they lend their arrays. Before, the items are copied with references (a GUI
 * export may run while the main context still places calls). */
static GPtrArray *
cs_report_json_model_items (CsAnalysis *analysis, GListModel *model)
{
  gboolean settled = cs_analysis_get_published (analysis);
  guint n;
  GPtrArray *items;

  if (settled && CS_IS_CALL_LIST (model))
    return g_ptr_array_ref (cs_call_list_peek_calls (CS_CALL_LIST (model)));
  if (settled && CS_IS_OBJECT_LIST (model))
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
  CS_JSON_KEY_UINT (w, "packets", stats->packets);
  CS_JSON_KEY_UINT (w, "bytes", stats->bytes);
  CS_JSON_KEY_UINT (w, "sip_messages", stats->sip_messages);
  cs_report_json_counts (w, stats);
  CS_JSON_KEY_UINT (w, "malformed_sip", stats->malformed_sip);
  CS_JSON_KEY_UINT (w, "rtp_packets", stats->rtp_packets);
  CS_JSON_KEY (w, "first_time");
  cs_report_json_time (w, stats->first_ns, stats->packets > 0);
  CS_JSON_KEY (w, "last_time");
  cs_report_json_time (w, stats->last_ns, stats->packets > 0);
  CS_JSON_KEY_STRING (w, "damage", damage != NULL ? damage->message : NULL);
  cs_json_end_object (w);
}

/* A key and its value, or null when it is negative (not measured). */
#define CS_REPORT_JSON_OPTIONAL_MS(w, literal, value, decimals)                                    \
  cs_report_json_key_optional_ms ((w), "\"" literal "\": ", sizeof ("\"" literal "\": ") - 1,      \
                                  (value), (decimals))

static void
cs_report_json_key_optional_ms (CsJsonWriter *w, const char *quoted, gsize len, double value,
                                int decimals)
{
  if (value < 0)
    {
      cs_json_key_quoted (w, quoted, len);
      cs_json_null (w);
    }
  else
    cs_json_key_quoted_double (w, quoted, len, value, decimals);
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

void
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
      CS_JSON_KEY_STRING (w, "digit", digit);
      CS_JSON_KEY (w, "start");
      cs_report_json_time (w, d->start_ns, TRUE);
      CS_JSON_KEY_DOUBLE (w, "duration_ms", d->duration_ms, 1);
      CS_JSON_KEY_STRING (w, "source", d->source);
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
  if (cs_json_writer_is_pretty (w) && cs_json_writer_get_depth (w) == CS_REPORT_JSON_RAW_DEPTH)
    {
      cs_report_json_call_raw (w, call);
      cs_json_end_object (w);
      return;
    }
  CS_JSON_KEY_UINT (w, "id", cs_call_get_number (call));
  CS_JSON_KEY_STRING (w, "call_id", cs_call_get_call_id (call));
  CS_JSON_KEY_STRING (w, "method", cs_call_get_method_name (call));
  CS_JSON_KEY_STRING (w, "from", cs_call_get_from (call));
  CS_JSON_KEY_STRING (w, "to", cs_call_get_to (call));
  CS_JSON_KEY_STRING (w, "state", cs_call_state_to_string (cs_call_get_state (call)));
  CS_JSON_KEY (w, "final_status");
  if (cs_call_get_final_status (call) == 0)
    cs_json_null (w);
  else
    cs_json_uint (w, cs_call_get_final_status (call));
  CS_JSON_KEY_STRING (w, "final_reason", cs_call_get_final_reason (call));
  CS_JSON_KEY (w, "start");
  cs_report_json_time (w, cs_call_get_start_ns (call), TRUE);
  CS_REPORT_JSON_OPTIONAL_MS (w, "pdd_ms", cs_call_get_pdd_ms (call), 3);
  CS_REPORT_JSON_OPTIONAL_MS (w, "setup_ms", cs_call_get_setup_ms (call), 3);
  CS_REPORT_JSON_OPTIONAL_MS (w, "ring_ms", cs_call_get_ring_ms (call), 3);
  CS_REPORT_JSON_OPTIONAL_MS (w, "duration_s", cs_call_get_duration_s (call), 3);
  CS_JSON_KEY_UINT (w, "messages", cs_call_get_n_messages (call));
  CS_JSON_KEY_UINT (w, "retransmissions", cs_call_get_retransmissions (call));
  CS_JSON_KEY_UINT (w, "first_frame", cs_call_get_first_frame (call));
  CS_JSON_KEY_STRING (w, "user_agent", cs_call_get_user_agent (call));
  CS_JSON_KEY (w, "streams");
  cs_json_begin_array (w);
  for (guint i = 0; i < streams->len; i++)
    cs_json_uint (w, g_array_index (streams, guint, i));
  cs_json_end_array (w);
  CS_REPORT_JSON_OPTIONAL_MS (w, "mos", cs_call_get_mos (call), 2);
  CS_JSON_KEY_UINT (w, "findings", cs_call_get_n_findings (call));
  CS_JSON_KEY (w, "transactions");
  cs_json_begin_array (w);
  for (guint i = 0; i < cs_call_get_n_transactions (call); i++)
    {
      const CsTransaction *t = cs_call_get_transaction (call, i);

      cs_json_begin_object (w);
      CS_JSON_KEY_STRING (w, "method", t->method_name);
      CS_JSON_KEY_UINT (w, "cseq", t->cseq);
      CS_JSON_KEY_UINT (w, "request_frame", t->request_frame);
      CS_JSON_KEY_UINT (w, "transmissions", t->transmissions);
      CS_JSON_KEY (w, "final_status");
      if (t->final_status == 0)
        cs_json_null (w);
      else
        cs_json_uint (w, t->final_status);
      CS_REPORT_JSON_OPTIONAL_MS (w, "first_response_ms", cs_transaction_first_response_ms (t), 3);
      CS_REPORT_JSON_OPTIONAL_MS (w, "final_response_ms", cs_transaction_final_response_ms (t), 3);
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
  g_autoptr (GPtrArray) calls
      = cs_report_json_model_items (analysis, cs_analysis_get_calls (analysis));

  CS_JSON_KEY (w, "calls");
  cs_json_begin_array (w);
  if (cs_json_writer_get_threads (w) >= 2)
    cs_json_write_items (w, calls, cs_report_json_call_item);
  else
    for (guint i = 0; i < calls->len; i++)
      {
        cs_report_json_prefetch_call (calls, i);
        cs_report_json_call (w, g_ptr_array_index (calls, i));
      }
  cs_json_end_array (w);
}

/* IPv4 "a.b.c.d:port" as inet_ntop and "%u" write it, without their cost (two
 * per stream); IPv6 and unset addresses through cs_endpoint_to_string. */
static void
cs_report_json_endpoint (CsJsonWriter *w, const CsEndpoint *ep)
{
  char buf[CS_ENDPOINT_STRLEN];

  cs_json_string (w, cs_report_json_endpoint_text (ep, buf));
}

void
cs_report_json_rtcp (CsJsonWriter *w, const CsStreamRtcp *r)
{
  CS_JSON_KEY (w, "rtcp");
  if (r == NULL)
    {
      cs_json_null (w);
      return;
    }
  cs_json_begin_object (w);
  CS_JSON_KEY_UINT (w, "sender_reports", r->n_sr);
  CS_JSON_KEY_UINT (w, "receiver_reports", r->n_rr);
  CS_JSON_KEY_STRING (w, "cname", r->cname);
  CS_JSON_KEY_DOUBLE (w, "fraction_lost_last", r->last_fraction_lost / 256.0, 4);
  CS_JSON_KEY_DOUBLE (w, "fraction_lost_max", r->max_fraction_lost / 256.0, 4);
  CS_JSON_KEY (w, "cumulative_lost");
  cs_json_int (w, r->last_cumulative_lost);
  CS_REPORT_JSON_OPTIONAL_MS (w, "jitter_ms_last", r->last_jitter_ms, 3);
  CS_REPORT_JSON_OPTIONAL_MS (w, "jitter_ms_max", r->max_jitter_ms, 3);
  CS_JSON_KEY_UINT (w, "rtt_samples", r->n_rtt);
  CS_REPORT_JSON_OPTIONAL_MS (w, "rtt_ms_min", r->min_rtt_ms, 3);
  CS_REPORT_JSON_OPTIONAL_MS (w, "rtt_ms_mean", r->mean_rtt_ms, 3);
  CS_REPORT_JSON_OPTIONAL_MS (w, "rtt_ms_max", r->max_rtt_ms, 3);
  CS_JSON_KEY (w, "bye");
  cs_json_bool (w, r->bye_seen);
  CS_JSON_KEY (w, "xr_voip");
  if (!r->has_xr_voip)
    cs_json_null (w);
  else
    {
      cs_json_begin_object (w);
      CS_REPORT_JSON_OPTIONAL_MS (w, "mos_lq", r->xr_mos_lq, 1);
      CS_REPORT_JSON_OPTIONAL_MS (w, "mos_cq", r->xr_mos_cq, 1);
      CS_REPORT_JSON_OPTIONAL_MS (w, "r_factor", r->xr_r_factor, 0);
      CS_JSON_KEY_DOUBLE (w, "loss_rate", r->xr_loss_rate, 4);
      CS_JSON_KEY_DOUBLE (w, "discard_rate", r->xr_discard_rate, 4);
      CS_JSON_KEY_DOUBLE (w, "burst_density", r->xr_burst_density, 4);
      CS_JSON_KEY_DOUBLE (w, "gap_density", r->xr_gap_density, 4);
      CS_JSON_KEY_UINT (w, "burst_duration_ms", r->xr_burst_duration_ms);
      CS_JSON_KEY_UINT (w, "gap_duration_ms", r->xr_gap_duration_ms);
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
  if (cs_json_writer_is_pretty (w) && cs_json_writer_get_depth (w) == CS_REPORT_JSON_RAW_DEPTH)
    {
      cs_report_json_stream_raw (w, stream, ssrc);
      cs_json_end_object (w);
      return;
    }
  CS_JSON_KEY_UINT (w, "id", cs_stream_get_id (stream));
  CS_JSON_KEY (w, "call");
  if (cs_stream_is_associated (stream))
    cs_json_uint (w, cs_stream_get_call_number (stream));
  else
    cs_json_null (w);
  CS_JSON_KEY_STRING (w, "ssrc", ssrc);
  CS_JSON_KEY (w, "src");
  cs_report_json_endpoint (w, cs_stream_get_src (stream));
  CS_JSON_KEY (w, "dst");
  cs_report_json_endpoint (w, cs_stream_get_dst (stream));
  CS_JSON_KEY_UINT (w, "payload_type", st->payload_type);
  CS_JSON_KEY_STRING (w, "codec", cs_stream_get_codec (stream));
  CS_JSON_KEY_UINT (w, "clock_rate", st->clock_rate);
  CS_JSON_KEY (w, "associated");
  cs_json_bool (w, cs_stream_is_associated (stream));
  CS_JSON_KEY_UINT (w, "packets", st->packets);
  CS_JSON_KEY_UINT (w, "expected", st->expected);
  CS_JSON_KEY (w, "lost");
  cs_json_int (w, st->lost);
  CS_JSON_KEY_UINT (w, "duplicates", st->duplicates);
  CS_JSON_KEY_UINT (w, "out_of_order", st->out_of_order);
  CS_JSON_KEY_UINT (w, "sequence_errors", st->sequence_errors);
  CS_JSON_KEY_DOUBLE (w, "min_delta_ms", st->min_delta_ms, 3);
  CS_JSON_KEY_DOUBLE (w, "mean_delta_ms", st->mean_delta_ms, 3);
  CS_JSON_KEY_DOUBLE (w, "max_delta_ms", st->max_delta_ms, 3);
  CS_JSON_KEY_UINT (w, "max_delta_frame", st->max_delta_frame);
  CS_JSON_KEY_DOUBLE (w, "min_jitter_ms", st->min_jitter_ms, 3);
  CS_JSON_KEY_DOUBLE (w, "mean_jitter_ms", st->mean_jitter_ms, 3);
  CS_JSON_KEY_DOUBLE (w, "max_jitter_ms", st->max_jitter_ms, 3);
  CS_JSON_KEY_DOUBLE (w, "max_skew_ms", st->max_skew_ms, 3);
  CS_JSON_KEY_DOUBLE (w, "mean_bitrate_kbps", st->mean_bitrate_kbps, 3);
  CS_REPORT_JSON_OPTIONAL_MS (w, "r_factor", mos->r, 2);
  CS_REPORT_JSON_OPTIONAL_MS (w, "mos", mos->mos, 2);
  CS_JSON_KEY_UINT (w, "first_frame", st->first_frame);
  CS_JSON_KEY_UINT (w, "last_frame", st->last_frame);
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
  g_autoptr (GPtrArray) streams
      = cs_report_json_model_items (analysis, cs_analysis_get_streams (analysis));

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
  if (cs_json_writer_is_pretty (w) && cs_json_writer_get_depth (w) == CS_REPORT_JSON_RAW_DEPTH)
    {
      cs_report_json_finding_raw (w, finding);
      cs_json_end_object (w);
      return;
    }
  CS_JSON_KEY_STRING (w, "kind", cs_finding_kind_to_string (cs_finding_get_kind (finding)));
  CS_JSON_KEY_STRING (w, "severity", cs_severity_to_string (cs_finding_get_severity (finding)));
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
  CS_JSON_KEY_STRING (w, "text", cs_finding_get_text (finding));
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
  g_autoptr (GPtrArray) findings
      = cs_report_json_model_items (analysis, cs_analysis_get_findings (analysis));

  CS_JSON_KEY (w, "findings");
  cs_json_begin_array (w);
  if (cs_json_writer_get_threads (w) >= 2)
    cs_json_write_items (w, findings, cs_report_json_finding_item);
  else
    for (guint i = 0; i < findings->len; i++)
      {
        cs_report_json_prefetch_finding (findings, i);
        cs_report_json_finding (w, g_ptr_array_index (findings, i));
      }
  cs_json_end_array (w);
}
