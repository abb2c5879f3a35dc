/* cs-redact-stream.c — text that spans frames, rewritten whole: each TCP direction's bytes in
 * sequence order (a message's Content-Length then covers its new body wherever its segments
 * end, and later sequence numbers move by what changed before them), and each fragmented
 * UDP datagram (cut again at the original fragment boundaries, as far as they still fit) */
#include "cs-redact-private.h"

#include "cs-flow-key.h"

#include <string.h>

#include "net/cs-decode.h"

typedef struct
{
  guint32 frame;
  gint64 rel; /* sequence number relative to the direction's base */
  GByteArray *data;
} CsTcpSegment;

typedef struct
{
  gint64 start, end; /* relative sequence numbers of the original bytes */
  gint64 new_start;  /* where the rewritten run starts */
  GByteArray *bytes; /* original, then (after rewrite) kept for nothing */
  GByteArray *fresh; /* rewritten */
  GArray *edits;     /* CsRedactEdit of the rewrite */
} CsTcpRun;

typedef struct
{
  guint32 base;
  gboolean has_base;
  GArray *segments; /* CsTcpSegment */
  GArray *runs;     /* CsTcpRun, by start */
} CsRedactTcpDir;

typedef struct
{
  CsAddr src, dst;
  guint32 id;
  guint8 proto, version;
} CsRedactDatagramKey;

typedef struct
{
  guint32 frame;
  guint32 offset;
  gboolean more;
  GByteArray *data;
} CsFragment;

typedef struct
{
  GArray *fragments; /* CsFragment */
} CsRedactDatagram;

static guint
cs_datagram_hash (gconstpointer p)
{
  const CsRedactDatagramKey *k = p;

  return (cs_addr_hash (&k->src) * 31u + cs_addr_hash (&k->dst)) * 31u + k->id + k->proto;
}

static gboolean
cs_datagram_equal (gconstpointer a, gconstpointer b)
{
  const CsRedactDatagramKey *x = a, *y = b;

  return cs_addr_equal (&x->src, &y->src) && cs_addr_equal (&x->dst, &y->dst) && x->id == y->id
         && x->proto == y->proto && x->version == y->version;
}

static void
cs_tcp_dir_free (CsRedactTcpDir *dir)
{
  for (guint i = 0; i < dir->segments->len; i++)
    g_byte_array_unref (g_array_index (dir->segments, CsTcpSegment, i).data);
  for (guint i = 0; i < dir->runs->len; i++)
    {
      CsTcpRun *run = &g_array_index (dir->runs, CsTcpRun, i);

      g_byte_array_unref (run->bytes);
      if (run->fresh != NULL)
        g_byte_array_unref (run->fresh);
      cs_redact_edits_free (run->edits);
    }
  g_array_unref (dir->segments);
  g_array_unref (dir->runs);
  g_free (dir);
}

static void
cs_datagram_free (CsRedactDatagram *d)
{
  for (guint i = 0; i < d->fragments->len; i++)
    g_byte_array_unref (g_array_index (d->fragments, CsFragment, i).data);
  g_array_unref (d->fragments);
  g_free (d);
}

static void
cs_piece_free (CsRedactPiece *piece)
{
  g_byte_array_unref (piece->payload);
  g_free (piece);
}

void
cs_redact_stream_init (CsRedactor *r)
{
  r->tcp_dirs = g_hash_table_new_full (cs_flow_key_hash, cs_flow_key_equal, g_free,
                                       (GDestroyNotify) cs_tcp_dir_free);
  r->datagrams = g_hash_table_new_full (cs_datagram_hash, cs_datagram_equal, g_free,
                                        (GDestroyNotify) cs_datagram_free);
  r->frame_pieces = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) cs_piece_free);
}

void
cs_redact_stream_clear (CsRedactor *r)
{
  g_clear_pointer (&r->tcp_dirs, g_hash_table_unref);
  g_clear_pointer (&r->datagrams, g_hash_table_unref);
  g_clear_pointer (&r->frame_pieces, g_hash_table_unref);
}

