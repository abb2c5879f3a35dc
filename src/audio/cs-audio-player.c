/* cs-audio-player.c — a feeder thread resamples the render to the device rate
 * into a lock-free ring; PortAudio's callback only copies out of it. Control
 * (pause, seek, stop) halts the stream first, so the ring is reset while
 * neither side runs. */
#include "cs-audio-player.h"

#include <math.h>
#include <portaudio.h>
#include <stdatomic.h>

#include "cs-audio-error.h"
#include "cs-audio-resample.h"
#include "cs-audio-ring.h"

#define OUT_CHANNELS 2
#define RING_FRAMES (1u << 17) /* 2.7 s at 48 kHz */
#define CHUNK_FRAMES 1024
#define POSITION_INTERVAL_MS 40
#define NO_DEVICE_MESSAGE                                                                          \
  "No audio output device was found, so the call cannot be played here. Export it to a WAV or "    \
  "FLAC file instead."

struct _CsAudioPlayer
{
  GObject parent_instance;

  GMainContext *context; /* where notifications go */
  CsAudioRender *render;
  CsAudioPlayerState state;
  gboolean pa_initialized;
  PaStream *stream;
  guint device_rate;
  CsAudioResampler *resampler;
  CsAudioRing *ring;
  GSource *timer;

  /* Shared with the feeder thread, under lock. */
  GMutex lock;
  GCond wake;
  GThread *feeder;
  gboolean quit, feeding;
  gsize feed_frame, end_frame; /* device frames */

  /* Shared with the callback, atomics only. */
  atomic_size_t consumed_frames; /* frames taken from the ring since base_frame */
  atomic_bool fed_all;
  atomic_bool finished;
  atomic_int volume_q16; /* volume × 65536 */
  gsize base_frame;      /* device frame the ring started from */
};

