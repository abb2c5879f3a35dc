/* cs-merge.c — reduce step: order-dependent work (reassembly, dialogs, RTP runs) */
#include "cs-merge.h"

/* the messages' fields as reads: the merge thread's per-message path (measured) */
#include "sip/cs-sip-message-layout.h"

#include "net/cs-decode.h"
#include "base/cs-fixed-pool.h"
#include "net/cs-ip-reassembly.h"
#include "cs-rtp-run-table.h"
#include "calls/cs-stream-binder.h"
#include "net/cs-tcp-reassembly.h"
#include "net/cs-tls-stream.h"

#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

/* Every store here is capped by stats->limits (CsLimits); what a cap drops is
 * counted in stats and becomes a dropped-state finding. */

/* RTCP packets remembered for attaching to streams (about 44 MiB at the cap). */
#define CS_MAX_RTCP_PACKETS (1u << 20)

/* Status codes 100–699 counted in CsSipCounts. */
#define CS_SIP_COUNTED_STATUSES 600

/* Requests of known methods and responses with usual codes are counted here and added to
 * the stats' tables after each chunk (a table update per message was most of what counting
 * cost). A name or code still enters its table when first seen, so the tables fill in the
 * same order and the method-name cap folds the same names. */
typedef struct
{
  gboolean method_in_table[CS_SIP_METHOD_COUNT];
  guint method_pending[CS_SIP_METHOD_COUNT];
  gboolean status_in_table[CS_SIP_COUNTED_STATUSES];
  guint status_pending[CS_SIP_COUNTED_STATUSES];
  gboolean dirty;
} CsSipCounts;

struct _CsMerge
{
  CsCaptureSet *set;
  CsCaptureStats *stats;
  CsCallTracker *tracker;
  CsStreamBinder *binder;
  CsIpReassembler *ip;
  CsTcpReassembler *tcp;
  CsTlsTracker *tls;       /* TLS connections: listed, decrypted with the key log */
  gboolean tls_delivering; /* the TCP reassembler is fed decrypted TLS bytes */
  CsRtpRunTable runs;      /* key → index in run_order */
  GPtrArray *run_order;
  CsFixedPool *run_pool; /* the CsRtpRun structs: they go back in one piece */
  GArray *rtcp;
  GPtrArray *orphans;
  guint n_threads; /* for per-stream measurement; 0 = all processors */ /* malformed SIP messages
                                                                           that joined no call */
  CsLimits limits;
  guint new_flows_since_sweep; /* new RTP flows seen since the last eviction sweep */
  CsSipCounts sip_counts;
};

static void
cs_merge_free_run (CsMerge *merge, CsRtpRun *run)
{
  cs_rtp_pack_clear (&run->pack);
  cs_fixed_pool_release (merge->run_pool, run);
}

/* Frees every run's packets (the structs go with the pool). */
static void
cs_merge_clear_runs (CsMerge *merge)
{
  for (guint i = 0; i < merge->run_order->len; i++)
    cs_rtp_pack_clear (&((CsRtpRun *) g_ptr_array_index (merge->run_order, i))->pack);
}

CsMerge *
cs_merge_new (CsCaptureSet *set, CsCaptureStats *stats)
{
  CsMerge *merge = g_new0 (CsMerge, 1);

  merge->set = set;
  merge->stats = stats;
  cs_limits_fill_defaults (&stats->limits);
  merge->limits = stats->limits;
  merge->new_flows_since_sweep = G_MAXUINT; /* the first time the cap is hit, sweep */
  merge->tracker = cs_call_tracker_new ();
  cs_call_tracker_set_limits (merge->tracker, merge->limits.max_calls,
                              merge->limits.max_messages_per_call);
  merge->binder = cs_stream_binder_new ();
  merge->ip = cs_ip_reassembler_new (merge->limits.max_ip_bytes, merge->limits.max_ip_datagrams);
  merge->tcp = cs_tcp_reassembler_new (merge->limits.max_tcp_bytes_per_stream,
                                       merge->limits.max_tcp_streams);
  merge->tls = cs_tls_tracker_new (NULL, merge->limits.max_tcp_streams);
  cs_rtp_run_table_init (&merge->runs);
  merge->run_order = g_ptr_array_new ();
  merge->run_pool = cs_fixed_pool_new (sizeof (CsRtpRun));
  merge->rtcp = g_array_new (FALSE, FALSE, sizeof (CsRtcpRef));
  merge->orphans = g_ptr_array_new_with_free_func ((GDestroyNotify) cs_sip_message_unref);
  return merge;
}

