/* cs-loadtest.c — load-test statistics as a pure function of an analysis */
#include "cs-loadtest-private.h"

#include <math.h>

#include "calls/cs-stream.h"

void
cs_load_config_init (CsLoadConfig *config)
{
  config->interval_s = 1.0;
  config->transaction_timeout_s = 32.0;
  config->edges_ns = NULL;
  config->capacity_window = 3;
}

static const struct
{
  const char *key, *label;
} cs_load_response_kinds[CS_LOAD_RT_N] = {
  { "invite_provisional", "INVITE → 1xx" },
  { "invite_180", "INVITE → 18x" },
  { "invite_200", "INVITE → 2xx" },
  { "invite_error", "INVITE → error" },
  { "bye_200", "BYE → 2xx" },
  { "non_invite", "Other → final" },
};

const char *
cs_load_response_kind_key (CsLoadResponseKind kind)
{
  return kind < CS_LOAD_RT_N ? cs_load_response_kinds[kind].key : "unknown";
}

const char *
cs_load_response_kind_label (CsLoadResponseKind kind)
{
  return kind < CS_LOAD_RT_N ? cs_load_response_kinds[kind].label : "unknown";
}

const char *
cs_load_signal_key (CsLoadSignal signal)
{
  static const char *const keys[CS_LOAD_SIGNAL_N]
      = { "retransmissions", "timeouts", "failures", "p99" };

  return signal < CS_LOAD_SIGNAL_N ? keys[signal] : "unknown";
}

const char *
cs_load_symptom_key (CsLoadSymptom symptom)
{
  static const char *const keys[CS_LOAD_SYMPTOM_N]
      = { "retransmissions", "slow_trying", "timeouts", "server_errors" };

  return symptom < CS_LOAD_SYMPTOM_N ? keys[symptom] : "unknown";
}

const char *
cs_load_symptom_label (CsLoadSymptom symptom)
{
  static const char *const labels[CS_LOAD_SYMPTOM_N]
      = { "retransmissions over 1 % of messages", "100 Trying later than 500 ms",
          "transaction timeouts", "5xx/408 answers" };

  return symptom < CS_LOAD_SYMPTOM_N ? labels[symptom] : "unknown";
}

const char *
cs_load_curve_key (CsLoadCurve curve)
{
  static const char *const keys[CS_LOAD_CURVE_N] = { "invite_100", "invite_180", "invite_200" };

  return curve < CS_LOAD_CURVE_N ? keys[curve] : "unknown";
}

const char *
cs_load_curve_label (CsLoadCurve curve)
{
  static const char *const labels[CS_LOAD_CURVE_N]
      = { "INVITE → 100", "INVITE → 180", "INVITE → 200" };

  return curve < CS_LOAD_CURVE_N ? labels[curve] : "unknown";
}

void
cs_load_signal_rule (CsLoadSignal signal, CsLoadDepartureRule *rule)
{
  /* Margins above the baseline's P90: shares in points of 1, p99 in ms. */
  switch (signal)
    {
    case CS_LOAD_SIGNAL_RETRANSMISSIONS:
      cs_load_departure_rule_init (rule, 0.01);
      break;
    case CS_LOAD_SIGNAL_TIMEOUTS:
      cs_load_departure_rule_init (rule, 0.01);
      break;
    case CS_LOAD_SIGNAL_FAILURES:
      cs_load_departure_rule_init (rule, 0.05);
      break;
    case CS_LOAD_SIGNAL_P99:
    default:
      cs_load_departure_rule_init (rule, 50.0);
      break;
    }
}

/* The last interval starting at or before ts_ns (0 before the first). */
static guint
cs_load_find_interval (const GArray *intervals, gint64 ts_ns)
{
  guint low = 0, high = intervals->len;

  while (high - low > 1)
    {
      guint mid = low + (high - low) / 2;
      if (g_array_index (intervals, CsLoadInterval, mid).start_ns <= ts_ns)
        low = mid;
      else
        high = mid;
    }
  return low;
}

guint
cs_load_builder_index (CsLoadBuilder *b, gint64 ts_ns)
{
  gint64 index;

  if (b->config->edges_ns != NULL)
    return cs_load_find_interval (b->report->intervals, ts_ns);
  index = (ts_ns - b->report->origin_ns) / b->interval_ns;
  return (guint) CLAMP (index, 0, (gint64) b->report->intervals->len - 1);
}

