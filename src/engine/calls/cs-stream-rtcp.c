/* cs-stream-rtcp.c — attaches RTCP reports to the RTP streams they are about */
#include "cs-stream-rtcp.h"

#include <stdlib.h>

#include "rtp/cs-rtp-run.h"
#include "net/cs-decode.h"
#include "rtp/cs-rtcp.h"
#include "cs-stream-private.h"

void
cs_stream_rtcp_free (CsStreamRtcp *rtcp)
{
  if (rtcp == NULL)
    return;
  g_free (rtcp->cname);
  g_array_unref (rtcp->reports);
  g_array_unref (rtcp->frames);
  g_free (rtcp);
}

static CsStreamRtcp *
cs_stream_rtcp_new (void)
{
  CsStreamRtcp *rtcp = g_new0 (CsStreamRtcp, 1);

  rtcp->last_jitter_ms = rtcp->max_jitter_ms = -1;
  rtcp->min_rtt_ms = rtcp->mean_rtt_ms = rtcp->max_rtt_ms = -1;
  rtcp->xr_mos_lq = rtcp->xr_mos_cq = rtcp->xr_r_factor = -1;
  rtcp->reports = g_array_new (FALSE, FALSE, sizeof (CsStreamRtcpReport));
  rtcp->frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  return rtcp;
}

/* An SR as seen on the wire: which flow carried it and the middle of its NTP time,
 * the value a later report block names as LSR. */
typedef struct
{
  CsEndpoint src, dst;
  guint32 ntp_mid;
} CsSrKey;

typedef struct
{
  CsSrKey key;
  gint64 arrival_ns;
  guint32 frame;
} CsSrSeen;

static guint
cs_sr_key_hash (gconstpointer p)
{
  const CsSrKey *k = p;

  return cs_endpoint_hash (&k->src) * 31 + cs_endpoint_hash (&k->dst) * 17 + k->ntp_mid;
}

static gboolean
cs_sr_key_equal (gconstpointer a, gconstpointer b)
{
  const CsSrKey *x = a, *y = b;

  return x->ntp_mid == y->ntp_mid && cs_endpoint_equal (&x->src, &y->src)
         && cs_endpoint_equal (&x->dst, &y->dst);
}

typedef struct
{
  GHashTable *by_ssrc;  /* ssrc → GPtrArray of CsStream* */
  GHashTable *rtcp;     /* CsStream* → CsStreamRtcp* being filled */
  GHashTable *sr_seen;  /* CsSrKey* → CsSrSeen* (key inside) */
  GHashTable *rtt_sums; /* CsStream* → double* sum of RTTs */
} CsAttach;

typedef enum
{
  CS_FROM_SOURCE,   /* the stream's sender reporting (SR, SDES, BYE) */
  CS_FROM_RECEIVER, /* the stream's receiver reporting (report blocks, XR) */
} CsReporter;

/* An RTCP endpoint belongs to an RTP endpoint: same address, same port (rtcp-mux)
 * or the next one (RFC 3550 §11). */
static gboolean
cs_rtcp_port_fits (const CsEndpoint *rtcp, const CsEndpoint *rtp)
{
  return cs_addr_equal (&rtcp->addr, &rtp->addr)
         && (rtcp->port == rtp->port || rtcp->port == (guint) rtp->port + 1);
}

static CsStream *
cs_attach_find (CsAttach *a, guint32 ssrc, const CsRtcpDatagram *d, CsReporter who)
{
  GPtrArray *candidates = g_hash_table_lookup (a->by_ssrc, GUINT_TO_POINTER (ssrc));
  CsStream *by_address = NULL;

  for (guint i = 0; candidates != NULL && i < candidates->len; i++)
    {
      CsStream *s = g_ptr_array_index (candidates, i);
      const CsEndpoint *near
          = who == CS_FROM_SOURCE ? cs_stream_get_src (s) : cs_stream_get_dst (s);
      const CsEndpoint *far = who == CS_FROM_SOURCE ? cs_stream_get_dst (s) : cs_stream_get_src (s);

      if (cs_rtcp_port_fits (d->src, near) && cs_rtcp_port_fits (d->dst, far))
        return s;
      if (by_address == NULL && cs_addr_equal (&d->src->addr, &near->addr)
          && cs_addr_equal (&d->dst->addr, &far->addr))
        by_address = s;
    }
  return by_address;
}

static CsStreamRtcp *
cs_attach_rtcp_of (CsAttach *a, CsStream *stream, guint32 frame)
{
  CsStreamRtcp *rtcp = g_hash_table_lookup (a->rtcp, stream);

  if (rtcp == NULL)
    {
      rtcp = cs_stream_rtcp_new ();
      g_hash_table_insert (a->rtcp, stream, rtcp);
    }
  /* One datagram may carry several things about the same stream. */
  if (rtcp->frames->len == 0
      || g_array_index (rtcp->frames, guint32, rtcp->frames->len - 1) != frame)
    g_array_append_val (rtcp->frames, frame);
  return rtcp;
}

