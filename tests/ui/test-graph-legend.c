/* test-graph-legend.c — graphs that explain themselves (issue 22): the legend names every
 * stream and every kind of mark, laid out inside the graph without overlaps at 1280×800 and
 * 1920×1080; DTMF digits are marks at the generator's frames. Truth: cs-gen's expect.json. */
#include "ui-test-util.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "cs-graph-legend.h"
#include "cs-window-private.h"

static CsApplication *application;

/* Writes scenario `name` ("demo" for the demo) and its expect.json to dir; returns the
 * capture's path and the parsed truth. */
static char *
generate (const char *gen, const char *dir, const char *name, JsonParser **truth)
{
  g_autofree char *path = g_strdup_printf ("%s/%s.pcapng", dir, name);
  g_autofree char *expect = g_strdup_printf ("%s/%s.json", dir, name);
  const char *scenario_args[] = { gen, "scenario", name, "-o", path, "--expect", expect, NULL };
  const char *demo_args[] = { gen, "demo", "-o", path, "--expect", expect, NULL };
  g_autoptr (GError) error = NULL;
  int wait_status = 0;

  g_spawn_sync (NULL, (char **) (strcmp (name, "demo") == 0 ? demo_args : scenario_args), NULL,
                G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL, &wait_status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (wait_status, NULL));
  *truth = json_parser_new ();
  json_parser_load_from_file (*truth, expect, &error);
  g_assert_no_error (error);
  g_remove (expect);
  return g_steal_pointer (&path);
}

static JsonObject *
truth_stream (JsonParser *truth, guint32 ssrc)
{
  JsonArray *streams = json_object_get_array_member (
      json_node_get_object (json_parser_get_root (truth)), "streams");
  g_autofree char *hex = g_strdup_printf ("0x%08X", ssrc);

  for (guint i = 0; i < json_array_get_length (streams); i++)
    {
      JsonObject *s = json_array_get_object_element (streams, i);
      if (g_ascii_strcasecmp (json_object_get_string_member (s, "ssrc"), hex) == 0)
        return s;
    }
  return NULL;
}

static const CsGraphLegendItem *
legend_find (const GArray *items, const char *label)
{
  for (guint i = 0; i < items->len; i++)
    if (g_strcmp0 (g_array_index (items, CsGraphLegendItem, i).label, label) == 0)
      return &g_array_index (items, CsGraphLegendItem, i);
  return NULL;
}

static CsWindow *
open_call (const char *path, int width, int height, guint call)
{
  CsWindow *window = ui_test_load_file (application, path, width, height);

  g_assert_nonnull (window);
  ui_test_select_call (window, call);
  ui_test_spin (400);
  return window;
}

/* Demo call 5 (two directions, the callee's with loss): one legend entry per stream named
 * "src → dst" as the generator wrote them, "lost packets" because the generator dropped
 * packets, every entry inside the graph, none over another, the plot under the legend. */
static void
test_legend_demo (void)
{
  const char *gen = g_getenv ("CS_GEN");
  static const int sizes[][2] = { { 1280, 800 }, { 1920, 1080 } };
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr (JsonParser) truth = NULL;

  if (gen == NULL)
    {
      g_test_skip ("CS_GEN (the scenario generator) is not set");
      return;
    }
  dir = g_dir_make_tmp ("callscope-ui-legend-XXXXXX", NULL);
  path = generate (gen, dir, "demo", &truth);
  for (guint z = 0; z < G_N_ELEMENTS (sizes); z++)
    {
      CsWindow *window = open_call (path, sizes[z][0], sizes[z][1], 5);
      CsGraphCanvas *canvas = cs_graph_view_get_canvas (window->graph_view);
      const CsGraph *graph = cs_graph_canvas_get_graph (canvas);
      int width = gtk_widget_get_width (GTK_WIDGET (canvas));
      int height = gtk_widget_get_height (GTK_WIDGET (canvas));
      const GArray *legend;
      gboolean any_lost = FALSE;
      guint rows = 0;
      CsGraphRect plot;

      g_assert_nonnull (graph);
      g_assert_cmpuint (cs_graph_get_n_series (graph), ==, 2);
      legend = cs_graph_canvas_get_legend (canvas, &rows);
      g_assert_nonnull (legend);
      for (guint s = 0; s < cs_graph_get_n_series (graph); s++)
        {
          CsStream *stream = cs_analysis_lookup_stream (window->analysis,
                                                        cs_graph_get_series (graph, s)->stream_id);
          JsonObject *t = truth_stream (truth, cs_stream_get_ssrc (stream));
          g_autofree char *label = NULL;

          g_assert_nonnull (t);
          label = g_strdup_printf ("%s → %s", json_object_get_string_member (t, "src"),
                                   json_object_get_string_member (t, "dst"));
          g_test_message ("%dx%d: legend needs \"%s\"", sizes[z][0], sizes[z][1], label);
          g_assert_nonnull (legend_find (legend, label));
          any_lost |= json_object_get_int_member (t, "lost") > 0;
        }
      g_assert_true (any_lost); /* the demo's call 5 loses packets (its truth) */
      g_assert_nonnull (legend_find (legend, "lost packets"));
      cs_graph_render_plot_area_rows (width, height, rows, &plot);
      for (guint i = 0; i < legend->len; i++)
        {
          const CsGraphLegendItem *a = &g_array_index (legend, CsGraphLegendItem, i);

          g_assert_cmpfloat (a->box.x, >=, 0);
          g_assert_cmpfloat (a->box.x + a->box.width, <=, width);
          g_assert_cmpfloat (a->box.y + a->box.height, <=, plot.y);
          for (guint j = i + 1; j < legend->len; j++)
            {
              const CsGraphLegendItem *b = &g_array_index (legend, CsGraphLegendItem, j);
              g_assert_true (
                  a->box.x + a->box.width <= b->box.x || b->box.x + b->box.width <= a->box.x
                  || a->box.y + a->box.height <= b->box.y || b->box.y + b->box.height <= a->box.y);
            }
        }
      g_assert_cmpfloat (plot.height, >=, 60); /* the legend leaves a plot to read */
      gtk_window_destroy (GTK_WINDOW (window));
    }
  g_remove (path);
  g_rmdir (dir);
}

