/* cs-bench-gen.c — writes the carrier benchmark corpus: many concurrent G.711 calls
 *
 * Each call: INVITE → 100 → 180 → 200 (SDP) → ACK → 50 RTP packets each way at
 * 20 ms → BYE → 200 = 107 packets. Call-IDs and media endpoints can be reused
 * modulo K so the stream count stays small while the call count grows. With
 * --no-rtp a signalling-only corpus is written, with some retransmitted 200s
 * and some 486 failures. Output: classic pcap, Ethernet, µs timestamps. */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_EPOCH_US G_GINT64_CONSTANT (1709287200000000) /* 2024-03-01 10:00 UTC */
#define BENCH_RTP_PER_DIR 50
#define BENCH_RTP_PTIME_US 20000
#define BENCH_PCMU_BYTES 160

typedef enum
{
  EV_INVITE,
  EV_TRYING,
  EV_RINGING,
  EV_OK,
  EV_OK_RETRANS,
  EV_ACK,
  EV_BUSY,
  EV_BUSY_ACK,
  EV_RTP_A, /* caller → callee, n = packet index */
  EV_RTP_B, /* callee → caller */
  EV_BYE,
  EV_BYE_OK,
} BenchEventKind;

typedef struct
{
  gint64 ts_us;
  guint32 call;
  guint16 kind;
  guint16 n;
} BenchEvent;

typedef struct
{
  guint calls;
  guint call_ids;     /* 0 = unique */
  guint stream_pairs; /* 0 = unique */
  gboolean no_rtp;
  guint retrans_permille;
  guint fail_permille;
  gint64 interval_us; /* between call starts; 0 = automatic */
  const char *output;
} BenchOptions;

typedef struct
{
  FILE *out;
  guint8 frame[2048];
  guint64 packets;
} BenchWriter;

/* splitmix64 on the call index: reproducible per-call choices */
static guint64
bench_mix (guint64 x)
{
  x += G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  x = (x ^ (x >> 30)) * G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  x = (x ^ (x >> 27)) * G_GUINT64_CONSTANT (0x94d049bb133111eb);
  return x ^ (x >> 31);
}

static gboolean
bench_call_fails (const BenchOptions *o, guint call)
{
  return o->fail_permille > 0 && bench_mix (call * 2u) % 1000 < o->fail_permille;
}

static gboolean
bench_call_retransmits (const BenchOptions *o, guint call)
{
  return o->retrans_permille > 0 && bench_mix (call * 2u + 1) % 1000 < o->retrans_permille;
}

static guint
bench_media_index (const BenchOptions *o, guint call)
{
  return o->stream_pairs > 0 ? call % o->stream_pairs : call;
}

/* How many earlier calls used this call's media endpoints: RTP continues their numbering. */
static guint
bench_media_round (const BenchOptions *o, guint call)
{
  return o->stream_pairs > 0 ? call / o->stream_pairs : 0;
}

static void
bench_media_endpoint (guint media, gboolean callee, guint32 *ip, guint16 *port)
{
  *ip = (10u << 24) | ((callee ? 2u : 1u) << 16) | (((media / 250) % 250) << 8) | (media % 250 + 1);
  *port = (guint16) (16384 + 2 * ((media / 62500) % 20000));
}

#define BENCH_UAC_IP ((192u << 24) | (168u << 16) | (1u << 8) | 10u)
#define BENCH_UAS_IP ((192u << 24) | (168u << 16) | (2u << 8) | 20u)

static void
bench_put16 (guint8 *p, guint v)
{
  p[0] = (guint8) (v >> 8);
  p[1] = (guint8) v;
}

static void
bench_put32 (guint8 *p, guint32 v)
{
  p[0] = (guint8) (v >> 24);
  p[1] = (guint8) (v >> 16);
  p[2] = (guint8) (v >> 8);
  p[3] = (guint8) v;
}

static void
bench_le32 (guint8 *p, guint32 v)
{
  p[0] = (guint8) v;
  p[1] = (guint8) (v >> 8);
  p[2] = (guint8) (v >> 16);
  p[3] = (guint8) (v >> 24);
}

