/* The calls list, ladder and detail pane in the real window under Xvfb: selecting a call,
 * columns and messages, keyboard navigation, detail tabs, filters (also on 100,000 calls),
 * merged legs, and the cost of drawing a 10,000-message ladder. */
#include "ui-test-util.h"
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <locale.h>
#include <string.h>

#include "cs-application.h"
#include "calls/cs-call-private.h"
#include "calls/cs-call-tracker.h"
#include "cs-hex-view.h"
#include "cs-window-private.h"

#define MS (G_GINT64_CONSTANT (1000000))

static CsApplication *application;

static CsWindow *
load_demo (void)
{
  return ui_test_load_demo (application, 1280, 800);
}

static void
close_window (gpointer window)
{
  if (g_getenv ("CS_TEST_KEEP_WINDOWS") != NULL)
    gtk_widget_set_visible (GTK_WIDGET (window), FALSE);
  else
    gtk_window_destroy (GTK_WINDOW (window));
}

/* Position of call `number` in the list as shown. */
static guint
shown_position (CsWindow *window, guint number)
{
  GListModel *shown = cs_window_get_calls_model (window);

  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr (CsCall) call = g_list_model_get_item (shown, i);
      if (cs_call_get_number (call) == number)
        return i;
    }
  g_assert_not_reached ();
}

static void
select_calls (CsWindow *window, const guint *numbers, guint n)
{
  GtkSelectionModel *selection = cs_calls_view_get_selection (window->calls_view);

  gtk_selection_model_unselect_all (selection);
  for (guint i = 0; i < n; i++)
    gtk_selection_model_select_item (selection, shown_position (window, numbers[i]), FALSE);
  ui_test_spin (50);
}

/* Presses a key on the ladder through its key controller, as GTK would deliver it. */
static gboolean
press_key (CsLadderView *view, guint keyval)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (view));
  gboolean handled = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GtkEventController) controller = g_list_model_get_item (controllers, i);
      if (GTK_IS_EVENT_CONTROLLER_KEY (controller))
        g_signal_emit_by_name (controller, "key-pressed", keyval, 0, (GdkModifierType) 0, &handled);
    }
  return handled;
}

/* Renders the window as it is on screen into a PNG in the build dir, for people to look at. */
static void
render_window (gpointer window, const char *png_name)
{
  int width = gtk_widget_get_width (GTK_WIDGET (window));
  int height = gtk_widget_get_height (GTK_WIDGET (window));
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (GTK_WIDGET (window));
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  g_autofree char *png = g_test_build_filename (G_TEST_BUILT, png_name, NULL);

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL)
    {
      g_test_message ("nothing drawn yet for %s", png_name);
      return;
    }
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_test_message ("rendered %dx%d to %s", width, height, png);
}

static const CsLadderRow *
row_at (const CsLadderLayout *layout, guint i)
{
  g_assert_cmpuint (i, <, layout->rows->len);
  return &g_array_index (layout->rows, CsLadderRow, i);
}

