/* cs-point-losses.c — datagrams one point of a hop saw leave and the other never saw come */
#include "cs-point-private.h"

#include <stdlib.h>

/* A copy at the far point within this much of when it was due is the same datagram
 * arriving (the due time has the points' offset and the hop's delay taken off). */
#define CS_POINT_ARRIVAL_TOLERANCE_NS (G_GINT64_CONSTANT (100) * 1000000)

static int
cs_point_copy_by_base_then_time (const void *p, const void *q)
{
  const CsPointCopy *a = p, *b = q;

  if (a->base != b->base)
    return a->base < b->base ? -1 : 1;
  return a->ts_ns == b->ts_ns ? 0 : a->ts_ns < b->ts_ns ? -1 : 1;
}

/* The first copy of base in copies (sorted by base then time), or NULL. */
static const CsPointCopy *
cs_point_first_of_base (GArray *copies, guint64 base)
{
  const CsPointCopy *v = (const CsPointCopy *) copies->data;
  guint lo = 0, hi = copies->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (v[mid].base < base)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < copies->len && v[lo].base == base ? &v[lo] : NULL;
}

static gboolean
cs_point_arrived (const CsPointClock *clock, GArray *at, guint to, const CsPointCopy *copy,
                  gint64 due_ns)
{
  const CsPointCopy *c = cs_point_first_of_base (at, copy->base);
  const CsPointCopy *end = (const CsPointCopy *) at->data + at->len;

  for (; c != NULL && c < end && c->base == copy->base; c++)
    if (ABS (c->ts_ns - clock->offset_ns[to] - due_ns) < CS_POINT_ARRIVAL_TOLERANCE_NS)
      return TRUE;
  return FALSE;
}

/* Copies of link's hop seen at `from` going towards `to` that never showed up there while
 * `to` was capturing that hop. */
static void
cs_point_link_losses (CsPointClock *clock, const CsPointLink *link, guint from, guint to,
                      GArray *at_from, GArray *at_to)
{
  gint64 first_ns = G_MAXINT64, last_ns = G_MININT64;

  for (guint i = 0; i < at_to->len; i++)
    {
      const CsPointCopy *c = &g_array_index (at_to, CsPointCopy, i);
      gint64 t = c->ts_ns - clock->offset_ns[to];

      if (c->hop != link->hop)
        continue;
      first_ns = MIN (first_ns, t);
      last_ns = MAX (last_ns, t);
    }
  for (guint i = 0; i < at_from->len; i++)
    {
      const CsPointCopy *c = &g_array_index (at_from, CsPointCopy, i);
      /* link->one_way_ns: from a to b for x → y */
      gint64 delay
          = (c->forward ? link->one_way_ns : -link->one_way_ns) * (from == link->a ? 1 : -1);
      gint64 sent = c->ts_ns - clock->offset_ns[from];
      CsPointLoss loss;

      if (c->hop != link->hop || delay <= 0 || sent + delay < first_ns || sent + delay > last_ns
          || cs_point_arrived (clock, at_to, to, c, sent + delay))
        continue;
      loss.from = from;
      loss.to = to;
      loss.offset = c->offset;
      loss.ts_ns = sent;
      loss.frame = 0;
      loss.src = c->forward ? link->x : link->y;
      loss.dst = c->forward ? link->y : link->x;
      g_array_append_val (clock->losses, loss);
    }
}

static int
cs_point_loss_by_time (const void *p, const void *q)
{
  const CsPointLoss *a = p, *b = q;

  return a->ts_ns == b->ts_ns ? 0 : a->ts_ns < b->ts_ns ? -1 : 1;
}

void
cs_point_find_losses (CsPointClock *clock, GPtrArray *copies)
{
  for (guint f = 0; f < copies->len; f++)
    {
      GArray *c = g_ptr_array_index (copies, f);

      qsort (c->data, c->len, sizeof (CsPointCopy), cs_point_copy_by_base_then_time);
    }
  for (guint i = 0; i < clock->links->len; i++)
    {
      const CsPointLink *link = &g_array_index (clock->links, CsPointLink, i);

      /* a delay measured both ways says which point a datagram passes first */
      if (!link->both_directions || link->one_way_ns == 0)
        continue;
      cs_point_link_losses (clock, link, link->a, link->b, g_ptr_array_index (copies, link->a),
                            g_ptr_array_index (copies, link->b));
      cs_point_link_losses (clock, link, link->b, link->a, g_ptr_array_index (copies, link->b),
                            g_ptr_array_index (copies, link->a));
    }
  qsort (clock->losses->data, clock->losses->len, sizeof (CsPointLoss), cs_point_loss_by_time);
}

void
cs_point_clock_number (CsPointClock *clock, CsCaptureSet *set)
{
  g_autoptr (GHashTable) wanted = NULL;
  g_autofree guint64 *keys = NULL;
  guint n = cs_capture_set_get_n_frames (set), left = clock->losses->len;

  if (left == 0)
    return;
  /* (file, offset) as one key: files are at most 2^16, offsets under 2^48 */
  wanted = g_hash_table_new (g_int64_hash, g_int64_equal);
  keys = g_new (guint64, clock->losses->len);
  for (guint i = 0; i < clock->losses->len; i++)
    {
      CsPointLoss *loss = &g_array_index (clock->losses, CsPointLoss, i);

      loss->frame = 0;
      keys[i] = (guint64) loss->from << 48 | loss->offset;
      g_hash_table_insert (wanted, &keys[i], loss);
    }
  for (guint32 number = 1; number <= n && left > 0; number++)
    {
      CsFrame frame;
      CsPointLoss *loss;
      guint64 key;

      if (!cs_capture_set_get_frame (set, number, &frame))
        break;
      key = (guint64) frame.file << 48 | frame.offset;
      loss = g_hash_table_lookup (wanted, &key);
      if (loss != NULL && loss->frame == 0)
        {
          loss->frame = number;
          left--;
        }
    }
}
