/* cs-streams-view.c — every RTP stream of the capture with its metrics, sortable; selects streams
 */
#include "cs-streams-view.h"

#include <glib/gi18n.h>
#include <string.h>

#include "cs-deferred-rows.h"
#include "cs-list-cells.h"
#include "cs-status-page.h"

struct _CsStreamsView
{
  CsView parent_instance;

  GtkStack *stack;
  GtkColumnView *column_view;

  GtkSortListModel *sort_model;
  GtkSingleSelection *row_selection;
  gboolean syncing; /* setting the row from the shared selection */
};

G_DEFINE_FINAL_TYPE (CsStreamsView, cs_streams_view, CS_TYPE_VIEW)

typedef char *(*CsStreamTextFunc) (CsStream *stream);
typedef double (*CsStreamValueFunc) (CsStream *stream);

typedef struct
{
  const char *title;   /* N_ () */
  const char *tooltip; /* N_ (), may be NULL */
  gboolean numeric;
  gboolean expand;
  int width;
  CsStreamTextFunc text;
  CsStreamValueFunc value; /* numeric sort key; NULL: sort by text */
} CsStreamsColumn;

const char *
cs_streams_view_mos_css_class (double mos)
{
  if (mos < 0)
    return "state-unknown";
  if (mos >= 4.03)
    return "state-good";
  if (mos >= 3.6)
    return "state-degraded";
  return "state-bad";
}

/* Timing as the findings judge it (cs_finding_thresholds_init): max jitter above the
 * high-jitter threshold or an arrival gap above the delta-spike one is degraded; twice that
 * jitter, or no packet for a second or more, is bad. NULL when the timing is fine. */
static const char *
timing_css_class (const CsRtpStats *st)
{
  CsFindingThresholds t;

  cs_finding_thresholds_init (&t);
  if (st->max_jitter_ms > 2 * t.high_jitter_ms || st->max_delta_ms >= 1000.0)
    return "state-bad";
  if (st->max_jitter_ms > t.high_jitter_ms || st->max_delta_ms > t.delta_spike_ms)
    return "state-degraded";
  return NULL;
}

/* The MOS colour, no better than the timing: a stream whose packets came seconds apart is
 * not green whatever its loss. */
const char *
cs_streams_view_quality_css_class (CsStream *stream)
{
  const char *mos = cs_streams_view_mos_css_class (cs_stream_get_mos (stream)->mos);
  const char *timing = timing_css_class (cs_stream_get_stats (stream));

  /* no MOS stays unknown, a bad one bad; otherwise the timing is the worse of the two */
  if (timing == NULL || g_str_equal (mos, "state-unknown") || g_str_equal (mos, "state-bad"))
    return mos;
  return timing;
}

static double
loss_pct (CsStream *s)
{
  const CsRtpStats *st = cs_stream_get_stats (s);

  return st->expected > 0 ? 100.0 * MAX (st->lost, 0) / st->expected : 0.0;
}

/* Values */

static double
value_id (CsStream *s)
{
  return cs_stream_get_id (s);
}

static double
value_call (CsStream *s)
{
  return cs_stream_get_call_number (s);
}

static double
value_ssrc (CsStream *s)
{
  return cs_stream_get_ssrc (s);
}

static double
value_packets (CsStream *s)
{
  return cs_stream_get_stats (s)->packets;
}

static double
value_lost (CsStream *s)
{
  return cs_stream_get_stats (s)->lost;
}

static double
value_seq_errors (CsStream *s)
{
  return cs_stream_get_stats (s)->sequence_errors;
}

static double
value_max_delta (CsStream *s)
{
  return cs_stream_get_stats (s)->max_delta_ms;
}

static double
value_mean_jitter (CsStream *s)
{
  return cs_stream_get_stats (s)->mean_jitter_ms;
}

static double
value_max_jitter (CsStream *s)
{
  return cs_stream_get_stats (s)->max_jitter_ms;
}

static double
value_skew (CsStream *s)
{
  return cs_stream_get_stats (s)->max_skew_ms;
}

static double
value_mos (CsStream *s)
{
  return cs_stream_get_mos (s)->mos;
}

/* Texts */

static char *
text_id (CsStream *s)
{
  return g_strdup_printf ("%u", cs_stream_get_id (s));
}

static char *
text_call (CsStream *s)
{
  if (!cs_stream_is_associated (s))
    return g_strdup ("—");
  return g_strdup_printf ("%u", cs_stream_get_call_number (s));
}