void
cs_redact_stream_observe_tcp (CsRedactor *r, guint32 frame, const CsEndpoint *src,
                              const CsEndpoint *dst, guint32 seq, const guint8 *payload, gsize len)
{
  CsFlowKey key = { *src, *dst };
  CsRedactTcpDir *dir = g_hash_table_lookup (r->tcp_dirs, &key);
  CsTcpSegment segment = { frame, 0, NULL };

  if (dir == NULL)
    {
      dir = g_new0 (CsRedactTcpDir, 1);
      dir->segments = g_array_new (FALSE, FALSE, sizeof (CsTcpSegment));
      dir->runs = g_array_new (FALSE, FALSE, sizeof (CsTcpRun));
      g_hash_table_insert (r->tcp_dirs, g_memdup2 (&key, sizeof key), dir);
    }
  if (!dir->has_base)
    {
      dir->base = seq;
      dir->has_base = TRUE;
    }
  segment.rel = (gint32) (seq - dir->base);
  segment.data = g_byte_array_append (g_byte_array_new (), payload, (guint) len);
  g_array_append_val (dir->segments, segment);
}

void
cs_redact_stream_observe_fragment (CsRedactor *r, guint32 frame, const CsAddr *src,
                                   const CsAddr *dst, guint8 ip_version, guint8 proto, guint32 id,
                                   guint32 offset, gboolean more, const guint8 *data, gsize len)
{
  CsRedactDatagramKey key = { *src, *dst, id, proto, ip_version };
  CsRedactDatagram *d = g_hash_table_lookup (r->datagrams, &key);
  CsFragment fragment = { frame, offset, more, NULL };

  if (d == NULL)
    {
      d = g_new0 (CsRedactDatagram, 1);
      d->fragments = g_array_new (FALSE, FALSE, sizeof (CsFragment));
      g_hash_table_insert (r->datagrams, g_memdup2 (&key, sizeof key), d);
    }
  fragment.data = g_byte_array_append (g_byte_array_new (), data, (guint) len);
  g_array_append_val (d->fragments, fragment);
}

/* ---- TCP ---- */

static gint
cs_segment_compare (gconstpointer a, gconstpointer b)
{
  const CsTcpSegment *x = a, *y = b;

  if (x->rel != y->rel)
    return x->rel < y->rel ? -1 : 1;
  return x->frame < y->frame ? -1 : x->frame > y->frame;
}

/* Contiguous runs of bytes, each byte from the first segment that carried it. */
static void
cs_tcp_build_runs (CsRedactTcpDir *dir)
{
  g_autoptr (GArray) sorted = g_array_copy (dir->segments);

  if (dir->runs->len > 0)
    return;
  g_array_sort (sorted, cs_segment_compare);
  for (guint i = 0; i < sorted->len; i++)
    {
      const CsTcpSegment *s = &g_array_index (sorted, CsTcpSegment, i);
      gint64 end = s->rel + s->data->len;
      CsTcpRun *run
          = dir->runs->len > 0 ? &g_array_index (dir->runs, CsTcpRun, dir->runs->len - 1) : NULL;

      if (run != NULL && s->rel <= run->end)
        {
          if (end > run->end)
            {
              g_byte_array_append (run->bytes, s->data->data + (run->end - s->rel),
                                   (guint) (end - run->end));
              run->end = end;
            }
          continue;
        }
      {
        CsTcpRun fresh = { s->rel, end, 0, NULL, NULL, NULL };

        fresh.bytes = g_byte_array_append (g_byte_array_new (), s->data->data, s->data->len);
        g_array_append_val (dir->runs, fresh);
      }
    }
}

static gboolean
cs_looks_binary (const guint8 *t, gsize len)
{
  gsize odd = 0;

  for (gsize i = 0; i < len; i++)
    {
      if (t[i] == 0)
        return TRUE;
      odd += t[i] < 0x20 && t[i] != '\r' && t[i] != '\n' && t[i] != '\t';
    }
  return odd * 100 > len;
}

static GByteArray *
cs_rewrite_run_bytes (CsRedactor *r, const GByteArray *bytes, GArray **edits)
{
  if (cs_looks_binary (bytes->data, bytes->len))
    {
      /* TLS and other binary streams: unreadable here, so not kept (SNI, certificates) */
      GByteArray *zero = g_byte_array_sized_new (bytes->len);

      g_byte_array_set_size (zero, bytes->len);
      cs_redact_zero (zero);
      *edits = NULL;
      return zero;
    }
  return cs_redact_sip_text (r, bytes->data, bytes->len, edits);
}

