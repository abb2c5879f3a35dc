/* DTMF per call (cs-call-dtmf): SIP INFO bodies, retransmissions counted once, order. */
#include <string.h>

#include "calls/cs-call-dtmf.h"
#include "calls/cs-call-private.h"
#include "sip/cs-sip-message.h"

static CsSipMessage *
info (const char *content_type, const char *body, guint cseq, guint32 frame, gint64 ts_ns)
{
  g_autofree char *text = g_strdup_printf (
      "INFO sip:bob@example.com SIP/2.0\r\n"
      "Via: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK-%u\r\n"
      "From: <sip:alice@example.com>;tag=a1\r\nTo: <sip:bob@example.com>;tag=b1\r\n"
      "Call-ID: dtmf-test@10.0.0.1\r\nCSeq: %u INFO\r\nContent-Type: %s\r\n"
      "Content-Length: %zu\r\n\r\n%s",
      cseq, cseq, content_type, strlen (body), body);
  CsSipMessage *msg = cs_sip_message_parse ((const guint8 *) text, strlen (text), NULL);

  g_assert_nonnull (msg);
  cs_sip_message_set_frame (msg, frame);
  cs_sip_message_set_first_frame (msg, frame);
  cs_sip_message_set_ts_ns (msg, ts_ns);
  return msg;
}

static void
test_sip_info (void)
{
  CsSipMessage *first
      = info ("application/dtmf-relay", "Signal=7\r\nDuration=250\r\n", 2, 10, 1000000000);
  CsSipMessage *again
      = info ("application/dtmf-relay", "Signal=7\r\nDuration=250\r\n", 2, 11, 1500000000);
  CsSipMessage *star = info ("application/dtmf", "*", 3, 20, 2000000000);
  CsSipMessage *other = info ("text/plain", "hello", 4, 30, 3000000000);
  g_autoptr (CsCall) call = cs_call_new (1, first);
  g_autoptr (GArray) digits = NULL;
  const CsCallDtmf *d;

  cs_call_add_message (call, first);
  g_assert_true (cs_call_add_message (call, again)); /* a retransmission */
  cs_call_add_message (call, star);
  cs_call_add_message (call, other);
  digits = cs_call_collect_dtmf (call, NULL, NULL);
  g_assert_cmpuint (digits->len, ==, 2);
  d = &g_array_index (digits, CsCallDtmf, 0);
  g_assert_cmpint (d->digit, ==, '7');
  g_assert_cmpfloat (d->duration_ms, ==, 250.0);
  g_assert_cmpstr (d->source, ==, CS_DTMF_SOURCE_SIP_INFO);
  g_assert_cmpint (d->start_ns, ==, 1000000000);
  g_assert_cmpuint (d->stream_id, ==, 0);
  g_assert_cmpuint (d->frames->len, ==, 1);
  g_assert_cmpuint (g_array_index (d->frames, guint32, 0), ==, 10);
  d = &g_array_index (digits, CsCallDtmf, 1);
  g_assert_cmpint (d->digit, ==, '*');
  g_assert_cmpfloat (d->duration_ms, ==, 0.0);
  g_assert_cmpuint (g_array_index (d->frames, guint32, 0), ==, 20);
  g_assert_null (cs_call_get_dtmf (call)); /* stored only by cs_call_dtmf_attach_all */
  cs_sip_message_unref (first);
  cs_sip_message_unref (again);
  cs_sip_message_unref (star);
  cs_sip_message_unref (other);
}

static void
test_attach_all (void)
{
  CsSipMessage *msg = info ("application/dtmf", "#", 2, 5, 1000);
  g_autoptr (CsCall) call = cs_call_new (1, msg);
  g_autoptr (GPtrArray) calls = g_ptr_array_new ();
  const GArray *stored;

  cs_call_add_message (call, msg);
  g_ptr_array_add (calls, call);
  cs_call_dtmf_attach_all (calls, NULL, NULL);
  stored = cs_call_get_dtmf (call);
  g_assert_nonnull (stored);
  g_assert_cmpuint (stored->len, ==, 1);
  g_assert_cmpint (g_array_index (stored, CsCallDtmf, 0).digit, ==, '#');
  cs_sip_message_unref (msg);
}

/* Calls without digits get an empty list (shared, not one array each), and a second
 * attach replaces what the first stored. */
static void
test_attach_none (void)
{
  CsSipMessage *plain = info ("text/plain", "hello", 2, 5, 1000);
  CsSipMessage *digit = info ("application/dtmf", "5", 3, 6, 2000);
  g_autoptr (CsCall) a = cs_call_new (1, plain);
  g_autoptr (CsCall) b = cs_call_new (2, plain);
  g_autoptr (GPtrArray) calls = g_ptr_array_new ();

  cs_call_add_message (a, plain);
  cs_call_add_message (b, plain);
  g_ptr_array_add (calls, a);
  g_ptr_array_add (calls, b);
  cs_call_dtmf_attach_all (calls, NULL, NULL);
  g_assert_nonnull (cs_call_get_dtmf (a));
  g_assert_cmpuint (cs_call_get_dtmf (a)->len, ==, 0);
  g_assert_true (cs_call_get_dtmf (a) == cs_call_get_dtmf (b));
  cs_call_add_message (b, digit);
  cs_call_dtmf_attach_all (calls, NULL, NULL);
  g_assert_cmpuint (cs_call_get_dtmf (a)->len, ==, 0);
  g_assert_cmpuint (cs_call_get_dtmf (b)->len, ==, 1);
  g_assert_cmpint (g_array_index (cs_call_get_dtmf (b), CsCallDtmf, 0).digit, ==, '5');
  cs_sip_message_unref (plain);
  cs_sip_message_unref (digit);
}

/* First and last frames and the INFO count are kept as messages are stored, and a
 * snapshot has them too. */
static void
test_stored_frames (void)
{
  CsSipMessage *a = info ("application/dtmf", "1", 2, 40, 1000);
  CsSipMessage *b = info ("application/dtmf", "2", 3, 12, 2000);
  CsSipMessage *c = info ("application/dtmf", "3", 4, 77, 3000);
  g_autoptr (CsCall) call = cs_call_new (1, a);
  g_autoptr (CsCall) copy = NULL;

  g_assert_cmpuint (cs_call_get_first_frame (call), ==, 0);
  g_assert_cmpuint (cs_call_get_last_frame (call), ==, 0);
  cs_call_add_message (call, a);
  cs_call_add_message (call, b);
  g_assert_cmpuint (cs_call_get_first_frame (call), ==, 40);
  g_assert_cmpuint (cs_call_get_last_frame (call), ==, 12);
  cs_call_add_message (call, c);
  g_assert_cmpuint (cs_call_get_last_frame (call), ==, 77);
  g_assert_cmpuint (call->info_requests_stored, ==, 3);
  copy = cs_call_snapshot (call);
  g_assert_cmpuint (cs_call_get_first_frame (copy), ==, 40);
  g_assert_cmpuint (cs_call_get_last_frame (copy), ==, 77);
  g_assert_cmpuint (copy->info_requests_stored, ==, 3);
  cs_sip_message_unref (a);
  cs_sip_message_unref (b);
  cs_sip_message_unref (c);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/call-dtmf/sip-info", test_sip_info);
  g_test_add_func ("/call-dtmf/attach-all", test_attach_all);
  g_test_add_func ("/call-dtmf/attach-none", test_attach_none);
  g_test_add_func ("/call-dtmf/stored-frames", test_stored_frames);
  return g_test_run ();
}
