/* test-live-session.c — the incremental engine gives what the file loader gives */
#include <string.h>

#include "net/cs-decode.h"
#include "live/cs-live-frame.h"
#include "live/cs-ring-writer.h"
#include "calls/cs-stream.h"
#include "live-test-common.h"

/* Feeds every frame of path to a live session in small batches, as a capture would. */
static CsLiveSession *
feed_file (const char *path, const char *out, guint batch)
{
  CsCaptureSet *set = cs_capture_set_new ();
  GError *error = NULL;
  CsLiveSession *session = cs_live_session_new (out, 0, 0, &error);

  g_assert_no_error (error);
  g_assert_true (cs_capture_set_add_file (set, path, &error));
  g_assert_true (cs_capture_set_index (set, NULL, NULL, NULL, &error));
  for (guint32 n = 1; n <= cs_capture_set_get_n_frames (set); n++)
    {
      CsFrame frame_copy;
      const CsFrame *frame = cs_capture_set_get_frame (set, n, &frame_copy) ? &frame_copy : NULL;

      cs_live_session_push_frame (session, frame->linktype, frame->ts_ns,
                                  cs_capture_set_frame_data (set, frame), frame->caplen,
                                  frame->origlen);
      if (n % batch == 0)
        cs_live_session_process_pending (session);
    }
  g_assert_true (cs_live_session_stop (session, &error));
  g_assert_no_error (error);
  cs_capture_set_free (set);
  return session;
}

static void
check_sample (gconstpointer data)
{
  const char *name = data;
  g_autofree char *path = live_sample_path (name);
  g_autofree char *dir = NULL;
  g_autofree char *out = NULL;
  g_autoptr (CsLiveSession) session = NULL;
  g_autoptr (CsAnalysis) file = NULL;
  g_autoptr (CsAnalysis) saved = NULL;
  g_autoptr (GPtrArray) streams = NULL;
  GListModel *file_streams;
  GListModel *live_calls;
  CsLiveCounters counters;
  GError *error = NULL;

  if (path == NULL)
    {
      g_test_skip ("sample capture not found (CS_SAMPLES_DIR)");
      return;
    }
  dir = live_tmp_dir ();
  out = g_build_filename (dir, "live.pcapng", NULL);
  file = live_load_one (path);
  session = feed_file (path, out, 7);

  /* Live view: same calls, in the same order, with the same messages. */
  live_calls = cs_live_session_get_calls (session);
  g_assert_cmpuint (g_list_model_get_n_items (live_calls), ==,
                    g_list_model_get_n_items (cs_analysis_get_calls (file)));
  for (guint i = 0; i < g_list_model_get_n_items (live_calls); i++)
    {
      g_autoptr (CsCall) x = g_list_model_get_item (cs_analysis_get_calls (file), i);
      g_autoptr (CsCall) y = g_list_model_get_item (live_calls, i);

      g_assert_cmpstr (cs_call_get_call_id (x), ==, cs_call_get_call_id (y));
      g_assert_cmpuint (cs_call_get_n_messages (x), ==, cs_call_get_n_messages (y));
      g_assert_cmpuint (cs_call_get_first_frame (x), ==, cs_call_get_first_frame (y));
    }
  cs_live_session_get_counters (session, &counters);
  g_assert_cmpuint (counters.packets, ==, cs_analysis_get_stats (file)->packets);
  g_assert_cmpuint (counters.sip_messages, ==, cs_analysis_get_stats (file)->sip_messages);
  g_assert_cmpuint (counters.calls, ==, g_list_model_get_n_items (live_calls));

  /* Live streams: same packets and jitter as the file's. */
  streams = cs_live_session_dup_streams (session);
  file_streams = cs_analysis_get_streams (file);
  g_assert_cmpuint (streams->len, ==, g_list_model_get_n_items (file_streams));
  for (guint i = 0; i < streams->len; i++)
    {
      g_autoptr (CsStream) x = g_list_model_get_item (file_streams, i);
      CsStream *y = g_ptr_array_index (streams, i);

      g_assert_cmpuint (cs_stream_get_stats (x)->packets, ==, cs_stream_get_stats (y)->packets);
      g_assert_cmpint (cs_stream_get_stats (x)->lost, ==, cs_stream_get_stats (y)->lost);
      g_assert_cmpfloat_with_epsilon (cs_stream_get_stats (x)->max_jitter_ms,
                                      cs_stream_get_stats (y)->max_jitter_ms, 1e-9);
    }
  /* A snapshot leaves the session's packets in place: a second one is the same. */
  {
    g_autoptr (GPtrArray) again = cs_live_session_dup_streams (session);

    g_assert_cmpuint (again->len, ==, streams->len);
    for (guint i = 0; i < again->len; i++)
      g_assert_cmpuint (cs_stream_get_stats (g_ptr_array_index (again, i))->packets, ==,
                        cs_stream_get_stats (g_ptr_array_index (streams, i))->packets);
  }

  /* The saved file reopens with identical results. */
  saved = cs_live_session_load_saved (session, &error);
  g_assert_no_error (error);
  live_assert_same_calls (file, saved);
  g_assert_cmpuint (cs_analysis_get_stats (saved)->packets, ==,
                    cs_analysis_get_stats (file)->packets);
  g_assert_cmpuint (cs_analysis_get_stats (saved)->rtp_packets, ==,
                    cs_analysis_get_stats (file)->rtp_packets);
  g_assert_cmpuint (g_list_model_get_n_items (cs_analysis_get_findings (saved)), ==,
                    g_list_model_get_n_items (cs_analysis_get_findings (file)));
  live_tmp_dir_remove (dir);
}

