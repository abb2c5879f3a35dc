/* The calls list's filter language: parsing, errors with positions, and matching over
 * 100,000 synthetic calls checked against the same predicates written by hand. */
#include <string.h>

#include "calls/cs-call-private.h"
#include "cs-calls-filter.h"
#include "findings/cs-finding.h"

#define N_CALLS 100000
#define MS (G_GINT64_CONSTANT (1000000))

static CsSipMessage *template_invite;

/* Deterministic attributes of call i */
static CsCallState
state_of (guint i)
{
  static const CsCallState states[]
      = { CS_CALL_STATE_COMPLETED, CS_CALL_STATE_COMPLETED, CS_CALL_STATE_REJECTED,
          CS_CALL_STATE_CANCELLED, CS_CALL_STATE_FAILED,    CS_CALL_STATE_IN_CALL,
          CS_CALL_STATE_COMPLETED };
  return states[i % G_N_ELEMENTS (states)];
}

static double
mos_of (guint i)
{
  return i % 11 == 0 ? -1 : 1.0 + (i % 36) / 10.0; /* 1.0 … 4.5, none for every 11th */
}

static gint64
pdd_ms_of (guint i)
{
  return (i % 13) * 500; /* 0 … 6 s; 0 = no ringing */
}

static CsCall *
make_call (guint i)
{
  CsCall *call = cs_call_new (i + 1, template_invite);

  cs_call_take_text (call, &call->from, g_strdup_printf ("%u", 1000 + i % 500));
  cs_call_take_text (call, &call->to, g_strdup_printf ("%u", 2000 + i % 300));
  cs_call_take_text (call, &call->call_id, g_strdup_printf ("%08x@host%u", i * 2654435761u, i % 7));
  cs_call_take_text (call, &call->user_agent,
                     g_strdup (i % 3 == 0 ? "Yealink SIP-T46S" : "Asterisk PBX 18"));
  call->state = state_of (i);
  call->final_status = call->state == CS_CALL_STATE_REJECTED    ? (i % 2 ? 486 : 503)
                       : call->state == CS_CALL_STATE_CANCELLED ? 487
                       : call->state == CS_CALL_STATE_FAILED    ? 0
                                                                : 200;
  call->start_ns = (gint64) i * 100 * MS + 1;
  if (pdd_ms_of (i) > 0)
    call->first_provisional_ns = call->start_ns + pdd_ms_of (i) * MS;
  call->mos = mos_of (i);
  return call;
}

static GPtrArray *
make_calls (void)
{
  GPtrArray *calls = g_ptr_array_new_full (N_CALLS, g_object_unref);

  for (guint i = 0; i < N_CALLS; i++)
    g_ptr_array_add (calls, make_call (i));
  return calls;
}

static guint
count_matches (GPtrArray *calls, const char *text, CsCallsIndex *index, double *seconds)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (CsCallsFilter) filter = cs_calls_filter_new (text, NULL, NULL, &error);
  g_autoptr (GTimer) timer = g_timer_new ();
  guint n = 0;

  g_assert_no_error (error);
  for (guint i = 0; i < calls->len; i++)
    n += cs_calls_filter_match (filter, g_ptr_array_index (calls, i), index);
  if (seconds != NULL)
    *seconds = g_timer_elapsed (timer, NULL);
  return n;
}

typedef gboolean (*Predicate) (guint i);

static gboolean
p_rejected (guint i)
{
  return state_of (i) == CS_CALL_STATE_REJECTED;
}
static gboolean
p_rejected_503 (guint i)
{
  return p_rejected (i) && i % 2 == 0;
}
static gboolean
p_mos_below (guint i)
{
  return mos_of (i) >= 0 && mos_of (i) < 3.5;
}
static gboolean
p_pdd_over_3s (guint i)
{
  return pdd_ms_of (i) > 3000;
}
static gboolean
p_from_1001 (guint i)
{
  char from[16];
  g_snprintf (from, sizeof from, "%u", 1000 + i % 500);
  return strstr (from, "1001") != NULL;
}
static gboolean
p_one_way (guint i)
{
  return i % 17 == 0;
}
static gboolean
p_combined (guint i)
{
  return (p_rejected (i) && !(i % 2)) || (p_pdd_over_3s (i) && p_mos_below (i));
}
static gboolean
p_yealink (guint i)
{
  return i % 3 == 0;
}

static guint
count_expected (Predicate predicate)
{
  guint n = 0;

  for (guint i = 0; i < N_CALLS; i++)
    n += predicate (i);
  return n;
}