double
cs_load_report_interval_width_s (const CsLoadReport *report, guint i)
{
  const CsLoadInterval *iv;

  if (i >= report->intervals->len)
    return report->interval_s;
  iv = &g_array_index (report->intervals, CsLoadInterval, i);
  return iv->end_ns > iv->start_ns ? (double) (iv->end_ns - iv->start_ns) / 1e9
                                   : report->interval_s;
}

double
cs_load_report_rate (const CsLoadReport *report, guint i, guint count)
{
  return (double) count / cs_load_report_interval_width_s (report, i);
}

CsLoadInterval *
cs_load_builder_interval (CsLoadBuilder *b, gint64 ts_ns)
{
  return &g_array_index (b->report->intervals, CsLoadInterval, cs_load_builder_index (b, ts_ns));
}

gint
cs_load_report_interval_at (const CsLoadReport *report, gint64 ts_ns)
{
  guint index;

  if (report->intervals->len == 0 || ts_ns < report->origin_ns)
    return -1;
  index = cs_load_find_interval (report->intervals, ts_ns);
  return ts_ns < g_array_index (report->intervals, CsLoadInterval, index).end_ns ? (gint) index
                                                                                 : -1;
}

gboolean
cs_loadtest_call_started_in (CsCall *call, gint64 from_ns, gint64 to_ns)
{
  gint64 start_ns = cs_call_get_start_ns (call);

  return cs_call_get_method (call) == CS_SIP_METHOD_INVITE && start_ns >= from_ns
         && start_ns < to_ns;
}

static void
cs_load_interval_clear (CsLoadInterval *interval)
{
  g_clear_pointer (&interval->messages_by_type, g_hash_table_unref);
  g_clear_pointer (&interval->retransmissions_by_type, g_hash_table_unref);
  g_clear_pointer (&interval->client_retransmissions_by_type, g_hash_table_unref);
  g_clear_pointer (&interval->server_retransmissions_by_type, g_hash_table_unref);
  g_clear_pointer (&interval->timeouts_by_type, g_hash_table_unref);
}

void
cs_load_report_free (CsLoadReport *report)
{
  if (report == NULL)
    return;
  for (guint i = 0; i < report->intervals->len; i++)
    cs_load_interval_clear (&g_array_index (report->intervals, CsLoadInterval, i));
  g_array_unref (report->intervals);
  g_clear_pointer (&report->totals.failed_by_code, g_hash_table_unref);
  g_clear_pointer (&report->totals.messages_by_type, g_hash_table_unref);
  g_clear_pointer (&report->totals.retransmissions_by_type, g_hash_table_unref);
  g_clear_pointer (&report->totals.client_retransmissions_by_type, g_hash_table_unref);
  g_clear_pointer (&report->totals.server_retransmissions_by_type, g_hash_table_unref);
  g_clear_pointer (&report->totals.timeouts_by_type, g_hash_table_unref);
  g_clear_pointer (&report->totals.failed_by_reason, g_hash_table_unref);
  for (guint i = 0; i < report->patterns->len; i++)
    g_free (((CsLoadPattern *) g_ptr_array_index (report->patterns, i))->pattern);
  g_ptr_array_unref (report->patterns);
  g_ptr_array_unref (report->endpoints);
  g_free (report->breaking_point.reason);
  g_free (report);
}

/* Intervals between given edges (SIPp's periods): packets before the first edge fall
 * in the first interval, and a last interval runs from the last edge to the end. */
