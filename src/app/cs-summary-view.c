/* cs-summary-view.c — capture totals: files, packets, SIP methods and statuses, time span */
#include "cs-summary-view.h"

#include <glib/gi18n.h>
#include <string.h>

#include "cs-display-format.h"
#include "cs-status-page.h"

struct _CsSummaryView
{
  GtkWidget parent_instance;

  GtkStack *stack;
  GtkGrid *capture_grid;
  GtkGrid *methods_grid;
  GtkGrid *statuses_grid;
};

G_DEFINE_FINAL_TYPE (CsSummaryView, cs_summary_view, GTK_TYPE_WIDGET)

static void
clear_grid (GtkGrid *grid)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (grid))) != NULL)
    gtk_grid_remove (grid, child);
}

static void
add_row (GtkGrid *grid, int row, const char *name, const char *value, gboolean numeric)
{
  GtkWidget *name_label = gtk_label_new (name);
  GtkWidget *value_label = gtk_label_new (value);

  gtk_label_set_xalign (GTK_LABEL (name_label), 0.0f);
  gtk_widget_add_css_class (name_label, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (value_label), numeric ? 1.0f : 0.0f);
  gtk_label_set_selectable (GTK_LABEL (value_label), TRUE);
  gtk_widget_set_hexpand (value_label, TRUE);
  if (numeric)
    gtk_widget_add_css_class (value_label, "numeric");
  gtk_grid_attach (grid, name_label, 0, row, 1, 1);
  gtk_grid_attach (grid, value_label, 1, row, 1, 1);
}

static void
add_count_row (GtkGrid *grid, int row, const char *name, guint64 count)
{
  g_autofree char *text = cs_display_format_count (count);

  add_row (grid, row, name, text, TRUE);
}

static void
fill_capture (CsSummaryView *self, const CsCaptureStats *stats)
{
  int row = 0;

  clear_grid (self->capture_grid);
  add_count_row (self->capture_grid, row++, _ ("Files"), stats->n_files);
  add_count_row (self->capture_grid, row++, _ ("Packets"), stats->packets);
  {
    g_autofree char *size = g_format_size (stats->bytes);
    add_row (self->capture_grid, row++, _ ("Captured bytes"), size, TRUE);
  }
  add_count_row (self->capture_grid, row++, _ ("SIP messages"), stats->sip_messages);
  add_count_row (self->capture_grid, row++, _ ("RTP packets"), stats->rtp_packets);
  if (stats->malformed_sip > 0)
    add_count_row (self->capture_grid, row++, _ ("Malformed SIP messages"), stats->malformed_sip);
  if (stats->packets > 0)
    {
      g_autofree char *first = cs_display_format_timestamp (stats->first_ns);
      g_autofree char *last = cs_display_format_timestamp (stats->last_ns);
      g_autofree char *span = cs_display_format_seconds (stats->last_ns - stats->first_ns);
      /* TRANSLATORS: a duration in seconds, e.g. "12.345 s" */
      g_autofree char *span_text = g_strdup_printf (_ ("%s s"), span);

      add_row (self->capture_grid, row++, _ ("First packet"), first, TRUE);
      add_row (self->capture_grid, row++, _ ("Last packet"), last, TRUE);
      add_row (self->capture_grid, row++, _ ("Time span"), span_text, TRUE);
    }
  if (stats->ip_fragments_evicted > 0)
    add_count_row (self->capture_grid, row++, _ ("IP fragments dropped"),
                   stats->ip_fragments_evicted);
  if (stats->tcp_streams_evicted > 0)
    add_count_row (self->capture_grid, row++, _ ("TCP streams dropped"),
                   stats->tcp_streams_evicted);
}

typedef struct
{
  gpointer key;
  guint count;
} CsSummaryEntry;

