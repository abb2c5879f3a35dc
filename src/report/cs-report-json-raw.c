/* cs-report-json-raw.c — the JSON report's calls, streams and findings as raw text
 *
 * The pretty report writes hundreds of thousands of objects of one shape at one depth:
 * their keys, separators and indentation are literals here, values are copied straight
 * into the writer's buffer, and only what needs escaping (or is longer than the buffer)
 * goes through the generic writer. The text is byte for byte what the generic functions
 * of cs-report-json.c write (tests/unit/test-report-json.c compares them). */
#include "cs-report-json-raw.h"

#include "callscope-engine.h"
#include "cs-report-json-fields.h"
#include "cs-time-format.h"

#include <math.h>
#include <string.h>

/* Keys of an object at depth 3 of the report (a call, stream or finding) and at depth 5 (a
 * call's transaction), with their separators and indentation; the first key of an object
 * has no separator. */
#define CS_RAW_KEY_3(name) ",\n      \"" name "\": "
#define CS_RAW_FIRST_KEY_3(name) "\n      \"" name "\": "
#define CS_RAW_KEY_5(name) ",\n          \"" name "\": "
#define CS_RAW_FIRST_KEY_5(name) "\n          \"" name "\": "

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

/* The quoted names of each enum the schema writes (CS_RAW_ENUM's tables). */
static CsQuotedNames cs_report_json_state_name_quoted, cs_report_json_kind_name_quoted,
    cs_report_json_severity_name_quoted;

static char *
cs_report_json_raw_int (char *p, gint64 value)
{
  if (value < 0)
    *p++ = '-';
  /* the magnitude of G_MININT64 does not fit a gint64: negate in unsigned */
  return cs_report_json_raw_uint (p, value < 0 ? 0 - (guint64) value : (guint64) value);
}

static char *
cs_report_json_raw_time (CsJsonWriter *w, char *p, gint64 ns)
{
  char text[CS_TIME_ISO_BUF_SIZE];

  return cs_json_raw_string_len (w, p, text, cs_time_format_iso_into (ns, text));
}

static char *
cs_report_json_raw_endpoint (CsJsonWriter *w, char *p, const CsEndpoint *ep)
{
  char text[CS_ENDPOINT_STRLEN];

  return cs_json_raw_string (w, p, cs_report_json_endpoint_text (ep, text));
}

static char *
cs_report_json_raw_uints (CsJsonWriter *w, char *p, const GArray *values)
{
  if (values == NULL || values->len == 0)
    return CS_JSON_RAW_LITERAL (p, "[]");
  return cs_report_json_raw_numbers (w, p, (const guint32 *) values->data, values->len);
}

static char *cs_report_json_raw_transactions (CsJsonWriter *w, char *p, CsCall *call);

/* A value the generic writer writes after a raw key (an empty one as the literal it gives):
 * the raw text goes on after it. */
static char *
cs_report_json_raw_dtmf (CsJsonWriter *w, char *p, CsCall *call)
{
  const GArray *digits = cs_call_get_dtmf (call);

  if (digits == NULL || digits->len == 0)
    return CS_JSON_RAW_LITERAL (p, "[]");
  cs_json_raw_end_key (w, p);
  cs_report_json_dtmf (w, call);
  return cs_json_raw_begin (w);
}

static char *
cs_report_json_raw_rtcp (CsJsonWriter *w, char *p, const CsStreamRtcp *rtcp)
{
  if (rtcp == NULL)
    return CS_JSON_RAW_LITERAL (p, "null");
  cs_json_raw_end_key (w, p);
  cs_report_json_rtcp (w, rtcp);
  return cs_json_raw_begin (w);
}

/* One field of a CS_REPORT_JSON_*_FIELDS list as raw text (cs-report-json-fields.h lists
 * the kinds), at depth 3 or 5. */
