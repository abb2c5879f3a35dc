/* cs-report-json.c — the JSON report: field names are a contract scripts rely on */
#include "cs-report-json.h"

#include <stdlib.h>

#include "callscope-engine.h"
#include "cs-json-parallel.h"
#include "cs-report-json-fields.h"
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
  CS_JSON_KEY (w, "sip_transports");
  cs_json_begin_object (w);
  for (guint i = 0; i < CS_CAPTURE_STATS_TRANSPORTS; i++)
    if (stats->sip_transports[i] > 0)
      {
        cs_json_key (w, cs_sip_transport_to_string ((CsSipTransport) i));
        cs_json_uint (w, stats->sip_transports[i]);
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
  CS_JSON_KEY_UINT (w, "calls", cs_analysis_get_n_calls (analysis));
  CS_JSON_KEY_UINT (w, "other_sip_exchanges", cs_analysis_get_n_other_exchanges (analysis));
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

/* After the key: a list of numbers (frames, stream ids; NULL: none). */
static void
cs_report_json_uints (CsJsonWriter *w, const GArray *values)
{
  G_STATIC_ASSERT (sizeof (guint) == sizeof (guint32)); /* stream ids are read as guint32 */
  cs_json_begin_array (w);
  for (guint i = 0; values != NULL && i < values->len; i++)
    cs_json_uint (w, g_array_index (values, guint32, i));
  cs_json_end_array (w);
}

static void
cs_report_json_frames (CsJsonWriter *w, const GArray *frames)
{
  CS_JSON_KEY (w, "frames");
  cs_report_json_uints (w, frames);
}

void
cs_report_json_dtmf (CsJsonWriter *w, CsCall *call)
{
  const GArray *digits = cs_call_get_dtmf (call);

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

static void cs_report_json_transactions (CsJsonWriter *w, CsCall *call);
static void cs_report_json_endpoint (CsJsonWriter *w, const CsEndpoint *ep);

/* One field of a CS_REPORT_JSON_*_FIELDS list, as the writer writes it (cs-report-json-fields.h
 * lists the kinds). */
#define CS_REPORT_JSON_FIELD(KIND, key, ...)                                                       \
  if (CS_REPORT_JSON_WRITES_##KIND (__VA_ARGS__))                                                  \
    CS_REPORT_JSON_##KIND (w, key, __VA_ARGS__);
#define CS_REPORT_JSON_UINT(w, key, value) CS_JSON_KEY_UINT (w, key, value)
#define CS_REPORT_JSON_INT(w, key, value) (CS_JSON_KEY (w, key), cs_json_int (w, value))
#define CS_REPORT_JSON_STRING(w, key, value) CS_JSON_KEY_STRING (w, key, value)
#define CS_REPORT_JSON_BOOL(w, key, value) (CS_JSON_KEY (w, key), cs_json_bool (w, value))
#define CS_REPORT_JSON_DOUBLE(w, key, value, decimals) CS_JSON_KEY_DOUBLE (w, key, value, decimals)
#define CS_REPORT_JSON_OPTIONAL(w, key, value, decimals)                                           \
  CS_REPORT_JSON_OPTIONAL_MS (w, key, value, decimals)
#define CS_REPORT_JSON_IF_ANY(w, key, value) CS_JSON_KEY_UINT (w, key, value)
#define CS_REPORT_JSON_NONZERO(w, key, value) CS_REPORT_JSON_UINT_IF (w, key, (value) != 0, value)
#define CS_REPORT_JSON_UINT_IF(w, key, present, value)                                             \
  (CS_JSON_KEY (w, key), (present) ? cs_json_uint (w, value) : cs_json_null (w))
#define CS_REPORT_JSON_TIME(w, key, ns) (CS_JSON_KEY (w, key), cs_report_json_time (w, ns, TRUE))
#define CS_REPORT_JSON_ENDPOINT(w, key, ep) (CS_JSON_KEY (w, key), cs_report_json_endpoint (w, ep))
#define CS_REPORT_JSON_UINTS(w, key, values)                                                       \
  (CS_JSON_KEY (w, key), cs_report_json_uints (w, values))
#define CS_REPORT_JSON_METHOD(w, key, method, name) CS_JSON_KEY_STRING (w, key, name)
#define CS_REPORT_JSON_ENUM(w, key, value, name_of) CS_JSON_KEY_STRING (w, key, name_of (value))
#define CS_REPORT_JSON_TRANSACTIONS(w, key, call)                                                  \
  (CS_JSON_KEY (w, key), cs_report_json_transactions (w, call))
#define CS_REPORT_JSON_DTMF(w, key, call) (CS_JSON_KEY (w, key), cs_report_json_dtmf (w, call))
#define CS_REPORT_JSON_RTCP(w, key, rtcp) (CS_JSON_KEY (w, key), cs_report_json_rtcp (w, rtcp))

static void
cs_report_json_transactions (CsJsonWriter *w, CsCall *call)
{
  cs_json_begin_array (w);
  for (guint i = 0; i < cs_call_get_n_transactions (call); i++)
    {
      const CsTransaction *t = cs_call_get_transaction (call, i);

      cs_json_begin_object (w);
      CS_REPORT_JSON_TRANSACTION_FIELDS (CS_REPORT_JSON_FIELD, CS_REPORT_JSON_FIELD)
      cs_json_end_object (w);
    }
  cs_json_end_array (w);
}

/* The pretty report's calls, streams and findings go as raw text (cs-report-json-raw.c). */
static gboolean
cs_report_json_at_raw_depth (CsJsonWriter *w)
{
  return cs_json_writer_is_pretty (w) && cs_json_writer_get_depth (w) == CS_REPORT_JSON_RAW_DEPTH;
}

typedef void (*CsReportJsonPrefetch) (GPtrArray *items, guint i);

/* After a list's key: its items, by the writer's threads or, on one thread and with prefetch,
 * one by one with reads ahead. */
static void
cs_report_json_items (CsJsonWriter *w, CsAnalysis *analysis, GListModel *model,
                      CsJsonItemFunc write, CsReportJsonPrefetch prefetch)
{
  g_autoptr (GPtrArray) items = cs_report_json_model_items (analysis, model);

  cs_json_begin_array (w);
  if (prefetch == NULL || cs_json_writer_get_threads (w) >= 2)
    cs_json_write_items (w, items, write);
  else
    for (guint i = 0; i < items->len; i++)
      {
        prefetch (items, i);
        write (w, g_ptr_array_index (items, i));
      }
  cs_json_end_array (w);
}

static void
cs_report_json_call (CsJsonWriter *w, gpointer item)
{
  CsCall *call = item;

  cs_json_begin_object (w);
  if (cs_report_json_at_raw_depth (w))
    cs_report_json_call_raw (w, call);
  else
    {
      CS_REPORT_JSON_CALL_FIELDS (CS_REPORT_JSON_FIELD, CS_REPORT_JSON_FIELD)
    }
  cs_json_end_object (w);
}

void
cs_report_json_calls (CsJsonWriter *w, CsAnalysis *analysis)
{
  CS_JSON_KEY (w, "calls");
  cs_report_json_items (w, analysis, cs_analysis_get_calls (analysis), cs_report_json_call,
                        cs_report_json_prefetch_call);
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
cs_report_json_stream (CsJsonWriter *w, gpointer item)
{
  CsStream *stream = item;
  const CsRtpStats *st = cs_stream_get_stats (stream);
  const CsMos *mos = cs_stream_get_mos (stream);
  char ssrc[16];

  cs_report_json_hex32 (ssrc, cs_stream_get_ssrc (stream));
  cs_json_begin_object (w);
  if (cs_report_json_at_raw_depth (w))
    cs_report_json_stream_raw (w, stream, ssrc);
  else
    {
      CS_REPORT_JSON_STREAM_FIELDS (CS_REPORT_JSON_FIELD, CS_REPORT_JSON_FIELD)
    }
  cs_json_end_object (w);
}

void
cs_report_json_streams (CsJsonWriter *w, CsAnalysis *analysis)
{
  CS_JSON_KEY (w, "streams");
  cs_report_json_items (w, analysis, cs_analysis_get_streams (analysis), cs_report_json_stream,
                        NULL);
}

static void
cs_report_json_finding (CsJsonWriter *w, gpointer item)
{
  CsFinding *finding = item;

  cs_json_begin_object (w);
  if (cs_report_json_at_raw_depth (w))
    cs_report_json_finding_raw (w, finding);
  else
    {
      CS_REPORT_JSON_FINDING_FIELDS (CS_REPORT_JSON_FIELD, CS_REPORT_JSON_FIELD)
    }
  cs_json_end_object (w);
}

void
cs_report_json_findings (CsJsonWriter *w, CsAnalysis *analysis)
{
  CS_JSON_KEY (w, "findings");
  cs_report_json_items (w, analysis, cs_analysis_get_findings (analysis), cs_report_json_finding,
                        cs_report_json_prefetch_finding);
}

void
cs_report_json_legs (CsJsonWriter *w, const GPtrArray *links)
{
  if (links == NULL || links->len == 0)
    return;
  CS_JSON_KEY (w, "legs");
  cs_json_begin_array (w);
  for (guint i = 0; i < links->len; i++)
    {
      const CsCallLink *link = g_ptr_array_index (links, i);

      cs_json_begin_object (w);
      CS_JSON_KEY_UINT (w, "call", link->call_a);
      CS_JSON_KEY_UINT (w, "leg", link->call_b);
      CS_JSON_KEY_STRING (w, "reason", cs_leg_reason_to_string (link->reason));
      CS_JSON_KEY (w, "frame");
      if (link->frame == 0)
        cs_json_null (w);
      else
        cs_json_uint (w, link->frame);
      CS_JSON_KEY_STRING (w, "evidence", link->evidence);
      cs_json_end_object (w);
    }
  cs_json_end_array (w);
}