static void
cs_attach_remember_sr (CsAttach *a, const CsRtcpDatagram *d, const CsRtcpCompound *c)
{
  CsSrSeen *seen = g_new0 (CsSrSeen, 1);

  seen->key.src = *d->src;
  seen->key.dst = *d->dst;
  seen->key.ntp_mid = (guint32) (c->sender_info.ntp >> 16);
  seen->arrival_ns = d->arrival_ns;
  seen->frame = d->frame;
  g_hash_table_replace (a->sr_seen, &seen->key, seen);
}

/* RFC 3550 A.8 with capture times: the SR that LSR names crossed the capture point at
 * sr->arrival_ns; the report came back at arrival_ns after DLSR spent at the far end.
 * Captured midway (or with a far end that rounds DLSR) the result may dip a little below
 * zero: down to CS_RTT_SLACK_MS it counts as 0, further down it is not an RTT. */
#define CS_RTT_SLACK_MS 5.0

static double
cs_attach_rtt (CsAttach *a, const CsRtcpDatagram *d, const CsRtcpReportBlock *b, guint32 *sr_frame)
{
  CsSrKey key = { *d->dst, *d->src, b->lsr };
  const CsSrSeen *sr;
  guint32 sr_mid, rr_mid;
  double rtt_ms;

  *sr_frame = 0;
  if (b->lsr == 0)
    return -1;
  sr = g_hash_table_lookup (a->sr_seen, &key);
  if (sr == NULL || sr->arrival_ns > d->arrival_ns)
    return -1;
  sr_mid = (guint32) (cs_rtcp_ntp_from_unix_ns (sr->arrival_ns) >> 16);
  rr_mid = (guint32) (cs_rtcp_ntp_from_unix_ns (d->arrival_ns) >> 16);
  /* modular 16.16 arithmetic, as A.8; signed so that a small dip shows */
  rtt_ms = (gint32) (rr_mid - sr_mid - b->dlsr) * 1000.0 / 65536.0;
  if (rtt_ms < -CS_RTT_SLACK_MS)
    return -1;
  *sr_frame = sr->frame;
  return MAX (rtt_ms, 0.0);
}

static void
cs_attach_block (CsAttach *a, const CsRtcpDatagram *d, const CsRtcpReportBlock *b)
{
  CsStream *stream = cs_attach_find (a, b->ssrc, d, CS_FROM_RECEIVER);
  CsStreamRtcp *rtcp;
  CsStreamRtcpReport report = { 0 };
  guint clock_rate;

  if (stream == NULL)
    return;
  rtcp = cs_attach_rtcp_of (a, stream, d->frame);
  clock_rate = cs_stream_get_stats (stream)->clock_rate;
  report.frame = d->frame;
  report.arrival_ns = d->arrival_ns;
  report.fraction_lost = b->fraction_lost;
  report.cumulative_lost = b->cumulative_lost;
  report.jitter = b->jitter;
  report.jitter_ms = clock_rate > 0 ? b->jitter * 1000.0 / clock_rate : -1;
  report.rtt_ms = cs_attach_rtt (a, d, b, &report.sr_frame);
  g_array_append_val (rtcp->reports, report);

  rtcp->n_rr++;
  rtcp->last_fraction_lost = b->fraction_lost;
  rtcp->max_fraction_lost = MAX (rtcp->max_fraction_lost, b->fraction_lost);
  rtcp->last_cumulative_lost = b->cumulative_lost;
  rtcp->last_jitter_ms = report.jitter_ms;
  rtcp->max_jitter_ms = MAX (rtcp->max_jitter_ms, report.jitter_ms);
  if (report.rtt_ms >= 0)
    {
      double *sum = g_hash_table_lookup (a->rtt_sums, stream);

      if (sum == NULL)
        {
          sum = g_new0 (double, 1);
          g_hash_table_insert (a->rtt_sums, stream, sum);
        }
      *sum += report.rtt_ms;
      rtcp->min_rtt_ms = rtcp->n_rtt == 0 ? report.rtt_ms : MIN (rtcp->min_rtt_ms, report.rtt_ms);
      rtcp->max_rtt_ms = MAX (rtcp->max_rtt_ms, report.rtt_ms);
      rtcp->n_rtt++;
      rtcp->mean_rtt_ms = *sum / rtcp->n_rtt;
    }
}

static double
cs_xr_value (guint8 value, double scale)
{
  return value == 127 ? -1 : value / scale;
}

static void
cs_attach_xr (CsAttach *a, const CsRtcpDatagram *d, const CsRtcpXrVoip *xr)
{
  CsStream *stream = cs_attach_find (a, xr->ssrc, d, CS_FROM_RECEIVER);
  CsStreamRtcp *rtcp;

  if (stream == NULL)
    return;
  rtcp = cs_attach_rtcp_of (a, stream, d->frame);
  rtcp->has_xr_voip = TRUE;
  rtcp->xr_mos_lq = cs_xr_value (xr->mos_lq, 10.0);
  rtcp->xr_mos_cq = cs_xr_value (xr->mos_cq, 10.0);
  rtcp->xr_r_factor = cs_xr_value (xr->r_factor, 1.0);
  rtcp->xr_loss_rate = xr->loss_rate / 256.0;
  rtcp->xr_discard_rate = xr->discard_rate / 256.0;
  rtcp->xr_burst_density = xr->burst_density / 256.0;
  rtcp->xr_gap_density = xr->gap_density / 256.0;
  rtcp->xr_burst_duration_ms = xr->burst_duration;
  rtcp->xr_gap_duration_ms = xr->gap_duration;
}

