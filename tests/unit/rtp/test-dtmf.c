/* test-dtmf.c — RFC 4733 event folding and SIP INFO bodies */
#include "rtp/cs-dtmf.h"

#include <string.h>

static void
test_parse_event (void)
{
  const guint8 payload[] = { 11, 0x80 | 10, 0x03, 0x20 };
  CsDtmfEvent ev;

  g_assert_true (cs_dtmf_parse_event (payload, sizeof payload, &ev));
  g_assert_cmpuint (ev.event, ==, 11);
  g_assert_true (ev.end);
  g_assert_cmpuint (ev.volume, ==, 10);
  g_assert_cmpuint (ev.duration, ==, 800);
  g_assert_false (cs_dtmf_parse_event (payload, 3, &ev));
  g_assert_cmpint (cs_dtmf_event_char (0), ==, '0');
  g_assert_cmpint (cs_dtmf_event_char (10), ==, '*');
  g_assert_cmpint (cs_dtmf_event_char (11), ==, '#');
  g_assert_cmpint (cs_dtmf_event_char (15), ==, 'D');
  g_assert_cmpint (cs_dtmf_event_char (16), ==, '!');
  g_assert_cmpint (cs_dtmf_event_char (40), ==, '?');
}

typedef struct
{
  double t_ms;
  guint32 ts;
  guint8 event;
  gboolean end;
  guint16 duration;
} EventPacket;

static void
test_fold_stream (void)
{
  /* digit 5: three progress packets, three redundant end packets; then digit #,
   * one of whose end packets arrives after the first packet of digit 1 */
  static const EventPacket ev[] = {
    { 0, 8000, 5, FALSE, 160 },     { 20, 8000, 5, FALSE, 320 },   { 40, 8000, 5, FALSE, 480 },
    { 60, 8000, 5, TRUE, 640 },     { 61, 8000, 5, TRUE, 640 },    { 62, 8000, 5, TRUE, 640 },
    { 300, 12000, 11, FALSE, 160 }, { 320, 12000, 11, TRUE, 400 }, { 600, 16000, 1, FALSE, 160 },
    { 601, 12000, 11, TRUE, 400 },  { 620, 16000, 1, TRUE, 800 },
  };
  gsize n = G_N_ELEMENTS (ev);
  g_autofree CsRtpPacket *packets = g_new0 (CsRtpPacket, n);
  g_autofree guint8 *bytes = g_new0 (guint8, 4 * n);
  g_autofree const guint8 **payloads = g_new0 (const guint8 *, n);
  g_autofree gsize *lens = g_new0 (gsize, n);
  g_autoptr (GArray) digits = NULL;
  const CsDtmfDigit *d;

  for (gsize i = 0; i < n; i++)
    {
      packets[i].arrival_ns = (gint64) (ev[i].t_ms * 1e6);
      packets[i].frame = (guint32) (100 + i);
      packets[i].seq = (guint16) i;
      packets[i].timestamp = ev[i].ts;
      packets[i].payload_type = 101;
      bytes[4 * i] = ev[i].event;
      bytes[4 * i + 1] = (ev[i].end ? 0x80 : 0) | 10;
      bytes[4 * i + 2] = ev[i].duration >> 8;
      bytes[4 * i + 3] = ev[i].duration & 0xff;
      payloads[i] = bytes + 4 * i;
      lens[i] = 4;
    }
  digits = cs_dtmf_fold (packets, payloads, lens, n, 101, 8000);
  g_assert_cmpuint (digits->len, ==, 3);

  d = &g_array_index (digits, CsDtmfDigit, 0);
  g_assert_cmpint (d->digit, ==, '5');
  g_assert_true (d->ended);
  g_assert_cmpuint (d->packets, ==, 6);
  g_assert_cmpfloat_with_epsilon (d->duration_ms, 80.0, 1e-9);
  g_assert_cmpint (d->start_ns, ==, 0);
  g_assert_cmpuint (d->first_frame, ==, 100);
  g_assert_cmpuint (d->last_frame, ==, 105);
  g_assert_cmpuint (d->volume, ==, 10);

  d = &g_array_index (digits, CsDtmfDigit, 1);
  g_assert_cmpint (d->digit, ==, '#');
  g_assert_cmpuint (d->packets, ==, 3); /* the late end packet merged back */
  g_assert_cmpfloat_with_epsilon (d->duration_ms, 50.0, 1e-9);
  g_assert_cmpuint (d->last_frame, ==, 109);

  d = &g_array_index (digits, CsDtmfDigit, 2);
  g_assert_cmpint (d->digit, ==, '1');
  g_assert_cmpfloat_with_epsilon (d->duration_ms, 100.0, 1e-9);
  g_assert_cmpint (d->start_ns, ==, 600000000);
}

