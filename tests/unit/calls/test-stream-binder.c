/* Stream binding: runs bound to the call whose SDP announced their endpoint, in one step
 * (cs_stream_binder_build) or through a plan built before the runs and the binder are
 * freed (cs_stream_binder_plan + cs_stream_plan_build): both give the same streams. */
#include <string.h>

#include "calls/cs-call-private.h"
#include "calls/cs-stream-binder.h"

static const char invite_text[] = "INVITE sip:1002@example.com SIP/2.0\r\n"
                                  "Via: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK-1\r\n"
                                  "From: <sip:1001@example.com>;tag=a\r\n"
                                  "To: <sip:1002@example.com>\r\n"
                                  "Call-ID: binder-test\r\n"
                                  "CSeq: 1 INVITE\r\n"
                                  "Content-Type: application/sdp\r\n"
                                  "Content-Length: 112\r\n\r\n"
                                  "v=0\r\n"
                                  "o=- 1 1 IN IP4 192.0.2.10\r\n"
                                  "s=-\r\n"
                                  "c=IN IP4 192.0.2.10\r\n"
                                  "t=0 0\r\n"
                                  "m=audio 5000 RTP/AVP 8\r\n"
                                  "a=rtpmap:8 PCMA/8000\r\n";

/* A run of n packets from frame first_frame on (every other frame), src → dst:port. */
static CsRtpRun *
make_run (guint8 dst_last_byte, guint16 dst_port, guint32 ssrc, guint32 first_frame, guint n)
{
  CsRtpRun *run = g_new0 (CsRtpRun, 1);
  g_autofree CsRtpPacket *packets = g_new0 (CsRtpPacket, n);

  run->key.src.addr.family = run->key.dst.addr.family = 4;
  run->key.src.addr.bytes[0] = 198;
  run->key.src.addr.bytes[3] = 7;
  run->key.src.port = 7000;
  run->key.dst.addr.bytes[0] = 192;
  run->key.dst.addr.bytes[2] = 2;
  run->key.dst.addr.bytes[3] = dst_last_byte;
  run->key.dst.port = dst_port;
  run->key.ssrc = ssrc;
  for (guint i = 0; i < n; i++)
    {
      packets[i].frame = first_frame + 2 * i;
      packets[i].arrival_ns = 1000000000ll + (gint64) packets[i].frame * 10000000ll;
      packets[i].seq = (guint16) (100 + i);
      packets[i].timestamp = 8000 + 160 * i;
      packets[i].payload_len = 160;
      packets[i].payload_type = 8;
    }
  cs_rtp_pack_append (&run->pack, packets, n);
  return run;
}

static void
run_free (gpointer data)
{
  CsRtpRun *run = data;

  cs_rtp_pack_clear (&run->pack);
  g_free (run);
}

static GPtrArray *
make_runs (void)
{
  GPtrArray *runs = g_ptr_array_new_with_free_func (run_free);

  /* announced at frame 3: its packets before that are dropped */
  g_ptr_array_add (runs, make_run (10, 5000, 1, 2, 12));
  /* nobody announced it, but it looks like media */
  g_ptr_array_add (runs, make_run (99, 6000, 2, 5, 8));
  /* a single stray packet: no stream */
  g_ptr_array_add (runs, make_run (98, 6002, 3, 9, 1));
  return runs;
}

static CsStreamBinder *
make_binder (CsCall **call_out)
{
  CsStreamBinder *binder = cs_stream_binder_new ();
  CsSipMessage *invite
      = cs_sip_message_parse ((const guint8 *) invite_text, strlen (invite_text), NULL);

  g_assert_nonnull (invite);
  g_assert_nonnull (cs_sip_message_get_sdp (invite));
  cs_sip_message_set_frame (invite, 3);
  *call_out = cs_call_new (7, invite);
  cs_stream_binder_add_sdp (binder, *call_out, invite);
  cs_sip_message_unref (invite);
  return binder;
}

static void
assert_streams (GPtrArray *streams)
{
  CsStream *bound, *heuristic;
  g_autofree CsRtpPacket *records = NULL;
  guint n = 0;

  g_assert_cmpuint (streams->len, ==, 2);
  bound = g_ptr_array_index (streams, 0);
  heuristic = g_ptr_array_index (streams, 1);
  g_assert_cmpuint (cs_stream_get_id (bound), ==, 1);
  g_assert_cmpuint (cs_stream_get_id (heuristic), ==, 2);
  g_assert_cmpuint (cs_stream_get_call_number (bound), ==, 7);
  g_assert_cmpuint (cs_stream_get_call_number (heuristic), ==, 0);
  /* frame 2 came before the SDP of frame 3 */
  g_assert_cmpuint (cs_stream_get_n_packets (bound), ==, 11);
  records = cs_stream_dup_packet_records (bound, &n);
  g_assert_cmpuint (n, ==, 11);
  g_assert_cmpuint (records[0].frame, ==, 4);
  g_assert_cmpuint (records[0].seq, ==, 101);
  g_assert_cmpuint (records[10].frame, ==, 24);
  g_assert_cmpuint (cs_stream_get_n_packets (heuristic), ==, 8);
  g_assert_cmpuint (cs_stream_get_stats (bound)->clock_rate, ==, 8000);
}

static void
test_build_binds_announced_runs (void)
{
  CsCall *call = NULL;
  CsStreamBinder *binder = make_binder (&call);
  g_autoptr (GPtrArray) runs = make_runs ();
  g_autoptr (GPtrArray) streams = cs_stream_binder_build (binder, runs, 1);

  assert_streams (streams);
  /* the streams took the packets of the runs they were made of */
  g_assert_null (((CsRtpRun *) g_ptr_array_index (runs, 0))->pack.data);
  g_assert_null (((CsRtpRun *) g_ptr_array_index (runs, 1))->pack.data);
  cs_stream_binder_free (binder);
  g_object_unref (call);
}

static void
test_plan_outlives_runs_and_binder (void)
{
  CsCall *call = NULL;
  CsStreamBinder *binder = make_binder (&call);
  GPtrArray *runs = make_runs ();
  CsStreamPlan *plan = cs_stream_binder_plan (binder, runs);
  g_autoptr (GPtrArray) streams = NULL;

  /* what the plan needs was taken out of both */
  g_ptr_array_unref (runs);
  cs_stream_binder_free (binder);
  streams = cs_stream_plan_build (plan, 1);
  assert_streams (streams);
  g_object_unref (call);
}

/* Runs not in order of their first packets give the same streams, numbered in that order. */
static void
test_streams_numbered_by_first_packet (void)
{
  CsCall *call = NULL;
  CsStreamBinder *binder = make_binder (&call);
  g_autoptr (GPtrArray) runs = make_runs ();
  g_autoptr (GPtrArray) streams = NULL;

  g_ptr_array_add (runs, g_ptr_array_steal_index (runs, 0)); /* the bound run last */
  streams = cs_stream_binder_build (binder, runs, 1);
  assert_streams (streams);
  cs_stream_binder_free (binder);
  g_object_unref (call);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stream-binder/build-binds-announced-runs", test_build_binds_announced_runs);
  g_test_add_func ("/stream-binder/plan-outlives-runs-and-binder",
                   test_plan_outlives_runs_and_binder);
  g_test_add_func ("/stream-binder/streams-numbered-by-first-packet",
                   test_streams_numbered_by_first_packet);
  return g_test_run ();
}
