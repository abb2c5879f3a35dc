/* test-window-bridges.c — the window's views follow one cursor: calls list → graphs and ladder,
 * ladder → cursor, findings and playback → calls list and ladder, Load page → calls list,
 * play/pause; and the layout at laptop sizes */
#include "ui-test-util.h"
#include <gtk/gtk.h>
#include <locale.h>
#include <string.h>

#include "cs-application.h"
#include "loadtest/cs-loadtest.h"
#include "cs-window-private.h"

static CsApplication *application;

static CsWindow *
load_demo_at (int width, int height)
{
  return ui_test_load_demo (application, width, height);
}

static CsWindow *
load_demo (void)
{
  return load_demo_at (1280, 800);
}

static CsCall *
call_by_number (CsWindow *window, guint number)
{
  g_autofree char *key = g_strdup_printf ("%u", number);
  CsCall *call = cs_call_list_lookup (CS_CALL_LIST (cs_analysis_get_calls (window->analysis)), key);

  g_assert_nonnull (call);
  return call;
}

/* Selects one call in the list as a click would. */
static void
click_call (CsWindow *window, guint number)
{
  GListModel *shown = cs_window_get_calls_model (window);

  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr (CsCall) call = g_list_model_get_item (shown, i);
      if (cs_call_get_number (call) == number)
        {
          gtk_selection_model_select_item (cs_calls_view_get_selection (window->calls_view), i,
                                           TRUE);
          ui_test_spin (50);
          return;
        }
    }
  g_assert_not_reached ();
}

static GtkColumnView *find_column_view (GtkWidget *widget);

static CsLadderView *
ladder (CsWindow *window)
{
  return cs_ladder_pane_get_view (window->ladder_pane);
}

static const CsLadderRow *
selected_ladder_row (CsWindow *window)
{
  const CsLadderLayout *layout = cs_ladder_view_get_layout (ladder (window));
  int row = cs_ladder_view_get_selected_row (ladder (window));

  g_assert_nonnull (layout);
  g_assert_cmpint (row, >=, 0);
  return &g_array_index (layout->rows, CsLadderRow, row);
}

/* The message row nearest in time, by brute force (the earlier one on a tie). */
static int
nearest_message_row (const CsLadderLayout *layout, gint64 time_ns)
{
  int best = -1;
  gint64 best_distance = G_MAXINT64;

  for (guint i = 0; i < layout->rows->len; i++)
    {
      const CsLadderRow *row = &g_array_index (layout->rows, CsLadderRow, i);
      gint64 distance = ABS (row->ts_ns - time_ns);

      if (row->kind == CS_LADDER_ROW_MESSAGE && distance < best_distance)
        {
          best = (int) i;
          best_distance = distance;
        }
    }
  return best;
}

/* Selecting a call in the list shows its streams in the graphs and puts the cursor on its
 * first message. */
