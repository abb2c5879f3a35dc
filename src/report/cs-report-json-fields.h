/* cs-report-json-fields.h — the JSON report's schema, once: every object's fields in order,
 * each with its kind, its key and how its value is read. The writer of any depth
 * (cs-report-json.c) and the raw text of the pretty report's usual depth
 * (cs-report-json-raw.c) both expand these lists, so they cannot disagree on a key, its
 * place or its value's rules (tests/unit/report/test-report-json.c compares their bytes).
 *
 * A list is CS_REPORT_JSON_x_FIELDS (FIRST, F): FIRST (KIND, "key", value…) for the first
 * field, F (…) for the others, in the scope of the object's variable (call, t, stream,
 * finding; for a stream also st, mos and ssrc). Kinds and their values:
 *   UINT (n), INT (n), STRING (text or NULL), BOOL (b), DOUBLE (x, decimals),
 *   OPTIONAL (x, decimals): null when negative (not measured),
 *   NONZERO (n): null when 0, UINT_IF (present, n): null unless present,
 *   IF_ANY (n): the key and n only when n > 0 (absent otherwise, so reports without it keep
 *   their bytes),
 *   TIME (ns): ISO 8601 text, ENDPOINT (const CsEndpoint *), UINTS (GArray of guint32),
 *   METHOD (CsSipMethod, name as written), ENUM (value, name_of: value's spelling),
 *   TRANSACTIONS (call), DTMF (call), RTCP (const CsStreamRtcp * or NULL). */
#pragma once

#include "callscope-engine.h"

G_BEGIN_DECLS

/* The spellings of the enums the report writes, as functions of a guint (the raw writer
 * keeps a table of each one's quoted names). */
static inline const char *
cs_report_json_state_name (guint value)
{
  return cs_call_state_to_string ((CsCallState) value);
}

static inline const char *
cs_report_json_kind_name (guint value)
{
  return cs_finding_kind_to_string ((CsFindingKind) value);
}

static inline const char *
cs_report_json_severity_name (guint value)
{
  return cs_severity_to_string ((CsSeverity) value);
}

/* The suite that decrypted an SRTP stream; NULL for any other stream. */
static inline const char *
cs_report_json_srtp_suite (CsStream *stream)
{
  const CsStreamSrtp *srtp = cs_stream_get_srtp (stream);

  return srtp != NULL && srtp->protection == CS_STREAM_DECRYPTED
             ? cs_srtp_suite_to_string (srtp->suite)
             : NULL;
}

/* Whether a field of a kind is written at all: every kind always, IF_ANY only when its count
 * is not zero. */
#define CS_REPORT_JSON_WRITES_UINT(...) TRUE
#define CS_REPORT_JSON_WRITES_INT(...) TRUE
#define CS_REPORT_JSON_WRITES_STRING(...) TRUE
#define CS_REPORT_JSON_WRITES_BOOL(...) TRUE
#define CS_REPORT_JSON_WRITES_DOUBLE(...) TRUE
#define CS_REPORT_JSON_WRITES_OPTIONAL(...) TRUE
#define CS_REPORT_JSON_WRITES_NONZERO(...) TRUE
#define CS_REPORT_JSON_WRITES_UINT_IF(...) TRUE
#define CS_REPORT_JSON_WRITES_TIME(...) TRUE
#define CS_REPORT_JSON_WRITES_ENDPOINT(...) TRUE
#define CS_REPORT_JSON_WRITES_UINTS(...) TRUE
#define CS_REPORT_JSON_WRITES_METHOD(...) TRUE
#define CS_REPORT_JSON_WRITES_ENUM(...) TRUE
#define CS_REPORT_JSON_WRITES_TRANSACTIONS(...) TRUE
#define CS_REPORT_JSON_WRITES_DTMF(...) TRUE
#define CS_REPORT_JSON_WRITES_RTCP(...) TRUE
#define CS_REPORT_JSON_WRITES_IF_ANY(n) ((n) != 0)

#define CS_REPORT_JSON_CALL_FIELDS(FIRST, F)                                                       \
  FIRST (UINT, "id", cs_call_get_number (call))                                                    \
  F (STRING, "call_id", cs_call_get_call_id (call))                                                \
  F (METHOD, "method", cs_call_get_method (call), cs_call_get_method_name (call))                  \
  F (STRING, "from", cs_call_get_from (call))                                                      \
  F (STRING, "to", cs_call_get_to (call))                                                          \
  F (ENUM, "state", cs_call_get_state (call), cs_report_json_state_name)                           \
  F (NONZERO, "final_status", cs_call_get_final_status (call))                                     \
  F (STRING, "final_reason", cs_call_get_final_reason (call))                                      \
  F (TIME, "start", cs_call_get_start_ns (call))                                                   \
  F (OPTIONAL, "pdd_ms", cs_call_get_pdd_ms (call), 3)                                             \
  F (OPTIONAL, "setup_ms", cs_call_get_setup_ms (call), 3)                                         \
  F (OPTIONAL, "ring_ms", cs_call_get_ring_ms (call), 3)                                           \
  F (OPTIONAL, "duration_s", cs_call_get_duration_s (call), 3)                                     \
  F (UINT, "messages", cs_call_get_n_messages (call))                                              \
  F (UINT, "retransmissions", cs_call_get_retransmissions (call))                                  \
  F (IF_ANY, "sightings", cs_call_get_sightings (call))                                            \
  F (UINT, "first_frame", cs_call_get_first_frame (call))                                          \
  F (STRING, "user_agent", cs_call_get_user_agent (call))                                          \
  F (UINTS, "streams", cs_call_get_stream_ids (call))                                              \
  F (OPTIONAL, "mos", cs_call_get_mos (call), 2)                                                   \
  F (UINT, "findings", cs_call_get_n_findings (call))                                              \
  F (TRANSACTIONS, "transactions", call)                                                           \
  F (DTMF, "dtmf", call)

