/* The JSON report's calls: the raw text of the usual depth is the same as the writer's
 * generic calls produce one level deeper (indented two more), escapes and all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/cs-analysis-private.h"
#include "loader/cs-loader.h"
#include "calls/cs-call-dtmf.h"
#include "calls/cs-call-private.h"
#include "findings/cs-finding.h"
#include "cs-json-writer.h"
#include "cs-report-json.h"
#include "sip/cs-sip-message.h"
#include "calls/cs-stream-private.h"

static CsSipMessage *
message (const char *text, guint32 frame, gint64 ts_ns)
{
  CsSipMessage *msg = cs_sip_message_parse ((const guint8 *) text, strlen (text), NULL);

  g_assert_nonnull (msg);
  cs_sip_message_set_frame (msg, frame);
  cs_sip_message_set_first_frame (msg, frame);
  cs_sip_message_set_ts_ns (msg, ts_ns);
  return msg;
}

static CsCall *
make_call (guint number, const char *call_id, const char *from_user, const char *agent,
           gboolean with_dtmf)
{
  g_autofree char *invite = g_strdup_printf (
      "INVITE sip:bob@example.com SIP/2.0\r\nVia: SIP/2.0/UDP 10.0.0.1;branch=z9hG4bK-%u\r\n"
      "From: <sip:%s@example.com>;tag=a%u\r\nTo: <sip:bob@example.com>\r\n"
      "Call-ID: %s\r\nCSeq: 1 INVITE\r\nUser-Agent: %s\r\nContent-Length: 0\r\n\r\n",
      number, from_user, number, call_id, agent);
  g_autofree char *busy = g_strdup_printf (
      "SIP/2.0 486 Busy \"Here\"\r\nVia: SIP/2.0/UDP 10.0.0.1;branch=z9hG4bK-%u\r\n"
      "From: <sip:%s@example.com>;tag=a%u\r\nTo: <sip:bob@example.com>;tag=b\r\n"
      "Call-ID: %s\r\nCSeq: 1 INVITE\r\nContent-Length: 0\r\n\r\n",
      number, from_user, number, call_id);
  g_autofree char *info = g_strdup_printf (
      "INFO sip:bob@example.com SIP/2.0\r\nVia: SIP/2.0/UDP 10.0.0.1;branch=z9hG4bK-i%u\r\n"
      "From: <sip:%s@example.com>;tag=a%u\r\nTo: <sip:bob@example.com>;tag=b\r\n"
      "Call-ID: %s\r\nCSeq: 2 INFO\r\nContent-Type: application/dtmf\r\n"
      "Content-Length: 1\r\n\r\n5",
      number, from_user, number, call_id);
  CsSipMessage *first = message (invite, 10 * number, 1000000000LL * number);
  CsCall *call = cs_call_new (number, first);

  cs_call_add_message (call, first);
  cs_sip_message_unref (first);
  first = message (busy, 10 * number + 1, 1000000000LL * number + 2500000);
  cs_call_add_message (call, first);
  cs_sip_message_unref (first);
  if (with_dtmf)
    {
      first = message (info, 10 * number + 2, 1000000000LL * number + 7000000);
      cs_call_add_message (call, first);
      cs_sip_message_unref (first);
    }
  cs_call_finish (call, 1000000000LL * (number + 5));
  return call;
}

/* A call opened by a request of this method (a known one's name is a constant, an unknown
 * one's as written), with no answer. */
static CsCall *
make_request_call (guint number, const char *method)
{
  g_autofree char *text = g_strdup_printf (
      "%s sip:bob@example.com SIP/2.0\r\nVia: SIP/2.0/UDP 10.0.0.1;branch=z9hG4bK-r%u\r\n"
      "From: <sip:dave@example.com>;tag=r%u\r\nTo: <sip:bob@example.com>\r\n"
      "Call-ID: request-%u@x\r\nCSeq: 1 %s\r\nContent-Length: 0\r\n\r\n",
      method, number, number, number, method);
  CsSipMessage *first = message (text, 10 * number, 1000000000LL * number);
  CsCall *call = cs_call_new (number, first);

  cs_call_add_message (call, first);
  cs_sip_message_unref (first);
  return call;
}

