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
  /* Interval edges (absolute ns, increasing) instead of interval_s, e.g. the periods of
   * SIPp's -trace_stat file; NULL for even intervals from the first packet. */
  const GArray *edges_ns;
  guint capacity_window; /* symptom-free intervals a rate must last, default 3 */
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

/* What an operator sees going wrong in an interval (absolute thresholds, README
 * "Load tests"), as flags of CsLoadInterval.symptoms. */
typedef enum
{
  CS_LOAD_SYMPTOM_RETRANSMISSIONS, /* over 1 % of the messages on the wire were resent */
  CS_LOAD_SYMPTOM_SLOW_TRYING,     /* an INVITE's first 1xx came later than 500 ms (or never) */
  CS_LOAD_SYMPTOM_TIMEOUTS,        /* a transaction begun here timed out */
  CS_LOAD_SYMPTOM_SERVER_ERRORS,   /* a 5xx or 408 final response to an INVITE */
  CS_LOAD_SYMPTOM_N,
} CsLoadSymptom;

#define CS_LOAD_RETRANSMISSION_SYMPTOM_SHARE 0.01
#define CS_LOAD_SLOW_TRYING_MS 500.0

const char *cs_load_symptom_key (CsLoadSymptom symptom);   /* "retransmissions", … */
const char *cs_load_symptom_label (CsLoadSymptom symptom); /* "retransmissions over 1 %" */

/* Per-interval response-time curves of the client leg (INVITEs sent in the interval). */
typedef enum
{
  CS_LOAD_CURVE_TRYING,  /* INVITE → first 1xx (the proxy's 100 Trying) */
  CS_LOAD_CURVE_RINGING, /* INVITE → first 18x */
  CS_LOAD_CURVE_ANSWER,  /* INVITE → 2xx (end to end) */
  CS_LOAD_CURVE_N,
} CsLoadCurve;

const char *cs_load_curve_key (CsLoadCurve curve);   /* "invite_100", "invite_180", "invite_200" */
const char *cs_load_curve_label (CsLoadCurve curve); /* "INVITE → 100" */

typedef struct
{
  double p50, p90, p99, p999; /* ms, NAN when none */
} CsLoadCurvePoint;

/* One interval [start_ns, start_ns + interval). Counts are of events that happened in
 * it (a call is "answered" when its 2xx is seen); signals[] are of what began in it. */
typedef struct
{
  gint64 start_ns;
  gint64 end_ns;       /* the next interval's start */
  guint calls_started; /* first INVITE of a call */
  guint answered;
  guint failed; /* 3xx–6xx (not 487 after CANCEL), or no final response by the timeout */
  guint cancelled;
  guint concurrent;     /* peak number of calls in progress */
  guint concurrent_end; /* calls in progress at the interval's end (SIPp's CurrentCall) */
  guint handled;        /* final responses to INVITEs on the server leg (from the UAS side) */
  guint messages;       /* SIP messages on the wire, retransmissions included */
  guint retransmissions;
  guint timeouts;     /* transactions sent here that got no final response in time */
  guint transactions; /* transactions begun here */
  guint64 rtp_packets;
  guint streams_alive;
  GHashTable *messages_by_type;        /* "INVITE" / "200" → count; NULL when none */
  GHashTable *retransmissions_by_type; /* same keys; NULL when none */
  /* the same per leg (a call without a proxy: both hold every retransmission) */
  GHashTable *client_retransmissions_by_type;
  GHashTable *server_retransmissions_by_type;
  guint client_retransmissions, server_retransmissions;
  GHashTable *timeouts_by_type; /* "INVITE" / "BYE" → transactions begun here that timed out */
  guint slow_trying;            /* INVITEs sent here whose first 1xx took > 500 ms, or none */
  guint server_errors;          /* 5xx/408 final responses to INVITEs on the client leg */
  guint symptoms;               /* 1 << CsLoadSymptom */
  CsLoadCurvePoint curves[CS_LOAD_CURVE_N];
  double signals[CS_LOAD_SIGNAL_N];    /* NAN when nothing began in the interval */
  double invite_p50_ms, invite_p90_ms; /* INVITE → final of INVITEs sent here (p99 is a signal) */
} CsLoadInterval;

typedef struct
{
  guint64 calls, answered, failed, cancelled, unfinished;
  guint64 completed;            /* answered and its BYE answered 2xx on the client leg */
  guint64 dropped;              /* answered, but the BYE got no 2xx on the client leg */
  guint64 handled;              /* final responses to INVITEs on the server leg */
  guint64 proxied;              /* calls seen on two legs */
  GHashTable *failed_by_reason; /* "486 Busy Here", "cancelled by the caller" → count */
  GHashTable *client_retransmissions_by_type;
  GHashTable *server_retransmissions_by_type;
  GHashTable *timeouts_by_type;
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
  double offered_cps, handled_cps; /* in that interval */
  guint concurrent;                /* peak calls in progress in it */
  gboolean by_symptoms;            /* found by the symptoms rule (else a statistical departure) */
  gboolean has_symptom;
  CsLoadSymptom first_symptom; /* the first the operator sees there (or just after) */
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
  /* response times per leg (response_times above are the client leg's, as the UAC
   * sees them); forwarding = client-leg INVITE → its copy on the server leg */
  gboolean proxied;
  CsLoadPercentiles server_response_times[CS_LOAD_RT_N];
  CsLoadPercentiles forwarding_ms;
  /* the highest offered rate sustained with no symptom for capacity_window intervals
   * in a row before the breaking point (over the whole run when it never broke) */
  gboolean capacity_found;
  double capacity_cps;
  guint capacity_interval; /* first interval of that window */
  guint capacity_window;
} CsLoadReport;

/* At most this many intervals; a longer capture gets a wider interval. */
#define CS_LOAD_MAX_INTERVALS 200000

/* A pure function of the analysis (no second pass over the capture). config may be
 * NULL for the defaults. */
CsLoadReport *cs_loadtest_compute (CsAnalysis *analysis, const CsLoadConfig *config);
void cs_load_report_free (CsLoadReport *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsLoadReport, cs_load_report_free)

/* Length of interval i in seconds (intervals from SIPp's periods differ a little). */
double cs_load_report_interval_width_s (const CsLoadReport *report, guint i);
/* A per-interval count as a rate: count / width. */
double cs_load_report_rate (const CsLoadReport *report, guint i, guint count);

/* The interval holding ts_ns, or -1 outside the report. */
gint cs_load_report_interval_at (const CsLoadReport *report, gint64 ts_ns);
/* Was the call (an INVITE call) started within [from_ns, to_ns)? For brushing. */
gboolean cs_loadtest_call_started_in (CsCall *call, gint64 from_ns, gint64 to_ns);

/* The rule's thresholds, per signal (see README "Load tests"). */
void cs_load_signal_rule (CsLoadSignal signal, CsLoadDepartureRule *rule);

G_END_DECLS
