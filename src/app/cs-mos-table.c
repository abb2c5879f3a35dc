/* cs-mos-table.c — MOS per direction of a call with its E-model breakdown and a live jitter buffer
 */
#include "cs-mos-table.h"

#include <glib/gi18n.h>

#include "cs-status-page.h"

struct _CsMosTable
{
  GtkWidget parent_instance;

  GtkAdjustment *jitter_buffer_adjustment;
  GtkStack *stack;
  GtkGrid *grid;

  GPtrArray *streams; /* CsStream */
  GArray *rows;       /* CsMosTableRow, as shown */
};

G_DEFINE_FINAL_TYPE (CsMosTable, cs_mos_table, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_JITTER_BUFFER_MS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

void
cs_mos_table_compute_row (CsStream *stream, guint jitter_buffer_ms, CsMosTableRow *out)
{
  const GArray *packets = cs_stream_get_packets (stream);
  const CsRtpStats *stats = cs_stream_get_stats (stream);
  CsJitterBufferConfig jb;
  CsJitterBufferResult result;

  cs_jitter_buffer_config_init_default (&jb);
  jb.kind = CS_JITTER_BUFFER_FIXED;
  jb.delay_ms = jitter_buffer_ms;
  out->stream_id = cs_stream_get_id (stream);
  out->packets = stats->packets;
  out->loss_pct = stats->expected > 0 ? 100.0 * MAX (stats->lost, 0) / stats->expected : 0.0;
  cs_jitter_buffer_emulate ((const CsRtpPacket *) packets->data, packets->len, stats->clock_rate,
                            &jb, &result);
  out->effective_loss_pct = result.effective_loss_pct;
  cs_mos_for_stream ((const CsRtpPacket *) packets->data, packets->len,
                     cs_stream_get_clock_map (stream), cs_stream_get_codec_info (stream), &jb,
                     &out->mos);
}

/* Table */

typedef enum
{
  CELL_TEXT,
  CELL_NUMBER,
  CELL_STATUS_GOOD,
  CELL_STATUS_DEGRADED,
  CELL_STATUS_BAD,
} CsCellStyle;

static void
attach_cell (CsMosTable *self, int column, int row, const char *text, CsCellStyle style,
             const char *tooltip)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), style == CELL_TEXT ? 0.0f : 1.0f);
  gtk_label_set_selectable (GTK_LABEL (label), FALSE);
  if (style != CELL_TEXT)
    gtk_widget_add_css_class (label, "numeric");
  if (style == CELL_STATUS_GOOD || style == CELL_STATUS_DEGRADED || style == CELL_STATUS_BAD)
    {
      gtk_widget_add_css_class (label, "state");
      gtk_widget_add_css_class (label, style == CELL_STATUS_GOOD       ? "state-good"
                                       : style == CELL_STATUS_DEGRADED ? "state-degraded"
                                                                       : "state-bad");
    }
  if (tooltip != NULL)
    gtk_widget_set_tooltip_text (label, tooltip);
  gtk_grid_attach (self->grid, label, column, row, 1, 1);
}

static CsCellStyle
mos_style (double mos)
{
  /* The same thresholds as the MOS graph's bands (G.107 user satisfaction). */
  if (mos >= 4.03)
    return CELL_STATUS_GOOD;
  if (mos >= 3.6)
    return CELL_STATUS_DEGRADED;
  return CELL_STATUS_BAD;
}

static CsCellStyle
loss_style (double pct)
{
  if (pct < 1.0)
    return CELL_NUMBER;
  return pct < 5.0 ? CELL_STATUS_DEGRADED : CELL_STATUS_BAD;
}