static CsStream *
make_stream (guint id, const char *src, const char *dst, guint call, guint n, guint lose_every)
{
  GArray *packets = g_array_new (FALSE, TRUE, sizeof (CsRtpPacket));
  CsRtpClockMap clocks;
  CsEndpoint s = { 0 }, d = { 0 };
  CsStream *stream;

  cs_rtp_clock_map_init_static (&clocks);
  for (guint i = 0; i < n; i++)
    {
      CsRtpPacket p = { 0 };

      if (lose_every > 0 && i % lose_every == lose_every - 1)
        continue;
      p.arrival_ns = 1709287202000000000LL + (i * 20 + (i % 3)) * 1000000LL;
      p.frame = 100 + i;
      p.timestamp = 160 * i;
      p.seq = (guint16) (1000 + i);
      p.payload_len = 160;
      g_array_append_val (packets, p);
    }
  g_assert_true (cs_addr_parse (&s.addr, src));
  g_assert_true (cs_addr_parse (&d.addr, dst));
  s.port = 4000;
  d.port = 65535;
  stream = cs_stream_new (id, &s, &d, 0xdeadbeef + id, call, packets, &clocks, NULL);
  cs_stream_measure (stream);
  return stream;
}

/* The report's calls list, `extra` arrays deep, written by `threads`. */
static char *
write_calls_threads (CsAnalysis *analysis, guint extra, guint threads)
{
  char *data = NULL;
  size_t size = 0;
  FILE *out = open_memstream (&data, &size);
  CsJsonWriter *w = cs_json_writer_new (out, TRUE);

  cs_json_writer_set_threads (w, threads);

  for (guint i = 0; i < extra; i++)
    cs_json_begin_array (w);
  cs_json_begin_object (w);
  cs_report_json_calls (w, analysis);
  cs_report_json_streams (w, analysis);
  cs_report_json_findings (w, analysis);
  cs_json_end_object (w);
  for (guint i = 0; i < extra; i++)
    cs_json_end_array (w);
  g_assert_true (cs_json_writer_free (w));
  fclose (out);
  return data;
}

static char *
write_calls (CsAnalysis *analysis, guint extra)
{
  return write_calls_threads (analysis, extra, 1);
}

/* The lines from the one starting with `"<list>"` to the list's closing bracket, with
 * `strip` leading spaces fewer each. */
static char *
list_lines (const char *text, const char *list, guint strip)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  GString *out = g_string_new (NULL);
  gboolean inside = FALSE;
  g_autofree char *start = g_strdup_printf ("\"%s\": [", list);
  g_autofree char *empty = g_strdup_printf ("  \"%s\": []", list);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      if (!inside && strstr (line, start) == NULL)
        continue;
      inside = TRUE;
      g_assert_true (strspn (line, " ") >= strip);
      g_string_append (out, line + strip);
      g_string_append_c (out, '\n');
      if (strcmp (line + strip, "  ]") == 0 || strcmp (line + strip, empty) == 0)
        break;
    }
  return g_string_free (out, FALSE);
}

