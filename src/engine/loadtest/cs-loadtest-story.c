/* cs-loadtest-story.c — the story of a load run: per-interval symptoms, the capacity
 * estimate and the circumstances of the breaking point */
#include "cs-loadtest-private.h"

#include <math.h>

/* Symptoms must stay in this share of the intervals that follow while calls are
 * still offered, and in at least two intervals, for the run to have broken. */
#define CS_LOAD_SYMPTOM_STAY_FRACTION 0.8

static guint
cs_load_interval_symptoms (const CsLoadInterval *iv)
{
  guint symptoms = 0;

  /* of the messages first sent in the interval (NAN while the run drains) */
  if (iv->signals[CS_LOAD_SIGNAL_RETRANSMISSIONS] > CS_LOAD_RETRANSMISSION_SYMPTOM_SHARE)
    symptoms |= 1u << CS_LOAD_SYMPTOM_RETRANSMISSIONS;
  if (iv->slow_trying > 0
      && (double) iv->slow_trying
             > CS_LOAD_RETRANSMISSION_SYMPTOM_SHARE * MAX (iv->calls_started, 1))
    symptoms |= 1u << CS_LOAD_SYMPTOM_SLOW_TRYING;
  if (iv->timeouts > 0)
    symptoms |= 1u << CS_LOAD_SYMPTOM_TIMEOUTS;
  if (iv->server_errors > 0)
    symptoms |= 1u << CS_LOAD_SYMPTOM_SERVER_ERRORS;
  return symptoms;
}

/* The first interval after the last one in which a call began (the drain). */
static guint
cs_load_drain_start (const GArray *intervals)
{
  guint drain = intervals->len;

  while (drain > 0 && g_array_index (intervals, CsLoadInterval, drain - 1).calls_started == 0)
    drain--;
  return drain;
}

/* The highest offered rate held for capacity_window symptom-free intervals in a row. */
static void
cs_load_find_capacity (CsLoadReport *report)
{
  GArray *intervals = report->intervals;
  guint window = report->capacity_window;
  guint limit = report->breaking_point.found ? report->breaking_point.interval
                                             : cs_load_drain_start (intervals);

  for (guint i = 0; i + window <= limit; i++)
    {
      double held = INFINITY;
      gboolean clean = TRUE;

      for (guint j = i; j < i + window && clean; j++)
        {
          const CsLoadInterval *iv = &g_array_index (intervals, CsLoadInterval, j);

          clean = iv->calls_started > 0 && iv->symptoms == 0;
          held = MIN (held, cs_load_report_rate (report, j, iv->calls_started));
        }
      if (clean && (!report->capacity_found || held > report->capacity_cps))
        {
          report->capacity_found = TRUE;
          report->capacity_cps = held;
          report->capacity_interval = i;
        }
    }
}

static CsLoadSignal
cs_load_symptom_signal (CsLoadSymptom symptom)
{
  switch (symptom)
    {
    case CS_LOAD_SYMPTOM_RETRANSMISSIONS:
      return CS_LOAD_SIGNAL_RETRANSMISSIONS;
    case CS_LOAD_SYMPTOM_TIMEOUTS:
      return CS_LOAD_SIGNAL_TIMEOUTS;
    case CS_LOAD_SYMPTOM_SERVER_ERRORS:
      return CS_LOAD_SIGNAL_FAILURES;
    case CS_LOAD_SYMPTOM_SLOW_TRYING:
    default:
      return CS_LOAD_SIGNAL_P99;
    }
}

/* The earliest symptom of interval i (FALSE when it has none). */
static gboolean
cs_load_first_symptom (CsLoadBuilder *b, guint i, CsLoadSymptom *first)
{
  guint symptoms = g_array_index (b->report->intervals, CsLoadInterval, i).symptoms;
  gint64 first_ns = G_MAXINT64;
  gboolean found = FALSE;

  for (guint s = 0; s < CS_LOAD_SYMPTOM_N; s++)
    if ((symptoms & (1u << s)) && (!found || b->scratch[i].symptom_first_ns[s] < first_ns))
      {
        first_ns = b->scratch[i].symptom_first_ns[s];
        *first = s;
        found = TRUE;
      }
  return found;
}