static char *
text_src (CsStream *s)
{
  char buf[CS_ENDPOINT_STRLEN];

  return g_strdup (cs_endpoint_to_string (cs_stream_get_src (s), buf));
}

static char *
text_dst (CsStream *s)
{
  char buf[CS_ENDPOINT_STRLEN];

  return g_strdup (cs_endpoint_to_string (cs_stream_get_dst (s), buf));
}

static char *
text_ssrc (CsStream *s)
{
  return g_strdup_printf ("0x%08X", cs_stream_get_ssrc (s));
}

static char *
text_codec (CsStream *s)
{
  return g_strdup (cs_stream_get_codec (s));
}

static char *
text_packets (CsStream *s)
{
  return g_strdup_printf ("%u", cs_stream_get_stats (s)->packets);
}

static char *
text_lost (CsStream *s)
{
  return g_strdup_printf ("%d (%.1f %%)", cs_stream_get_stats (s)->lost, loss_pct (s));
}

static char *
text_seq_errors (CsStream *s)
{
  return g_strdup_printf ("%u", cs_stream_get_stats (s)->sequence_errors);
}

static char *
text_max_delta (CsStream *s)
{
  return g_strdup_printf ("%.2f", cs_stream_get_stats (s)->max_delta_ms);
}

static char *
text_mean_jitter (CsStream *s)
{
  return g_strdup_printf ("%.2f", cs_stream_get_stats (s)->mean_jitter_ms);
}

static char *
text_max_jitter (CsStream *s)
{
  return g_strdup_printf ("%.2f", cs_stream_get_stats (s)->max_jitter_ms);
}

static char *
text_skew (CsStream *s)
{
  return g_strdup_printf ("%.2f", cs_stream_get_stats (s)->max_skew_ms);
}

static char *
text_mos (CsStream *s)
{
  double mos = cs_stream_get_mos (s)->mos;

  return mos < 0 ? g_strdup ("—") : g_strdup_printf ("%.2f", mos);
}

static const CsStreamsColumn columns[] = {
  { N_ ("#"), N_ ("Stream number, in order of the first packet"), TRUE, FALSE, 48, text_id,
    value_id },
  { N_ ("Call"), N_ ("The call whose SDP announced the stream; — when found without SDP"), TRUE,
    FALSE, 56, text_call, value_call },
  /* Wide enough for any IPv4 address and port; longer (IPv6) ones ellipsize, hover shows them. */
  { N_ ("Source"), NULL, FALSE, TRUE, 136, text_src, NULL },
  { N_ ("Destination"), NULL, FALSE, TRUE, 136, text_dst, NULL },
  { N_ ("SSRC"), NULL, FALSE, FALSE, 104, text_ssrc, value_ssrc },
  { N_ ("Codec"), NULL, FALSE, FALSE, 72, text_codec, NULL },
  { N_ ("Packets"), NULL, TRUE, FALSE, 72, text_packets, value_packets },
  { N_ ("Lost"), N_ ("Expected − received (as tshark counts it)"), TRUE, FALSE, 96, text_lost,
    value_lost },
  { N_ ("Seq. errors"), N_ ("Sequence errors: gaps, late or repeated packets"), TRUE, FALSE, 96,
    text_seq_errors, value_seq_errors },
  { N_ ("Max delta"), N_ ("Largest gap between packets (ms)"), TRUE, FALSE, 88, text_max_delta,
    value_max_delta },
  { N_ ("Mean jitter"), N_ ("RFC 3550 jitter, mean (ms)"), TRUE, FALSE, 96, text_mean_jitter,
    value_mean_jitter },
  { N_ ("Max jitter"), N_ ("RFC 3550 jitter, maximum (ms)"), TRUE, FALSE, 88, text_max_jitter,
    value_max_jitter },
  { N_ ("Max skew"), N_ ("Largest drift of arrival against RTP timestamps (ms)"), TRUE, FALSE, 96,
    text_skew, value_skew },
  { N_ ("MOS"), N_ ("E-model MOS with a 50 ms fixed jitter buffer"), TRUE, FALSE, 60, text_mos,
    value_mos },
};

/* Cells */

static char *
cell_text (gpointer item, gpointer data)
{
  const CsStreamsColumn *column = data;

  return column->text (item);
}

