/* gen-scenarios-transport.c — the same call over other transports, links and files */
#include "gen-scenarios.h"

#include <string.h>

#define CT_SDP "application/sdp"
#define T0 (GEN_EPOCH + GEN_MS (100))

static void
default_plan (GenCast *cast, GenCallPlan *plan)
{
  gen_cast_init (cast);
  gen_plan_init (plan, T0, &cast->alice, &cast->bob, &cast->proxy);
}

/* A short clean call on whatever link the capture is set to. */
static void
short_clean_call (GenCapture *cap)
{
  GenCast cast;
  GenCallPlan plan;

  default_plan (&cast, &plan);
  cap->local_addr = cast.alice.sip.addr;
  gen_call_clean (cap, &plan, GEN_S (3));
}

/* Collects rendered messages instead of sending them. */
static void
batch_sink (GenDialog *d, gint64 t, GenSide from, const char *text, gsize len, gpointer data)
{
  g_string_append_len (data, text, len);
}

static void
use_default_sink (GenDialog *d, GenSipSink saved)
{
  d->sink = saved;
  d->sink_data = NULL;
}

void
gen_scn_tcp (GenCapture *cap)
{
  GenCast cast;
  GenCallPlan plan;
  GenCall c;
  GenTcpConn conn;
  CsEndpoint ephemeral;
  GenSipSink tcp_sink;
  g_autoptr (GString) batch = g_string_new (NULL);
  gint64 t;
  gsize third;

  default_plan (&cast, &plan);
  plan.remote = cast.bob.sip;
  gen_call_init (&c, cap, &plan);
  ephemeral = cast.alice.sip;
  ephemeral.port = 49320;
  gen_tcp_open (&conn, cap, T0 - GEN_MS (5), &ephemeral, &cast.bob.sip);
  gen_dialog_use_tcp (c.d, &conn);
  tcp_sink = c.d->sink;

  /* the INVITE leaves in three segments */
  c.d->sink = batch_sink;
  c.d->sink_data = batch;
  gen_call_invite (&c, FALSE);
  third = batch->len / 3;
  gen_tcp_send (&conn, T0, 0, (guint8 *) batch->str, third);
  gen_tcp_send (&conn, T0 + GEN_MS (1), 0, (guint8 *) batch->str + third, third);
  gen_tcp_send (&conn, T0 + GEN_MS (2), 0, (guint8 *) batch->str + 2 * third,
                batch->len - 2 * third);
  /* the INVITE is whole with its last segment (the frame Wireshark shows it in) */
  c.d->expect->invite_ns = T0 + GEN_MS (2);
  /* 100 and 180 arrive together in one segment */
  g_string_truncate (batch, 0);
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (20), 100, NULL, NULL);
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (20), 180, NULL, NULL);
  gen_tcp_send (&conn, T0 + GEN_MS (20), 1, (guint8 *) batch->str, batch->len);
  use_default_sink (c.d, tcp_sink);
  gen_tcp_ack (&conn, T0 + GEN_MS (60), 0);

  t = gen_call_answer (&c, T0 + GEN_MS (2000));
  gen_tcp_ack (&conn, t, 1);
  gen_call_talk (&c, t, GEN_S (3), FALSE, NULL);
  t += GEN_S (3) + GEN_MS (40);
  gen_dialog_request (c.d, t, GEN_CALLER, "BYE", NULL, NULL, NULL);
  /* the BYE segment is not acknowledged in time and goes again (TCP only) */
  gen_tcp_retransmit_last (&conn, t + GEN_MS (210), 0);
  gen_dialog_respond (c.d, t + GEN_MS (230), GEN_CALLER, 200, NULL, NULL, NULL);
  gen_dialog_set_state (c.d, "completed");
  gen_tcp_close (&conn, t + GEN_MS (300));
  gen_tcp_clear (&conn);
  gen_call_clear (&c);
}

/* Sends one UDP/IPv4 datagram as fragments in the order 2, 3, 1. */
static void
fragment_sink (GenDialog *d, gint64 t, GenSide from, const char *text, gsize len, gpointer data)
{
  g_autoptr (GByteArray) ip = NULL;
  g_autoptr (GPtrArray) frags = NULL;
  static const guint order[] = { 1, 2, 0 };

  d->cap->ipv6_hop_by_hop = FALSE;
  ip = gen_build_ip_udp (d->cap, &d->ends[from], &d->ends[!from], (const guint8 *) text, len);
  frags = gen_ipv4_fragment (ip->data, ip->len, 1500);
  g_assert (frags->len == 3);
  for (guint i = 0; i < 3; i++)
    {
      GByteArray *f = g_ptr_array_index (frags, order[i]);
      gen_capture_add_ip (d->cap, t + i * 150000, f->data, f->len);
    }
}