static void
test_raw_calls (void)
{
  g_autofree char *long_agent = g_strnfill (70000, 'u');
  CsAnalysis *analysis = cs_analysis_new (cs_capture_set_new ());
  g_autoptr (GPtrArray) calls = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GPtrArray) findings = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GPtrArray) streams = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GArray) frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree char *raw = NULL, *generic = NULL, *raw_calls = NULL, *generic_calls = NULL;
  g_autofree char *raw_findings = NULL, *generic_findings = NULL;
  g_autofree char *raw_streams = NULL, *generic_streams = NULL;
  static const guint32 some_frames[] = { 3, 17, 4000000000u };

  g_ptr_array_add (calls, make_call (1, "plain@example.com", "alice", "agent/1.0", TRUE));
  g_ptr_array_add (calls, make_call (2, "quote\"back\\slash@x", "b\tob", "agent", FALSE));
  g_ptr_array_add (calls, make_call (3, "bad-\xff-utf8@x", "carol", long_agent, TRUE));
  g_ptr_array_add (calls, make_request_call (4, "REGISTER"));
  g_ptr_array_add (calls, make_request_call (5, "FOO"));
  cs_call_add_stream (g_ptr_array_index (calls, 0), 7, -1);
  cs_call_add_stream (g_ptr_array_index (calls, 0), 12, -1);
  cs_call_dtmf_attach_all (calls, NULL, NULL);
  cs_analysis_take_calls (analysis, calls);
  g_ptr_array_add (streams, make_stream (7, "10.0.0.1", "192.168.200.254", 1, 200, 7));
  g_ptr_array_add (streams, make_stream (12, "2001:db8::1", "2001:db8::2", 0, 3, 0));
  cs_analysis_take_streams (analysis, streams);
  g_array_append_vals (frames, some_frames, G_N_ELEMENTS (some_frames));
  g_ptr_array_add (findings, cs_finding_new (CS_FINDING_FAILED_CALL, CS_SEVERITY_INFO, 1, 0, frames,
                                             "rejected: 486 Busy \"Here\"\n"));
  g_ptr_array_add (findings, cs_finding_new (CS_FINDING_LOSS_BURST, CS_SEVERITY_WARNING, 0, 9, NULL,
                                             "plain text"));
  g_ptr_array_add (
      findings, cs_finding_new (CS_FINDING_DAMAGED_CAPTURE, CS_SEVERITY_ERROR, 0, 0, NULL, NULL));
  /* every kind and severity (names from the raw writer's tables) */
  for (guint kind = 0; kind <= CS_FINDING_DAMAGED_CAPTURE; kind++)
    g_ptr_array_add (findings, cs_finding_new ((CsFindingKind) kind, (CsSeverity) (kind % 3), 2, 0,
                                               NULL, "each kind"));
  cs_analysis_take_findings (analysis, findings);
  cs_analysis_publish (analysis);

  raw = write_calls (analysis, 0);     /* calls at the raw writer's depth */
  generic = write_calls (analysis, 1); /* one deeper: the generic calls */
  raw_calls = list_lines (raw, "calls", 0);
  generic_calls = list_lines (generic, "calls", 2);
  g_assert_cmpstr (raw_calls, ==, generic_calls);
  raw_streams = list_lines (raw, "streams", 0);
  generic_streams = list_lines (generic, "streams", 2);
  g_assert_cmpstr (raw_streams, ==, generic_streams);
  g_assert_nonnull (strstr (raw_streams, "\"src\": \"10.0.0.1:4000\""));
  g_assert_nonnull (strstr (raw_streams, "\"dst\": \"192.168.200.254:65535\""));
  g_assert_nonnull (strstr (raw_streams, "\"call\": null"));
  g_assert_nonnull (strstr (raw_streams, "2001:db8::2"));
  g_assert_nonnull (strstr (raw_streams, "\"lost\": 28,"));
  g_assert_nonnull (strstr (raw_streams, "\"mean_delta_ms\": 23.281,"));
  raw_findings = list_lines (raw, "findings", 0);
  generic_findings = list_lines (generic, "findings", 2);
  g_assert_cmpstr (raw_findings, ==, generic_findings);
  g_assert_nonnull (strstr (raw_findings, "\"rejected: 486 Busy \\\"Here\\\"\\n\""));
  g_assert_nonnull (strstr (raw_findings, "\"frames\": [\n        3,\n        17,\n"));
  g_assert_nonnull (strstr (raw_findings, "\"stream\": 9"));
  g_assert_nonnull (strstr (raw_findings, "\"text\": null"));
  /* the cases meant to be covered are there */
  g_assert_nonnull (strstr (raw, "\"quote\\\"back\\\\slash@x\""));
  g_assert_nonnull (strstr (raw, "\"b\\tob\""));
  g_assert_nonnull (strstr (raw, "\"digit\": \"5\""));
  g_assert_nonnull (strstr (raw, "\"final_status\": 486"));
  g_assert_nonnull (strstr (raw, "\"method\": \"REGISTER\""));
  g_assert_nonnull (strstr (raw, "\"method\": \"FOO\""));
  g_assert_nonnull (strstr (raw, "\"kind\": \"unanswered-invite\""));
  g_assert_nonnull (strstr (raw, "\"state\": \"setup\""));
  /* longer than the writer's buffer (the parser keeps 64 KiB of it) */
  g_assert_nonnull (strstr (raw, long_agent + 70000 - 65000));
  g_assert_nonnull (strstr (raw, "\"streams\": [\n        7,\n        12,\n        7\n      ]"));
  g_object_unref (analysis);
}

/* Adopted calls and findings move in with their references: the array is left empty, the calls
 * count them, and the list has them. */
static void
test_adopt_findings (void)
{
  CsAnalysis *analysis = cs_analysis_new (cs_capture_set_new ());
  g_autoptr (GPtrArray) calls = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GPtrArray) findings = g_ptr_array_new_with_free_func (g_object_unref);
  CsFinding *finding;
  GListModel *list;

  CsCall *call = make_call (1, "one@x", "alice", "agent", FALSE);

  g_ptr_array_add (calls, call);
  cs_analysis_adopt_calls (analysis, calls);
  g_assert_cmpuint (calls->len, ==, 0);
  finding = cs_finding_new (CS_FINDING_NO_MEDIA, CS_SEVERITY_ERROR, 1, 0, NULL, "none");
  g_ptr_array_add (findings, finding);
  g_ptr_array_add (findings,
                   cs_finding_new (CS_FINDING_NO_MEDIA, CS_SEVERITY_ERROR, 1, 0, NULL, "again"));
  cs_analysis_adopt_findings (analysis, findings);
  g_assert_cmpuint (findings->len, ==, 0);
  g_assert_cmpuint (cs_call_get_n_findings (call), ==, 2);
  cs_analysis_publish (analysis);
  list = cs_analysis_get_findings (analysis);
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, 2);
  g_assert_true (g_list_model_get_object (list, 0) == (GObject *) finding);
  g_object_unref (finding); /* the reference get_object gave */
  g_assert_cmpuint (g_list_model_get_n_items (cs_analysis_get_calls (analysis)), ==, 1);
  g_assert_true (g_list_model_get_object (cs_analysis_get_calls (analysis), 0) == (GObject *) call);
  g_object_unref (call);
  g_object_unref (analysis);
}

