/* gen-scenarios.c — the scenario table and the demo capture */
#include "gen-scenarios.h"

#include <string.h>

static const GenScenario scenarios[] = {
  { "clean", "10 s call with two-way audio, BYE and 200", "pcapng", gen_scn_clean },
  { "loss-jitter", "A-law call, ~5% burst loss and 15-40 ms jitter on bob->alice", "pcapng",
    gen_scn_loss_jitter },
  { "one-way", "answered call where only alice->bob RTP flows", "pcapng", gen_scn_one_way },
  { "busy-486", "INVITE, 100, 180, 486 Busy Here, ACK", "pcapng", gen_scn_busy },
  { "cancel", "INVITE, 100, 180, CANCEL, 200, 487, ACK", "pcapng", gen_scn_cancel },
  { "slow-ring", "180 after 6 s, 200 after 25 s", "pcapng", gen_scn_slow_ring },
  { "retransmit", "INVITE sent 3 times before 100, 200 OK retransmitted", "pcapng",
    gen_scn_retransmit },
  { "reinvite", "hold (sendonly/recvonly) by re-INVITE, resume on a new media port", "pcapng",
    gen_scn_reinvite },
  { "early-media", "183 with SDP and ring-back RTP before the 200", "pcapng", gen_scn_early_media },
  { "forking", "one INVITE, two 180s with different To-tags, one 200", "pcapng", gen_scn_forking },
  { "reused-callid", "5 calls sharing one Call-ID (3 From-tags, one tag reused twice)", "pcapng",
    gen_scn_reused_callid },
  { "no-answer", "INVITE retransmitted until Timer B, never a response", "pcapng",
    gen_scn_no_answer },
  { "state-trying-only", "INVITE answered by 100 only, capture ends 5 s later", "pcapng",
    gen_scn_state_trying_only },
  { "state-timer-b", "INVITE answered by 100 only, capture runs 40 s (past Timer B)", "pcapng",
    gen_scn_state_timer_b },
  { "state-ringing-only", "INVITE, 100, 180, then nothing for 20 s", "pcapng",
    gen_scn_state_ringing_only },
  { "state-487-no-cancel", "INVITE, 100, 180, 487 with no CANCEL, ACK", "pcapng",
    gen_scn_state_487_no_cancel },
  { "state-cancel-crossing-200", "CANCEL crossing the 200: 200 to both, ACK, talk, BYE", "pcapng",
    gen_scn_state_cancel_crossing_200 },
  { "state-rejected-then-bye", "302, 404, 503, 603 each followed by a BYE answered 481", "pcapng",
    gen_scn_state_rejected_then_bye },
  { "state-reinvite-refused", "answered call, re-INVITEs refused 491 and 488, BYE", "pcapng",
    gen_scn_state_reinvite_refused },
  { "state-fork-rejected", "forked 180 and 183 from two branches, then 480", "pcapng",
    gen_scn_state_fork_rejected },
  { "state-ack-missing", "200 retransmitted for 32 s without ACK, callee BYE", "pcapng",
    gen_scn_state_ack_missing },
  { "state-invite-after-200", "INVITE retransmitted after the 200, 200 retransmitted, ACK",
    "pcapng", gen_scn_state_invite_after_200 },
  { "tcp", "SIP over TCP: INVITE in 3 segments, 100+180 in one, a resent segment", "pcapng",
    gen_scn_tcp },
  { "fragments", "3.5 kB INVITE over UDP/IPv4 in 3 fragments sent out of order", "pcapng",
    gen_scn_fragments },
  { "ipv6", "call over IPv6, the INVITE with a hop-by-hop header", "pcapng", gen_scn_ipv6 },
  { "vlan", "802.1Q tagged call, one 802.1ad QinQ packet", "pcapng", gen_scn_vlan },
  { "sll", "short call on Linux cooked capture v1 (link type 113)", "pcapng", gen_scn_sll },
  { "sll2", "short call on Linux cooked capture v2 (link type 276)", "pcapng", gen_scn_sll2 },
  { "null-loopback", "short call on DLT_NULL (BSD loopback)", "pcapng", gen_scn_null_loopback },
  { "raw-ip", "short call on LINKTYPE_RAW (101)", "pcapng", gen_scn_raw_ip },
  { "pcap-us-le", "the clean call as classic pcap, microseconds, little-endian", "pcap",
    gen_scn_pcap_us_le },
  { "pcap-ns-be", "the clean call as classic pcap, nanoseconds, big-endian", "pcap",
    gen_scn_pcap_ns_be },
  { "multi-interface", "pcapng with Ethernet (SIP) and SLL (RTP) interfaces", "pcapng",
    gen_scn_multi_interface },
  { "srtp-aes128-80", "SDES-SRTP call, AES_CM_128_HMAC_SHA1_80, a digit", "pcapng",
    gen_scn_srtp_aes128_80 },
  { "srtp-aes128-32", "SDES-SRTP call, AES_CM_128_HMAC_SHA1_32, a digit", "pcapng",
    gen_scn_srtp_aes128_32 },
  { "srtp-aes192-80", "SDES-SRTP call, AES_192_CM_HMAC_SHA1_80, a digit", "pcapng",
    gen_scn_srtp_aes192_80 },
  { "srtp-aes192-32", "SDES-SRTP call, AES_192_CM_HMAC_SHA1_32, a digit", "pcapng",
    gen_scn_srtp_aes192_32 },
  { "srtp-aes256-80", "SDES-SRTP call, AES_256_CM_HMAC_SHA1_80, a digit", "pcapng",
    gen_scn_srtp_aes256_80 },
  { "srtp-aes256-32", "SDES-SRTP call, AES_256_CM_HMAC_SHA1_32, a digit", "pcapng",
    gen_scn_srtp_aes256_32 },
  { "srtp-gcm128", "SDES-SRTP call, AEAD_AES_128_GCM, a digit", "pcapng", gen_scn_srtp_gcm128 },
  { "srtp-gcm256", "SDES-SRTP call, AEAD_AES_256_GCM, a digit", "pcapng", gen_scn_srtp_gcm256 },
  { "srtp-mki", "SDES-SRTP call with a 4-byte MKI and a 2^20 key lifetime", "pcapng",
    gen_scn_srtp_mki },
  { "srtp-wrong-key", "SDES-SRTP call: alice sends with another key than her SDP's", "pcapng",
    gen_scn_srtp_wrong_key },
  { "srtp-rollover", "SDES-SRTP call whose sequence numbers wrap (ROC 0 -> 1)", "pcapng",
    gen_scn_srtp_rollover },
  { "srtp-lifetime", "SDES-SRTP call sending 150 packets under a 2^7 key lifetime", "pcapng",
    gen_scn_srtp_lifetime },
  { "srtp-no-key", "RTP/SAVP call whose SDP carries no a=crypto: encrypted, no key", "pcapng",
    gen_scn_srtp_no_key },
  { "srtp-duplicates", "SDES-SRTP call whose network delivers 3 caller packets twice (replays)",
    "pcapng", gen_scn_srtp_duplicates },
  { "gtp-u", "the call inside GTP-U (UDP 2152) with a PDU session container", "pcapng",
    gen_scn_gtp_u },
  { "esp-null", "the call inside IPsec ESP with NULL encryption, 3 encrypted ESP packets", "pcapng",
    gen_scn_esp_null },
  { "gre", "the call inside GRE (with a key)", "pcapng", gen_scn_gre },
  { "gre-teb", "the call bridged in GRE (transparent Ethernet bridging)", "pcapng",
    gen_scn_gre_teb },
  { "erspan-1", "the call mirrored by ERSPAN type I", "pcapng", gen_scn_erspan1 },
  { "erspan-2", "the call mirrored by ERSPAN type II", "pcapng", gen_scn_erspan2 },
  { "erspan-3", "the call mirrored by ERSPAN type III", "pcapng", gen_scn_erspan3 },
  { "vxlan", "the call inside VXLAN (UDP 4789)", "pcapng", gen_scn_vxlan },
  { "geneve", "the call inside Geneve (UDP 6081) with an option", "pcapng", gen_scn_geneve },
  { "4in6", "the call's IPv4 packets inside IPv6", "pcapng", gen_scn_4in6 },
  { "6in4", "the IPv6 call inside IPv4 (protocol 41)", "pcapng", gen_scn_6in4 },
  { "codec-gsm", "a clean call in gsm (tone, gen-codecs.c)", "pcapng", gen_scn_codec_gsm },
  { "codec-g726-16", "a clean call in g726-16 (tone, gen-codecs.c)", "pcapng",
    gen_scn_codec_g726_16 },
  { "codec-g726-24", "a clean call in g726-24 (tone, gen-codecs.c)", "pcapng",
    gen_scn_codec_g726_24 },
  { "codec-g726-32", "a clean call in g726-32 (tone, gen-codecs.c)", "pcapng",
    gen_scn_codec_g726_32 },
  { "codec-g726-40", "a clean call in g726-40 (tone, gen-codecs.c)", "pcapng",
    gen_scn_codec_g726_40 },
  { "codec-aal2-g726-16", "a clean call in aal2-g726-16 (tone, gen-codecs.c)", "pcapng",
    gen_scn_codec_aal2_g726_16 },
  { "codec-aal2-g726-24", "a clean call in aal2-g726-24 (tone, gen-codecs.c)", "pcapng",
    gen_scn_codec_aal2_g726_24 },
  { "codec-aal2-g726-32", "a clean call in aal2-g726-32 (tone, gen-codecs.c)", "pcapng",
    gen_scn_codec_aal2_g726_32 },
  { "codec-aal2-g726-40", "a clean call in aal2-g726-40 (tone, gen-codecs.c)", "pcapng",
    gen_scn_codec_aal2_g726_40 },
  { "codec-amr-octet", "a clean call in amr-octet (tone, gen-codecs.c)", "pcapng",
    gen_scn_codec_amr_octet },
  { "codec-amr-efficient", "a clean call in amr-efficient (tone, gen-codecs.c)", "pcapng",
    gen_scn_codec_amr_efficient },
  { "codec-amr-wb-octet", "a clean call in amr-wb-octet (tone, gen-codecs.c)", "pcapng",
    gen_scn_codec_amr_wb_octet },
  { "codec-amr-wb-efficient", "a clean call in amr-wb-efficient (tone, gen-codecs.c)", "pcapng",
    gen_scn_codec_amr_wb_efficient },
  { "codec-speex-nb", "a clean call in speex-nb (tone, gen-codecs.c)", "pcapng",
    gen_scn_codec_speex_nb },
  { "codec-speex-wb", "a clean call in speex-wb (tone, gen-codecs.c)", "pcapng",
    gen_scn_codec_speex_wb },
  { "dtmf", "RFC 4733 digits 1, 5, # and a SIP INFO dtmf-relay", "pcapng", gen_scn_dtmf },
  { "rtp-dup-reorder", "duplicated and reordered RTP packets", "pcapng", gen_scn_rtp_dup_reorder },
  { "seq-wrap", "RTP sequence numbers wrapping at 65535", "pcapng", gen_scn_seq_wrap },
  { "unassociated-rtp", "a call plus an RTP stream no SDP announced", "pcapng",
    gen_scn_unassociated_rtp },
  { "hep", "call signalling inside HEP3 on UDP 9060", "pcapng", gen_scn_hep },
  { "tls-no-key", "a TLS 1.2 session to port 5061 (SIP inside), no key log", "pcapng",
    gen_scn_tls_no_key },
  { "tls-wrong-key", "the TLS 1.2 session with a key log whose master secret is wrong", "pcapng",
    gen_scn_tls_wrong_key },
  { "non-invite", "REGISTER 401/200, OPTIONS, SUBSCRIBE/NOTIFY, MESSAGE, an unanswered OPTIONS",
    "pcapng", gen_scn_non_invite },
  { "malformed", "no Call-ID, bad CSeq, lying Content-Length, junk on 5060, then a good call",
    "pcapng", gen_scn_malformed },
  { "hostile-text",
    "calls whose names, Call-IDs, reasons and headers attack spreadsheets, "
    "HTML, SVG and terminals",
    "pcapng", gen_scn_hostile_text },
  /* findings under test (gen-scenarios-findings.c): each lists every finding it must produce */
  { "findings-none", "a call nothing is wrong with: no finding at all", "pcapng",
    gen_scn_findings_none },
  { "findings-setup", "post-dial delay and call length at their thresholds, a missing ACK",
    "pcapng", gen_scn_findings_setup },
  { "findings-media-timing", "first RTP and RTP after BYE at their thresholds, no media", "pcapng",
    gen_scn_findings_media_timing },
  { "findings-directions", "one-way audio at its 5-packet minimum, RTP from behind NAT", "pcapng",
    gen_scn_findings_directions },
  { "findings-stream", "loss at 5 %, 1 % and under, a 150/151 ms gap, sequence errors", "pcapng",
    gen_scn_findings_stream },
  { "findings-jitter", "RFC 3550 jitter approaching 30 ms, passing 30 ms and 60 ms", "pcapng",
    gen_scn_findings_jitter },
  { "findings-sdp", "a codec never offered, ptime 28/29 against 20 ms packets, an SSRC restart",
    "pcapng", gen_scn_findings_sdp },
  { "findings-signalling",
    "retransmissions (2 and 3), 486/500/603/404, a refused MESSAGE, unanswered OPTIONS "
    "and INVITE",
    "pcapng", gen_scn_findings_signalling },
  { "findings-capture", "SIP without Call-ID, a lying Content-Length, IPsec ciphertext", "pcapng",
    gen_scn_findings_capture },
  { "findings-limits", "a call read with at most 5 messages per call (CALLSCOPE_LIMITS)", "pcapng",
    gen_scn_findings_limits },
  { "findings-damaged", "a call, then a last record the file loses the end of", "pcapng",
    gen_scn_findings_damaged },
  /* legs by evidence (gen-scenarios-legs.c) */
  { "b2bua-x-call-id", "alice -> B2BUA -> bob, the second leg names the first in X-Call-ID",
    "pcapng", gen_scn_b2bua_x_call_id },
  { "media-bridged", "two B2BUA legs tied only by the SSRCs a media relay passes on", "pcapng",
    gen_scn_media_bridged },
  { "b2bua-header-and-media", "B2BUA legs tied by X-Call-ID and by relayed SSRCs: one leg",
    "pcapng", gen_scn_b2bua_header_and_media },
  { "b2bua-same-call-id", "an SBC keeps the Call-ID on its second hop, with its own From-tag",
    "pcapng", gen_scn_b2bua_same_call_id },
  { "refer-transfer", "blind transfer: REFER, then an INVITE with Referred-By", "pcapng",
    gen_scn_refer_transfer },
  { "attended-transfer", "consultation, REFER with Replaces, the replacing INVITE", "pcapng",
    gen_scn_attended_transfer },
  { "diversion", "forwarded on no answer: Diversion, then History-Info", "pcapng",
    gen_scn_diversion },
  { "sipp-shared-ports", "50 SIPp calls announcing the same media ports: no legs", "pcapng",
    gen_scn_sipp_shared_ports },
  { "multi-hop", "alice -> proxy -> bob, every SIP message captured at two points, one resent",
    "pcapng", gen_scn_multi_hop },
};

