/* test-time-base.c — one clock (issue 22): the ladder, the graphs, the waveform and the player
 * count seconds since the capture's first packet; a graph point clicked puts the ladder on the
 * row at the same time and the waveform's cursor there too */
#include "ui-test-util.h"
#include <gtk/gtk.h>
#include <string.h>

#include "cs-application.h"
#include "cs-graph-view-canvas.h"
#include "cs-waveform-view.h"
#include "cs-window-private.h"

static CsApplication *application;

static GtkWidget *
find_widget (GtkWidget *widget, GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
select_call (CsWindow *window, guint number)
{
  GListModel *shown = cs_window_get_calls_model (window);

  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr (CsCall) call = g_list_model_get_item (shown, i);
      if (cs_call_get_number (call) == number)
        {
          gtk_selection_model_select_item (cs_calls_view_get_selection (window->calls_view), i,
                                           TRUE);
          ui_test_spin (300);
          return;
        }
    }
  g_assert_not_reached ();
}

/* The time column's text as a number of seconds. */
static double
ladder_seconds (CsLadderView *view, guint row)
{
  g_autofree char *text = cs_ladder_layout_format_time (cs_ladder_view_get_layout (view), row,
                                                        cs_ladder_view_get_time_mode (view));
  char *end = NULL;
  double seconds = g_ascii_strtod (text, &end);

  g_assert_true (end != text && *end == '\0');
  return seconds;
}

