/* cs-summary-view.c — capture totals, calls by state and final code, MOS, top findings */
#include "cs-summary-view.h"

#include <glib/gi18n.h>
#include <string.h>

#include "cs-calls-view.h"
#include "cs-display-format.h"
#include "callscope-engine.h"
#include "cs-findings-view.h"
#include "cs-status-page.h"
#include "cs-streams-view.h"

#define CS_SUMMARY_TOP_FINDINGS 8

struct _CsSummaryView
{
  CsView parent_instance;

  GtkStack *stack;
  GtkGrid *capture_grid;
  GtkGrid *methods_grid;
  GtkGrid *statuses_grid;
  GtkGrid *states_grid;
  GtkGrid *finals_grid;
  GtkGrid *mos_grid;
  GtkGrid *findings_grid;
};

G_DEFINE_FINAL_TYPE (CsSummaryView, cs_summary_view, CS_TYPE_VIEW)

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

/* One row per capture point: its file and clock against the point it was measured from. */
static int
fill_points (GtkGrid *grid, int row, CsAnalysis *analysis)
{
  const CsPointClock *clock = cs_analysis_get_point_clock (analysis);
  CsCaptureSet *set = cs_analysis_get_capture_set (analysis);

  for (guint f = 0; clock != NULL && f < clock->n_points; f++)
    {
      g_autofree char *base
          = g_path_get_basename (cs_capture_get_path (cs_capture_set_get_file (set, f)));
      g_autofree char *name = g_strdup_printf (_ ("Point %u"), f + 1);
      g_autofree char *value = NULL;

      if (clock->reference[f] == f && f != 0 && clock->offset_ns[f] == 0)
        /* TRANSLATORS: a capture file, then why its clock could not be aligned */
        value = g_strdup_printf (_ ("%s · no SIP in common with another point"), base);
      else
        /* TRANSLATORS: file · clock offset in ms against point N (spread in ms) */
        value = g_strdup_printf (_ ("%s · clock %+.3f ms against point %u (± %.3f ms)"), base,
                                 (double) clock->offset_ns[f] / 1e6, clock->reference[f] + 1,
                                 (double) clock->spread_ns[f] / 1e6);
      add_row (grid, row++, name, value, FALSE);
    }
  return row;
}

static void
fill_capture (CsSummaryView *self, CsAnalysis *analysis, const CsCaptureStats *stats)
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
  /* as the window title, the status bar and the reports count them */
  add_count_row (self->capture_grid, row++, _ ("Calls"), cs_analysis_get_n_calls (analysis));
  add_count_row (self->capture_grid, row++, _ ("Other SIP exchanges"),
                 cs_analysis_get_n_other_exchanges (analysis));
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
  row = fill_points (self->capture_grid, row, analysis);
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

/* A row whose name carries a status colour (state-good, state-bad …). */
static void
add_status_row (GtkGrid *grid, int row, const char *name, const char *css_class, guint64 count)
{
  g_autofree char *text = cs_display_format_count (count);
  GtkWidget *name_label = gtk_label_new (name);
  GtkWidget *value_label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (name_label), 0.0f);
  if (css_class != NULL)
    {
      gtk_widget_add_css_class (name_label, "state");
      gtk_widget_add_css_class (name_label, css_class);
    }
  gtk_label_set_xalign (GTK_LABEL (value_label), 1.0f);
  gtk_widget_set_hexpand (value_label, TRUE);
  gtk_widget_add_css_class (value_label, "numeric");
  gtk_grid_attach (grid, name_label, 0, row, 1, 1);
  gtk_grid_attach (grid, value_label, 1, row, 1, 1);
}