#define CS_REPORT_JSON_TRANSACTION_FIELDS(FIRST, F)                                                \
  FIRST (METHOD, "method", t->method, t->method_name)                                              \
  F (UINT, "cseq", t->cseq)                                                                        \
  F (UINT, "request_frame", t->request_frame)                                                      \
  F (UINT, "transmissions", t->transmissions)                                                      \
  F (NONZERO, "final_status", t->final_status)                                                     \
  F (OPTIONAL, "first_response_ms", cs_transaction_first_response_ms (t), 3)                       \
  F (OPTIONAL, "final_response_ms", cs_transaction_final_response_ms (t), 3)

#define CS_REPORT_JSON_STREAM_FIELDS(FIRST, F)                                                     \
  FIRST (UINT, "id", cs_stream_get_id (stream))                                                    \
  F (UINT_IF, "call", cs_stream_is_associated (stream), cs_stream_get_call_number (stream))        \
  F (STRING, "ssrc", ssrc)                                                                         \
  F (ENDPOINT, "src", cs_stream_get_src (stream))                                                  \
  F (ENDPOINT, "dst", cs_stream_get_dst (stream))                                                  \
  F (UINT, "payload_type", st->payload_type)                                                       \
  F (STRING, "codec", cs_stream_get_codec (stream))                                                \
  F (UINT, "clock_rate", st->clock_rate)                                                           \
  F (BOOL, "associated", cs_stream_is_associated (stream))                                         \
  F (UINT, "packets", st->packets)                                                                 \
  F (UINT, "expected", st->expected)                                                               \
  F (INT, "lost", st->lost)                                                                        \
  F (UINT, "duplicates", st->duplicates)                                                           \
  F (UINT, "out_of_order", st->out_of_order)                                                       \
  F (UINT, "sequence_errors", st->sequence_errors)                                                 \
  F (DOUBLE, "min_delta_ms", st->min_delta_ms, 3)                                                  \
  F (DOUBLE, "mean_delta_ms", st->mean_delta_ms, 3)                                                \
  F (DOUBLE, "max_delta_ms", st->max_delta_ms, 3)                                                  \
  F (UINT, "max_delta_frame", st->max_delta_frame)                                                 \
  F (DOUBLE, "min_jitter_ms", st->min_jitter_ms, 3)                                                \
  F (DOUBLE, "mean_jitter_ms", st->mean_jitter_ms, 3)                                              \
  F (DOUBLE, "max_jitter_ms", st->max_jitter_ms, 3)                                                \
  F (DOUBLE, "max_skew_ms", st->max_skew_ms, 3)                                                    \
  F (DOUBLE, "mean_bitrate_kbps", st->mean_bitrate_kbps, 3)                                        \
  F (OPTIONAL, "r_factor", mos->r, 2)                                                              \
  F (OPTIONAL, "mos", mos->mos, 2)                                                                 \
  F (UINT, "first_frame", st->first_frame)                                                         \
  F (UINT, "last_frame", st->last_frame)                                                           \
  F (TIME, "start", st->first_ns)                                                                  \
  F (TIME, "end", st->last_ns)                                                                     \
  F (RTCP, "rtcp", cs_stream_get_rtcp (stream))                                                    \
  F (STRING, "protection", cs_stream_protection_to_string (cs_stream_get_protection (stream)))     \
  F (STRING, "srtp_suite", cs_report_json_srtp_suite (stream))

#define CS_REPORT_JSON_FINDING_FIELDS(FIRST, F)                                                    \
  FIRST (ENUM, "kind", cs_finding_get_kind (finding), cs_report_json_kind_name)                    \
  F (ENUM, "severity", cs_finding_get_severity (finding), cs_report_json_severity_name)            \
  F (NONZERO, "call", cs_finding_get_call_number (finding))                                        \
  F (NONZERO, "stream", cs_finding_get_stream_id (finding))                                        \
  F (UINTS, "frames", cs_finding_get_frames (finding))                                             \
  F (STRING, "text", cs_finding_get_text (finding))

G_END_DECLS