static int
compare_method_entries (gconstpointer a, gconstpointer b)
{
  const CsSummaryEntry *ea = a, *eb = b;

  /* Most frequent first; names break ties so the order is stable. */
  if (ea->count != eb->count)
    return ea->count < eb->count ? 1 : -1;
  return strcmp (ea->key, eb->key);
}

static int
compare_status_entries (gconstpointer a, gconstpointer b)
{
  guint sa = GPOINTER_TO_UINT (((const CsSummaryEntry *) a)->key);
  guint sb = GPOINTER_TO_UINT (((const CsSummaryEntry *) b)->key);

  return (sa > sb) - (sa < sb);
}

static GArray *
sorted_entries (GHashTable *table, GCompareFunc compare)
{
  GArray *entries = g_array_new (FALSE, FALSE, sizeof (CsSummaryEntry));
  GHashTableIter iter;
  gpointer key, value;

  if (table == NULL)
    return entries;
  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      CsSummaryEntry entry = { key, GPOINTER_TO_UINT (value) };
      g_array_append_val (entries, entry);
    }
  g_array_sort (entries, compare);
  return entries;
}

static void
add_none_row (GtkGrid *grid)
{
  GtkWidget *label = gtk_label_new (_ ("None"));

  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_grid_attach (grid, label, 0, 0, 2, 1);
}

static void
fill_methods (CsSummaryView *self, const CsCaptureStats *stats)
{
  g_autoptr (GArray) entries = sorted_entries (stats->sip_methods, compare_method_entries);

  clear_grid (self->methods_grid);
  for (guint i = 0; i < entries->len; i++)
    {
      CsSummaryEntry *entry = &g_array_index (entries, CsSummaryEntry, i);
      add_count_row (self->methods_grid, (int) i, entry->key, entry->count);
    }
  if (entries->len == 0)
    add_none_row (self->methods_grid);
}

static void
fill_statuses (CsSummaryView *self, const CsCaptureStats *stats)
{
  g_autoptr (GArray) entries = sorted_entries (stats->sip_statuses, compare_status_entries);

  clear_grid (self->statuses_grid);
  for (guint i = 0; i < entries->len; i++)
    {
      CsSummaryEntry *entry = &g_array_index (entries, CsSummaryEntry, i);
      g_autofree char *code = g_strdup_printf ("%u", GPOINTER_TO_UINT (entry->key));
      add_count_row (self->statuses_grid, (int) i, code, entry->count);
    }
  if (entries->len == 0)
    add_none_row (self->statuses_grid);
}

GtkWidget *
cs_summary_view_new (void)
{
  return g_object_new (CS_TYPE_SUMMARY_VIEW, NULL);
}

void
cs_summary_view_set_analysis (CsSummaryView *self, CsAnalysis *analysis)
{
  const CsCaptureStats *stats;

  g_return_if_fail (CS_IS_SUMMARY_VIEW (self));

  stats = analysis != NULL ? cs_analysis_get_stats (analysis) : NULL;
  if (stats == NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }
  fill_capture (self, stats);
  fill_methods (self, stats);
  fill_statuses (self, stats);
  gtk_stack_set_visible_child_name (self->stack, "totals");
}

static void
cs_summary_view_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), CS_TYPE_SUMMARY_VIEW);
  G_OBJECT_CLASS (cs_summary_view_parent_class)->dispose (object);
}

static void
cs_summary_view_class_init (CsSummaryViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cs_summary_view_dispose;

  g_type_ensure (CS_TYPE_STATUS_PAGE);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/callscope/Callscope/ui/cs-summary-view.ui");
  gtk_widget_class_bind_template_child (widget_class, CsSummaryView, stack);
  gtk_widget_class_bind_template_child (widget_class, CsSummaryView, capture_grid);
  gtk_widget_class_bind_template_child (widget_class, CsSummaryView, methods_grid);
  gtk_widget_class_bind_template_child (widget_class, CsSummaryView, statuses_grid);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
cs_summary_view_init (CsSummaryView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