static void
test_select_call (void)
{
  CsWindow *window;
  CsLadderView *view;
  const CsLadderLayout *layout;
  static const guint call_10 = 10;
  g_autofree char *text = NULL;
  g_autofree char *hex = NULL;

  if (ui_test_demo_capture_path () == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  window = load_demo ();
  view = cs_ladder_pane_get_view (window->ladder_pane);
  /* The detail pane must not force the window wider than a laptop screen. */
  {
    int min = 0;
    gtk_widget_measure (GTK_WIDGET (window->detail_pane), GTK_ORIENTATION_HORIZONTAL, -1, &min,
                        NULL, NULL, NULL);
    g_assert_cmpint (min, <=, 200);
    gtk_widget_measure (GTK_WIDGET (window->ladder_pane), GTK_ORIENTATION_HORIZONTAL, -1, &min,
                        NULL, NULL, NULL);
    g_assert_cmpint (min, <=, 360);
  }
  g_assert_null (cs_ladder_view_get_layout (view));

  /* Call 10: INVITE retransmitted twice, 100, 180, 200 (+ one retransmission), ACK, two RTP
   * streams to a media address no SIP came from, BYE, 200. */
  select_calls (window, &call_10, 1);
  layout = cs_ladder_view_get_layout (view);
  g_assert_nonnull (layout);
  g_assert_cmpuint (layout->calls->len, ==, 1);
  g_assert_cmpuint (layout->columns->len, ==, 3);
  g_assert_cmpstr (g_array_index (layout->columns, CsLadderColumn, 0).title, ==, "10.0.0.10:5060");
  g_assert_cmpstr (g_array_index (layout->columns, CsLadderColumn, 1).title, ==, "10.0.0.1:5060");
  g_assert_cmpstr (g_array_index (layout->columns, CsLadderColumn, 2).title, ==, "10.0.0.30");
  g_assert_cmpstr (g_array_index (layout->columns, CsLadderColumn, 0).subtitle, ==,
                   "Yealink SIP-T46S 66.86.0.15");
  g_assert_cmpuint (layout->rows->len, ==, 12);
  g_assert_cmpstr (row_at (layout, 0)->label, ==, "INVITE");
  g_assert_false (row_at (layout, 0)->retransmission);
  g_assert_true (row_at (layout, 1)->retransmission);
  g_assert_true (row_at (layout, 2)->retransmission);
  g_assert_cmpstr (row_at (layout, 3)->label, ==, "100 Trying");
  g_assert_cmpstr (row_at (layout, 5)->label, ==, "200 OK");
  g_assert_cmpint (row_at (layout, 8)->kind, ==, CS_LADDER_ROW_STREAM);
  g_assert_cmpuint (row_at (layout, 8)->to_col, ==, 2);
  g_assert_cmpstr (row_at (layout, 10)->label, ==, "BYE");
  g_assert_cmpuint (layout->lanes->len, ==, 2);

  /* The first message is selected and shown in detail, bytes read back from the file. */
  g_assert_cmpint (cs_ladder_view_get_selected_row (view), ==, 0);
  text = cs_detail_pane_dup_message_text (window->detail_pane);
  g_assert_true (g_str_has_prefix (text, "INVITE sip:"));
  g_assert_nonnull (strstr (text, "Call-ID: "));
  g_assert_nonnull (strstr (text, "m=audio 40070 RTP/AVP"));
  hex = cs_detail_pane_dup_hex_text (window->detail_pane);
  g_assert_true (g_str_has_prefix (hex, "0000  "));
  /* "INVITE" in the ASCII column of the dump */
  g_assert_nonnull (strstr (hex, "INVITE"));
  /* the text shown is the frame's own UDP payload, read through the engine: it ends where
   * the frame does and starts with the request line */
  {
    CsCaptureSet *set = cs_analysis_get_capture_set (window->analysis);
    CsSipMessage *msg = row_at (layout, 0)->message;
    gboolean exact = FALSE;
    gsize offset = 0, len = 0;
    g_autofree char *own = cs_detail_dup_sip_text (set, msg, &exact, &offset, &len);
    CsFrame frame;
    const guint8 *data = cs_capture_set_read_frame (set, cs_sip_message_get_frame (msg), &frame);

    g_assert_true (exact);
    g_assert_nonnull (data);
    g_assert_cmpuint (offset + len, ==, frame.caplen);
    g_assert_cmpmem (data + offset, 11, "INVITE sip:", 11);
    g_assert_cmpstr (own, ==, text);
  }

  /* Keyboard: Down moves message by message and skips the RTP rows; Up comes back. */
  g_assert_true (press_key (view, GDK_KEY_Down));
  g_assert_cmpint (cs_ladder_view_get_selected_row (view), ==, 1);
  for (guint i = 0; i < 6; i++)
    press_key (view, GDK_KEY_Down);
  g_assert_cmpint (cs_ladder_view_get_selected_row (view), ==, 7); /* ACK */
  press_key (view, GDK_KEY_Down);
  g_assert_cmpint (cs_ladder_view_get_selected_row (view), ==, 10); /* BYE */
  g_clear_pointer (&text, g_free);
  text = cs_detail_pane_dup_message_text (window->detail_pane);
  g_assert_true (g_str_has_prefix (text, "BYE sip:"));
  press_key (view, GDK_KEY_Up);
  g_assert_cmpint (cs_ladder_view_get_selected_row (view), ==, 7);
  press_key (view, GDK_KEY_End);
  g_assert_cmpint (cs_ladder_view_get_selected_row (view), ==, 11);
  press_key (view, GDK_KEY_Home);
  g_assert_cmpint (cs_ladder_view_get_selected_row (view), ==, 0);
  /* Enter opens the Message tab of the detail pane. */
  cs_detail_pane_show_tab (window->detail_pane, "frame");
  g_assert_true (press_key (view, GDK_KEY_Return));
  g_assert_cmpstr (cs_detail_pane_get_visible_tab (window->detail_pane), ==, "message");

  /* Room for the ladder above the graphs, as someone would drag the divider. */
  gtk_paned_set_position (GTK_PANED (gtk_widget_get_parent (GTK_WIDGET (window->ladder_pane))),
                          330);
  ui_test_spin (200);
  render_window (window, "ladder-window.png");
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE, NULL);
  ui_test_spin (200);
  render_window (window, "ladder-window-dark.png");
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", FALSE, NULL);

  /* The ladder pane alone at the size the workspace gives it, for people to look at. */
  {
    GtkWidget *alone = gtk_window_new ();
    CsLadderPane *pane = CS_LADDER_PANE (cs_ladder_pane_new ());
    g_autoptr (GPtrArray) selected = cs_calls_view_dup_selected_calls (window->calls_view);

    gtk_window_set_child (GTK_WINDOW (alone), GTK_WIDGET (pane));
    gtk_window_set_default_size (GTK_WINDOW (alone), 860, 440);
    cs_view_set_analysis (CS_VIEW (pane), window->analysis);
    cs_ladder_pane_set_calls (pane, (CsCall *const *) selected->pdata, selected->len);
    gtk_window_present (GTK_WINDOW (alone));
    ui_test_spin (300);
    cs_ladder_view_set_selected_row (cs_ladder_pane_get_view (pane), 5);
    ui_test_spin (100);
    render_window (alone, "ladder-pane.png");
    close_window (alone);
  }

  /* Time column modes reach the view. */
  cs_ladder_view_set_time_mode (view, CS_LADDER_TIME_DELTA);
  g_assert_cmpint (cs_ladder_view_get_time_mode (view), ==, CS_LADDER_TIME_DELTA);

  /* Export from the GUI uses the same renderer as the CLI. */
  {
    g_autofree char *dir = g_dir_make_tmp ("cs-ui-ladder-XXXXXX", NULL);
    g_autofree char *png = g_build_filename (dir, "ladder.png", NULL);
    g_autofree char *txt = g_build_filename (dir, "ladder.txt", NULL);
    g_autofree char *contents = NULL;
    g_autoptr (GError) error = NULL;

    g_assert_true (cs_ladder_pane_export (window->ladder_pane, png, &error));
    g_assert_true (cs_ladder_pane_export (window->ladder_pane, txt, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_get_contents (txt, &contents, NULL, NULL));
    g_assert_nonnull (strstr (contents, "INVITE (retransmission)"));
    g_assert_nonnull (strstr (contents, "+0.500000")); /* delta mode */
    g_assert_false (cs_ladder_pane_export (window->ladder_pane, "/tmp/x.gif", &error));
    g_remove (png);
    g_remove (txt);
    g_rmdir (dir);
  }
  close_window (window);
}

static void
test_filter_and_merge (void)
{
  CsWindow *window;
  GListModel *shown;
  const CsLadderLayout *layout;
  static const guint calls_4_5[] = { 4, 5 };

  if (ui_test_demo_capture_path () == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  window = load_demo ();
  shown = cs_window_get_calls_model (window);
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 11);

  cs_calls_view_set_filter_text (window->calls_view, "state:rejected");
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 1);
  cs_calls_view_set_filter_text (window->calls_view, "method:invite pdd>1s");
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 2); /* calls 9 and 10 */
  cs_calls_view_set_filter_text (window->calls_view, "mos<4 or code:486");
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 2); /* calls 5 and 7 */
  cs_calls_view_set_filter_text (window->calls_view, "codec:g711a");
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 1); /* call 5 */
  /* A mistake is reported and the last good filter stays. */
  cs_calls_view_set_filter_text (window->calls_view, "mos<abc");
  g_assert_nonnull (cs_calls_view_get_filter_error (window->calls_view));
  g_assert_nonnull (strstr (cs_calls_view_get_filter_error (window->calls_view), "abc"));
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 1);
  cs_calls_view_set_filter_text (window->calls_view, "");
  g_assert_null (cs_calls_view_get_filter_error (window->calls_view));
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 11);

  /* Two selected calls: one ladder, one leg each. */
  select_calls (window, calls_4_5, 2);
  layout = cs_ladder_view_get_layout (cs_ladder_pane_get_view (window->ladder_pane));
  g_assert_cmpuint (layout->calls->len, ==, 2);
  g_assert_cmpuint (cs_call_get_number (g_ptr_array_index (layout->calls, 0)), ==, 4);
  g_assert_cmpuint (layout->rows->len, ==, 7 + 7 + 4);
  g_assert_cmpuint (row_at (layout, 0)->leg, ==, 0);
  g_assert_cmpuint (row_at (layout, layout->rows->len - 1)->leg, ==, 1);

  /* Visible columns are saved in GSettings. */
  {
    GSettings *settings = cs_application_get_settings (application);
    g_auto (GStrv) before = g_settings_get_strv (settings, "calls-visible-columns");
    g_auto (GStrv) after = NULL;
    g_auto (GStrv) again = NULL;
    gboolean had_codec = g_strv_contains ((const char *const *) before, "codec");

    g_assert_true (
        gtk_widget_activate_action (GTK_WIDGET (window->calls_view), "columns.show-codec", NULL));
    after = g_settings_get_strv (settings, "calls-visible-columns");
    g_assert_cmpint (g_strv_contains ((const char *const *) after, "codec"), ==, !had_codec);
    g_assert_true (
        gtk_widget_activate_action (GTK_WIDGET (window->calls_view), "columns.show-codec", NULL));
    again = g_settings_get_strv (settings, "calls-visible-columns");
    g_assert_true (g_strv_equal ((const char *const *) again, (const char *const *) before));
  }
  close_window (window);
}

