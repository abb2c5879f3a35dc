/* gen-scenarios.h — the named captures cs-gen writes (golden-test inputs) */
#pragma once

#include "gen-calls.h"

G_BEGIN_DECLS

typedef struct
{
  const char *name;
  const char *description;
  const char *extension; /* "pcapng" or "pcap" */
  void (*build) (GenCapture *cap);
} GenScenario;

const GenScenario *gen_scenario_list (guint *n);
const GenScenario *gen_scenario_find (const char *name);
void gen_build_demo (GenCapture *cap);

/* builders, grouped by file */
void gen_scn_clean (GenCapture *cap);
void gen_scn_loss_jitter (GenCapture *cap);
void gen_scn_one_way (GenCapture *cap);
void gen_scn_busy (GenCapture *cap);
void gen_scn_cancel (GenCapture *cap);
void gen_scn_slow_ring (GenCapture *cap);
void gen_scn_retransmit (GenCapture *cap);
void gen_scn_reinvite (GenCapture *cap);
void gen_scn_early_media (GenCapture *cap);
void gen_scn_forking (GenCapture *cap);
void gen_scn_reused_callid (GenCapture *cap);
void gen_scn_no_answer (GenCapture *cap);

/* gen-scenarios-states.c */
void gen_scn_state_trying_only (GenCapture *cap);
void gen_scn_state_timer_b (GenCapture *cap);
void gen_scn_state_ringing_only (GenCapture *cap);
void gen_scn_state_487_no_cancel (GenCapture *cap);
void gen_scn_state_cancel_crossing_200 (GenCapture *cap);
void gen_scn_state_rejected_then_bye (GenCapture *cap);
void gen_scn_state_reinvite_refused (GenCapture *cap);
void gen_scn_state_fork_rejected (GenCapture *cap);
void gen_scn_state_ack_missing (GenCapture *cap);
void gen_scn_state_invite_after_200 (GenCapture *cap);

void gen_scn_tcp (GenCapture *cap);
void gen_scn_fragments (GenCapture *cap);
void gen_scn_ipv6 (GenCapture *cap);
void gen_scn_vlan (GenCapture *cap);
void gen_scn_sll (GenCapture *cap);
void gen_scn_sll2 (GenCapture *cap);
void gen_scn_null_loopback (GenCapture *cap);
void gen_scn_raw_ip (GenCapture *cap);
void gen_scn_pcap_us_le (GenCapture *cap);
void gen_scn_pcap_ns_be (GenCapture *cap);
void gen_scn_multi_interface (GenCapture *cap);
void gen_scn_hep (GenCapture *cap);
void gen_scn_tls_no_key (GenCapture *cap);
void gen_scn_tls_wrong_key (GenCapture *cap);

void gen_scn_gtp_u (GenCapture *cap);
void gen_scn_esp_null (GenCapture *cap);
void gen_scn_gre (GenCapture *cap);
void gen_scn_gre_teb (GenCapture *cap);
void gen_scn_erspan1 (GenCapture *cap);
void gen_scn_erspan2 (GenCapture *cap);
void gen_scn_erspan3 (GenCapture *cap);
void gen_scn_vxlan (GenCapture *cap);
void gen_scn_geneve (GenCapture *cap);
void gen_scn_4in6 (GenCapture *cap);
void gen_scn_6in4 (GenCapture *cap);

void gen_scn_codec_gsm (GenCapture *cap);
void gen_scn_codec_g726_16 (GenCapture *cap);
void gen_scn_codec_g726_24 (GenCapture *cap);
void gen_scn_codec_g726_32 (GenCapture *cap);
void gen_scn_codec_g726_40 (GenCapture *cap);
void gen_scn_codec_aal2_g726_16 (GenCapture *cap);
void gen_scn_codec_aal2_g726_24 (GenCapture *cap);
void gen_scn_codec_aal2_g726_32 (GenCapture *cap);
void gen_scn_codec_aal2_g726_40 (GenCapture *cap);
void gen_scn_codec_amr_octet (GenCapture *cap);
void gen_scn_codec_amr_efficient (GenCapture *cap);
void gen_scn_codec_amr_wb_octet (GenCapture *cap);
void gen_scn_codec_amr_wb_efficient (GenCapture *cap);
void gen_scn_codec_speex_nb (GenCapture *cap);
void gen_scn_codec_speex_wb (GenCapture *cap);

void gen_scn_srtp_aes128_80 (GenCapture *cap);
void gen_scn_srtp_aes128_32 (GenCapture *cap);
void gen_scn_srtp_aes192_80 (GenCapture *cap);
void gen_scn_srtp_aes192_32 (GenCapture *cap);
void gen_scn_srtp_aes256_80 (GenCapture *cap);
void gen_scn_srtp_aes256_32 (GenCapture *cap);
void gen_scn_srtp_gcm128 (GenCapture *cap);
void gen_scn_srtp_gcm256 (GenCapture *cap);
void gen_scn_srtp_mki (GenCapture *cap);
void gen_scn_srtp_wrong_key (GenCapture *cap);
void gen_scn_srtp_rollover (GenCapture *cap);
void gen_scn_srtp_lifetime (GenCapture *cap);
void gen_scn_srtp_no_key (GenCapture *cap);
void gen_scn_srtp_duplicates (GenCapture *cap);

void gen_scn_dtmf (GenCapture *cap);
void gen_scn_rtp_dup_reorder (GenCapture *cap);
void gen_scn_seq_wrap (GenCapture *cap);
void gen_scn_unassociated_rtp (GenCapture *cap);
void gen_scn_non_invite (GenCapture *cap);
void gen_scn_malformed (GenCapture *cap);
void gen_scn_hostile_text (GenCapture *cap);

void gen_scn_findings_none (GenCapture *cap);
void gen_scn_findings_setup (GenCapture *cap);
void gen_scn_findings_media_timing (GenCapture *cap);
void gen_scn_findings_directions (GenCapture *cap);
void gen_scn_findings_stream (GenCapture *cap);
void gen_scn_findings_jitter (GenCapture *cap);
void gen_scn_findings_sdp (GenCapture *cap);
void gen_scn_findings_signalling (GenCapture *cap);
void gen_scn_findings_capture (GenCapture *cap);
void gen_scn_findings_limits (GenCapture *cap);
void gen_scn_findings_damaged (GenCapture *cap);
void gen_scn_b2bua_x_call_id (GenCapture *cap);
void gen_scn_media_bridged (GenCapture *cap);
void gen_scn_b2bua_header_and_media (GenCapture *cap);
void gen_scn_b2bua_same_call_id (GenCapture *cap);
void gen_scn_refer_transfer (GenCapture *cap);
void gen_scn_attended_transfer (GenCapture *cap);
void gen_scn_diversion (GenCapture *cap);
void gen_scn_sipp_shared_ports (GenCapture *cap);
void gen_scn_multi_hop (GenCapture *cap);

G_END_DECLS
