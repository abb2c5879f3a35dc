/* test-hostile-flood.c — 1M unique Call-IDs and 1M unique SSRCs: the caps hold,
 * memory stays bounded, and what was dropped is reported as findings.
 *
 * CS_FLOOD_N changes the flood size (default 1000000 of each). */
#include "findings/cs-finding.h"
#include "loader/cs-loader.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#define FLOOD_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FLOOD_UNDER_ASAN 1
#endif
#endif
#ifndef FLOOD_UNDER_ASAN
#define FLOOD_UNDER_ASAN 0
#endif

#define FLOOD_MAX_CALLS 20000
#define FLOOD_MAX_STREAMS 20000

static guint flood_n = 1000000;

/* ---- a raw-IP pcap written straight to disk ---- */

static void
put_le32 (guint8 *p, guint32 v)
{
  p[0] = v & 0xff, p[1] = (v >> 8) & 0xff, p[2] = (v >> 16) & 0xff, p[3] = v >> 24;
}

static void
write_record (FILE *out, guint32 n, const guint8 *payload, gsize len, guint16 dport)
{
  guint8 rec[16 + 28];
  guint total = 28 + (guint) len;

  put_le32 (rec, 1700000000 + n / 1000);
  put_le32 (rec + 4, (n % 1000) * 1000);
  put_le32 (rec + 8, total);
  put_le32 (rec + 12, total);
  memset (rec + 16, 0, 28);
  rec[16] = 0x45;
  rec[18] = total >> 8, rec[19] = total & 0xff;
  rec[16 + 8] = 64, rec[16 + 9] = 17;
  rec[16 + 12] = 10, rec[16 + 13] = (n >> 16) & 0xff, rec[16 + 14] = (n >> 8) & 0xff,
           rec[16 + 15] = n & 0xff;
  rec[16 + 16] = 10, rec[16 + 19] = 1;
  rec[36] = 0x13, rec[37] = 0xc4; /* source port 5060 */
  rec[38] = dport >> 8, rec[39] = dport & 0xff;
  rec[40] = (8 + len) >> 8, rec[41] = (8 + len) & 0xff;
  fwrite (rec, 1, sizeof rec, out);
  fwrite (payload, 1, len, out);
}

static char *
write_flood (const char *dir)
{
  char *path = g_build_filename (dir, "flood.pcap", NULL);
  FILE *out = fopen (path, "wb");
  guint8 header[24] = { 0 };
  char sip[256];
  guint8 rtp[12 + 20];

  g_assert_nonnull (out);
  put_le32 (header, 0xa1b2c3d4);
  header[4] = 2, header[6] = 4;
  put_le32 (header + 16, 65535);
  put_le32 (header + 20, 101); /* LINKTYPE_RAW */
  fwrite (header, 1, sizeof header, out);
  memset (rtp, 0, sizeof rtp);
  rtp[0] = 0x80;
  for (guint32 i = 0; i < flood_n; i++)
    {
      int len = g_snprintf (sip, sizeof sip,
                            "INVITE sip:b@h SIP/2.0\r\nVia: SIP/2.0/UDP h;branch=z9hG4bK%u\r\n"
                            "From: <sip:a@h>;tag=%u\r\nTo: <sip:b@h>\r\nCall-ID: flood-%u\r\n"
                            "CSeq: 1 INVITE\r\nContent-Length: 0\r\n\r\n",
                            i, i, i);

      write_record (out, 2 * i, (const guint8 *) sip, (gsize) len, 5060);
      /* Unique SSRC, a plausible RTP header on an even port. */
      rtp[2] = i >> 8, rtp[3] = i & 0xff;
      rtp[8] = i >> 24, rtp[9] = (i >> 16) & 0xff, rtp[10] = (i >> 8) & 0xff, rtp[11] = i & 0xff;
      write_record (out, 2 * i + 1, rtp, sizeof rtp, 40000);
    }
  g_assert_cmpint (fclose (out), ==, 0);
  return path;
}

/* ---- peak anonymous memory, sampled while the load runs ---- */

typedef struct
{
  gint stop;
  gsize peak_kib;
} Sampler;

static gsize
rss_anon_kib (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;
  line = strstr (status, "RssAnon:");
  return line != NULL ? (gsize) g_ascii_strtoull (line + 8, NULL, 10) : 0;
}

static gpointer
sample_memory (gpointer data)
{
  Sampler *s = data;

  while (!g_atomic_int_get (&s->stop))
    {
      s->peak_kib = MAX (s->peak_kib, rss_anon_kib ());
      g_usleep (2000);
    }
  return NULL;
}

static guint
count_dropped_state (CsAnalysis *analysis)
{
  GListModel *findings = cs_analysis_get_findings (analysis);
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr (CsFinding) f = g_list_model_get_item (findings, i);

      if (cs_finding_get_kind (f) == CS_FINDING_DROPPED_STATE)
        n++;
    }
  return n;
}