/* 100,000 calls through the GtkFilterListModel/GtkSortListModel of the calls view. */
static void
test_100k_calls_model (void)
{
  const char *invite = "INVITE sip:b@x SIP/2.0\r\nVia: SIP/2.0/UDP h;branch=z9hG4bK1\r\n"
                       "From: <sip:a@x>;tag=1\r\nTo: <sip:b@x>\r\nCall-ID: t\r\n"
                       "CSeq: 1 INVITE\r\nContent-Length: 0\r\n\r\n";
  g_autoptr (CsSipMessage) msg
      = cs_sip_message_parse ((const guint8 *) invite, strlen (invite), NULL);
  g_autoptr (GListStore) store = g_list_store_new (CS_TYPE_CALL);
  g_autoptr (GPtrArray) calls = g_ptr_array_new_with_free_func (g_object_unref);
  CsCallsView *view = CS_CALLS_VIEW (g_object_ref_sink (cs_calls_view_new ()));
  GListModel *shown = cs_calls_view_get_shown_model (view);
  g_autoptr (GTimer) timer = g_timer_new ();
  guint expected_rejected = 0, expected_slow = 0;
  double filter_ms, sort_ms;

  for (guint i = 0; i < 100000; i++)
    {
      CsCall *call = cs_call_new (i + 1, msg);
      call->state = i % 9 == 0 ? CS_CALL_STATE_REJECTED : CS_CALL_STATE_COMPLETED;
      call->start_ns = (gint64) i * MS + 1;
      call->first_provisional_ns = call->start_ns + (i % 10) * 1000 * MS;
      cs_call_take_text (call, &call->from, g_strdup_printf ("%u", 1000 + i % 997));
      expected_rejected += i % 9 == 0;
      expected_slow += i % 10 > 3;
      g_ptr_array_add (calls, call);
    }
  g_list_store_splice (store, 0, 0, calls->pdata, calls->len);
  g_timer_start (timer);
  cs_calls_view_set_calls (view, G_LIST_MODEL (store));
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 100000);

  g_timer_start (timer);
  cs_calls_view_set_filter_text (view, "state:rejected");
  filter_ms = g_timer_elapsed (timer, NULL) * 1000;
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, expected_rejected);
  cs_calls_view_set_filter_text (view, "pdd>3s");
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, expected_slow);
  cs_calls_view_set_filter_text (view, "pdd>3s from:1001 or state:rejected");
  g_assert_cmpuint (g_list_model_get_n_items (shown), >, expected_rejected);
  cs_calls_view_set_filter_text (view, NULL);

  /* Sorting by From, natural order: "999" before "1000". */
  g_timer_start (timer);
  g_assert_true (cs_calls_view_sort_by (view, "from", GTK_SORT_ASCENDING));
  /* Sorting runs in steps so the window stays responsive: wait for it. */
  while (gtk_sort_list_model_get_pending (GTK_SORT_LIST_MODEL (shown)) > 0)
    g_main_context_iteration (NULL, TRUE);
  sort_ms = g_timer_elapsed (timer, NULL) * 1000;
  {
    g_autoptr (CsCall) first = g_list_model_get_item (shown, 0);
    g_autoptr (CsCall) last = g_list_model_get_item (shown, 99999);
    g_assert_cmpstr (cs_call_get_from (first), ==, "1000");
    g_assert_cmpstr (cs_call_get_from (last), ==, "1996");
  }
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 100000);
  g_test_message ("100k calls: filter state:rejected %.1f ms, sort %.1f ms", filter_ms, sort_ms);
  g_object_unref (view);
}