static void
cs_load_layout_edges (CsLoadBuilder *b)
{
  CsLoadReport *report = b->report;
  const GArray *edges = b->config->edges_ns;
  guint n = 0;

  for (guint i = 0; i < edges->len; i++)
    {
      gint64 edge = g_array_index (edges, gint64, i);
      CsLoadInterval iv = { 0 };

      if (n > 0 && edge <= g_array_index (report->intervals, CsLoadInterval, n - 1).start_ns)
        continue; /* not increasing */
      if (n > 0)
        g_array_index (report->intervals, CsLoadInterval, n - 1).end_ns = edge;
      iv.start_ns = iv.end_ns = edge;
      g_array_append_val (report->intervals, iv);
      n++;
    }
  g_array_index (report->intervals, CsLoadInterval, n - 1).end_ns = MAX (
      report->end_ns + 1, g_array_index (report->intervals, CsLoadInterval, n - 1).start_ns + 1);
  report->origin_ns = g_array_index (report->intervals, CsLoadInterval, 0).start_ns;
  /* the mean width of the given periods */
  b->interval_ns = n > 1 ? (g_array_index (report->intervals, CsLoadInterval, n - 1).start_ns
                            - report->origin_ns)
                               / (n - 1)
                         : (gint64) 1000000000;
  report->interval_s = (double) b->interval_ns / 1e9;
  b->scratch = g_new0 (CsLoadScratch, n);
}

/* Interval layout: from the first packet to the last, widened when too many. */
static void
cs_load_layout_intervals (CsLoadBuilder *b, const CsCaptureStats *stats)
{
  CsLoadReport *report = b->report;
  double interval_s = b->config->interval_s;
  gint64 span_ns;
  guint64 n;

  if (!(interval_s >= 0.001) || !isfinite (interval_s))
    interval_s = 1.0;
  report->origin_ns = stats->first_ns;
  report->end_ns = MAX (stats->last_ns, stats->first_ns);
  if (b->config->edges_ns != NULL && b->config->edges_ns->len > 0
      && b->config->edges_ns->len <= CS_LOAD_MAX_INTERVALS)
    {
      cs_load_layout_edges (b);
      return;
    }
  span_ns = report->end_ns - report->origin_ns;
  b->interval_ns = (gint64) llround (interval_s * 1e9);
  n = (guint64) (span_ns / b->interval_ns) + 1;
  if (n > CS_LOAD_MAX_INTERVALS)
    {
      b->interval_ns = span_ns / (CS_LOAD_MAX_INTERVALS - 1) + 1;
      n = (guint64) (span_ns / b->interval_ns) + 1;
    }
  report->interval_s = (double) b->interval_ns / 1e9;
  g_array_set_size (report->intervals, (guint) n);
  for (guint i = 0; i < n; i++)
    {
      CsLoadInterval *iv = &g_array_index (report->intervals, CsLoadInterval, i);
      iv->start_ns = report->origin_ns + (gint64) i * b->interval_ns;
      iv->end_ns = iv->start_ns + b->interval_ns;
    }
  b->scratch = g_new0 (CsLoadScratch, n);
}

/* RTP packets per interval and streams with a packet in or around it. */
static void
cs_load_add_streams (CsLoadBuilder *b, GListModel *streams)
{
  guint n = g_list_model_get_n_items (streams);

  for (guint s = 0; s < n; s++)
    {
      g_autoptr (CsStream) stream = g_list_model_get_item (streams, s);
      guint n_packets;
      /* unpacked for this pass only (cs_stream_get_packets would keep every stream's) */
      g_autofree CsRtpPacket *packets = cs_stream_dup_packet_records (stream, &n_packets);
      guint first, last;

      if (n_packets == 0)
        continue;
      for (guint p = 0; p < n_packets; p++)
        cs_load_builder_interval (b, packets[p].arrival_ns)->rtp_packets++;
      b->report->totals.rtp_packets += n_packets;
      first = cs_load_builder_index (b, packets[0].arrival_ns);
      last = cs_load_builder_index (b, packets[n_packets - 1].arrival_ns);
      for (guint i = first; i <= last; i++)
        g_array_index (b->report->intervals, CsLoadInterval, i).streams_alive++;
    }
}

/* A share needs a few events behind it: the tail of a run (a last BYE) would
 * otherwise read 0 % or 100 %. */
#define CS_LOAD_MIN_MESSAGES_FOR_SHARE 5

static double
cs_load_share (guint part, guint whole, guint at_least)
{
  return whole >= MAX (at_least, 1) ? (double) part / (double) whole : NAN;
}

