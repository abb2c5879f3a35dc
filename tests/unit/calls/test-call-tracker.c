/* Call tracking on crafted SIP exchanges: states, timing, Call-ID reuse,
 * retransmissions, authentication retries, callee-side requests. */
#include <string.h>

#include "calls/cs-call-private.h"
#include "calls/cs-call-tracker.h"

#define MS (G_GINT64_CONSTANT (1000000))

typedef struct
{
  CsCallTracker *tracker;
  guint32 frame;
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  f->tracker = cs_call_tracker_new ();
  f->frame = 0;
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  cs_call_tracker_free (f->tracker);
}

/* Feeds one message built from a template; %s fields are filled in order:
 * start line, Via branch, From tag, To (tag part or ""), CSeq. */
static CsCall *
feed (Fixture *f, gint64 t_ms, const char *start, const char *call_id, const char *from_tag,
      const char *to_tag, const char *branch, const char *cseq)
{
  g_autofree char *text = g_strdup_printf ("%s\r\n"
                                           "Via: SIP/2.0/UDP 10.0.0.1:5060;branch=%s\r\n"
                                           "From: <sip:1001@example.com>;tag=%s\r\n"
                                           "To: <sip:1002@example.com>%s%s\r\n"
                                           "Call-ID: %s\r\n"
                                           "CSeq: %s\r\n"
                                           "Content-Length: 0\r\n\r\n",
                                           start, branch, from_tag, to_tag != NULL ? ";tag=" : "",
                                           to_tag != NULL ? to_tag : "", call_id, cseq);
  CsSipMessage *msg = cs_sip_message_parse ((const guint8 *) text, strlen (text), NULL);
  CsCall *call;

  g_assert_nonnull (msg);
  g_assert_null (cs_sip_message_get_malformed (msg));
  cs_sip_message_set_frame (msg, ++f->frame);
  cs_sip_message_set_ts_ns (msg, t_ms * MS);
  call = cs_call_tracker_add (f->tracker, msg);
  cs_sip_message_unref (msg);
  return call;
}

static const GPtrArray *
finish (Fixture *f, gint64 end_ms)
{
  g_ptr_array_unref (cs_call_tracker_finish (f->tracker, end_ms * MS));
  return cs_call_tracker_get_calls (f->tracker);
}

static void
test_completed_call_timing (Fixture *f, gconstpointer data)
{
  const GPtrArray *calls;
  CsCall *call;

  feed (f, 0, "INVITE sip:1002@example.com SIP/2.0", "c1", "a", NULL, "z9hG4bK1", "1 INVITE");
  feed (f, 10, "SIP/2.0 100 Trying", "c1", "a", NULL, "z9hG4bK1", "1 INVITE");
  feed (f, 250, "SIP/2.0 180 Ringing", "c1", "a", "b", "z9hG4bK1", "1 INVITE");
  feed (f, 4250, "SIP/2.0 200 OK", "c1", "a", "b", "z9hG4bK1", "1 INVITE");
  feed (f, 4260, "ACK sip:1002@example.com SIP/2.0", "c1", "a", "b", "z9hG4bK2", "1 ACK");
  feed (f, 64260, "BYE sip:1002@example.com SIP/2.0", "c1", "a", "b", "z9hG4bK3", "2 BYE");
  feed (f, 64270, "SIP/2.0 200 OK", "c1", "a", "b", "z9hG4bK3", "2 BYE");
  calls = finish (f, 70000);
  g_assert_cmpuint (calls->len, ==, 1);
  call = g_ptr_array_index (calls, 0);
  g_assert_cmpint (cs_call_get_state (call), ==, CS_CALL_STATE_COMPLETED);
  g_assert_cmpuint (cs_call_get_final_status (call), ==, 200);
  g_assert_cmpfloat_with_epsilon (cs_call_get_pdd_ms (call), 250, 1e-6);
  g_assert_cmpfloat_with_epsilon (cs_call_get_setup_ms (call), 4250, 1e-6);
  g_assert_cmpfloat_with_epsilon (cs_call_get_ring_ms (call), 4000, 1e-6);
  g_assert_cmpfloat_with_epsilon (cs_call_get_duration_s (call), 60.01, 1e-6); /* 2xx → BYE */
  g_assert_cmpuint (cs_call_get_n_messages (call), ==, 7);
  g_assert_cmpuint (cs_call_get_retransmissions (call), ==, 0);
  g_assert_cmpuint (cs_call_get_n_transactions (call), ==, 2); /* INVITE, BYE (ACK is none) */
  g_assert_cmpfloat_with_epsilon (
      cs_transaction_final_response_ms (cs_call_get_transaction (call, 1)), 10, 1e-6);
}