static void
test_ring_rotation (void)
{
  g_autofree char *dir = live_tmp_dir ();
  g_autofree char *path = g_build_filename (dir, "ring.pcapng", NULL);
  g_autoptr (CsRingWriter) ring = NULL;
  g_auto (GStrv) paths = NULL;
  g_autoptr (CsAnalysis) analysis = NULL;
  guint8 frame[200];
  GError *error = NULL;

  memset (frame, 0xab, sizeof frame);
  ring = cs_ring_writer_new (path, 20000, 3, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 1000; i++)
    g_assert_true (cs_ring_writer_write (ring, 1, 1700000000000000000 + i * 1000000, frame,
                                         sizeof frame, sizeof frame, &error));
  g_assert_true (cs_ring_writer_close (ring, &error));
  paths = cs_ring_writer_dup_paths (ring);
  g_assert_cmpuint (g_strv_length (paths), ==, 3);
  g_assert_true (g_str_has_suffix (paths[0], ".pcapng"));
  g_assert_cmpuint (cs_ring_writer_get_files_dropped (ring), >, 0);
  for (guint i = 0; paths[i] != NULL; i++)
    {
      GStatBuf st;

      g_assert_cmpint (g_stat (paths[i], &st), ==, 0);
      g_assert_cmpint (st.st_size, <=, 20000);
    }
  /* Everything not dropped is in the kept files, in order. */
  analysis = live_load ((const char *const *) paths);
  g_assert_cmpuint (cs_analysis_get_stats (analysis)->packets, ==,
                    1000 - cs_ring_writer_get_packets_dropped (ring));
  g_assert_cmpint (cs_analysis_get_stats (analysis)->last_ns, ==,
                   1700000000000000000 + 999 * 1000000);
  live_tmp_dir_remove (dir);
}

static void
test_unwritable_path (void)
{
  GError *error = NULL;
  CsLiveSession *session = cs_live_session_new ("/nonexistent-dir/x.pcapng", 0, 0, &error);

  g_assert_null (session);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "/nonexistent-dir/x.pcapng"));
  g_error_free (error);
}