/* The breaking-point signals: of what began in each interval. */
static void
cs_load_finish_signals (CsLoadBuilder *b)
{
  GArray *intervals = b->report->intervals;
  guint drain = intervals->len; /* first interval after the last call began */

  while (drain > 0 && g_array_index (intervals, CsLoadInterval, drain - 1).calls_started == 0)
    drain--;
  if (drain == 0)
    drain = intervals->len; /* no INVITE calls: judge every interval */
  for (guint i = 0; i < intervals->len; i++)
    {
      CsLoadInterval *interval = &g_array_index (intervals, CsLoadInterval, i);
      CsLoadScratch *scratch = &b->scratch[i];
      CsLoadPercentiles p;

      for (guint c = 0; c < CS_LOAD_CURVE_N; c++)
        {
          GArray *values = scratch->curve_ms[c];

          cs_load_percentiles_compute (values != NULL ? (double *) values->data : NULL,
                                       values != NULL ? values->len : 0, &p);
          interval->curves[c] = (CsLoadCurvePoint){ p.p50, p.p90, p.p99, p.p999 };
        }
      if (i >= drain)
        {
          /* the run is draining (no new calls): what is left is not judged */
          for (guint s = 0; s < CS_LOAD_SIGNAL_N; s++)
            interval->signals[s] = NAN;
          interval->invite_p50_ms = interval->invite_p90_ms = NAN;
          continue;
        }

      interval->signals[CS_LOAD_SIGNAL_RETRANSMISSIONS]
          = cs_load_share (scratch->resent, scratch->originals, CS_LOAD_MIN_MESSAGES_FOR_SHARE);
      interval->signals[CS_LOAD_SIGNAL_TIMEOUTS]
          = cs_load_share (interval->timeouts, interval->transactions, 1);
      interval->signals[CS_LOAD_SIGNAL_FAILURES]
          = cs_load_share (scratch->calls_failed, interval->calls_started, 1);
      interval->signals[CS_LOAD_SIGNAL_P99] = NAN;
      interval->invite_p50_ms = interval->invite_p90_ms = NAN;
      if (scratch->invite_final_ms != NULL)
        {
          cs_load_percentiles_compute ((double *) scratch->invite_final_ms->data,
                                       scratch->invite_final_ms->len, &p);
          interval->signals[CS_LOAD_SIGNAL_P99] = p.p99;
          interval->invite_p50_ms = p.p50;
          interval->invite_p90_ms = p.p90;
        }
    }
}

static char *
cs_load_describe (CsLoadSignal signal, const CsLoadDeparture *d, double offset_s)
{
  const char *what;

  if (signal == CS_LOAD_SIGNAL_P99)
    return g_strdup_printf ("from %.3f s the p99 INVITE response time (%.1f ms) rose above "
                            "%.1f ms (baseline p50 %.1f ms, p90 %.1f ms) and stayed there in "
                            "%u of %u intervals",
                            offset_s, d->value, d->threshold, d->baseline_p50, d->baseline_p90,
                            d->out, d->checked);
  switch (signal)
    {
    case CS_LOAD_SIGNAL_RETRANSMISSIONS:
      what = "of the messages sent had to be retransmitted";
      break;
    case CS_LOAD_SIGNAL_TIMEOUTS:
      what = "of the transactions begun timed out";
      break;
    default:
      what = "of the calls started failed";
      break;
    }
  return g_strdup_printf ("from %.3f s %.1f %% %s (threshold %.1f %%, baseline p50 %.1f %%, "
                          "p90 %.1f %%), and the share stayed above the threshold in %u of %u "
                          "intervals",
                          offset_s, d->value * 100, what, d->threshold * 100, d->baseline_p50 * 100,
                          d->baseline_p90 * 100, d->out, d->checked);
}