/* MOS and loss are coloured; a stream found without SDP says so over its call number. */
static void
cell_style (GtkLabel *label, gpointer item, gpointer data)
{
  const CsStreamsColumn *column = data;
  CsStream *stream = item;

  if (column->text == text_mos)
    cs_list_cell_set_status (label, cs_streams_view_quality_css_class (stream), TRUE);
  else if (column->text == text_max_jitter || column->text == text_max_delta)
    cs_list_cell_set_status (label, timing_css_class (cs_stream_get_stats (stream)), TRUE);
  else if (column->text == text_lost)
    {
      double pct = loss_pct (stream);
      cs_list_cell_set_status (label,
                               pct >= 5.0   ? "state-bad"
                               : pct >= 1.0 ? "state-degraded"
                                            : NULL,
                               TRUE);
    }
  else if (column->text == text_call)
    cs_list_cell_set_tooltip (label, cs_stream_is_associated (stream)
                                         ? NULL
                                         : g_strdup (_ ("Found without SDP (heuristically)")));
}

static int
compare_column (gconstpointer a, gconstpointer b, gpointer data)
{
  const CsStreamsColumn *column = data;
  CsStream *sa = (CsStream *) a, *sb = (CsStream *) b;

  if (column->value != NULL)
    {
      double va = column->value (sa), vb = column->value (sb);
      if (va != vb)
        return (va > vb) - (va < vb);
    }
  else
    {
      g_autofree char *ta = column->text (sa);
      g_autofree char *tb = column->text (sb);
      int c = strcmp (ta, tb);
      if (c != 0)
        return c;
    }
  /* Ties keep stream order, so sorting is stable. */
  return (cs_stream_get_id (sa) > cs_stream_get_id (sb))
         - (cs_stream_get_id (sa) < cs_stream_get_id (sb));
}

static void
add_columns (CsStreamsView *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      const CsStreamsColumn *column = &columns[i];
      gboolean styled
          = column->text == text_mos || column->text == text_lost || column->text == text_call;
      CsListColumn list_column = {
        .title = _ (column->title),
        .width = column->width,
        .expand = column->expand,
        .numeric = column->numeric,
        .tooltip = column->text == text_call ? CS_LIST_CELL_TOOLTIP_SET
                   : column->numeric         ? CS_LIST_CELL_TOOLTIP_NONE
                                             : CS_LIST_CELL_TOOLTIP_TEXT,
        .text = cell_text,
        .style = styled ? cell_style : NULL,
        .compare = compare_column,
        .data = (gpointer) column,
      };
      g_autoptr (GtkColumnViewColumn) view_column = cs_list_column_new (&list_column);

      gtk_column_view_append_column (self->column_view, view_column);
    }
}

/* Selection */

static CsCall *
lookup_call (CsStreamsView *self, CsStream *stream)
{
  CsAnalysis *analysis = cs_view_get_analysis (CS_VIEW (self));

  if (analysis == NULL || !cs_stream_is_associated (stream))
    return NULL;
  return cs_analysis_lookup_call (analysis, cs_stream_get_call_number (stream));
}

static void
on_row_selected (GtkSingleSelection *selection, GParamSpec *pspec, CsStreamsView *self)
{
  CsStream *stream = gtk_single_selection_get_selected_item (selection);
  CsSelection *shared = cs_view_get_selection (CS_VIEW (self));

  if (self->syncing || shared == NULL || stream == NULL)
    return;
  g_object_freeze_notify (G_OBJECT (shared));
  cs_selection_set_call (shared, lookup_call (self, stream));
  cs_selection_set_stream (shared, stream);
  g_object_thaw_notify (G_OBJECT (shared));
}

gboolean
cs_streams_view_select_stream (CsStreamsView *self, guint stream_id)
{
  GListModel *model = G_LIST_MODEL (self->sort_model);

  g_return_val_if_fail (CS_IS_STREAMS_VIEW (self), FALSE);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (CsStream) stream = g_list_model_get_item (model, i);
      if (cs_stream_get_id (stream) == stream_id)
        {
          gtk_single_selection_set_selected (self->row_selection, i);
          return TRUE;
        }
    }
  return FALSE;
}

static void
on_selection_stream_changed (CsSelection *selection, GParamSpec *pspec, CsStreamsView *self)
{
  CsStream *stream = cs_selection_get_stream (selection);

  if (stream == gtk_single_selection_get_selected_item (self->row_selection))
    return;
  self->syncing = TRUE;
  if (stream == NULL || !cs_streams_view_select_stream (self, cs_stream_get_id (stream)))
    gtk_single_selection_set_selected (self->row_selection, GTK_INVALID_LIST_POSITION);
  self->syncing = FALSE;
}

