/* fuzz-dtmf.c — RFC 4733 telephone-event payloads folded into digits, and SIP INFO DTMF bodies */
#include "fuzz-common.h"

#include "rtp/cs-dtmf.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  CsFuzzRecords records;
  const uint8_t *rec;
  size_t len;
  CsDtmfTracker tracker;
  g_autoptr (GArray) digits = g_array_new (FALSE, FALSE, sizeof (CsDtmfDigit));
  guint32 frame = 0;
  gint64 arrival = 0;
  char digit = 0;
  guint duration = 0;

  cs_fuzz_init_once ();
  cs_fuzz_records_init (&records, data, size);
  cs_dtmf_tracker_init (&tracker, cs_fuzz_records_byte (&records) & 1 ? 48000 : 0);
  while (cs_fuzz_records_next (&records, &rec, &len))
    {
      CsRtpPacket pkt = { 0 };
      CsDtmfEvent ev;

      /* First 4 bytes: RTP timestamp of the event; the rest is the payload. */
      if (len < 4)
        continue;
      pkt.timestamp = (guint32) rec[0] << 24 | (guint32) rec[1] << 16 | rec[2] << 8 | rec[3];
      pkt.payload_type = 101;
      pkt.frame = ++frame;
      pkt.seq = (guint16) frame;
      arrival += 20000000;
      pkt.arrival_ns = arrival;
      if (cs_dtmf_parse_event (rec + 4, len - 4, &ev))
        cs_dtmf_event_char (ev.event);
      cs_dtmf_tracker_feed (&tracker, &pkt, rec + 4, len - 4, digits);
    }
  g_assert (digits->len <= frame);
  for (guint i = 0; i < digits->len; i++)
    {
      const CsDtmfDigit *d = &g_array_index (digits, CsDtmfDigit, i);

      g_assert (d->first_frame <= d->last_frame && d->packets >= 1);
    }
  cs_dtmf_parse_sip_info ("application/dtmf-relay", data, size, &digit, &duration);
  cs_dtmf_parse_sip_info ("application/dtmf", data, size, &digit, &duration);
  return 0;
}
