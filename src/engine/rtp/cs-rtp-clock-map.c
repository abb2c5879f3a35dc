/* cs-rtp-clock-map.c — the clock rate of each RTP payload type, as Wireshark's RTP analysis
 * knows it (its static table, then the SDP's rtpmap lines) */
#include "cs-rtp-clock-map.h"

#include "cs-codec.h"

#include <string.h>

/* Wireshark's clock table for static payload types (tap-rtp-analysis.c). */
static guint
static_clock_rate (guint pt)
{
  switch (pt)
    {
    case 0:
    case 1:
    case 2:
    case 3:
    case 4:
    case 5:
    case 7:
    case 8:
    case 9:
    case 12:
    case 13:
    case 15:
    case 18:
    case 19:
      return 8000;
    case 6:
      return 16000;
    case 10:
    case 11:
      return 44100;
    case 16:
      return 11025;
    case 17:
      return 22050;
    case 14:
    case 25:
    case 26:
    case 28:
    case 31:
    case 32:
    case 33:
    case 34:
      return 90000;
    default:
      return 0;
    }
}

void
cs_rtp_clock_map_init_static (CsRtpClockMap *map)
{
  memset (map, 0, sizeof *map);
  for (guint pt = 0; pt < 96; pt++)
    map->clock_rate_by_pt[pt] = static_clock_rate (pt);
  map->comfort_noise_pt[13] = 1;
  map->comfort_noise_pt[19] = 1;
}

void
cs_rtp_clock_map_set_rtpmap (CsRtpClockMap *map, guint payload_type, const char *encoding,
                             guint clock_rate)
{
  const CsCodecInfo *info;

  /* Wireshark looks static payload types up in its own table only. */
  if (payload_type < 96 || payload_type > 127 || encoding == NULL)
    return;
  if (cs_codec_is_telephone_event (encoding))
    {
      map->telephone_event_pt[payload_type] = 1;
      map->clock_rate_by_pt[payload_type] = clock_rate != 0 ? clock_rate : 8000;
      return;
    }
  map->telephone_event_pt[payload_type] = 0;
  if (clock_rate == 0 && (info = cs_codec_lookup_encoding (encoding, 0)) != NULL)
    clock_rate = info->clock_rate;
  map->clock_rate_by_pt[payload_type] = clock_rate;
}
