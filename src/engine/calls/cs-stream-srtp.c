/* cs-stream-srtp.c — SRTP streams: told apart by their SDP, keyed by its a=crypto lines or
 * the user's keys, checked packet by packet with libsrtp */
#include "cs-stream-srtp.h"

#include "cs-call.h"
#include "net/cs-frame-payload.h"
#include "rtp/cs-rtp.h"
#include "sip/cs-sdp.h"
#include "sip/cs-sip-message.h"

#include <string.h>

/* Packets a candidate key is tried on before the next one is. */
#define CS_SRTP_PROBE_PACKETS 16
/* Largest UDP payload */
#define CS_SRTP_MAX_PACKET 65535

G_DEFINE_QUARK (cs - stream - srtp, cs_stream_srtp)

const char *
cs_stream_protection_to_string (CsStreamProtection protection)
{
  switch (protection)
    {
    case CS_STREAM_CLEAR:
      return "clear";
    case CS_STREAM_ENCRYPTED:
      return "encrypted";
    case CS_STREAM_DECRYPTED:
      return "decrypted";
    case CS_STREAM_KEY_FAILED:
      return "key-failed";
    }
  return "unknown";
}

const CsStreamSrtp *
cs_stream_get_srtp (CsStream *stream)
{
  return g_object_get_qdata (G_OBJECT (stream), cs_stream_srtp_quark ());
}

CsStreamProtection
cs_stream_get_protection (CsStream *stream)
{
  const CsStreamSrtp *srtp = cs_stream_get_srtp (stream);

  return srtp != NULL ? srtp->protection : CS_STREAM_CLEAR;
}

static void
srtp_free (gpointer data)
{
  CsStreamSrtp *srtp = data;

  memset (&srtp->key, 0, sizeof srtp->key);
  g_free (srtp);
}

static CsStreamSrtp *
srtp_of (CsStream *stream)
{
  CsStreamSrtp *srtp = g_object_get_qdata (G_OBJECT (stream), cs_stream_srtp_quark ());

  if (srtp == NULL)
    {
      srtp = g_new0 (CsStreamSrtp, 1);
      srtp->protection = CS_STREAM_ENCRYPTED;
      g_object_set_qdata_full (G_OBJECT (stream), cs_stream_srtp_quark (), srtp, srtp_free);
    }
  return srtp;
}

/* A key to try on a stream, and where it came from. */
typedef struct
{
  CsSrtpKey key;
  gboolean user_key;
  guint32 frame;
} Candidate;

static gboolean
proto_is_srtp (const char *proto)
{
  return proto != NULL && strstr (proto, "SAVP") != NULL;
}

static void
add_crypto_lines (const CsSdpMedia *m, guint32 frame, GArray *out)
{
  for (guint i = 0; i < CS_SDP_MAX_CRYPTO && m->crypto[i] != NULL; i++)
    {
      Candidate c = { 0 };

      /* a line we cannot read is left out: the stream then says "key needed" */
      if (cs_srtp_key_parse_crypto (m->crypto[i], strlen (m->crypto[i]), &c.key, NULL))
        {
          c.frame = frame;
          g_array_append_val (out, c);
        }
    }
}

/* The SDP keys of stream's call, the sender's first: TRUE when its SDP says SRTP. */
static gboolean
collect_sdp_keys (CsStream *stream, CsCall *call, GArray *out)
{
  g_autoptr (GArray) others = g_array_new (FALSE, TRUE, sizeof (Candidate));
  gboolean srtp = FALSE;

  for (guint i = 0; call != NULL && i < cs_call_get_n_messages (call); i++)
    {
      const CsSipMessage *msg = cs_call_get_message (call, i);
      const CsSdp *sdp = cs_sip_message_get_sdp (msg);

      for (guint k = 0; sdp != NULL && k < sdp->media->len; k++)
        {
          const CsSdpMedia *m = g_ptr_array_index (sdp->media, k);
          CsEndpoint ep;

          if (!proto_is_srtp (m->proto) || m->port == 0)
            continue;
          memset (&ep, 0, sizeof ep);
          ep.addr = m->connection;
          ep.port = m->port;
          if (cs_endpoint_equal (&ep, cs_stream_get_src (stream)))
            {
              srtp = TRUE;
              add_crypto_lines (m, cs_sip_message_get_frame (msg), out);
            }
          else if (cs_endpoint_equal (&ep, cs_stream_get_dst (stream)))
            srtp = TRUE;
          else
            add_crypto_lines (m, cs_sip_message_get_frame (msg), others);
        }
    }
  /* a sender behind NAT sends from elsewhere than it announced: its call's other keys */
  if (srtp)
    g_array_append_vals (out, others->data, others->len);
  return srtp;
}