static void cs_merge_flush_sip_counts (CsMerge *merge);

/* Copies the reassemblers' and tracker's drop counters into the stats. */
static void
cs_merge_sync_stats (CsMerge *merge)
{
  cs_merge_flush_sip_counts (merge);
  merge->stats->ip_fragments_evicted = cs_ip_reassembler_get_evicted (merge->ip);
  merge->stats->tcp_streams_evicted = cs_tcp_reassembler_get_evicted (merge->tcp);
  merge->stats->call_limit_messages = cs_call_tracker_get_refused_messages (merge->tracker);
  merge->stats->call_messages_dropped = cs_call_tracker_get_dropped_messages (merge->tracker);
}

void
cs_merge_free (CsMerge *merge)
{
  if (merge == NULL)
    return;
  cs_merge_sync_stats (merge);
  cs_call_tracker_free (merge->tracker);
  cs_stream_binder_free (merge->binder);
  cs_ip_reassembler_free (merge->ip);
  cs_tcp_reassembler_free (merge->tcp);
  cs_tls_tracker_free (merge->tls);
  cs_rtp_run_table_clear (&merge->runs);
  cs_merge_clear_runs (merge);
  g_ptr_array_unref (merge->run_order);
  cs_fixed_pool_free (merge->run_pool);
  g_array_unref (merge->rtcp);
  g_ptr_array_unref (merge->orphans);
  g_free (merge);
}

void
cs_merge_set_keylog (CsMerge *merge, CsTlsKeylog *keylog)
{
  cs_tls_tracker_free (merge->tls);
  merge->tls = cs_tls_tracker_new (keylog, merge->limits.max_tcp_streams);
}

const GArray *
cs_merge_get_tls_sessions (CsMerge *merge)
{
  return cs_tls_tracker_get_sessions (merge->tls);
}

CsCallTracker *
cs_merge_get_tracker (CsMerge *merge)
{
  return merge->tracker;
}

GPtrArray *
cs_merge_get_rtp_runs (CsMerge *merge)
{
  return merge->run_order;
}

void
cs_merge_set_threads (CsMerge *merge, guint n_threads)
{
  merge->n_threads = n_threads;
}

GPtrArray *
cs_merge_build_streams (CsMerge *merge)
{
  /* Findings are detected right after this: the counters must be final. */
  cs_merge_sync_stats (merge);
  return cs_stream_binder_build (merge->binder, merge->run_order, merge->n_threads);
}

void
cs_merge_drop_rtp_runs (CsMerge *merge)
{
  cs_merge_clear_runs (merge);
  g_ptr_array_set_size (merge->run_order, 0);
  /* back to its first size: the streams made next reuse the memory */
  cs_rtp_run_table_clear (&merge->runs);
  cs_rtp_run_table_init (&merge->runs);
  cs_fixed_pool_free (merge->run_pool);
  merge->run_pool = cs_fixed_pool_new (sizeof (CsRtpRun));
  merge->new_flows_since_sweep = G_MAXUINT;
}

GPtrArray *
cs_merge_take_streams (CsMerge *merge)
{
  CsStreamPlan *plan;

  cs_merge_sync_stats (merge);
#ifdef __GLIBC__
  /* The decode workers are done: their arenas' freed chunk buffers (a few MiB each) go
   * back to the system instead of staying resident through the rest of the load. */
  malloc_trim (0);
#endif
  plan = cs_stream_binder_plan (merge->binder, merge->run_order);
  cs_merge_drop_rtp_runs (merge);
  cs_stream_binder_free (merge->binder);
  merge->binder = cs_stream_binder_new ();
  return cs_stream_plan_build (plan, merge->n_threads);
}