static void
test_call_selects_streams (void)
{
  CsWindow *window = load_demo ();
  CsCall *call;
  const GArray *ids;
  const CsLadderRow *row;

  if (window == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  /* Call 5 has two streams (one per direction). */
  click_call (window, 5);
  call = call_by_number (window, 5);
  ids = cs_call_get_stream_ids (call);
  g_assert_true (cs_selection_get_call (window->selection) == call);
  g_assert_cmpuint (ids->len, ==, 2);
  g_assert_cmpuint (cs_graph_view_get_n_streams (window->graph_view), ==, ids->len);
  for (guint i = 0; i < cs_graph_view_get_n_streams (window->graph_view); i++)
    g_assert_cmpuint (cs_stream_get_call_number (cs_graph_view_get_stream (window->graph_view, i)),
                      ==, 5);
  g_assert_nonnull (cs_graph_view_get_graph (window->graph_view));

  /* The ladder shows the call from its INVITE, and the cursor is there. */
  g_assert_cmpint (cs_ladder_view_get_selected_row (ladder (window)), ==, 0);
  row = selected_ladder_row (window);
  g_assert_cmpstr (row->label, ==, "INVITE");
  g_assert_cmpuint (cs_selection_get_frame (window->selection), ==, row->frame);
  g_assert_cmpint (cs_selection_get_time_ns (window->selection), ==, row->ts_ns);

  /* The ladder moves the cursor: another message, its frame and time. */
  cs_ladder_view_set_selected_row (ladder (window), 3);
  row = selected_ladder_row (window);
  g_assert_cmpuint (cs_selection_get_frame (window->selection), ==, row->frame);
  g_assert_cmpint (cs_selection_get_time_ns (window->selection), ==, row->ts_ns);

  /* A stream of call 5 stays selected; picking call 1 (no media) drops it. */
  cs_selection_set_stream (window->selection, cs_graph_view_get_stream (window->graph_view, 0));
  click_call (window, 1);
  g_assert_cmpuint (cs_call_get_number (cs_selection_get_call (window->selection)), ==, 1);
  g_assert_null (cs_selection_get_stream (window->selection));
  g_assert_cmpuint (cs_graph_view_get_n_streams (window->graph_view), ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Activating a finding selects its call in the list and the ladder's message at its frame, or
 * the message nearest in time for a media frame, without moving the cursor off the frame. */
static void
test_finding_moves_ladder (void)
{
  CsWindow *window = load_demo ();
  GListModel *findings;
  guint exact = 0, nearest = 0;

  if (window == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  findings = cs_analysis_get_findings (window->analysis);
  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr (CsFinding) finding = g_list_model_get_item (findings, i);
      guint number = cs_finding_get_call_number (finding);
      guint32 frame = g_array_index (cs_finding_get_frames (finding), guint32, 0);
      const CsLadderLayout *layout;
      const CsLadderRow *row;
      gboolean has_message_row = FALSE;

      if (number == 0)
        continue;
      click_call (window, number == 1 ? 2 : 1);
      cs_findings_view_activate (window->findings_view, finding);
      ui_test_spin (20);

      g_assert_cmpuint (cs_call_get_number (cs_calls_view_get_selected_call (window->calls_view)),
                        ==, number);
      g_assert_cmpuint (cs_selection_get_frame (window->selection), ==, frame);
      layout = cs_ladder_view_get_layout (ladder (window));
      g_assert_nonnull (layout);
      row = selected_ladder_row (window);
      for (guint r = 0; r < layout->rows->len; r++)
        {
          const CsLadderRow *candidate = &g_array_index (layout->rows, CsLadderRow, r);
          has_message_row |= candidate->kind == CS_LADDER_ROW_MESSAGE && candidate->frame == frame;
        }
      if (has_message_row)
        {
          g_assert_cmpuint (row->frame, ==, frame);
          exact++;
        }
      else
        {
          g_assert_cmpint (
              cs_ladder_view_get_selected_row (ladder (window)), ==,
              nearest_message_row (layout, cs_selection_get_time_ns (window->selection)));
          nearest++;
        }
      /* The detail pane shows that message. */
      g_assert_true (row->message != NULL);
    }
  /* The demo has both: SIP findings (failed call, slow PDD) and media ones (loss, one-way). */
  g_assert_cmpuint (exact, >, 0);
  g_assert_cmpuint (nearest, >, 0);

  /* The list scrolls to the finding's call when it is below the rows in view. */
  {
    g_autoptr (CsFinding) last = NULL;
    GtkColumnView *columns = find_column_view (GTK_WIDGET (window->calls_view));
    GtkAdjustment *vadjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (columns));

    for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
      {
        g_autoptr (CsFinding) finding = g_list_model_get_item (findings, i);
        if (last == NULL
            || cs_finding_get_call_number (finding) > cs_finding_get_call_number (last))
          g_set_object (&last, finding);
      }
    g_assert_cmpuint (cs_finding_get_call_number (last), >=, 9);
    click_call (window, 1);
    gtk_adjustment_set_value (vadjustment, 0);
    ui_test_spin (100);
    cs_findings_view_activate (window->findings_view, last);
    ui_test_spin (200);
    g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), >, 0);
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A finding on a call the filter hides clears the filter rather than selecting nothing. */
static void
test_finding_on_filtered_call (void)
{
  CsWindow *window = load_demo ();
  GListModel *findings;
  g_autoptr (CsFinding) finding = NULL;
  guint n_calls;

  if (window == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  n_calls = g_list_model_get_n_items (cs_analysis_get_calls (window->analysis));
  findings = cs_analysis_get_findings (window->analysis);
  for (guint i = 0; i < g_list_model_get_n_items (findings) && finding == NULL; i++)
    {
      g_autoptr (CsFinding) candidate = g_list_model_get_item (findings, i);
      if (cs_finding_get_call_number (candidate) == 5)
        finding = g_steal_pointer (&candidate);
    }
  g_assert_nonnull (finding);
  /* Call 5 is from 1003 to 1004: this filter hides it. */
  cs_calls_view_set_filter_text (window->calls_view, "from:1001");
  g_assert_cmpuint (g_list_model_get_n_items (cs_window_get_calls_model (window)), <, n_calls);
  cs_findings_view_activate (window->findings_view, finding);
  g_assert_cmpuint (g_list_model_get_n_items (cs_window_get_calls_model (window)), ==, n_calls);
  g_assert_cmpuint (cs_call_get_number (cs_calls_view_get_selected_call (window->calls_view)), ==,
                    5);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (window->search_entry)), ==, "");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* While playing, the player moves only the cursor's time: the ladder follows to the nearest
 * message and does not move the cursor back. */
static void
test_time_moves_ladder (void)
{
  CsWindow *window = load_demo ();
  const CsLadderLayout *layout;
  const CsLadderRow *bye = NULL;
  int bye_row = -1;
  guint frame_before;

  if (window == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  click_call (window, 5);
  layout = cs_ladder_view_get_layout (ladder (window));
  for (guint i = 0; i < layout->rows->len; i++)
    if (g_strcmp0 (g_array_index (layout->rows, CsLadderRow, i).label, "BYE") == 0)
      {
        bye_row = (int) i;
        bye = &g_array_index (layout->rows, CsLadderRow, i);
      }
  g_assert_nonnull (bye);
  frame_before = cs_selection_get_frame (window->selection);
  /* 40 ms before the BYE, as the player reports its position. */
  cs_selection_set_time_ns (window->selection, bye->ts_ns - 40 * G_GINT64_CONSTANT (1000000));
  g_assert_cmpint (cs_ladder_view_get_selected_row (ladder (window)), ==,
                   nearest_message_row (layout, bye->ts_ns - 40 * G_GINT64_CONSTANT (1000000)));
  g_assert_cmpint (cs_ladder_view_get_selected_row (ladder (window)), ==, bye_row);
  /* No echo: the cursor keeps the player's time and frame. */
  g_assert_cmpint (cs_selection_get_time_ns (window->selection), ==,
                   bye->ts_ns - 40 * G_GINT64_CONSTANT (1000000));
  g_assert_cmpuint (cs_selection_get_frame (window->selection), ==, frame_before);
  /* The helper itself: frame first, then time, nothing without either. */
  g_assert_cmpint (cs_window_find_ladder_row (layout, bye->frame, 1), ==, bye_row);
  g_assert_cmpint (cs_window_find_ladder_row (layout, 0, 0), ==, -1);
  g_assert_cmpint (cs_window_find_ladder_row (NULL, bye->frame, 0), ==, -1);
  gtk_window_destroy (GTK_WINDOW (window));
}

static guint
count_calls (CsWindow *window, gint64 from_ns, gint64 to_ns, const char *from_part)
{
  GListModel *calls = cs_analysis_get_calls (window->analysis);
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (calls); i++)
    {
      g_autoptr (CsCall) call = g_list_model_get_item (calls, i);
      gboolean in_range = from_ns == to_ns || cs_loadtest_call_started_in (call, from_ns, to_ns);
      gboolean from_ok = from_part == NULL || strstr (cs_call_get_from (call), from_part) != NULL;
      n += in_range && from_ok;
    }
  return n;
}

/* A range brushed on the Load page limits the calls list (with the text filter), and the
 * list's "Show all" forgets it on both sides. */
static void
test_load_range_filters_calls (void)
{
  CsWindow *window = load_demo ();
  gint64 from_ns, to_ns, load_from = 0, load_to = 0;
  guint n_calls, expected;

  if (window == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  n_calls = g_list_model_get_n_items (cs_analysis_get_calls (window->analysis));
  /* From call 4's start up to (not including) call 7's. */
  from_ns = cs_call_get_start_ns (call_by_number (window, 4));
  to_ns = cs_call_get_start_ns (call_by_number (window, 7));
  expected = count_calls (window, from_ns, to_ns, NULL);
  g_assert_cmpuint (expected, ==, 3);

  gtk_stack_set_visible_child_name (window->view_stack, "load");
  /* Summary and Load take the whole height: no workspace of one call below. */
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window->detail_paned)));
  cs_load_view_select_range (window->load_view, from_ns, to_ns);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window->view_stack), ==, "calls");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window->detail_paned)));
  g_assert_cmpuint (g_list_model_get_n_items (cs_window_get_calls_model (window)), ==, expected);
  for (guint i = 0; i < expected; i++)
    {
      g_autoptr (CsCall) call = g_list_model_get_item (cs_window_get_calls_model (window), i);
      g_assert_true (cs_loadtest_call_started_in (call, from_ns, to_ns));
    }

  /* Together with the text filter. */
  cs_calls_view_set_filter_text (window->calls_view, "from:1001");
  g_assert_cmpuint (g_list_model_get_n_items (cs_window_get_calls_model (window)), ==,
                    count_calls (window, from_ns, to_ns, "1001"));
  g_assert_cmpuint (count_calls (window, from_ns, to_ns, "1001"), <, expected);

  /* "Show all calls" above the list: the Load page's brush goes too. */
  g_assert_true (cs_load_view_get_range (window->load_view, &load_from, &load_to));
  cs_calls_view_set_time_range (window->calls_view, 0, 0);
  g_assert_false (cs_load_view_get_range (window->load_view, &load_from, &load_to));
  g_assert_cmpuint (g_list_model_get_n_items (cs_window_get_calls_model (window)), ==,
                    count_calls (window, 0, 0, "1001"));
  cs_calls_view_set_filter_text (window->calls_view, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (cs_window_get_calls_model (window)), ==, n_calls);

  /* Clearing on the Load page (0, 0) shows every call again. */
  cs_load_view_select_range (window->load_view, from_ns, to_ns);
  g_assert_cmpuint (g_list_model_get_n_items (cs_window_get_calls_model (window)), ==, expected);
  cs_load_view_select_range (window->load_view, 0, 0);
  g_assert_cmpuint (g_list_model_get_n_items (cs_window_get_calls_model (window)), ==, n_calls);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Space is win.play-pause, listed in the shortcuts window; it plays and pauses the call. */
