/* cs-list-cells.h — the label cells the calls, streams and findings lists share: one column
 * of labels with its width, sort order, alignment, tabular figures, ellipsizing with the
 * whole text in a tooltip, and status colours */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The text a cell shows for its row's item (freed by the caller; NULL shows nothing). */
typedef char *(*CsListCellTextFunc) (gpointer item, gpointer data);
/* Colours or a tooltip beyond the text, set on every bind (cs_list_cell_set_status,
 * cs_list_cell_set_tooltip). */
typedef void (*CsListCellStyleFunc) (GtkLabel *label, gpointer item, gpointer data);

typedef enum
{
  CS_LIST_CELL_TOOLTIP_NONE,
  CS_LIST_CELL_TOOLTIP_TEXT, /* the label's whole text, when it is ellipsized */
  CS_LIST_CELL_TOOLTIP_SET,  /* what the style function gave cs_list_cell_set_tooltip */
} CsListCellTooltip;

typedef struct
{
  const char *title; /* translated */
  int width;         /* least width in px (wider values widen the column), or -1 */
  gboolean expand;   /* takes a share of the room left over; keeps a few characters */
  gboolean numeric;  /* right-aligned, tabular figures */
  gboolean bold;     /* always bold (a status column) */
  CsListCellTooltip tooltip;
  CsListCellTextFunc text;
  CsListCellStyleFunc style; /* may be NULL */
  GCompareDataFunc compare;  /* the column's sort order; NULL: not sortable */
  gpointer data;             /* for text, style and compare */
  GDestroyNotify data_free;  /* may be NULL */
} CsListColumn;

/* A resizable column of label cells; takes data (freed with the column's factory and sorter). */
GtkColumnViewColumn *cs_list_column_new (const CsListColumn *column);

/* Colours a label with one of state-good, state-degraded, state-bad, state-unknown (NULL:
 * none). bold: also bold while coloured (plain again without a colour). */
void cs_list_cell_set_status (GtkLabel *label, const char *status_class, gboolean bold);
/* The tooltip of a CS_LIST_CELL_TOOLTIP_SET cell; takes text (NULL: none). */
void cs_list_cell_set_tooltip (GtkLabel *label, char *text);

G_END_DECLS