/* Ethernet + IPv4 + UDP around payload already placed at frame + 42. */
static void
bench_write_udp (BenchWriter *w, gint64 ts_us, guint32 src, guint16 sport, guint32 dst,
                 guint16 dport, gsize payload_len)
{
  guint8 *f = w->frame;
  guint8 rec[16];
  gsize len = 42 + payload_len;
  guint32 sum = 0;

  memset (f, 0, 42);
  f[0] = 0x02, f[5] = 0x02, f[6] = 0x02, f[11] = 0x01; /* locally administered MACs */
  bench_put16 (f + 12, 0x0800);
  f[14] = 0x45;
  bench_put16 (f + 16, (guint) (20 + 8 + payload_len));
  bench_put16 (f + 18, (guint) (w->packets & 0xffff));
  f[22] = 64;
  f[23] = 17;
  bench_put32 (f + 26, src);
  bench_put32 (f + 30, dst);
  for (guint i = 14; i < 34; i += 2)
    sum += ((guint32) f[i] << 8) | f[i + 1];
  while (sum >> 16)
    sum = (sum & 0xffff) + (sum >> 16);
  bench_put16 (f + 24, ~sum & 0xffff);
  bench_put16 (f + 34, sport);
  bench_put16 (f + 36, dport);
  bench_put16 (f + 38, (guint) (8 + payload_len));

  bench_le32 (rec, (guint32) (ts_us / 1000000));
  bench_le32 (rec + 4, (guint32) (ts_us % 1000000));
  bench_le32 (rec + 8, (guint32) len);
  bench_le32 (rec + 12, (guint32) len);
  fwrite (rec, 1, sizeof rec, w->out);
  fwrite (f, 1, len, w->out);
  w->packets++;
}

static void
bench_call_id (const BenchOptions *o, guint call, char *buf, gsize size)
{
  guint id = o->call_ids > 0 ? call % o->call_ids : call;

  g_snprintf (buf, size, "%08x-%u@bench.example.com", (guint32) bench_mix (id), id);
}

/* Writes one SIP message of the call into the frame buffer; returns its length. */
static gsize
bench_sip (const BenchOptions *o, guint call, BenchEventKind kind, char *p, gsize size)
{
  char call_id[64], sdp[512] = "", to_tag_param[32] = "";
  guint media = bench_media_index (o, call);
  gboolean from_uac = kind == EV_INVITE || kind == EV_ACK || kind == EV_BYE || kind == EV_BUSY_ACK;
  gboolean has_sdp = kind == EV_INVITE || kind == EV_OK || kind == EV_OK_RETRANS;
  gboolean to_tag = kind != EV_INVITE && kind != EV_TRYING;
  const char *start, *method;
  guint cseq = (kind == EV_BYE || kind == EV_BYE_OK) ? 2 : 1;
  guint branch = kind == EV_ACK ? 2 : (kind == EV_BYE || kind == EV_BYE_OK) ? 3 : 1;
  char start_line[160];
  gsize sdp_len = 0;

  bench_call_id (o, call, call_id, sizeof call_id);
  if (to_tag)
    g_snprintf (to_tag_param, sizeof to_tag_param, ";tag=t%u", call);
  switch (kind)
    {
    case EV_INVITE:
      start = "INVITE", method = "INVITE";
      break;
    case EV_TRYING:
      start = "SIP/2.0 100 Trying", method = "INVITE";
      break;
    case EV_RINGING:
      start = "SIP/2.0 180 Ringing", method = "INVITE";
      break;
    case EV_OK:
    case EV_OK_RETRANS:
      start = "SIP/2.0 200 OK", method = "INVITE";
      break;
    case EV_BUSY:
      start = "SIP/2.0 486 Busy Here", method = "INVITE";
      break;
    case EV_ACK:
    case EV_BUSY_ACK:
      start = "ACK", method = "ACK";
      break;
    case EV_BYE:
      start = "BYE", method = "BYE";
      break;
    default:
      start = "SIP/2.0 200 OK", method = "BYE";
      break;
    }
  if (kind == EV_BUSY_ACK)
    branch = 1; /* the ACK of a non-2xx final belongs to the INVITE transaction */
  if (g_str_has_prefix (start, "SIP/"))
    g_snprintf (start_line, sizeof start_line, "%s", start);
  else
    g_snprintf (start_line, sizeof start_line, "%s sip:%u@192.168.2.20:5060 SIP/2.0", start,
                2000000 + call);
  if (has_sdp)
    {
      guint32 ip;
      guint16 port;

      bench_media_endpoint (media, kind != EV_INVITE, &ip, &port);
      sdp_len = (gsize) g_snprintf (sdp, sizeof sdp,
                                    "v=0\r\n"
                                    "o=- %u 1 IN IP4 %u.%u.%u.%u\r\n"
                                    "s=bench\r\n"
                                    "c=IN IP4 %u.%u.%u.%u\r\n"
                                    "t=0 0\r\n"
                                    "m=audio %u RTP/AVP 0 101\r\n"
                                    "a=rtpmap:0 PCMU/8000\r\n"
                                    "a=rtpmap:101 telephone-event/8000\r\n"
                                    "a=ptime:20\r\n"
                                    "a=sendrecv\r\n",
                                    call, ip >> 24, (ip >> 16) & 255, (ip >> 8) & 255, ip & 255,
                                    ip >> 24, (ip >> 16) & 255, (ip >> 8) & 255, ip & 255, port);
    }
  return (gsize) g_snprintf (p, size,
                             "%s\r\n"
                             "Via: SIP/2.0/UDP 192.168.1.10:5060;branch=z9hG4bK%08x%u.%u\r\n"
                             "Max-Forwards: 70\r\n"
                             "From: \"Caller %u\" <sip:%u@192.168.1.10>;tag=f%u\r\n"
                             "To: <sip:%u@192.168.2.20>%s\r\n"
                             "Call-ID: %s\r\n"
                             "CSeq: %u %s\r\n"
                             "Contact: <sip:%u@%s:5060>\r\n"
                             "User-Agent: callscope-bench/1.0\r\n"
                             "%s"
                             "Content-Length: %zu\r\n"
                             "\r\n"
                             "%s",
                             start_line, (guint32) bench_mix (call), call, branch, 1000000 + call,
                             1000000 + call, call, 2000000 + call, to_tag_param, call_id, cseq,
                             method, from_uac ? 1000000 + call : 2000000 + call,
                             from_uac ? "192.168.1.10" : "192.168.2.20",
                             has_sdp ? "Content-Type: application/sdp\r\n" : "", sdp_len, sdp);
}