G_DEFINE_FINAL_TYPE (CsAudioPlayer, cs_audio_player, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_STATE,
  PROP_POSITION,
  PROP_DURATION,
  PROP_VOLUME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void halt_stream (CsAudioPlayer *self);

/* Runs on PortAudio's thread: no locks, no allocation. */
static int
output_callback (const void *input, void *output, unsigned long frames,
                 const PaStreamCallbackTimeInfo *time_info, PaStreamCallbackFlags flags,
                 void *user_data)
{
  CsAudioPlayer *self = user_data;
  gint16 *out = output;
  gsize wanted = frames * OUT_CHANNELS;
  gsize got = cs_audio_ring_read (self->ring, out, wanted);
  gint32 volume = atomic_load (&self->volume_q16);

  if (volume != 65536)
    for (gsize i = 0; i < got; i++)
      out[i] = (gint16) (((gint32) out[i] * volume) / 65536);
  for (gsize i = got; i < wanted; i++)
    out[i] = 0;
  atomic_fetch_add (&self->consumed_frames, got / OUT_CHANNELS);
  if (got < wanted && atomic_load (&self->fed_all) && cs_audio_ring_readable (self->ring) == 0)
    {
      atomic_store (&self->finished, TRUE);
      return paComplete;
    }
  return paContinue;
}

/* Resamples the next chunk into the ring; called with the lock held. FALSE
 * when there was nothing to do. */
static gboolean
feed_chunk (CsAudioPlayer *self)
{
  gint16 mono[CHUNK_FRAMES];
  gint16 stereo[CHUNK_FRAMES * OUT_CHANNELS];
  const CsAudioRender *render = self->render;
  const gint16 *in;
  gsize n, n_in;

  if (!self->feeding || render == NULL || self->feed_frame >= self->end_frame)
    return FALSE;
  n = MIN ((gsize) CHUNK_FRAMES, self->end_frame - self->feed_frame);
  n = MIN (n, cs_audio_ring_writable (self->ring) / OUT_CHANNELS);
  if (n == 0)
    return FALSE;
  in = (const gint16 *) (gconstpointer) render->samples->data;
  n_in = cs_audio_render_get_n_frames (render);
  if (render->channels == 1)
    {
      cs_audio_resampler_process (self->resampler, in, n_in, 1, self->feed_frame, mono, n);
      for (gsize i = 0; i < n; i++)
        stereo[2 * i] = stereo[2 * i + 1] = mono[i];
    }
  else
    cs_audio_resampler_process (self->resampler, in, n_in, OUT_CHANNELS, self->feed_frame, stereo,
                                n);
  cs_audio_ring_write (self->ring, stereo, n * OUT_CHANNELS);
  self->feed_frame += n;
  if (self->feed_frame >= self->end_frame)
    atomic_store (&self->fed_all, TRUE);
  return TRUE;
}

static gpointer
feeder_main (gpointer data)
{
  CsAudioPlayer *self = data;

  g_mutex_lock (&self->lock);
  while (!self->quit)
    {
      if (feed_chunk (self))
        {
          /* Let control calls in between chunks. */
          g_mutex_unlock (&self->lock);
          g_mutex_lock (&self->lock);
          continue;
        }
      g_cond_wait_until (&self->wake, &self->lock,
                         g_get_monotonic_time () + 5 * G_TIME_SPAN_MILLISECOND);
    }
  g_mutex_unlock (&self->lock);
  return NULL;
}

static gsize
position_frame (CsAudioPlayer *self)
{
  return MIN (self->base_frame + atomic_load (&self->consumed_frames), self->end_frame);
}

static void
set_state (CsAudioPlayer *self, CsAudioPlayerState state)
{
  if (self->state == state)
    return;
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static void
stop_timer (CsAudioPlayer *self)
{
  if (self->timer == NULL)
    return;
  g_source_destroy (self->timer);
  g_clear_pointer (&self->timer, g_source_unref);
}

static void
close_stream (CsAudioPlayer *self)
{
  halt_stream (self);
  /* Without a device, positions count the render's own frames. */
  if (self->device_rate > 0 && self->render != NULL)
    {
      gsize n = cs_audio_render_get_n_frames (self->render);
      double position_s = (double) self->base_frame / self->device_rate;

      self->end_frame = n;
      self->base_frame = self->feed_frame
          = MIN ((gsize) (position_s * self->render->sample_rate + 0.5), n);
    }
  if (self->stream != NULL)
    {
      Pa_CloseStream (self->stream);
      self->stream = NULL;
    }
  self->device_rate = 0;
  g_clear_pointer (&self->resampler, cs_audio_resampler_free);
}

static gboolean
on_timer (gpointer data)
{
  CsAudioPlayer *self = data;

  if (atomic_load (&self->finished))
    {
      close_stream (self);
      self->base_frame = self->feed_frame = self->end_frame;
      atomic_store (&self->consumed_frames, 0);
      g_clear_pointer (&self->timer, g_source_unref);
      set_state (self, CS_AUDIO_PLAYER_STOPPED);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_POSITION]);
      return G_SOURCE_REMOVE;
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_POSITION]);
  return G_SOURCE_CONTINUE;
}

/* Stops the device and the feeding and keeps the position. */
static void
halt_stream (CsAudioPlayer *self)
{
  gsize position;

  stop_timer (self);
  g_mutex_lock (&self->lock);
  self->feeding = FALSE;
  g_mutex_unlock (&self->lock);
  if (self->stream != NULL && !Pa_IsStreamStopped (self->stream))
    Pa_AbortStream (self->stream);
  position = position_frame (self);
  g_mutex_lock (&self->lock);
  self->base_frame = self->feed_frame = position;
  atomic_store (&self->consumed_frames, 0);
  atomic_store (&self->fed_all, FALSE);
  atomic_store (&self->finished, FALSE);
  if (self->ring != NULL)
    cs_audio_ring_reset (self->ring);
  g_mutex_unlock (&self->lock);
}