static void
fill_calls (CsSummaryView *self, CsAnalysis *analysis)
{
  GListModel *calls = cs_analysis_get_calls (analysis);
  guint by_state[CS_CALL_STATE_FAILED + 1] = { 0 };
  g_autoptr (GHashTable) finals = g_hash_table_new (NULL, NULL);
  g_autoptr (GArray) entries = NULL;
  int row = 0;

  clear_grid (self->states_grid);
  clear_grid (self->finals_grid);
  for (guint i = 0; i < g_list_model_get_n_items (calls); i++)
    {
      g_autoptr (CsCall) call = g_list_model_get_item (calls, i);
      CsCallState state = cs_call_get_state (call);
      guint status = cs_call_get_final_status (call);

      /* Only INVITE dialogs are calls here; REGISTER/OPTIONS are counted above. */
      if (cs_call_get_method (call) != CS_SIP_METHOD_INVITE)
        continue;
      if ((guint) state <= CS_CALL_STATE_FAILED)
        by_state[state]++;
      if (status != 0)
        g_hash_table_insert (
            finals, GUINT_TO_POINTER (status),
            GUINT_TO_POINTER (
                GPOINTER_TO_UINT (g_hash_table_lookup (finals, GUINT_TO_POINTER (status))) + 1));
    }
  for (guint state = 0; state <= CS_CALL_STATE_FAILED; state++)
    if (by_state[state] > 0)
      add_status_row (self->states_grid, row++, cs_calls_view_state_label (state),
                      cs_calls_view_state_css_class (state), by_state[state]);
  if (row == 0)
    add_none_row (self->states_grid);

  entries = sorted_entries (finals, compare_status_entries);
  for (guint i = 0; i < entries->len; i++)
    {
      CsSummaryEntry *entry = &g_array_index (entries, CsSummaryEntry, i);
      guint code = GPOINTER_TO_UINT (entry->key);
      g_autofree char *name = g_strdup_printf ("%u", code);

      add_status_row (self->finals_grid, (int) i, name,
                      code < 300    ? "state-good"
                      : code == 487 ? "state-unknown"
                                    : "state-bad",
                      entry->count);
    }
  if (entries->len == 0)
    add_none_row (self->finals_grid);
}

static void
fill_mos (CsSummaryView *self, CsAnalysis *analysis)
{
  /* G.107 user-satisfaction classes, as the MOS graph bands and table colours. */
  static const struct
  {
    double low;
    const char *name;
  } buckets[] = {
    { 4.03, N_ ("Good (4.03 and above)") },
    { 3.6, N_ ("Fair (3.60 – 4.03)") },
    { 3.1, N_ ("Poor (3.10 – 3.60)") },
    { 1.0, N_ ("Bad (below 3.10)") },
  };
  guint counts[G_N_ELEMENTS (buckets)] = { 0 };
  guint no_mos = 0;
  GListModel *streams = cs_analysis_get_streams (analysis);
  int row = 0;

  clear_grid (self->mos_grid);
  for (guint i = 0; i < g_list_model_get_n_items (streams); i++)
    {
      g_autoptr (CsStream) stream = g_list_model_get_item (streams, i);
      double mos = cs_stream_get_mos (stream)->mos;

      if (mos < 0)
        {
          no_mos++;
          continue;
        }
      for (guint b = 0; b < G_N_ELEMENTS (buckets); b++)
        if (mos >= buckets[b].low || b + 1 == G_N_ELEMENTS (buckets))
          {
            counts[b]++;
            break;
          }
    }
  for (guint b = 0; b < G_N_ELEMENTS (buckets); b++)
    add_status_row (self->mos_grid, row++, _ (buckets[b].name),
                    cs_streams_view_mos_css_class (buckets[b].low + 0.001), counts[b]);
  if (no_mos > 0)
    add_status_row (self->mos_grid, row++, _ ("No MOS (not audio)"), "state-unknown", no_mos);
}

typedef struct
{
  CsFindingKind kind;
  CsSeverity worst;
  guint count;
} CsSummaryFindingKind;

static int
compare_finding_kinds (gconstpointer a, gconstpointer b)
{
  const CsSummaryFindingKind *ka = a, *kb = b;

  /* Most severe first, then most frequent. */
  if (ka->worst != kb->worst)
    return ka->worst < kb->worst ? 1 : -1;
  if (ka->count != kb->count)
    return ka->count < kb->count ? 1 : -1;
  return (ka->kind > kb->kind) - (ka->kind < kb->kind);
}