static void
test_graph_point_and_ladder_row (void)
{
  CsWindow *window = ui_test_load_demo (application, 1280, 800);
  CsLadderView *ladder;
  CsGraphCanvas *canvas;
  CsWaveformView *waveform;
  const CsGraph *graph;
  const CsGraphPoint *point;
  const CsLadderRow *row;
  gint64 first_ns;
  double x, y, cursor;
  int selected;

  if (window == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  ladder = cs_ladder_pane_get_view (window->ladder_pane);
  canvas = CS_GRAPH_CANVAS (find_widget (GTK_WIDGET (window->graph_view), CS_TYPE_GRAPH_CANVAS));
  waveform
      = CS_WAVEFORM_VIEW (find_widget (GTK_WIDGET (window->player_bar), CS_TYPE_WAVEFORM_VIEW));
  first_ns = cs_analysis_get_stats (window->analysis)->first_ns;
  select_call (window, 5);

  /* The demo (tests/gen/gen-scenarios.c): the first packet is a REGISTER at epoch + 0.3 s,
   * call 5 ("demo 2") sends its INVITE at epoch + 5 s: 4.7 s into the capture. */
  g_assert_cmpint (cs_ladder_view_get_time_mode (ladder), ==, CS_LADDER_TIME_CAPTURE);
  g_assert_cmpfloat_with_epsilon (ladder_seconds (ladder, 0), 4.7, 1e-9);

  /* Click the first point of the first stream: every view's cursor is at its time. */
  graph = cs_graph_canvas_get_graph (canvas);
  g_assert_nonnull (graph);
  point = &g_array_index (cs_graph_get_series (graph, 0)->points, CsGraphPoint, 0);
  cs_graph_canvas_reset_zoom (canvas);
  g_assert_true (cs_graph_canvas_point_position (canvas, 0, 0, &x, &y));
  g_assert_true (cs_graph_canvas_click_at (canvas, x, y));
  ui_test_spin (200);
  cursor = cs_graph_canvas_get_cursor (canvas);
  g_assert_cmpfloat_with_epsilon (cursor, point->t_s, 1e-9);
  g_assert_cmpfloat_with_epsilon (
      (double) (cs_selection_get_time_ns (window->selection) - first_ns) / 1e9, point->t_s, 1e-6);

  /* The ladder is on the message nearest that packet, and its time column is on the graph's
   * clock: the two differ by exactly the distance between the instants. */
  selected = cs_ladder_view_get_selected_row (ladder);
  g_assert_cmpint (selected, >=, 0);
  row = &g_array_index (cs_ladder_view_get_layout (ladder)->rows, CsLadderRow, selected);
  g_assert_cmpint (row->kind, ==, CS_LADDER_ROW_MESSAGE);
  g_assert_cmpfloat_with_epsilon (
      ladder_seconds (ladder, selected) - cursor,
      (double) (row->ts_ns - cs_selection_get_time_ns (window->selection)) / 1e9, 1e-6);
  g_assert_cmpint (cs_waveform_view_get_cursor_ns (waveform), ==,
                   cs_selection_get_time_ns (window->selection));

  /* The other way: the ladder's row of the first stream puts the graph's cursor on the time
   * its time column reads, and the waveform's cursor at that instant. */
  selected = -1;
  for (guint i = 0; i < cs_ladder_view_get_layout (ladder)->rows->len; i++)
    if (g_array_index (cs_ladder_view_get_layout (ladder)->rows, CsLadderRow, i).kind
        == CS_LADDER_ROW_STREAM)
      {
        selected = (int) i;
        break;
      }
  g_assert_cmpint (selected, >=, 0);
  cs_ladder_view_set_selected_row (ladder, selected);
  ui_test_spin (200);
  row = &g_array_index (cs_ladder_view_get_layout (ladder)->rows, CsLadderRow, selected);
  cursor = cs_graph_canvas_get_cursor (canvas);
  g_assert_cmpfloat_with_epsilon (ladder_seconds (ladder, selected), cursor, 1e-6);
  g_assert_cmpfloat_with_epsilon (cursor, (double) (row->ts_ns - first_ns) / 1e9, 1e-6);
  g_assert_cmpint (cs_waveform_view_get_cursor_ns (waveform), ==, row->ts_ns);
  /* The stream starts after the INVITE, on the same clock. */
  g_assert_cmpfloat (ladder_seconds (ladder, selected), >, 4.7);

  /* Since call start: the INVITE is 0 and the stream row keeps its distance from it. */
  cs_ladder_view_set_time_mode (ladder, CS_LADDER_TIME_RELATIVE);
  g_assert_cmpfloat_with_epsilon (ladder_seconds (ladder, 0), 0.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (ladder_seconds (ladder, selected), cursor - 4.7, 1e-6);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Absolute times name the hour once and then what changes. */
static void
test_absolute_drops_the_hour (void)
{
  CsWindow *window = ui_test_load_demo (application, 1280, 800);
  CsLadderView *ladder;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;

  if (window == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  ladder = cs_ladder_pane_get_view (window->ladder_pane);
  select_call (window, 5);
  first = cs_ladder_layout_format_time (cs_ladder_view_get_layout (ladder), 0,
                                        CS_LADDER_TIME_ABSOLUTE);
  second = cs_ladder_layout_format_time (cs_ladder_view_get_layout (ladder), 1,
                                         CS_LADDER_TIME_ABSOLUTE);
  /* HH:MM:SS.mmm, then MM:SS.uuuuuu (100 Trying 10 ms after the INVITE, same hour). */
  g_assert_cmpuint (strlen (first), ==, 12);
  g_assert_cmpuint (strlen (second), ==, 12);
  g_assert_true (first[2] == ':' && first[5] == ':' && first[8] == '.');
  g_assert_true (second[2] == ':' && second[5] == '.');
  /* The minutes and seconds are the first row's and 10 ms later. */
  g_assert_cmpint (strncmp (first + 3, second, 5), ==, 0);
  g_assert_cmpint (atoi (second + 6) - atoi (first + 9) * 1000, ==, 10000);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char *argv[])
{
  int status;

  application = ui_test_init (&argc, &argv);
  if (application == NULL)
    return 0;
  g_test_add_func ("/time-base/graph-point-and-ladder-row", test_graph_point_and_ladder_row);
  g_test_add_func ("/time-base/absolute-drops-the-hour", test_absolute_drops_the_hour);
  status = g_test_run ();
  g_clear_object (&application);
  return status;
}
