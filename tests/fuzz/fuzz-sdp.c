/* fuzz-sdp.c — SDP parsing and the questions the stream binder asks of it */
#include "fuzz-common.h"

#include "rtp/cs-srtp-key.h"
#include "sip/cs-sdp.h"

#include <string.h>

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  CsSdp *sdp;
  guint sum = 0;

  cs_fuzz_init_once ();
  sdp = cs_sdp_parse ((const char *) data, size, NULL);
  if (sdp == NULL)
    return 0;
  g_assert (sdp->media->len <= CS_SDP_MAX_MEDIA);
  cs_sdp_direction_to_string (sdp->direction);
  for (guint i = 0; i < sdp->media->len; i++)
    {
      const CsSdpMedia *m = g_ptr_array_index (sdp->media, i);

      g_assert (m->formats == NULL || m->formats->len <= CS_SDP_MAX_FORMATS);
      g_assert (m->connection.family == 0 || m->connection.family == 4
                || m->connection.family == 6);
      sum += cs_sdp_media_is_hold (m);
      /* the a=crypto lines as the SRTP binder reads them */
      for (guint c = 0; c < CS_SDP_MAX_CRYPTO && m->crypto[c] != NULL; c++)
        {
          CsSrtpKey key;

          if (cs_srtp_key_parse_crypto (m->crypto[c], strlen (m->crypto[c]), &key, NULL))
            g_assert (key.n_keys >= 1 && key.n_keys <= CS_SRTP_MAX_KEYS);
        }
      sum += cs_sdp_direction_to_string (m->direction)[0];
      for (guint f = 0; m->formats != NULL && f < m->formats->len; f++)
        {
          const CsSdpFormat *fmt = &g_array_index (m->formats, CsSdpFormat, f);

          g_assert (cs_sdp_media_find_format (m, fmt->payload_type) != NULL);
          if (fmt->encoding != NULL)
            g_assert (g_utf8_validate (fmt->encoding, -1, NULL));
        }
    }
  cs_sdp_free (sdp);
  return sum == G_MAXUINT;
}