#define CS_RAW_FIELD_AT(literal, KIND, ...)                                                        \
  if (CS_REPORT_JSON_WRITES_##KIND (__VA_ARGS__))                                                  \
    {                                                                                              \
      p = CS_JSON_RAW_LITERAL (p, literal);                                                        \
      p = CS_RAW_##KIND (w, p, __VA_ARGS__);                                                       \
    }
#define CS_RAW_FIRST_3(KIND, key, ...) CS_RAW_FIELD_AT (CS_RAW_FIRST_KEY_3 (key), KIND, __VA_ARGS__)
#define CS_RAW_FIELD_3(KIND, key, ...) CS_RAW_FIELD_AT (CS_RAW_KEY_3 (key), KIND, __VA_ARGS__)
#define CS_RAW_FIRST_5(KIND, key, ...) CS_RAW_FIELD_AT (CS_RAW_FIRST_KEY_5 (key), KIND, __VA_ARGS__)
#define CS_RAW_FIELD_5(KIND, key, ...) CS_RAW_FIELD_AT (CS_RAW_KEY_5 (key), KIND, __VA_ARGS__)
#define CS_RAW_UINT(w, p, value) cs_report_json_raw_uint (p, value)
#define CS_RAW_INT(w, p, value) cs_report_json_raw_int (p, value)
#define CS_RAW_STRING(w, p, value) cs_json_raw_string (w, p, value)
#define CS_RAW_BOOL(w, p, value)                                                                   \
  ((value) ? CS_JSON_RAW_LITERAL (p, "true") : CS_JSON_RAW_LITERAL (p, "false"))
#define CS_RAW_DOUBLE(w, p, value, decimals) cs_report_json_raw_double (p, value, decimals)
#define CS_RAW_OPTIONAL(w, p, value, decimals) cs_report_json_raw_optional_ms (p, value, decimals)
#define CS_RAW_IF_ANY(w, p, value) cs_report_json_raw_uint (p, value)
#define CS_RAW_NONZERO(w, p, value) cs_report_json_raw_status (p, value)
#define CS_RAW_UINT_IF(w, p, present, value)                                                       \
  ((present) ? cs_report_json_raw_uint (p, value) : CS_JSON_RAW_LITERAL (p, "null"))
#define CS_RAW_TIME(w, p, ns) cs_report_json_raw_time (w, p, ns)
#define CS_RAW_ENDPOINT(w, p, ep) cs_report_json_raw_endpoint (w, p, ep)
#define CS_RAW_UINTS(w, p, values) cs_report_json_raw_uints (w, p, values)
#define CS_RAW_METHOD(w, p, method, name) cs_report_json_raw_method (w, p, method, name)
#define CS_RAW_ENUM(w, p, value, name_of)                                                          \
  cs_report_json_raw_enum (w, p, &name_of##_quoted, name_of, value)
#define CS_RAW_TRANSACTIONS(w, p, call) cs_report_json_raw_transactions (w, p, call)
#define CS_RAW_DTMF(w, p, call) cs_report_json_raw_dtmf (w, p, call)
#define CS_RAW_RTCP(w, p, rtcp) cs_report_json_raw_rtcp (w, p, rtcp)

static char *
cs_report_json_raw_transactions (CsJsonWriter *w, char *p, CsCall *call)
{
  guint n = cs_call_get_n_transactions (call);

  if (n == 0)
    return CS_JSON_RAW_LITERAL (p, "[]");
  *p++ = '[';
  for (guint i = 0; i < n; i++)
    {
      const CsTransaction *t = cs_call_get_transaction (call, i);

      p = cs_json_raw_ensure (w, p, 0);
      if (i > 0)
        *p++ = ',';
      p = CS_JSON_RAW_LITERAL (p, "\n        {");
      CS_REPORT_JSON_TRANSACTION_FIELDS (CS_RAW_FIRST_5, CS_RAW_FIELD_5)
      p = CS_JSON_RAW_LITERAL (p, "\n        }");
    }
  return CS_JSON_RAW_LITERAL (p, "\n      ]");
}

/* The call's fields as cs-report-json.c writes them, as raw text: after its '{' at depth
 * CS_REPORT_JSON_RAW_DEPTH of a pretty writer. */
void
cs_report_json_call_raw (CsJsonWriter *w, CsCall *call)
{
  char *p = cs_json_raw_begin (w);

  CS_REPORT_JSON_CALL_FIELDS (CS_RAW_FIRST_3, CS_RAW_FIELD_3)
  cs_json_raw_end (w, p);
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

/* The stream's fields as cs-report-json.c writes them, as raw text (after its '{' at depth
 * CS_REPORT_JSON_RAW_DEPTH of a pretty writer, like a call's). */
void
cs_report_json_stream_raw (CsJsonWriter *w, CsStream *stream, const char *ssrc)
{
  const CsRtpStats *st = cs_stream_get_stats (stream);
  const CsMos *mos = cs_stream_get_mos (stream);
  char *p = cs_json_raw_begin (w);

  CS_REPORT_JSON_STREAM_FIELDS (CS_RAW_FIRST_3, CS_RAW_FIELD_3)
  cs_json_raw_end (w, p);
}

/* The finding's fields as cs-report-json.c writes them, as raw text (after its '{' at depth
 * CS_REPORT_JSON_RAW_DEPTH of a pretty writer, like a call's). */
void
cs_report_json_finding_raw (CsJsonWriter *w, CsFinding *finding)
{
  char *p = cs_json_raw_begin (w);

  CS_REPORT_JSON_FINDING_FIELDS (CS_RAW_FIRST_3, CS_RAW_FIELD_3)
  cs_json_raw_end (w, p);
}
