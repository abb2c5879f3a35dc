/* cs-list-cells.c — label cells for the calls, streams and findings lists: one factory, one
 * sorter and one look for all three */
#include "cs-list-cells.h"

#define TOOLTIP_KEY "cs-list-cell-tooltip"
#define CELL_PADDING 6 /* Adwaita's padding on each side of a column view cell */

/* The column's description, shared by its factory and its sorter (either may go first). */
typedef struct
{
  CsListColumn spec;
} CsListCells;

static void
cs_list_cells_clear (gpointer data)
{
  CsListCells *cells = data;

  if (cells->spec.data_free != NULL)
    cells->spec.data_free (cells->spec.data);
}

static void
cs_list_cells_unref (gpointer data)
{
  g_rc_box_release_full (data, cs_list_cells_clear);
}

/* Tooltips are looked up when one is about to show: gtk_widget_set_tooltip_text () on every
 * bind makes GTK query where the pointer is (an X round trip per cell, per row redrawn). */
static gboolean
on_cell_query_tooltip (GtkWidget *label, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                       gpointer data)
{
  CsListCellTooltip kind = GPOINTER_TO_INT (data);
  const char *text = kind == CS_LIST_CELL_TOOLTIP_SET
                         ? g_object_get_data (G_OBJECT (label), TOOLTIP_KEY)
                         : gtk_label_get_text (GTK_LABEL (label));

  if (text == NULL || *text == '\0')
    return FALSE;
  /* The label's own text is shown only when it is cut short. */
  if (kind == CS_LIST_CELL_TOOLTIP_TEXT
      && !pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (label))))
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
cell_setup (GtkSignalListItemFactory *factory, GtkListItem *item, CsListCells *cells)
{
  const CsListColumn *spec = &cells->spec;
  GtkWidget *label = gtk_label_new (NULL);

  /* Numbers, codes and states are kept whole: their column grows to the widest value shown.
   * Only the names of expanding columns ellipsize (their tooltip has the whole text). */
  if (spec->expand)
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  if (spec->width > 0)
    gtk_widget_set_size_request (label, MAX (spec->width - 2 * CELL_PADDING, 0), -1);
  gtk_label_set_xalign (GTK_LABEL (label), spec->numeric ? 1.0f : 0.0f);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  if (spec->numeric)
    gtk_widget_add_css_class (label, "numeric");
  if (spec->bold)
    gtk_widget_add_css_class (label, "state");
  /* Ellipsized names still show a few characters when the window is narrow. */
  if (spec->expand)
    gtk_label_set_width_chars (GTK_LABEL (label), 6);
  if (spec->tooltip != CS_LIST_CELL_TOOLTIP_NONE)
    {
      gtk_widget_set_has_tooltip (label, TRUE);
      g_signal_connect (label, "query-tooltip", G_CALLBACK (on_cell_query_tooltip),
                        GINT_TO_POINTER (spec->tooltip));
    }
  gtk_list_item_set_child (item, label);
}

static void
cell_bind (GtkSignalListItemFactory *factory, GtkListItem *item, CsListCells *cells)
{
  const CsListColumn *spec = &cells->spec;
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (item));
  gpointer row = gtk_list_item_get_item (item);
  g_autofree char *text = spec->text (row, spec->data);

  gtk_label_set_text (label, text != NULL ? text : "");
  if (spec->style != NULL)
    spec->style (label, row, spec->data);
}

static int
compare_rows (gconstpointer a, gconstpointer b, gpointer data)
{
  CsListCells *cells = data;

  return cells->spec.compare (a, b, cells->spec.data);
}

GtkColumnViewColumn *
cs_list_column_new (const CsListColumn *column)
{
  CsListCells *cells = g_rc_box_new0 (CsListCells);
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *view_column;

  g_return_val_if_fail (column->text != NULL, NULL);

  cells->spec = *column;
  g_object_set_data_full (G_OBJECT (factory), "cs-list-cells", cells, cs_list_cells_unref);
  g_signal_connect (factory, "setup", G_CALLBACK (cell_setup), cells);
  g_signal_connect (factory, "bind", G_CALLBACK (cell_bind), cells);
  view_column = gtk_column_view_column_new (column->title, factory);
  if (column->compare != NULL)
    {
      g_autoptr (GtkSorter) sorter = GTK_SORTER (
          gtk_custom_sorter_new (compare_rows, g_rc_box_acquire (cells), cs_list_cells_unref));

      gtk_column_view_column_set_sorter (view_column, sorter);
    }
  gtk_column_view_column_set_expand (view_column, column->expand);
  gtk_column_view_column_set_resizable (view_column, TRUE);
  return view_column;
}

void
cs_list_cell_set_status (GtkLabel *label, const char *status_class, gboolean bold)
{
  static const char *const status_classes[]
      = { "state-good", "state-degraded", "state-bad", "state-unknown" };
  GtkWidget *widget = GTK_WIDGET (label);

  for (guint i = 0; i < G_N_ELEMENTS (status_classes); i++)
    gtk_widget_remove_css_class (widget, status_classes[i]);
  if (status_class != NULL)
    gtk_widget_add_css_class (widget, status_class);
  if (bold && status_class != NULL)
    gtk_widget_add_css_class (widget, "state");
  else if (bold)
    gtk_widget_remove_css_class (widget, "state");
}

void
cs_list_cell_set_tooltip (GtkLabel *label, char *text)
{
  g_object_set_data_full (G_OBJECT (label), TOOLTIP_KEY, text, g_free);
}
