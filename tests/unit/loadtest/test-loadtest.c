/* test-loadtest.c — exact percentiles, the breaking-point rule, and load statistics of a
 * crafted capture whose every number is known */
#include <glib/gstdio.h>
#include <math.h>

#include "capture-builder.h"
#include "loader/cs-loader.h"
#include "loadtest/cs-loadtest.h"

/* Percentiles */

static void
test_percentiles_one_to_hundred (void)
{
  double values[100];
  CsLoadPercentiles p;

  /* shuffled on purpose: the function sorts */
  for (guint i = 0; i < 100; i++)
    values[i] = (double) ((i * 37) % 100 + 1);
  cs_load_percentiles_compute (values, 100, &p);
  g_assert_cmpuint (p.n, ==, 100);
  g_assert_cmpfloat (p.min, ==, 1);
  g_assert_cmpfloat (p.max, ==, 100);
  g_assert_cmpfloat_with_epsilon (p.mean, 50.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (p.p50, 50.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (p.p90, 90.1, 1e-12);
  g_assert_cmpfloat_with_epsilon (p.p99, 99.01, 1e-12);
  g_assert_cmpfloat_with_epsilon (p.p999, 99.901, 1e-12);
  g_assert_cmpfloat_with_epsilon (p.p9999, 99.9901, 1e-12);
}

static void
test_percentiles_small_and_empty (void)
{
  double one[] = { 7.25 };
  double two[] = { 3, 1 };
  CsLoadPercentiles p;

  cs_load_percentiles_compute (one, 1, &p);
  g_assert_cmpfloat (p.p50, ==, 7.25);
  g_assert_cmpfloat (p.p9999, ==, 7.25);
  cs_load_percentiles_compute (two, 2, &p);
  g_assert_cmpfloat (p.p50, ==, 2);
  g_assert_cmpfloat_with_epsilon (p.p90, 2.8, 1e-12);
  g_assert_cmpfloat (p.min, ==, 1);
  cs_load_percentiles_compute (NULL, 0, &p);
  g_assert_cmpuint (p.n, ==, 0);
  g_assert_true (isnan (p.p50) && isnan (p.min) && isnan (p.mean));
}

static void
test_percentiles_large (void)
{
  gsize n = 100000;
  g_autofree double *values = g_new (double, n);
  CsLoadPercentiles p;

  for (gsize i = 0; i < n; i++)
    values[i] = (double) (n - i); /* 1..n reversed */
  cs_load_percentiles_compute (values, n, &p);
  /* type 7: 1 + q (n - 1) */
  g_assert_cmpfloat_with_epsilon (p.p99, 1 + 0.99 * (n - 1), 1e-6);
  g_assert_cmpfloat_with_epsilon (p.p999, 1 + 0.999 * (n - 1), 1e-6);
  g_assert_cmpfloat_with_epsilon (p.p9999, 1 + 0.9999 * (n - 1), 1e-6);
}

/* The breaking-point rule on generated series */

static gboolean
find (const double *values, guint n, double floor_margin, CsLoadDeparture *d)
{
  CsLoadDepartureRule rule;

  cs_load_departure_rule_init (&rule, floor_margin);
  return cs_load_find_departure (values, n, &rule, d);
}

static void
test_rule_step (void)
{
  double v[40];
  CsLoadDeparture d;

  for (guint i = 0; i < 40; i++)
    v[i] = i < 23 ? 0 : 0.08;
  g_assert_true (find (v, 40, 0.01, &d));
  g_assert_cmpuint (d.index, ==, 23);
  g_assert_cmpfloat (d.baseline_p90, ==, 0);
  g_assert_cmpfloat (d.threshold, ==, 0.01);
  g_assert_cmpuint (d.out, ==, 17);
  g_assert_cmpuint (d.checked, ==, 17);
}

static void
test_rule_spike_is_not_a_break (void)
{
  double v[30] = { 0 };
  CsLoadDeparture d;

  v[10] = 0.5;
  v[11] = 0.5;
  g_assert_false (find (v, 30, 0.01, &d));
  g_assert_false (d.found);
}

static void
test_rule_noisy_baseline_and_ramp (void)
{
  double v[60];
  CsLoadDeparture d;

  /* p99 in ms: 2–5 ms of noise while the rate ramps, then the server slows down
   * from interval 41 and never recovers (one good interval in between is allowed). */
  for (guint i = 0; i < 60; i++)
    v[i] = 2 + (i * 7919 % 13) / 4.0;
  for (guint i = 41; i < 60; i++)
    v[i] = 80 + i;
  v[50] = 3;
  g_assert_true (find (v, 60, 50, &d));
  g_assert_cmpuint (d.index, ==, 41);
  g_assert_cmpfloat (d.value, ==, 121);
  g_assert_cmpuint (d.checked, ==, 19);
  g_assert_cmpuint (d.out, ==, 18);
  g_assert_cmpfloat (d.threshold, >, 50);
  g_assert_cmpfloat (d.threshold, <, 60);
}

/* The factor on the baseline, by hand: ten intervals at 10 ms give p90 = 10, so with a 1 ms
 * floor the threshold is max (10 + 1, 2 × 10) = 20 ms. A server that settles at 25 ms
 * (2.5 × the baseline) has departed; one that settles at exactly 20 ms has not. */
static void
test_rule_twice_the_baseline (void)
{
  double v[20];
  CsLoadDeparture d;

  for (guint i = 0; i < 20; i++)
    v[i] = i < 10 ? 10 : 25;
  g_assert_true (find (v, 20, 1, &d));
  g_assert_cmpuint (d.index, ==, 10);
  g_assert_cmpfloat (d.baseline_p90, ==, 10);
  g_assert_cmpfloat (d.threshold, ==, 20);
  for (guint i = 10; i < 20; i++)
    v[i] = 20;
  g_assert_false (find (v, 20, 1, &d));
}

static void
test_rule_half_out_does_not_stay (void)
{
  double v[40];
  CsLoadDeparture d;

  for (guint i = 0; i < 40; i++)
    v[i] = (i >= 20 && i % 2 == 0) ? 0.2 : 0;
  g_assert_false (find (v, 40, 0.01, &d));
}

static void
test_rule_gaps_and_short_baseline (void)
{
  double v[12];
  CsLoadDeparture d;

  /* intervals without data (NAN) neither count as baseline nor break the run */
  for (guint i = 0; i < 12; i++)
    v[i] = NAN;
  v[0] = v[2] = v[5] = v[6] = 0;
  v[8] = v[10] = 0.3;
  v[11] = 0.4;
  g_assert_true (find (v, 12, 0.01, &d));
  g_assert_cmpuint (d.index, ==, 8);
  g_assert_cmpuint (d.checked, ==, 3);
  g_assert_cmpuint (d.out, ==, 3);

  /* a rise before min_baseline intervals cannot be told from the baseline: it
   * becomes part of it, and the same later values are then normal */
  v[5] = 0.3;
  g_assert_false (find (v, 12, 0.01, &d));
}

/* Load statistics of a crafted capture */

/* A UDP frame 10.0.0.src → 10.0.0.dst, port 5060 both sides. */
static void
put_sip_frame_between (GByteArray *pcap, gint64 t_us, guint8 src, guint8 dst, const char *text)
{
  g_autoptr (GByteArray) frame = g_byte_array_new ();
  gsize len = strlen (text);
  guint8 ip_src[4] = { 10, 0, 0, src }, ip_dst[4] = { 10, 0, 0, dst };
  static const guint8 macs[12] = { 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1 };

  put_bytes (frame, macs, 12);
  put_u16 (frame, TRUE, 0x0800);
  put_u16 (frame, TRUE, 0x4500);
  put_u16 (frame, TRUE, (guint16) (20 + 8 + len));
  put_u32 (frame, TRUE, 0);
  put_u16 (frame, TRUE, 0x4011);
  put_u16 (frame, TRUE, 0);
  put_bytes (frame, ip_src, 4);
  put_bytes (frame, ip_dst, 4);
  put_u16 (frame, TRUE, 5060);
  put_u16 (frame, TRUE, 5060);
  put_u16 (frame, TRUE, (guint16) (8 + len));
  put_u16 (frame, TRUE, 0);
  put_bytes (frame, text, len);
  pcap_record_data (pcap, FALSE, (guint32) (t_us / 1000000), (guint32) (t_us % 1000000),
                    frame->data, frame->len);
}

static void
put_sip_frame (GByteArray *pcap, gint64 t_us, gboolean from_uac, const char *text)
{
  put_sip_frame_between (pcap, t_us, from_uac ? 1 : 2, from_uac ? 2 : 1, text);
}

static char *
sip_request (const char *method, guint call, guint cseq, const char *branch, const char *to_tag)
{
  return g_strdup_printf ("%s sip:bob@10.0.0.2 SIP/2.0\r\n"
                          "Via: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK-%u-%s\r\n"
                          "From: <sip:alice@10.0.0.1>;tag=a%u\r\n"
                          "To: <sip:bob@10.0.0.2>%s%s\r\n"
                          "Call-ID: call-%u@10.0.0.1\r\n"
                          "CSeq: %u %s\r\n"
                          "Content-Length: 0\r\n\r\n",
                          method, call, branch, call, to_tag ? ";tag=" : "", to_tag ? to_tag : "",
                          call, cseq, method);
}

static char *
sip_response (guint code, const char *reason, guint call, guint cseq, const char *method,
              const char *branch)
{
  return g_strdup_printf ("SIP/2.0 %u %s\r\n"
                          "Via: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK-%u-%s\r\n"
                          "From: <sip:alice@10.0.0.1>;tag=a%u\r\n"
                          "To: <sip:bob@10.0.0.2>%s\r\n"
                          "Call-ID: call-%u@10.0.0.1\r\n"
                          "CSeq: %u %s\r\n"
                          "Content-Length: 0\r\n\r\n",
                          code, reason, call, branch, call, code > 100 ? ";tag=b" : "", call, cseq,
                          method);
}

#define T0_US G_GINT64_CONSTANT (1700000000000000)
#define N_SECONDS 12
#define CALLS_PER_SECOND 5
#define LOSSY_FROM 6     /* from this second on, every first INVITE is lost once */
#define REJECTED_CALL 12 /* answered 486 */

static void
put (GByteArray *pcap, gint64 t_us, gboolean from_uac, char *text)
{
  put_sip_frame (pcap, t_us, from_uac, text);
  g_free (text);
}

static char *
write_load_capture (const char *dir)
{
  g_autoptr (GByteArray) pcap = g_byte_array_new ();

  pcap_header (pcap, FALSE, FALSE, 65535, 1);
  for (guint call = 0; call < N_SECONDS * CALLS_PER_SECOND; call++)
    {
      gint64 t = T0_US + (gint64) call * 200000;
      gboolean lossy = call / CALLS_PER_SECOND >= LOSSY_FROM;

      put (pcap, t, TRUE, sip_request ("INVITE", call, 1, "1", NULL));
      if (lossy)
        {
          t += 500000;
          put (pcap, t, TRUE, sip_request ("INVITE", call, 1, "1", NULL));
        }
      put (pcap, t + 1000, FALSE, sip_response (100, "Trying", call, 1, "INVITE", "1"));
      if (call == REJECTED_CALL)
        {
          put (pcap, t + 5000, FALSE, sip_response (486, "Busy Here", call, 1, "INVITE", "1"));
          put (pcap, t + 6000, TRUE, sip_request ("ACK", call, 1, "1", "b"));
          continue;
        }
      put (pcap, t + 2000, FALSE, sip_response (180, "Ringing", call, 1, "INVITE", "1"));
      put (pcap, t + 10000, FALSE, sip_response (200, "OK", call, 1, "INVITE", "1"));
      put (pcap, t + 11000, TRUE, sip_request ("ACK", call, 1, "2", "b"));
      put (pcap, t + 50000, TRUE, sip_request ("BYE", call, 2, "3", "b"));
      put (pcap, t + 51000, FALSE, sip_response (200, "OK", call, 2, "BYE", "3"));
    }
  return write_capture_file (dir, "load.pcap", pcap);
}

static CsLoadReport *
load_report (const char *dir)
{
  g_autofree char *path = write_load_capture (dir);
  const char *paths[] = { path, NULL };
  g_autoptr (CsLoader) loader = cs_loader_new ();
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (GError) error = NULL;

  analysis = cs_loader_load (loader, paths, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (analysis);
  g_assert_cmpuint (g_list_model_get_n_items (cs_analysis_get_calls (analysis)), ==,
                    N_SECONDS * CALLS_PER_SECOND);
  return cs_loadtest_compute (analysis, NULL);
}

static void
test_compute_crafted (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cs-loadtest-XXXXXX", NULL);
  g_autoptr (CsLoadReport) r = load_report (dir);
  const CsLoadPercentiles *rt = r->response_times;
  const CsLoadInterval *iv;
  const CsLoadEndpoint *ep;
  const CsLoadPattern *pattern;

  g_assert_cmpfloat (r->interval_s, ==, 1.0);
  g_assert_cmpuint (r->intervals->len, ==, N_SECONDS + 1);
  for (guint i = 0; i < N_SECONDS; i++)
    g_assert_cmpuint (g_array_index (r->intervals, CsLoadInterval, i).calls_started, ==,
                      CALLS_PER_SECOND);
  g_assert_cmpuint (r->totals.calls, ==, 60);
  g_assert_cmpuint (r->totals.answered, ==, 59);
  g_assert_cmpuint (r->totals.failed, ==, 1);
  g_assert_cmpuint (
      GPOINTER_TO_UINT (g_hash_table_lookup (r->totals.failed_by_code, GUINT_TO_POINTER (486))), ==,
      1);
  g_assert_cmpuint (r->totals.retransmissions, ==, (N_SECONDS - LOSSY_FROM) * CALLS_PER_SECOND);
  g_assert_cmpuint (r->totals.timeouts, ==, 0);
  g_assert_cmpuint (r->totals.messages, ==, 59 * 7 + 4 + 30);

  /* second 0: five calls of 7 messages, one at a time */
  iv = &g_array_index (r->intervals, CsLoadInterval, 0);
  g_assert_cmpuint (iv->messages, ==, 35);
  g_assert_cmpuint (iv->answered, ==, 5);
  g_assert_cmpuint (iv->concurrent, ==, 1);
  g_assert_cmpuint (iv->retransmissions, ==, 0);
  g_assert_cmpfloat_with_epsilon (iv->signals[CS_LOAD_SIGNAL_P99], 10.0, 1e-9);
  /* second 2 holds the 486 */
  iv = &g_array_index (r->intervals, CsLoadInterval, 2);
  g_assert_cmpuint (iv->failed, ==, 1);
  g_assert_cmpfloat_with_epsilon (iv->signals[CS_LOAD_SIGNAL_FAILURES], 0.2, 1e-12);
  /* lossy seconds: calls last 551 ms, three overlap */
  iv = &g_array_index (r->intervals, CsLoadInterval, 8);
  g_assert_cmpuint (iv->concurrent, ==, 3);
  g_assert_cmpuint (iv->retransmissions, ==, 5);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (iv->retransmissions_by_type, "INVITE")),
                    ==, 5);

  /* 29 setups of 10 ms, 30 of 510 ms */
  g_assert_cmpuint (rt[CS_LOAD_RT_INVITE_2XX].n, ==, 59);
  g_assert_cmpfloat_with_epsilon (rt[CS_LOAD_RT_INVITE_2XX].min, 10, 1e-9);
  g_assert_cmpfloat_with_epsilon (rt[CS_LOAD_RT_INVITE_2XX].p50, 510, 1e-9);
  g_assert_cmpfloat_with_epsilon (rt[CS_LOAD_RT_INVITE_2XX].mean, (29 * 10.0 + 30 * 510.0) / 59,
                                  1e-9);
  g_assert_cmpuint (rt[CS_LOAD_RT_INVITE_PROVISIONAL].n, ==, 60);
  g_assert_cmpfloat_with_epsilon (rt[CS_LOAD_RT_INVITE_PROVISIONAL].p50, 251, 1e-9);
  g_assert_cmpuint (rt[CS_LOAD_RT_INVITE_18X].n, ==, 59);
  g_assert_cmpfloat_with_epsilon (rt[CS_LOAD_RT_INVITE_18X].min, 2, 1e-9);
  g_assert_cmpuint (rt[CS_LOAD_RT_INVITE_ERROR].n, ==, 1);
  g_assert_cmpfloat_with_epsilon (rt[CS_LOAD_RT_INVITE_ERROR].p99, 5, 1e-9);
  g_assert_cmpuint (rt[CS_LOAD_RT_BYE_2XX].n, ==, 59);
  g_assert_cmpfloat_with_epsilon (rt[CS_LOAD_RT_BYE_2XX].max, 1, 1e-9);
  g_assert_cmpuint (rt[CS_LOAD_RT_NON_INVITE].n, ==, 0);

  g_assert_cmpuint (r->endpoints->len, ==, 1);
  ep = g_ptr_array_index (r->endpoints, 0);
  g_assert_cmpuint (ep->requests, ==, 60 + 59);
  g_assert_cmpuint (ep->answered, ==, 118);
  g_assert_cmpuint (ep->failed, ==, 1);
  g_assert_cmpuint (ep->retransmissions, ==, 30);

  g_assert_cmpuint (r->patterns->len, ==, 2);
  pattern = g_ptr_array_index (r->patterns, 0);
  g_assert_cmpstr (pattern->pattern, ==, "INVITE 100 180 200 ACK BYE 200");
  g_assert_cmpuint (pattern->calls, ==, 59);
  pattern = g_ptr_array_index (r->patterns, 1);
  g_assert_cmpstr (pattern->pattern, ==, "INVITE 100 486 ACK");
  g_assert_cmpuint (pattern->failed, ==, 1);

  /* the first lossy second is the breaking point, found through retransmissions */
  g_assert_true (r->breaking_point.found);
  g_assert_cmpuint (r->breaking_point.interval, ==, LOSSY_FROM);
  g_assert_cmpint (r->breaking_point.signal, ==, CS_LOAD_SIGNAL_RETRANSMISSIONS);
  g_assert_cmpfloat_with_epsilon (r->breaking_point.offset_s, LOSSY_FROM, 1e-9);
  g_assert_true (r->breaking_point.signal_departed[CS_LOAD_SIGNAL_P99]);
  g_assert_cmpuint (r->breaking_point.signal_departure[CS_LOAD_SIGNAL_P99].index, ==, LOSSY_FROM);
  g_assert_false (r->breaking_point.signal_departed[CS_LOAD_SIGNAL_FAILURES]);
  g_assert_nonnull (strstr (r->breaking_point.reason, "retransmitted"));
  g_assert_cmpint (cs_load_report_interval_at (r, T0_US * 1000 + G_GINT64_CONSTANT (6500000000)),
                   ==, 6);
  remove_tmp_dir (dir);
}

static void
test_compute_wider_interval (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cs-loadtest-XXXXXX", NULL);
  g_autofree char *path = write_load_capture (dir);
  const char *paths[] = { path, NULL };
  g_autoptr (CsLoader) loader = cs_loader_new ();
  g_autoptr (CsAnalysis) analysis = cs_loader_load (loader, paths, NULL, NULL);
  CsLoadConfig config;
  g_autoptr (CsLoadReport) r = NULL;

  cs_load_config_init (&config);
  config.interval_s = 4;
  config.transaction_timeout_s = 0.3; /* every lossy INVITE now "times out" */
  r = cs_loadtest_compute (analysis, &config);
  g_assert_cmpuint (r->intervals->len, ==, 4);
  g_assert_cmpuint (g_array_index (r->intervals, CsLoadInterval, 0).calls_started, ==, 20);
  g_assert_cmpuint (r->totals.timeouts, ==, 30);
  g_assert_cmpuint (g_array_index (r->intervals, CsLoadInterval, 2).timeouts, ==, 20);
  remove_tmp_dir (dir);
}

/* Calls through a proxy: UAC 10.0.0.1 → proxy 10.0.0.5 → UAS 10.0.0.2 */

#define UAC 1
#define PROXY 5
#define UAS 2

/* A request or response on the client leg (hop 1) or the server leg (hop 2: the
 * proxy's Via on top of the UAC's). */
static char *
proxied_message (const char *first_line, guint call, gboolean server_leg, guint cseq,
                 const char *method, gboolean to_tag)
{
  g_autofree char *proxy_via
      = server_leg ? g_strdup_printf ("Via: SIP/2.0/UDP 10.0.0.5:5060;branch=z9hG4bK-p%u-%s\r\n",
                                      call, method)
                   : g_strdup ("");

  return g_strdup_printf ("%s\r\n"
                          "%s"
                          "Via: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK-c%u-%s\r\n"
                          "From: <sip:alice@10.0.0.1>;tag=a%u\r\n"
                          "To: <sip:bob@10.0.0.2>%s\r\n"
                          "Call-ID: proxied-%u@10.0.0.1\r\n"
                          "CSeq: %u %s\r\n"
                          "Content-Length: 0\r\n\r\n",
                          first_line, proxy_via, call, method, call, to_tag ? ";tag=b" : "", call,
                          cseq, method);
}

static void
put_between (GByteArray *pcap, gint64 t_us, guint8 src, guint8 dst, char *text)
{
  put_sip_frame_between (pcap, t_us, src, dst, text);
  g_free (text);
}

/* One call a second; the third one's INVITE waits 600 ms for the proxy (resent at
 * 500 ms), then goes through like the others. Times in ms from the call's start. */
static char *
write_proxied_capture (const char *dir)
{
  g_autoptr (GByteArray) pcap = g_byte_array_new ();

  pcap_header (pcap, FALSE, FALSE, 65535, 1);
  for (guint call = 0; call < 3; call++)
    {
      gint64 t = T0_US + 100000 + (gint64) call * 1000000;
      gint64 late = call == 2 ? 598000 : 0; /* the slow proxy */
#define MS(x) (t + late + (gint64) (x) *1000)

      put_between (
          pcap, t, UAC, PROXY,
          proxied_message ("INVITE sip:bob@10.0.0.2 SIP/2.0", call, FALSE, 1, "INVITE", FALSE));
      if (call == 2)
        put_between (
            pcap, t + 500000, UAC, PROXY,
            proxied_message ("INVITE sip:bob@10.0.0.2 SIP/2.0", call, FALSE, 1, "INVITE", FALSE));
      put_between (pcap, MS (2), PROXY, UAC,
                   proxied_message ("SIP/2.0 100 Trying", call, FALSE, 1, "INVITE", FALSE));
      put_between (
          pcap, MS (5), PROXY, UAS,
          proxied_message ("INVITE sip:bob@10.0.0.2 SIP/2.0", call, TRUE, 1, "INVITE", FALSE));
      put_between (pcap, MS (6), UAS, PROXY,
                   proxied_message ("SIP/2.0 180 Ringing", call, TRUE, 1, "INVITE", TRUE));
      put_between (pcap, MS (7), PROXY, UAC,
                   proxied_message ("SIP/2.0 180 Ringing", call, FALSE, 1, "INVITE", TRUE));
      put_between (pcap, MS (8), UAS, PROXY,
                   proxied_message ("SIP/2.0 200 OK", call, TRUE, 1, "INVITE", TRUE));
      put_between (pcap, MS (9), PROXY, UAC,
                   proxied_message ("SIP/2.0 200 OK", call, FALSE, 1, "INVITE", TRUE));
      put_between (pcap, MS (10), UAC, PROXY,
                   proxied_message ("ACK sip:bob@10.0.0.2 SIP/2.0", call, FALSE, 1, "ACK", TRUE));
      put_between (pcap, MS (11), PROXY, UAS,
                   proxied_message ("ACK sip:bob@10.0.0.2 SIP/2.0", call, TRUE, 1, "ACK", TRUE));
      put_between (pcap, MS (100), UAC, PROXY,
                   proxied_message ("BYE sip:bob@10.0.0.2 SIP/2.0", call, FALSE, 2, "BYE", TRUE));
      put_between (pcap, MS (101), PROXY, UAS,
                   proxied_message ("BYE sip:bob@10.0.0.2 SIP/2.0", call, TRUE, 2, "BYE", TRUE));
      put_between (pcap, MS (102), UAS, PROXY,
                   proxied_message ("SIP/2.0 200 OK", call, TRUE, 2, "BYE", TRUE));
      put_between (pcap, MS (103), PROXY, UAC,
                   proxied_message ("SIP/2.0 200 OK", call, FALSE, 2, "BYE", TRUE));
#undef MS
    }
  return write_capture_file (dir, "proxied.pcap", pcap);
}

static void
test_compute_proxied (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cs-loadtest-XXXXXX", NULL);
  g_autofree char *path = write_proxied_capture (dir);
  const char *paths[] = { path, NULL };
  g_autoptr (CsLoader) loader = cs_loader_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (CsAnalysis) analysis = cs_loader_load (loader, paths, NULL, &error);
  g_autoptr (CsLoadReport) r = NULL;
  const CsLoadInterval *iv;

  g_assert_no_error (error);
  r = cs_loadtest_compute (analysis, NULL);
  /* one call per Call-ID, seen on two legs */
  g_assert_cmpuint (r->totals.calls, ==, 3);
  g_assert_cmpuint (r->totals.proxied, ==, 3);
  g_assert_true (r->proxied);
  g_assert_cmpuint (r->totals.answered, ==, 3);
  g_assert_cmpuint (r->totals.completed, ==, 3);
  g_assert_cmpuint (r->totals.handled, ==, 3);
  /* client leg, as the UAC saw it: INVITE → 200 of 9, 9 and 598 + 9 ms */
  g_assert_cmpuint (r->response_times[CS_LOAD_RT_INVITE_2XX].n, ==, 3);
  g_assert_cmpfloat_with_epsilon (r->response_times[CS_LOAD_RT_INVITE_2XX].p50, 9.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (r->response_times[CS_LOAD_RT_INVITE_2XX].max, 607.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (r->response_times[CS_LOAD_RT_INVITE_PROVISIONAL].max, 600.0,
                                  1e-6);
  /* server leg: the UAS answers 3 ms after the proxied INVITE, every time */
  g_assert_cmpuint (r->server_response_times[CS_LOAD_RT_INVITE_2XX].n, ==, 3);
  g_assert_cmpfloat_with_epsilon (r->server_response_times[CS_LOAD_RT_INVITE_2XX].max, 3.0, 1e-6);
  /* forwarding: 5, 5 and 598 + 5 ms */
  g_assert_cmpuint (r->forwarding_ms.n, ==, 3);
  g_assert_cmpfloat_with_epsilon (r->forwarding_ms.p50, 5.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (r->forwarding_ms.max, 603.0, 1e-6);
  /* the resent INVITE is the UAC's, on the client leg only */
  g_assert_cmpuint (
      GPOINTER_TO_UINT (g_hash_table_lookup (r->totals.client_retransmissions_by_type, "INVITE")),
      ==, 1);
  g_assert_null (r->totals.server_retransmissions_by_type);
  /* the third second: its INVITE waited 600 ms for the 100 Trying */
  g_assert_cmpuint (r->intervals->len, >=, 3);
  iv = &g_array_index (r->intervals, CsLoadInterval, 2);
  g_assert_cmpuint (iv->slow_trying, ==, 1);
  g_assert_true (iv->symptoms & (1u << CS_LOAD_SYMPTOM_SLOW_TRYING));
  g_assert_cmpfloat_with_epsilon (iv->curves[CS_LOAD_CURVE_TRYING].p50, 600.0, 1e-6);
  g_assert_cmpuint (g_array_index (r->intervals, CsLoadInterval, 0).symptoms, ==, 0);
  g_assert_cmpuint (g_array_index (r->intervals, CsLoadInterval, 0).handled, ==, 1);
  /* every call ended with the 200 to its BYE: nothing in progress at the end */
  g_assert_cmpuint (
      g_array_index (r->intervals, CsLoadInterval, r->intervals->len - 1).concurrent_end, ==, 0);
  g_assert_cmpuint (g_array_index (r->intervals, CsLoadInterval, 0).concurrent, ==, 1);
  g_remove (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/loadtest/percentiles/one-to-hundred", test_percentiles_one_to_hundred);
  g_test_add_func ("/loadtest/percentiles/small-and-empty", test_percentiles_small_and_empty);
  g_test_add_func ("/loadtest/percentiles/large", test_percentiles_large);
  g_test_add_func ("/loadtest/rule/step", test_rule_step);
  g_test_add_func ("/loadtest/rule/spike", test_rule_spike_is_not_a_break);
  g_test_add_func ("/loadtest/rule/noisy-ramp", test_rule_noisy_baseline_and_ramp);
  g_test_add_func ("/loadtest/rule/half-out", test_rule_half_out_does_not_stay);
  g_test_add_func ("/loadtest/rule/twice-the-baseline", test_rule_twice_the_baseline);
  g_test_add_func ("/loadtest/rule/gaps", test_rule_gaps_and_short_baseline);
  g_test_add_func ("/loadtest/compute/crafted", test_compute_crafted);
  g_test_add_func ("/loadtest/compute/wider-interval", test_compute_wider_interval);
  g_test_add_func ("/loadtest/compute/proxied", test_compute_proxied);
  return g_test_run ();
}