static void
test_rejected_cancelled_failed (Fixture *f, gconstpointer data)
{
  const GPtrArray *calls;

  feed (f, 0, "INVITE sip:1002@example.com SIP/2.0", "busy", "a", NULL, "z9hG4bK1", "1 INVITE");
  feed (f, 100, "SIP/2.0 486 Busy Here", "busy", "a", "b", "z9hG4bK1", "1 INVITE");
  feed (f, 200, "INVITE sip:1002@example.com SIP/2.0", "cancel", "a", NULL, "z9hG4bK5", "1 INVITE");
  feed (f, 300, "SIP/2.0 180 Ringing", "cancel", "a", "b", "z9hG4bK5", "1 INVITE");
  feed (f, 900, "CANCEL sip:1002@example.com SIP/2.0", "cancel", "a", NULL, "z9hG4bK5", "1 CANCEL");
  feed (f, 910, "SIP/2.0 200 OK", "cancel", "a", "b", "z9hG4bK5", "1 CANCEL");
  feed (f, 920, "SIP/2.0 487 Request Terminated", "cancel", "a", "b", "z9hG4bK5", "1 INVITE");
  feed (f, 1000, "INVITE sip:1002@example.com SIP/2.0", "dead", "a", NULL, "z9hG4bK7", "1 INVITE");
  feed (f, 1500, "INVITE sip:1002@example.com SIP/2.0", "dead", "a", NULL, "z9hG4bK7", "1 INVITE");
  feed (f, 2000, "INVITE sip:1002@example.com SIP/2.0", "late", "a", NULL, "z9hG4bK9", "1 INVITE");
  feed (f, 2100, "SIP/2.0 180 Ringing", "late", "a", "b", "z9hG4bK9", "1 INVITE");
  calls = finish (f, 33500);
  g_assert_cmpuint (calls->len, ==, 4);
  g_assert_cmpint (cs_call_get_state (g_ptr_array_index (calls, 0)), ==, CS_CALL_STATE_REJECTED);
  g_assert_cmpuint (cs_call_get_final_status (g_ptr_array_index (calls, 0)), ==, 486);
  g_assert_cmpstr (cs_call_get_final_reason (g_ptr_array_index (calls, 0)), ==, "Busy Here");
  g_assert_cmpint (cs_call_get_state (g_ptr_array_index (calls, 1)), ==, CS_CALL_STATE_CANCELLED);
  /* 32.5 s after its INVITE: Timer B expired → failed, with one retransmission */
  g_assert_cmpint (cs_call_get_state (g_ptr_array_index (calls, 2)), ==, CS_CALL_STATE_FAILED);
  g_assert_cmpuint (cs_call_get_retransmissions (g_ptr_array_index (calls, 2)), ==, 1);
  /* 31.5 s: still ringing when the capture stopped */
  g_assert_cmpint (cs_call_get_state (g_ptr_array_index (calls, 3)), ==, CS_CALL_STATE_RINGING);
}

