/* cs-point-clock.c — clock offsets of capture points from the SIP datagrams they share */
#include "cs-point-private.h"
#include "net/cs-decode.h"
#include "sip/cs-sip-message.h"

#include <stdlib.h>
#include <string.h>

typedef struct
{
  CsEndpoint x, y;
} CsPointHop;

/* The differences collected for one hop seen at two points. */
typedef struct
{
  guint a, b;
  guint32 hop;
  GArray *forward;  /* gint64: t_b − t_a of x → y copies */
  GArray *backward; /* … of y → x copies */
} CsPointPairing;

static int
cs_endpoint_order (const CsEndpoint *p, const CsEndpoint *q)
{
  int c;

  if (p->addr.family != q->addr.family)
    return p->addr.family < q->addr.family ? -1 : 1;
  c = memcmp (p->addr.bytes, q->addr.bytes, sizeof p->addr.bytes);
  if (c != 0)
    return c;
  return p->port == q->port ? 0 : p->port < q->port ? -1 : 1;
}

static guint64
cs_point_mix (guint64 h, const guint8 *data, gsize len)
{
  /* FNV-1a, 64 bits */
  for (gsize i = 0; i < len; i++)
    {
      h ^= data[i];
      h *= G_GUINT64_CONSTANT (0x100000001b3);
    }
  return h;
}

static guint64
cs_point_endpoint_mix (guint64 h, const CsEndpoint *ep)
{
  guint8 bytes[19];

  bytes[0] = ep->addr.family;
  memcpy (bytes + 1, ep->addr.bytes, 16);
  bytes[17] = (guint8) (ep->port >> 8);
  bytes[18] = (guint8) ep->port;
  return cs_point_mix (h, bytes, sizeof bytes);
}

static guint
cs_point_hop_hash (gconstpointer p)
{
  const CsPointHop *hop = p;

  return cs_endpoint_hash (&hop->x) * 31u + cs_endpoint_hash (&hop->y);
}

static gboolean
cs_point_hop_equal (gconstpointer p, gconstpointer q)
{
  const CsPointHop *a = p, *b = q;

  return cs_endpoint_equal (&a->x, &b->x) && cs_endpoint_equal (&a->y, &b->y);
}

static int
cs_point_copy_compare (const void *p, const void *q)
{
  const CsPointCopy *a = p, *b = q;

  return a->key == b->key ? 0 : a->key < b->key ? -1 : 1;
}

static int
cs_point_i64_compare (const void *p, const void *q)
{
  gint64 a = *(const gint64 *) p, b = *(const gint64 *) q;

  return a == b ? 0 : a < b ? -1 : 1;
}

/* The median of values (sorted here); 0 when there are none. */
static gint64
cs_point_median (GArray *values)
{
  gint64 *v = (gint64 *) values->data;
  guint n = values->len;

  if (n == 0)
    return 0;
  qsort (v, n, sizeof *v, cs_point_i64_compare);
  return n % 2 == 1 ? v[n / 2] : v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
}

/* Every SIP datagram of one file's frames, keyed by its bytes, endpoints and repeat count. */
static GArray *
cs_point_read_copies (CsCaptureSet *set, GArray *frames, GHashTable *hops, GArray *hop_list)
{
  GArray *copies = g_array_new (FALSE, FALSE, sizeof (CsPointCopy));
  /* how many times this point saw each datagram so far: the n-th copy here pairs with the
   * n-th copy at another point (a retransmission is the same bytes again) */
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  for (guint i = 0; i < frames->len; i++)
    {
      const CsFrame *frame = &g_array_index (frames, CsFrame, i);
      const guint8 *data = cs_capture_set_frame_data (set, frame);
      CsPacket packet;
      CsPointHop hop;
      CsPointCopy copy;
      gpointer found;
      guint64 h;
      guint n;

      if (data == NULL
          || cs_decode_frame (frame->linktype, data, frame->caplen, &packet) != CS_DECODE_OK
          || packet.ip_proto != CS_IP_PROTO_UDP
          || !cs_sip_looks_like (packet.payload, packet.payload_len))
        continue;
      h = cs_point_endpoint_mix (G_GUINT64_CONSTANT (0xcbf29ce484222325), &packet.src);
      h = cs_point_endpoint_mix (h, &packet.dst);
      h = cs_point_mix (h, packet.payload, packet.payload_len);
      n = GPOINTER_TO_UINT (g_hash_table_lookup (seen, &h));
      /* an existing key keeps its copy: the one passed is freed */
      g_hash_table_insert (seen, g_memdup2 (&h, sizeof h), GUINT_TO_POINTER (n + 1));
      copy.base = h;
      copy.key = h ^ ((guint64) n * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15));
      copy.ts_ns = frame->ts_ns;
      copy.offset = frame->offset;
      copy.forward = cs_endpoint_order (&packet.src, &packet.dst) <= 0;
      hop.x = copy.forward ? packet.src : packet.dst;
      hop.y = copy.forward ? packet.dst : packet.src;
      if (!g_hash_table_lookup_extended (hops, &hop, NULL, &found))
        {
          g_array_append_val (hop_list, hop);
          found = GUINT_TO_POINTER (hop_list->len);
          g_hash_table_insert (hops, g_memdup2 (&hop, sizeof hop), found);
        }
      copy.hop = GPOINTER_TO_UINT (found) - 1;
      g_array_append_val (copies, copy);
    }
  qsort (copies->data, copies->len, sizeof (CsPointCopy), cs_point_copy_compare);
  return copies;
}

