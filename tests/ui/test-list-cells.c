/* test-list-cells.c — the label cells the calls, streams and findings lists share: alignment,
 * figures, status colours, tooltips, sorting, and the column's data freed with it */
#include "ui-test-util.h"
#include <gtk/gtk.h>
#include <string.h>

#include "cs-list-cells.h"

static char *
text_of (gpointer item, gpointer data)
{
  return g_strdup (gtk_string_object_get_string (item));
}

/* "bad" rows are red and bold, the others plain; the tooltip is the text in brackets. */
static void
style_of (GtkLabel *label, gpointer item, gpointer data)
{
  const char *text = gtk_string_object_get_string (item);

  cs_list_cell_set_status (label, g_str_equal (text, "bad") ? "state-bad" : NULL, TRUE);
  cs_list_cell_set_tooltip (label, g_strdup_printf ("[%s]", text));
}

/* Longer strings first: an order no default gives; counts its calls in data. */
static int
compare_longer_first (gconstpointer a, gconstpointer b, gpointer data)
{
  gsize la = strlen (gtk_string_object_get_string ((GtkStringObject *) a));
  gsize lb = strlen (gtk_string_object_get_string ((GtkStringObject *) b));

  ((guint *) data)[0]++;
  return (la < lb) - (la > lb);
}

static void
mark_freed (gpointer data)
{
  ((guint *) data)[1] = 1;
}

static GtkLabel *
find_cell (GtkWidget *widget, const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0
      && gtk_widget_get_ancestor (widget, GTK_TYPE_LIST_VIEW) != NULL)
    return GTK_LABEL (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkLabel *found = find_cell (child, text);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_cells (void)
{
  const char *const rows[] = { "ok", "bad", "longest", NULL };
  guint counters[2] = { 0, 0 }; /* comparisons, data freed */
  GtkStringList *strings = gtk_string_list_new (rows);
  GtkColumnView *view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  GtkSortListModel *sorted = gtk_sort_list_model_new (
      G_LIST_MODEL (strings), g_object_ref (gtk_column_view_get_sorter (view)));
  g_autoptr (GtkNoSelection) rows_model = gtk_no_selection_new (G_LIST_MODEL (sorted));
  GtkWidget *window = gtk_window_new ();
  CsListColumn numeric = { .title = "Value",
                           .width = 120,
                           .numeric = TRUE,
                           .bold = FALSE,
                           .tooltip = CS_LIST_CELL_TOOLTIP_SET,
                           .text = text_of,
                           .style = style_of,
                           .compare = compare_longer_first,
                           .data = counters,
                           .data_free = mark_freed };
  CsListColumn plain = { .title = "Name",
                         .width = -1,
                         .expand = TRUE,
                         .bold = TRUE,
                         .tooltip = CS_LIST_CELL_TOOLTIP_NONE,
                         .text = text_of };
  g_autoptr (GtkColumnViewColumn) first = cs_list_column_new (&numeric);
  g_autoptr (GtkColumnViewColumn) second = cs_list_column_new (&plain);
  GtkLabel *cell;

  gtk_column_view_append_column (view, first);
  gtk_column_view_append_column (view, second);
  gtk_column_view_set_model (view, GTK_SELECTION_MODEL (rows_model));
  g_assert_true (gtk_column_view_column_get_resizable (first));
  /* Not fixed: a column grows to its widest value, from its least width. */
  g_assert_cmpint (gtk_column_view_column_get_fixed_width (first), ==, -1);
  g_assert_true (gtk_column_view_column_get_expand (second));
  g_assert_null (gtk_column_view_column_get_sorter (second));
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_set_default_size (GTK_WINDOW (window), 400, 300);
  gtk_window_present (GTK_WINDOW (window));
  ui_test_spin (200);

  /* The first column's cells: numbers right-aligned in tabular figures, tooltips as set. */
  cell = find_cell (GTK_WIDGET (view), "ok");
  g_assert_nonnull (cell);
  g_assert_cmpfloat (gtk_label_get_xalign (cell), ==, 1.0);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (cell), "numeric"));
  g_assert_true (gtk_widget_get_has_tooltip (GTK_WIDGET (cell)));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (cell), "state-bad"));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (cell), "state"));
  cell = find_cell (GTK_WIDGET (view), "bad");
  g_assert_nonnull (cell);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (cell), "state-bad"));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (cell), "state"));
  /* A cell that loses its colour is plain again. */
  cs_list_cell_set_status (cell, NULL, TRUE);
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (cell), "state-bad"));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (cell), "state"));
  cs_list_cell_set_status (cell, "state-good", FALSE);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (cell), "state-good"));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (cell), "state"));

  /* Sorting by the first column uses its order (with its data), not the text's. */
  gtk_column_view_sort_by_column (view, first, GTK_SORT_ASCENDING);
  ui_test_spin (50);
  g_assert_cmpuint (counters[0], >, 0);
  g_assert_cmpstr (gtk_string_object_get_string (g_list_model_get_item (G_LIST_MODEL (sorted), 0)),
                   ==, "longest");
  g_object_unref (g_list_model_get_item (G_LIST_MODEL (sorted), 0));

  /* The data lives as long as the column: freed once, when it goes. */
  g_assert_cmpuint (counters[1], ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
  g_clear_object (&first);
  ui_test_spin (50);
  g_assert_cmpuint (counters[1], ==, 1);
}

int
main (int argc, char **argv)
{
  CsApplication *application = ui_test_init (&argc, &argv);
  int status;

  if (application == NULL)
    return 0;
  g_test_add_func ("/list-cells/cells", test_cells);
  status = g_test_run ();
  g_clear_object (&application);
  return status;
}
