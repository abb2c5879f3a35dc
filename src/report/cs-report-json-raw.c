/* cs-report-json-raw.c — the JSON report's calls, streams and findings as raw text
 *
 * The pretty report writes hundreds of thousands of objects of one shape at one depth:
 * their keys, separators and indentation are literals here, values are copied straight
 * into the writer's buffer, and only what needs escaping (or is longer than the buffer)
 * goes through the generic writer. The text is byte for byte what the generic functions
 * of cs-report-json.c write (tests/unit/test-report-json.c compares them). */
#include "cs-report-json-raw.h"

#include "cs-call-dtmf.h"
#include "cs-fixed-format.h"
#include "cs-stream-rtcp.h"
#include "cs-time-format.h"

#include <math.h>
#include <string.h>

/* Keys of a call (depth 3 of the report) and of its transactions (depth 5), with their
 * separators and indentation: the pretty report's calls are written as raw text. */
#define CS_CALL_KEY(name) ",\n      \"" name "\": "
#define CS_TRANSACTION_KEY(name) ",\n          \"" name "\": "

/* A number's decimal digits written forwards: counted first, then filled from the end
 * (no copy from a scratch buffer; within the margin, like every raw value). */
static inline char *
cs_report_json_raw_uint (char *p, guint64 value)
{
  guint n = 1;

  if (value < 10)
    {
      *p = (char) ('0' + value);
      return p + 1;
    }
  for (guint64 bound = 10; n < 20 && value >= bound; bound *= 10)
    n++;
  cs_decimal_digits_before (p + n, value, 1);
  return p + n;
}

/* "%.Nf" of a whole number (most times in ms are) without leaving this file: its digits,
 * then N zeros; anything else through cs_json_raw_double. */
static inline char *
cs_report_json_raw_double (char *p, double value, int decimals)
{
  guint64 whole;

  if (!(value >= 0 && value < 1e15) || signbit (value) || decimals < 0 || decimals > 9)
    return cs_json_raw_double (p, value, decimals);
  whole = (guint64) value;
  if ((double) whole != value)
    return cs_json_raw_double (p, value, decimals);
  p = cs_report_json_raw_uint (p, whole);
  if (decimals > 0)
    {
      *p = '.';
      memcpy (p + 1, "000000000", 9); /* within the margin */
      p += 1 + decimals;
    }
  return p;
}

static char *
cs_report_json_raw_optional_ms (char *p, double value, int decimals)
{
  if (value < 0)
    return CS_JSON_RAW_LITERAL (p, "null");
  return cs_report_json_raw_double (p, value, decimals);
}

/* The elements of a non-empty list of numbers, one a line at depth 4, and the closing
 * bracket: at most 20 bytes each, so room is made once every 64. */
static char *
cs_report_json_raw_numbers (CsJsonWriter *w, char *p, const guint32 *values, guint n)
{
  G_STATIC_ASSERT (64 * 20 + 16 <= CS_JSON_RAW_MARGIN);
  G_STATIC_ASSERT (sizeof (guint) == sizeof (guint32)); /* stream ids are read as guint32 */
  *p++ = '[';
  for (guint i = 0; i < n; i++)
    {
      if (i % 64 == 0)
        p = cs_json_raw_ensure (w, p, 0);
      if (i > 0)
        *p++ = ',';
      p = CS_JSON_RAW_LITERAL (p, "\n        ");
      p = cs_report_json_raw_uint (p, values[i]);
    }
  return CS_JSON_RAW_LITERAL (p, "\n      ]");
}

static char *
cs_report_json_raw_status (char *p, guint status)
{
  return status == 0 ? CS_JSON_RAW_LITERAL (p, "null") : cs_report_json_raw_uint (p, status);
}

/* Names from fixed tables (states, methods, finding kinds, severities) quoted at compile
 * time: one fixed-size copy each, no length or escaping to work out. */
typedef struct
{
  char text[24]; /* quoted, then padding: always copied whole (within the margin) */
  guint len;
} CsJsonQuoted;

#define CS_QUOTED(name)                                                                            \
  {                                                                                                \
    "\"" name "\"", sizeof (name) + 1                                                              \
  }

static inline char *
cs_report_json_raw_quoted (char *p, const CsJsonQuoted *q)
{
  memcpy (p, q->text, sizeof q->text);
  return p + q->len;
}

