/* cs-point-private.h — what the clock estimate and the loss search share */
#pragma once

#include "cs-point-clock.h"

G_BEGIN_DECLS

/* One SIP datagram seen at a point: its bytes and endpoints (base), which copy of them the
 * point saw (key: base and repeat count), when, where in the file, on which hop, which way. */
typedef struct
{
  guint64 base;
  guint64 key;
  gint64 ts_ns;   /* the point's own clock */
  guint64 offset; /* of its record in the file */
  guint32 hop;    /* index in the hop table */
  guint8 forward; /* x → y */
} CsPointCopy;

/* Finds the datagrams that left one point of a measured hop and never reached the other
 * (copies: per file, any order; reordered here) and appends them to clock->losses. */
void cs_point_find_losses (CsPointClock *clock, GPtrArray *copies);

G_END_DECLS
