/* cs-mos-table.h — MOS per direction of a call with its E-model breakdown and a live jitter buffer
 */
#pragma once

#include <gtk/gtk.h>

#include "callscope-engine.h"

G_BEGIN_DECLS

#define CS_MOS_TABLE_MAX_JITTER_BUFFER_MS 300

/* One row: a direction (stream) under a fixed jitter buffer of some delay. */
typedef struct
{
  guint stream_id;
  guint32 packets;
  double loss_pct;           /* network loss (expected − received) / expected */
  double effective_loss_pct; /* after the jitter buffer (lost + late) */
  CsMos mos;                 /* Id, Ie_eff, R, MOS with that loss and delay */
} CsMosTableRow;

/* Pure: the row of one stream with a fixed jitter buffer of jitter_buffer_ms. */
void cs_mos_table_compute_row (CsStream *stream, guint jitter_buffer_ms, CsMosTableRow *out);

#define CS_TYPE_MOS_TABLE (cs_mos_table_get_type ())
G_DECLARE_FINAL_TYPE (CsMosTable, cs_mos_table, CS, MOS_TABLE, GtkWidget)

/* Property "jitter-buffer-ms" (guint 0..300, default 50): the control's value;
 * changing it recomputes every row. */
GtkWidget *cs_mos_table_new (void);
/* The directions to show (a call's streams), NULL/0 for none. */
void cs_mos_table_set_streams (CsMosTable *self, CsStream *const *streams, guint n_streams);
void cs_mos_table_set_jitter_buffer_ms (CsMosTable *self, guint delay_ms);
guint cs_mos_table_get_jitter_buffer_ms (CsMosTable *self);
guint cs_mos_table_get_n_rows (CsMosTable *self);
/* The row as shown; FALSE when index is out of range. */
gboolean cs_mos_table_get_row (CsMosTable *self, guint index, CsMosTableRow *out);

/* What a double click on row index does: win.show-stream with its stream (the Packets page). */
void cs_mos_table_activate_row (CsMosTable *self, guint index);

G_END_DECLS