/* API */

GtkWidget *
cs_streams_view_new (void)
{
  return g_object_new (CS_TYPE_STREAMS_VIEW, NULL);
}

static void
update_empty (CsStreamsView *self)
{
  gboolean any = g_list_model_get_n_items (G_LIST_MODEL (self->sort_model)) > 0;

  gtk_stack_set_visible_child_name (self->stack, any ? "list" : "empty");
}

static void
cs_streams_view_analysis_changed (CsView *view, CsAnalysis *old_analysis)
{
  CsStreamsView *self = CS_STREAMS_VIEW (view);
  CsAnalysis *analysis = cs_view_get_analysis (view);

  cs_deferred_rows_before_change (self->column_view, GTK_SELECTION_MODEL (self->row_selection));
  self->syncing = TRUE;
  gtk_sort_list_model_set_model (self->sort_model,
                                 analysis != NULL ? cs_analysis_get_streams (analysis) : NULL);
  self->syncing = FALSE;
  update_empty (self);
}

static void
cs_streams_view_selection_changed (CsView *view, CsSelection *old_selection)
{
  CsSelection *selection = cs_view_get_selection (view);

  if (old_selection != NULL)
    g_signal_handlers_disconnect_by_data (old_selection, view);
  if (selection != NULL)
    g_signal_connect (selection, "notify::stream", G_CALLBACK (on_selection_stream_changed), view);
}

GListModel *
cs_streams_view_get_shown_model (CsStreamsView *self)
{
  g_return_val_if_fail (CS_IS_STREAMS_VIEW (self), NULL);
  return G_LIST_MODEL (self->sort_model);
}

/* GObject */

static void
cs_streams_view_dispose (GObject *object)
{
  CsStreamsView *self = CS_STREAMS_VIEW (object);

  if (cs_view_get_selection (CS_VIEW (self)) != NULL)
    g_signal_handlers_disconnect_by_data (cs_view_get_selection (CS_VIEW (self)), self);
  if (self->row_selection != NULL)
    g_signal_handlers_disconnect_by_data (self->row_selection, self);
  if (self->sort_model != NULL)
    g_signal_handlers_disconnect_by_data (self->sort_model, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), CS_TYPE_STREAMS_VIEW);
  g_clear_object (&self->row_selection);
  g_clear_object (&self->sort_model);
  G_OBJECT_CLASS (cs_streams_view_parent_class)->dispose (object);
}

static void
cs_streams_view_class_init (CsStreamsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  CsViewClass *view_class = CS_VIEW_CLASS (klass);

  object_class->dispose = cs_streams_view_dispose;
  view_class->analysis_changed = cs_streams_view_analysis_changed;
  view_class->selection_changed = cs_streams_view_selection_changed;

  g_type_ensure (CS_TYPE_STATUS_PAGE);
  gtk_widget_class_set_template_from_resource (
      widget_class, "/io/github/callscope/Callscope/ui/cs-streams-view.ui");
  gtk_widget_class_bind_template_child (widget_class, CsStreamsView, stack);
  gtk_widget_class_bind_template_child (widget_class, CsStreamsView, column_view);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

/* Enter or a double click on a row: the stream's packets in the Packets page. */
static void
on_row_activated (GtkColumnView *view, guint position, CsStreamsView *self)
{
  g_autoptr (CsStream) stream
      = g_list_model_get_item (G_LIST_MODEL (self->row_selection), position);

  if (stream != NULL)
    gtk_widget_activate_action (GTK_WIDGET (self), "win.show-stream", "u",
                                cs_stream_get_id (stream));
}

static void
cs_streams_view_init (CsStreamsView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->sort_model = gtk_sort_list_model_new (
      NULL, g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  self->row_selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->sort_model)));
  gtk_single_selection_set_autoselect (self->row_selection, FALSE);
  gtk_single_selection_set_can_unselect (self->row_selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->row_selection));
  add_columns (self);
  g_signal_connect (self->row_selection, "notify::selected-item", G_CALLBACK (on_row_selected),
                    self);
  g_signal_connect_swapped (self->sort_model, "items-changed", G_CALLBACK (update_empty), self);
  g_signal_connect (self->column_view, "activate", G_CALLBACK (on_row_activated), self);
  update_empty (self);
}