/* A 10,000-message dialog: the view draws a screenful, whatever the scroll position. */
static void
test_long_ladder_virtualised (void)
{
  g_autoptr (CsCallTracker) tracker = cs_call_tracker_new ();
  g_autoptr (GPtrArray) calls = NULL;
  GtkWidget *window = gtk_window_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();
  CsLadderView *view = CS_LADDER_VIEW (cs_ladder_view_new ());
  GtkAdjustment *vadj;
  double worst = 0;

  for (guint i = 0; i < 10000; i++)
    {
      g_autofree char *text = g_strdup_printf (
          "%s\r\nVia: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bK%u\r\nFrom: <sip:a@x>;tag=1\r\n"
          "To: <sip:b@x>\r\nCall-ID: long@x\r\nCSeq: %u %s\r\nContent-Length: 0\r\n\r\n",
          i == 0  ? "INVITE sip:b@x SIP/2.0"
          : i % 2 ? "SIP/2.0 200 OK"
                  : "INFO sip:b@x SIP/2.0",
          i / 2, i / 2 + 1, i < 2 ? "INVITE" : "INFO");
      CsSipMessage *msg = cs_sip_message_parse ((const guint8 *) text, strlen (text), NULL);
      cs_sip_message_set_frame (msg, i + 1);
      cs_sip_message_set_ts_ns (msg, (gint64) i * 10 * MS);
      {
        CsEndpoint src = { .port = 5060 }, dst = { .port = 5060 };

        cs_addr_parse (&src.addr, i % 2 ? "10.0.0.2" : "10.0.0.1");
        cs_addr_parse (&dst.addr, i % 2 ? "10.0.0.1" : "10.0.0.2");
        cs_sip_message_set_endpoints (msg, &src, &dst);
      }
      cs_call_tracker_add (tracker, msg);
      cs_sip_message_unref (msg);
    }
  calls = cs_call_tracker_finish (tracker, 200000 * MS);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (view));
  gtk_window_set_child (GTK_WINDOW (window), scroller);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 600);
  gtk_window_present (GTK_WINDOW (window));
  cs_ladder_view_set_calls (view, (CsCall *const *) calls->pdata, 1, NULL);
  ui_test_spin (200);
  g_assert_cmpuint (cs_ladder_view_get_layout (view)->rows->len, ==, 10000);
  vadj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (view));
  g_assert_cmpfloat (gtk_adjustment_get_upper (vadj), >, 10000 * CS_LADDER_ROW_HEIGHT);
  for (guint step = 0; step < 20; step++)
    {
      g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (GTK_WIDGET (view));
      GtkSnapshot *snapshot = gtk_snapshot_new ();
      g_autoptr (GskRenderNode) node = NULL;

      gtk_adjustment_set_value (vadj, step * 17000.0);
      gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), 900, 600);
      node = gtk_snapshot_free_to_node (snapshot);
      worst = MAX (worst, cs_ladder_view_get_last_snapshot_ms (view));
      g_assert_cmpuint (cs_ladder_view_get_last_drawn_rows (view), >, 10);
      g_assert_cmpuint (cs_ladder_view_get_last_drawn_rows (view), <, 30);
    }
  g_test_message ("10,000-message ladder: slowest frame %.2f ms", worst);
  /* Keyboard selection far down scrolls the view to it. */
  cs_ladder_view_set_selected_row (view, 9000);
  g_assert_cmpfloat (gtk_adjustment_get_value (vadj), >, 8900 * CS_LADDER_ROW_HEIGHT);
  close_window (window);
}

