/* cs-rtp-run.c — RTP stream identity */
#include "cs-rtp-run.h"

gboolean
cs_rtp_stream_key_equal (gconstpointer a, gconstpointer b)
{
  const CsRtpStreamKey *x = a, *y = b;

  return x->ssrc == y->ssrc && cs_endpoint_equal (&x->src, &y->src)
         && cs_endpoint_equal (&x->dst, &y->dst);
}