static void
test_synthesized_frames (void)
{
  const char *addrs[][2] = { { "192.0.2.1", "198.51.100.7" }, { "2001:db8::1", "2001:db8::2" } };
  const char *payload = "OPTIONS sip:a@b SIP/2.0\r\n\r\n";
  g_autoptr (GByteArray) second = NULL;
  CsLiveTcpSeq *seq = cs_live_tcp_seq_new ();

  for (guint i = 0; i < G_N_ELEMENTS (addrs); i++)
    for (guint proto = 0; proto < 2; proto++)
      {
        CsEndpoint src = { 0 }, dst = { 0 };
        guint8 ip_proto = proto == 0 ? CS_IP_PROTO_UDP : CS_IP_PROTO_TCP;
        g_autoptr (GByteArray) frame = NULL;
        CsPacket pkt = { 0 };

        g_assert_true (cs_addr_parse (&src.addr, addrs[i][0]));
        g_assert_true (cs_addr_parse (&dst.addr, addrs[i][1]));
        src.port = 5060;
        dst.port = 5080;
        frame = cs_live_frame_build (&src, &dst, ip_proto, (const guint8 *) payload,
                                     strlen (payload), seq);
        g_assert_nonnull (frame);
        g_assert_cmpint (cs_decode_frame (CS_LINKTYPE_ETHERNET, frame->data, frame->len, &pkt), ==,
                         CS_DECODE_OK);
        g_assert_cmpuint (pkt.ip_proto, ==, ip_proto);
        g_assert_true (cs_endpoint_equal (&pkt.src, &src));
        g_assert_true (cs_endpoint_equal (&pkt.dst, &dst));
        g_assert_cmpmem (pkt.payload, pkt.payload_len, payload, strlen (payload));
        if (ip_proto == CS_IP_PROTO_TCP)
          g_assert_cmpuint (pkt.tcp_seq, ==, 1);
      }
  /* The next TCP message of a flow continues its sequence. */
  {
    CsEndpoint src = { 0 }, dst = { 0 };
    CsPacket pkt = { 0 };

    cs_addr_parse (&src.addr, "192.0.2.1");
    cs_addr_parse (&dst.addr, "198.51.100.7");
    src.port = 5060;
    dst.port = 5080;
    second = cs_live_frame_build (&src, &dst, CS_IP_PROTO_TCP, (const guint8 *) payload,
                                  strlen (payload), seq);
    cs_decode_frame (CS_LINKTYPE_ETHERNET, second->data, second->len, &pkt);
    g_assert_cmpuint (pkt.tcp_seq, ==, 1 + strlen (payload));
    /* Mixed families are refused. */
    cs_addr_parse (&dst.addr, "2001:db8::2");
    g_assert_null (cs_live_frame_build (&src, &dst, CS_IP_PROTO_UDP, NULL, 0, seq));
  }
  cs_live_tcp_seq_free (seq);
}

static void
test_live_list_cap (void)
{
  g_autofree char *path = live_sample_path ("sip-488-codec-reject.pcapng");
  g_autofree char *dir = NULL;
  g_autofree char *out = NULL;
  g_autoptr (CsLiveSession) session = NULL;
  g_autoptr (CsAnalysis) file = NULL;
  CsLiveCounters counters;
  guint n_file;

  if (path == NULL)
    {
      g_test_skip ("sample capture not found (CS_SAMPLES_DIR)");
      return;
    }
  file = live_load_one (path);
  n_file = g_list_model_get_n_items (cs_analysis_get_calls (file));
  dir = live_tmp_dir ();
  out = g_build_filename (dir, "cap.pcapng", NULL);
  session = feed_file (path, out, 3);
  cs_live_session_set_max_calls (session, 1);
  cs_live_session_get_counters (session, &counters);
  /* Finished exchanges above the cap leave the live list and are counted. */
  g_assert_cmpuint (g_list_model_get_n_items (cs_live_session_get_calls (session))
                        + counters.calls_evicted,
                    ==, n_file);
  g_assert_cmpuint (counters.calls_evicted, >, 0);
  live_tmp_dir_remove (dir);
}

/* ---- a long live session: memory stays under the call cap ---- */

#define GEN_CALLS 5000
#define GEN_CAP 500
#define GEN_T0 G_GINT64_CONSTANT (1700000000000000000)
#define GEN_MS G_GINT64_CONSTANT (1000000)

typedef struct
{
  CsLiveSession *session;
  CsLiveTcpSeq *seq;
  CsEndpoint caller, callee;
  guint pushed;
} GenFeed;

