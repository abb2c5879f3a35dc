/* While a capture loads, a window's publisher shows copies of the calls found so far;
 * when it is done, the real calls take their places. */
#include <string.h>

#include "loader/cs-analysis-private.h"
#include "loader/cs-publisher-private.h"
#include "calls/cs-call-tracker.h"

static guint changes_added, changes_removed;

static void
on_items_changed (GListModel *model, guint position, guint removed, guint added, gpointer data)
{
  changes_added += added;
  changes_removed += removed;
}

static void
feed (CsCallTracker *tracker, const char *start, const char *call_id, const char *to_tag,
      const char *cseq, guint32 frame)
{
  g_autofree char *text = g_strdup_printf ("%s\r\n"
                                           "Via: SIP/2.0/UDP 10.0.0.1;branch=z9hG4bK%s%s\r\n"
                                           "From: <sip:1001@example.com>;tag=a\r\n"
                                           "To: <sip:1002@example.com>%s%s\r\n"
                                           "Call-ID: %s\r\nCSeq: %s\r\nContent-Length: 0\r\n\r\n",
                                           start, call_id, cseq, to_tag ? ";tag=" : "",
                                           to_tag ? to_tag : "", call_id, cseq);
  CsSipMessage *msg = cs_sip_message_parse ((const guint8 *) text, strlen (text), NULL);

  cs_sip_message_set_frame (msg, frame);
  cs_sip_message_set_ts_ns (msg, frame * G_GINT64_CONSTANT (1000000));
  cs_call_tracker_add (tracker, msg);
  cs_sip_message_unref (msg);
}

static void
test_snapshots_then_final (void)
{
  g_autoptr (CsAnalysis) analysis = cs_analysis_new (cs_capture_set_new ());
  g_autoptr (CsPublisher) publisher = cs_publisher_new ();
  CsCallTracker *tracker = cs_call_tracker_new ();
  GListModel *model = cs_analysis_get_calls (analysis);
  const GPtrArray *live = cs_call_tracker_get_calls (tracker);
  g_autoptr (GPtrArray) final = NULL;
  g_autoptr (CsCall) first = NULL, again = NULL;

  g_signal_connect (model, "items-changed", G_CALLBACK (on_items_changed), NULL);
  feed (tracker, "INVITE sip:1002@example.com SIP/2.0", "one", NULL, "1 INVITE", 1);
  feed (tracker, "INVITE sip:1002@example.com SIP/2.0", "two", NULL, "1 INVITE", 2);
  cs_publisher_stage (publisher, analysis, live);
  cs_publisher_show_staged (publisher);
  /* two rows, copies of the live calls (never the objects being changed) */
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  first = g_list_model_get_item (model, 0);
  g_assert_true (first != g_ptr_array_index (live, 0));
  g_assert_cmpint (cs_call_get_state (first), ==, CS_CALL_STATE_SETUP);

  /* call 1 is answered: only its row is replaced */
  changes_added = changes_removed = 0;
  feed (tracker, "SIP/2.0 200 OK", "one", "b", "1 INVITE", 3);
  cs_publisher_stage (publisher, analysis, live);
  cs_publisher_show_staged (publisher);
  g_assert_cmpuint (changes_added, ==, 1);
  g_assert_cmpuint (changes_removed, ==, 1);
  again = g_list_model_get_item (model, 0);
  g_assert_cmpint (cs_call_get_state (again), ==, CS_CALL_STATE_IN_CALL);
  g_assert_cmpint (cs_call_get_state (first), ==, CS_CALL_STATE_SETUP); /* copies never change */

  /* nothing changed: nothing staged */
  changes_added = changes_removed = 0;
  cs_publisher_stage (publisher, analysis, live);
  cs_publisher_show_staged (publisher);
  g_assert_cmpuint (changes_added + changes_removed, ==, 0);

  /* the load ends: the real calls, with their transactions, replace the copies */
  feed (tracker, "INVITE sip:1002@example.com SIP/2.0", "three", NULL, "1 INVITE", 4);
  final = cs_call_tracker_finish (tracker, 10 * G_GINT64_CONSTANT (1000000));
  cs_analysis_take_calls (analysis, final);
  cs_publisher_publish (publisher, analysis);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr (CsCall) item = g_list_model_get_item (model, i);
      g_assert_true (item == g_ptr_array_index (final, i));
    }
  g_assert_cmpuint (cs_call_get_n_transactions (g_ptr_array_index (final, 0)), ==, 1);
  g_assert_true (cs_call_list_lookup (CS_CALL_LIST (model), "one") == g_ptr_array_index (final, 0));
  cs_call_tracker_free (tracker);
  /* the idles the publisher left (showing nothing now, freeing the copies) */
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/publisher/snapshots-then-final", test_snapshots_then_final);
  return g_test_run ();
}
