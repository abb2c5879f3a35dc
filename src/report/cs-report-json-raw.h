/* cs-report-json-raw.h — the JSON report's objects written as raw text (pretty report) */
#pragma once

#include "callscope-engine.h"
#include "cs-json-writer.h"

G_BEGIN_DECLS

/* The depth of a call, stream or finding object of the report (inside its '{'): the raw
 * writers apply there, on a pretty writer. */
#define CS_REPORT_JSON_RAW_DEPTH 3

/* The object's fields after its '{' (the caller closes it), as cs-report-json.c's
 * generic functions write them: both expand the lists of cs-report-json-fields.h. */
void cs_report_json_call_raw (CsJsonWriter *w, CsCall *call);
void cs_report_json_stream_raw (CsJsonWriter *w, CsStream *stream, const char *ssrc);
void cs_report_json_finding_raw (CsJsonWriter *w, CsFinding *finding);

/* IPv4 endpoints as "a.b.c.d:port" without inet_ntop and printf; others as
 * cs_endpoint_to_string. */
const char *cs_report_json_endpoint_text (const CsEndpoint *ep, char buf[CS_ENDPOINT_STRLEN]);

/* Generic writers (cs-report-json.c) of the values the raw ones leave, after their keys: a
 * call's DTMF digits (a list) and a stream's RTCP block (an object, or null). */
void cs_report_json_dtmf (CsJsonWriter *w, CsCall *call);
void cs_report_json_rtcp (CsJsonWriter *w, const CsStreamRtcp *r);

G_END_DECLS