/* Walks two sorted copy lists and files every common copy's time difference by hop. */
static void
cs_point_pair_files (guint a, guint b, GArray *copies_a, GArray *copies_b, GPtrArray *pairings)
{
  g_autoptr (GHashTable) by_hop = g_hash_table_new (g_direct_hash, g_direct_equal);
  const CsPointCopy *p = (const CsPointCopy *) copies_a->data, *p_end = p + copies_a->len;
  const CsPointCopy *q = (const CsPointCopy *) copies_b->data, *q_end = q + copies_b->len;

  while (p < p_end && q < q_end)
    {
      CsPointPairing *pairing;
      gint64 diff;

      if (p->key != q->key)
        {
          if (p->key < q->key)
            p++;
          else
            q++;
          continue;
        }
      pairing = g_hash_table_lookup (by_hop, GUINT_TO_POINTER (p->hop + 1));
      if (pairing == NULL)
        {
          pairing = g_new0 (CsPointPairing, 1);
          pairing->a = a;
          pairing->b = b;
          pairing->hop = p->hop;
          pairing->forward = g_array_new (FALSE, FALSE, sizeof (gint64));
          pairing->backward = g_array_new (FALSE, FALSE, sizeof (gint64));
          g_hash_table_insert (by_hop, GUINT_TO_POINTER (p->hop + 1), pairing);
          g_ptr_array_add (pairings, pairing);
        }
      diff = q->ts_ns - p->ts_ns;
      g_array_append_val (p->forward ? pairing->forward : pairing->backward, diff);
      p++;
      q++;
    }
}

static void
cs_point_pairing_free (CsPointPairing *pairing)
{
  g_array_unref (pairing->forward);
  g_array_unref (pairing->backward);
  g_free (pairing);
}

/* offset = (median forward + median backward) / 2 cancels the one-way delay, which is half
 * their difference; with one direction only, the offset keeps the delay in it. */
static void
cs_point_link_measure (const CsPointPairing *pairing, const CsPointHop *hop, CsPointLink *link)
{
  g_autoptr (GArray) residuals = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 fwd = cs_point_median (pairing->forward), bwd = cs_point_median (pairing->backward);

  memset (link, 0, sizeof *link);
  link->a = pairing->a;
  link->b = pairing->b;
  link->x = hop->x;
  link->y = hop->y;
  link->hop = pairing->hop;
  link->n_forward = pairing->forward->len;
  link->n_backward = pairing->backward->len;
  link->both_directions = link->n_forward > 0 && link->n_backward > 0;
  if (link->both_directions)
    {
      link->offset_ns = fwd + (bwd - fwd) / 2;
      link->one_way_ns = (fwd - bwd) / 2;
    }
  else
    link->offset_ns = link->n_forward > 0 ? fwd : bwd;
  for (guint i = 0; i < pairing->forward->len; i++)
    {
      gint64 r
          = ABS (g_array_index (pairing->forward, gint64, i) - link->offset_ns - link->one_way_ns);
      g_array_append_val (residuals, r);
    }
  for (guint i = 0; i < pairing->backward->len; i++)
    {
      gint64 r
          = ABS (g_array_index (pairing->backward, gint64, i) - link->offset_ns + link->one_way_ns);
      g_array_append_val (residuals, r);
    }
  link->spread_ns = cs_point_median (residuals);
}

/* Links that measure an offset best come first: both directions, then more copies. */
static int
cs_point_link_rank (const void *p, const void *q)
{
  const CsPointLink *a = p, *b = q;
  guint na = a->n_forward + a->n_backward, nb = b->n_forward + b->n_backward;

  if (a->both_directions != b->both_directions)
    return a->both_directions ? -1 : 1;
  return na == nb ? 0 : na > nb ? -1 : 1;
}

static int
cs_point_link_order (const void *p, const void *q)
{
  const CsPointLink *a = p, *b = q;

  if (a->a != b->a)
    return a->a < b->a ? -1 : 1;
  if (a->b != b->b)
    return a->b < b->b ? -1 : 1;
  return cs_point_link_rank (p, q);
}

static guint
cs_point_root (guint *parent, guint f)
{
  while (parent[f] != f)
    f = parent[f] = parent[parent[f]];
  return f;
}

/* Chains the points along the best links (a maximum spanning forest, best links first) and
 * measures every point from the lowest-numbered point of its group. */