static const CsJsonQuoted cs_quoted_methods[CS_SIP_METHOD_COUNT] = {
  [CS_SIP_METHOD_UNKNOWN] = CS_QUOTED ("UNKNOWN"),
  [CS_SIP_METHOD_INVITE] = CS_QUOTED ("INVITE"),
  [CS_SIP_METHOD_ACK] = CS_QUOTED ("ACK"),
  [CS_SIP_METHOD_BYE] = CS_QUOTED ("BYE"),
  [CS_SIP_METHOD_CANCEL] = CS_QUOTED ("CANCEL"),
  [CS_SIP_METHOD_REGISTER] = CS_QUOTED ("REGISTER"),
  [CS_SIP_METHOD_OPTIONS] = CS_QUOTED ("OPTIONS"),
  [CS_SIP_METHOD_PRACK] = CS_QUOTED ("PRACK"),
  [CS_SIP_METHOD_SUBSCRIBE] = CS_QUOTED ("SUBSCRIBE"),
  [CS_SIP_METHOD_NOTIFY] = CS_QUOTED ("NOTIFY"),
  [CS_SIP_METHOD_PUBLISH] = CS_QUOTED ("PUBLISH"),
  [CS_SIP_METHOD_INFO] = CS_QUOTED ("INFO"),
  [CS_SIP_METHOD_REFER] = CS_QUOTED ("REFER"),
  [CS_SIP_METHOD_MESSAGE] = CS_QUOTED ("MESSAGE"),
  [CS_SIP_METHOD_UPDATE] = CS_QUOTED ("UPDATE"),
};

/* A method name: the table's when it is the constant for a known method (requests and
 * transactions use those), else as written. */
static char *
cs_report_json_raw_method (CsJsonWriter *w, char *p, CsSipMethod method, const char *name)
{
  if ((guint) method < CS_SIP_METHOD_COUNT && method != CS_SIP_METHOD_UNKNOWN
      && name == cs_sip_method_to_string (method))
    return cs_report_json_raw_quoted (p, &cs_quoted_methods[method]);
  return cs_json_raw_string (w, p, name);
}

static char *
cs_report_json_raw_state (CsJsonWriter *w, char *p, CsCallState state)
{
  static const CsJsonQuoted states[] = {
    [CS_CALL_STATE_SETUP] = CS_QUOTED ("setup"),
    [CS_CALL_STATE_RINGING] = CS_QUOTED ("ringing"),
    [CS_CALL_STATE_IN_CALL] = CS_QUOTED ("in-call"),
    [CS_CALL_STATE_COMPLETED] = CS_QUOTED ("completed"),
    [CS_CALL_STATE_CANCELLED] = CS_QUOTED ("cancelled"),
    [CS_CALL_STATE_REJECTED] = CS_QUOTED ("rejected"),
    [CS_CALL_STATE_FAILED] = CS_QUOTED ("failed"),
  };

  if ((guint) state < G_N_ELEMENTS (states))
    return cs_report_json_raw_quoted (p, &states[state]);
  return cs_json_raw_string (w, p, cs_call_state_to_string (state));
}

static char *
cs_report_json_raw_kind (CsJsonWriter *w, char *p, CsFindingKind kind)
{
  static const CsJsonQuoted kinds[] = {
    [CS_FINDING_ONE_WAY_AUDIO] = CS_QUOTED ("one-way-audio"),
    [CS_FINDING_NO_MEDIA] = CS_QUOTED ("no-media"),
    [CS_FINDING_LATE_MEDIA] = CS_QUOTED ("late-media"),
    [CS_FINDING_LOSS_BURST] = CS_QUOTED ("loss-burst"),
    [CS_FINDING_HIGH_JITTER] = CS_QUOTED ("high-jitter"),
    [CS_FINDING_DELTA_SPIKE] = CS_QUOTED ("delta-spike"),
    [CS_FINDING_SEQUENCE_ERRORS] = CS_QUOTED ("sequence-errors"),
    [CS_FINDING_SSRC_CHANGE] = CS_QUOTED ("ssrc-change"),
    [CS_FINDING_CODEC_MISMATCH] = CS_QUOTED ("codec-mismatch"),
    [CS_FINDING_PTIME_MISMATCH] = CS_QUOTED ("ptime-mismatch"),
    [CS_FINDING_NAT_MISMATCH] = CS_QUOTED ("nat-mismatch"),
    [CS_FINDING_RTP_AFTER_BYE] = CS_QUOTED ("rtp-after-bye"),
    [CS_FINDING_SLOW_PDD] = CS_QUOTED ("slow-pdd"),
    [CS_FINDING_FAILED_CALL] = CS_QUOTED ("failed-call"),
    [CS_FINDING_UNANSWERED] = CS_QUOTED ("unanswered-invite"),
    [CS_FINDING_MISSING_ACK] = CS_QUOTED ("missing-ack"),
    [CS_FINDING_RETRANSMISSIONS] = CS_QUOTED ("retransmissions"),
    [CS_FINDING_SHORT_CALL] = CS_QUOTED ("short-call"),
    [CS_FINDING_MALFORMED_SIP] = CS_QUOTED ("malformed-sip"),
    [CS_FINDING_DROPPED_STATE] = CS_QUOTED ("dropped-state"),
    [CS_FINDING_DAMAGED_CAPTURE] = CS_QUOTED ("damaged-capture"),
  };

  if ((guint) kind < G_N_ELEMENTS (kinds))
    return cs_report_json_raw_quoted (p, &kinds[kind]);
  return cs_json_raw_string (w, p, cs_finding_kind_to_string (kind));
}

