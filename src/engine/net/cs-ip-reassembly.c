/* cs-ip-reassembly.c — IPv4/IPv6 fragment reassembly with bounded memory */
#include "cs-ip-reassembly.h"

#include <string.h>

#define DEFAULT_MAX_BYTES (16 * 1024 * 1024)
#define DEFAULT_MAX_DATAGRAMS 4096
/* Neither IPv4 nor (non-jumbo) IPv6 can carry a fragmented payload longer than this. */
#define MAX_DATAGRAM_LEN 65535

typedef struct
{
  guint8 version;
  guint8 proto;
  CsAddr src;
  CsAddr dst;
  guint32 id;
} DatagramKey;

typedef struct
{
  guint32 start;
  guint32 end;
} ByteRange;

typedef struct
{
  DatagramKey key;
  GByteArray *data; /* grows to the highest fragment end seen */
  GArray *ranges;   /* ByteRange received, sorted, disjoint, not adjacent */
  guint32 total_len;
  gboolean total_known;
  gboolean have_first_fragment;
  guint32 first_frame;
  gint64 created_ts_ns;
  GList age_link; /* in CsIpReassembler.by_age, oldest first */
} Datagram;

struct _CsIpReassembler
{
  gsize max_bytes;
  guint max_datagrams;
  GHashTable *datagrams; /* DatagramKey* -> Datagram* (owned) */
  GQueue by_age;
  gsize pending_bytes;
  guint64 evicted;
  guint64 timed_out;
};

static guint
datagram_key_hash (gconstpointer p)
{
  const DatagramKey *k = p;

  return cs_addr_hash (&k->src) ^ (cs_addr_hash (&k->dst) * 31u) ^ (k->id * 2654435761u)
         ^ ((guint) k->proto << 24) ^ k->version;
}

static gboolean
datagram_key_equal (gconstpointer a, gconstpointer b)
{
  const DatagramKey *ka = a, *kb = b;

  return ka->version == kb->version && ka->proto == kb->proto && ka->id == kb->id
         && cs_addr_equal (&ka->src, &kb->src) && cs_addr_equal (&ka->dst, &kb->dst);
}

static void
datagram_free (gpointer p)
{
  Datagram *d = p;

  g_byte_array_unref (d->data);
  g_array_unref (d->ranges);
  g_free (d);
}

CsIpReassembler *
cs_ip_reassembler_new (gsize max_bytes, guint max_datagrams)
{
  CsIpReassembler *r = g_new0 (CsIpReassembler, 1);

  r->max_bytes = max_bytes != 0 ? max_bytes : DEFAULT_MAX_BYTES;
  r->max_datagrams = max_datagrams != 0 ? max_datagrams : DEFAULT_MAX_DATAGRAMS;
  r->datagrams = g_hash_table_new_full (datagram_key_hash, datagram_key_equal, NULL, datagram_free);
  g_queue_init (&r->by_age);
  return r;
}

void
cs_ip_reassembler_free (CsIpReassembler *r)
{
  if (r == NULL)
    return;
  g_hash_table_destroy (r->datagrams);
  g_free (r);
}

static void
datagram_remove (CsIpReassembler *r, Datagram *d)
{
  g_queue_unlink (&r->by_age, &d->age_link);
  r->pending_bytes -= d->data->len;
  g_hash_table_remove (r->datagrams, &d->key);
}

static void
expire_stale (CsIpReassembler *r, gint64 now_ns)
{
  while (r->by_age.head != NULL)
    {
      Datagram *oldest = r->by_age.head->data;

      if (now_ns - oldest->created_ts_ns <= CS_IP_REASSEMBLY_TIMEOUT_NS)
        break;
      datagram_remove (r, oldest);
      r->timed_out++;
    }
}

/* Evicts the oldest datagrams other than keep until `extra` more bytes fit under the cap. */
static gboolean
make_room (CsIpReassembler *r, Datagram *keep, gsize extra)
{
  while (r->pending_bytes + extra > r->max_bytes)
    {
      GList *link = r->by_age.head;

      if (link != NULL && link->data == keep)
        link = link->next;
      if (link == NULL)
        return FALSE;
      datagram_remove (r, link->data);
      r->evicted++;
    }
  return TRUE;
}

static Datagram *
datagram_lookup_or_create (CsIpReassembler *r, const DatagramKey *key, gint64 ts_ns)
{
  Datagram *d = g_hash_table_lookup (r->datagrams, key);

  if (d != NULL)
    return d;
  while (g_hash_table_size (r->datagrams) >= r->max_datagrams && r->by_age.head != NULL)
    {
      datagram_remove (r, r->by_age.head->data);
      r->evicted++;
    }
  d = g_new0 (Datagram, 1);
  d->key = *key;
  d->data = g_byte_array_new ();
  d->ranges = g_array_new (FALSE, FALSE, sizeof (ByteRange));
  d->created_ts_ns = ts_ns;
  d->age_link.data = d;
  g_queue_push_tail_link (&r->by_age, &d->age_link);
  g_hash_table_insert (r->datagrams, &d->key, d);
  return d;
}

