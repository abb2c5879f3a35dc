/* cs-cli-audio.c — audio: a call (stereo) or a stream decoded as the endpoints
 * heard it, written to WAV or FLAC */
#include <errno.h>
#include <glib.h>
#include <stdlib.h>

#include "cs-audio-export.h"
#include "cs-audio-render.h"
#include "cs-cli-commands.h"
#include "cs-cli-common.h"

/* "off", "adaptive", "adaptive:MS" or a fixed delay in ms. */
static gboolean
parse_jitter_buffer (const char *text, CsJitterBufferConfig *jb)
{
  char *end = NULL;
  guint64 ms;

  if (text == NULL)
    return TRUE;
  if (g_ascii_strcasecmp (text, "off") == 0)
    {
      jb->kind = CS_JITTER_BUFFER_OFF;
      return TRUE;
    }
  if (g_str_has_prefix (text, "adaptive"))
    {
      jb->kind = CS_JITTER_BUFFER_ADAPTIVE;
      text += strlen ("adaptive");
      if (*text == '\0')
        return TRUE;
      if (*text++ != ':')
        return FALSE;
    }
  else
    jb->kind = CS_JITTER_BUFFER_FIXED;
  errno = 0;
  ms = g_ascii_strtoull (text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || ms > 10000)
    return FALSE;
  if (ms == 0 && jb->kind == CS_JITTER_BUFFER_FIXED)
    jb->kind = CS_JITTER_BUFFER_OFF;
  jb->delay_ms = (guint) ms;
  return TRUE;
}

int
cs_cli_cmd_audio (int argc, char **argv)
{
  CsCliOptions opts = { 0 };
  g_autofree char *call_arg = NULL;
  g_autofree char *jitter_arg = NULL;
  gint stream_id = 0, rate = 0;
  gboolean mixed = FALSE, silent_cn = FALSE;
  GOptionEntry extra[] = {
    { "call", 'c', 0, G_OPTION_ARG_STRING, &call_arg, "Call number or Call-ID (stereo)", "CALL" },
    { "stream", 's', 0, G_OPTION_ARG_INT, &stream_id, "Stream id (mono)", "ID" },
    { "jitter-buffer", 'j', 0, G_OPTION_ARG_STRING, &jitter_arg,
      "Jitter buffer: delay in ms (default 50), off, adaptive or adaptive:MS", "MS" },
    { "mixed", 0, 0, G_OPTION_ARG_NONE, &mixed, "Both directions in one channel", NULL },
    { "rate", 'r', 0, G_OPTION_ARG_INT, &rate, "Output sample rate in Hz", "HZ" },
    { "silent-comfort-noise", 0, 0, G_OPTION_ARG_NONE, &silent_cn,
      "Comfort noise as silence instead of low noise", NULL },
    { NULL },
  };
  g_autoptr (CsAnalysis) analysis = NULL;
  g_autoptr (CsAudioRender) render = NULL;
  g_autoptr (GError) error = NULL;
  CsAudioRenderOptions ropts;
  CsAudioFileFormat format;
  int status = CS_EXIT_OK;

  if (!cs_cli_parse (argc, argv, "FILE (--call CALL | --stream ID) -o out.wav|out.flac", extra,
                     &opts))
    return CS_EXIT_USAGE;
  cs_audio_render_options_init (&ropts);
  if ((call_arg == NULL) == (stream_id <= 0))
    status = cs_cli_usage_error (argv[0], "give either --call CALL or --stream ID");
  else if (opts.output == NULL || !cs_audio_file_format_from_path (opts.output, &format))
    status = cs_cli_usage_error (argv[0], "give -o FILE ending in .wav or .flac");
  else if (!parse_jitter_buffer (jitter_arg, &ropts.playout.jb))
    status = cs_cli_usage_error (
        argv[0], "--jitter-buffer takes a delay in ms, off, adaptive or adaptive:MS");
  else if (rate < 0 || (rate > 0 && (rate < 8000 || rate > 192000)))
    status = cs_cli_usage_error (argv[0], "--rate takes 8000 .. 192000 Hz");
  if (status != CS_EXIT_OK)
    {
      cs_cli_options_clear (&opts);
      return status;
    }
  ropts.layout = mixed ? CS_AUDIO_LAYOUT_MIXED : CS_AUDIO_LAYOUT_STEREO;
  ropts.sample_rate = (guint) rate;
  ropts.playout.comfort_noise = !silent_cn;

  analysis = cs_cli_load (&opts, &status);
  if (analysis == NULL)
    {
      cs_cli_options_clear (&opts);
      return status;
    }
  if (call_arg != NULL)
    {
      CsCall *call = cs_analysis_find_call (analysis, call_arg);

      if (call == NULL)
        g_printerr ("callscope-cli audio: no call “%s” in the capture\n", call_arg);
      else
        render = cs_audio_render_call (analysis, call, &ropts, NULL, &error);
    }
  else
    {
      CsStream *stream = cs_analysis_lookup_stream (analysis, (guint) stream_id);

      if (stream == NULL)
        g_printerr ("callscope-cli audio: no stream %d in the capture\n", stream_id);
      else
        render = cs_audio_render_stream (analysis, stream, &ropts, &error);
    }
  if (render != NULL)
    for (guint i = 0; i < render->messages->len; i++)
      g_printerr ("callscope-cli audio: %s\n",
                  (const char *) g_ptr_array_index (render->messages, i));
  if (error != NULL)
    g_printerr ("callscope-cli audio: %s\n", error->message);
  if (render == NULL)
    status = CS_EXIT_UNREADABLE;
  else if (!cs_audio_export (render, opts.output, format, &error))
    {
      g_printerr ("callscope-cli audio: %s\n", error->message);
      status = CS_EXIT_UNREADABLE;
    }
  else
    {
      if (!opts.quiet)
        g_printerr ("callscope-cli audio: wrote %s: %.3f s, %u Hz, %u channel%s, %u marks\n",
                    opts.output, cs_audio_render_get_duration_s (render), render->sample_rate,
                    render->channels, render->channels == 1 ? "" : "s", render->marks->len);
      status = cs_cli_damage_status (analysis);
    }
  cs_cli_options_clear (&opts);
  return status;
}
