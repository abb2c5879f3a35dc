/* cs-call-legs.h — which calls are legs of one another, and the evidence that says so
 *
 * Two INVITE dialogs are joined only by evidence a SIP engineer accepts, each link naming
 * its own: the same Call-ID on another hop at the same time; a correlation header (X-Call-ID,
 * X-CID, X-Orig-Call-ID, any "…-Call-ID") naming the other's Call-ID; Replaces naming it (in
 * an INVITE, or in a REFER's Refer-To); an INVITE with Referred-By to the target of a REFER
 * of the other call, sent soon after it; Diversion or History-Info naming the other's callee
 * while the other was being set up, from the same caller; or one RTP SSRC carried on a
 * stream of each leg (different flows: a media relay) at the same time. A media port or
 * address that calls announce in their SDP is no evidence: SIPp announces the same ports
 * for every call. */
#pragma once

#include "cs-call.h"

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum
{
  CS_LEG_REASON_CORRELATION_HEADER, /* "correlation-header" */
  CS_LEG_REASON_REPLACES,           /* "replaces" */
  CS_LEG_REASON_REFER,              /* "refer" */
  CS_LEG_REASON_SAME_CALL_ID,       /* "same-call-id" */
  CS_LEG_REASON_DIVERSION,          /* "diversion" (Diversion or History-Info) */
  CS_LEG_REASON_MEDIA,              /* "media": one SSRC relayed on both legs */
} CsLegReason;

const char *cs_leg_reason_to_string (CsLegReason reason);

/* One link between two calls. */
typedef struct
{
  guint call_a, call_b; /* call numbers, call_a < call_b */
  CsLegReason reason;
  guint32 frame;  /* the frame that carries the evidence (0 for media) */
  char *evidence; /* "X-Call-ID: abc@10.0.0.1 names call 1's Call-ID" */
} CsCallLink;

void cs_call_link_free (CsCallLink *link);

/* Every link among calls (GListModel of CsCall), with streams (GListModel of CsStream; NULL:
 * no media evidence). One link per pair of calls, the first reason of the list above that
 * holds; sorted by call_a, then call_b. Returns CsCallLink* (owned by the array). */
GPtrArray *cs_call_links_find (GListModel *calls, GListModel *streams);

/* The legs of call_number: the calls reached from it through links, one after another
 * (a chain A–B–C gives B and C), each with the link that brought it in; in order of call
 * number. Returns const CsCallLink* borrowed from links; leg numbers in *legs (guint). */
GPtrArray *cs_call_links_legs_of (const GPtrArray *links, guint call_number, GArray *legs);

G_END_DECLS