static void
add_header (CsMosTable *self)
{
  static const struct
  {
    const char *title, *tooltip;
    gboolean numeric;
  } headers[] = {
    { N_ ("Direction"), NULL, FALSE },
    { N_ ("Codec"), NULL, FALSE },
    { N_ ("Packets"), N_ ("Packets received"), TRUE },
    { N_ ("Lost"), N_ ("Lost in the network: expected − received"), TRUE },
    { N_ ("After buffer"), N_ ("Lost or too late for the jitter buffer: what a listener misses"),
      TRUE },
    { N_ ("Mean jitter"), N_ ("RFC 3550 jitter, mean (ms)"), TRUE },
    { N_ ("Max jitter"), N_ ("RFC 3550 jitter, maximum (ms)"), TRUE },
    { N_ ("Max delta"), N_ ("Largest gap between packets (ms)"), TRUE },
    { N_ ("Delay"), N_ ("One-way delay estimate: buffer + packetisation + 20 ms network (ms)"),
      TRUE },
    { N_ ("Id"), N_ ("Delay impairment"), TRUE },
    { N_ ("Ie eff"), N_ ("Equipment impairment of the codec after loss"), TRUE },
    { N_ ("R"), N_ ("Rating factor: 93.2 − Id − Ie eff"), TRUE },
    { N_ ("MOS"), N_ ("1 + 0.035 R + 7·10⁻⁶ R (R − 60)(100 − R), ITU-T G.107"), TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (headers); i++)
    {
      GtkWidget *label = gtk_label_new (_ (headers[i].title));

      gtk_label_set_xalign (GTK_LABEL (label), headers[i].numeric ? 1.0f : 0.0f);
      gtk_widget_add_css_class (label, "heading");
      gtk_widget_add_css_class (label, "dim-label");
      if (headers[i].tooltip != NULL)
        gtk_widget_set_tooltip_text (label, _ (headers[i].tooltip));
      gtk_grid_attach (self->grid, label, (int) i, 0, 1, 1);
    }
}

static char *
format_ms (double ms)
{
  return g_strdup_printf ("%.2f", ms);
}

static void
add_row (CsMosTable *self, int row, CsStream *stream, const CsMosTableRow *r)
{
  const CsRtpStats *stats = cs_stream_get_stats (stream);
  char src[CS_ENDPOINT_STRLEN], dst[CS_ENDPOINT_STRLEN];
  g_autofree char *direction
      = g_strdup_printf ("%s \u2192 %s", cs_endpoint_to_string (cs_stream_get_src (stream), src),
                         cs_endpoint_to_string (cs_stream_get_dst (stream), dst));
  g_autofree char *packets = g_strdup_printf ("%u", r->packets);
  g_autofree char *lost = g_strdup_printf ("%.1f %%", r->loss_pct);
  g_autofree char *effective = g_strdup_printf ("%.1f %%", r->effective_loss_pct);
  g_autofree char *mean_jitter = format_ms (stats->mean_jitter_ms);
  g_autofree char *max_jitter = format_ms (stats->max_jitter_ms);
  g_autofree char *max_delta = format_ms (stats->max_delta_ms);
  g_autofree char *delay = g_strdup_printf ("%.0f", r->mos.delay_ms);
  g_autofree char *id = g_strdup_printf ("%.2f", r->mos.id);
  g_autofree char *ie_eff = g_strdup_printf ("%.2f", r->mos.ie_eff);
  g_autofree char *rating = g_strdup_printf ("%.1f", r->mos.r);
  g_autofree char *mos = g_strdup_printf ("%.2f", r->mos.mos);
  g_autofree char *stream_tip
      = g_strdup_printf (_ ("Stream %u, SSRC 0x%08X"), r->stream_id, cs_stream_get_ssrc (stream));
  int c = 0;

  attach_cell (self, c++, row, direction, CELL_TEXT, stream_tip);
  attach_cell (self, c++, row, cs_stream_get_codec (stream), CELL_TEXT, NULL);
  attach_cell (self, c++, row, packets, CELL_NUMBER, NULL);
  attach_cell (self, c++, row, lost, loss_style (r->loss_pct), NULL);
  attach_cell (self, c++, row, effective, loss_style (r->effective_loss_pct), NULL);
  attach_cell (self, c++, row, mean_jitter, CELL_NUMBER, NULL);
  attach_cell (self, c++, row, max_jitter, CELL_NUMBER, NULL);
  attach_cell (self, c++, row, max_delta, CELL_NUMBER, NULL);
  attach_cell (self, c++, row, delay, CELL_NUMBER, NULL);
  attach_cell (self, c++, row, id, CELL_NUMBER, NULL);
  attach_cell (self, c++, row, ie_eff, CELL_NUMBER, NULL);
  attach_cell (self, c++, row, rating, CELL_NUMBER, NULL);
  attach_cell (self, c++, row, mos, mos_style (r->mos.mos), NULL);
}

static void
rebuild (CsMosTable *self)
{
  guint jb_ms = cs_mos_table_get_jitter_buffer_ms (self);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->grid))) != NULL)
    gtk_grid_remove (self->grid, child);
  g_array_set_size (self->rows, 0);
  if (self->streams->len == 0)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }
  add_header (self);
  for (guint i = 0; i < self->streams->len; i++)
    {
      CsStream *stream = g_ptr_array_index (self->streams, i);
      CsMosTableRow row;

      cs_mos_table_compute_row (stream, jb_ms, &row);
      g_array_append_val (self->rows, row);
      add_row (self, (int) i + 1, stream, &row);
    }
  gtk_stack_set_visible_child_name (self->stack, "table");
}

/* A double click on a direction's row: that stream's packets in the Packets page. */
void
cs_mos_table_activate_row (CsMosTable *self, guint index)
{
  g_return_if_fail (CS_IS_MOS_TABLE (self));
  if (index < self->rows->len)
    gtk_widget_activate_action (GTK_WIDGET (self), "win.show-stream", "u",
                                g_array_index (self->rows, CsMosTableRow, index).stream_id);
}

