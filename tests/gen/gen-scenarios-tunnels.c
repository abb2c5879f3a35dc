/* gen-scenarios-tunnels.c — the same short call inside each tunnel (and in each codec) a carrier, a
 * mobile core or a mirror port puts around VoIP: the analysis must find the calls and streams of
 * the plain call (same expect.json truth), addressed by the inner packets */
#include "gen-scenarios.h"

#include <string.h>

#define T0 (GEN_EPOCH + GEN_MS (100))

static void
tunnelled_call (GenCapture *cap, GenTunnel tunnel)
{
  GenCast cast;
  GenCallPlan plan;

  gen_cast_init (&cast);
  gen_plan_init (&plan, T0, &cast.alice, &cast.bob, &cast.proxy);
  cap->tunnel = tunnel;
  gen_call_clean (cap, &plan, GEN_S (3));
  cap->tunnel = GEN_TUNNEL_NONE;
}

void
gen_scn_gtp_u (GenCapture *cap)
{
  tunnelled_call (cap, GEN_TUNNEL_GTP_U);
}

void
gen_scn_esp_null (GenCapture *cap)
{
  CsEndpoint a, b;
  guint8 esp[120];

  tunnelled_call (cap, GEN_TUNNEL_ESP_NULL);
  /* and three packets of another SA that is really encrypted: counted, not decoded */
  gen_endpoint (&a, "198.51.100.7", 0);
  gen_endpoint (&b, "198.51.100.8", 0);
  for (guint n = 0; n < 3; n++)
    {
      g_autoptr (GByteArray) ip = NULL;

      for (guint i = 0; i < sizeof esp; i++)
        esp[i] = (guint8) gen_rand_next (&cap->rand);
      esp[sizeof esp - 13] = 0xfe; /* a next header no decoder takes */
      ip = gen_build_ip (cap, &a, &b, 50, esp, sizeof esp);
      gen_capture_add_ip (cap, T0 + GEN_S (1) + n * GEN_MS (20), ip->data, ip->len);
    }
  /* capture-wide, no frames (docs/findings.md) */
  gen_expect_add_finding (cap->expect, "encrypted-traffic", "warning", NULL, NULL);
}

void
gen_scn_gre (GenCapture *cap)
{
  tunnelled_call (cap, GEN_TUNNEL_GRE);
}

void
gen_scn_gre_teb (GenCapture *cap)
{
  tunnelled_call (cap, GEN_TUNNEL_GRE_TEB);
}

void
gen_scn_erspan1 (GenCapture *cap)
{
  tunnelled_call (cap, GEN_TUNNEL_ERSPAN1);
}

void
gen_scn_erspan2 (GenCapture *cap)
{
  tunnelled_call (cap, GEN_TUNNEL_ERSPAN2);
}

void
gen_scn_erspan3 (GenCapture *cap)
{
  tunnelled_call (cap, GEN_TUNNEL_ERSPAN3);
}

void
gen_scn_vxlan (GenCapture *cap)
{
  tunnelled_call (cap, GEN_TUNNEL_VXLAN);
}

void
gen_scn_geneve (GenCapture *cap)
{
  tunnelled_call (cap, GEN_TUNNEL_GENEVE);
}

void
gen_scn_4in6 (GenCapture *cap)
{
  tunnelled_call (cap, GEN_TUNNEL_IN_IPV6);
}

void
gen_scn_6in4 (GenCapture *cap)
{
  /* the IPv6 call of the "ipv6" scenario, through an IPv4-only core */
  cap->tunnel = GEN_TUNNEL_IP_IN_IP;
  gen_scn_ipv6 (cap);
  cap->tunnel = GEN_TUNNEL_NONE;
}

/* A clean call in one codec, both directions carrying its tone (gen-codecs.c). */
static void
codec_call (GenCapture *cap, const char *name)
{
  GenCast cast;
  GenCallPlan plan;

  gen_cast_init (&cast);
  gen_plan_init (&plan, T0, &cast.alice, &cast.bob, &cast.proxy);
  plan.codec = gen_codec_find (name);
  g_assert (plan.codec != NULL);
  plan.pt = plan.codec->pt;
  gen_call_clean (cap, &plan, GEN_S (3));
}

#define CODEC_SCENARIO(fn, name)                                                                   \
  void fn (GenCapture *cap)                                                                        \
  {                                                                                                \
    codec_call (cap, name);                                                                        \
  }
CODEC_SCENARIO (gen_scn_codec_gsm, "codec-gsm")
CODEC_SCENARIO (gen_scn_codec_g726_16, "codec-g726-16")
CODEC_SCENARIO (gen_scn_codec_g726_24, "codec-g726-24")
CODEC_SCENARIO (gen_scn_codec_g726_32, "codec-g726-32")
CODEC_SCENARIO (gen_scn_codec_g726_40, "codec-g726-40")
CODEC_SCENARIO (gen_scn_codec_aal2_g726_16, "codec-aal2-g726-16")
CODEC_SCENARIO (gen_scn_codec_aal2_g726_24, "codec-aal2-g726-24")
CODEC_SCENARIO (gen_scn_codec_aal2_g726_32, "codec-aal2-g726-32")
CODEC_SCENARIO (gen_scn_codec_aal2_g726_40, "codec-aal2-g726-40")
CODEC_SCENARIO (gen_scn_codec_amr_octet, "codec-amr-octet")
CODEC_SCENARIO (gen_scn_codec_amr_efficient, "codec-amr-efficient")
CODEC_SCENARIO (gen_scn_codec_amr_wb_octet, "codec-amr-wb-octet")
CODEC_SCENARIO (gen_scn_codec_amr_wb_efficient, "codec-amr-wb-efficient")
CODEC_SCENARIO (gen_scn_codec_speex_nb, "codec-speex-nb")
CODEC_SCENARIO (gen_scn_codec_speex_wb, "codec-speex-wb")