gboolean
cs_audio_player_probe_device (GError **error)
{
  gboolean found;

  if (Pa_Initialize () != paNoError)
    {
      g_set_error_literal (error, CS_AUDIO_ERROR, CS_AUDIO_ERROR_NO_DEVICE, NO_DEVICE_MESSAGE);
      return FALSE;
    }
  found = Pa_GetDefaultOutputDevice () != paNoDevice;
  Pa_Terminate ();
  if (!found)
    g_set_error_literal (error, CS_AUDIO_ERROR, CS_AUDIO_ERROR_NO_DEVICE, NO_DEVICE_MESSAGE);
  return found;
}

static gboolean
open_stream (CsAudioPlayer *self, GError **error)
{
  static const double fallback_rates[] = { 0, 48000, 44100 };
  PaDeviceIndex device;
  const PaDeviceInfo *info;
  PaStreamParameters params;
  PaError err = paNoError;

  if (self->stream != NULL)
    return TRUE;
  if (!self->pa_initialized)
    {
      if ((err = Pa_Initialize ()) != paNoError)
        {
          g_set_error (error, CS_AUDIO_ERROR, CS_AUDIO_ERROR_NO_DEVICE, "%s (%s)",
                       NO_DEVICE_MESSAGE, Pa_GetErrorText (err));
          return FALSE;
        }
      self->pa_initialized = TRUE;
    }
  device = Pa_GetDefaultOutputDevice ();
  if (device == paNoDevice || (info = Pa_GetDeviceInfo (device)) == NULL)
    {
      g_set_error_literal (error, CS_AUDIO_ERROR, CS_AUDIO_ERROR_NO_DEVICE, NO_DEVICE_MESSAGE);
      return FALSE;
    }
  params.device = device;
  params.channelCount = OUT_CHANNELS;
  params.sampleFormat = paInt16;
  params.suggestedLatency = info->defaultHighOutputLatency;
  params.hostApiSpecificStreamInfo = NULL;
  for (guint i = 0; i < G_N_ELEMENTS (fallback_rates); i++)
    {
      double rate = i == 0 ? info->defaultSampleRate : fallback_rates[i];

      if (rate < 8000)
        continue;
      /* 16-bit without dither: what is decoded is what the device gets. */
      err = Pa_OpenStream (&self->stream, NULL, &params, rate, paFramesPerBufferUnspecified,
                           paDitherOff, output_callback, self);
      if (err == paNoError)
        {
          self->device_rate = (guint) rate;
          break;
        }
      self->stream = NULL;
    }
  if (self->stream == NULL)
    {
      g_set_error (error, CS_AUDIO_ERROR, CS_AUDIO_ERROR_DEVICE,
                   "The audio output device could not be opened: %s", Pa_GetErrorText (err));
      return FALSE;
    }
  return TRUE;
}

/* Device-rate frames for the current render, from a position in seconds. */
static void
setup_resampler (CsAudioPlayer *self, double position_s)
{
  g_clear_pointer (&self->resampler, cs_audio_resampler_free);
  self->resampler = cs_audio_resampler_new (self->render->sample_rate, self->device_rate);
  g_mutex_lock (&self->lock);
  self->end_frame = cs_audio_resampler_output_frames (self->resampler,
                                                      cs_audio_render_get_n_frames (self->render));
  self->base_frame = self->feed_frame
      = MIN ((gsize) (position_s * self->device_rate + 0.5), self->end_frame);
  g_mutex_unlock (&self->lock);
}

