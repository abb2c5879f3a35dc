/* cs-audio-export.c — libsndfile writer */
#include "cs-audio-export.h"

#include <sndfile.h>

#include "cs-audio-error.h"

gboolean
cs_audio_file_format_from_path (const char *path, CsAudioFileFormat *format)
{
  if (path == NULL)
    return FALSE;
  if (g_str_has_suffix (path, ".wav") || g_str_has_suffix (path, ".WAV"))
    *format = CS_AUDIO_FILE_WAV;
  else if (g_str_has_suffix (path, ".flac") || g_str_has_suffix (path, ".FLAC"))
    *format = CS_AUDIO_FILE_FLAC;
  else
    return FALSE;
  return TRUE;
}

gboolean
cs_audio_export (const CsAudioRender *render, const char *path, CsAudioFileFormat format,
                 GError **error)
{
  SF_INFO info = { 0 };
  SNDFILE *file;
  sf_count_t frames = (sf_count_t) cs_audio_render_get_n_frames (render);
  sf_count_t written;

  info.samplerate = (int) render->sample_rate;
  info.channels = (int) render->channels;
  info.format = (format == CS_AUDIO_FILE_FLAC ? SF_FORMAT_FLAC : SF_FORMAT_WAV) | SF_FORMAT_PCM_16;
  file = sf_open (path, SFM_WRITE, &info);
  if (file == NULL)
    {
      g_set_error (error, CS_AUDIO_ERROR, CS_AUDIO_ERROR_WRITE, "Cannot write “%s”: %s", path,
                   sf_strerror (NULL));
      return FALSE;
    }
  written = sf_writef_short (file, (const short *) (gconstpointer) render->samples->data, frames);
  if (written != frames)
    {
      g_set_error (error, CS_AUDIO_ERROR, CS_AUDIO_ERROR_WRITE, "Writing “%s” failed: %s", path,
                   sf_strerror (file));
      sf_close (file);
      return FALSE;
    }
  if (sf_close (file) != 0)
    {
      g_set_error (error, CS_AUDIO_ERROR, CS_AUDIO_ERROR_WRITE, "Closing “%s” failed", path);
      return FALSE;
    }
  return TRUE;
}