static char *
cs_report_json_raw_severity (CsJsonWriter *w, char *p, CsSeverity severity)
{
  static const CsJsonQuoted severities[] = {
    [CS_SEVERITY_INFO] = CS_QUOTED ("info"),
    [CS_SEVERITY_WARNING] = CS_QUOTED ("warning"),
    [CS_SEVERITY_ERROR] = CS_QUOTED ("error"),
  };

  if ((guint) severity < G_N_ELEMENTS (severities))
    return cs_report_json_raw_quoted (p, &severities[severity]);
  return cs_json_raw_string (w, p, cs_severity_to_string (severity));
}

static char *
cs_report_json_raw_transactions (CsJsonWriter *w, char *p, CsCall *call)
{
  guint n = cs_call_get_n_transactions (call);

  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("transactions"));
  if (n == 0)
    return CS_JSON_RAW_LITERAL (p, "[]");
  *p++ = '[';
  for (guint i = 0; i < n; i++)
    {
      const CsTransaction *t = cs_call_get_transaction (call, i);

      p = cs_json_raw_ensure (w, p, 0);
      if (i > 0)
        *p++ = ',';
      p = CS_JSON_RAW_LITERAL (p, "\n        {\n          \"method\": ");
      p = cs_report_json_raw_method (w, p, t->method, t->method_name);
      p = CS_JSON_RAW_LITERAL (p, CS_TRANSACTION_KEY ("cseq"));
      p = cs_report_json_raw_uint (p, t->cseq);
      p = CS_JSON_RAW_LITERAL (p, CS_TRANSACTION_KEY ("request_frame"));
      p = cs_report_json_raw_uint (p, t->request_frame);
      p = CS_JSON_RAW_LITERAL (p, CS_TRANSACTION_KEY ("transmissions"));
      p = cs_report_json_raw_uint (p, t->transmissions);
      p = CS_JSON_RAW_LITERAL (p, CS_TRANSACTION_KEY ("final_status"));
      p = cs_report_json_raw_status (p, t->final_status);
      p = CS_JSON_RAW_LITERAL (p, CS_TRANSACTION_KEY ("first_response_ms"));
      p = cs_report_json_raw_optional_ms (p, cs_transaction_first_response_ms (t), 3);
      p = CS_JSON_RAW_LITERAL (p, CS_TRANSACTION_KEY ("final_response_ms"));
      p = cs_report_json_raw_optional_ms (p, cs_transaction_final_response_ms (t), 3);
      p = CS_JSON_RAW_LITERAL (p, "\n        }");
    }
  return CS_JSON_RAW_LITERAL (p, "\n      ]");
}

/* The call's fields as cs_report_json_call writes them, as raw text: after its '{' at
 * depth CS_REPORT_JSON_RAW_DEPTH of a pretty writer. */
