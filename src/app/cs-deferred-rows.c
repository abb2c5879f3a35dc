/* cs-deferred-rows.c — a column view off screen builds no rows for data nobody sees yet */
#include "cs-deferred-rows.h"

#define CS_DEFERRED_MODEL_KEY "cs-deferred-model"

static void
on_view_map (GtkWidget *view, gpointer data)
{
  GtkSelectionModel *model = g_object_steal_data (G_OBJECT (view), CS_DEFERRED_MODEL_KEY);

  if (model == NULL)
    return;
  gtk_column_view_set_model (GTK_COLUMN_VIEW (view), model);
  g_object_unref (model);
}

void
cs_deferred_rows_before_change (GtkColumnView *view, GtkSelectionModel *model)
{
  g_return_if_fail (GTK_IS_COLUMN_VIEW (view));
  g_return_if_fail (GTK_IS_SELECTION_MODEL (model));

  if (gtk_widget_get_mapped (GTK_WIDGET (view)))
    return;
  if (g_object_get_data (G_OBJECT (view), CS_DEFERRED_MODEL_KEY) != NULL)
    return; /* already waiting for the next map */
  gtk_column_view_set_model (view, NULL);
  g_object_set_data_full (G_OBJECT (view), CS_DEFERRED_MODEL_KEY, g_object_ref (model),
                          g_object_unref);
  if (g_signal_handler_find (view, G_SIGNAL_MATCH_FUNC, 0, 0, NULL, on_view_map, NULL) == 0)
    g_signal_connect (view, "map", G_CALLBACK (on_view_map), NULL);
}
