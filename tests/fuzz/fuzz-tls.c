/* fuzz-tls.c — hostile key logs and hostile TLS byte streams: the bytes as an NSS key log,
 * then as TCP segments of a TLS connection (both directions, gaps, overlaps) after a
 * ClientHello whose secrets the key log holds, so handshake parsing and decryption run */
#include "fuzz-common.h"

#include <string.h>

#include "net/cs-tls-keylog.h"
#include "net/cs-tls-stream.h"

static void
on_plain (const CsPacket *packet, const guint8 *plain, gsize len, guint32 frame, gint64 ts_ns,
          gpointer user_data)
{
  gsize *total = user_data;

  g_assert (len > 0 && plain == packet->payload && len == packet->payload_len);
  *total += len;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static const char secrets[]
      = "CLIENT_RANDOM 0000000000000000000000000000000000000000000000000000000000000000 "
        "111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111"
        "111111\n"
        "SERVER_HANDSHAKE_TRAFFIC_SECRET "
        "0000000000000000000000000000000000000000000000000000000000000000 "
        "2222222222222222222222222222222222222222222222222222222222222222\n"
        "CLIENT_HANDSHAKE_TRAFFIC_SECRET "
        "0000000000000000000000000000000000000000000000000000000000000000 "
        "3333333333333333333333333333333333333333333333333333333333333333\n";
  /* a ClientHello record, random all zeros, offering TLS_AES_128_GCM_SHA256 */
  guint8 hello[52] = { 22, 3, 1, 0, 47, 1, 0, 0, 43, 3, 3 };
  g_autoptr (CsTlsKeylog) log = cs_tls_keylog_new ();
  CsTlsTracker *tracker;
  CsPacket packet;
  guint32 seq[2] = { 1000, 5000 };
  gsize total = 0, at = 0;
  guint32 frame = 1;

  cs_fuzz_init_once ();
  cs_tls_keylog_add_text (log, (const char *) data, size);
  cs_tls_keylog_add_text (log, secrets, sizeof secrets - 1);
  memcpy (hello + 43, (const guint8[]){ 0, 0, 2, 0x13, 1, 1, 0, 0, 0 }, 9);
  tracker = cs_tls_tracker_new (log, 4);
  memset (&packet, 0, sizeof packet);
  cs_addr_parse (&packet.src.addr, "10.0.0.1");
  cs_addr_parse (&packet.dst.addr, "10.0.0.2");
  packet.src.port = 40000;
  packet.dst.port = 5061;
  packet.ip_proto = CS_IP_PROTO_TCP;
  packet.payload = hello;
  packet.payload_len = sizeof hello;
  packet.tcp_seq = seq[0];
  seq[0] += sizeof hello;
  g_assert (cs_tls_tracker_add (tracker, &packet, frame++, 0, on_plain, &total));
  while (at < size)
    {
      guint8 control = data[at++];
      gsize n = MIN ((gsize) 1 + control % 64 * 4, size - at);
      guint d = control >> 7;
      CsPacket segment = packet;

      if (d == 1)
        {
          segment.src = packet.dst;
          segment.dst = packet.src;
        }
      segment.payload = data + at;
      segment.payload_len = n;
      /* now and then a gap or an overlap */
      segment.tcp_seq = seq[d] + ((control & 0x60) == 0x60 ? 7 : 0) - ((control & 0x60) == 0x40);
      segment.tcp_flags = at + n == size ? CS_TCP_FIN : 0;
      seq[d] += (guint32) n;
      cs_tls_tracker_add (tracker, &segment, frame++, 0, on_plain, &total);
      at += n;
    }
  g_assert (cs_tls_tracker_get_sessions (tracker)->len >= 1);
  cs_tls_tracker_free (tracker);
  return total == G_MAXSIZE;
}