GPtrArray *
cs_merge_get_orphans (CsMerge *merge)
{
  return merge->orphans;
}

GArray *
cs_merge_get_rtcp (CsMerge *merge)
{
  return merge->rtcp;
}

/* Adds n to a name already in the table, without copying it again: its own key is taken
 * out and put back with the new count. FALSE when the name is new. */
static gboolean
cs_merge_count_known_method (GHashTable *methods, const char *name, guint n)
{
  gpointer key, count;

  if (!g_hash_table_steal_extended (methods, name, &key, &count))
    return FALSE;
  g_hash_table_insert (methods, key, GUINT_TO_POINTER (GPOINTER_TO_UINT (count) + n));
  return TRUE;
}

/* Counts a request under its name; FALSE when the name was folded into "OTHER". */
static gboolean
cs_merge_count_method_name (CsMerge *merge, const char *name)
{
  GHashTable *methods = merge->stats->sip_methods;

  if (cs_merge_count_known_method (methods, name, 1))
    return TRUE;
  /* Method names come from the packets: a flood of made-up ones is folded. */
  if (g_hash_table_size (methods) >= merge->limits.max_method_names)
    {
      if (!cs_merge_count_known_method (methods, "OTHER", 1))
        g_hash_table_insert (methods, g_strdup ("OTHER"), GUINT_TO_POINTER (1));
      return FALSE;
    }
  g_hash_table_insert (methods, g_strdup (name), GUINT_TO_POINTER (1));
  return TRUE;
}

static void
cs_merge_count_status (GHashTable *statuses, guint code, guint n)
{
  gpointer key = GUINT_TO_POINTER (code);
  gpointer count = g_hash_table_lookup (statuses, key);

  g_hash_table_replace (statuses, key, GUINT_TO_POINTER (GPOINTER_TO_UINT (count) + n));
}

/* Adds the counts held back by cs_merge_count_sip to the stats' tables. */
static void
cs_merge_flush_sip_counts (CsMerge *merge)
{
  CsSipCounts *counts = &merge->sip_counts;

  if (!counts->dirty)
    return;
  for (guint m = 0; m < CS_SIP_METHOD_COUNT; m++)
    if (counts->method_pending[m] > 0)
      {
        cs_merge_count_known_method (merge->stats->sip_methods,
                                     cs_sip_method_to_string ((CsSipMethod) m),
                                     counts->method_pending[m]);
        counts->method_pending[m] = 0;
      }
  for (guint i = 0; i < CS_SIP_COUNTED_STATUSES; i++)
    if (counts->status_pending[i] > 0)
      {
        cs_merge_count_status (merge->stats->sip_statuses, 100 + i, counts->status_pending[i]);
        counts->status_pending[i] = 0;
      }
  counts->dirty = FALSE;
}

static void
cs_merge_count_sip (CsMerge *merge, const CsSipMessage *msg)
{
  CsCaptureStats *stats = merge->stats;
  CsSipCounts *counts = &merge->sip_counts;
  guint status;

  stats->sip_messages++;
  if (cs_sip_message_get_malformed (msg) != NULL)
    stats->malformed_sip++;
  if (cs_sip_message_is_request (msg))
    {
      CsSipMethod m = cs_sip_message_get_method (msg);
      const char *name = cs_sip_message_get_method_name (msg);

      /* a known method is spelled as its constant (names are case-sensitive) */
      if (m != CS_SIP_METHOD_UNKNOWN && (guint) m < CS_SIP_METHOD_COUNT && name != NULL
          && strcmp (name, cs_sip_method_to_string (m)) == 0)
        {
          if (counts->method_in_table[m])
            {
              counts->method_pending[m]++;
              counts->dirty = TRUE;
            }
          else
            counts->method_in_table[m] = cs_merge_count_method_name (merge, name);
          return;
        }
      cs_merge_count_method_name (merge, name != NULL ? name : "UNKNOWN");
      return;
    }
  status = cs_sip_message_get_status_code (msg);
  if (status >= 100 && status < 100 + CS_SIP_COUNTED_STATUSES)
    {
      guint i = status - 100;

      if (counts->status_in_table[i])
        {
          counts->status_pending[i]++;
          counts->dirty = TRUE;
        }
      else
        {
          cs_merge_count_status (stats->sip_statuses, status, 1);
          counts->status_in_table[i] = TRUE;
        }
    }
  else
    cs_merge_count_status (stats->sip_statuses, status, 1);
}