static void
bench_write_event (BenchWriter *w, const BenchOptions *o, const BenchEvent *ev)
{
  char *payload = (char *) w->frame + 42;
  gsize max = sizeof w->frame - 42;

  if (ev->kind == EV_RTP_A || ev->kind == EV_RTP_B)
    {
      gboolean callee = ev->kind == EV_RTP_B;
      guint media = bench_media_index (o, ev->call);
      guint32 n = bench_media_round (o, ev->call) * BENCH_RTP_PER_DIR + ev->n;
      guint32 sip, dip, ssrc = (guint32) bench_mix (media * 2u + callee);
      guint16 sport, dport;
      guint8 *r = (guint8 *) payload;

      bench_media_endpoint (media, callee, &sip, &sport);
      bench_media_endpoint (media, !callee, &dip, &dport);
      r[0] = 0x80;
      r[1] = (guint8) (ev->n == 0 ? 0x80 : 0x00); /* marker on the first packet, PT 0 */
      bench_put16 (r + 2, (guint) ((ssrc >> 16) + n) & 0xffff);
      bench_put32 (r + 4, (ssrc & 0xffff) * 8u + n * BENCH_PCMU_BYTES);
      bench_put32 (r + 8, ssrc);
      memset (r + 12, 0xff, BENCH_PCMU_BYTES); /* PCMU silence */
      bench_write_udp (w, ev->ts_us, sip, sport, dip, dport, 12 + BENCH_PCMU_BYTES);
      return;
    }
  {
    gsize len = bench_sip (o, ev->call, (BenchEventKind) ev->kind, payload, max);
    gboolean from_uac = ev->kind == EV_INVITE || ev->kind == EV_ACK || ev->kind == EV_BYE
                        || ev->kind == EV_BUSY_ACK;

    if (len >= max)
      len = max - 1;
    bench_write_udp (w, ev->ts_us, from_uac ? BENCH_UAC_IP : BENCH_UAS_IP, 5060,
                     from_uac ? BENCH_UAS_IP : BENCH_UAC_IP, 5060, len);
  }
}

static void
bench_add (GArray *events, gint64 ts_us, guint call, BenchEventKind kind, guint n)
{
  BenchEvent ev = { ts_us, call, (guint16) kind, (guint16) n };

  g_array_append_val (events, ev);
}

/* The call's packets with their times (ms after its start). */
static void
bench_schedule_call (const BenchOptions *o, guint call, gint64 start, GArray *events)
{
  const gint64 ms = 1000;
  gint64 media_start = start + 540 * ms;

  bench_add (events, start, call, EV_INVITE, 0);
  bench_add (events, start + 5 * ms, call, EV_TRYING, 0);
  if (bench_call_fails (o, call))
    {
      bench_add (events, start + 300 * ms, call, EV_BUSY, 0);
      bench_add (events, start + 305 * ms, call, EV_BUSY_ACK, 0);
      return;
    }
  bench_add (events, start + 20 * ms, call, EV_RINGING, 0);
  bench_add (events, start + 520 * ms, call, EV_OK, 0);
  if (bench_call_retransmits (o, call))
    {
      bench_add (events, start + 1020 * ms, call, EV_OK_RETRANS, 0);
      bench_add (events, start + 1025 * ms, call, EV_ACK, 0);
      media_start = start + 1040 * ms;
    }
  else
    bench_add (events, start + 530 * ms, call, EV_ACK, 0);
  if (!o->no_rtp)
    for (guint n = 0; n < BENCH_RTP_PER_DIR; n++)
      {
        bench_add (events, media_start + n * BENCH_RTP_PTIME_US, call, EV_RTP_A, n);
        bench_add (events, media_start + n * BENCH_RTP_PTIME_US + 3 * ms, call, EV_RTP_B, n);
      }
  bench_add (events, media_start + 1020 * ms, call, EV_BYE, 0);
  bench_add (events, media_start + 1025 * ms, call, EV_BYE_OK, 0);
}

