/* fuzz-rtp.c — RTP headers and everything computed from a stream of them:
 * Wireshark-compatible metrics, jitter-buffer emulation, MOS, MOS windows.
 *
 * Input: records (fuzz-common.h), each an RTP packet; a record's first byte
 * also moves its arrival time, so jitter, reordering and gaps all happen. */
#include "fuzz-common.h"

#include "rtp/cs-codec.h"
#include "quality/cs-jitter-buffer.h"
#include "quality/cs-mos.h"
#include "quality/cs-rtp-metrics.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  CsFuzzRecords records;
  const uint8_t *rec;
  size_t len;
  g_autoptr (GArray) packets = g_array_new (FALSE, FALSE, sizeof (CsRtpPacket));
  gint64 arrival = G_GINT64_CONSTANT (1700000000) * 1000000000;
  CsRtpClockMap clocks;
  CsRtpAnalyser analyser;
  CsRtpStats stats, incremental;
  CsJitterBufferConfig jb;
  CsJitterBufferResult jbr;
  CsMos mos;
  guint kind;

  cs_fuzz_init_once ();
  cs_fuzz_records_init (&records, data, size);
  kind = cs_fuzz_records_byte (&records);
  cs_rtp_clock_map_init_static (&clocks);
  /* A dynamic type with an rtpmap, as SDP would announce it. */
  cs_rtp_clock_map_set_rtpmap (&clocks, 96 + (kind % 32), kind & 1 ? "telephone-event" : "opus",
                               kind & 2 ? 48000 : 8000);
  while (cs_fuzz_records_next (&records, &rec, &len))
    {
      CsRtpHeader hdr;
      CsRtpPacket pkt;

      cs_rtcp_looks_like (rec, len);
      if (!cs_rtp_parse_header (rec, len, &hdr))
        continue;
      g_assert (hdr.header_len + hdr.payload_len + hdr.padding_len <= len);
      /* Arrival steps of -40..+215 ms: reordering, bursts and gaps. */
      arrival += ((gint64) (len > 12 ? rec[12] : 20) - 40) * 1000000;
      cs_rtp_packet_from_header (&hdr, arrival, packets->len + 1, &pkt);
      g_array_append_val (packets, pkt);
    }

  cs_rtp_stats_compute ((const CsRtpPacket *) packets->data, packets->len, &clocks, &stats);
  g_assert (stats.packets == packets->len);
  cs_rtp_analyser_init (&analyser);
  for (guint i = 0; i < packets->len; i++)
    cs_rtp_analyser_feed (&analyser, &g_array_index (packets, CsRtpPacket, i), &clocks);
  cs_rtp_analyser_get_stats (&analyser, &incremental);
  g_assert (incremental.packets == stats.packets);
  g_assert (incremental.lost == stats.lost);
  cs_rtp_analyser_clear (&analyser);

  cs_jitter_buffer_config_init_default (&jb);
  jb.kind = (CsJitterBufferKind) (kind % 3);
  cs_jitter_buffer_emulate ((const CsRtpPacket *) packets->data, packets->len,
                            stats.clock_rate != 0 ? stats.clock_rate : 8000, &jb, &jbr);
  g_assert (jbr.played <= jbr.received);
  cs_mos_for_stream ((const CsRtpPacket *) packets->data, packets->len, &clocks,
                     cs_codec_lookup_static (stats.payload_type), &jb, &mos);
  g_assert (mos.mos >= 1.0 && mos.mos <= 4.5);
  if (packets->len > 0)
    {
      GArray *windows
          = cs_mos_windows ((const CsRtpPacket *) packets->data, packets->len, &clocks, NULL, &jb,
                            1 + kind % 5, g_array_index (packets, CsRtpPacket, 0).arrival_ns);

      g_array_unref (windows);
    }
  cs_mos_packetisation_ms ((const CsRtpPacket *) packets->data, packets->len, 8000);
  return 0;
}