static void
collect_user_keys (CsStream *stream, const GArray *user_keys, GArray *out)
{
  for (guint i = 0; user_keys != NULL && i < user_keys->len; i++)
    {
      const CsSrtpUserKey *u = &g_array_index (user_keys, CsSrtpUserKey, i);
      Candidate c = { 0 };

      if (u->by_stream ? u->stream_id != cs_stream_get_id (stream)
                       : u->ssrc != cs_stream_get_ssrc (stream))
        continue;
      c.key = u->key;
      c.user_key = TRUE;
      g_array_append_val (out, c);
    }
}

/* One packet's UDP payload copied into buf; 0 when the frame no longer holds one. */
static gsize
copy_packet (CsCaptureSet *set, const CsRtpPacket *p, guint8 *buf)
{
  CsFramePayload frame;

  if (!cs_capture_set_read_payload (set, p->frame, &frame) || !frame.udp
      || frame.payload_len > CS_SRTP_MAX_PACKET)
    return 0;
  memcpy (buf, frame.payload, frame.payload_len);
  return frame.payload_len;
}

/* How many of the first packets key opens as suite (a fresh session: in capture order). */
static guint
probe (const CsSrtpKey *key, CsSrtpSuite suite, guint32 ssrc, const CsRtpPacket *packets, guint n,
       CsCaptureSet *set, guint8 *buf)
{
  g_autoptr (CsSrtpSession) session = cs_srtp_session_new (key, suite, ssrc, NULL);
  guint ok = 0;

  for (guint i = 0; session != NULL && i < MIN (n, CS_SRTP_PROBE_PACKETS); i++)
    {
      gsize len = copy_packet (set, &packets[i], buf), out;

      if (len > 0 && cs_srtp_session_unprotect_rtp (session, buf, len, &out) == CS_SRTP_OK)
        ok++;
    }
  return ok;
}

/* Every packet through the chosen key: what authenticates, what fails, what outlives it. */
static void
check_all (CsStreamSrtp *srtp, guint32 ssrc, const CsRtpPacket *packets, guint n, CsCaptureSet *set,
           guint8 *buf)
{
  g_autoptr (CsSrtpSession) session = cs_srtp_session_new (&srtp->key, srtp->suite, ssrc, NULL);
  guint64 lifetime = srtp->key.n_keys > 0 ? srtp->key.keys[0].lifetime : 0;

  srtp->decrypted = srtp->failed = srtp->expired = 0;
  srtp->n_failed_frames = 0;
  for (guint i = 0; session != NULL && i < n; i++)
    {
      gsize len = copy_packet (set, &packets[i], buf), out;
      CsSrtpStatus status
          = len > 0 ? cs_srtp_session_unprotect_rtp (session, buf, len, &out) : CS_SRTP_MALFORMED;

      if (status == CS_SRTP_OK)
        {
          /* the sender should have rekeyed after lifetime packets */
          if (lifetime != 0 && srtp->decrypted >= lifetime && srtp->expired++ == 0)
            srtp->expired_frame = packets[i].frame;
          srtp->decrypted++;
        }
      else if (status != CS_SRTP_REPLAY)
        {
          if (srtp->n_failed_frames < CS_STREAM_SRTP_FAILED_FRAMES)
            srtp->failed_frames[srtp->n_failed_frames++] = packets[i].frame;
          srtp->failed++;
        }
    }
  srtp->protection = srtp->decrypted > 0 ? CS_STREAM_DECRYPTED : CS_STREAM_KEY_FAILED;
}