gboolean
cs_audio_player_play (CsAudioPlayer *self, GError **error)
{
  PaError err;
  gboolean fresh;
  double position_s;

  g_return_val_if_fail (CS_IS_AUDIO_PLAYER (self), FALSE);
  if (self->render == NULL || cs_audio_render_get_n_frames (self->render) == 0)
    {
      g_set_error_literal (error, CS_AUDIO_ERROR, CS_AUDIO_ERROR_NO_MEDIA, "Nothing to play");
      return FALSE;
    }
  if (self->state == CS_AUDIO_PLAYER_PLAYING)
    return TRUE;
  fresh = self->stream == NULL;
  position_s = cs_audio_player_get_position (self);
  if (!open_stream (self, error))
    return FALSE;
  if (fresh)
    setup_resampler (self, position_s);
  if (self->base_frame >= self->end_frame)
    self->base_frame = 0; /* played to the end: start again */
  halt_stream (self);

  /* Fill the ring before starting, so the first callbacks have audio. */
  g_mutex_lock (&self->lock);
  self->feeding = TRUE;
  while (feed_chunk (self))
    ;
  g_cond_signal (&self->wake);
  g_mutex_unlock (&self->lock);

  if ((err = Pa_StartStream (self->stream)) != paNoError)
    {
      g_set_error (error, CS_AUDIO_ERROR, CS_AUDIO_ERROR_DEVICE,
                   "The audio output device could not be started: %s", Pa_GetErrorText (err));
      close_stream (self);
      return FALSE;
    }
  self->timer = g_timeout_source_new (POSITION_INTERVAL_MS);
  g_source_set_callback (self->timer, on_timer, self, NULL);
  g_source_set_static_name (self->timer, "[callscope] audio position");
  g_source_attach (self->timer, self->context);
  set_state (self, CS_AUDIO_PLAYER_PLAYING);
  return TRUE;
}

void
cs_audio_player_pause (CsAudioPlayer *self)
{
  g_return_if_fail (CS_IS_AUDIO_PLAYER (self));
  if (self->state != CS_AUDIO_PLAYER_PLAYING)
    return;
  halt_stream (self);
  set_state (self, CS_AUDIO_PLAYER_PAUSED);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_POSITION]);
}

void
cs_audio_player_stop (CsAudioPlayer *self)
{
  g_return_if_fail (CS_IS_AUDIO_PLAYER (self));
  close_stream (self);
  self->base_frame = self->feed_frame = 0;
  set_state (self, CS_AUDIO_PLAYER_STOPPED);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_POSITION]);
}

void
cs_audio_player_seek (CsAudioPlayer *self, double seconds)
{
  gboolean was_playing;
  double rate;

  g_return_if_fail (CS_IS_AUDIO_PLAYER (self));
  if (self->render == NULL)
    return;
  was_playing = self->state == CS_AUDIO_PLAYER_PLAYING;
  halt_stream (self);
  seconds = CLAMP (seconds, 0.0, cs_audio_render_get_duration_s (self->render));
  rate = self->device_rate > 0 ? self->device_rate : self->render->sample_rate;
  if (self->device_rate == 0)
    self->end_frame = cs_audio_render_get_n_frames (self->render);
  self->base_frame = self->feed_frame = MIN ((gsize) (seconds * rate + 0.5), self->end_frame);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_POSITION]);
  if (was_playing && !cs_audio_player_play (self, NULL))
    set_state (self, CS_AUDIO_PLAYER_STOPPED);
}

void
cs_audio_player_set_render (CsAudioPlayer *self, CsAudioRender *render)
{
  g_return_if_fail (CS_IS_AUDIO_PLAYER (self));
  close_stream (self);
  g_mutex_lock (&self->lock);
  g_clear_pointer (&self->render, cs_audio_render_unref);
  self->render = render != NULL ? cs_audio_render_ref (render) : NULL;
  self->base_frame = self->feed_frame = 0;
  self->end_frame = render != NULL ? cs_audio_render_get_n_frames (render) : 0;
  g_mutex_unlock (&self->lock);
  set_state (self, CS_AUDIO_PLAYER_STOPPED);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DURATION]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_POSITION]);
}

CsAudioRender *
cs_audio_player_get_render (CsAudioPlayer *self)
{
  return self->render;
}

CsAudioPlayerState
cs_audio_player_get_state (CsAudioPlayer *self)
{
  return self->state;
}

double
cs_audio_player_get_position (CsAudioPlayer *self)
{
  double rate;

  if (self->render == NULL)
    return 0.0;
  rate = self->device_rate > 0 ? self->device_rate : self->render->sample_rate;
  return rate > 0 ? (double) position_frame (self) / rate : 0.0;
}

double
cs_audio_player_get_duration (CsAudioPlayer *self)
{
  return self->render != NULL ? cs_audio_render_get_duration_s (self->render) : 0.0;
}