static void
test_call_id_reuse (Fixture *f, gconstpointer data)
{
  const GPtrArray *calls;
  CsCall *first, *again, *other;

  first = feed (f, 0, "INVITE sip:1002@example.com SIP/2.0", "same", "a", NULL, "z9hG4bK1",
                "1 INVITE");
  feed (f, 10, "SIP/2.0 200 OK", "same", "a", "b", "z9hG4bK1", "1 INVITE");
  feed (f, 20, "BYE sip:1002@example.com SIP/2.0", "same", "a", "b", "z9hG4bK2", "2 BYE");
  /* The same Call-ID with another From-tag while... */
  other = feed (f, 25, "INVITE sip:1002@example.com SIP/2.0", "same", "x", NULL, "z9hG4bK8",
                "1 INVITE");
  feed (f, 30, "SIP/2.0 200 OK", "same", "a", "b", "z9hG4bK2", "2 BYE");
  /* … and the same Call-ID and From-tag after the first call ended */
  again = feed (f, 40, "INVITE sip:1002@example.com SIP/2.0", "same", "a", NULL, "z9hG4bK3",
                "1 INVITE");
  calls = finish (f, 50);
  g_assert_cmpuint (calls->len, ==, 3);
  g_assert_true (first != other && first != again && other != again);
  g_assert_cmpuint (cs_call_get_n_messages (first), ==, 4);
  g_assert_cmpint (cs_call_get_state (first), ==, CS_CALL_STATE_COMPLETED);
  g_assert_cmpuint (cs_call_get_number (again), ==, 3);
}

static void
test_callee_bye_and_forking (Fixture *f, gconstpointer data)
{
  const GPtrArray *calls;
  CsCall *call;

  call = feed (f, 0, "INVITE sip:1002@example.com SIP/2.0", "fork", "a", NULL, "z9hG4bK1",
               "1 INVITE");
  feed (f, 10, "SIP/2.0 180 Ringing", "fork", "a", "leg1", "z9hG4bK1", "1 INVITE");
  feed (f, 11, "SIP/2.0 180 Ringing", "fork", "a", "leg2", "z9hG4bK1", "1 INVITE");
  feed (f, 500, "SIP/2.0 200 OK", "fork", "a", "leg2", "z9hG4bK1", "1 INVITE");
  feed (f, 510, "ACK sip:1002@example.com SIP/2.0", "fork", "a", "leg2", "z9hG4bK2", "1 ACK");
  /* The callee hangs up: its From-tag is the caller's To-tag. */
  g_assert_true (feed (f, 9000, "BYE sip:1001@example.com SIP/2.0", "fork", "leg2", "a",
                       "z9hG4bKcallee", "1 BYE")
                 == call);
  g_assert_true (feed (f, 9010, "SIP/2.0 200 OK", "fork", "leg2", "a", "z9hG4bKcallee", "1 BYE")
                 == call);
  calls = finish (f, 10000);
  g_assert_cmpuint (calls->len, ==, 1);
  g_assert_cmpint (cs_call_get_state (call), ==, CS_CALL_STATE_COMPLETED);
  g_assert_cmpfloat_with_epsilon (cs_call_get_duration_s (call), 8.5, 1e-6);
}

static void
test_auth_retry_is_one_call (Fixture *f, gconstpointer data)
{
  const GPtrArray *calls;
  CsCall *call;

  call = feed (f, 0, "INVITE sip:1002@example.com SIP/2.0", "auth", "a", NULL, "z9hG4bK1",
               "1 INVITE");
  feed (f, 5, "SIP/2.0 407 Proxy Authentication Required", "auth", "a", "p", "z9hG4bK1",
        "1 INVITE");
  feed (f, 6, "ACK sip:1002@example.com SIP/2.0", "auth", "a", "p", "z9hG4bK1", "1 ACK");
  g_assert_true (
      feed (f, 20, "INVITE sip:1002@example.com SIP/2.0", "auth", "a", NULL, "z9hG4bK2", "2 INVITE")
      == call);
  feed (f, 300, "SIP/2.0 200 OK", "auth", "a", "b", "z9hG4bK2", "2 INVITE");
  calls = finish (f, 400);
  g_assert_cmpuint (calls->len, ==, 1);
  g_assert_cmpint (cs_call_get_state (call), ==, CS_CALL_STATE_IN_CALL);
  g_assert_cmpuint (cs_call_get_final_status (call), ==, 200);
  g_assert_cmpfloat_with_epsilon (cs_call_get_setup_ms (call), 300, 1e-6);
  g_assert_cmpuint (cs_call_get_retransmissions (call), ==, 0);
}

