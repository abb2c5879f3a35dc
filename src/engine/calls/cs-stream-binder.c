/* cs-stream-binder.c — SDP offer/answer endpoints → calls; RTP flows → streams */
#include "cs-stream-binder.h"

/* the messages' fields as reads: the merge thread's per-message path (measured) */
#include "sip/cs-sip-message-layout.h"

#include "cs-call-private.h"
#include "base/cs-parallel.h"
#include "sip/cs-sdp.h"
#include "cs-stream-private.h"

/* An unannounced flow must look like a media stream, not stray UDP. */
#define CS_HEURISTIC_MIN_PACKETS 2

typedef struct
{
  CsCall *call;
  guint32 frame;
} CsAnnouncement;

/* The calls that announced one endpoint, in capture order. Most endpoints are announced
 * by one call: that announcement is kept inline, in the same block as the key. */
typedef struct
{
  CsEndpoint endpoint; /* the table's key */
  guint n, more_cap;
  CsAnnouncement first;
  CsAnnouncement *more; /* announcements 2..n */
} CsEndpointLog;

static CsAnnouncement *
cs_endpoint_log_at (const CsEndpointLog *log, guint i)
{
  return i == 0 ? (CsAnnouncement *) &log->first : &log->more[i - 1];
}

static void
cs_endpoint_log_append (CsEndpointLog *log, const CsAnnouncement *a)
{
  if (log->n > 0 && log->n - 1 == log->more_cap)
    {
      log->more_cap = log->more_cap == 0 ? 2 : log->more_cap * 2;
      log->more = g_renew (CsAnnouncement, log->more, log->more_cap);
    }
  *cs_endpoint_log_at (log, log->n++) = *a;
}

static void
cs_endpoint_log_free (gpointer data)
{
  CsEndpointLog *log = data;

  g_free (log->more);
  g_free (log);
}

/* One payload type a call's SDP mapped: the last rtpmap seen for it wins, as it would
 * in a clock map updated message by message. */
typedef struct
{
  guint payload_type;
  guint clock_rate;
  const char *encoding; /* interned */
} CsAnnouncedFormat;

/* What a call's SDP said about payload types, kept small for calls that never get a
 * stream; expanded into a CsCallMedia only when streams are built. One block, held by the
 * call itself (CsCall.sdp_formats, freed with it). */
typedef struct
{
  guint n, cap;
  CsAnnouncedFormat formats[];
} CsCallFormats;

typedef struct
{
  CsRtpClockMap *clocks;      /* atomic rc box: its streams share it */
  const char *encodings[128]; /* interned rtpmap names */
} CsCallMedia;

static void
cs_call_media_free (gpointer data)
{
  CsCallMedia *media = data;

  g_atomic_rc_box_release (media->clocks);
  g_free (media);
}

/* Encoding names interned lately: captures use a handful, and the interning table is a
 * locked global one. */
#define CS_BINDER_RECENT_ENCODINGS 8

struct _CsStreamBinder
{
  GHashTable *by_endpoint; /* CsEndpoint* (inside the value) → CsEndpointLog* */
  const char *recent_encodings[CS_BINDER_RECENT_ENCODINGS];
  guint next_recent;
};

CsStreamBinder *
cs_stream_binder_new (void)
{
  CsStreamBinder *binder = g_new0 (CsStreamBinder, 1);

  binder->by_endpoint = g_hash_table_new_full (
      (GHashFunc) cs_endpoint_hash, (GEqualFunc) cs_endpoint_equal, NULL, cs_endpoint_log_free);
  return binder;
}

void
cs_stream_binder_free (CsStreamBinder *binder)
{
  if (binder == NULL)
    return;
  g_hash_table_unref (binder->by_endpoint);
  g_free (binder);
}

static const char *
cs_stream_binder_intern (CsStreamBinder *binder, const char *encoding)
{
  const char *interned;

  /* the SDP parser gives the usual names already interned: a pointer compare finds them */
  for (guint i = 0; i < CS_BINDER_RECENT_ENCODINGS && binder->recent_encodings[i] != NULL; i++)
    if (binder->recent_encodings[i] == encoding)
      return encoding;
  for (guint i = 0; i < CS_BINDER_RECENT_ENCODINGS && binder->recent_encodings[i] != NULL; i++)
    if (strcmp (binder->recent_encodings[i], encoding) == 0)
      return binder->recent_encodings[i];
  interned = g_intern_string (encoding);
  binder->recent_encodings[binder->next_recent] = interned;
  binder->next_recent = (binder->next_recent + 1) % CS_BINDER_RECENT_ENCODINGS;
  return interned;
}