const GenScenario *
gen_scenario_list (guint *n)
{
  *n = G_N_ELEMENTS (scenarios);
  return scenarios;
}

const GenScenario *
gen_scenario_find (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (scenarios); i++)
    if (strcmp (scenarios[i].name, name) == 0)
      return &scenarios[i];
  return NULL;
}

static void
comment_packet (GenCapture *cap, guint id, const char *text)
{
  GenPacket *p = gen_capture_packet (cap, id);

  g_free (p->comment);
  p->comment = g_strdup (text);
}

/* Each demo call gets its own media ports and a comment on its INVITE. */
static GenCallPlan *
demo_plan (GenCallPlan *plan, guint n, gint64 t0, const GenUa *caller, const GenUa *callee,
           const GenUa *proxy)
{
  gen_plan_init (plan, t0, caller, callee, proxy);
  plan->caller_rtp = 40000 + 10 * n;
  plan->callee_rtp = 50000 + 10 * n;
  return plan;
}

void
gen_build_demo (GenCapture *cap)
{
  static const char *const agents[] = {
    "Yealink SIP-T46S 66.86.0.15",
    "Grandstream GXP2170 1.0.11.23",
    "Linphone/5.2.0 (belle-sip/5.2.0)",
    "Zoiper rv2.10.19.6",
    "Cisco-CP8845/14.2.1",
    "Snom D785 10.1.141.13",
    "Polycom/6.4.3 VVX-450",
    "MicroSIP/3.21.3",
    "Bria 6.5.1",
  };
  static const char *const names[]
      = { "Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Henry", "Ivan" };
  GenUa users[9], proxy;
  GenCallPlan plan;
  const gint64 t = GEN_EPOCH;
  guint first;

  for (guint i = 0; i < 9; i++)
    {
      char user[8], ip[16];
      g_snprintf (user, sizeof user, "%u", 1001 + i);
      g_snprintf (ip, sizeof ip, "10.0.0.%u", 10 * (i + 1));
      gen_ua_init (&users[i], names[i], user, ip, 5060, agents[i]);
    }
  gen_ua_init (&proxy, "Proxy", "proxy", "10.0.0.1", 5060, "Kamailio (5.7.4 (x86_64/linux))");

  gen_register (cap, t + GEN_MS (300), &users[0], &proxy);
  gen_register (cap, t + GEN_MS (700), &users[1], &proxy);
  gen_options_ping (cap, t + GEN_MS (1000), &proxy, &users[1]);

  first = cap->packets->len;
  gen_call_clean (cap, demo_plan (&plan, 1, t + GEN_S (2), &users[0], &users[1], &proxy),
                  GEN_S (10));
  comment_packet (cap, first, "demo 1: clean call, 10 s of two-way audio");

  first = cap->packets->len;
  demo_plan (&plan, 2, t + GEN_S (5), &users[2], &users[3], &proxy);
  plan.pt = 8;
  gen_call_loss_jitter (cap, &plan, GEN_S (12));
  comment_packet (cap, first, "demo 2: ~5% burst loss and 15-40 ms jitter on 1004 -> 1003");

  first = cap->packets->len;
  gen_call_one_way (cap, demo_plan (&plan, 3, t + GEN_S (9), &users[4], &users[0], &proxy),
                    GEN_S (8));
  comment_packet (cap, first, "demo 3: one-way audio, only 1005 -> 1001");

  first = cap->packets->len;
  gen_call_busy (cap, demo_plan (&plan, 4, t + GEN_S (14), &users[5], &users[1], &proxy));
  comment_packet (cap, first, "demo 4: 486 Busy Here");

  first = cap->packets->len;
  gen_call_cancel (cap, demo_plan (&plan, 5, t + GEN_S (18), &users[0], &users[6], &proxy));
  comment_packet (cap, first, "demo 5: cancelled while ringing");

  first = cap->packets->len;
  gen_call_slow_ring (cap, demo_plan (&plan, 6, t + GEN_S (24), &users[7], &users[8], &proxy),
                      GEN_S (8));
  comment_packet (cap, first, "demo 6: slow ringing, 180 after 6 s, 200 after 25 s");

  first = cap->packets->len;
  gen_call_retransmit (cap, demo_plan (&plan, 7, t + GEN_S (33), &users[0], &users[2], &proxy),
                       GEN_S (8));
  comment_packet (cap, first, "demo 7: INVITE retransmitted twice, 200 OK retransmitted");

  gen_options_ping (cap, t + GEN_S (62), &proxy, &users[1]);
}