void
gen_scn_fragments (GenCapture *cap)
{
  GenCast cast;
  GenCallPlan plan;
  GenCall c;
  g_autofree char *offer = NULL;
  GString *sdp;
  GenSipSink saved;
  gint64 t;

  default_plan (&cast, &plan);
  gen_call_init (&c, cap, &plan);
  offer = gen_call_offer (&c, "sendrecv");
  /* a WebRTC-style offer: many ICE candidates make the INVITE ~3.5 kB */
  sdp = g_string_new (offer);
  for (guint i = 0; i < 34; i++)
    g_string_append_printf (sdp,
                            "a=candidate:%u 1 UDP %u 192.0.2.%u %u typ srflx raddr 10.0.0.10 "
                            "rport %u\r\n",
                            1000 + i, 1694498815u - i * 256, 10 + i, 41000 + 2 * i, 40000);
  saved = c.d->sink;
  c.d->sink = fragment_sink;
  gen_dialog_request (c.d, T0, GEN_CALLER, "INVITE", NULL, CT_SDP, sdp->str);
  g_string_free (sdp, TRUE);
  /* the INVITE is whole with its last fragment, 2 × 150 µs later (fragment_sink) */
  c.d->expect->invite_ns = T0 + 2 * 150000;
  c.d->sink = saved;
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (10), 100, NULL, NULL);
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (80), 180, NULL, NULL);
  t = gen_call_answer (&c, T0 + GEN_MS (2200));
  gen_call_talk (&c, t, GEN_S (3), FALSE, NULL);
  gen_call_hangup (&c, t + GEN_S (3) + GEN_MS (40), GEN_CALLER);
  gen_call_clear (&c);
}

void
gen_scn_ipv6 (GenCapture *cap)
{
  GenUa alice, bob;
  GenCallPlan plan;
  GenCall c;
  g_autofree char *offer = NULL;
  gint64 t;

  gen_ua_init (&alice, "Alice", "1001", "2001:db8:10::10", 5060, "Yealink SIP-T46S 66.86.0.15");
  gen_ua_init (&bob, "Bob", "1002", "2001:db8:10::20", 5060, "Grandstream GXP2170 1.0.11.23");
  gen_plan_init (&plan, T0, &alice, &bob, NULL);
  gen_call_init (&c, cap, &plan);
  offer = gen_call_offer (&c, "sendrecv");
  /* only the INVITE carries a hop-by-hop extension header */
  cap->ipv6_hop_by_hop = TRUE;
  gen_dialog_request (c.d, T0, GEN_CALLER, "INVITE", NULL, CT_SDP, offer);
  cap->ipv6_hop_by_hop = FALSE;
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (10), 100, NULL, NULL);
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (70), 180, NULL, NULL);
  t = gen_call_answer (&c, T0 + GEN_MS (1500));
  gen_call_talk (&c, t, GEN_S (4), FALSE, NULL);
  gen_call_hangup (&c, t + GEN_S (4) + GEN_MS (40), GEN_CALLER);
  gen_call_clear (&c);
}

void
gen_scn_vlan (GenCapture *cap)
{
  GenCast cast;
  GenCallPlan plan;
  GenCall c;
  gint64 t;

  default_plan (&cast, &plan);
  gen_capture_set_link (cap, GEN_LINK_VLAN);
  gen_call_init (&c, cap, &plan);
  gen_call_invite (&c, TRUE);
  /* the 180 crosses a provider bridge: 802.1ad outer tag + 802.1Q inner tag */
  cap->link = GEN_LINK_QINQ;
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (80), 180, NULL, NULL);
  cap->link = GEN_LINK_VLAN;
  t = gen_call_answer (&c, T0 + GEN_MS (1500));
  gen_call_talk (&c, t, GEN_S (3), FALSE, NULL);
  gen_call_hangup (&c, t + GEN_S (3) + GEN_MS (40), GEN_CALLER);
  gen_call_clear (&c);
}

void
gen_scn_sll (GenCapture *cap)
{
  gen_capture_set_link (cap, GEN_LINK_SLL);
  short_clean_call (cap);
}

void
gen_scn_sll2 (GenCapture *cap)
{
  gen_capture_set_link (cap, GEN_LINK_SLL2);
  short_clean_call (cap);
}

void
gen_scn_null_loopback (GenCapture *cap)
{
  gen_capture_set_link (cap, GEN_LINK_NULL);
  short_clean_call (cap);
}

void
gen_scn_raw_ip (GenCapture *cap)
{
  gen_capture_set_link (cap, GEN_LINK_RAW);
  short_clean_call (cap);
}

void
gen_scn_pcap_us_le (GenCapture *cap)
{
  cap->format = CS_CAPTURE_FILE_PCAP;
  cap->nanosecond = FALSE;
  cap->big_endian = FALSE;
  gen_scn_clean (cap);
}

void
gen_scn_pcap_ns_be (GenCapture *cap)
{
  cap->format = CS_CAPTURE_FILE_PCAP;
  cap->nanosecond = TRUE;
  cap->big_endian = TRUE;
  gen_scn_clean (cap);
}

