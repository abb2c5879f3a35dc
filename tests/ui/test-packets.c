/* test-packets.c — the Packets page (issue 21): activating a finding lists exactly its frames
 * with the first one's tree and bytes shown; scopes; the list is made on demand; screenshots
 * (CS_PACKETS_SHOTS=DIR) at 1280x800 and 1920x1080 of the demo and of a real sample */
#include <string.h>

#include "cs-frame-list.h"
#include "cs-proto-item.h"
#include "cs-packets-view-private.h"
#include "cs-window-private.h"
#include "ui-test-util.h"

static CsApplication *application;

static void
save_shot (CsWindow *window, const char *name, int width, int height)
{
  const char *dir = g_getenv ("CS_PACKETS_SHOTS");
  g_autoptr (GdkPaintable) paintable = NULL;
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  g_autofree char *png = NULL;
  GtkSnapshot *snapshot;

  if (dir == NULL)
    return;
  ui_test_spin (300);
  paintable = gtk_widget_paintable_new (GTK_WIDGET (window));
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  png = g_strdup_printf ("%s/%s-%dx%d.png", dir, name, width, height);
  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_test_message ("wrote %s", png);
}

/* The frame numbers the page lists. */
static GArray *
listed (CsWindow *window)
{
  GListModel *rows = cs_packets_view_get_rows (window->packets_view);
  GArray *numbers = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (CsFrameRow) row = g_list_model_get_item (rows, i);
      guint32 n = cs_frame_row_get_number (row);

      g_array_append_val (numbers, n);
    }
  return numbers;
}

/* The value of the first tree node called name (searching the nodes behind the tree rows'
 * items, opened or not: the first layer item shares the tree). */
static const char *
tree_value (CsWindow *window, const char *name)
{
  GListModel *tree = cs_packets_view_get_tree (window->packets_view);

  for (guint i = 0; i < g_list_model_get_n_items (tree); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (tree, i);
      CsProtoItem *item = gtk_tree_list_row_get_item (row);

      if (g_strcmp0 (cs_proto_item_get_node (item)->name, name) == 0)
        return cs_proto_item_get_node (item)->value;
      gtk_tree_list_row_set_expanded (row, TRUE);
    }
  return NULL;
}

/* Activating each finding lists exactly its frames (ascending, once each) and shows the first:
 * its frame number in the tree, and for RTP its sequence number as the bytes hold it. */
