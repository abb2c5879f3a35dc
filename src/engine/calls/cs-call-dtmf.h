/* cs-call-dtmf.h — the DTMF digits of a call: RFC 4733 telephone-events of its streams
 * and SIP INFO bodies (application/dtmf-relay, application/dtmf) of its messages */
#pragma once

#include <glib.h>

#include "cs-call.h"
#include "capture/cs-capture-set.h"

G_BEGIN_DECLS

#define CS_DTMF_SOURCE_RFC4733 "rfc4733"
#define CS_DTMF_SOURCE_SIP_INFO "sip-info"

typedef struct
{
  char digit;         /* '0'..'9', '*', '#', 'A'..'D', '!' flash, '?' other */
  gint64 start_ns;    /* first packet of the event, or the INFO request */
  double duration_ms; /* RFC 4733 duration field / clock rate, or INFO "Duration"; 0 if none */
  const char *source; /* CS_DTMF_SOURCE_* (static) */
  guint stream_id;    /* 0 for SIP INFO */
  GArray *frames;     /* guint32, capture order: every packet of the event, or the INFO */
} CsCallDtmf;

/* Digits of one call, by start time: call_streams are the call's CsStream* (measured);
 * payloads are re-read from set. GArray of CsCallDtmf that frees its frames. */
GArray *cs_call_collect_dtmf (CsCall *call, GPtrArray *call_streams, CsCaptureSet *set);

/* Collects and stores the digits of every call (streams: all streams of the analysis). */
void cs_call_dtmf_attach_all (GPtrArray *calls, GPtrArray *streams, CsCaptureSet *set);

/* The digits stored by cs_call_dtmf_attach_all (); NULL when not computed. */
const GArray *cs_call_get_dtmf (CsCall *call);

G_END_DECLS
