/* cs-audio-formats.c — payload type → encoding for the decoders */
#include "cs-audio-formats.h"

#include <string.h>

#include "callscope-engine.h"

void
cs_audio_format_map_init (CsAudioFormatMap *map)
{
  memset (map, 0, sizeof *map);
  for (guint pt = 0; pt < 35; pt++)
    {
      const CsCodecInfo *info = cs_codec_lookup_static (pt);

      if (info == NULL)
        continue;
      map->encoding[pt] = g_strdup (info->encoding);
      map->clock_rate[pt] = info->clock_rate;
      map->channels[pt] = pt == 10 ? 2 : 1; /* PT 10 is L16 stereo */
    }
}

void
cs_audio_format_map_clear (CsAudioFormatMap *map)
{
  for (guint pt = 0; pt < 128; pt++)
    {
      g_clear_pointer (&map->encoding[pt], g_free);
      g_clear_pointer (&map->fmtp[pt], g_free);
    }
}

void
cs_audio_format_map_add_sdp (CsAudioFormatMap *map, const CsSdp *sdp)
{
  if (sdp == NULL || sdp->media == NULL)
    return;
  for (guint m = 0; m < sdp->media->len; m++)
    {
      const CsSdpMedia *media = g_ptr_array_index (sdp->media, m);

      if (media->formats == NULL || g_strcmp0 (media->media, "audio") != 0)
        continue;
      for (guint f = 0; f < media->formats->len; f++)
        {
          const CsSdpFormat *format = &g_array_index (media->formats, CsSdpFormat, f);
          guint pt = format->payload_type & 0x7f;

          if (map->fmtp[pt] == NULL && format->fmtp != NULL)
            map->fmtp[pt] = g_strdup (format->fmtp);
          if (format->encoding == NULL)
            continue;
          /* Static types keep their table entry; a dynamic one its first rtpmap. */
          if (map->encoding[pt] != NULL)
            continue;
          map->encoding[pt] = g_strdup (format->encoding);
          map->clock_rate[pt] = format->clock_rate;
          map->channels[pt] = MAX (format->channels, 1);
        }
    }
}

void
cs_audio_format_map_add_call (CsAudioFormatMap *map, CsCall *call)
{
  for (guint i = 0; i < cs_call_get_n_messages (call); i++)
    {
      CsSipMessage *msg = cs_call_get_message (call, i);

      if (msg != NULL && cs_sip_message_get_sdp (msg) != NULL)
        cs_audio_format_map_add_sdp (map, cs_sip_message_get_sdp (msg));
    }
}