static void
cs_load_find_breaking_point (CsLoadReport *report)
{
  GArray *intervals = report->intervals;
  CsLoadBreakingPoint *bp = &report->breaking_point;
  g_autofree double *values = g_new (double, MAX (intervals->len, 1));

  for (guint s = 0; s < CS_LOAD_SIGNAL_N; s++)
    {
      CsLoadDepartureRule rule;

      for (guint i = 0; i < intervals->len; i++)
        values[i] = g_array_index (intervals, CsLoadInterval, i).signals[s];
      cs_load_signal_rule (s, &rule);
      bp->signal_departed[s]
          = cs_load_find_departure (values, intervals->len, &rule, &bp->signal_departure[s]);
      if (bp->signal_departed[s] && (!bp->found || bp->signal_departure[s].index < bp->interval))
        {
          bp->found = TRUE;
          bp->signal = s;
          bp->interval = bp->signal_departure[s].index;
          bp->departure = bp->signal_departure[s];
        }
    }
  if (!bp->found)
    return;
  bp->time_ns = g_array_index (intervals, CsLoadInterval, bp->interval).start_ns;
  bp->offset_s = (double) (bp->time_ns - report->origin_ns) / 1e9;
  bp->reason = cs_load_describe (bp->signal, &bp->departure, bp->offset_s);
}

CsLoadReport *
cs_loadtest_compute (CsAnalysis *analysis, const CsLoadConfig *config)
{
  CsLoadConfig defaults;
  CsLoadBuilder b = { 0 };
  CsLoadReport *report = g_new0 (CsLoadReport, 1);
  GListModel *calls = cs_analysis_get_calls (analysis);
  guint n_calls = g_list_model_get_n_items (calls);

  if (config == NULL)
    {
      cs_load_config_init (&defaults);
      config = &defaults;
    }
  b.config = config;
  b.report = report;
  report->transaction_timeout_s
      = config->transaction_timeout_s > 0 ? config->transaction_timeout_s : 32.0;
  b.timeout_ns = (gint64) llround (report->transaction_timeout_s * 1e9);
  report->intervals = g_array_new (FALSE, TRUE, sizeof (CsLoadInterval));
  report->endpoints = g_ptr_array_new_with_free_func (g_free);
  report->patterns = g_ptr_array_new_with_free_func (g_free);
  report->totals.failed_by_code = g_hash_table_new (NULL, NULL);
  for (guint k = 0; k < CS_LOAD_RT_N; k++)
    {
      b.response_ms[k] = g_array_new (FALSE, FALSE, sizeof (double));
      b.server_response_ms[k] = g_array_new (FALSE, FALSE, sizeof (double));
    }
  b.forwarding_ms = g_array_new (FALSE, FALSE, sizeof (double));
  report->capacity_window = config->capacity_window > 0 ? config->capacity_window : 3;
  cs_load_layout_intervals (&b, cs_analysis_get_stats (analysis));
  for (guint i = 0; i < report->intervals->len; i++)
    for (guint s = 0; s < CS_LOAD_SYMPTOM_N; s++)
      b.scratch[i].symptom_first_ns[s] = G_MAXINT64;
  cs_load_builder_init_groups (&b);

  for (guint c = 0; c < n_calls; c++)
    {
      g_autoptr (CsCall) call = g_list_model_get_item (calls, c);
      cs_load_add_call (&b, call);
    }
  cs_load_add_streams (&b, cs_analysis_get_streams (analysis));
  cs_load_finish_groups (&b);
  cs_load_finish_signals (&b);
  for (guint k = 0; k < CS_LOAD_RT_N; k++)
    {
      cs_load_percentiles_compute ((double *) b.response_ms[k]->data, b.response_ms[k]->len,
                                   &report->response_times[k]);
      cs_load_percentiles_compute ((double *) b.server_response_ms[k]->data,
                                   b.server_response_ms[k]->len, &report->server_response_times[k]);
      g_array_unref (b.response_ms[k]);
      g_array_unref (b.server_response_ms[k]);
    }
  cs_load_percentiles_compute ((double *) b.forwarding_ms->data, b.forwarding_ms->len,
                               &report->forwarding_ms);
  g_array_unref (b.forwarding_ms);
  report->proxied = report->totals.proxied > 0;
  cs_load_find_breaking_point (report);
  cs_load_finish_story (&b);

  for (guint i = 0; i < report->intervals->len; i++)
    {
      if (b.scratch[i].invite_final_ms != NULL)
        g_array_unref (b.scratch[i].invite_final_ms);
      for (guint c = 0; c < CS_LOAD_CURVE_N; c++)
        if (b.scratch[i].curve_ms[c] != NULL)
          g_array_unref (b.scratch[i].curve_ms[c]);
    }
  g_free (b.scratch);
  cs_load_builder_clear_groups (&b);
  return report;
}
