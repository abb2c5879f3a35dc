/* test-clipping.c — nothing clipped (issue 22): at 1280×800, on the demo and on real captures,
 * every label shown in the calls, streams and findings lists is as wide as its text, or the
 * full text is one hover away (its tooltip); the ladder's time column holds its times in every
 * mode and the ladder scrolls to its last endpoint */
#include "ui-test-util.h"
#include <gtk/gtk.h>
#include <string.h>

#include "cs-application.h"
#include "cs-window-private.h"
#include "cs-ladder-layout.h"

static CsApplication *application;

/* Text width as Pango lays it out in the label's own font, against the label's width. */
static void
check_labels (GtkWidget *widget, const char *where, GString *failures, guint *checked)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if (GTK_IS_LABEL (widget) && gtk_widget_get_width (widget) > 0)
    {
      const char *text = gtk_label_get_text (GTK_LABEL (widget));
      g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
      /* The lists' cells give their tooltip on query (cs-list-cells.c): the text set for it,
       * else the label's own text. */
      const char *tooltip = gtk_widget_get_tooltip_text (widget);
      int text_width = 0;

      if (tooltip == NULL && gtk_widget_get_has_tooltip (widget))
        tooltip = g_object_get_data (G_OBJECT (widget), "cs-list-cell-tooltip");
      if (tooltip == NULL && gtk_widget_get_has_tooltip (widget))
        tooltip = text;

      pango_layout_get_pixel_size (layout, &text_width, NULL);
      (*checked)++;
      if (text_width > gtk_widget_get_width (widget) && !gtk_label_get_wrap (GTK_LABEL (widget))
          && (tooltip == NULL || strstr (tooltip, text) == NULL))
        g_string_append_printf (failures, "%s: \"%s\" needs %d px, has %d px\n", where, text,
                                text_width, gtk_widget_get_width (widget));
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    check_labels (child, where, failures, checked);
}

/* The ladder's time column (CS_LADDER_TIME_WIDTH less its padding) in every mode. */
static void
check_ladder (CsWindow *window, const char *where, GString *failures)
{
  static const CsLadderTimeMode modes[] = { CS_LADDER_TIME_CAPTURE, CS_LADDER_TIME_RELATIVE,
                                            CS_LADDER_TIME_DELTA, CS_LADDER_TIME_ABSOLUTE };
  CsLadderView *view = cs_ladder_pane_get_view (window->ladder_pane);
  const CsLadderLayout *layout = cs_ladder_view_get_layout (view);
  g_autoptr (PangoLayout) pango = gtk_widget_create_pango_layout (GTK_WIDGET (view), NULL);
  g_autoptr (PangoFontDescription) font = pango_font_description_from_string (CS_LADDER_FONT);
  GtkScrollable *scrollable = GTK_SCROLLABLE (view);
  GtkAdjustment *h = gtk_scrollable_get_hadjustment (scrollable);

  if (layout == NULL)
    return;
  pango_font_description_set_size (font, (int) (CS_LADDER_FONT_SIZE * PANGO_SCALE));
  pango_layout_set_font_description (pango, font);
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    for (guint i = 0; i < layout->rows->len; i++)
      {
        g_autofree char *time = cs_ladder_layout_format_time (layout, i, modes[m]);
        int width = 0;

        pango_layout_set_text (pango, time, -1);
        pango_layout_get_pixel_size (pango, &width, NULL);
        if (width > CS_LADDER_TIME_WIDTH - 16)
          g_string_append_printf (failures, "%s: ladder time \"%s\" needs %d px, has %d px\n",
                                  where, time, width, (int) CS_LADDER_TIME_WIDTH - 16);
      }
  /* Every endpoint can be scrolled to. */
  if (gtk_adjustment_get_upper (h) + 0.5 < layout->width)
    g_string_append_printf (failures, "%s: the ladder is %.0f px wide, scrolls to %.0f\n", where,
                            layout->width, gtk_adjustment_get_upper (h));
}

static void
select_position (CsWindow *window, guint position)
{
  gtk_selection_model_select_item (cs_calls_view_get_selection (window->calls_view), position,
                                   TRUE);
  ui_test_spin (200);
}

static void
check_capture (const char *path)
{
  static const char *const pages[] = { "calls", "streams", "findings" };
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autofree char *name = g_path_get_basename (path);
  g_autoptr (GString) failures = g_string_new (NULL);
  CsWindow *window = cs_window_new (application);
  GListModel *shown;
  guint checked = 0;

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  cs_window_open_files (window, &file, 1);
  ui_test_wait_for_load (window);
  ui_test_spin (300);
  shown = cs_window_get_calls_model (window);
  for (guint p = 0; p < G_N_ELEMENTS (pages); p++)
    {
      g_autofree char *where = g_strdup_printf ("%s %s", name, pages[p]);

      gtk_stack_set_visible_child_name (window->view_stack, pages[p]);
      ui_test_spin (200);
      check_labels (GTK_WIDGET (window->view_stack), where, failures, &checked);
    }
  gtk_stack_set_visible_child_name (window->view_stack, "calls");
  /* Each call's ladder (the first 20). */
  for (guint i = 0; i < MIN (g_list_model_get_n_items (shown), 20); i++)
    {
      g_autofree char *where = g_strdup_printf ("%s call #%u", name, i + 1);

      select_position (window, i);
      check_ladder (window, where, failures);
    }
  g_test_message ("%s: %u labels checked", name, checked);
  g_assert_cmpuint (checked, >, 20);
  if (failures->len > 0)
    g_test_fail_printf ("clipped:\n%s", failures->str);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_demo (void)
{
  const char *path = ui_test_demo_capture_path ();

  if (path == NULL)
    {
      g_test_skip ("CS_DEMO_CAPTURE is not set or missing");
      return;
    }
  check_capture (path);
}

static void
test_sample (gconstpointer data)
{
  const char *dir = g_getenv ("CS_SAMPLES_DIR");
  g_autofree char *path = dir != NULL ? g_build_filename (dir, data, NULL) : NULL;

  if (path == NULL || !g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_test_skip ("the sample capture is not in CS_SAMPLES_DIR");
      return;
    }
  check_capture (path);
}

int
main (int argc, char *argv[])
{
  /* A proxy in the middle (three SIP columns), eight calls with media, long headers. */
  static const char *const samples[]
      = { "sip-proxy.pcap", "sip-rtp-g726-8calls.pcap", "sip-long-headers-rawip.pcap",
          "ims-prack-update.pcap", "volte-rtp-rtcpxr-rawip.pcap" };
  int status;

  application = ui_test_init (&argc, &argv);
  if (application == NULL)
    return 0;
  g_test_add_func ("/clipping/demo", test_demo);
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *path = g_strdup_printf ("/clipping/%s", samples[i]);
      g_test_add_data_func (path, samples[i], test_sample);
    }
  status = g_test_run ();
  g_clear_object (&application);
  return status;
}
