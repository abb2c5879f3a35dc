/* cs-audio-ring.c — indices only ever grow; each side owns one of them and
 * publishes it with release ordering after touching the data */
#include "cs-audio-ring.h"

#include <stdatomic.h>
#include <string.h>

struct _CsAudioRing
{
  gint16 *data;
  gsize capacity, mask;
  atomic_size_t write_index; /* written by the producer only */
  atomic_size_t read_index;  /* written by the consumer only */
};

CsAudioRing *
cs_audio_ring_new (gsize capacity)
{
  CsAudioRing *ring = g_new0 (CsAudioRing, 1);
  gsize size = 1;

  while (size < capacity)
    size <<= 1;
  ring->data = g_new0 (gint16, size);
  ring->capacity = size;
  ring->mask = size - 1;
  atomic_init (&ring->write_index, 0);
  atomic_init (&ring->read_index, 0);
  return ring;
}

void
cs_audio_ring_free (CsAudioRing *ring)
{
  if (ring == NULL)
    return;
  g_free (ring->data);
  g_free (ring);
}

gsize
cs_audio_ring_capacity (const CsAudioRing *ring)
{
  return ring->capacity;
}

gsize
cs_audio_ring_readable (const CsAudioRing *ring)
{
  CsAudioRing *r = (CsAudioRing *) ring;

  return atomic_load_explicit (&r->write_index, memory_order_acquire)
         - atomic_load_explicit (&r->read_index, memory_order_relaxed);
}

gsize
cs_audio_ring_writable (const CsAudioRing *ring)
{
  CsAudioRing *r = (CsAudioRing *) ring;

  return ring->capacity
         - (atomic_load_explicit (&r->write_index, memory_order_relaxed)
            - atomic_load_explicit (&r->read_index, memory_order_acquire));
}

gsize
cs_audio_ring_write (CsAudioRing *ring, const gint16 *samples, gsize n)
{
  gsize w = atomic_load_explicit (&ring->write_index, memory_order_relaxed);
  gsize room = cs_audio_ring_writable (ring);
  gsize start, first;

  n = MIN (n, room);
  start = w & ring->mask;
  first = MIN (n, ring->capacity - start);
  memcpy (ring->data + start, samples, first * sizeof (gint16));
  memcpy (ring->data, samples + first, (n - first) * sizeof (gint16));
  atomic_store_explicit (&ring->write_index, w + n, memory_order_release);
  return n;
}

gsize
cs_audio_ring_read (CsAudioRing *ring, gint16 *samples, gsize n)
{
  gsize r = atomic_load_explicit (&ring->read_index, memory_order_relaxed);
  gsize available = cs_audio_ring_readable (ring);
  gsize start, first;

  n = MIN (n, available);
  start = r & ring->mask;
  first = MIN (n, ring->capacity - start);
  memcpy (samples, ring->data + start, first * sizeof (gint16));
  memcpy (samples + first, ring->data, (n - first) * sizeof (gint16));
  atomic_store_explicit (&ring->read_index, r + n, memory_order_release);
  return n;
}

void
cs_audio_ring_reset (CsAudioRing *ring)
{
  atomic_store (&ring->write_index, 0);
  atomic_store (&ring->read_index, 0);
}