static char *
cs_load_symptoms_text (const CsLoadInterval *iv)
{
  GString *text = g_string_new (NULL);

  for (guint s = 0; s < CS_LOAD_SYMPTOM_N; s++)
    if (iv->symptoms & (1u << s))
      {
        if (text->len > 0)
          g_string_append (text, ", ");
        switch (s)
          {
          case CS_LOAD_SYMPTOM_RETRANSMISSIONS:
            g_string_append_printf (text,
                                    "%.1f %% of the messages first sent had to be retransmitted",
                                    iv->signals[CS_LOAD_SIGNAL_RETRANSMISSIONS] * 100);
            break;
          case CS_LOAD_SYMPTOM_SLOW_TRYING:
            g_string_append_printf (text, "%u INVITEs waited over %.0f ms for a 100 Trying",
                                    iv->slow_trying, CS_LOAD_SLOW_TRYING_MS);
            break;
          case CS_LOAD_SYMPTOM_TIMEOUTS:
            g_string_append_printf (text, "%u transactions timed out", iv->timeouts);
            break;
          default:
            g_string_append_printf (text, "%u 5xx/408 answers", iv->server_errors);
            break;
          }
      }
  return g_string_free (text, FALSE);
}

/* The operator's breaking point: the first interval with a symptom after which
 * symptoms stay while calls are still offered. It replaces a statistical departure
 * (those stay in signal_departed[] as early warnings). */
static void
cs_load_find_symptom_break (CsLoadBuilder *b)
{
  CsLoadReport *report = b->report;
  CsLoadBreakingPoint *bp = &report->breaking_point;
  guint drain = cs_load_drain_start (report->intervals);

  for (guint i = 0; i < drain; i++)
    {
      const CsLoadInterval *iv = &g_array_index (report->intervals, CsLoadInterval, i);
      guint out = 0;
      CsLoadSymptom first;
      g_autofree char *what = NULL;

      if (iv->symptoms == 0)
        continue;
      for (guint j = i; j < drain; j++)
        out += g_array_index (report->intervals, CsLoadInterval, j).symptoms != 0;
      if (out < 2 || (double) out < CS_LOAD_SYMPTOM_STAY_FRACTION * (double) (drain - i))
        continue;
      cs_load_first_symptom (b, i, &first);
      bp->found = TRUE;
      bp->by_symptoms = TRUE;
      bp->interval = i;
      bp->signal = cs_load_symptom_signal (first);
      bp->departure = bp->signal_departure[bp->signal];
      bp->time_ns = iv->start_ns;
      bp->offset_s = (double) (bp->time_ns - report->origin_ns) / 1e9;
      what = cs_load_symptoms_text (iv);
      g_free (bp->reason);
      bp->reason = g_strdup_printf ("from %.3f s %s; symptoms stayed in %u of the %u intervals "
                                    "in which calls were still offered",
                                    bp->offset_s, what, out, drain - i);
      return;
    }
}

/* What the operator saw first around the breaking point: the earliest symptom in the
 * first symptomatic interval from one before it to two after it. */
static void
cs_load_describe_break (CsLoadBuilder *b)
{
  CsLoadReport *report = b->report;
  CsLoadBreakingPoint *bp = &report->breaking_point;
  const CsLoadInterval *iv;
  guint from, to;

  if (!bp->found)
    return;
  iv = &g_array_index (report->intervals, CsLoadInterval, bp->interval);
  bp->offered_cps = cs_load_report_rate (report, bp->interval, iv->calls_started);
  bp->handled_cps = cs_load_report_rate (report, bp->interval, iv->handled);
  bp->concurrent = iv->concurrent;
  from = bp->interval > 0 ? bp->interval - 1 : 0;
  to = MIN (bp->interval + 3, report->intervals->len);
  if (bp->by_symptoms)
    from = bp->interval;
  for (guint i = from; i < to && !bp->has_symptom; i++)
    bp->has_symptom = cs_load_first_symptom (b, i, &bp->first_symptom);
}

void
cs_load_finish_story (CsLoadBuilder *b)
{
  GArray *intervals = b->report->intervals;

  for (guint i = 0; i < intervals->len; i++)
    {
      CsLoadInterval *iv = &g_array_index (intervals, CsLoadInterval, i);
      iv->symptoms = cs_load_interval_symptoms (iv);
    }
  cs_load_find_symptom_break (b);
  cs_load_find_capacity (b->report);
  cs_load_describe_break (b);
}