static void
test_hex_format (void)
{
  const guint8 bytes[] = "INVITE sip:b@x SIP/2.0\r\n\x01\xff";
  g_autofree char *text = cs_hex_format (bytes, sizeof bytes - 1);
  gsize hex, ascii;

  g_assert_true (g_str_has_prefix (text, "0000  49 4e 56 49 54 45 20 73  69 70 3a 62 40 78 20 53  "
                                         "INVITE sip:b@x S\n"));
  g_assert_nonnull (strstr (text, "0010  49 50 2f 32 2e 30 0d 0a  01 ff "));
  g_assert_nonnull (strstr (text, "IP/2.0...."));
  cs_hex_format_position (17, &hex, &ascii);
  g_assert_cmpuint (hex, ==, 73 + 6 + 3);
  g_assert_cmpuint (ascii, ==, 73 + 6 + 49 + 1 + 1);
  g_assert_cmpint (text[hex], ==, '5');
  g_assert_cmpint (text[ascii], ==, 'P');
}

/* The generator's B2BUA scenario (its truth: leg 2 names leg 1 in X-Call-ID): selecting
 * leg 2 with "Other legs" on adds leg 1 and the line under the toolbar says why; a SIPp
 * capture whose 50 calls share media ports adds nothing. */
static CsWindow *
load_scenario (const char *gen, const char *dir, const char *name, int width, int height)
{
  g_autofree char *path = g_strdup_printf ("%s/%s.pcapng", dir, name);
  const char *args[] = { gen, "scenario", name, "-o", path, NULL };
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  int wait_status = 0;
  CsWindow *window;

  g_spawn_sync (NULL, (char **) args, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                &wait_status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (wait_status, NULL));
  window = cs_window_new (application);
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  cs_window_open_files (window, &file, 1);
  ui_test_wait_for_load (window);
  g_assert_cmpint (cs_window_get_state (window), ==, CS_WINDOW_STATE_LOADED);
  ui_test_spin (200);
  g_remove (path);
  return window;
}

