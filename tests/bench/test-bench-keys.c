/* test-bench-keys.c — retransmission signatures and transaction keys, compared field by
 * field since round 2 of the performance work: the linear scan (short calls) and the
 * hash set (long calls) must give the same answers as the old string keys did. */
#include "calls/cs-call-private.h"
#include "sip/cs-sip-message.h"

#include <string.h>

static CsSipMessage *
parse_text (const char *text)
{
  g_autoptr (GError) error = NULL;
  CsSipMessage *msg = cs_sip_message_parse ((const guint8 *) text, strlen (text), &error);

  g_assert_no_error (error);
  g_assert_nonnull (msg);
  return msg;
}

/* A request (status 0) or a response; branch NULL writes a Via without a branch. */
static CsSipMessage *
make_message (guint status, const char *method, guint cseq, const char *branch, const char *to_tag)
{
  g_autofree char *via
      = branch != NULL ? g_strdup_printf ("Via: SIP/2.0/UDP 192.0.2.1:5060;branch=%s\r\n", branch)
                       : g_strdup ("Via: SIP/2.0/UDP 192.0.2.1:5060\r\n");
  g_autofree char *to = to_tag != NULL ? g_strdup_printf (";tag=%s", to_tag) : g_strdup ("");
  g_autofree char *start = status == 0 ? g_strdup_printf ("%s sip:bob@example.com SIP/2.0", method)
                                       : g_strdup_printf ("SIP/2.0 %u Whatever", status);
  g_autofree char *text = g_strdup_printf ("%s\r\n%s"
                                           "From: <sip:alice@example.com>;tag=a1\r\n"
                                           "To: <sip:bob@example.com>%s\r\n"
                                           "Call-ID: keys-1@example.com\r\n"
                                           "CSeq: %u %s\r\n"
                                           "Content-Length: 0\r\n\r\n",
                                           start, via, to, cseq, method);

  return parse_text (text);
}

/* Feeds n_transactions OPTIONS-like transactions (each: request, its retransmission,
 * a 200, the 200 again, a 200 with another To tag), alternating RFC 3261 branches and
 * branchless ones; checks every retransmission flag and the transaction table. */
static void
check_call (guint n_transactions)
{
  g_autoptr (CsSipMessage) first = make_message (0, "INVITE", 1, "z9hG4bKfirst", NULL);
  g_autoptr (CsCall) call = cs_call_new (1, first);
  guint expected_retransmissions = 0;
  guint index = 0;

  cs_call_add_message (call, first);
  g_assert_false (cs_call_message_is_retransmission (call, index++));
  for (guint t = 0; t < n_transactions; t++)
    {
      g_autofree char *branch = t % 2 == 0 ? g_strdup_printf ("z9hG4bK-%u", t) : NULL;
      guint cseq = 2 + t;
      CsSipMessage *sequence[] = {
        make_message (0, "INFO", cseq, branch, NULL),
        make_message (0, "INFO", cseq, branch, NULL), /* retransmission */
        make_message (200, "INFO", cseq, branch, "b1"),
        make_message (200, "INFO", cseq, branch, "b1"),      /* retransmission */
        make_message (200, "INFO", cseq, branch, "other"),   /* another To tag: new */
        make_message (0, "INFO", cseq + 1000, branch, NULL), /* another CSeq: new unless RFC 3261 */
      };
      gboolean repeated[] = { FALSE, TRUE, FALSE, TRUE, FALSE, FALSE };

      for (guint i = 0; i < G_N_ELEMENTS (sequence); i++)
        {
          /* sent 500 ms apart (T1): copies of one transmission captured again come sooner */
          cs_sip_message_set_ts_ns (sequence[i],
                                    (gint64) index * 500 * G_TIME_SPAN_MILLISECOND * 1000);
          cs_call_add_message (call, sequence[i]);
          g_assert_cmpint (cs_call_message_is_retransmission (call, index), ==, repeated[i]);
          g_assert_false (cs_call_message_is_sighting (call, index));
          expected_retransmissions += repeated[i];
          index++;
          cs_sip_message_unref (sequence[i]);
        }
    }
  g_assert_cmpuint (cs_call_get_n_messages (call), ==, index);
  g_assert_cmpuint (cs_call_get_retransmissions (call), ==, expected_retransmissions);

  /* INVITE, then per transaction: INFO (with its retransmission and 200s) and, for
   * branchless requests only, the CSeq+1000 INFO as a transaction of its own (an RFC 3261
   * branch names the transaction without the CSeq). */
  g_assert_cmpuint (cs_call_get_n_transactions (call), ==, 1 + n_transactions + n_transactions / 2);
  for (guint i = 1, t = 0; t < n_transactions; t++)
    {
      const CsTransaction *info = cs_call_get_transaction (call, i++);

      g_assert_cmpuint (info->cseq, ==, 2 + t);
      g_assert_cmpuint (info->transmissions, ==, t % 2 == 0 ? 3 : 2);
      g_assert_cmpuint (info->final_status, ==, 200);
      if (t % 2 == 1)
        {
          const CsTransaction *other = cs_call_get_transaction (call, i++);

          g_assert_cmpuint (other->cseq, ==, 2 + t + 1000);
          g_assert_cmpuint (other->transmissions, ==, 1);
          g_assert_cmpuint (other->final_status, ==, 0);
        }
    }
}

static void
test_short_call (void)
{
  check_call (2); /* 13 messages, 3–4 transactions: linear scans */
}

static void
test_long_call (void)
{
  check_call (30); /* 181 messages, 46 transactions: hash sets */
}

/* Names spelled as most agents do share a constant; others are copied as written. */
static void
test_header_names (void)
{
  g_autoptr (CsSipMessage) msg = parse_text ("OPTIONS sip:bob@example.com SIP/2.0\r\n"
                                             "Via: SIP/2.0/UDP 192.0.2.1;branch=z9hG4bKx\r\n"
                                             "via: SIP/2.0/UDP 192.0.2.2;branch=z9hG4bKy\r\n"
                                             "i: names@example.com\r\n"
                                             "X-Custom: 1\r\n"
                                             "Content-Length: 0\r\n\r\n");
  const char *expected[] = { "Via", "via", "i", "X-Custom", "Content-Length" };

  g_assert_cmpuint (cs_sip_message_get_headers (msg)->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      const CsSipHeader *h = g_ptr_array_index (cs_sip_message_get_headers (msg), i);

      g_assert_cmpstr (h->name, ==, expected[i]);
    }
  g_assert_cmpstr (cs_sip_message_get_call_id (msg), ==, "names@example.com");
  g_assert_cmpstr (cs_sip_message_get_via_branch (msg), ==, "z9hG4bKx");
  g_assert_cmpstr (cs_sip_message_get_header (msg, "Call-ID"), ==, "names@example.com");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bench/keys/short-call", test_short_call);
  g_test_add_func ("/bench/keys/long-call", test_long_call);
  g_test_add_func ("/bench/keys/header-names", test_header_names);
  return g_test_run ();
}
