/* cs-loadtest-private.h — state shared by the load-test passes over the analysis */
#pragma once

#include "calls/cs-call.h"
#include "cs-loadtest-legs.h"
#include "cs-loadtest.h"

G_BEGIN_DECLS

/* One SIP transaction as the load statistics need it (requests matched to responses
 * the way cs-transaction.c does, plus endpoints and the first 18x). */
typedef struct
{
  CsSipMethod method;
  guint32 cseq;
  guint legs; /* CS_LOAD_LEG_* of the request */
  gboolean from_client;
  gint64 request_ns;
  CsEndpoint server; /* where the request went */
  guint transmissions;
  gint64 provisional_ns; /* first 1xx, -1 when none */
  gint64 ringing_ns;     /* first 18x, -1 when none */
  gint64 final_ns;       /* -1 when none */
  guint final_status;
} CsLoadTransaction;

/* Per-interval scratch that does not end up in CsLoadInterval. */
typedef struct
{
  guint originals;                            /* first copies of messages sent in the interval */
  guint resent;                               /* retransmissions of those */
  guint calls_failed;                         /* of the calls started in the interval */
  GArray *invite_final_ms;                    /* double, INVITEs sent in the interval */
  GArray *curve_ms[CS_LOAD_CURVE_N];          /* double, client-leg INVITEs sent in the interval */
  gint64 symptom_first_ns[CS_LOAD_SYMPTOM_N]; /* when each symptom first showed here */
} CsLoadScratch;

typedef struct
{
  const CsLoadConfig *config;
  CsLoadReport *report;
  gint64 interval_ns;
  gint64 timeout_ns;
  CsLoadScratch *scratch;                   /* one per interval */
  GArray *response_ms[CS_LOAD_RT_N];        /* client leg */
  GArray *server_response_ms[CS_LOAD_RT_N]; /* server leg */
  GArray *forwarding_ms;
  GHashTable *endpoints; /* CsEndpoint* → CsLoadEndpointAcc* */
  GHashTable *patterns;  /* char* → CsLoadPatternAcc* */
  GArray *call_events;   /* CsLoadCallEvent, for concurrency */
} CsLoadBuilder;

guint cs_load_builder_index (CsLoadBuilder *b, gint64 ts_ns);
CsLoadInterval *cs_load_builder_interval (CsLoadBuilder *b, gint64 ts_ns);

/* cs-loadtest-calls.c: one call's messages, transactions, outcome and flow. */
void cs_load_add_call (CsLoadBuilder *b, CsCall *call);
/* cs-loadtest-calls.c: endpoints and patterns into the report, once all calls are in. */
void cs_load_finish_groups (CsLoadBuilder *b);
void cs_load_builder_init_groups (CsLoadBuilder *b);
void cs_load_builder_clear_groups (CsLoadBuilder *b);

/* Counts a key ("INVITE", "200") in a table created on demand. */
void cs_load_count_type (GHashTable **table, const char *key);
/* Appends a value to an array created on demand. */
void cs_load_append_ms (GArray **values, double ms);
/* Notes that a symptom showed at ts_ns (the earliest per interval is kept). */
void cs_load_note_symptom (CsLoadBuilder *b, CsLoadSymptom symptom, gint64 ts_ns);

/* cs-loadtest-story.c: symptoms, capacity and the breaking point's circumstances. */
void cs_load_finish_story (CsLoadBuilder *b);

G_END_DECLS