/* Tries the candidates in order; keeps the first that opens the first packets. */
static void
choose_key (CsStream *stream, CsStreamSrtp *srtp, const GArray *candidates, CsCaptureSet *set)
{
  g_autofree CsRtpPacket *packets = NULL;
  g_autofree guint8 *buf = g_malloc (CS_SRTP_MAX_PACKET);
  guint n = 0;

  if (candidates->len == 0)
    {
      srtp->protection = CS_STREAM_ENCRYPTED;
      return;
    }
  packets = cs_stream_dup_packet_records (stream, &n);
  for (guint i = 0; i < candidates->len; i++)
    {
      const Candidate *c = &g_array_index (candidates, Candidate, i);
      CsSrtpSuite suites[CS_SRTP_N_SUITES];
      guint n_suites = cs_srtp_key_candidate_suites (&c->key, suites);

      for (guint s = 0; s < n_suites; s++)
        {
          srtp->n_keys_tried++;
          if (i == 0 && s == 0)
            {
              /* reported when none works */
              srtp->key = c->key;
              srtp->suite = suites[s];
              srtp->user_key = c->user_key;
              srtp->key_frame = c->frame;
            }
          if (probe (&c->key, suites[s], cs_stream_get_ssrc (stream), packets, n, set, buf) == 0)
            continue;
          srtp->key = c->key;
          srtp->key.suite = suites[s];
          srtp->suite = suites[s];
          srtp->user_key = c->user_key;
          srtp->key_frame = c->frame;
          check_all (srtp, cs_stream_get_ssrc (stream), packets, n, set, buf);
          return;
        }
    }
  /* no key opens it: every packet counts as failed, nothing is decoded */
  srtp->protection = CS_STREAM_KEY_FAILED;
  srtp->decrypted = 0;
  srtp->failed = n;
  srtp->n_failed_frames = MIN (n, CS_STREAM_SRTP_FAILED_FRAMES);
  for (guint i = 0; i < srtp->n_failed_frames; i++)
    srtp->failed_frames[i] = packets[i].frame;
}

void
cs_stream_srtp_attach_all (GPtrArray *calls, GPtrArray *streams, const GArray *user_keys,
                           CsCaptureSet *set)
{
  g_autoptr (GArray) candidates = g_array_new (FALSE, TRUE, sizeof (Candidate));

  for (guint i = 0; streams != NULL && i < streams->len; i++)
    {
      CsStream *stream = g_ptr_array_index (streams, i);
      guint number = cs_stream_get_call_number (stream);
      CsCall *call = calls != NULL && number > 0 && number <= calls->len
                         ? g_ptr_array_index (calls, number - 1)
                         : NULL;
      gboolean srtp;

      g_array_set_size (candidates, 0);
      collect_user_keys (stream, user_keys, candidates);
      srtp = collect_sdp_keys (stream, call, candidates) || candidates->len > 0;
      if (srtp)
        choose_key (stream, srtp_of (stream), candidates, set);
      memset (candidates->data, 0, candidates->len * sizeof (Candidate));
    }
}

gboolean
cs_stream_srtp_try_key (CsStream *stream, const CsSrtpKey *key, CsCaptureSet *set)
{
  g_autoptr (GArray) candidates = g_array_new (FALSE, TRUE, sizeof (Candidate));
  Candidate c = { 0 };
  CsStreamSrtp *srtp = srtp_of (stream);
  CsStreamSrtp before = *srtp;

  c.key = *key;
  c.user_key = TRUE;
  g_array_append_val (candidates, c);
  srtp->n_keys_tried = 0;
  choose_key (stream, srtp, candidates, set);
  if (srtp->protection == CS_STREAM_DECRYPTED)
    return TRUE;
  /* a key that does not open the stream changes nothing */
  *srtp = before;
  return FALSE;
}

/* libsrtp guesses a packet's rollover counter from the last packet it opened: a reader that
 * skips packets (DTMF reads only the events) first opens one of those it skips every this
 * many sequence numbers, so the guess stays right across rollovers. */
#define CS_SRTP_CATCH_UP 16384