static void
cs_tcp_rewrite (CsRedactor *r, CsRedactTcpDir *dir)
{
  gint64 shift = 0;

  for (guint i = 0; i < dir->runs->len; i++)
    {
      CsTcpRun *run = &g_array_index (dir->runs, CsTcpRun, i);

      run->fresh = cs_rewrite_run_bytes (r, run->bytes, &run->edits);
      run->new_start = run->start + shift;
      shift += (gint64) run->fresh->len - (gint64) run->bytes->len;
    }
  for (guint i = 0; i < dir->segments->len; i++)
    {
      const CsTcpSegment *s = &g_array_index (dir->segments, CsTcpSegment, i);
      CsRedactPiece *piece = g_new0 (CsRedactPiece, 1);
      const CsTcpRun *run = NULL;
      gsize from, to;

      for (guint k = 0; k < dir->runs->len && run == NULL; k++)
        {
          const CsTcpRun *c = &g_array_index (dir->runs, CsTcpRun, k);

          if (s->rel >= c->start && s->rel + (gint64) s->data->len <= c->end)
            run = c;
        }
      g_assert (run != NULL);
      from = cs_redact_edits_map (run->edits, (gsize) (s->rel - run->start));
      to = s->rel + (gint64) s->data->len == run->end
               ? run->fresh->len
               : cs_redact_edits_map (run->edits, (gsize) (s->rel + s->data->len - run->start));
      piece->payload = g_byte_array_append (g_byte_array_new (), run->fresh->data + from,
                                            (guint) (MAX (to, from) - from));
      piece->seq = dir->base + (guint32) (run->new_start + (gint64) from);
      g_hash_table_replace (r->frame_pieces, GUINT_TO_POINTER (s->frame), piece);
    }
}

guint32
cs_redact_stream_map_seq (CsRedactor *r, const CsEndpoint *src, const CsEndpoint *dst, guint32 seq)
{
  CsFlowKey key = { *src, *dst };
  CsRedactTcpDir *dir = r->tcp_dirs != NULL ? g_hash_table_lookup (r->tcp_dirs, &key) : NULL;
  gint64 rel, shift = 0;

  if (dir == NULL || dir->runs->len == 0 || g_array_index (dir->runs, CsTcpRun, 0).fresh == NULL)
    return seq;
  rel = (gint32) (seq - dir->base);
  for (guint i = 0; i < dir->runs->len; i++)
    {
      const CsTcpRun *run = &g_array_index (dir->runs, CsTcpRun, i);

      if (rel < run->start)
        break;
      if (rel <= run->end)
        return dir->base
               + (guint32) (run->new_start
                            + (gint64) (rel == run->end
                                            ? run->fresh->len
                                            : cs_redact_edits_map (run->edits,
                                                                   (gsize) (rel - run->start))));
      shift = run->new_start - run->start + (gint64) run->fresh->len - (gint64) run->bytes->len;
    }
  return seq + (guint32) shift;
}

/* ---- fragmented datagrams ---- */