static void
test_100k_calls (void)
{
  g_autoptr (GPtrArray) calls = make_calls ();
  g_autoptr (GListStore) findings = g_list_store_new (CS_TYPE_FINDING);
  g_autoptr (CsCallsIndex) index = NULL;
  struct
  {
    const char *text;
    Predicate predicate;
  } cases[] = {
    { "state:rejected", p_rejected },
    { "mos<3.5", p_mos_below },
    { "pdd>3s", p_pdd_over_3s },
    { "pdd>3000ms", p_pdd_over_3s },
    { "from:1001", p_from_1001 },
    { "has:one-way", p_one_way },
    { "state:rejected code:503 or pdd>3s mos<3.5", p_combined },
    { "YEALINK", p_yealink },
  };
  double seconds = 0, worst = 0;

  for (guint i = 0; i < N_CALLS; i += 17)
    {
      g_autoptr (CsFinding) finding
          = cs_finding_new (CS_FINDING_ONE_WAY_AUDIO, CS_SEVERITY_ERROR, i + 1, 0, NULL, "one-way");
      g_list_store_append (findings, finding);
    }
  index = cs_calls_index_new (NULL, G_LIST_MODEL (findings));
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      guint expected = count_expected (cases[c].predicate);
      guint got = count_matches (calls, cases[c].text, index, &seconds);

      g_test_message ("%-45s %6u calls in %.1f ms", cases[c].text, got, seconds * 1000);
      g_assert_cmpuint (expected, >, 0);
      g_assert_cmpuint (got, ==, expected);
      worst = MAX (worst, seconds);
    }
  /* Negation is the complement. */
  g_assert_cmpuint (count_matches (calls, "!state:rejected", index, NULL), ==,
                    N_CALLS - count_expected (p_rejected));
  g_assert_cmpuint (count_matches (calls, "", index, NULL), ==, N_CALLS);
  g_assert_cmpuint (count_matches (calls, "code:5xx", index, NULL), ==,
                    count_expected (p_rejected_503));
  g_assert_cmpuint (count_matches (calls, "code:487", index, NULL), ==, N_CALLS / 7 + 1);
  g_test_message ("slowest filter over %u calls: %.1f ms", N_CALLS, worst * 1000);
}

static void
test_errors (void)
{
  struct
  {
    const char *text;
    guint start, end;
    const char *message_part;
  } cases[] = {
    { "foo:bar", 0, 7, "unknown field" },
    { "state:rejected mos<abc", 15, 22, "not a number" },
    { "state:busy", 0, 10, "unknown state" },
    { "pdd>3x", 0, 6, "not a time" },
    { "or from:1", 0, 2, "each side" },
    { "from:1 or", 9, 9, "after it" },
    { "has:nothing", 0, 11, "no finding kind" },
    { "code:4x", 0, 7, "status code" },
    { "ua>3", 0, 4, "cannot be compared" },
    { "mos:3", 0, 5, "is a number" },
    { "été:x", 0, 5, "unknown field" },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr (GError) error = NULL;
      guint start = 99, end = 99;
      CsCallsFilter *filter = cs_calls_filter_new (cases[c].text, &start, &end, &error);

      g_assert_null (filter);
      g_assert_error (error, CS_CALLS_FILTER_ERROR, CS_CALLS_FILTER_ERROR_SYNTAX);
      g_assert_nonnull (strstr (error->message, cases[c].message_part));
      g_assert_cmpuint (start, ==, cases[c].start);
      g_assert_cmpuint (end, ==, cases[c].end);
    }
}

static void
test_operators (void)
{
  g_autoptr (CsCall) call = make_call (2); /* rejected 503, pdd 1 s, mos 1.2 */
  const char *matching[]
      = { "pdd=1s",        "pdd>=1",    "pdd<=1000ms",      "pdd!=2s", "mos<1.3",
          "number=3",      "code>=500", "-state:completed", "!mos>2",  "method:inv",
          "callid:@host2", "to:2002",   "ua:asterisk" };
  const char *not_matching[] = { "pdd>1s",    "duration>0",  "setup<100",  "state:completed",
                                 "has:media", "has:one-way", "codec:g711", "ua:yealink" };

  for (guint i = 0; i < G_N_ELEMENTS (matching); i++)
    {
      g_autoptr (CsCallsFilter) f = cs_calls_filter_new (matching[i], NULL, NULL, NULL);
      g_assert_nonnull (f);
      g_assert_true (cs_calls_filter_match (f, call, NULL));
    }
  for (guint i = 0; i < G_N_ELEMENTS (not_matching); i++)
    {
      g_autoptr (CsCallsFilter) f = cs_calls_filter_new (not_matching[i], NULL, NULL, NULL);
      g_assert_nonnull (f);
      g_assert_false (cs_calls_filter_match (f, call, NULL));
    }
}

int
main (int argc, char **argv)
{
  const char *invite = "INVITE sip:b@x SIP/2.0\r\nVia: SIP/2.0/UDP h;branch=z9hG4bK1\r\n"
                       "From: <sip:a@x>;tag=1\r\nTo: <sip:b@x>\r\nCall-ID: t\r\n"
                       "CSeq: 1 INVITE\r\nContent-Length: 0\r\n\r\n";
  int status;

  g_test_init (&argc, &argv, NULL);
  template_invite = cs_sip_message_parse ((const guint8 *) invite, strlen (invite), NULL);
  g_test_add_func ("/calls-filter/100k-calls", test_100k_calls);
  g_test_add_func ("/calls-filter/errors", test_errors);
  g_test_add_func ("/calls-filter/operators", test_operators);
  status = g_test_run ();
  cs_sip_message_unref (template_invite);
  return status;
}
