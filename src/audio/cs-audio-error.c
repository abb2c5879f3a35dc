/* cs-audio-error.c — the GError domain of the audio module */
#include "cs-audio-error.h"

G_DEFINE_QUARK (cs - audio - error - quark, cs_audio_error)