static void
test_fold_skips_other_payloads (void)
{
  CsRtpPacket p[2] = { { 0 } };
  const guint8 audio[160] = { 0 };
  const guint8 event[4] = { 9, 0x80, 0, 160 };
  const guint8 *payloads[2] = { audio, event };
  gsize lens[2] = { sizeof audio, sizeof event };
  g_autoptr (GArray) digits = NULL;

  p[0].payload_type = 0;
  p[1].payload_type = 101;
  digits = cs_dtmf_fold (p, payloads, lens, 2, 101, 0);
  g_assert_cmpuint (digits->len, ==, 1);
  g_assert_cmpint (g_array_index (digits, CsDtmfDigit, 0).digit, ==, '9');
  g_assert_cmpfloat_with_epsilon (g_array_index (digits, CsDtmfDigit, 0).duration_ms, 20.0, 1e-9);
}

static void
test_sip_info (void)
{
  const char *relay = "Signal= 2\r\nDuration= 180\r\n"; /* as in DTMFsipinfo.pcap */
  const char *star = "signal=*\nduration=250";
  const char *code = "Signal=11\r\n";
  char digit = 0;
  guint ms = 1;

  g_assert_true (cs_dtmf_parse_sip_info ("application/dtmf-relay", (const guint8 *) relay,
                                         strlen (relay), &digit, &ms));
  g_assert_cmpint (digit, ==, '2');
  g_assert_cmpuint (ms, ==, 180);
  g_assert_true (cs_dtmf_parse_sip_info ("Application/DTMF-Relay; charset=x", (const guint8 *) star,
                                         strlen (star), &digit, &ms));
  g_assert_cmpint (digit, ==, '*');
  g_assert_cmpuint (ms, ==, 250);
  g_assert_true (cs_dtmf_parse_sip_info ("application/dtmf-relay", (const guint8 *) code,
                                         strlen (code), &digit, &ms));
  g_assert_cmpint (digit, ==, '#');
  g_assert_cmpuint (ms, ==, 0);
  g_assert_true (
      cs_dtmf_parse_sip_info ("application/dtmf", (const guint8 *) "5\r\n", 3, &digit, &ms));
  g_assert_cmpint (digit, ==, '5');
  g_assert_false (cs_dtmf_parse_sip_info ("application/sdp", (const guint8 *) "5", 1, &digit, &ms));
  g_assert_false (cs_dtmf_parse_sip_info ("application/dtmf-relay", (const guint8 *) "Duration=1",
                                          10, &digit, &ms));
  g_assert_false (
      cs_dtmf_parse_sip_info ("application/dtmf", (const guint8 *) "55", 2, &digit, &ms));
  g_assert_false (cs_dtmf_parse_sip_info ("application/dtmf-relay", NULL, 0, &digit, &ms));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/dtmf/parse-event", test_parse_event);
  g_test_add_func ("/dtmf/fold-stream", test_fold_stream);
  g_test_add_func ("/dtmf/fold-skips-audio", test_fold_skips_other_payloads);
  g_test_add_func ("/dtmf/sip-info", test_sip_info);
  return g_test_run ();
}
