/* cs-loadtest.h — load-test statistics over a whole analysis: rates, response times,
 * retransmissions, timeouts per interval, per endpoint, per call flow, breaking point */
#pragma once

#include "loader/cs-analysis.h"
#include "cs-loadtest-series.h"

G_BEGIN_DECLS

typedef struct
{
  double interval_s;            /* default 1 */
  double transaction_timeout_s; /* Timer B/F, default 32 */
} CsLoadConfig;

void cs_load_config_init (CsLoadConfig *config);

/* Response-time families (JSON keys in parentheses). */
typedef enum
{
  CS_LOAD_RT_INVITE_PROVISIONAL, /* INVITE → first 1xx ("invite_provisional") */
  CS_LOAD_RT_INVITE_18X,         /* INVITE → first 18x ("invite_180") */
  CS_LOAD_RT_INVITE_2XX,         /* INVITE → final 2xx ("invite_200") */
  CS_LOAD_RT_INVITE_ERROR,       /* INVITE → final 3xx–6xx ("invite_error") */
  CS_LOAD_RT_BYE_2XX,            /* BYE → 2xx ("bye_200") */
  CS_LOAD_RT_NON_INVITE,         /* any other non-INVITE request → final ("non_invite") */
  CS_LOAD_RT_N,
} CsLoadResponseKind;

const char *cs_load_response_kind_key (CsLoadResponseKind kind);
const char *cs_load_response_kind_label (CsLoadResponseKind kind); /* "INVITE → 200" */

/* Which signal broke. */
typedef enum
{
  CS_LOAD_SIGNAL_RETRANSMISSIONS, /* share of messages first sent then that were resent */
  CS_LOAD_SIGNAL_TIMEOUTS,        /* share of transactions begun then that timed out */
  CS_LOAD_SIGNAL_FAILURES,        /* share of calls started then that failed */
  CS_LOAD_SIGNAL_P99,             /* p99 INVITE → final response of INVITEs sent then, ms */
  CS_LOAD_SIGNAL_N,
} CsLoadSignal;

const char *cs_load_signal_key (CsLoadSignal signal); /* "retransmissions", … "p99" */

/* One interval [start_ns, start_ns + interval). Counts are of events that happened in
 * it (a call is "answered" when its 2xx is seen); signals[] are of what began in it. */
typedef struct
{
  gint64 start_ns;
  guint calls_started; /* first INVITE of a call */
  guint answered;
  guint failed; /* 3xx–6xx (not 487 after CANCEL), or no final response by the timeout */
  guint cancelled;
  guint concurrent; /* peak number of calls in progress */
  guint messages;   /* SIP messages on the wire, retransmissions included */
  guint retransmissions;
  guint timeouts;     /* transactions sent here that got no final response in time */
  guint transactions; /* transactions begun here */
  guint64 rtp_packets;
  guint streams_alive;
  GHashTable *messages_by_type;        /* "INVITE" / "200" → count; NULL when none */
  GHashTable *retransmissions_by_type; /* same keys; NULL when none */
  double signals[CS_LOAD_SIGNAL_N];    /* NAN when nothing began in the interval */
  double invite_p50_ms, invite_p90_ms; /* INVITE → final of INVITEs sent here (p99 is a signal) */
} CsLoadInterval;

typedef struct
{
  guint64 calls, answered, failed, cancelled, unfinished;
  guint64 messages, retransmissions, timeouts, transactions, rtp_packets;
  GHashTable *failed_by_code;          /* GUINT_TO_POINTER (code) → count */
  GHashTable *messages_by_type;        /* char* → count */
  GHashTable *retransmissions_by_type; /* char* → count */
  guint peak_concurrent;
} CsLoadTotals;

/* Requests sent to one endpoint (UAS or proxy) and how it answered. */
typedef struct
{
  CsEndpoint endpoint;
  guint64 requests; /* transactions */
  guint64 answered; /* final 2xx */
  guint64 failed;   /* final 3xx–6xx */
  guint64 timeouts;
  guint64 retransmissions;    /* of requests sent to it */
  CsLoadPercentiles final_ms; /* request → final response */
} CsLoadEndpoint;

/* Calls whose messages (retransmissions left out) followed the same sequence. */
typedef struct
{
  char *pattern; /* "INVITE 100 180 200 ACK BYE 200" */
  guint64 calls, answered, failed;
  CsLoadPercentiles setup_ms; /* INVITE → 2xx */
} CsLoadPattern;

typedef struct
{
  gboolean found;
  CsLoadSignal signal;
  guint interval;
  gint64 time_ns;  /* start of that interval */
  double offset_s; /* from the start of the capture */
  char *reason;    /* one sentence with the evidence */
  CsLoadDeparture departure;
  gboolean signal_departed[CS_LOAD_SIGNAL_N]; /* every signal's own verdict */
  CsLoadDeparture signal_departure[CS_LOAD_SIGNAL_N];
} CsLoadBreakingPoint;

typedef struct
{
  double interval_s;
  double transaction_timeout_s;
  gint64 origin_ns;  /* start of interval 0: the first packet */
  gint64 end_ns;     /* last packet */
  GArray *intervals; /* CsLoadInterval */
  CsLoadTotals totals;
  CsLoadPercentiles response_times[CS_LOAD_RT_N];
  GPtrArray *endpoints; /* CsLoadEndpoint*, by requests, most first */
  GPtrArray *patterns;  /* CsLoadPattern*, by calls, most first */
  CsLoadBreakingPoint breaking_point;
} CsLoadReport;

/* At most this many intervals; a longer capture gets a wider interval. */
#define CS_LOAD_MAX_INTERVALS 200000

/* A pure function of the analysis (no second pass over the capture). config may be
 * NULL for the defaults. */
CsLoadReport *cs_loadtest_compute (CsAnalysis *analysis, const CsLoadConfig *config);
void cs_load_report_free (CsLoadReport *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsLoadReport, cs_load_report_free)

/* The interval holding ts_ns, or -1 outside the report. */
gint cs_load_report_interval_at (const CsLoadReport *report, gint64 ts_ns);
/* Was the call (an INVITE call) started within [from_ns, to_ns)? For brushing. */
gboolean cs_loadtest_call_started_in (CsCall *call, gint64 from_ns, gint64 to_ns);

/* The rule's thresholds, per signal (see README "Load tests"). */
void cs_load_signal_rule (CsLoadSignal signal, CsLoadDepartureRule *rule);

G_END_DECLS