static void
gen_push (GenFeed *g, const CsEndpoint *src, const CsEndpoint *dst, const guint8 *payload,
          gsize len, gint64 ts_ns)
{
  g_autoptr (GByteArray) frame
      = cs_live_frame_build (src, dst, CS_IP_PROTO_UDP, payload, len, g->seq);

  g_assert_nonnull (frame);
  cs_live_session_push_frame (g->session, CS_LINKTYPE_ETHERNET, ts_ns, frame->data, frame->len,
                              frame->len);
  g->pushed++;
}

static void
gen_sip (GenFeed *g, gboolean from_caller, gint64 ts_ns, const char *start, guint call,
         const char *to_tag, const char *cseq, const char *branch, guint rtp_port)
{
  g_autofree char *sdp = NULL;
  g_autofree char *text = NULL;

  if (rtp_port != 0)
    sdp = g_strdup_printf ("v=0\r\no=- 1 1 IN IP4 10.0.%u.1\r\ns=-\r\nc=IN IP4 10.0.%u.1\r\n"
                           "t=0 0\r\nm=audio %u RTP/AVP 0\r\na=rtpmap:0 PCMU/8000\r\n",
                           from_caller ? 1 : 2, from_caller ? 1 : 2, rtp_port);
  text = g_strdup_printf (
      "%s\r\nVia: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK%s%u\r\n"
      "From: <sip:1001@example.com>;tag=f%u\r\nTo: <sip:1002@example.com>%s%s\r\n"
      "Call-ID: call-%u\r\nCSeq: %s\r\n%sContent-Length: %zu\r\n\r\n%s",
      start, branch, call, call, to_tag != NULL ? ";tag=" : "", to_tag != NULL ? to_tag : "", call,
      cseq, sdp != NULL ? "Content-Type: application/sdp\r\n" : "", sdp != NULL ? strlen (sdp) : 0,
      sdp != NULL ? sdp : "");
  gen_push (g, from_caller ? &g->caller : &g->callee, from_caller ? &g->callee : &g->caller,
            (const guint8 *) text, strlen (text), ts_ns);
}

/* Call i: INVITE/200/ACK with SDP, 3 RTP packets caller→callee, BYE/200, within 150 ms; calls
 * start every 200 ms. Calls 500, 1500… are never hung up (it stays in progress). */
static void
gen_call (GenFeed *g, guint i)
{
  gint64 t = GEN_T0 + (gint64) i * 200 * GEN_MS;
  guint port = 10000 + 2 * i;
  CsEndpoint src = { 0 }, dst = { 0 };

  gen_sip (g, TRUE, t, "INVITE sip:1002@example.com SIP/2.0", i, NULL, "1 INVITE", "a", port);
  gen_sip (g, FALSE, t + 10 * GEN_MS, "SIP/2.0 200 OK", i, "t", "1 INVITE", "a", port);
  gen_sip (g, TRUE, t + 20 * GEN_MS, "ACK sip:1002@example.com SIP/2.0", i, "t", "1 ACK", "b", 0);
  g_assert_true (cs_addr_parse (&src.addr, "10.0.1.1"));
  g_assert_true (cs_addr_parse (&dst.addr, "10.0.2.1"));
  src.port = dst.port = (guint16) port;
  for (guint k = 0; k < 3; k++)
    {
      guint8 rtp[12 + 160];

      memset (rtp, 0xff, sizeof rtp);
      rtp[0] = 0x80;
      rtp[1] = 0; /* PCMU */
      rtp[2] = 0;
      rtp[3] = (guint8) k;
      memset (rtp + 4, 0, 4);
      rtp[7] = (guint8) (k * 160);
      rtp[6] = (guint8) ((k * 160) >> 8);
      rtp[8] = (guint8) (i >> 24);
      rtp[9] = (guint8) (i >> 16);
      rtp[10] = (guint8) (i >> 8);
      rtp[11] = (guint8) (i + 1);
      gen_push (g, &src, &dst, rtp, sizeof rtp, t + (40 + 20 * k) * GEN_MS);
    }
  if (i % 1000 == 500)
    return;
  gen_sip (g, TRUE, t + 100 * GEN_MS, "BYE sip:1002@example.com SIP/2.0", i, "t", "2 BYE", "c", 0);
  gen_sip (g, FALSE, t + 110 * GEN_MS, "SIP/2.0 200 OK", i, "t", "2 BYE", "c", 0);
}