static void
test_legs_why (void)
{
  const char *gen = g_getenv ("CS_GEN");
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL;
  static const guint leg_2 = 2, call_10 = 10;
  static const int sizes[][2] = { { 1280, 800 }, { 1920, 1080 } };

  if (gen == NULL)
    {
      g_test_skip ("CS_GEN (the scenario generator) is not set");
      return;
    }
  dir = g_dir_make_tmp ("callscope-ui-legs-XXXXXX", &error);
  g_assert_no_error (error);
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      CsWindow *window = load_scenario (gen, dir, "b2bua-x-call-id", sizes[s][0], sizes[s][1]);
      const CsLadderLayout *layout;
      const char *why;
      g_autofree char *png = g_strdup_printf ("ladder-legs-%d.png", sizes[s][0]);

      select_calls (window, &leg_2, 1);
      layout = cs_ladder_view_get_layout (cs_ladder_pane_get_view (window->ladder_pane));
      g_assert_nonnull (layout);
      g_assert_cmpuint (layout->calls->len, ==, 2);
      why = cs_ladder_pane_get_leg_reasons (window->ladder_pane);
      g_assert_nonnull (why);
      g_assert_true (g_str_has_prefix (why, "Leg 1 · call 1 — correlation-header: X-Call-ID: "));
      g_assert_nonnull (strstr (why, "names call 1's Call-ID"));
      g_assert_null (strchr (why, '\n')); /* one added leg, one line */
      gtk_paned_set_position (GTK_PANED (gtk_widget_get_parent (GTK_WIDGET (window->ladder_pane))),
                              sizes[s][1] / 2);
      ui_test_spin (200);
      render_window (window, png);
      close_window (window);
    }
  {
    CsWindow *window = load_scenario (gen, dir, "sipp-shared-ports", 1280, 800);
    const CsLadderLayout *layout;

    select_calls (window, &call_10, 1);
    layout = cs_ladder_view_get_layout (cs_ladder_pane_get_view (window->ladder_pane));
    g_assert_nonnull (layout);
    g_assert_cmpuint (layout->calls->len, ==, 1);
    g_assert_null (cs_ladder_pane_get_leg_reasons (window->ladder_pane));
    close_window (window);
  }
  g_rmdir (dir);
}

int
main (int argc, char *argv[])
{
  int status;

  application = ui_test_init (&argc, &argv);
  if (application == NULL)
    return 0;

  g_test_add_func ("/ladder/hex-format", test_hex_format);
  g_test_add_func ("/ladder/select-call", test_select_call);
  g_test_add_func ("/ladder/legs-why", test_legs_why);
  g_test_add_func ("/ladder/filter-and-merge", test_filter_and_merge);
  g_test_add_func ("/ladder/100k-calls-model", test_100k_calls_model);
  g_test_add_func ("/ladder/long-ladder", test_long_ladder_virtualised);
  status = g_test_run ();
  g_clear_object (&application);
  return status;
}