static void
fill_findings (CsSummaryView *self, CsAnalysis *analysis)
{
  GListModel *findings = cs_analysis_get_findings (analysis);
  g_autoptr (GArray) kinds = g_array_new (FALSE, FALSE, sizeof (CsSummaryFindingKind));

  clear_grid (self->findings_grid);
  for (guint i = 0; i < g_list_model_get_n_items (findings); i++)
    {
      g_autoptr (CsFinding) finding = g_list_model_get_item (findings, i);
      CsSummaryFindingKind *entry = NULL;

      for (guint k = 0; k < kinds->len && entry == NULL; k++)
        if (g_array_index (kinds, CsSummaryFindingKind, k).kind == cs_finding_get_kind (finding))
          entry = &g_array_index (kinds, CsSummaryFindingKind, k);
      if (entry == NULL)
        {
          CsSummaryFindingKind fresh
              = { cs_finding_get_kind (finding), cs_finding_get_severity (finding), 0 };
          g_array_append_val (kinds, fresh);
          entry = &g_array_index (kinds, CsSummaryFindingKind, kinds->len - 1);
        }
      entry->count++;
      entry->worst = MAX (entry->worst, cs_finding_get_severity (finding));
    }
  g_array_sort (kinds, compare_finding_kinds);
  for (guint k = 0; k < kinds->len && k < CS_SUMMARY_TOP_FINDINGS; k++)
    {
      const CsSummaryFindingKind *entry = &g_array_index (kinds, CsSummaryFindingKind, k);
      g_autofree char *name = cs_findings_view_kind_label (entry->kind);
      add_status_row (self->findings_grid, (int) k, name,
                      entry->worst == CS_SEVERITY_ERROR     ? "state-bad"
                      : entry->worst == CS_SEVERITY_WARNING ? "state-degraded"
                                                            : "state-unknown",
                      entry->count);
    }
  if (kinds->len == 0)
    add_none_row (self->findings_grid);
}

GtkWidget *
cs_summary_view_new (void)
{
  return g_object_new (CS_TYPE_SUMMARY_VIEW, NULL);
}

static void
cs_summary_view_analysis_changed (CsView *view, CsAnalysis *old_analysis)
{
  CsSummaryView *self = CS_SUMMARY_VIEW (view);
  CsAnalysis *analysis = cs_view_get_analysis (view);
  const CsCaptureStats *stats;

  stats = analysis != NULL ? cs_analysis_get_stats (analysis) : NULL;
  if (stats == NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }
  fill_capture (self, analysis, stats);
  fill_methods (self, stats);
  fill_statuses (self, stats);
  fill_calls (self, analysis);
  fill_mos (self, analysis);
  fill_findings (self, analysis);
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
  CS_VIEW_CLASS (klass)->analysis_changed = cs_summary_view_analysis_changed;

  g_type_ensure (CS_TYPE_STATUS_PAGE);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/callscope/Callscope/ui/cs-summary-view.ui");
  gtk_widget_class_bind_template_child (widget_class, CsSummaryView, stack);
  gtk_widget_class_bind_template_child (widget_class, CsSummaryView, capture_grid);
  gtk_widget_class_bind_template_child (widget_class, CsSummaryView, methods_grid);
  gtk_widget_class_bind_template_child (widget_class, CsSummaryView, statuses_grid);
  gtk_widget_class_bind_template_child (widget_class, CsSummaryView, states_grid);
  gtk_widget_class_bind_template_child (widget_class, CsSummaryView, finals_grid);
  gtk_widget_class_bind_template_child (widget_class, CsSummaryView, mos_grid);
  gtk_widget_class_bind_template_child (widget_class, CsSummaryView, findings_grid);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
cs_summary_view_init (CsSummaryView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