static void
test_long_session_eviction (void)
{
  g_autofree char *dir = live_tmp_dir ();
  g_autofree char *path = g_build_filename (dir, "long.pcapng", NULL);
  g_autoptr (CsLiveSession) session = NULL;
  g_autoptr (CsAnalysis) saved = NULL;
  g_autoptr (GPtrArray) streams = NULL;
  g_autoptr (GHashTable) kept_numbers = g_hash_table_new (NULL, NULL);
  g_auto (GStrv) paths = NULL;
  GListModel *calls;
  CsLiveCounters c;
  GenFeed g = { 0 };
  GError *error = NULL;
  guint max_kept = 0, in_progress = 0;

  session = cs_live_session_new (path, 512 * 1024, 3, &error);
  g_assert_no_error (error);
  cs_live_session_set_max_calls (session, GEN_CAP);
  g.session = session;
  g.seq = cs_live_tcp_seq_new ();
  g_assert_true (cs_addr_parse (&g.caller.addr, "10.0.0.1"));
  g_assert_true (cs_addr_parse (&g.callee.addr, "10.0.0.2"));
  g.caller.port = g.callee.port = 5060;
  for (guint i = 0; i < GEN_CALLS; i++)
    {
      gen_call (&g, i);
      if (i % 5 == 4)
        {
          cs_live_session_process_pending (session);
          cs_live_session_get_counters (session, &c);
          /* Every batch ends under the cap, and the list shows exactly what is kept. */
          g_assert_cmpuint (c.calls_kept, <=, GEN_CAP);
          g_assert_cmpuint (g_list_model_get_n_items (cs_live_session_get_calls (session)), ==,
                            c.calls_kept);
          max_kept = MAX (max_kept, (guint) c.calls_kept);
        }
    }
  g_assert_true (cs_live_session_stop (session, &error));
  g_assert_no_error (error);
  cs_live_session_get_counters (session, &c);
  g_assert_cmpuint (c.packets, ==, g.pushed);
  g_assert_cmpuint (c.queue_drops, ==, 0);
  g_assert_cmpuint (c.calls, ==, GEN_CALLS);
  g_assert_cmpuint (max_kept, ==, GEN_CAP);
  g_assert_cmpuint (c.calls_kept, ==, GEN_CAP);
  g_assert_cmpuint (c.calls_evicted, ==, GEN_CALLS - GEN_CAP);
  /* Each evicted call took its 3 RTP packets with it. */
  g_assert_cmpuint (c.rtp_packets_evicted, ==, 3 * c.calls_evicted);
  g_assert_cmpuint (c.rtp_packets, ==, 3 * GEN_CALLS);

  /* The kept calls are the newest and those still in progress; numbers go on after evictions. */
  calls = cs_live_session_get_calls (session);
  for (guint i = 0; i < g_list_model_get_n_items (calls); i++)
    {
      g_autoptr (CsCall) call = g_list_model_get_item (calls, i);

      g_hash_table_add (kept_numbers, GUINT_TO_POINTER (cs_call_get_number (call)));
      if (cs_call_get_state (call) == CS_CALL_STATE_IN_CALL)
        {
          in_progress++;
          g_assert_cmpuint (cs_call_get_number (call) % 1000, ==, 501);
        }
      if (i == g_list_model_get_n_items (calls) - 1)
        {
          g_assert_cmpuint (cs_call_get_number (call), ==, GEN_CALLS);
          g_assert_cmpstr (cs_call_get_call_id (call), ==, "call-4999");
        }
    }
  g_assert_cmpuint (in_progress, ==, GEN_CALLS / 1000);
  /* Streams are left only for the kept calls: one each. */
  streams = cs_live_session_dup_streams (session);
  g_assert_cmpuint (streams->len, ==, GEN_CAP);
  for (guint i = 0; i < streams->len; i++)
    g_assert_true (g_hash_table_contains (
        kept_numbers,
        GUINT_TO_POINTER (cs_stream_get_call_number (g_ptr_array_index (streams, i)))));

  /* A smaller cap evicts finished calls even inside the idle window; calls in progress stay. */
  cs_live_session_set_max_calls (session, 50);
  cs_live_session_get_counters (session, &c);
  g_assert_cmpuint (c.calls_kept, ==, 50);
  g_assert_cmpuint (c.calls_evicted, ==, GEN_CALLS - 50);
  /* Paused, the list keeps its rows while memory is freed; resuming removes them. */
  cs_live_session_set_paused (session, TRUE);
  cs_live_session_set_max_calls (session, 10);
  cs_live_session_get_counters (session, &c);
  g_assert_cmpuint (c.calls_kept, ==, 10);
  g_assert_cmpuint (g_list_model_get_n_items (calls), ==, 50);
  cs_live_session_set_paused (session, FALSE);
  g_assert_cmpuint (g_list_model_get_n_items (calls), ==, 10);
  cs_live_session_set_max_calls (session, 2);
  cs_live_session_get_counters (session, &c);
  g_assert_cmpuint (c.calls_kept, ==, GEN_CALLS / 1000);
  g_assert_cmpuint (g_list_model_get_n_items (calls), ==, GEN_CALLS / 1000);

  /* The ring kept the newest 3 files of ≤ 512 KiB; they reopen with the last calls. */
  paths = cs_live_session_dup_paths (session);
  g_assert_cmpuint (g_strv_length (paths), ==, 3);
  for (guint i = 0; paths[i] != NULL; i++)
    {
      GStatBuf st;

      g_assert_cmpint (g_stat (paths[i], &st), ==, 0);
      g_assert_cmpint (st.st_size, <=, 512 * 1024);
    }
  saved = cs_live_session_load_saved (session, &error);
  g_assert_no_error (error);
  g_assert_cmpint (cs_analysis_get_stats (saved)->last_ns, ==,
                   GEN_T0 + (gint64) (GEN_CALLS - 1) * 200 * GEN_MS + 110 * GEN_MS);
  g_assert_cmpuint (g_list_model_get_n_items (cs_analysis_get_calls (saved)), >, 300);
  g_assert_cmpuint (g_list_model_get_n_items (cs_analysis_get_calls (saved)), <, GEN_CALLS);
  {
    GListModel *saved_calls = cs_analysis_get_calls (saved);
    g_autoptr (CsCall) last
        = g_list_model_get_item (saved_calls, g_list_model_get_n_items (saved_calls) - 1);

    g_assert_cmpstr (cs_call_get_call_id (last), ==, "call-4999");
    g_assert_cmpint (cs_call_get_state (last), ==, CS_CALL_STATE_COMPLETED);
  }
  cs_live_tcp_seq_free (g.seq);
  live_tmp_dir_remove (dir);
}

int
main (int argc, char **argv)
{
  static const char *samples[] = { "sip-rtp-g711.pcap",
                                   "sip_call.pcap",
                                   "sip-over-tcp.pcap",
                                   "sip-register.pcap",
                                   "sip-rtp-opus-hybrid.pcap",
                                   "DTMFsipinfo.pcap",
                                   "sip-488-codec-reject.pcapng",
                                   "sip-auth-failure.pcapng",
                                   "sip-proxy.pcap",
                                   "invite-opus-bye.pcap",
                                   "sip-rtp-g729a.pcap",
                                   "rtp-protocol.pcap" };

  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *name = g_strdup_printf ("/live/session/same-as-file/%s", samples[i]);

      g_test_add_data_func (name, samples[i], check_sample);
    }
  g_test_add_func ("/live/ring/rotation", test_ring_rotation);
  g_test_add_func ("/live/session/unwritable-path", test_unwritable_path);
  g_test_add_func ("/live/frame/synthesized", test_synthesized_frames);
  g_test_add_func ("/live/session/list-cap", test_live_list_cap);
  g_test_add_func ("/live/session/long-eviction", test_long_session_eviction);
  return g_test_run ();
}