gint64
cs_audio_player_get_position_ns (CsAudioPlayer *self)
{
  if (self->render == NULL)
    return 0;
  return self->render->start_ns + (gint64) (cs_audio_player_get_position (self) * 1e9);
}

void
cs_audio_player_set_volume (CsAudioPlayer *self, double volume)
{
  volume = CLAMP (volume, 0.0, 1.0);
  if (fabs (volume - cs_audio_player_get_volume (self)) < 1e-6)
    return;
  atomic_store (&self->volume_q16, (int) (volume * 65536.0 + 0.5));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VOLUME]);
}

double
cs_audio_player_get_volume (CsAudioPlayer *self)
{
  return (double) atomic_load (&self->volume_q16) / 65536.0;
}

guint
cs_audio_player_get_device_rate (CsAudioPlayer *self)
{
  return self->device_rate;
}

static void
cs_audio_player_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  CsAudioPlayer *self = CS_AUDIO_PLAYER (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_int (value, self->state);
      break;
    case PROP_POSITION:
      g_value_set_double (value, cs_audio_player_get_position (self));
      break;
    case PROP_DURATION:
      g_value_set_double (value, cs_audio_player_get_duration (self));
      break;
    case PROP_VOLUME:
      g_value_set_double (value, cs_audio_player_get_volume (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_audio_player_set_property (GObject *object, guint prop_id, const GValue *value,
                              GParamSpec *pspec)
{
  CsAudioPlayer *self = CS_AUDIO_PLAYER (object);

  switch (prop_id)
    {
    case PROP_POSITION:
      cs_audio_player_seek (self, g_value_get_double (value));
      break;
    case PROP_VOLUME:
      cs_audio_player_set_volume (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cs_audio_player_finalize (GObject *object)
{
  CsAudioPlayer *self = CS_AUDIO_PLAYER (object);

  close_stream (self);
  g_mutex_lock (&self->lock);
  self->quit = TRUE;
  g_cond_signal (&self->wake);
  g_mutex_unlock (&self->lock);
  g_thread_join (self->feeder);
  if (self->pa_initialized)
    Pa_Terminate ();
  g_clear_pointer (&self->render, cs_audio_render_unref);
  cs_audio_ring_free (self->ring);
  g_main_context_unref (self->context);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->wake);
  G_OBJECT_CLASS (cs_audio_player_parent_class)->finalize (object);
}

static void
cs_audio_player_class_init (CsAudioPlayerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = cs_audio_player_get_property;
  object_class->set_property = cs_audio_player_set_property;
  object_class->finalize = cs_audio_player_finalize;

  properties[PROP_STATE]
      = g_param_spec_int ("state", NULL, NULL, CS_AUDIO_PLAYER_STOPPED, CS_AUDIO_PLAYER_PAUSED,
                          CS_AUDIO_PLAYER_STOPPED, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_POSITION]
      = g_param_spec_double ("position", NULL, NULL, 0, G_MAXDOUBLE, 0,
                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DURATION] = g_param_spec_double ("duration", NULL, NULL, 0, G_MAXDOUBLE, 0,
                                                   G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_VOLUME]
      = g_param_spec_double ("volume", NULL, NULL, 0, 1, 1,
                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
cs_audio_player_init (CsAudioPlayer *self)
{
  self->context = g_main_context_ref_thread_default ();
  self->ring = cs_audio_ring_new (RING_FRAMES * OUT_CHANNELS);
  g_mutex_init (&self->lock);
  g_cond_init (&self->wake);
  atomic_init (&self->consumed_frames, 0);
  atomic_init (&self->fed_all, FALSE);
  atomic_init (&self->finished, FALSE);
  atomic_init (&self->volume_q16, 65536);
  self->feeder = g_thread_new ("cs-audio-feed", feeder_main, self);
}

CsAudioPlayer *
cs_audio_player_new (void)
{
  return g_object_new (CS_TYPE_AUDIO_PLAYER, NULL);
}
