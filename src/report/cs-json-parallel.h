/* cs-json-parallel.h — the elements of a long JSON array written on two threads */
#pragma once

#include "cs-json-writer.h"

G_BEGIN_DECLS

typedef void (*CsJsonItemFunc) (CsJsonWriter *w, gpointer item);

/* Calls write_item (w, item) for each of items in order. With more than one thread
 * allowed (cs_json_writer_get_threads) and enough items, a helper thread writes every
 * other run of items into memory while this thread writes the runs between them and
 * then appends the helper's: the same text, at most two runs held in memory. write_item
 * must only read its item (it runs on either thread). */
void cs_json_write_items (CsJsonWriter *w, GPtrArray *items, CsJsonItemFunc write_item);

G_END_DECLS