/* The dtmf scenario sends RFC 4733 digits 1, 5, # and a SIP INFO 5: the graph carries one
 * DTMF mark per digit, in order, at the digit's first frame, and the legend names them. */
static void
test_dtmf_marks (void)
{
  const char *gen = g_getenv ("CS_GEN");
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autoptr (JsonParser) truth = NULL;
  g_autoptr (GString) digits = g_string_new (NULL), want = g_string_new (NULL);
  g_autoptr (GArray) frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  JsonArray *dtmf;
  CsWindow *window;
  const CsGraph *graph;
  const GArray *legend;

  if (gen == NULL)
    {
      g_test_skip ("CS_GEN (the scenario generator) is not set");
      return;
    }
  dir = g_dir_make_tmp ("callscope-ui-dtmf-XXXXXX", NULL);
  path = generate (gen, dir, "dtmf", &truth);
  window = open_call (path, 1280, 800, 1);
  graph = cs_graph_canvas_get_graph (cs_graph_view_get_canvas (window->graph_view));
  g_assert_nonnull (graph);
  for (guint s = 0; s < cs_graph_get_n_series (graph); s++)
    {
      const GArray *markers = cs_graph_get_series (graph, s)->markers;

      for (guint m = 0; m < markers->len; m++)
        if (g_array_index (markers, CsGraphMarker, m).kind == CS_GRAPH_MARKER_DTMF)
          {
            g_string_append_c (digits, g_array_index (markers, CsGraphMarker, m).digit);
            g_array_append_val (frames, g_array_index (markers, CsGraphMarker, m).frame);
          }
    }
  dtmf = json_object_get_array_member (json_node_get_object (json_parser_get_root (truth)), "dtmf");
  for (guint i = 0; i < json_array_get_length (dtmf); i++)
    {
      JsonObject *d = json_array_get_object_element (dtmf, i);
      JsonArray *f = json_object_get_array_member (d, "frames");

      g_string_append (want, json_object_get_string_member (d, "digit"));
      g_assert_cmpuint (i, <, frames->len);
      g_assert_cmpuint (g_array_index (frames, guint32, i), ==, json_array_get_int_element (f, 0));
    }
  g_assert_cmpstr (digits->str, ==, want->str); /* "15#5" */
  legend = cs_graph_canvas_get_legend (cs_graph_view_get_canvas (window->graph_view), NULL);
  g_assert_nonnull (legend);
  g_assert_nonnull (legend_find (legend, "DTMF"));
  g_assert_null (legend_find (legend, "lost packets")); /* the scenario loses nothing */
  gtk_window_destroy (GTK_WINDOW (window));
  g_remove (path);
  g_rmdir (dir);
}

int
main (int argc, char *argv[])
{
  int status;

  application = ui_test_init (&argc, &argv);
  if (application == NULL)
    return 0;
  g_test_add_func ("/graph-legend/demo", test_legend_demo);
  g_test_add_func ("/graph-legend/dtmf", test_dtmf_marks);
  status = g_test_run ();
  g_clear_object (&application);
  return status;
}
