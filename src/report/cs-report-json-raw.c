/* cs-report-json-raw.c — the JSON report's calls, streams and findings as raw text
 *
 * The pretty report writes hundreds of thousands of objects of one shape at one depth:
 * their keys, separators and indentation are literals here, values are copied straight
 * into the writer's buffer, and only what needs escaping (or is longer than the buffer)
 * goes through the generic writer. The text is byte for byte what the generic functions
 * of cs-report-json.c write (tests/unit/test-report-json.c compares them). */
#include "cs-report-json-raw.h"

#include "callscope-engine.h"
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

/* Names of enums (states, methods, finding kinds, severities) quoted once: one fixed-size
 * copy each, no length or escaping to work out per item. */
typedef struct
{
  char text[24]; /* quoted, then padding: always copied whole (within the margin) */
  guint len;
} CsJsonQuoted;

/* Quoted spellings of an enum's first values, made once from its own to_string function
 * (the one place each spelling is written); a name too long for the slot keeps len 0. */
#define CS_QUOTED_SLOTS 32
typedef struct
{
  CsJsonQuoted slots[CS_QUOTED_SLOTS];
  gsize ready;
} CsQuotedNames;

static inline char *
cs_report_json_raw_quoted (char *p, const CsJsonQuoted *q)
{
  memcpy (p, q->text, sizeof q->text);
  return p + q->len;
}

static gboolean
cs_report_json_raw_needs_no_escape (const char *text, gsize n)
{
  for (gsize i = 0; i < n; i++)
    if ((guchar) text[i] < 0x20 || (guchar) text[i] >= 0x80 || text[i] == '"' || text[i] == '\\')
      return FALSE;
  return TRUE;
}

static const CsJsonQuoted *
cs_report_json_raw_quoted_names (CsQuotedNames *names, const char *(*name_of) (guint value))
{
  if (g_once_init_enter (&names->ready))
    {
      for (guint v = 0; v < CS_QUOTED_SLOTS; v++)
        {
          const char *name = name_of (v);
          gsize n = name != NULL ? strlen (name) : sizeof names->slots[v].text;

          if (n + 2 > sizeof names->slots[v].text || !cs_report_json_raw_needs_no_escape (name, n))
            continue;
          names->slots[v].text[0] = '"';
          memcpy (names->slots[v].text + 1, name, n);
          names->slots[v].text[n + 1] = '"';
          names->slots[v].len = (guint) n + 2;
        }
      g_once_init_leave (&names->ready, 1);
    }
  return names->slots;
}

/* value's spelling quoted: from the table when it has one, else through the writer */
static inline char *
cs_report_json_raw_enum (CsJsonWriter *w, char *p, CsQuotedNames *names,
                         const char *(*name_of) (guint value), guint value)
{
  const CsJsonQuoted *slots = cs_report_json_raw_quoted_names (names, name_of);

  if (value < CS_QUOTED_SLOTS && slots[value].len != 0)
    return cs_report_json_raw_quoted (p, &slots[value]);
  return cs_json_raw_string (w, p, name_of (value));
}

static const char *
cs_method_name (guint value)
{
  return cs_sip_method_to_string ((CsSipMethod) value);
}

static const char *
cs_state_name (guint value)
{
  return cs_call_state_to_string ((CsCallState) value);
}

static const char *
cs_kind_name (guint value)
{
  return cs_finding_kind_to_string ((CsFindingKind) value);
}

static const char *
cs_severity_name (guint value)
{
  return cs_severity_to_string ((CsSeverity) value);
}

/* A method name: the table's when it is the constant for a known method (requests and
 * transactions use those), else as written. */
static char *
cs_report_json_raw_method (CsJsonWriter *w, char *p, CsSipMethod method, const char *name)
{
  static CsQuotedNames methods;

  if ((guint) method < CS_SIP_METHOD_COUNT && method != CS_SIP_METHOD_UNKNOWN
      && name == cs_sip_method_to_string (method))
    return cs_report_json_raw_enum (w, p, &methods, cs_method_name, method);
  return cs_json_raw_string (w, p, name);
}

static char *
cs_report_json_raw_state (CsJsonWriter *w, char *p, CsCallState state)
{
  static CsQuotedNames states;

  return cs_report_json_raw_enum (w, p, &states, cs_state_name, state);
}

static char *
cs_report_json_raw_kind (CsJsonWriter *w, char *p, CsFindingKind kind)
{
  static CsQuotedNames kinds;

  return cs_report_json_raw_enum (w, p, &kinds, cs_kind_name, kind);
}

static char *
cs_report_json_raw_severity (CsJsonWriter *w, char *p, CsSeverity severity)
{
  static CsQuotedNames severities;

  return cs_report_json_raw_enum (w, p, &severities, cs_severity_name, severity);
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
