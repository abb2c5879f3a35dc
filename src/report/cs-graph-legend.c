/* cs-graph-legend.c — what a graph's legend names, how it flows over the header rows, and the
 * marker symbols it shares with the plot */
#include "cs-graph-legend.h"

#include <string.h>

#define SWATCH_WIDTH 12.0
#define SWATCH_GAP 6.0  /* swatch to text */
#define ITEM_GAP 16.0   /* text to the next swatch */
#define SYMBOL_SIZE 5.0 /* half width of a marker symbol */

const char *
cs_graph_marker_kind_name (CsGraphMarkerKind kind)
{
  switch (kind)
    {
    case CS_GRAPH_MARKER_LOSS:
      return "lost packets";
    case CS_GRAPH_MARKER_SEQ_ERROR:
      return "late or reordered";
    case CS_GRAPH_MARKER_FINDING:
      return "finding";
    case CS_GRAPH_MARKER_MARKER_BIT:
      return "marker bit";
    case CS_GRAPH_MARKER_DTMF:
      return "DTMF";
    default:
      return "mark";
    }
}

GArray *
cs_graph_legend_items (const CsGraph *graph)
{
  GArray *items = g_array_new (FALSE, TRUE, sizeof (CsGraphLegendItem));
  gboolean present[CS_GRAPH_N_MARKER_KINDS] = { FALSE };

  for (guint s = 0; s < graph->series->len; s++)
    {
      const CsGraphSeries *series = g_ptr_array_index (graph->series, s);
      CsGraphLegendItem item = { 0 };

      item.series_index = s;
      item.label = series->label;
      g_array_append_val (items, item);
      for (guint m = 0; m < series->markers->len; m++)
        {
          CsGraphMarkerKind kind = g_array_index (series->markers, CsGraphMarker, m).kind;

          if ((guint) kind < CS_GRAPH_N_MARKER_KINDS)
            present[kind] = TRUE;
        }
    }
  for (guint k = 0; k < CS_GRAPH_N_MARKER_KINDS; k++)
    if (present[k])
      {
        CsGraphLegendItem item = { 0 };

        item.is_marker = TRUE;
        item.kind = (CsGraphMarkerKind) k;
        item.label = cs_graph_marker_kind_name (item.kind);
        g_array_append_val (items, item);
      }
  return items;
}

static double
text_advance (cairo_t *cr, const char *text)
{
  cairo_text_extents_t ext;
  g_autofree char *owned = NULL;

  cairo_text_extents (cr, cs_text_inert (text, &owned), &ext);
  return ext.x_advance;
}

guint
cs_graph_legend_layout (cairo_t *cr, GArray *items, double first_x, double left_x, double right_x,
                        double y0, double row_height)
{
  guint row = 0;
  double x = first_x, row_start = first_x;

  for (guint i = 0; i < items->len; i++)
    {
      CsGraphLegendItem *item = &g_array_index (items, CsGraphLegendItem, i);
      double width = SWATCH_WIDTH + SWATCH_GAP + text_advance (cr, item->label);

      /* A new row when the item does not fit here; an item wider than a whole row keeps a
       * row of its own. */
      if (x + width > right_x && (x > row_start || row_start > left_x))
        {
          row++;
          x = row_start = left_x;
        }
      item->box.x = x;
      item->box.y = y0 + row * row_height - row_height / 2;
      item->box.width = width;
      item->box.height = row_height;
      x += width + ITEM_GAP;
    }
  return row + 1;
}

static void
set_color (cairo_t *cr, const CsGraphColor *c)
{
  cairo_set_source_rgba (cr, c->r, c->g, c->b, c->a);
}

void
cs_graph_marker_symbol (cairo_t *cr, CsGraphMarkerKind kind, double x, double y,
                        const CsGraphPalette *palette, char digit)
{
  const double s = SYMBOL_SIZE;

  cairo_save (cr);
  switch (kind)
    {
    case CS_GRAPH_MARKER_LOSS:
    case CS_GRAPH_MARKER_SEQ_ERROR:
      set_color (cr, kind == CS_GRAPH_MARKER_LOSS ? &palette->loss : &palette->seq_error);
      cairo_move_to (cr, x, y - s * 0.8);
      cairo_line_to (cr, x - s, y + s * 0.8);
      cairo_line_to (cr, x + s, y + s * 0.8);
      cairo_close_path (cr);
      cairo_fill (cr);
      break;
    case CS_GRAPH_MARKER_MARKER_BIT:
      set_color (cr, &palette->marker_bit);
      cairo_set_line_width (cr, 1.5);
      cairo_new_sub_path (cr);
      cairo_arc (cr, x, y, s * 0.7, 0, 2 * G_PI);
      cairo_stroke (cr);
      break;
    case CS_GRAPH_MARKER_DTMF:
      {
        char text[2] = { digit != 0 ? digit : '#', 0 };
        cairo_text_extents_t ext;

        set_color (cr, &palette->dtmf);
        cairo_rectangle (cr, x - s - 1, y - s - 1, 2 * s + 2, 2 * s + 2);
        cairo_fill (cr);
        set_color (cr, &palette->background);
        cairo_text_extents (cr, text, &ext);
        cairo_move_to (cr, x - ext.x_bearing - ext.width / 2, y - ext.y_bearing - ext.height / 2);
        cairo_show_text (cr, text);
        break;
      }
    case CS_GRAPH_MARKER_FINDING:
    default:
      set_color (cr, &palette->finding);
      cairo_move_to (cr, x, y - s);
      cairo_line_to (cr, x + s, y);
      cairo_line_to (cr, x, y + s);
      cairo_line_to (cr, x - s, y);
      cairo_close_path (cr);
      cairo_fill (cr);
      break;
    }
  cairo_restore (cr);
}

void
cs_graph_legend_draw (cairo_t *cr, const GArray *items, const CsGraphPalette *palette)
{
  for (guint i = 0; i < items->len; i++)
    {
      const CsGraphLegendItem *item = &g_array_index (items, CsGraphLegendItem, i);
      double y = item->box.y + item->box.height / 2;
      g_autofree char *owned = NULL;
      cairo_text_extents_t ext;
      const char *text = cs_text_inert (item->label, &owned);

      if (item->is_marker)
        cs_graph_marker_symbol (cr, item->kind, item->box.x + SWATCH_WIDTH / 2, y, palette, '5');
      else
        {
          set_color (cr, &palette->series[item->series_index % CS_GRAPH_N_SERIES_COLORS]);
          cairo_rectangle (cr, item->box.x, y - 1.5, SWATCH_WIDTH, 3);
          cairo_fill (cr);
        }
      set_color (cr, &palette->text);
      cairo_text_extents (cr, text, &ext);
      cairo_move_to (cr, item->box.x + SWATCH_WIDTH + SWATCH_GAP,
                     y - ext.y_bearing - ext.height / 2);
      cairo_show_text (cr, text);
    }
}