static guint
count_text (const char *haystack, const char *needle)
{
  guint n = 0;

  for (const char *at = strstr (haystack, needle); at != NULL; at = strstr (at + 1, needle))
    n++;
  return n;
}

/* One thread walks calls and findings with reads ahead (to the very end of the lists), two
 * write runs of them side by side: the same text, every item once, in order. */
static void
test_many_items_threads (void)
{
  CsAnalysis *analysis = cs_analysis_new (cs_capture_set_new ());
  g_autoptr (GPtrArray) calls = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GPtrArray) findings = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *one = NULL, *two = NULL, *last = NULL;
  gpointer first;
  const guint n = 1100; /* over the two-thread writer's minimum */

  for (guint i = 1; i <= n; i++)
    {
      g_autofree char *id = g_strdup_printf ("call-%u@x", i);

      g_ptr_array_add (calls, make_call (i, id, i % 2 ? "alice" : "bob", "agent", FALSE));
      g_ptr_array_add (findings, cs_finding_new (CS_FINDING_FAILED_CALL, CS_SEVERITY_INFO, i, 0,
                                                 NULL, i % 3 ? "busy" : NULL));
    }
  cs_analysis_adopt_calls (analysis, calls);
  cs_analysis_adopt_findings (analysis, findings);
  cs_analysis_publish (analysis);
  one = write_calls_threads (analysis, 0, 1);
  two = write_calls_threads (analysis, 0, 2);
  g_assert_cmpstr (one, ==, two);
  g_assert_cmpuint (count_text (one, "\"call_id\": \"call-"), ==, n);
  g_assert_cmpuint (count_text (one, "\"kind\": \"failed-call\""), ==, n);
  last = g_strdup_printf ("\"call_id\": \"call-%u@x\"", n);
  g_assert_nonnull (strstr (one, last));
  g_assert_true (strstr (one, "\"call_id\": \"call-1@x\"") < strstr (one, last));
  /* publishing borrowed the calls: the analysis and its list hold one reference each (and
   * get_item one more) */
  first = g_list_model_get_item (cs_analysis_get_calls (analysis), 0);
  g_assert_cmpuint (G_OBJECT (first)->ref_count, ==, 3);
  g_object_unref (first);
  g_object_unref (analysis);
}

/* Real captures with RTCP (XR) blocks, SIP INFO digits, transactions and findings: the raw
 * text of the usual depth is the writer's, list by list. */
static void
test_raw_equals_generic_on_captures (void)
{
  static const char *const names[]
      = { "volte-rtp-rtcpxr-rawip.pcap", "DTMFsipinfo.pcap", "sip-rtp-g711.pcap",
          "sip-auth-failure.pcapng", "sip-rtp-g726-8calls.pcap" };
  const char *dir = g_getenv ("CS_SAMPLES_DIR");
  gboolean saw_rtcp = FALSE, saw_digits = FALSE;

  if (dir == NULL)
    {
      g_test_skip ("CS_SAMPLES_DIR not set");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (dir, names[i], NULL);
      const char *paths[] = { path, NULL };
      g_autoptr (CsLoader) loader = cs_loader_new ();
      g_autoptr (CsAnalysis) analysis = NULL;
      g_autofree char *raw = NULL, *generic = NULL;
      static const char *const lists[] = { "calls", "streams", "findings" };

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        {
          g_test_skip (names[i]);
          return;
        }
      analysis = cs_loader_load (loader, paths, NULL, NULL);
      g_assert_nonnull (analysis);
      raw = write_calls (analysis, 0);
      generic = write_calls (analysis, 1);
      for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
        {
          g_autofree char *a = list_lines (raw, lists[l], 0);
          g_autofree char *b = list_lines (generic, lists[l], 2);

          g_assert_cmpstr (a, ==, b);
        }
      saw_rtcp
          |= strstr (raw, "\"sender_reports\": ") != NULL && strstr (raw, "\"xr_voip\": {") != NULL;
      saw_digits |= strstr (raw, "\"digit\": ") != NULL;
    }
  /* the blocks the raw writer hands to the generic one were there */
  g_assert_true (saw_rtcp);
  g_assert_true (saw_digits);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report-json/raw-calls", test_raw_calls);
  g_test_add_func ("/report-json/raw-equals-generic-on-captures",
                   test_raw_equals_generic_on_captures);
  g_test_add_func ("/report-json/adopt-findings", test_adopt_findings);
  g_test_add_func ("/report-json/many-items-threads", test_many_items_threads);
  return g_test_run ();
}