static void
cs_merge_add_sip (CsMerge *merge, CsSipMessage *msg)
{
  CsCall *call;

  cs_merge_count_sip (merge, msg);
  if (merge->set != NULL && cs_capture_set_has_points (merge->set))
    {
      CsFrame frame;

      if (cs_capture_set_get_frame (merge->set, cs_sip_message_get_frame (msg), &frame))
        cs_sip_message_set_point (msg, frame.file + 1u);
    }
  call = cs_call_tracker_add (merge->tracker, msg);
  cs_stream_binder_add_sdp (merge->binder, call, msg);
  if (call != NULL || cs_sip_message_get_call_id (msg) != NULL)
    return; /* joined a call, or refused at the call cap (counted by the tracker) */
  if (merge->orphans->len < merge->limits.max_orphan_messages)
    g_ptr_array_add (merge->orphans, cs_sip_message_ref (msg));
  else
    merge->stats->orphan_messages_dropped++;
}

/* Evicts the flows holding a single packet (noise, scans, a flood of SSRCs):
 * they cannot become a stream on their own. Order of the others is kept. */
static void
cs_merge_evict_single_packet_runs (CsMerge *merge)
{
  guint kept = 0;

  for (guint i = 0; i < merge->run_order->len; i++)
    {
      CsRtpRun *run = g_ptr_array_index (merge->run_order, i);

      if (run->pack.n_packets <= 1)
        {
          merge->stats->rtp_flows_evicted++;
          merge->stats->rtp_packets_dropped += run->pack.n_packets;
          cs_merge_free_run (merge, run);
        }
      else
        merge->run_order->pdata[kept++] = run;
    }
  /* The evicted runs are freed already: shrink without the free func. */
  if (kept < merge->run_order->len)
    {
      merge->run_order->len = kept;
      cs_rtp_run_table_rebuild (&merge->runs, merge->run_order);
    }
}

/* May a new flow be tracked? At the cap, single-packet flows are evicted
 * first; otherwise the new flow is refused. Sweeps run at most once per tenth
 * of the cap of new flows, so a flood costs O(1) per packet. */
static gboolean
cs_merge_room_for_run (CsMerge *merge)
{
  guint cap = merge->limits.max_streams;

  if (merge->new_flows_since_sweep < G_MAXUINT)
    merge->new_flows_since_sweep++;
  if (merge->run_order->len < cap)
    return TRUE;
  if (merge->new_flows_since_sweep >= MAX (cap / 10, 1u))
    {
      cs_merge_evict_single_packet_runs (merge);
      merge->new_flows_since_sweep = 0;
    }
  return merge->run_order->len < cap;
}

/* A new run for key, to be filed at free_slot (from the lookup that missed); NULL (and n
 * packets counted as dropped) at the cap. */
static G_GNUC_NO_INLINE CsRtpRun *
cs_merge_new_run (CsMerge *merge, const CsRtpStreamKey *key, guint32 hash, guint32 free_slot,
                  guint n)
{
  guint n_runs = merge->run_order->len;
  CsRtpRun *run;

  if (!cs_merge_room_for_run (merge))
    {
      merge->stats->rtp_packets_dropped += n;
      return NULL;
    }
  if (merge->run_order->len != n_runs)
    /* a sweep evicted runs and filed the rest again: the free slot found moved */
    cs_rtp_run_table_find (&merge->runs, merge->run_order, key, hash, &free_slot);
  run = cs_fixed_pool_alloc0 (merge->run_pool);
  run->key = *key;
  cs_rtp_run_table_insert (&merge->runs, free_slot, hash, merge->run_order->len);
  g_ptr_array_add (merge->run_order, run);
  return run;
}

