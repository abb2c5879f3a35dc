/* cs-audio-export.h — a render written to WAV or FLAC (libsndfile) */
#pragma once

#include "cs-audio-render.h"

G_BEGIN_DECLS

typedef enum
{
  CS_AUDIO_FILE_WAV,  /* 16-bit PCM */
  CS_AUDIO_FILE_FLAC, /* 16-bit, lossless */
} CsAudioFileFormat;

/* From the file name's extension (.wav, .flac, case-insensitive); FALSE for others. */
gboolean cs_audio_file_format_from_path (const char *path, CsAudioFileFormat *format);

/* Writes every frame of the render. CS_AUDIO_ERROR_WRITE with libsndfile's
 * reason when the file cannot be written. */
gboolean cs_audio_export (const CsAudioRender *render, const char *path, CsAudioFileFormat format,
                          GError **error);

G_END_DECLS
