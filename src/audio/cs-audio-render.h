/* cs-audio-render.h — a stream, or a whole call with both directions
 * time-aligned, decoded into one PCM buffer ready to play or export */
#pragma once

#include <gio/gio.h>

#include "callscope-engine.h"
#include "cs-audio-track.h"

G_BEGIN_DECLS

typedef enum
{
  CS_AUDIO_LAYOUT_STEREO, /* left = the caller's voice, right = the callee's */
  CS_AUDIO_LAYOUT_MIXED,  /* both directions summed into one channel */
} CsAudioLayout;

typedef struct
{
  CsAudioPlayoutOptions playout;
  CsAudioLayout layout;
  guint sample_rate; /* 0 = the highest rate among the decoded streams */
} CsAudioRenderOptions;

void cs_audio_render_options_init (CsAudioRenderOptions *opts);

typedef struct
{
  guint sample_rate;
  guint channels;             /* 2 for a call in stereo, else 1 */
  gint64 start_ns;            /* capture time of the first frame */
  GArray *samples;            /* gint16, `channels` interleaved per frame */
  GArray *marks;              /* CsAudioMark of every stream, by start time */
  GArray *stream_ids;         /* guint: the streams decoded */
  GArray *stream_channels;    /* guint8 per stream_ids entry: the channel it went to */
  GPtrArray *messages;        /* char*: streams skipped and why, for the user */
  CsJitterBufferResult jb[2]; /* per channel, summed over its streams */
} CsAudioRender;

CsAudioRender *cs_audio_render_ref (CsAudioRender *render);
void cs_audio_render_unref (CsAudioRender *render);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsAudioRender, cs_audio_render_unref)

/* A render of ready PCM (tests, tones): n_frames × channels samples copied. */
CsAudioRender *cs_audio_render_new_from_samples (guint sample_rate, guint channels, gint64 start_ns,
                                                 const gint16 *samples, gsize n_frames);

gsize cs_audio_render_get_n_frames (const CsAudioRender *render);
double cs_audio_render_get_duration_s (const CsAudioRender *render);

/* Every stream of the call: streams the caller sent go left, those it
 * received go right (or all into one channel when mixed). Streams that cannot
 * be decoded are skipped with a line in messages; CS_AUDIO_ERROR_NO_MEDIA when
 * nothing could be decoded (the message says why). */
CsAudioRender *cs_audio_render_call (CsAnalysis *analysis, CsCall *call,
                                     const CsAudioRenderOptions *opts, GCancellable *cancellable,
                                     GError **error);
/* One stream, mono. */
CsAudioRender *cs_audio_render_stream (CsAnalysis *analysis, CsStream *stream,
                                       const CsAudioRenderOptions *opts, GError **error);

G_END_DECLS