static void
test_register_exchange (Fixture *f, gconstpointer data)
{
  const GPtrArray *calls;
  CsCall *reg;

  reg = feed (f, 0, "REGISTER sip:example.com SIP/2.0", "reg", "r", NULL, "z9hG4bK1", "1 REGISTER");
  feed (f, 5, "SIP/2.0 401 Unauthorized", "reg", "r", "s", "z9hG4bK1", "1 REGISTER");
  feed (f, 10, "REGISTER sip:example.com SIP/2.0", "reg", "r", NULL, "z9hG4bK2", "2 REGISTER");
  feed (f, 15, "SIP/2.0 200 OK", "reg", "r", "s", "z9hG4bK2", "2 REGISTER");
  feed (f, 20, "OPTIONS sip:example.com SIP/2.0", "ping", "o", NULL, "z9hG4bK3", "1 OPTIONS");
  calls = finish (f, 100);
  g_assert_cmpuint (calls->len, ==, 2);
  g_assert_cmpint (cs_call_get_method (reg), ==, CS_SIP_METHOD_REGISTER);
  g_assert_cmpint (cs_call_get_state (reg), ==, CS_CALL_STATE_COMPLETED);
  g_assert_cmpuint (cs_call_get_final_status (reg), ==, 200);
  g_assert_cmpuint (cs_call_get_n_transactions (reg), ==, 2);
  g_assert_cmpuint (cs_call_get_transaction (reg, 0)->final_status, ==, 401);
  /* An OPTIONS nobody answered 80 ms before the capture ends is still waiting: Timer F
   * (64·T1 = 32 s) has not run out (golden non-invite has one that fails at 32 s). */
  g_assert_cmpint (cs_call_get_state (g_ptr_array_index (calls, 1)), ==, CS_CALL_STATE_SETUP);
}

/* Live eviction: only finished, idle calls go, oldest first; numbering and lookups go on. */
static void
test_evict_finished (Fixture *f, gconstpointer data)
{
  g_autoptr (GPtrArray) evicted = g_ptr_array_new_with_free_func (g_object_unref);
  const GPtrArray *calls = cs_call_tracker_get_calls (f->tracker);
  CsCall *in_call, *late;

  feed (f, 0, "INVITE sip:1002@example.com SIP/2.0", "c1", "a", NULL, "z9hG4bK1", "1 INVITE");
  feed (f, 100, "SIP/2.0 486 Busy Here", "c1", "a", "b", "z9hG4bK1", "1 INVITE");
  in_call = feed (f, 200, "INVITE sip:1002@example.com SIP/2.0", "c2", "a", NULL, "z9hG4bK2",
                  "1 INVITE");
  feed (f, 300, "SIP/2.0 200 OK", "c2", "a", "b", "z9hG4bK2", "1 INVITE");
  feed (f, 400, "INVITE sip:1002@example.com SIP/2.0", "c3", "a", NULL, "z9hG4bK3", "1 INVITE");
  feed (f, 500, "SIP/2.0 603 Decline", "c3", "a", "b", "z9hG4bK3", "1 INVITE");

  /* c3 ended at 500 ms: not idle long enough; c2 is in progress. */
  g_assert_cmpuint (cs_call_tracker_evict_finished (f->tracker, 300 * MS, 0, evicted), ==, 1);
  g_assert_cmpuint (evicted->len, ==, 1);
  g_assert_cmpstr (cs_call_get_call_id (g_ptr_array_index (evicted, 0)), ==, "c1");
  g_assert_cmpuint (calls->len, ==, 2);
  g_assert_cmpstr (cs_call_get_call_id (g_ptr_array_index (calls, 0)), ==, "c2");
  g_assert_cmpuint (cs_call_get_number (g_ptr_array_index (calls, 1)), ==, 3);

  /* New calls go on numbering; the kept dialogs are still found. */
  g_assert_cmpuint (cs_call_get_number (feed (f, 600, "INVITE sip:1002@example.com SIP/2.0", "c4",
                                              "a", NULL, "z9hG4bK4", "1 INVITE")),
                    ==, 4);
  g_assert_true (
      feed (f, 610, "ACK sip:1002@example.com SIP/2.0", "c2", "a", "b", "z9hG4bK5", "1 ACK")
      == in_call);
  g_assert_cmpuint (cs_call_get_n_messages (in_call), ==, 3);

  /* keep_max: only as many finished calls go as needed to get down to it. */
  g_assert_cmpuint (cs_call_tracker_evict_finished (f->tracker, G_MAXINT64, 2, evicted), ==, 1);
  g_assert_cmpstr (cs_call_get_call_id (g_ptr_array_index (evicted, 1)), ==, "c3");
  g_assert_cmpuint (calls->len, ==, 2);
  g_assert_cmpuint (cs_call_tracker_evict_finished (f->tracker, G_MAXINT64, 0, NULL), ==, 0);
  g_assert_cmpuint (cs_call_tracker_get_evicted_calls (f->tracker), ==, 2);

  /* A late retransmission of an evicted dialog starts a new call. */
  late = feed (f, 700, "SIP/2.0 486 Busy Here", "c1", "a", "b", "z9hG4bK1", "1 INVITE");
  g_assert_nonnull (late);
  g_assert_cmpuint (cs_call_get_number (late), ==, 5);
  g_assert_cmpuint (cs_call_tracker_get_n_created (f->tracker), ==, 5);
  g_assert_cmpuint (calls->len, ==, 3);
}