void
gen_scn_multi_interface (GenCapture *cap)
{
  GenCast cast;
  GenCallPlan plan;
  GenCall c;
  gint64 t;

  default_plan (&cast, &plan);
  cap->nanosecond = TRUE;
  cap->local_addr = cast.alice.sip.addr;
  /* signalling seen on eth0 (Ethernet), media on "any" (Linux cooked) */
  gen_capture_set_link (cap, GEN_LINK_ETHERNET);
  gen_capture_add_interface (cap, GEN_LINK_SLL);
  gen_capture_set_link (cap, GEN_LINK_ETHERNET);
  gen_call_init (&c, cap, &plan);
  gen_call_invite (&c, TRUE);
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (80), 180, NULL, NULL);
  t = gen_call_answer (&c, T0 + GEN_MS (1500));
  gen_capture_set_link (cap, GEN_LINK_SLL);
  gen_call_talk (&c, t, GEN_S (3), FALSE, NULL);
  gen_capture_set_link (cap, GEN_LINK_ETHERNET);
  gen_call_hangup (&c, t + GEN_S (3) + GEN_MS (40), GEN_CALLER);
  gen_call_clear (&c);
}

static void
hep_chunk (GByteArray *out, guint16 type, const void *value, gsize len)
{
  guint8 hdr[6] = { 0, 0, type >> 8, type & 0xff, (len + 6) >> 8, (len + 6) & 0xff };

  g_byte_array_append (out, hdr, 6);
  g_byte_array_append (out, value, len);
}

static void
hep_chunk_u16 (GByteArray *out, guint16 type, guint16 v)
{
  guint8 b[2] = { v >> 8, v & 0xff };
  hep_chunk (out, type, b, 2);
}

static void
hep_chunk_u32 (GByteArray *out, guint16 type, guint32 v)
{
  guint8 b[4] = { v >> 24, (v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff };
  hep_chunk (out, type, b, 4);
}

/* HEP3: the SIP message and its original addresses, sent to a collector. */
static void
hep_sink (GenDialog *d, gint64 t, GenSide from, const char *text, gsize len, gpointer data)
{
  const CsEndpoint *agent_collector = data;
  g_autoptr (GByteArray) hep = g_byte_array_new ();
  const CsEndpoint *src = &d->ends[from], *dst = &d->ends[!from];
  guint8 family = 2, proto = 17, sip = 1;
  guint8 head[6] = { 'H', 'E', 'P', '3', 0, 0 };

  g_byte_array_append (hep, head, 6);
  hep_chunk (hep, 0x0001, &family, 1);
  hep_chunk (hep, 0x0002, &proto, 1);
  hep_chunk (hep, 0x0003, src->addr.bytes, 4);
  hep_chunk (hep, 0x0004, dst->addr.bytes, 4);
  hep_chunk_u16 (hep, 0x0007, src->port);
  hep_chunk_u16 (hep, 0x0008, dst->port);
  hep_chunk_u32 (hep, 0x0009, (guint32) (t / GEN_S (1)));
  hep_chunk_u32 (hep, 0x000a, (guint32) ((t % GEN_S (1)) / 1000));
  hep_chunk (hep, 0x000b, &sip, 1);
  hep_chunk_u32 (hep, 0x000c, 2001);
  hep_chunk (hep, 0x000f, text, len);
  hep->data[4] = hep->len >> 8;
  hep->data[5] = hep->len & 0xff;
  /* the agent forwards each message a millisecond after seeing it */
  gen_send_udp (d->cap, t + GEN_MS (1), &agent_collector[0], &agent_collector[1], hep->data,
                hep->len);
}

void
gen_scn_hep (GenCapture *cap)
{
  GenCast cast;
  GenCallPlan plan;
  GenCall c;
  CsEndpoint agent_collector[2];
  gint64 t;

  default_plan (&cast, &plan);
  gen_endpoint (&agent_collector[0], "10.0.0.1", 52011);
  gen_endpoint (&agent_collector[1], "10.0.0.5", 9060);
  gen_call_init (&c, cap, &plan);
  c.d->sink = hep_sink;
  c.d->sink_data = agent_collector;
  gen_call_invite (&c, TRUE);
  gen_dialog_respond_invite (c.d, T0 + GEN_MS (80), 180, NULL, NULL);
  t = gen_call_answer (&c, T0 + GEN_MS (2500));
  gen_call_hangup (&c, t + GEN_S (6), GEN_CALLER);
  /* HEP carries the signalling only: an answered call without RTP (the INVITE) */
  gen_expect_finding_frame (
      gen_expect_add_finding (cap->expect, "no-media", "error", c.d->expect, NULL),
      gen_expect_call_packet (c.d->expect, "INVITE", 0, 0));
  gen_call_clear (&c);
}