/* Records an rtpmap of call's SDP (payload_type <= 127, encoding set). */
static void
cs_stream_binder_map_format (CsStreamBinder *binder, CsCall *call, const CsSdpFormat *fmt)
{
  CsCallFormats *formats = call->sdp_formats;
  CsAnnouncedFormat *f;

  for (guint i = 0; formats != NULL && i < formats->n; i++)
    {
      f = &formats->formats[i];
      if (f->payload_type != fmt->payload_type)
        continue;
      /* answers and re-INVITEs repeat the offer's names: intern only a change */
      if (f->encoding != fmt->encoding && strcmp (f->encoding, fmt->encoding) != 0)
        f->encoding = cs_stream_binder_intern (binder, fmt->encoding);
      f->clock_rate = fmt->clock_rate;
      return;
    }
  if (formats == NULL || formats->n == formats->cap)
    {
      guint cap = formats == NULL ? 4 : formats->cap * 2;
      gboolean fresh = formats == NULL;

      formats = g_realloc (formats, sizeof (CsCallFormats) + cap * sizeof (CsAnnouncedFormat));
      if (fresh)
        formats->n = 0;
      formats->cap = cap;
      call->sdp_formats = formats;
    }
  f = &formats->formats[formats->n++];
  f->payload_type = fmt->payload_type;
  f->clock_rate = fmt->clock_rate;
  f->encoding = cs_stream_binder_intern (binder, fmt->encoding);
}

/* Calls whose SDP mapped the same formats (most of a capture's calls) share one
 * expansion: keyed by the list's content (encodings are interned: compared as pointers). */
static guint
cs_call_formats_hash (gconstpointer data)
{
  const CsCallFormats *formats = data;
  guint h = formats != NULL ? formats->n : 0;

  for (guint i = 0; formats != NULL && i < formats->n; i++)
    {
      const CsAnnouncedFormat *f = &formats->formats[i];

      h = (h * 31u + f->payload_type) * 31u + f->clock_rate;
      h = h * 31u + (guint) GPOINTER_TO_SIZE (f->encoding);
    }
  return h;
}

static gboolean
cs_call_formats_equal (gconstpointer a_data, gconstpointer b_data)
{
  const CsCallFormats *a = a_data, *b = b_data;

  if (a == NULL || b == NULL)
    return a == b;
  if (a->n != b->n)
    return FALSE;
  for (guint i = 0; i < a->n; i++)
    if (a->formats[i].payload_type != b->formats[i].payload_type
        || a->formats[i].clock_rate != b->formats[i].clock_rate
        || a->formats[i].encoding != b->formats[i].encoding)
      return FALSE;
  return TRUE;
}

/* The clock map and encoding names call's SDP built, expanded for its streams
 * (expanded: CsCallFormats* → CsCallMedia*). */
static CsCallMedia *
cs_stream_binder_expand_media (CsCall *call, GHashTable *expanded)
{
  const CsCallFormats *formats = call->sdp_formats;
  CsCallMedia *media = g_hash_table_lookup (expanded, formats);

  if (media != NULL)
    return media;
  media = g_new0 (CsCallMedia, 1);
  media->clocks = g_atomic_rc_box_new0 (CsRtpClockMap);
  cs_rtp_clock_map_init_static (media->clocks);
  for (guint i = 0; formats != NULL && i < formats->n; i++)
    {
      const CsAnnouncedFormat *f = &formats->formats[i];

      cs_rtp_clock_map_set_rtpmap (media->clocks, f->payload_type, f->encoding, f->clock_rate);
      media->encodings[f->payload_type] = f->encoding;
    }
  g_hash_table_insert (expanded, (gpointer) formats, media);
  return media;
}

static void
cs_stream_binder_announce (CsStreamBinder *binder, const CsEndpoint *ep, CsCall *call,
                           guint32 frame)
{
  CsEndpointLog *log = g_hash_table_lookup (binder->by_endpoint, ep);
  CsAnnouncement a = { call, frame };

  if (log == NULL)
    {
      log = g_new0 (CsEndpointLog, 1);
      log->endpoint = *ep;
      g_hash_table_insert (binder->by_endpoint, &log->endpoint, log);
    }
  if (log->n > 0 && cs_endpoint_log_at (log, log->n - 1)->call == call)
    return; /* the same call repeating itself (answer, re-INVITE) */
  cs_endpoint_log_append (log, &a);
}