static void
test_flood_stays_bounded (void)
{
  g_autofree char *dir = g_dir_make_tmp ("cs-flood-XXXXXX", NULL);
  g_autofree char *path = write_flood (dir);
  const char *paths[] = { path, NULL };
  g_autoptr (CsLoader) loader = cs_loader_new ();
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (GError) error = NULL;
  CsLimits limits = { 0 };
  Sampler sampler = { 0, 0 };
  GThread *thread;
  const CsCaptureStats *stats;
  gsize baseline_kib = rss_anon_kib (), budget_kib;
  gint64 t0 = g_get_monotonic_time ();

  limits.max_calls = FLOOD_MAX_CALLS;
  limits.max_streams = FLOOD_MAX_STREAMS;
  /* For comparison only: what the same flood costs with the caps out of reach. */
  if (g_getenv ("CS_FLOOD_UNCAPPED") != NULL)
    limits.max_calls = limits.max_streams = G_MAXUINT32;
  cs_loader_set_limits (loader, &limits);
  cs_loader_set_threads (loader, 2);
  thread = g_thread_new ("sampler", sample_memory, &sampler);
  analysis = cs_loader_load (loader, paths, NULL, &error);
  g_atomic_int_set (&sampler.stop, 1);
  g_thread_join (thread);
  g_assert_no_error (error);

  if (g_getenv ("CS_FLOOD_UNCAPPED") != NULL)
    {
      g_test_message ("uncapped: peak RssAnon %zu MiB", sampler.peak_kib / 1024);
      return;
    }
  stats = cs_analysis_get_stats (analysis);
  g_assert_cmpuint (stats->packets, ==, 2 * (guint64) flood_n);
  g_assert_cmpuint (stats->sip_messages, ==, flood_n);
  g_assert_cmpuint (g_list_model_get_n_items (cs_analysis_get_calls (analysis)), ==,
                    MIN (flood_n, FLOOD_MAX_CALLS));
  g_assert_cmpuint (stats->call_limit_messages, ==,
                    flood_n > FLOOD_MAX_CALLS ? flood_n - FLOOD_MAX_CALLS : 0);
  /* Single-packet flows are never streams; all were evicted or refused at the cap. */
  g_assert_cmpuint (g_list_model_get_n_items (cs_analysis_get_streams (analysis)), ==, 0);
  if (flood_n > FLOOD_MAX_STREAMS)
    {
      g_assert_cmpuint (stats->rtp_packets_dropped, >=, flood_n - FLOOD_MAX_STREAMS);
      g_assert_cmpuint (stats->rtp_flows_evicted, >, 0);
      g_assert_cmpuint (count_dropped_state (analysis), ==, 2);
    }

  /* The budget: the frame index (32 bytes a frame, twice for the array's
   * growth), the calls and flows the caps allow (generously 4 KiB a call,
   * 256 bytes a flow), and 320 MiB for the chunks in flight (a few per decode
   * thread, ~32k parsed SIP messages each) and the allocator's arenas. */
  budget_kib = (2 * 2 * (gsize) flood_n * 32 + FLOOD_MAX_CALLS * (gsize) 4096
                + FLOOD_MAX_STREAMS * (gsize) 256)
                   / 1024
               + 320 * 1024;
  g_test_message ("flood of %u Call-IDs and %u SSRCs: %.1f s, peak RssAnon %zu MiB above a "
                  "%zu MiB baseline (budget %zu MiB)",
                  flood_n, flood_n, (double) (g_get_monotonic_time () - t0) / G_USEC_PER_SEC,
                  (sampler.peak_kib - MIN (sampler.peak_kib, baseline_kib)) / 1024,
                  baseline_kib / 1024, budget_kib / 1024);
#if FLOOD_UNDER_ASAN
  /* Redzones and the quarantine make RSS meaningless here; the counts above still hold. */
  g_test_message ("AddressSanitizer build: memory budget not checked");
#else
  g_assert_cmpuint (sampler.peak_kib - MIN (sampler.peak_kib, baseline_kib), <, budget_kib);
#endif
  g_unlink (path);
  g_rmdir (dir);
}

/* The caps themselves: parsing the user's syntax. */
static void
test_limits_parse (void)
{
  CsLimits limits;
  g_autoptr (GError) error = NULL;

  cs_limits_init_default (&limits);
  g_assert_cmpuint (limits.max_calls, ==, CS_LIMITS_DEFAULT_MAX_CALLS);
  g_assert_true (
      cs_limits_parse (&limits, "calls=1000, streams=2k,tcp_bytes_per_stream=1M", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (limits.max_calls, ==, 1000);
  g_assert_cmpuint (limits.max_streams, ==, 2048);
  g_assert_cmpuint (limits.max_tcp_bytes_per_stream, ==, 1024 * 1024);
  g_assert_cmpuint (limits.max_messages_per_call, ==, CS_LIMITS_DEFAULT_MAX_MESSAGES_PER_CALL);
  g_assert_false (cs_limits_parse (&limits, "calls=10,bogus=3", &error));
  g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
  g_assert_nonnull (strstr (error->message, "bogus=3"));
  g_assert_cmpuint (limits.max_calls, ==, 1000); /* unchanged on error */
  g_clear_error (&error);
  g_assert_false (cs_limits_parse (&limits, "calls=0", &error));
  g_clear_error (&error);
  g_assert_false (cs_limits_parse (&limits, "calls=-5", &error));
}

int
main (int argc, char **argv)
{
  const char *n = g_getenv ("CS_FLOOD_N");

  g_test_init (&argc, &argv, NULL);
  if (n != NULL)
    flood_n = (guint) g_ascii_strtoull (n, NULL, 10);
  g_test_add_func ("/hostile/limits-parse", test_limits_parse);
  g_test_add_func ("/hostile/flood-stays-bounded", test_flood_stays_bounded);
  return g_test_run ();
}