/* Copies the parts of [start, end) not received yet (earlier bytes win) and records them. */
static void
datagram_fill (Datagram *d, guint32 start, guint32 end, const guint8 *bytes)
{
  guint32 pos = start;
  guint i;

  for (i = 0; i < d->ranges->len && pos < end; i++)
    {
      const ByteRange *have = &g_array_index (d->ranges, ByteRange, i);

      if (have->end <= pos)
        continue;
      if (have->start >= end)
        break;
      if (have->start > pos)
        memcpy (d->data->data + pos, bytes + (pos - start), have->start - pos);
      pos = MAX (pos, have->end);
    }
  if (pos < end)
    memcpy (d->data->data + pos, bytes + (pos - start), end - pos);

  /* Insert [start, end) and merge it with the ranges it touches. */
  guint first = 0;
  while (first < d->ranges->len && g_array_index (d->ranges, ByteRange, first).end < start)
    first++;
  guint last = first;
  ByteRange merged = { start, end };
  while (last < d->ranges->len && g_array_index (d->ranges, ByteRange, last).start <= end)
    {
      const ByteRange *have = &g_array_index (d->ranges, ByteRange, last);

      merged.start = MIN (merged.start, have->start);
      merged.end = MAX (merged.end, have->end);
      last++;
    }
  if (last > first)
    g_array_remove_range (d->ranges, first, last - first);
  g_array_insert_val (d->ranges, first, merged);
}

static gboolean
datagram_is_complete (const Datagram *d)
{
  if (!d->total_known || d->ranges->len != 1)
    return FALSE;
  const ByteRange *only = &g_array_index (d->ranges, ByteRange, 0);
  return only->start == 0 && only->end >= d->total_len;
}

static guint32
datagram_received_end (const Datagram *d)
{
  if (d->ranges->len == 0)
    return 0;
  return g_array_index (d->ranges, ByteRange, d->ranges->len - 1).end;
}

GBytes *
cs_ip_reassembler_add (CsIpReassembler *r, const CsPacket *packet, guint32 frame, gint64 ts_ns,
                       guint32 *first_frame)
{
  DatagramKey key;

  g_return_val_if_fail (r != NULL && packet != NULL, NULL);
  expire_stale (r, ts_ns);

  guint64 start = packet->frag.offset;
  guint64 end = start + packet->frag.len;
  if (end > MAX_DATAGRAM_LEN || (packet->frag.len > 0 && packet->frag.data == NULL))
    return NULL;

  memset (&key, 0, sizeof key);
  key.version = packet->ip_version;
  key.proto = packet->ip_proto;
  key.src = packet->src.addr;
  key.dst = packet->dst.addr;
  key.id = packet->frag.id;

  Datagram *d = datagram_lookup_or_create (r, &key, ts_ns);

  if (!packet->frag.more)
    {
      /* The first last-fragment wins; one that ends before bytes already received is bogus. */
      if (!d->total_known && end >= datagram_received_end (d))
        {
          d->total_known = TRUE;
          d->total_len = (guint32) end;
        }
    }
  if (d->total_known)
    end = MIN (end, (guint64) d->total_len);

  if (start < end)
    {
      if (end > d->data->len)
        {
          gsize extra = end - d->data->len;

          if (!make_room (r, d, extra))
            {
              datagram_remove (r, d);
              r->evicted++;
              return NULL;
            }
          g_byte_array_set_size (d->data, (guint) end);
          r->pending_bytes += extra;
        }
      datagram_fill (d, (guint32) start, (guint32) end, packet->frag.data);
    }
  if (start == 0 && !d->have_first_fragment)
    {
      d->have_first_fragment = TRUE;
      d->first_frame = frame;
    }

  if (!datagram_is_complete (d))
    return NULL;

  GBytes *whole = g_bytes_new (d->data->data, d->total_len);
  if (first_frame != NULL)
    *first_frame = d->first_frame;
  datagram_remove (r, d);
  return whole;
}

guint64
cs_ip_reassembler_get_evicted (CsIpReassembler *r)
{
  return r->evicted;
}

guint64
cs_ip_reassembler_get_timed_out (CsIpReassembler *r)
{
  return r->timed_out;
}

guint
cs_ip_reassembler_get_pending (CsIpReassembler *r)
{
  return g_hash_table_size (r->datagrams);
}

gsize
cs_ip_reassembler_get_pending_bytes (CsIpReassembler *r)
{
  return r->pending_bytes;
}