/* Dialogs are keyed by Call-ID and From-tag (hashed word by word): two dialogs under one
 * Call-ID stay apart, callee requests find theirs by To-tag, a stray ACK joins the newest
 * call of its Call-ID, and Call-IDs of every length up to a few words never mix. */
static void
test_dialogs_sharing_call_id (Fixture *f, gconstpointer data)
{
  CsCall *first, *second, *stray;
  GString *call_id = g_string_new (NULL);

  first = feed (f, 0, "INVITE sip:1002@example.com SIP/2.0", "shared", "a", NULL, "z9hG4bK1",
                "1 INVITE");
  second = feed (f, 1, "INVITE sip:1002@example.com SIP/2.0", "shared", "b", NULL, "z9hG4bK2",
                 "1 INVITE");
  g_assert_true (first != second);
  g_assert_true (feed (f, 2, "SIP/2.0 200 OK", "shared", "a", "x", "z9hG4bK1", "1 INVITE")
                 == first);
  g_assert_true (feed (f, 3, "SIP/2.0 200 OK", "shared", "b", "y", "z9hG4bK2", "1 INVITE")
                 == second);
  g_assert_true (
      feed (f, 4, "BYE sip:1001@example.com SIP/2.0", "shared", "x", "a", "z9hG4bK3", "1 BYE")
      == first);
  stray
      = feed (f, 5, "ACK sip:1002@example.com SIP/2.0", "shared", "zzz", NULL, "z9hG4bK4", "1 ACK");
  g_assert_true (stray == second);
  for (guint len = 1; len <= 24; len++)
    {
      g_string_append_c (call_id, (char) ('a' + len % 26));
      g_assert_nonnull (feed (f, 10 + len, "INVITE sip:1002@example.com SIP/2.0", call_id->str, "a",
                              NULL, "z9hG4bK9", "1 INVITE"));
    }
  g_assert_cmpuint (finish (f, 100)->len, ==, 2 + 24);
  g_assert_cmpuint (cs_call_get_n_messages (first), ==, 3);
  g_assert_cmpuint (cs_call_get_n_messages (second), ==, 3);
  g_string_free (call_id, TRUE);
}

/* The tables grow from 64 slots: thousands of dialogs each still find their call, in
 * any order; an evicted call's keys lead nowhere even when an older call had the same
 * key (that one stays hidden, as it was since the newer call took the key). */
