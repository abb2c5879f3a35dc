/* cs-call-dtmf.c — DTMF digits per call, from RTP telephone-events and SIP INFO */
#include "cs-call-dtmf.h"

#include "cs-call-private.h"
#include "rtp/cs-dtmf.h"
#include "quality/cs-rtp-metrics.h"
#include "sip/cs-sip-message.h"
#include "cs-stream.h"
#include "cs-stream-srtp.h"

/* How far back a packet may find the digit it continues (as cs_dtmf_tracker_feed). */
#define CS_DTMF_LOOKBACK 8

static void
cs_call_dtmf_clear (gpointer data)
{
  CsCallDtmf *d = data;

  g_clear_pointer (&d->frames, g_array_unref);
}

static GArray *
cs_call_dtmf_array_new (void)
{
  GArray *digits = g_array_new (FALSE, FALSE, sizeof (CsCallDtmf));

  g_array_set_clear_func (digits, cs_call_dtmf_clear);
  return digits;
}

/* The digits array, made on the first digit: most calls have none. */
static GArray *
cs_dtmf_out (GArray **out)
{
  if (*out == NULL)
    *out = cs_call_dtmf_array_new ();
  return *out;
}

static void
cs_collect_stream_dtmf (CsStream *stream, CsCaptureSet *set, GArray **out)
{
  const CsRtpClockMap *clocks = cs_stream_get_clock_map (stream);
  g_autofree CsRtpPacket *packets = NULL;
  guint n_packets = 0;
  g_autoptr (GArray) digits = NULL;
  g_autoptr (GPtrArray) frames = NULL;
  g_autoptr (CsStreamPayloadReader) reader = NULL;
  CsDtmfTracker tracker;
  gboolean started = FALSE;

  /* The stats counted the event packets: most streams have none to look at. */
  if (cs_stream_get_stats (stream)->telephone_event_packets == 0)
    return;
  digits = g_array_new (FALSE, FALSE, sizeof (CsDtmfDigit));
  frames = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  packets = cs_stream_dup_packet_records (stream, &n_packets); /* not kept with the stream */
  /* decrypted when SRTP; none at all from a stream without its key */
  reader = cs_stream_payload_reader_new (stream, set);

  for (guint i = 0; i < n_packets; i++)
    {
      const CsRtpPacket *p = &packets[i];
      const guint8 *payload;
      gsize len = 0;
      CsDtmfEvent ev;
      guint before = digits->len;

      if (!clocks->telephone_event_pt[p->payload_type & 0x7f])
        continue;
      if (!cs_stream_payload_reader_read (reader, p, &payload, &len)
          || !cs_dtmf_parse_event (payload, len, &ev))
        continue;
      if (!started)
        {
          cs_dtmf_tracker_init (&tracker, clocks->clock_rate_by_pt[p->payload_type & 0x7f]);
          started = TRUE;
        }
      cs_dtmf_tracker_feed (&tracker, p, payload, len, digits);
      if (digits->len > before)
        g_ptr_array_add (frames, g_array_new (FALSE, FALSE, sizeof (guint32)));
      /* The packet went to the newest digit with its timestamp and event. */
      for (guint back = 1; back <= MIN (digits->len, CS_DTMF_LOOKBACK); back++)
        {
          const CsDtmfDigit *d = &g_array_index (digits, CsDtmfDigit, digits->len - back);

          if (d->rtp_timestamp == p->timestamp && d->event == ev.event)
            {
              g_array_append_val (g_ptr_array_index (frames, digits->len - back), p->frame);
              break;
            }
        }
    }
  for (guint i = 0; i < digits->len; i++)
    {
      const CsDtmfDigit *d = &g_array_index (digits, CsDtmfDigit, i);
      CsCallDtmf entry = { 0 };

      entry.digit = d->digit;
      entry.start_ns = d->start_ns;
      entry.duration_ms = d->duration_ms;
      entry.source = CS_DTMF_SOURCE_RFC4733;
      entry.stream_id = cs_stream_get_id (stream);
      entry.frames = g_array_ref (g_ptr_array_index (frames, i));
      g_array_append_val (cs_dtmf_out (out), entry);
    }
}