void
cs_stream_binder_add_sdp (CsStreamBinder *binder, CsCall *call, const CsSipMessage *msg)
{
  if (call == NULL || cs_sip_message_get_sdp (msg) == NULL)
    return;
  for (guint i = 0; i < cs_sip_message_get_sdp (msg)->media->len; i++)
    {
      const CsSdpMedia *m = g_ptr_array_index (cs_sip_message_get_sdp (msg)->media, i);
      CsEndpoint ep;
      static const guint8 zero[16] = { 0 };

      for (guint f = 0; m->formats != NULL && f < m->formats->len; f++)
        {
          const CsSdpFormat *fmt = &g_array_index (m->formats, CsSdpFormat, f);

          if (fmt->encoding == NULL || fmt->payload_type > 127)
            continue;
          cs_stream_binder_map_format (binder, call, fmt);
        }
      /* Port 0 rejects the stream; 0.0.0.0 is the old way to say hold. */
      if (m->port == 0 || m->connection.family == 0
          || memcmp (m->connection.bytes, zero, sizeof zero) == 0)
        continue;
      memset (&ep, 0, sizeof ep);
      ep.addr = m->connection;
      ep.port = m->port;
      cs_stream_binder_announce (binder, &ep, call, cs_sip_message_get_frame (msg));
    }
}

/* The newest announcement of ep made at or before frame. */
static const CsAnnouncement *
cs_stream_binder_lookup (CsStreamBinder *binder, const CsEndpoint *ep, guint32 frame)
{
  const CsEndpointLog *log = g_hash_table_lookup (binder->by_endpoint, ep);
  const CsAnnouncement *best = NULL;

  for (guint i = 0; log != NULL && i < log->n; i++)
    {
      const CsAnnouncement *a = cs_endpoint_log_at (log, i);

      if (a->frame > frame)
        break;
      best = a;
    }
  return best;
}

/* First packet at or after the announcement that binds the flow, or n. */
static guint
cs_stream_binder_bind (CsStreamBinder *binder, const CsRtpRun *run, const CsAnnouncement **out)
{
  CsRtpPackReader reader;

  cs_rtp_pack_reader_init (&reader, run->pack.data);
  for (guint i = 0; i < run->pack.n_packets; i++)
    {
      guint32 frame = cs_rtp_pack_reader_next (&reader)->frame;
      const CsAnnouncement *a = cs_stream_binder_lookup (binder, &run->key.dst, frame);

      if (a == NULL)
        a = cs_stream_binder_lookup (binder, &run->key.src, frame);
      if (a != NULL)
        {
          *out = a;
          return i;
        }
      /* Nothing announced yet: skip ahead cheaply only while no announcement exists at all. */
      if (!g_hash_table_contains (binder->by_endpoint, &run->key.dst)
          && !g_hash_table_contains (binder->by_endpoint, &run->key.src))
        break;
    }
  *out = NULL;
  return run->pack.n_packets;
}

static int
cs_stream_compare_first_frame (gconstpointer a, gconstpointer b)
{
  CsStream *x = *(CsStream *const *) a, *y = *(CsStream *const *) b;
  guint32 fx = cs_stream_get_stats (x)->first_frame, fy = cs_stream_get_stats (y)->first_frame;

  return fx < fy ? -1 : fx > fy;
}

static gboolean
cs_stream_sorted_by_first_frame (GPtrArray *streams)
{
  for (guint i = 1; i < streams->len; i++)
    if (cs_stream_compare_first_frame (&streams->pdata[i - 1], &streams->pdata[i]) > 0)
      return FALSE;
  return TRUE;
}

static void
cs_stream_binder_measure_one (guint index, gpointer streams)
{
  cs_stream_measure (g_ptr_array_index ((GPtrArray *) streams, index));
}

/* A run bound to its call (NULL: announced by none), its packed records taken from it:
 * all a stream is made of, so that runs and binder can be freed before the streams are. */
typedef struct
{
  CsRtpStreamKey key;
  guint32 n_packets;
  CsCall *call;
  guint8 *packed; /* exactly sized (cs_rtp_pack_trim) */
} CsStreamPlanEntry;

struct _CsStreamPlan
{
  guint n;
  CsStreamPlanEntry entries[];
};

