/* gen-expect.h — the ground truth a scenario records while it builds packets */
#pragma once

#include "base/cs-addr.h"

#include <glib.h>

G_BEGIN_DECLS

struct _GenCapture;

/* One SIP message of a call as it went on the wire: what it was and its packet id (the last
 * packet carrying it), so that findings can name the frames that show them. */
typedef struct
{
  guint packet;
  guint status;     /* 0: a request */
  char method[16];  /* the request's, or the CSeq method a response answers */
  int side;         /* GenSide that sent it */
  gboolean copy;    /* a retransmission of that side's previous message */
  gboolean initial; /* the initial INVITE or a response to it */
} GenExpectMessage;

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
  GArray *wire;    /* GenExpectMessage, in the order sent */
} GenExpectCall;

typedef struct
{
  char *method;
  char *call_id;
  guint final_status; /* 0 = none */
  guint messages;
  guint retransmissions;
  gint64 request_ns, first_response_ns; /* first transmission, first response (-1: none) */
  const char *state; /* the exchange's state when the scenario names it, else NULL */
} GenExpectNonInvite;

/* One RTP packet of a stream: its packet id and unwrapped sequence offset. */
typedef struct
{
  guint packet;
  gint64 index;
  gboolean duplicate;
} GenExpectArrival;

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
  GArray *arrivals;       /* GenExpectArrival, in the order sent */
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
  /* callscope reports this finding, the generator's truth says it should not (why): the
   * golden test accepts it and says so (TODO), so that it is reported rather than encoded */
  const char *disputed;
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
  /* every scenario lists every finding it must produce (none when empty): TRUE from the
   * start, so "findings" is always written */
  gboolean findings_known;
  GPtrArray *findings;
  const char *limits; /* CS_LIMITS the capture is read with (NULL: the defaults) */
  guint frames_cut;   /* last frames damaged (GenCapture.truncate_bytes): not read */
  int exit_status;    /* of callscope-cli report (3: damaged input) */
  GPtrArray *legs;    /* GenExpectLeg; written only when there is one */
  char *keylog;       /* the NSS key log the capture is read with (NULL: none) */
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
/* One packet of a stream arrived (in capture order) as packet id packet. */
void gen_expect_stream_packet (GenExpectStream *stream, guint packet, gint64 index,
                               gboolean duplicate);
/* One SIP message of the call went out as packet id packet. */
void gen_expect_call_message (GenExpectCall *call, guint packet, const GenExpectMessage *message);
/* The call's i-th original (not retransmitted) message with this method (NULL: any) and status
 * (0: a request); its packet id, or G_MAXUINT when there is none. */
guint gen_expect_call_packet (const GenExpectCall *call, const char *method, guint status,
                              guint nth);
/* The i-th call of the scenario, in the order the INVITEs went out; the i-th stream, in the
 * order they started. */
GenExpectCall *gen_expect_call (GenExpect *expect, guint i);
GenExpectStream *gen_expect_stream (GenExpect *expect, guint i);
GenExpectDtmf *gen_expect_add_dtmf (GenExpect *expect, char digit, const char *source);
/* A response to the call's initial INVITE sent at time_ns: its first final status and
 * the times of its first 180/183 and first 2xx. */
void gen_expect_call_response (GenExpectCall *call, gint64 time_ns, guint status);

/* Every scenario lists its findings: exactly those it adds (none unless it adds some). Kept
 * for the scenarios that say so explicitly. */
void gen_expect_findings_known (GenExpect *expect);
/* One finding; implies gen_expect_findings_known. Add frames with gen_expect_finding_frame. */
GenExpectFinding *gen_expect_add_finding (GenExpect *expect, const char *kind, const char *severity,
                                          GenExpectCall *call, GenExpectStream *stream);
void gen_expect_finding_frame (GenExpectFinding *finding, guint packet_id);
/* Frames for a finding about a call's messages: every message of method (NULL: any) and
 * status (0: requests), originals and, when copies, their retransmissions; or only the
 * retransmitted copies (retransmissions findings). */
void gen_expect_finding_messages (GenExpectFinding *finding, const GenExpectCall *call,
                                  const char *method, guint status, gboolean copies);
void gen_expect_finding_copies (GenExpectFinding *finding, const GenExpectCall *call);
/* A finding about call, shown by its messages of method and status (with their copies). */
GenExpectFinding *gen_expect_call_finding (GenExpect *expect, const char *kind,
                                           const char *severity, GenExpectCall *call,
                                           const char *method, guint status);
/* Frames for a finding about a stream: its first or last packet, the packet after every gap
 * (at most max), the duplicated and reordered packets. */
guint gen_expect_stream_first (const GenExpectStream *stream);
guint gen_expect_stream_last (const GenExpectStream *stream);
guint gen_expect_stream_nth (const GenExpectStream *stream, guint n);
/* The call's first and last message on the wire (its messages go out in time order). */
guint gen_expect_call_first (const GenExpectCall *call);
guint gen_expect_call_last (const GenExpectCall *call);
void gen_expect_finding_after_gaps (GenExpectFinding *finding, const GenExpectStream *stream,
                                    guint max);
void gen_expect_finding_disordered (GenExpectFinding *finding, const GenExpectStream *stream);
/* The capture is read with this key log text (callscope-cli --keylog). */
void gen_expect_set_keylog (GenExpect *expect, const char *text);
void gen_expect_add_leg (GenExpect *expect, GenExpectCall *a, GenExpectCall *b, const char *reason);

/* The JSON document; frame numbers come from the written capture. */
char *gen_expect_to_json (GenExpect *expect, const char *scenario, struct _GenCapture *cap);

G_END_DECLS