/* The run for key (of that hash), made when new; NULL (and n packets counted as dropped)
 * at the cap. */
static inline CsRtpRun *
cs_merge_run_for_hash (CsMerge *merge, const CsRtpStreamKey *key, guint32 hash, guint n)
{
  guint32 free_slot = 0;
  gint64 index = cs_rtp_run_table_find (&merge->runs, merge->run_order, key, hash, &free_slot);

  if (G_LIKELY (index >= 0))
    return merge->run_order->pdata[index];
  return cs_merge_new_run (merge, key, hash, free_slot, n);
}

/* Runs keep their records packed (cs-rtp-pack.h): a few bytes each instead of 24. */
static void
cs_merge_append_run (CsMerge *merge, const CsRtpStreamKey *key, const CsRtpPacket *packets, guint n)
{
  CsRtpRun *run = cs_merge_run_for_hash (merge, key, cs_rtp_run_table_hash (key), n);

  if (run != NULL)
    cs_rtp_pack_append (&run->pack, packets, n);
}

/* How far ahead of the run being appended its table slot, then its run, then the end of
 * its pack are loaded (a ring of hashes holds the slot distance). */
#define CS_MERGE_AHEAD_SLOT 12
#define CS_MERGE_AHEAD_RUN 6
#define CS_MERGE_AHEAD_DATA 2
#define CS_MERGE_HASH_RING 16

/* Starts loading the run filed under hash (its struct, or with data the end of its pack,
 * where the next records go). A hint: a wrong guess costs a useless load. */
static inline void
cs_merge_prefetch_run (CsMerge *merge, guint32 hash, gboolean data)
{
  gint64 index = cs_rtp_run_table_guess (&merge->runs, hash);
  const CsRtpRun *run;

  if (index < 0)
    return;
  run = merge->run_order->pdata[index];
  if (!data)
    {
      __builtin_prefetch (run);
      __builtin_prefetch ((const guint8 *) run + sizeof *run - 1);
    }
  else if (run->pack.data != NULL)
    __builtin_prefetch (run->pack.data + run->pack.n_bytes, 1);
}

/* A chunk's runs, packed by its worker: mostly copied as they are. With thousands of
 * streams live at once each run lands on a stream far from the last one's in memory, and
 * the merge waited on a cache miss or three per run (the table slot, the run, its pack):
 * they are loaded a few runs ahead so the misses overlap. */
static void
cs_merge_append_chunk_runs (CsMerge *merge, const CsChunkRtpRun *runs, guint32 n)
{
  guint32 hashes[CS_MERGE_HASH_RING];

  G_STATIC_ASSERT (CS_MERGE_AHEAD_SLOT < CS_MERGE_HASH_RING);
  for (guint32 i = 0; i < MIN (n, (guint32) CS_MERGE_AHEAD_SLOT); i++)
    {
      hashes[i] = runs[i].hash;
      cs_rtp_run_table_prefetch (&merge->runs, hashes[i]);
    }
  for (guint32 i = 0; i < n; i++)
    {
      guint32 hash = hashes[i % CS_MERGE_HASH_RING];
      CsRtpRun *run;

      if (i + CS_MERGE_AHEAD_SLOT < n)
        {
          guint32 ahead = i + CS_MERGE_AHEAD_SLOT;

          hashes[ahead % CS_MERGE_HASH_RING] = runs[ahead].hash;
          cs_rtp_run_table_prefetch (&merge->runs, hashes[ahead % CS_MERGE_HASH_RING]);
        }
      if (i + CS_MERGE_AHEAD_RUN < n)
        cs_merge_prefetch_run (merge, hashes[(i + CS_MERGE_AHEAD_RUN) % CS_MERGE_HASH_RING], FALSE);
      if (i + CS_MERGE_AHEAD_DATA < n)
        cs_merge_prefetch_run (merge, hashes[(i + CS_MERGE_AHEAD_DATA) % CS_MERGE_HASH_RING], TRUE);
      run = cs_merge_run_for_hash (merge, &runs[i].key, hash, runs[i].pack.n_packets);
      if (run != NULL)
        cs_rtp_pack_append_pack (&run->pack, &runs[i].pack);
    }
}

