/* cs-audio-track.h — one RTP stream played out as its receiver would have:
 * through the same jitter-buffer emulation as the MOS, lost and late packets
 * left silent and marked, DTMF and comfort noise marked */
#pragma once

#include "cs-audio-formats.h"
#include "callscope-engine.h"

G_BEGIN_DECLS

typedef enum
{
  CS_AUDIO_MARK_LOST,          /* sequence numbers never received */
  CS_AUDIO_MARK_LATE,          /* received after their playout time: dropped by the buffer */
  CS_AUDIO_MARK_DTMF,          /* an RFC 4733 telephone-event (not rendered as audio) */
  CS_AUDIO_MARK_COMFORT_NOISE, /* RFC 3389 CN: rendered as low noise or silence */
  CS_AUDIO_MARK_UNDECODABLE,   /* payload that could not be read back or decoded */
} CsAudioMarkKind;

typedef struct
{
  CsAudioMarkKind kind;
  guint8 channel;  /* 0 = left or mono, 1 = right (set by the render) */
  char digit;      /* CS_AUDIO_MARK_DTMF */
  guint stream_id; /* CsStream id */
  guint32 frame;   /* capture frame: the packet's, or the one after a loss */
  guint32 packets; /* packets the mark covers */
  gint64 start_ns; /* on the capture's time axis (ns since the epoch) */
  gint64 end_ns;
} CsAudioMark;

const char *cs_audio_mark_kind_to_string (CsAudioMarkKind kind);

typedef struct
{
  CsJitterBufferConfig jb;
  gboolean comfort_noise; /* TRUE: CN as noise at the level it announces; FALSE: silence */
} CsAudioPlayoutOptions;

/* Fixed 50 ms jitter buffer (the MOS default), comfort noise on. */
void cs_audio_playout_options_init (CsAudioPlayoutOptions *opts);

/* Longest track kept: 2^27 samples (46 min at 48 kHz, 4.6 h at 8 kHz). */
#define CS_AUDIO_TRACK_MAX_SAMPLES (1u << 27)

typedef struct
{
  guint stream_id;
  char *codec;             /* decoder name of the main payload type ("PCMU", "opus", …) */
  guint sample_rate;       /* of samples */
  gint64 start_ns;         /* capture time at which samples[0] plays */
  GArray *samples;         /* gint16, mono */
  GArray *marks;           /* CsAudioMark, by start time */
  CsJitterBufferResult jb; /* exactly what the MOS computation gets */
  guint32 played;          /* packets decoded into samples */
  guint32 undecodable;     /* packets whose payload could not be read or decoded */
  gboolean truncated;      /* audio past CS_AUDIO_TRACK_MAX_SAMPLES was dropped */
} CsAudioTrack;

/* Decodes the stream's payloads, read back from the capture by frame number.
 * formats maps payload types to encodings (NULL = the static table and the
 * stream's own codec). CS_AUDIO_ERROR_UNSUPPORTED names the codec when the
 * stream's main payload type has no decoder; CS_AUDIO_ERROR_NO_MEDIA when the
 * stream has no packets. */
CsAudioTrack *cs_audio_track_decode (CsCaptureSet *set, CsStream *stream,
                                     const CsAudioFormatMap *formats,
                                     const CsAudioPlayoutOptions *opts, GError **error);
void cs_audio_track_free (CsAudioTrack *track);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsAudioTrack, cs_audio_track_free)

G_END_DECLS