void
cs_report_json_call_raw (CsJsonWriter *w, CsCall *call)
{
  const GArray *streams = cs_call_get_stream_ids (call);
  const GArray *digits = cs_call_get_dtmf (call);
  char time[CS_TIME_ISO_BUF_SIZE];
  gsize time_len = cs_time_format_iso_into (cs_call_get_start_ns (call), time);
  char *p = cs_json_raw_begin (w);

  p = CS_JSON_RAW_LITERAL (p, "\n      \"id\": ");
  p = cs_report_json_raw_uint (p, cs_call_get_number (call));
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("call_id"));
  p = cs_json_raw_string (w, p, cs_call_get_call_id (call));
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("method"));
  p = cs_report_json_raw_method (w, p, cs_call_get_method (call), cs_call_get_method_name (call));
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("from"));
  p = cs_json_raw_string (w, p, cs_call_get_from (call));
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("to"));
  p = cs_json_raw_string (w, p, cs_call_get_to (call));
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("state"));
  p = cs_report_json_raw_state (w, p, cs_call_get_state (call));
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("final_status"));
  p = cs_report_json_raw_status (p, cs_call_get_final_status (call));
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("final_reason"));
  p = cs_json_raw_string (w, p, cs_call_get_final_reason (call));
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("start"));
  p = cs_json_raw_string_len (w, p, time, time_len);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("pdd_ms"));
  p = cs_report_json_raw_optional_ms (p, cs_call_get_pdd_ms (call), 3);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("setup_ms"));
  p = cs_report_json_raw_optional_ms (p, cs_call_get_setup_ms (call), 3);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("ring_ms"));
  p = cs_report_json_raw_optional_ms (p, cs_call_get_ring_ms (call), 3);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("duration_s"));
  p = cs_report_json_raw_optional_ms (p, cs_call_get_duration_s (call), 3);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("messages"));
  p = cs_report_json_raw_uint (p, cs_call_get_n_messages (call));
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("retransmissions"));
  p = cs_report_json_raw_uint (p, cs_call_get_retransmissions (call));
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("first_frame"));
  p = cs_report_json_raw_uint (p, cs_call_get_first_frame (call));
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("user_agent"));
  p = cs_json_raw_string (w, p, cs_call_get_user_agent (call));
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("streams"));
  if (streams->len == 0)
    p = CS_JSON_RAW_LITERAL (p, "[]");
  else
    {
      p = cs_report_json_raw_numbers (w, p, (const guint32 *) streams->data, streams->len);
    }
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("mos"));
  p = cs_report_json_raw_optional_ms (p, cs_call_get_mos (call), 2);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("findings"));
  p = cs_report_json_raw_uint (p, cs_call_get_n_findings (call));
  p = cs_report_json_raw_transactions (w, p, call);
  if (digits == NULL || digits->len == 0)
    {
      p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("dtmf"));
      p = CS_JSON_RAW_LITERAL (p, "[]");
      cs_json_raw_end (w, p);
      return;
    }
  cs_json_raw_end (w, p);
  cs_report_json_dtmf (w, call);
}

const char *
cs_report_json_endpoint_text (const CsEndpoint *ep, char buf[CS_ENDPOINT_STRLEN])
{
  char *end = buf + CS_ENDPOINT_STRLEN - 1;
  char *p = end;

  if (ep->addr.family != 4)
    return cs_endpoint_to_string (ep, buf);
  *end = '\0';
  p = cs_decimal_digits_before (p, ep->port, 1);
  *--p = ':';
  for (int i = 3; i >= 0; i--)
    {
      p = cs_decimal_digits_before (p, ep->addr.bytes[i], 1);
      if (i > 0)
        *--p = '.';
    }
  return p;
}

/* The stream's fields as cs_report_json_stream writes them, as raw text (after its '{'
 * at depth CS_REPORT_JSON_RAW_DEPTH of a pretty writer, like a call's); RTCP the generic way. */
