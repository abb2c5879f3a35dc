/* test-publish-slices.c — a window's publisher: a show of copies that runs out of its time budget
 * shows the rest of the copies from an idle, and a copy staged meanwhile wins over the older one
 * left over. GLib only: a slow items-changed handler stands in for a list view building its rows.
 */
#include <string.h>

#include "loader/cs-analysis-private.h"
#include "loader/cs-publisher-private.h"
#include "calls/cs-call-tracker.h"

#define N_CALLS 40

static guint emissions;
static CsCallTracker *tracker;
static CsAnalysis *analysis;
static CsPublisher *publisher;

static void feed (CsCallTracker *tracker, guint call, gboolean answer, guint32 frame);

/* Each items-changed costs 10 ms, more than a publish's budget: one slice per idle. During
 * the first one, the load thread answers a shown call and one not shown yet, and stages
 * their copies: they arrive while the publish still holds its older copies. */
static void
on_items_changed (GListModel *model, guint position, guint removed, guint added, gpointer data)
{
  if (emissions++ == 0)
    {
      feed (tracker, 1, TRUE, 100);
      feed (tracker, N_CALLS, TRUE, 101);
      g_assert_cmpuint (
          cs_publisher_stage (publisher, analysis, cs_call_tracker_get_calls (tracker)), ==, 2);
    }
  g_usleep (10 * 1000);
}

static void
feed (CsCallTracker *tracker, guint call, gboolean answer, guint32 frame)
{
  g_autofree char *text
      = g_strdup_printf ("%s\r\n"
                         "Via: SIP/2.0/UDP 10.0.0.1;branch=z9hG4bK%u\r\n"
                         "From: <sip:1001@example.com>;tag=a%u\r\n"
                         "To: <sip:1002@example.com>%s\r\n"
                         "Call-ID: call-%u\r\nCSeq: 1 INVITE\r\nContent-Length: 0\r\n\r\n",
                         answer ? "SIP/2.0 200 OK" : "INVITE sip:1002@example.com SIP/2.0", call,
                         call, answer ? ";tag=b" : "", call);
  CsSipMessage *msg = cs_sip_message_parse ((const guint8 *) text, strlen (text), NULL);

  cs_sip_message_set_frame (msg, frame);
  cs_sip_message_set_ts_ns (msg, frame * G_GINT64_CONSTANT (1000000));
  cs_call_tracker_add (tracker, msg);
  cs_sip_message_unref (msg);
}

static CsCallState
state_at (GListModel *model, guint position)
{
  g_autoptr (CsCall) call = g_list_model_get_item (model, position);

  return cs_call_get_state (call);
}

static void
test_slices_then_rest (void)
{
  GListModel *model;
  g_autoptr (GPtrArray) final = NULL;
  guint n_shown;

  analysis = cs_analysis_new (cs_capture_set_new ());
  publisher = cs_publisher_new ();
  tracker = cs_call_tracker_new ();
  model = cs_analysis_get_calls (analysis);
  g_signal_connect (model, "items-changed", G_CALLBACK (on_items_changed), NULL);
  for (guint i = 1; i <= N_CALLS; i++)
    feed (tracker, i, FALSE, i);
  g_assert_cmpuint (cs_publisher_stage (publisher, analysis, cs_call_tracker_get_calls (tracker)),
                    ==, N_CALLS);
  cs_publisher_show_staged (publisher);
  /* out of budget after the first slice: the rest waits for an idle */
  n_shown = g_list_model_get_n_items (model);
  g_assert_cmpuint (n_shown, >, 0);
  g_assert_cmpuint (n_shown, <, N_CALLS);

  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, N_CALLS);
  /* the newer copies won: both calls show as answered, the others still set up */
  g_assert_cmpint (state_at (model, 0), ==, CS_CALL_STATE_IN_CALL);
  g_assert_cmpint (state_at (model, N_CALLS - 1), ==, CS_CALL_STATE_IN_CALL);
  g_assert_cmpint (state_at (model, 1), ==, CS_CALL_STATE_SETUP);
  /* slices, not a signal per call */
  g_assert_cmpuint (emissions, <, N_CALLS / 4);

  /* the load ends: the real calls take every row */
  final = cs_call_tracker_finish (tracker, 200 * G_GINT64_CONSTANT (1000000));
  cs_analysis_take_calls (analysis, final);
  cs_publisher_publish (publisher, analysis);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, N_CALLS);
  for (guint i = 0; i < N_CALLS; i++)
    {
      g_autoptr (CsCall) item = g_list_model_get_item (model, i);
      g_assert_true (item == g_ptr_array_index (final, i));
    }
  /* nothing left over shows copies again */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  {
    g_autoptr (CsCall) item = g_list_model_get_item (model, 0);
    g_assert_true (item == g_ptr_array_index (final, 0));
  }
  g_signal_handlers_disconnect_by_func (model, on_items_changed, NULL);
  cs_call_tracker_free (tracker);
  g_object_unref (publisher);
  g_object_unref (analysis);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/publisher/publish-slices", test_slices_then_rest);
  return g_test_run ();
}