static int
bench_event_compare (gconstpointer a, gconstpointer b)
{
  const BenchEvent *x = a, *y = b;

  if (x->ts_us != y->ts_us)
    return x->ts_us < y->ts_us ? -1 : 1;
  if (x->call != y->call)
    return x->call < y->call ? -1 : 1;
  return (int) x->kind - (int) y->kind;
}

int
main (int argc, char **argv)
{
  BenchOptions o = { 5000, 100, 100, FALSE, 0, 0, 0, NULL };
  gint64 interval_us = 0;
  GOptionEntry entries[] = {
    { "calls", 0, 0, G_OPTION_ARG_INT, &o.calls, "Number of calls (5000)", "N" },
    { "call-ids", 0, 0, G_OPTION_ARG_INT, &o.call_ids, "Reuse Call-IDs modulo K (100; 0 = unique)",
      "K" },
    { "stream-pairs", 0, 0, G_OPTION_ARG_INT, &o.stream_pairs,
      "Reuse media endpoints modulo K (100; 0 = unique)", "K" },
    { "no-rtp", 0, 0, G_OPTION_ARG_NONE, &o.no_rtp, "Signalling only", NULL },
    { "retransmit-permille", 0, 0, G_OPTION_ARG_INT, &o.retrans_permille,
      "Calls whose 200 OK is retransmitted (per mille)", "P" },
    { "fail-permille", 0, 0, G_OPTION_ARG_INT, &o.fail_permille,
      "Calls rejected with 486 (per mille)", "P" },
    { "interval-us", 0, 0, G_OPTION_ARG_INT64, &interval_us,
      "Time between call starts (default: so calls sharing media do not overlap)", "US" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output, "Output pcap", "FILE" },
    { NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("- write a benchmark corpus");
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) events = NULL;
  BenchWriter w = { 0 };
  guint8 header[24] = { 0 };
  char *buffer;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || o.output == NULL || o.calls == 0)
    {
      g_printerr ("cs-bench-gen: %s\n",
                  error != NULL ? error->message : "need --output and --calls > 0");
      return 2;
    }
  /* Calls sharing media endpoints must not overlap, or their RTP would interleave. */
  if (interval_us > 0)
    o.interval_us = interval_us;
  else if (o.stream_pairs > 0 && !o.no_rtp)
    o.interval_us = MAX (1000, (1600000 + o.stream_pairs - 1) / o.stream_pairs);
  else
    o.interval_us = 1000;

  events = g_array_sized_new (FALSE, FALSE, sizeof (BenchEvent),
                              o.calls * (o.no_rtp ? 9u : 9u + 2 * BENCH_RTP_PER_DIR));
  for (guint call = 0; call < o.calls; call++)
    bench_schedule_call (&o, call, BENCH_EPOCH_US + (gint64) call * o.interval_us, events);
  g_array_sort (events, bench_event_compare);

  w.out = fopen (o.output, "wb");
  if (w.out == NULL)
    {
      g_printerr ("cs-bench-gen: cannot write %s\n", o.output);
      return 1;
    }
  buffer = g_malloc (1 << 22);
  setvbuf (w.out, buffer, _IOFBF, 1 << 22);
  bench_le32 (header, 0xa1b2c3d4);
  header[4] = 2, header[6] = 4;    /* version 2.4 */
  bench_le32 (header + 16, 65535); /* snaplen */
  bench_le32 (header + 20, 1);     /* Ethernet */
  fwrite (header, 1, sizeof header, w.out);
  for (guint i = 0; i < events->len; i++)
    bench_write_event (&w, &o, &g_array_index (events, BenchEvent, i));
  if (fclose (w.out) != 0)
    {
      g_printerr ("cs-bench-gen: writing %s failed\n", o.output);
      return 1;
    }
  g_free (buffer);
  g_print ("%s: %u calls, %" G_GUINT64_FORMAT " packets\n", o.output, o.calls, w.packets);
  g_free ((char *) o.output);
  return 0;
}