CsStreamPlan *
cs_stream_binder_plan (CsStreamBinder *binder, GPtrArray *runs)
{
  CsStreamPlan *plan = g_malloc (sizeof (CsStreamPlan) + runs->len * sizeof (CsStreamPlanEntry));

  plan->n = 0;
  for (guint i = 0; i < runs->len; i++)
    {
      CsRtpRun *run = g_ptr_array_index (runs, i);
      const CsAnnouncement *a = NULL;
      guint first = cs_stream_binder_bind (binder, run, &a);
      CsStreamPlanEntry *entry;
      CsRtpPack pack;

      if (a == NULL && run->pack.n_packets < CS_HEURISTIC_MIN_PACKETS)
        continue;
      /* The stream takes the packed records, exactly sized; the run is left empty. */
      pack = run->pack;
      memset (&run->pack, 0, sizeof run->pack);
      if (a != NULL && first > 0)
        {
          /* Records before the announcement are dropped: the rest is packed afresh (the
           * first kept record is predicted from nothing). */
          guint32 n = pack.n_packets;
          g_autofree CsRtpPacket *records = cs_rtp_pack_unpack_new (pack.data, n);

          cs_rtp_pack_clear (&pack);
          cs_rtp_pack_append (&pack, records + first, n - first);
        }
      cs_rtp_pack_trim (&pack);
      entry = &plan->entries[plan->n++];
      entry->key = run->key;
      entry->n_packets = pack.n_packets;
      entry->call = a != NULL ? a->call : NULL;
      entry->packed = pack.data;
    }
  return plan;
}

GPtrArray *
cs_stream_plan_build (CsStreamPlan *plan, guint n_threads)
{
  GPtrArray *streams = g_ptr_array_new_full (plan->n, g_object_unref);
  /* the streams read the encoding names until measured */
  g_autoptr (GHashTable) expanded = g_hash_table_new_full (
      cs_call_formats_hash, cs_call_formats_equal, NULL, cs_call_media_free);
  /* shared by the streams no SDP announced */
  CsRtpClockMap *static_clocks = g_atomic_rc_box_new0 (CsRtpClockMap);

  cs_rtp_clock_map_init_static (static_clocks);
  for (guint i = 0; i < plan->n; i++)
    {
      const CsStreamPlanEntry *entry = &plan->entries[i];
      CsStream *stream;

      if (entry->call != NULL)
        {
          CsCallMedia *media = cs_stream_binder_expand_media (entry->call, expanded);

          stream
              = cs_stream_new_sharing_clocks (0, &entry->key.src, &entry->key.dst, entry->key.ssrc,
                                              cs_call_get_number (entry->call), entry->packed,
                                              entry->n_packets, media->clocks, media->encodings);
        }
      else
        stream
            = cs_stream_new_sharing_clocks (0, &entry->key.src, &entry->key.dst, entry->key.ssrc, 0,
                                            entry->packed, entry->n_packets, static_clocks, NULL);
      g_ptr_array_add (streams, stream);
    }
  g_free (plan);
  g_atomic_rc_box_release (static_clocks);
  cs_parallel_for (streams->len, n_threads, cs_stream_binder_measure_one, streams);
  /* runs are mostly made in order of their first packets already: the (stable) sort only when
   * needed */
  if (!cs_stream_sorted_by_first_frame (streams))
    g_ptr_array_sort (streams, cs_stream_compare_first_frame);
  for (guint i = 0; i < streams->len; i++)
    cs_stream_set_id (g_ptr_array_index (streams, i), i + 1);
  return streams;
}

GPtrArray *
cs_stream_binder_build (CsStreamBinder *binder, GPtrArray *runs, guint n_threads)
{
  return cs_stream_plan_build (cs_stream_binder_plan (binder, runs), n_threads);
}

CsCall *
cs_stream_binder_get_run_call (CsStreamBinder *binder, const CsRtpRun *run)
{
  const CsAnnouncement *a;
  guint32 last;

  if (run->pack.n_packets == 0)
    return NULL;
  last = run->pack.tail.last.frame;
  a = cs_stream_binder_lookup (binder, &run->key.dst, last);
  if (a == NULL)
    a = cs_stream_binder_lookup (binder, &run->key.src, last);
  return a != NULL ? a->call : NULL;
}

static gboolean
cs_stream_binder_drop_announcements (gpointer key, gpointer value, gpointer calls)
{
  CsEndpointLog *log = value;
  guint kept = 0;

  for (guint i = 0; i < log->n; i++)
    if (!g_hash_table_contains (calls, cs_endpoint_log_at (log, i)->call))
      *cs_endpoint_log_at (log, kept++) = *cs_endpoint_log_at (log, i);
  log->n = kept;
  return kept == 0;
}

void
cs_stream_binder_forget_calls (CsStreamBinder *binder, GHashTable *calls)
{
  /* the calls' formats go with the calls themselves */
  g_hash_table_foreach_remove (binder->by_endpoint, cs_stream_binder_drop_announcements, calls);
}
