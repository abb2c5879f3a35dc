/* gen-expect.h — the ground truth a scenario records while it builds packets */
#pragma once

#include "base/cs-addr.h"

#include <glib.h>

G_BEGIN_DECLS

struct _GenCapture;

typedef struct
{
  char *call_id;
  char *from_user;
  char *to_user;
  char *from_tag;
  const char *state;  /* completed, cancelled, rejected, failed, in-call, setup, ringing */
  guint final_status; /* 0 = none */
  guint messages;
  guint retransmissions;
  /* wire times of the initial INVITE, its first 180/183, its first 2xx and the first BYE
   * (-1 = none): the call's PDD, setup, ring and talk times (DESIGN: calls) */
  gint64 invite_ns, provisional_ns, answer_ns, bye_ns;
  guint sightings; /* copies of a transmission captured again (written when not 0) */
} GenExpectCall;

typedef struct
{
  char *method;
  char *call_id;
  guint final_status; /* 0 = none */
  guint messages;
  guint retransmissions;
} GenExpectNonInvite;

typedef struct
{
  guint32 ssrc;
  CsEndpoint src;
  CsEndpoint dst;
  guint8 payload_type;
  gboolean associated;
  guint packets;
  guint duplicates;
  gboolean have_first;
  gint64 first_index; /* logical (unwrapped) sequence of the first arrival */
  gint64 max_index;
  const char *protection; /* "clear" (default), "decrypted", "encrypted", "key-failed" */
  const char *srtp_suite; /* the suite that decrypts it, or NULL */
  char srtp_key[80];      /* "inline:BASE64" the sender really used ("" for RTP) */
} GenExpectStream;

typedef struct
{
  char digit;
  const char *source; /* "rfc4733" or "sip-info" */
  GArray *packet_ids; /* guint; turned into frame numbers when written */
} GenExpectDtmf;

/* A finding callscope must report: kind and severity as the report names them, the call and
 * stream it is about (NULL: none), and exactly its frames. */
typedef struct
{
  const char *kind;     /* "slow-pdd", "loss-burst", … */
  const char *severity; /* "info", "warning", "error" */
  GenExpectCall *call;
  GenExpectNonInvite *exchange; /* instead of call: a REGISTER, OPTIONS, MESSAGE… */
  GenExpectStream *stream;
  GArray *packet_ids; /* guint; turned into frame numbers when written */
} GenExpectFinding;
/* Two calls that are legs of one another, and the evidence the scenario put on the wire. */
typedef struct
{
  GenExpectCall *a, *b;
  const char *reason; /* cs-call-legs.h's spelling: "correlation-header", "media", … */
} GenExpectLeg;

struct _GenExpect
{
  guint sip_messages;
  GHashTable *methods;  /* char* -> count */
  GHashTable *statuses; /* char* code -> count */
  GPtrArray *calls;
  GPtrArray *non_invite;
  GPtrArray *streams;
  GPtrArray *dtmf;
  /* TRUE when the scenario lists every finding it must produce (none when empty) */
  gboolean findings_known;
  GPtrArray *findings;
  const char *limits; /* CS_LIMITS the capture is read with (NULL: the defaults) */
  GPtrArray *legs;    /* GenExpectLeg; written only when there is one */
};
typedef struct _GenExpect GenExpect;

GenExpect *gen_expect_new (void);
void gen_expect_free (GenExpect *expect);
/* Counts one SIP message on the wire (its start line says request or response). */
void gen_expect_sip_message (GenExpect *expect, const char *text);
GenExpectCall *gen_expect_add_call (GenExpect *expect, const char *call_id, const char *from_user,
                                    const char *to_user, const char *from_tag);
GenExpectNonInvite *gen_expect_add_non_invite (GenExpect *expect, const char *method,
                                               const char *call_id);
GenExpectStream *gen_expect_add_stream (GenExpect *expect, guint32 ssrc, const CsEndpoint *src,
                                        const CsEndpoint *dst, guint8 payload_type,
                                        gboolean associated);
/* One packet of a stream arrived (in capture order). */
void gen_expect_stream_packet (GenExpectStream *stream, gint64 index, gboolean duplicate);
GenExpectDtmf *gen_expect_add_dtmf (GenExpect *expect, char digit, const char *source);
/* A response to the call's initial INVITE sent at time_ns: its first final status and
 * the times of its first 180/183 and first 2xx. */
void gen_expect_call_response (GenExpectCall *call, gint64 time_ns, guint status);

/* The scenario lists its findings: exactly these (none unless added). */
void gen_expect_findings_known (GenExpect *expect);
/* One finding; implies gen_expect_findings_known. Add frames with gen_expect_finding_frame. */
GenExpectFinding *gen_expect_add_finding (GenExpect *expect, const char *kind, const char *severity,
                                          GenExpectCall *call, GenExpectStream *stream);
void gen_expect_finding_frame (GenExpectFinding *finding, guint packet_id);
void gen_expect_add_leg (GenExpect *expect, GenExpectCall *a, GenExpectCall *b, const char *reason);

/* The JSON document; frame numbers come from the written capture. */
char *gen_expect_to_json (GenExpect *expect, const char *scenario, struct _GenCapture *cap);

G_END_DECLS
