/* cs-audio-player.h — plays a CsAudioRender on the default output device
 * (PortAudio, callback mode). No GTK: the app and tests drive it alike. */
#pragma once

#include <glib-object.h>

#include "cs-audio-render.h"

G_BEGIN_DECLS

typedef enum
{
  CS_AUDIO_PLAYER_STOPPED,
  CS_AUDIO_PLAYER_PLAYING,
  CS_AUDIO_PLAYER_PAUSED,
} CsAudioPlayerState;

#define CS_TYPE_AUDIO_PLAYER (cs_audio_player_get_type ())
G_DECLARE_FINAL_TYPE (CsAudioPlayer, cs_audio_player, CS, AUDIO_PLAYER, GObject)

/* Position and state are reported (notify::position, notify::state) on the
 * main context that is the thread default when the player is created. */
CsAudioPlayer *cs_audio_player_new (void);

/* TRUE when PortAudio has a default output device; else FALSE with
 * CS_AUDIO_ERROR_NO_DEVICE and a message a person can act on. */
gboolean cs_audio_player_probe_device (GError **error);

/* Stops and replaces what is played (NULL clears). The player keeps a ref. */
void cs_audio_player_set_render (CsAudioPlayer *self, CsAudioRender *render);
CsAudioRender *cs_audio_player_get_render (CsAudioPlayer *self);

/* Starts or resumes from the current position (from the start once finished).
 * CS_AUDIO_ERROR_NO_DEVICE / _DEVICE / _NO_MEDIA on failure. */
gboolean cs_audio_player_play (CsAudioPlayer *self, GError **error);
void cs_audio_player_pause (CsAudioPlayer *self);
/* Stops and goes back to the start. */
void cs_audio_player_stop (CsAudioPlayer *self);
/* Seconds from the start of the render; clamped to 0..duration. */
void cs_audio_player_seek (CsAudioPlayer *self, double seconds);

CsAudioPlayerState cs_audio_player_get_state (CsAudioPlayer *self);
double cs_audio_player_get_position (CsAudioPlayer *self); /* seconds */
double cs_audio_player_get_duration (CsAudioPlayer *self); /* seconds */
/* Capture time (ns since the epoch) of the position. */
gint64 cs_audio_player_get_position_ns (CsAudioPlayer *self);
/* 0 (mute) .. 1 (as decoded); applies at once. */
void cs_audio_player_set_volume (CsAudioPlayer *self, double volume);
double cs_audio_player_get_volume (CsAudioPlayer *self);
/* Sample rate of the open device, 0 when none is open. */
guint cs_audio_player_get_device_rate (CsAudioPlayer *self);

G_END_DECLS