static void
test_finding_lists_its_frames (void)
{
  CsWindow *window = ui_test_load_demo (application, 1280, 800);
  GListModel *findings;
  guint checked = 0;

  if (window == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  findings = cs_analysis_get_findings (window->analysis);
  g_assert_cmpuint (g_list_model_get_n_items (findings), >, 0);
  gtk_stack_set_visible_child_name (window->view_stack, "findings");
  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr (CsFinding) finding = g_list_model_get_item (findings, i);
      const GArray *want = cs_finding_get_frames (finding);
      g_autoptr (GArray) got = NULL;
      g_autoptr (GHashTable) distinct = g_hash_table_new (NULL, NULL);
      guint32 first = G_MAXUINT32;
      CsFramePayload payload;
      g_autofree char *number = NULL;

      gtk_stack_set_visible_child_name (window->view_stack, "findings");
      cs_findings_view_activate (window->findings_view, finding);
      gtk_stack_set_visible_child_name (window->view_stack, "packets");
      ui_test_spin (20);
      g_assert_cmpint (cs_packets_view_get_scope (window->packets_view), ==,
                       CS_PACKETS_SCOPE_FINDING);
      got = listed (window);
      for (guint f = 0; f < want->len; f++)
        {
          guint32 n = g_array_index (want, guint32, f);

          g_hash_table_add (distinct, GUINT_TO_POINTER (n));
          first = MIN (first, n);
        }
      g_assert_cmpuint (got->len, ==, g_hash_table_size (distinct));
      for (guint r = 0; r < got->len; r++)
        {
          g_assert_true (
              g_hash_table_contains (distinct, GUINT_TO_POINTER (g_array_index (got, guint32, r))));
          if (r > 0)
            g_assert_cmpuint (g_array_index (got, guint32, r), >,
                              g_array_index (got, guint32, r - 1));
        }
      g_assert_cmpuint (cs_packets_view_get_shown_frame (window->packets_view), ==, first);
      number = g_strdup_printf ("%u", first);
      g_assert_cmpstr (tree_value (window, "frame.number"), ==, number);
      if (cs_capture_set_read_payload (cs_analysis_get_capture_set (window->analysis), first,
                                       &payload)
          && payload.udp && payload.payload_len >= 12 && (payload.payload[0] >> 6) == 2
          && tree_value (window, "rtp.seq") != NULL)
        {
          g_autofree char *seq
              = g_strdup_printf ("%u", (payload.payload[2] << 8) | payload.payload[3]);

          g_assert_cmpstr (tree_value (window, "rtp.seq"), ==, seq);
          checked++;
        }
      if (i == 0)
        {
          save_shot (window, "demo-finding", 1280, 800);
          gtk_window_set_default_size (GTK_WINDOW (window), 1920, 1080);
          ui_test_spin (300);
          save_shot (window, "demo-finding", 1920, 1080);
          gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
          ui_test_spin (200);
        }
    }
  g_test_message ("%u findings, %u opened on an RTP packet", g_list_model_get_n_items (findings),
                  checked);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The whole capture is listed without a row object per frame: the list keeps no array
 * (0 bytes per frame) until it is filtered; the quick filter keeps SIP rows only. */
static void
test_whole_capture_and_filter (void)
{
  CsWindow *window = ui_test_load_demo (application, 1280, 800);
  GListModel *rows;
  guint n_frames, n_sip = 0;

  if (window == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  gtk_stack_set_visible_child_name (window->view_stack, "packets");
  cs_packets_view_show_frame (window->packets_view, 1);
  rows = cs_packets_view_get_rows (window->packets_view);
  n_frames = cs_capture_set_get_n_frames (cs_analysis_get_capture_set (window->analysis));
  g_assert_cmpint (cs_packets_view_get_scope (window->packets_view), ==, CS_PACKETS_SCOPE_CAPTURE);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n_frames);
  g_assert_cmpuint (cs_frame_list_get_bytes (CS_FRAME_LIST (rows)), ==, 0);
  for (guint i = 0; i < n_frames; i++)
    {
      CsFramePayload payload;

      if (cs_capture_set_read_payload (cs_analysis_get_capture_set (window->analysis), i + 1,
                                       &payload)
          && cs_sip_looks_like (payload.payload, payload.payload_len))
        n_sip++;
    }
  cs_frame_list_set_filter (CS_FRAME_LIST (rows), "sip");
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n_sip);
  cs_frame_list_set_filter (CS_FRAME_LIST (rows), NULL);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n_frames);
  /* sorted by length, longest first */
  cs_frame_list_sort (CS_FRAME_LIST (rows), CS_FRAME_COLUMN_LENGTH, TRUE);
  {
    g_autoptr (CsFrameRow) a = g_list_model_get_item (rows, 0);
    g_autoptr (CsFrameRow) b = g_list_model_get_item (rows, n_frames - 1);

    g_assert_cmpuint (cs_frame_row_get_length (a), >=, cs_frame_row_get_length (b));
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A real capture: its first call's frames, the tree of an INVITE; screenshots. */
static void
test_sample_call (void)
{
  const char *dir = g_getenv ("CS_SAMPLES_DIR");
  g_autofree char *path = dir != NULL ? g_build_filename (dir, "sip-rtp-g711.pcap", NULL) : NULL;
  CsWindow *window;
  CsCall *call;

  if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("../shared/samples/sip-rtp-g711.pcap is not there");
      return;
    }
  window = ui_test_load_file (application, path, 1280, 800);
  call = cs_analysis_lookup_call (window->analysis, 1);
  g_assert_nonnull (call);
  cs_selection_set_call (window->selection, call);
  gtk_stack_set_visible_child_name (window->view_stack, "packets");
  gtk_drop_down_set_selected (window->packets_view->scope_dropdown, CS_PACKETS_SCOPE_CALL);
  ui_test_spin (50);
  {
    g_autoptr (GArray) got = listed (window);
    g_autoptr (GArray) want = cs_frame_scope_call (window->analysis, call);

    g_assert_cmpuint (got->len, ==, want->len);
    g_assert_cmpuint (g_array_index (got, guint32, 0), ==, 1);
  }
  /* frame 1 is the INVITE (tshark: "Request: INVITE sip:test@10.0.2.15:5060") */
  g_assert_cmpuint (cs_packets_view_get_shown_frame (window->packets_view), ==, 1);
  g_assert_cmpstr (tree_value (window, "sip.Method"), ==, "INVITE");
  save_shot (window, "sample-call", 1280, 800);
  gtk_window_set_default_size (GTK_WINDOW (window), 1920, 1080);
  ui_test_spin (300);
  cs_packets_view_show_frame (window->packets_view, 20);
  save_shot (window, "sample-rtp", 1920, 1080);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  application = ui_test_init (&argc, &argv);
  if (application == NULL)
    return 0;
  g_test_add_func ("/packets/finding-lists-its-frames", test_finding_lists_its_frames);
  g_test_add_func ("/packets/whole-capture-and-filter", test_whole_capture_and_filter);
  g_test_add_func ("/packets/sample-call", test_sample_call);
  return g_test_run ();
}