static void
cs_attach_datagram (CsAttach *a, const CsRtcpDatagram *d)
{
  CsRtcpCompound c;
  CsStream *source = NULL;

  /* A damaged tail still leaves the sub-packets before it. */
  if (!cs_rtcp_parse (d->data, d->len, &c) && c.n_packets == 0)
    return;
  if (c.has_sr)
    cs_attach_remember_sr (a, d, &c);
  if (c.has_sr || c.has_rr)
    source = cs_attach_find (a, c.sender_ssrc, d, CS_FROM_SOURCE);
  if (source != NULL)
    {
      CsStreamRtcp *rtcp = cs_attach_rtcp_of (a, source, d->frame);

      if (c.has_sr)
        rtcp->n_sr++;
      if (rtcp->cname == NULL && c.cname[0] != '\0')
        rtcp->cname = g_utf8_make_valid (c.cname, -1);
      if (c.has_bye && c.bye_ssrc == c.sender_ssrc)
        rtcp->bye_seen = TRUE;
    }
  for (guint i = 0; i < MIN (c.n_blocks, CS_RTCP_MAX_REPORT_BLOCKS); i++)
    cs_attach_block (a, d, &c.blocks[i]);
  if (c.has_xr_voip)
    cs_attach_xr (a, d, &c.xr_voip);
}

void
cs_stream_rtcp_attach (GPtrArray *streams, const CsRtcpDatagram *datagrams, gsize n)
{
  CsAttach a;
  GHashTableIter iter;
  gpointer key, value;

  if (streams == NULL || streams->len == 0 || n == 0)
    return;
  a.by_ssrc = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_ptr_array_unref);
  a.rtcp = g_hash_table_new (NULL, NULL);
  a.sr_seen = g_hash_table_new_full (cs_sr_key_hash, cs_sr_key_equal, NULL, g_free);
  a.rtt_sums = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  for (guint i = 0; i < streams->len; i++)
    {
      CsStream *s = g_ptr_array_index (streams, i);
      gpointer ssrc = GUINT_TO_POINTER (cs_stream_get_ssrc (s));
      GPtrArray *list = g_hash_table_lookup (a.by_ssrc, ssrc);

      if (list == NULL)
        {
          list = g_ptr_array_new ();
          g_hash_table_insert (a.by_ssrc, ssrc, list);
        }
      g_ptr_array_add (list, s);
    }
  for (gsize i = 0; i < n; i++)
    cs_attach_datagram (&a, &datagrams[i]);

  g_hash_table_iter_init (&iter, a.rtcp);
  while (g_hash_table_iter_next (&iter, &key, &value))
    cs_stream_set_rtcp (CS_STREAM (key), value);
  g_hash_table_unref (a.by_ssrc);
  g_hash_table_unref (a.rtcp);
  g_hash_table_unref (a.sr_seen);
  g_hash_table_unref (a.rtt_sums);
}

static int
cs_compare_datagrams (const void *a, const void *b)
{
  const CsRtcpDatagram *x = a, *y = b;

  return x->frame < y->frame ? -1 : x->frame > y->frame;
}

void
cs_stream_rtcp_attach_refs (GPtrArray *streams, const GArray *rtcp_refs, CsCaptureSet *set)
{
  g_autoptr (GArray) datagrams = NULL;

  if (streams == NULL || streams->len == 0 || rtcp_refs == NULL || rtcp_refs->len == 0)
    return;
  datagrams = g_array_sized_new (FALSE, FALSE, sizeof (CsRtcpDatagram), rtcp_refs->len);
  for (guint i = 0; i < rtcp_refs->len; i++)
    {
      const CsRtcpRef *ref = &g_array_index (rtcp_refs, CsRtcpRef, i);
      CsFrame frame;
      const guint8 *data = cs_capture_set_read_frame (set, ref->frame, &frame);
      CsPacket pkt;
      CsRtcpDatagram d;

      /* Re-decoding a frame that decoded once gives the same UDP payload; reassembled
       * datagrams are not kept, so RTCP in IP fragments is skipped. */
      if (data == NULL || cs_decode_frame (frame.linktype, data, frame.caplen, &pkt) != CS_DECODE_OK
          || pkt.ip_proto != CS_IP_PROTO_UDP)
        continue;
      d.src = &ref->src;
      d.dst = &ref->dst;
      d.frame = ref->frame;
      d.arrival_ns = frame.ts_ns;
      d.data = pkt.payload;
      d.len = pkt.payload_len;
      g_array_append_val (datagrams, d);
    }
  qsort (datagrams->data, datagrams->len, sizeof (CsRtcpDatagram), cs_compare_datagrams);
  cs_stream_rtcp_attach (streams, (const CsRtcpDatagram *) datagrams->data, datagrams->len);
}
