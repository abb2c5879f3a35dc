/* RTCP attached to its stream on SIP_CALL_RTP_G711, against TShark 4.0.17:
 *   tshark -r SIP_CALL_RTP_G711 -Y rtcp -T fields -e frame.number -e rtcp.senderssrc
 *     -e rtcp.ssrc.identifier -e rtcp.ssrc.fraction -e rtcp.ssrc.cum_nr -e rtcp.ssrc.jitter
 *     -e rtcp.sdes.text
 *   tshark -r SIP_CALL_RTP_G711 -o rtcp.show_roundtrip_calculation:TRUE
 *     -o rtcp.roundtrip_min_threshhold:0 -Y rtcp.roundtrip-delay
 *     -T fields -e frame.number -e rtcp.lsr-frame -e rtcp.roundtrip-delay
 * The values are copied below (the samples' reference text has no RTCP). Wireshark's RTT
 * is whole milliseconds (gap and DLSR each truncated), ours exact: they differ by < 2 ms. */
#include <math.h>

#include "loader/cs-loader.h"
#include "calls/cs-stream-rtcp.h"

typedef struct
{
  guint32 frame, sr_frame;
  int tshark_rtt_ms;
} TsharkRtt;

typedef struct
{
  const char *src, *dst;
  guint32 ssrc;
  guint n_sr, n_rr;
  const char *cname;
  guint32 last_jitter, max_jitter; /* timestamp units, 8 kHz */
  const TsharkRtt *rtts;
  guint n_rtts;
} ExpectedStream;

/* .196 relays RTCP between the two legs; each leg's reports name the SR of its own leg. */
static const TsharkRtt leg_a_rtts[]
    = { { 1567, 1181, 2 }, { 2612, 1966, 2 }, { 3041, 2858, 2 }, { 3772, 3283, 3 } };
static const TsharkRtt leg_b_rtts[]
    = { { 1565, 1183, 1 }, { 2610, 1967, 1 }, { 3040, 2860, 1 }, { 3770, 3285, 2 } };

static const ExpectedStream expected[] = {
  /* SRs 504 529 1181 1966 2644 2858 3283 4030; blocks about it in 523 881 1567 2612 3041 3772 */
  { "200.57.7.204:8000", "200.57.7.196:40376", 0xD2BD4E3E, 8, 6, "unknown@200.57.7.204", 20, 20,
    leg_a_rtts, G_N_ELEMENTS (leg_a_rtts) },
  /* SRs 523 881 1567 2612 3041 3772; blocks about it in 529 1181 1966 2644 2858 3283 4030 */
  { "200.57.7.196:40376", "200.57.7.204:8000", 0x58F33DEA, 6, 7, "ACLTP ChannelHandle 30", 9244,
    9244, NULL, 0 },
  /* the other leg, relayed by .196: SRs 505 531 1183 1967 2646 2860 3285 4031 (531 and 2646,
   * with the SDES, only with `-d udp.port==4801,rtcp`); blocks in 521 879 1565 2610 3040 3770 */
  { "200.57.7.196:40378", "200.57.7.199:4800", 0xD2BD4E3E, 8, 6, "unknown@200.57.7.204", 20, 20,
    leg_b_rtts, G_N_ELEMENTS (leg_b_rtts) },
  /* its reverse: SRs 521 879 1565 2610 3040 3770; blocks in 531 1183 1967 2646 2860 3285 4031 */
  { "200.57.7.199:4800", "200.57.7.196:40378", 0x58F33DEA, 6, 7, "ACLTP ChannelHandle 30", 9244,
    9244, NULL, 0 },
};

static CsStream *
find_stream (CsAnalysis *analysis, const ExpectedStream *e)
{
  GListModel *streams = cs_analysis_get_streams (analysis);

  for (guint i = 0; i < g_list_model_get_n_items (streams); i++)
    {
      g_autoptr (CsStream) s = g_list_model_get_item (streams, i);
      char src[CS_ENDPOINT_STRLEN], dst[CS_ENDPOINT_STRLEN];

      if (cs_stream_get_ssrc (s) == e->ssrc
          && g_str_equal (cs_endpoint_to_string (cs_stream_get_src (s), src), e->src)
          && g_str_equal (cs_endpoint_to_string (cs_stream_get_dst (s), dst), e->dst))
        return s; /* the analysis keeps its own reference */
    }
  return NULL;
}

static void
test_rtcp_sip_call_rtp_g711 (void)
{
  const char *dir = g_getenv ("CS_SAMPLES_DIR");
  g_autofree char *path = dir != NULL ? g_build_filename (dir, "SIP_CALL_RTP_G711", NULL) : NULL;
  const char *paths[] = { path, NULL };
  g_autoptr (CsLoader) loader = NULL;
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (GError) error = NULL;

  if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("samples not available");
      return;
    }
  loader = cs_loader_new ();
  analysis = cs_loader_load (loader, paths, NULL, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      const ExpectedStream *e = &expected[i];
      CsStream *stream = find_stream (analysis, e);
      const CsStreamRtcp *rtcp;
      guint n_rtt = 0;

      g_assert_nonnull (stream);
      rtcp = cs_stream_get_rtcp (stream);
      g_assert_nonnull (rtcp);
      g_assert_cmpuint (rtcp->n_sr, ==, e->n_sr);
      g_assert_cmpuint (rtcp->n_rr, ==, e->n_rr);
      g_assert_cmpstr (rtcp->cname, ==, e->cname);
      g_assert_cmpuint (rtcp->last_fraction_lost, ==, 0);
      g_assert_cmpuint (rtcp->max_fraction_lost, ==, 0);
      g_assert_cmpint (rtcp->last_cumulative_lost, ==, 0);
      g_assert_cmpfloat_with_epsilon (rtcp->last_jitter_ms, e->last_jitter / 8.0, 1e-9);
      g_assert_cmpfloat_with_epsilon (rtcp->max_jitter_ms, e->max_jitter / 8.0, 1e-9);
      for (guint r = 0; r < rtcp->reports->len; r++)
        {
          const CsStreamRtcpReport *rep = &g_array_index (rtcp->reports, CsStreamRtcpReport, r);

          if (rep->rtt_ms < 0)
            continue;
          g_assert_cmpuint (n_rtt, <, e->n_rtts);
          g_assert_cmpuint (rep->frame, ==, e->rtts[n_rtt].frame);
          g_assert_cmpuint (rep->sr_frame, ==, e->rtts[n_rtt].sr_frame);
          g_assert_cmpfloat (fabs (rep->rtt_ms - e->rtts[n_rtt].tshark_rtt_ms), <, 2.0);
          n_rtt++;
        }
      g_assert_cmpuint (n_rtt, ==, e->n_rtts);
      g_assert_cmpuint (rtcp->n_rtt, ==, e->n_rtts);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/golden/samples/rtcp/sip-call-rtp-g711", test_rtcp_sip_call_rtp_g711);
  return g_test_run ();
}