static void
cs_point_clock_chain (CsPointClock *clock)
{
  guint n = clock->n_points;
  g_autofree guint *parent = g_new (guint, n);
  g_autoptr (GArray) ranked = g_array_copy (clock->links);
  g_autoptr (GArray) tree = g_array_new (FALSE, FALSE, sizeof (CsPointLink));
  g_autofree gboolean *placed = g_new0 (gboolean, n);
  gboolean grew = TRUE;

  for (guint f = 0; f < n; f++)
    {
      parent[f] = f;
      clock->reference[f] = f;
    }
  qsort (ranked->data, ranked->len, sizeof (CsPointLink), cs_point_link_rank);
  for (guint i = 0; i < ranked->len; i++)
    {
      const CsPointLink *link = &g_array_index (ranked, CsPointLink, i);
      guint ra = cs_point_root (parent, link->a), rb = cs_point_root (parent, link->b);

      if (ra == rb)
        continue;
      parent[MAX (ra, rb)] = MIN (ra, rb);
      g_array_append_val (tree, *link);
    }
  /* walk out from each group's lowest point (its root) along the tree */
  for (guint f = 0; f < n; f++)
    placed[f] = cs_point_root (parent, f) == f;
  while (grew)
    {
      grew = FALSE;
      for (guint i = 0; i < tree->len; i++)
        {
          const CsPointLink *link = &g_array_index (tree, CsPointLink, i);
          guint from, to;
          gint64 step;

          if (placed[link->a] == placed[link->b])
            continue;
          from = placed[link->a] ? link->a : link->b;
          to = placed[link->a] ? link->b : link->a;
          step = to == link->b ? link->offset_ns : -link->offset_ns;
          clock->offset_ns[to] = clock->offset_ns[from] + step;
          clock->spread_ns[to] = clock->spread_ns[from] + link->spread_ns;
          clock->reference[to] = cs_point_root (parent, to);
          placed[to] = TRUE;
          grew = TRUE;
        }
    }
}

CsPointClock *
cs_point_clock_estimate (CsCaptureSet *set, GArray *const *per_file, guint n_files)
{
  CsPointClock *clock = g_new0 (CsPointClock, 1);
  g_autoptr (GHashTable) hops
      = g_hash_table_new_full (cs_point_hop_hash, cs_point_hop_equal, g_free, NULL);
  g_autoptr (GArray) hop_list = g_array_new (FALSE, FALSE, sizeof (CsPointHop));
  g_autoptr (GPtrArray) copies = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autoptr (GPtrArray) pairings
      = g_ptr_array_new_with_free_func ((GDestroyNotify) cs_point_pairing_free);

  clock->n_points = n_files;
  clock->offset_ns = g_new0 (gint64, n_files);
  clock->spread_ns = g_new0 (gint64, n_files);
  clock->reference = g_new0 (guint, n_files);
  clock->n_messages = g_new0 (guint, n_files);
  clock->links = g_array_new (FALSE, FALSE, sizeof (CsPointLink));
  clock->losses = g_array_new (FALSE, FALSE, sizeof (CsPointLoss));
  for (guint f = 0; f < n_files; f++)
    {
      g_ptr_array_add (copies, cs_point_read_copies (set, per_file[f], hops, hop_list));
      clock->n_messages[f] = ((GArray *) g_ptr_array_index (copies, f))->len;
    }
  for (guint a = 0; a < n_files; a++)
    for (guint b = a + 1; b < n_files; b++)
      cs_point_pair_files (a, b, g_ptr_array_index (copies, a), g_ptr_array_index (copies, b),
                           pairings);
  for (guint i = 0; i < pairings->len; i++)
    {
      const CsPointPairing *pairing = g_ptr_array_index (pairings, i);
      CsPointLink link;

      cs_point_link_measure (pairing, &g_array_index (hop_list, CsPointHop, pairing->hop), &link);
      g_array_append_val (clock->links, link);
    }
  qsort (clock->links->data, clock->links->len, sizeof (CsPointLink), cs_point_link_order);
  cs_point_clock_chain (clock);
  cs_point_find_losses (clock, copies);
  return clock;
}

void
cs_point_clock_free (CsPointClock *clock)
{
  if (clock == NULL)
    return;
  g_free (clock->offset_ns);
  g_free (clock->spread_ns);
  g_free (clock->reference);
  g_free (clock->n_messages);
  g_array_unref (clock->links);
  g_array_unref (clock->losses);
  g_free (clock);
}

void
cs_point_clock_align (CsCaptureSet *set, GArray *const *per_file, guint n_files, gint64 *offsets,
                      gpointer user_data)
{
  CsPointClock **out = user_data;
  CsPointClock *clock = cs_point_clock_estimate (set, per_file, n_files);

  memcpy (offsets, clock->offset_ns, n_files * sizeof *offsets);
  cs_point_clock_free (*out);
  *out = clock;
}