static void
on_grid_pressed (GtkGestureClick *gesture, int n_press, double x, double y, CsMosTable *self)
{
  GtkWidget *picked = gtk_widget_pick (GTK_WIDGET (self->grid), x, y, GTK_PICK_DEFAULT);
  int column, row;

  while (picked != NULL && gtk_widget_get_parent (picked) != GTK_WIDGET (self->grid))
    picked = gtk_widget_get_parent (picked);
  if (n_press != 2 || picked == NULL)
    return;
  gtk_grid_query_child (self->grid, picked, &column, &row, NULL, NULL);
  if (row >= 1)
    cs_mos_table_activate_row (self, (guint) row - 1);
}

/* API */

GtkWidget *
cs_mos_table_new (void)
{
  return g_object_new (CS_TYPE_MOS_TABLE, NULL);
}

void
cs_mos_table_set_streams (CsMosTable *self, CsStream *const *streams, guint n_streams)
{
  g_return_if_fail (CS_IS_MOS_TABLE (self));

  g_ptr_array_set_size (self->streams, 0);
  for (guint i = 0; i < n_streams; i++)
    g_ptr_array_add (self->streams, g_object_ref (streams[i]));
  rebuild (self);
}

void
cs_mos_table_set_jitter_buffer_ms (CsMosTable *self, guint delay_ms)
{
  g_return_if_fail (CS_IS_MOS_TABLE (self));
  gtk_adjustment_set_value (self->jitter_buffer_adjustment,
                            MIN (delay_ms, CS_MOS_TABLE_MAX_JITTER_BUFFER_MS));
}

guint
cs_mos_table_get_jitter_buffer_ms (CsMosTable *self)
{
  g_return_val_if_fail (CS_IS_MOS_TABLE (self), 0);
  return (guint) (gtk_adjustment_get_value (self->jitter_buffer_adjustment) + 0.5);
}

guint
cs_mos_table_get_n_rows (CsMosTable *self)
{
  g_return_val_if_fail (CS_IS_MOS_TABLE (self), 0);
  return self->rows->len;
}

gboolean
cs_mos_table_get_row (CsMosTable *self, guint index, CsMosTableRow *out)
{
  g_return_val_if_fail (CS_IS_MOS_TABLE (self), FALSE);

  if (index >= self->rows->len)
    return FALSE;
  *out = g_array_index (self->rows, CsMosTableRow, index);
  return TRUE;
}

static void
on_jitter_buffer_changed (GtkAdjustment *adjustment, CsMosTable *self)
{
  rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_JITTER_BUFFER_MS]);
}

/* GObject */

static void
cs_mos_table_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_JITTER_BUFFER_MS:
      g_value_set_uint (value, cs_mos_table_get_jitter_buffer_ms (CS_MOS_TABLE (object)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_mos_table_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_JITTER_BUFFER_MS:
      cs_mos_table_set_jitter_buffer_ms (CS_MOS_TABLE (object), g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_mos_table_dispose (GObject *object)
{
  CsMosTable *self = CS_MOS_TABLE (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), CS_TYPE_MOS_TABLE);
  /* The template's root box has no id, so dispose_template leaves it. */
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  g_clear_pointer (&self->streams, g_ptr_array_unref);
  g_clear_pointer (&self->rows, g_array_unref);
  G_OBJECT_CLASS (cs_mos_table_parent_class)->dispose (object);
}

static void
cs_mos_table_class_init (CsMosTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = cs_mos_table_get_property;
  object_class->set_property = cs_mos_table_set_property;
  object_class->dispose = cs_mos_table_dispose;

  properties[PROP_JITTER_BUFFER_MS]
      = g_param_spec_uint ("jitter-buffer-ms", NULL, NULL, 0, CS_MOS_TABLE_MAX_JITTER_BUFFER_MS,
                           CS_JITTER_BUFFER_DEFAULT_DELAY_MS,
                           G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (CS_TYPE_STATUS_PAGE);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/callscope/Callscope/ui/cs-mos-table.ui");
  gtk_widget_class_bind_template_child (widget_class, CsMosTable, jitter_buffer_adjustment);
  gtk_widget_class_bind_template_child (widget_class, CsMosTable, stack);
  gtk_widget_class_bind_template_child (widget_class, CsMosTable, grid);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
cs_mos_table_init (CsMosTable *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->streams = g_ptr_array_new_with_free_func (g_object_unref);
  self->rows = g_array_new (FALSE, FALSE, sizeof (CsMosTableRow));
  g_signal_connect (self->jitter_buffer_adjustment, "value-changed",
                    G_CALLBACK (on_jitter_buffer_changed), self);
  {
    GtkGesture *click = gtk_gesture_click_new ();

    g_signal_connect (click, "pressed", G_CALLBACK (on_grid_pressed), self);
    gtk_widget_add_controller (GTK_WIDGET (self->grid), GTK_EVENT_CONTROLLER (click));
  }
  rebuild (self);
}