struct _CsStreamPayloadReader
{
  CsCaptureSet *set;
  guint32 ssrc;
  CsStreamProtection protection;
  CsSrtpSession *session;
  /* SRTP only: the stream's records, the next one to look at, the extended sequence
   * numbers seen and the one libsrtp last opened */
  CsRtpPacket *records;
  guint n_records, cursor;
  guint32 max_ext, opened_ext;
  gboolean opened_any;
  guint8 buf[CS_SRTP_MAX_PACKET];
};

CsStreamPayloadReader *
cs_stream_payload_reader_new (CsStream *stream, CsCaptureSet *set)
{
  CsStreamPayloadReader *reader = g_new0 (CsStreamPayloadReader, 1);
  const CsStreamSrtp *srtp = cs_stream_get_srtp (stream);

  reader->set = set;
  reader->ssrc = cs_stream_get_ssrc (stream);
  reader->protection = srtp != NULL ? srtp->protection : CS_STREAM_CLEAR;
  if (reader->protection == CS_STREAM_DECRYPTED)
    {
      reader->session = cs_srtp_session_new (&srtp->key, srtp->suite, reader->ssrc, NULL);
      reader->records = cs_stream_dup_packet_records (stream, &reader->n_records);
      if (reader->n_records > 0)
        reader->max_ext = 0x10000u + reader->records[0].seq;
    }
  return reader;
}

void
cs_stream_payload_reader_free (CsStreamPayloadReader *reader)
{
  if (reader == NULL)
    return;
  cs_srtp_session_free (reader->session);
  g_free (reader->records);
  g_free (reader);
}

/* Unprotects record into buf; on success its clear length in *len. */
static gboolean
open_record (CsStreamPayloadReader *reader, const CsRtpPacket *record, guint32 ext, gsize *len)
{
  gsize n = copy_packet (reader->set, record, reader->buf);

  if (n == 0 || cs_srtp_session_unprotect_rtp (reader->session, reader->buf, n, len) != CS_SRTP_OK)
    return FALSE;
  reader->opened_any = TRUE;
  reader->opened_ext = MAX (reader->opened_ext, ext);
  return TRUE;
}

/* Moves to packet among the records, opening what libsrtp must see on the way; then
 * opens packet itself. */
static gboolean
open_in_order (CsStreamPayloadReader *reader, const CsRtpPacket *packet, gsize *len)
{
  guint at = reader->cursor;

  while (at < reader->n_records && reader->records[at].frame != packet->frame)
    at++;
  if (at == reader->n_records)
    return FALSE; /* not a record of the stream, or asked out of capture order */
  for (; reader->cursor <= at; reader->cursor++)
    {
      const CsRtpPacket *r = &reader->records[reader->cursor];
      guint32 ext = cs_rtp_extend_seq (reader->max_ext, r->seq);

      reader->max_ext = MAX (reader->max_ext, ext);
      if (reader->cursor == at)
        {
          reader->cursor++;
          return open_record (reader, r, ext, len);
        }
      if (!reader->opened_any || ext >= reader->opened_ext + CS_SRTP_CATCH_UP)
        open_record (reader, r, ext, &(gsize){ 0 });
    }
  return FALSE;
}

gboolean
cs_stream_payload_reader_read (CsStreamPayloadReader *reader, const CsRtpPacket *packet,
                               const guint8 **payload, gsize *len)
{
  CsFramePayload frame;
  CsRtpHeader header;
  const guint8 *rtp;
  gsize rtp_len;

  if (reader->protection != CS_STREAM_CLEAR && reader->session == NULL)
    return FALSE; /* never ciphertext */
  if (reader->session != NULL)
    {
      if (!open_in_order (reader, packet, &rtp_len))
        return FALSE;
      rtp = reader->buf;
    }
  else
    {
      if (!cs_capture_set_read_payload (reader->set, packet->frame, &frame) || !frame.udp)
        return FALSE;
      rtp = frame.payload;
      rtp_len = frame.payload_len;
    }
  if (!cs_rtp_parse_header (rtp, rtp_len, &header) || header.seq != packet->seq
      || header.ssrc != reader->ssrc)
    return FALSE;
  *payload = rtp + header.header_len;
  *len = header.payload_len;
  return TRUE;
}