static void
cs_collect_info_dtmf (CsCall *call, GArray **out)
{
  /* counted as they were stored: most calls need not be walked at all */
  if (call->info_requests_stored == 0)
    return;
  for (guint i = 0; i < cs_call_get_n_messages (call); i++)
    {
      const CsSipMessage *msg = cs_call_get_message (call, i);
      CsCallDtmf entry = { 0 };
      guint duration_ms = 0;
      gsize body_len;
      const char *body;

      /* the method first: most messages are not INFO requests */
      if (!cs_sip_message_is_request (msg) || cs_sip_message_get_method (msg) != CS_SIP_METHOD_INFO
          || cs_call_message_is_retransmission (call, i) || cs_call_message_is_sighting (call, i))
        continue;
      body = cs_sip_message_get_body (msg, &body_len);
      if (!cs_dtmf_parse_sip_info (cs_sip_message_get_content_type (msg), (const guint8 *) body,
                                   body_len, &entry.digit, &duration_ms))
        continue;
      entry.start_ns = cs_sip_message_get_ts_ns (msg);
      entry.duration_ms = duration_ms;
      entry.source = CS_DTMF_SOURCE_SIP_INFO;
      entry.frames = g_array_new (FALSE, FALSE, sizeof (guint32));
      {
        guint32 frame = cs_sip_message_get_frame (msg);
        g_array_append_val (entry.frames, frame);
      }
      g_array_append_val (cs_dtmf_out (out), entry);
    }
}

static gint
cs_compare_dtmf (gconstpointer a, gconstpointer b)
{
  const CsCallDtmf *x = a, *y = b;
  guint32 fx = x->frames->len > 0 ? g_array_index (x->frames, guint32, 0) : 0;
  guint32 fy = y->frames->len > 0 ? g_array_index (y->frames, guint32, 0) : 0;

  if (x->start_ns != y->start_ns)
    return x->start_ns < y->start_ns ? -1 : 1;
  return fx < fy ? -1 : fx > fy;
}

/* The digits of a call by start time; NULL when it has none. */
static GArray *
cs_call_gather_dtmf (CsCall *call, GPtrArray *call_streams, CsCaptureSet *set)
{
  GArray *out = NULL;

  for (guint i = 0; call_streams != NULL && i < call_streams->len; i++)
    cs_collect_stream_dtmf (g_ptr_array_index (call_streams, i), set, &out);
  cs_collect_info_dtmf (call, &out);
  if (out != NULL && out->len > 1)
    g_array_sort (out, cs_compare_dtmf);
  return out;
}

GArray *
cs_call_collect_dtmf (CsCall *call, GPtrArray *call_streams, CsCaptureSet *set)
{
  GArray *out = cs_call_gather_dtmf (call, call_streams, set);

  return out != NULL ? out : cs_call_dtmf_array_new ();
}

/* One empty array shared by every call without digits (an array each was a
 * measurable part of loading signalling-only captures). */
static GArray *
cs_call_dtmf_none (void)
{
  static GArray *none;

  if (g_once_init_enter (&none))
    g_once_init_leave (&none, cs_call_dtmf_array_new ());
  return g_array_ref (none);
}

void
cs_call_dtmf_attach_all (GPtrArray *calls, GPtrArray *streams, CsCaptureSet *set)
{
  g_autoptr (GHashTable) by_call
      = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_ptr_array_unref);

  if (calls == NULL)
    return;
  for (guint i = 0; streams != NULL && i < streams->len; i++)
    {
      CsStream *s = g_ptr_array_index (streams, i);
      gpointer number = GUINT_TO_POINTER (cs_stream_get_call_number (s));
      GPtrArray *list;

      if (!cs_stream_is_associated (s))
        continue;
      list = g_hash_table_lookup (by_call, number);
      if (list == NULL)
        {
          list = g_ptr_array_new ();
          g_hash_table_insert (by_call, number, list);
        }
      g_ptr_array_add (list, s);
    }
  for (guint i = 0; i < calls->len; i++)
    {
      CsCall *call = g_ptr_array_index (calls, i);
      GPtrArray *list = g_hash_table_size (by_call) > 0
                            ? g_hash_table_lookup (by_call, GUINT_TO_POINTER (call->number))
                            : NULL;
      GArray *digits = cs_call_gather_dtmf (call, list, set);

      if (call->dtmf != NULL)
        g_array_unref (call->dtmf);
      call->dtmf = digits != NULL ? digits : cs_call_dtmf_none ();
    }
}

const GArray *
cs_call_get_dtmf (CsCall *call)
{
  return call->dtmf;
}
