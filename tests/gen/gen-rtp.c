/* gen-rtp.c — RTP streams carrying G.711 tones, with loss, jitter and DTMF */
#include "gen-rtp.h"

#include <string.h>

#define SAMPLES_PER_PACKET 160
#define NS_PER_SAMPLE 125000

typedef struct
{
  gint64 arrival;
  gint64 send;
  gint64 index;
  gboolean duplicate;
} Arrival;

void
gen_rtp_stream_init (GenRtpStream *s, GenCapture *cap, const CsEndpoint *src, const CsEndpoint *dst,
                     guint8 pt, GenTone tone, gint64 origin_ns, gboolean associated)
{
  memset (s, 0, sizeof *s);
  s->cap = cap;
  s->src = *src;
  s->dst = *dst;
  s->pt = pt;
  s->tone = tone;
  s->ssrc = (guint32) gen_rand_next (&cap->rand);
  s->seq0 = (guint16) gen_rand_range (&cap->rand, 1000, 30000);
  s->ts0 = (guint32) gen_rand_next (&cap->rand);
  s->origin_ns = origin_ns;
  s->marker_pending = TRUE;
  s->expect = gen_expect_add_stream (cap->expect, s->ssrc, src, dst, pt, associated);
}

void
gen_rtp_stream_move (GenRtpStream *s, const CsEndpoint *src, const CsEndpoint *dst)
{
  s->src = *src;
  s->dst = *dst;
  s->expect
      = gen_expect_add_stream (s->cap->expect, s->ssrc, src, dst, s->pt, s->expect->associated);
}

/* RTP clock ticks since the origin (8 kHz unless the codec's clock differs). */
static guint32
samples_at (const GenRtpStream *s, gint64 send_ns)
{
  guint64 ticks = (guint64) ((send_ns - s->origin_ns) / NS_PER_SAMPLE);

  return (guint32) (s->codec != NULL ? ticks * s->codec->clock / 8000 : ticks);
}

void
gen_rtp_stream_clear (GenRtpStream *s)
{
  g_clear_pointer (&s->encoder, gen_codec_encoder_free);
  g_clear_pointer (&s->srtp, gen_srtp_free);
}

static guint
send_packet (GenRtpStream *s, gint64 time_ns, gint64 index, guint8 pt, gboolean marker,
             guint32 timestamp, const guint8 *payload, gsize len)
{
  guint8 pkt[12 + SAMPLES_PER_PACKET + 64]; /* room for an SRTP tag and MKI */
  guint16 seq = (guint16) (s->seq0 + index);
  gsize n = 12 + len;

  g_assert (len <= SAMPLES_PER_PACKET);
  pkt[0] = 0x80;
  pkt[1] = (marker ? 0x80 : 0) | pt;
  pkt[2] = seq >> 8;
  pkt[3] = seq & 0xff;
  for (int i = 0; i < 4; i++)
    {
      pkt[4 + i] = (timestamp >> (24 - 8 * i)) & 0xff;
      pkt[8 + i] = (s->ssrc >> (24 - 8 * i)) & 0xff;
    }
  memcpy (pkt + 12, payload, len);
  if (s->srtp != NULL)
    n = gen_srtp_protect (s->srtp, pkt, n);
  return gen_send_udp (s->cap, time_ns, &s->src, &s->dst, pkt, n);
}