static void
cs_merge_on_tcp_message (const guint8 *data, gsize len, const CsPacket *packet, guint32 first_frame,
                         guint32 last_frame, gint64 ts_ns, gpointer user_data)
{
  CsMerge *merge = user_data;
  /* Out-of-order segments can deliver a message's last bytes before its first:
   * the message belongs to the frame that completed it. */
  CsSipMessage *msg = cs_sip_message_from_payload (data, len, &packet->src, &packet->dst,
                                                   merge->tls_delivering ? CS_SIP_TRANSPORT_TLS
                                                                         : CS_SIP_TRANSPORT_TCP,
                                                   MAX (first_frame, last_frame), ts_ns);

  if (msg == NULL)
    return;
  cs_sip_message_set_first_frame (msg, MIN (first_frame, last_frame));
  cs_merge_add_sip (merge, msg);
  cs_sip_message_unref (msg);
}

/* Decrypted TLS application data: the same TCP framing as clear SIP. */
static void
cs_merge_on_tls_plain (const CsPacket *packet, const guint8 *plain, gsize len, guint32 frame,
                       gint64 ts_ns, gpointer user_data)
{
  CsMerge *merge = user_data;

  (void) plain;
  (void) len;
  merge->tls_delivering = TRUE;
  cs_tcp_reassembler_add (merge->tcp, packet, frame, ts_ns, cs_merge_on_tcp_message, merge);
  merge->tls_delivering = FALSE;
}

/* A TCP segment: TLS connections' to the TLS tracker, the others' to SIP framing. */
static void
cs_merge_add_tcp (CsMerge *merge, const CsPacket *pkt, guint32 frame, gint64 ts_ns)
{
  if (cs_tls_tracker_add (merge->tls, pkt, frame, ts_ns, cs_merge_on_tls_plain, merge))
    return;
  cs_tcp_reassembler_add (merge->tcp, pkt, frame, ts_ns, cs_merge_on_tcp_message, merge);
}

/* A UDP datagram rebuilt from IP fragments: only SIP and RTP matter here. */
static void
cs_merge_add_reassembled_udp (CsMerge *merge, const CsPacket *pkt, guint32 first_frame,
                              guint32 frame, gint64 ts_ns)
{
  switch (cs_udp_payload_classify (pkt->payload, pkt->payload_len, pkt->src.port, pkt->dst.port))
    {
    case CS_UDP_PAYLOAD_SIP:
      {
        CsSipMessage *msg
            = cs_sip_message_from_payload (pkt->payload, pkt->payload_len, &pkt->src, &pkt->dst,
                                           CS_SIP_TRANSPORT_UDP, frame, ts_ns);
        if (msg != NULL)
          {
            cs_sip_message_set_first_frame (msg, first_frame);
            cs_merge_add_sip (merge, msg);
            cs_sip_message_unref (msg);
          }
      }
      break;
    case CS_UDP_PAYLOAD_RTP:
      {
        CsRtpHeader hdr;
        CsRtpStreamKey key;
        CsRtpPacket rec;

        if (!cs_rtp_parse_header (pkt->payload, pkt->payload_len, &hdr))
          break;
        memset (&key, 0, sizeof key);
        key.src = pkt->src;
        key.dst = pkt->dst;
        key.ssrc = hdr.ssrc;
        cs_rtp_packet_from_header (&hdr, ts_ns, frame, &rec);
        cs_merge_append_run (merge, &key, &rec, 1);
      }
      break;
    default:
      break;
    }
}