static gint
cs_fragment_compare (gconstpointer a, gconstpointer b)
{
  const CsFragment *x = a, *y = b;

  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* The whole datagram when its fragments cover it exactly (duplicates allowed), else NULL. */
static GByteArray *
cs_datagram_assemble (CsRedactDatagram *d, GArray *sorted)
{
  GByteArray *whole = g_byte_array_new ();
  gboolean last = FALSE;

  g_array_sort (sorted, cs_fragment_compare);
  for (guint i = 0; i < sorted->len; i++)
    {
      const CsFragment *f = &g_array_index (sorted, CsFragment, i);

      if (i > 0 && f->offset == g_array_index (sorted, CsFragment, i - 1).offset)
        continue; /* a duplicate */
      if (f->offset != whole->len || last)
        break;
      g_byte_array_append (whole, f->data->data, f->data->len);
      last = !f->more;
    }
  if (!last || whole->len < 8)
    {
      g_byte_array_unref (whole);
      return NULL;
    }
  return whole;
}

static void
cs_datagram_rewrite (CsRedactor *r, const CsRedactDatagramKey *key, CsRedactDatagram *d)
{
  g_autoptr (GArray) sorted = g_array_copy (d->fragments);
  g_autoptr (GByteArray) whole = cs_datagram_assemble (d, sorted);
  g_autoptr (GByteArray) payload = NULL;
  g_autoptr (GByteArray) fresh = NULL;
  g_autofree guint32 *bounds = NULL;
  g_autofree guint32 *original = NULL;
  guint n = 0;
  CsAddr src, dst;

  if (whole == NULL || key->proto != CS_IP_PROTO_UDP)
    return; /* not whole, or not UDP: the frames are blanked */
  payload = cs_redact_udp_payload (r, whole->data + 8, whole->len - 8);
  fresh = g_byte_array_append (g_byte_array_new (), whole->data, 8);
  g_byte_array_append (fresh, payload->data, payload->len);
  if (fresh->len > 65535 - 60)
    return;
  fresh->data[4] = (guint8) (fresh->len >> 8);
  fresh->data[5] = (guint8) fresh->len;
  cs_redactor_map_addr (r, &key->src, &src);
  cs_redactor_map_addr (r, &key->dst, &dst);
  if (key->version == 6 || whole->data[6] != 0 || whole->data[7] != 0)
    {
      guint16 sum = cs_redact_transport_checksum (src.bytes, dst.bytes, key->version == 6 ? 16 : 4,
                                                  17, fresh->data, fresh->len, 6);

      sum = sum == 0 ? 0xffff : sum;
      fresh->data[6] = (guint8) (sum >> 8);
      fresh->data[7] = (guint8) sum;
    }
  /* The original boundaries (multiples of 8), pulled in from the end where the datagram
   * shrank so that every fragment keeps at least one byte. */
  bounds = g_new0 (guint32, sorted->len + 1);
  original = g_new0 (guint32, sorted->len + 1);
  for (guint i = 0; i < sorted->len; i++)
    {
      guint32 off = g_array_index (sorted, CsFragment, i).offset;

      if (n == 0 || off != original[n - 1])
        original[n] = bounds[n] = off, n++;
    }
  bounds[n] = fresh->len;
  for (guint k = n; k-- > 1;)
    {
      guint32 limit = (bounds[k + 1] - 1) & ~7u;

      bounds[k] = MIN (bounds[k], limit);
      if (bounds[k] <= bounds[k - 1])
        return;
    }
  for (guint i = 0; i < sorted->len; i++)
    {
      const CsFragment *f = &g_array_index (sorted, CsFragment, i);
      CsRedactPiece *piece = g_new0 (CsRedactPiece, 1);
      guint k = 0;

      while (k + 1 < n && original[k] < f->offset)
        k++;
      piece->frag_offset = bounds[k];
      piece->payload = g_byte_array_append (g_byte_array_new (), fresh->data + bounds[k],
                                            bounds[k + 1] - bounds[k]);
      g_hash_table_replace (r->frame_pieces, GUINT_TO_POINTER (f->frame), piece);
    }
}

/* ---- seal time ---- */

void
cs_redact_stream_learn (CsRedactor *r)
{
  GHashTableIter iter;
  gpointer key, value;
  gboolean was = r->observing;

  r->observing = TRUE;
  g_hash_table_iter_init (&iter, r->tcp_dirs);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      CsRedactTcpDir *dir = value;

      cs_tcp_build_runs (dir);
      for (guint i = 0; i < dir->runs->len; i++)
        {
          GArray *edits = NULL;
          GByteArray *seen
              = cs_rewrite_run_bytes (r, g_array_index (dir->runs, CsTcpRun, i).bytes, &edits);

          g_byte_array_unref (seen);
          cs_redact_edits_free (edits);
        }
    }
  g_hash_table_iter_init (&iter, r->datagrams);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      CsRedactDatagram *d = value;
      g_autoptr (GArray) sorted = g_array_copy (d->fragments);
      g_autoptr (GByteArray) whole = cs_datagram_assemble (d, sorted);

      if (whole != NULL && ((CsRedactDatagramKey *) key)->proto == CS_IP_PROTO_UDP)
        g_byte_array_unref (cs_redact_udp_payload (r, whole->data + 8, whole->len - 8));
    }
  r->observing = was;
}

void
cs_redact_stream_rewrite (CsRedactor *r)
{
  GHashTableIter iter;
  gpointer key, value;

  r->observing = FALSE;
  g_hash_table_iter_init (&iter, r->tcp_dirs);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    cs_tcp_rewrite (r, value);
  g_hash_table_iter_init (&iter, r->datagrams);
  while (g_hash_table_iter_next (&iter, &key, &value))
    cs_datagram_rewrite (r, key, value);
}

const CsRedactPiece *
cs_redact_stream_piece (CsRedactor *r, guint32 frame)
{
  return g_hash_table_lookup (r->frame_pieces, GUINT_TO_POINTER (frame));
}
