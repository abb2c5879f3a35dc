/* cs-audio-ring.h — single-producer single-consumer lock-free ring of 16-bit
 * samples: the decode thread writes, PortAudio's callback reads, neither waits */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CsAudioRing CsAudioRing;

/* capacity is rounded up to a power of two (samples, not frames). */
CsAudioRing *cs_audio_ring_new (gsize capacity);
void cs_audio_ring_free (CsAudioRing *ring);

gsize cs_audio_ring_capacity (const CsAudioRing *ring);
/* Samples ready to read / room to write, as seen by the calling side. */
gsize cs_audio_ring_readable (const CsAudioRing *ring);
gsize cs_audio_ring_writable (const CsAudioRing *ring);

/* Producer side: copies up to n samples in; returns how many fitted. */
gsize cs_audio_ring_write (CsAudioRing *ring, const gint16 *samples, gsize n);
/* Consumer side: copies up to n samples out; returns how many there were. */
gsize cs_audio_ring_read (CsAudioRing *ring, gint16 *samples, gsize n);

/* Empties the ring. Only while neither side runs (the stream is stopped). */
void cs_audio_ring_reset (CsAudioRing *ring);

G_END_DECLS
