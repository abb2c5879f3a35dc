/* fuzz-rtcp.c — compound RTCP: SR, RR, SDES, BYE, XR VoIP metrics */
#include "fuzz-common.h"

#include "rtp/cs-rtcp.h"
#include "rtp/cs-rtp.h"

#include <string.h>

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  CsRtcpCompound rtcp;

  cs_fuzz_init_once ();
  cs_rtcp_looks_like (data, size);
  memset (&rtcp, 0, sizeof rtcp);
  if (cs_rtcp_parse (data, size, &rtcp))
    {
      g_assert (rtcp.n_blocks <= CS_RTCP_MAX_REPORT_BLOCKS);
      g_assert (memchr (rtcp.cname, '\0', sizeof rtcp.cname) != NULL);
      for (guint i = 0; i < rtcp.n_blocks; i++)
        cs_rtcp_rtt_ms (rtcp.blocks[i].lsr, rtcp.blocks[i].dlsr,
                        cs_rtcp_ntp_from_unix_ns (G_GINT64_CONSTANT (1700000000) * 1000000000));
    }
  cs_rtcp_trailing_ok (data, MIN (size, 3));
  return 0;
}