static void
cs_merge_add_deferred (CsMerge *merge, const CsDeferredFrame *deferred)
{
  const CsFrame *frame = &deferred->frame;
  guint32 number = deferred->number;
  CsPacket pkt;
  CsDecodeStatus status;

  memset (&pkt, 0, sizeof pkt);
  status = cs_decode_frame (frame->linktype, cs_capture_set_frame_data (merge->set, frame),
                            frame->caplen, &pkt);
  if (status == CS_DECODE_FRAGMENT)
    {
      guint32 first_frame = number;
      g_autoptr (GBytes) datagram
          = cs_ip_reassembler_add (merge->ip, &pkt, number, frame->ts_ns, &first_frame);
      gsize len;
      const guint8 *data;

      if (datagram == NULL)
        return;
      data = g_bytes_get_data (datagram, &len);
      if (cs_decode_transport (data, len, &pkt) != CS_DECODE_OK)
        return;
      if (pkt.ip_proto == CS_IP_PROTO_UDP)
        cs_merge_add_reassembled_udp (merge, &pkt, first_frame, number, frame->ts_ns);
      else if (pkt.ip_proto == CS_IP_PROTO_TCP)
        cs_merge_add_tcp (merge, &pkt, number, frame->ts_ns);
      return;
    }
  if (status == CS_DECODE_OK && pkt.ip_proto == CS_IP_PROTO_TCP)
    cs_merge_add_tcp (merge, &pkt, number, frame->ts_ns);
}

void
cs_merge_add_chunk (CsMerge *merge, CsChunk *chunk)
{
  guint si = 0, di = 0;

  /* SIP found by the worker and deferred frames interleave by frame number,
   * so dialogs see messages in capture order. */
  while (si < chunk->sip->len || di < chunk->deferred->len)
    {
      CsSipMessage *msg = si < chunk->sip->len ? g_ptr_array_index (chunk->sip, si) : NULL;
      const CsDeferredFrame *deferred = di < chunk->deferred->len
                                            ? &g_array_index (chunk->deferred, CsDeferredFrame, di)
                                            : NULL;

      if (msg != NULL && (deferred == NULL || cs_sip_message_get_frame (msg) <= deferred->number))
        {
          cs_merge_add_sip (merge, msg);
          si++;
        }
      else
        {
          cs_merge_add_deferred (merge, deferred);
          di++;
        }
    }
  cs_chunk_group_rtp (chunk);
  cs_merge_append_chunk_runs (merge, chunk->rtp_runs, chunk->n_rtp_runs);
  {
    /* RTCP is kept by reference (44 bytes each) up to a cap; the rest is counted. */
    guint room
        = merge->rtcp->len < CS_MAX_RTCP_PACKETS ? CS_MAX_RTCP_PACKETS - merge->rtcp->len : 0;
    guint keep = MIN (room, chunk->rtcp->len);

    g_array_append_vals (merge->rtcp, chunk->rtcp->data, keep);
    merge->stats->rtcp_packets_dropped += chunk->rtcp->len - keep;
  }
  cs_merge_flush_sip_counts (merge);
}

guint64
cs_merge_forget_calls (CsMerge *merge, GPtrArray *calls)
{
  g_autoptr (GHashTable) gone = g_hash_table_new (NULL, NULL);
  guint64 dropped = 0;
  guint kept = 0;

  for (guint i = 0; i < calls->len; i++)
    g_hash_table_add (gone, g_ptr_array_index (calls, i));
  /* The runs' owners are looked up before the binder forgets the calls' SDP. */
  for (guint i = 0; i < merge->run_order->len; i++)
    {
      CsRtpRun *run = g_ptr_array_index (merge->run_order, i);
      CsCall *owner = cs_stream_binder_get_run_call (merge->binder, run);

      if (owner != NULL && g_hash_table_contains (gone, owner))
        {
          dropped += run->pack.n_packets;
          cs_merge_free_run (merge, run);
        }
      else
        merge->run_order->pdata[kept++] = run;
    }
  merge->run_order->len = kept; /* the dropped runs are freed already */
  cs_rtp_run_table_rebuild (&merge->runs, merge->run_order);
  cs_stream_binder_forget_calls (merge->binder, gone);
  return dropped;
}
