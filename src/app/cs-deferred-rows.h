/* cs-deferred-rows.h — a column view off screen builds no rows for data nobody sees yet */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Call before the data under `model` (the view's model) changes. A view on screen keeps its
 * model and updates in place; a view off screen (a page not shown) lets go of its rows and
 * takes the model back when it is next mapped. Row widgets are what costs: GTK builds up to
 * a few hundred per view, and measures even those of hidden stack pages. */
void cs_deferred_rows_before_change (GtkColumnView *view, GtkSelectionModel *model);

G_END_DECLS