static gint
compare_arrivals (gconstpointer a, gconstpointer b)
{
  const Arrival *x = a, *y = b;

  if (x->arrival != y->arrival)
    return x->arrival < y->arrival ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

gint64
gen_rtp_send_audio (GenRtpStream *s, gint64 start, gint64 duration, const GenRtpImpair *impair)
{
  static const GenRtpImpair none = { 0 };
  g_autoptr (GArray) arrivals = g_array_new (FALSE, FALSE, sizeof (Arrival));
  GenRand *rand = &s->cap->rand;
  guint n = (guint) (duration / GEN_RTP_PTIME);
  guint burst_left = 0;
  gint64 last_arrival = 0;

  if (impair == NULL)
    impair = &none;
  for (guint k = 0; k < n; k++)
    {
      Arrival a = { 0 };

      a.send = start + (gint64) k * GEN_RTP_PTIME;
      a.index = s->next_index++;
      if (burst_left > 0)
        {
          burst_left--;
          continue;
        }
      if (impair->loss_burst_start > 0 && k > 0
          && gen_rand_double (rand) < impair->loss_burst_start)
        {
          burst_left = (guint) gen_rand_range (rand, 1, MAX (impair->loss_burst_max, 1)) - 1;
          continue;
        }
      /* a few hundred microseconds of ordinary scheduling noise */
      a.arrival = a.send + gen_rand_range (rand, 0, 400000);
      if (impair->jitter_share > 0 && gen_rand_double (rand) < impair->jitter_share)
        a.arrival += gen_rand_range (rand, impair->jitter_min_ns, impair->jitter_max_ns);
      /* one queue: a late packet delays the ones behind it, nothing overtakes */
      a.arrival = MAX (a.arrival, last_arrival + 50000);
      last_arrival = a.arrival;
      g_array_append_val (arrivals, a);
    }
  for (guint i = 0; i < impair->duplicates && arrivals->len > 2; i++)
    {
      guint at = (guint) gen_rand_range (rand, 1, arrivals->len - 1);
      Arrival dup = g_array_index (arrivals, Arrival, at);

      dup.arrival += 300000;
      dup.duplicate = TRUE;
      g_array_append_val (arrivals, dup);
    }
  for (guint i = 0; i < impair->reorders && arrivals->len > 3; i++)
    {
      guint at = (guint) gen_rand_range (rand, 1, arrivals->len - 3);
      Arrival *x = &g_array_index (arrivals, Arrival, at);
      Arrival *y = &g_array_index (arrivals, Arrival, at + 1);
      gint64 tmp = x->arrival;

      if (x->duplicate || y->duplicate || y->index != x->index + 1)
        continue;
      x->arrival = y->arrival;
      y->arrival = tmp;
    }
  g_array_sort (arrivals, compare_arrivals);

  for (guint i = 0; i < arrivals->len; i++)
    {
      const Arrival *a = &g_array_index (arrivals, Arrival, i);

      gen_rtp_send_audio_packet (s, a->index, a->send, a->arrival, a->duplicate);
    }
  return start + (gint64) n * GEN_RTP_PTIME;
}

guint
gen_rtp_send_audio_packet (GenRtpStream *s, gint64 index, gint64 send_ns, gint64 arrival_ns,
                           gboolean duplicate)
{
  guint32 samples = samples_at (s, send_ns);
  gint16 pcm[SAMPLES_PER_PACKET];
  guint8 payload[SAMPLES_PER_PACKET];
  gsize len = sizeof payload;
  gboolean marker = s->marker_pending;
  guint id;

  if (s->codec != NULL)
    {
      /* packets leave in order here (no impairment on codec scenarios): the encoder's
       * state follows the stream */
      if (s->encoder == NULL)
        s->encoder = gen_codec_encoder_new (s->codec);
      len = gen_codec_encode (s->encoder, samples, payload, sizeof payload);
    }
  else
    {
      gen_tone_fill (s->tone, samples, pcm, SAMPLES_PER_PACKET);
      for (guint j = 0; j < SAMPLES_PER_PACKET; j++)
        payload[j] = s->pt == 8 ? gen_g711_alaw_encode (pcm[j]) : gen_g711_ulaw_encode (pcm[j]);
    }
  s->marker_pending = FALSE;
  id = send_packet (s, arrival_ns, index, s->pt, marker, s->ts0 + samples, payload, len);
  gen_expect_stream_packet (s->expect, id, index, duplicate);
  return id;
}

static guint8
event_code (char digit)
{
  if (digit >= '0' && digit <= '9')
    return (guint8) (digit - '0');
  if (digit == '*')
    return 10;
  if (digit == '#')
    return 11;
  return 12 + (guint8) (g_ascii_toupper (digit) - 'A');
}

gint64
gen_rtp_send_dtmf (GenRtpStream *s, gint64 start, char digit, guint n_packets, GenExpectDtmf *dtmf)
{
  guint32 timestamp = s->ts0 + samples_at (s, start);
  guint total = n_packets + 3; /* RFC 4733: the end packet is sent three times */

  for (guint k = 0; k < total; k++)
    {
      gboolean end = k >= n_packets;
      guint duration = (end ? n_packets : k + 1) * SAMPLES_PER_PACKET;
      guint8 payload[4]
          = { event_code (digit), (end ? 0x80 : 0) | 10, duration >> 8, duration & 0xff };
      gint64 t = start + (gint64) k * GEN_RTP_PTIME + gen_rand_range (&s->cap->rand, 0, 300000);
      gint64 index = s->next_index++;
      guint id = send_packet (s, t, index, GEN_PT_TELEPHONE_EVENT, k == 0, timestamp, payload,
                              sizeof payload);

      gen_expect_stream_packet (s->expect, id, index, FALSE);
      if (dtmf != NULL)
        g_array_append_val (dtmf->packet_ids, id);
    }
  return start + (gint64) total * GEN_RTP_PTIME;
}