static void
test_many_dialogs_and_hidden_keys (Fixture *f, gconstpointer data)
{
  g_autoptr (GPtrArray) evicted = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GPtrArray) made = g_ptr_array_new ();
  CsCall *reg, *invite, *late;

  for (guint i = 0; i < 3000; i++)
    {
      g_autofree char *id = g_strdup_printf ("call-%u@host", i);

      g_ptr_array_add (made, feed (f, i, "INVITE sip:1002@example.com SIP/2.0", id, "t", NULL,
                                   "z9hG4bK1", "1 INVITE"));
    }
  for (guint i = 3000; i-- > 0;)
    {
      g_autofree char *id = g_strdup_printf ("call-%u@host", i);

      g_assert_true (feed (f, 5000, "SIP/2.0 200 OK", id, "t", "x", "z9hG4bK1", "1 INVITE")
                     == g_ptr_array_index (made, i));
    }
  for (guint i = 0; i < 3000; i++)
    g_assert_cmpuint (cs_call_get_n_messages (g_ptr_array_index (made, i)), ==, 2);

  reg = feed (f, 6000, "REGISTER sip:example.com SIP/2.0", "r", "a", NULL, "z9hG4bK7",
              "1 REGISTER");
  invite = feed (f, 6001, "INVITE sip:1002@example.com SIP/2.0", "r", "a", NULL, "z9hG4bK8",
                 "2 INVITE");
  g_assert_true (reg != invite);
  g_assert_true (feed (f, 6002, "SIP/2.0 486 Busy Here", "r", "a", "b", "z9hG4bK8", "2 INVITE")
                 == invite);
  g_assert_cmpuint (cs_call_tracker_evict_finished (f->tracker, 7000 * MS, 0, evicted), ==, 1);
  g_assert_true (g_ptr_array_index (evicted, 0) == invite);
  late = feed (f, 8000, "SIP/2.0 200 OK", "r", "a", "b", "z9hG4bK7", "1 REGISTER");
  g_assert_nonnull (late);
  g_assert_true (late != reg);
  g_assert_cmpuint (cs_call_get_n_messages (reg), ==, 1);
  /* the others are still there after the tables were rebuilt */
  g_assert_true (feed (f, 9000, "ACK sip:1002@example.com SIP/2.0", "call-7@host", "t", "x",
                       "z9hG4bK2", "1 ACK")
                 == g_ptr_array_index (made, 7));
}

/* A call's Call-ID, parties and User-Agent are its messages' own strings; a snapshot
 * holds the same messages, so its strings outlive the call, and strings set by hand are
 * the call's own. */
static void
test_call_strings_outlive_call (Fixture *f, gconstpointer data)
{
  CsCall *call = feed (f, 0, "INVITE sip:1002@example.com SIP/2.0", "strings-1", "a", NULL,
                       "z9hG4bK1", "1 INVITE");
  CsCall *copy;

  feed (f, 1, "BYE sip:1002@example.com SIP/2.0", "strings-1", "a", "b", "z9hG4bK2", "2 BYE");
  g_assert_cmpstr (cs_call_get_from (call), ==, "1001");
  g_assert_cmpstr (cs_call_get_to (call), ==, "1002");
  copy = cs_call_snapshot (call);
  cs_call_take_text (call, &call->to, g_strdup ("by hand"));
  g_assert_cmpstr (cs_call_get_to (call), ==, "by hand");
  cs_call_tracker_free (f->tracker); /* the tracker's calls go */
  f->tracker = cs_call_tracker_new ();
  g_assert_cmpstr (cs_call_get_call_id (copy), ==, "strings-1");
  g_assert_cmpstr (cs_call_get_from (copy), ==, "1001");
  g_assert_cmpstr (cs_call_get_to (copy), ==, "1002");
  g_object_unref (copy);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/call-tracker/completed-timing", test_completed_call_timing);
  ADD ("/call-tracker/rejected-cancelled-failed", test_rejected_cancelled_failed);
  ADD ("/call-tracker/call-id-reuse", test_call_id_reuse);
  ADD ("/call-tracker/callee-bye-forking", test_callee_bye_and_forking);
  ADD ("/call-tracker/auth-retry", test_auth_retry_is_one_call);
  ADD ("/call-tracker/register-exchange", test_register_exchange);
  ADD ("/call-tracker/evict-finished", test_evict_finished);
  ADD ("/call-tracker/dialogs-sharing-call-id", test_dialogs_sharing_call_id);
  ADD ("/call-tracker/many-dialogs-hidden-keys", test_many_dialogs_and_hidden_keys);
  ADD ("/call-tracker/call-strings-outlive-call", test_call_strings_outlive_call);
  return g_test_run ();
}