void
cs_report_json_stream_raw (CsJsonWriter *w, CsStream *stream, const char *ssrc)
{
  const CsRtpStats *st = cs_stream_get_stats (stream);
  const CsMos *mos = cs_stream_get_mos (stream);
  const CsStreamRtcp *rtcp = cs_stream_get_rtcp (stream);
  gboolean associated = cs_stream_is_associated (stream);
  char text[MAX (CS_ENDPOINT_STRLEN, CS_TIME_ISO_BUF_SIZE)];
  char *p = cs_json_raw_begin (w);

  p = CS_JSON_RAW_LITERAL (p, "\n      \"id\": ");
  p = cs_report_json_raw_uint (p, cs_stream_get_id (stream));
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("call"));
  p = associated ? cs_report_json_raw_uint (p, cs_stream_get_call_number (stream))
                 : CS_JSON_RAW_LITERAL (p, "null");
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("ssrc"));
  p = cs_json_raw_string (w, p, ssrc);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("src"));
  p = cs_json_raw_string (w, p, cs_report_json_endpoint_text (cs_stream_get_src (stream), text));
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("dst"));
  p = cs_json_raw_string (w, p, cs_report_json_endpoint_text (cs_stream_get_dst (stream), text));
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("payload_type"));
  p = cs_report_json_raw_uint (p, st->payload_type);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("codec"));
  p = cs_json_raw_string (w, p, cs_stream_get_codec (stream));
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("clock_rate"));
  p = cs_report_json_raw_uint (p, st->clock_rate);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("associated"));
  p = associated ? CS_JSON_RAW_LITERAL (p, "true") : CS_JSON_RAW_LITERAL (p, "false");
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("packets"));
  p = cs_report_json_raw_uint (p, st->packets);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("expected"));
  p = cs_report_json_raw_uint (p, st->expected);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("lost"));
  if (st->lost < 0)
    *p++ = '-';
  /* the magnitude of G_MININT64 does not fit a gint64: negate in unsigned */
  p = cs_report_json_raw_uint (p, st->lost < 0 ? 0 - (guint64) st->lost : (guint64) st->lost);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("duplicates"));
  p = cs_report_json_raw_uint (p, st->duplicates);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("out_of_order"));
  p = cs_report_json_raw_uint (p, st->out_of_order);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("sequence_errors"));
  p = cs_report_json_raw_uint (p, st->sequence_errors);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("min_delta_ms"));
  p = cs_report_json_raw_double (p, st->min_delta_ms, 3);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("mean_delta_ms"));
  p = cs_report_json_raw_double (p, st->mean_delta_ms, 3);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("max_delta_ms"));
  p = cs_report_json_raw_double (p, st->max_delta_ms, 3);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("max_delta_frame"));
  p = cs_report_json_raw_uint (p, st->max_delta_frame);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("min_jitter_ms"));
  p = cs_report_json_raw_double (p, st->min_jitter_ms, 3);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("mean_jitter_ms"));
  p = cs_report_json_raw_double (p, st->mean_jitter_ms, 3);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("max_jitter_ms"));
  p = cs_report_json_raw_double (p, st->max_jitter_ms, 3);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("max_skew_ms"));
  p = cs_report_json_raw_double (p, st->max_skew_ms, 3);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("mean_bitrate_kbps"));
  p = cs_report_json_raw_double (p, st->mean_bitrate_kbps, 3);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("r_factor"));
  p = cs_report_json_raw_optional_ms (p, mos->r, 2);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("mos"));
  p = cs_report_json_raw_optional_ms (p, mos->mos, 2);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("first_frame"));
  p = cs_report_json_raw_uint (p, st->first_frame);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("last_frame"));
  p = cs_report_json_raw_uint (p, st->last_frame);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("start"));
  p = cs_json_raw_string_len (w, p, text, cs_time_format_iso_into (st->first_ns, text));
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("end"));
  p = cs_json_raw_string_len (w, p, text, cs_time_format_iso_into (st->last_ns, text));
  if (rtcp == NULL)
    {
      p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("rtcp"));
      p = CS_JSON_RAW_LITERAL (p, "null");
      cs_json_raw_end (w, p);
      return;
    }
  cs_json_raw_end (w, p);
  cs_report_json_rtcp (w, rtcp);
}

/* The finding's fields as cs_report_json_finding writes them, as raw text (after its '{'
 * at depth CS_REPORT_JSON_RAW_DEPTH of a pretty writer, like a call's). */
void
cs_report_json_finding_raw (CsJsonWriter *w, CsFinding *finding)
{
  const GArray *frames = cs_finding_get_frames (finding);
  guint call = cs_finding_get_call_number (finding);
  guint stream = cs_finding_get_stream_id (finding);
  char *p = cs_json_raw_begin (w);

  p = CS_JSON_RAW_LITERAL (p, "\n      \"kind\": ");
  p = cs_report_json_raw_kind (w, p, cs_finding_get_kind (finding));
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("severity"));
  p = cs_report_json_raw_severity (w, p, cs_finding_get_severity (finding));
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("call"));
  p = call == 0 ? CS_JSON_RAW_LITERAL (p, "null") : cs_report_json_raw_uint (p, call);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("stream"));
  p = stream == 0 ? CS_JSON_RAW_LITERAL (p, "null") : cs_report_json_raw_uint (p, stream);
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("frames"));
  if (frames->len == 0)
    p = CS_JSON_RAW_LITERAL (p, "[]");
  else
    {
      p = cs_report_json_raw_numbers (w, p, (const guint32 *) frames->data, frames->len);
    }
  p = CS_JSON_RAW_LITERAL (p, CS_CALL_KEY ("text"));
  p = cs_json_raw_string (w, p, cs_finding_get_text (finding));
  cs_json_raw_end (w, p);
}