static void
test_play_pause (void)
{
  CsWindow *window = load_demo ();
  g_autoptr (GtkBuilder) builder = NULL;
  GObject *overlay;
  gboolean listed = FALSE;
  g_autoptr (GError) error = NULL;
  CsAudioPlayer *player;

  if (window == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  builder = gtk_builder_new_from_resource ("/io/github/callscope/Callscope/gtk/help-overlay.ui");
  overlay = gtk_builder_get_object (builder, "help_overlay");
  g_assert_nonnull (overlay);
  {
    GSList *objects = gtk_builder_get_objects (builder);

    for (GSList *l = objects; l != NULL; l = l->next)
      if (GTK_IS_SHORTCUTS_SHORTCUT (l->data))
        {
          g_autofree char *accelerator = NULL;
          g_object_get (l->data, "accelerator", &accelerator, NULL);
          listed |= g_strcmp0 (accelerator, "space") == 0;
        }
    g_slist_free (objects);
  }
  g_assert_true (listed);
  gtk_window_destroy (GTK_WINDOW (overlay));

  g_assert_true (ui_test_action_enabled (GTK_WIDGET (window), "win.play-pause"));
  player = cs_player_bar_get_player (window->player_bar);
  /* Nothing decoded yet: nothing plays. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.play-pause", NULL);
  g_assert_cmpint (cs_audio_player_get_state (player), ==, CS_AUDIO_PLAYER_STOPPED);

  click_call (window, 5);
  cs_player_bar_render_now (window->player_bar);
  g_assert_nonnull (cs_player_bar_get_render (window->player_bar));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.play-pause", NULL);
  if (!cs_audio_player_probe_device (&error))
    {
      /* No sound card here: the bar says why instead of playing. */
      g_assert_cmpint (cs_audio_player_get_state (player), !=, CS_AUDIO_PLAYER_PLAYING);
      g_assert_nonnull (cs_player_bar_get_message (window->player_bar));
    }
  else
    {
      g_assert_cmpint (cs_audio_player_get_state (player), ==, CS_AUDIO_PLAYER_PLAYING);
      gtk_widget_activate_action (GTK_WIDGET (window), "win.play-pause", NULL);
      g_assert_cmpint (cs_audio_player_get_state (player), ==, CS_AUDIO_PLAYER_PAUSED);
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

static GtkColumnView *
find_column_view (GtkWidget *widget)
{
  if (GTK_IS_COLUMN_VIEW (widget))
    return GTK_COLUMN_VIEW (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkColumnView *found = find_column_view (child);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* At 1280×800 the calls list's default columns fill its width and the ladder gets more height
 * than the graphs and player; the window fits a 1000 px wide screen. */
static void
test_layout (void)
{
  static const char *const titles[]
      = { "#",   "Start", "From",     "To",       "Method",  "State", "Final",
          "PDD", "Setup", "Duration", "Messages", "Streams", "MOS",   "Findings" };
  CsWindow *window = load_demo ();
  GtkColumnView *columns;
  GListModel *list;
  guint visible = 0;
  int min_width = 0;
  GtkWidget *header;
  GtkWidget *strip;

  if (window == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  click_call (window, 5);
  ui_test_spin (200);
  columns = find_column_view (GTK_WIDGET (window->calls_view));
  g_assert_nonnull (columns);
  list = gtk_column_view_get_columns (columns);
  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (list, i);
      const char *title = gtk_column_view_column_get_title (column);

      if (!gtk_column_view_column_get_visible (column) || title == NULL)
        continue;
      g_assert_cmpuint (visible, <, G_N_ELEMENTS (titles));
      g_assert_cmpstr (title, ==, titles[visible]);
      visible++;
    }
  g_assert_cmpuint (visible, ==, G_N_ELEMENTS (titles));
  /* The header row (all columns) is exactly as wide as the list: the columns fill it. */
  header = gtk_widget_get_first_child (GTK_WIDGET (columns));
  g_assert_cmpint (gtk_widget_get_width (header), ==, gtk_widget_get_width (GTK_WIDGET (columns)));

  /* With the list shown the graph keeps a readable height; an opened call (Enter on its row)
   * gives the ladder more height than the graphs and player (test-window-layout.c). */
  strip = gtk_paned_get_end_child (window->workspace_paned);
  g_assert_cmpint (gtk_widget_get_height (strip), >=, 150);
  g_signal_emit_by_name (columns, "activate", 4);
  ui_test_spin (200);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (window->ladder_pane)), >,
                   gtk_widget_get_height (strip));

  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL,
                      NULL);
  g_assert_cmpint (min_width, <=, 1000);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Dividers come back where they were, as fractions, at another window size. */
static void
test_panes_remembered (void)
{
  GSettings *settings = cs_application_get_settings (application);
  CsWindow *window;
  int room;

  if (ui_test_demo_capture_path () == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  /* Within what the ladder's and the strip's (160 px graph) minimum heights allow. */
  g_settings_set_double (settings, "workspace-pane-fraction", 0.3);
  window = load_demo_at (1280, 1000);
  ui_test_spin (200);
  room = cs_window_paned_room (window->workspace_paned);
  g_assert_cmpint (room, >, 300);
  /* Within a few pixels: rows laid out after the restore may take a little of the room. */
  g_assert_cmpint (ABS (gtk_paned_get_position (window->workspace_paned) - (int) (0.3 * room)), <=,
                   6);
  /* The user drags the divider; closing saves where it is. */
  gtk_paned_set_position (window->workspace_paned, (int) (0.4 * room));
  ui_test_spin (100);
  gtk_window_close (GTK_WINDOW (window));
  g_assert_cmpfloat_with_epsilon (g_settings_get_double (settings, "workspace-pane-fraction"), 0.4,
                                  0.01);
  g_settings_reset (settings, "workspace-pane-fraction");
  ui_test_spin (100);
}

int
main (int argc, char *argv[])
{
  int status;

  application = ui_test_init (&argc, &argv);
  if (application == NULL)
    return 0;

  g_test_add_func ("/bridges/call-selects-streams", test_call_selects_streams);
  g_test_add_func ("/bridges/finding-moves-ladder", test_finding_moves_ladder);
  g_test_add_func ("/bridges/finding-on-filtered-call", test_finding_on_filtered_call);
  g_test_add_func ("/bridges/time-moves-ladder", test_time_moves_ladder);
  g_test_add_func ("/bridges/load-range-filters-calls", test_load_range_filters_calls);
  g_test_add_func ("/bridges/play-pause", test_play_pause);
  g_test_add_func ("/layout/default", test_layout);
  g_test_add_func ("/layout/panes-remembered", test_panes_remembered);

  status = g_test_run ();
  g_clear_object (&application);
  return status;
}
