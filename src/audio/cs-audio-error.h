/* cs-audio-error.h — the GError domain of the audio module */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define CS_AUDIO_ERROR (cs_audio_error_quark ())

typedef enum
{
  CS_AUDIO_ERROR_NO_DEVICE,   /* no audio output device (PortAudio found none) */
  CS_AUDIO_ERROR_DEVICE,      /* the device would not open or start */
  CS_AUDIO_ERROR_UNSUPPORTED, /* no decoder for the payload format */
  CS_AUDIO_ERROR_NO_MEDIA,    /* nothing decodable in the call or stream */
  CS_AUDIO_ERROR_NOT_FOUND,   /* no such call or stream */
  CS_AUDIO_ERROR_WRITE,       /* the audio file could not be written */
  CS_AUDIO_ERROR_ENCRYPTED,   /* SRTP without a key that opens it: never played as noise */
} CsAudioError;

GQuark cs_audio_error_quark (void);

G_END_DECLS
