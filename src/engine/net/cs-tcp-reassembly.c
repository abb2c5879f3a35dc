/* cs-tcp-reassembly.c — per-direction TCP stream reassembly with SIP message framing */
#include "cs-tcp-reassembly.h"

#include <string.h>

#define DEFAULT_MAX_BYTES_PER_STREAM (256 * 1024)
#define DEFAULT_MAX_STREAMS 4096
/* Out-of-order segments one direction may hold, besides the byte cap. */
#define MAX_HELD_SEGMENTS 256
/* In-order segments without a SIP start line tolerated on a stream picked up mid-way. */
#define MAX_RESYNC_SEGMENTS 8
/* A start line longer than this is not SIP as far as we are concerned. */
#define MAX_START_LINE 4096

typedef struct
{
  CsEndpoint src;
  CsEndpoint dst;
} StreamKey;

typedef enum
{
  STREAM_SYNCED,  /* buffer starts at a message boundary */
  STREAM_RESYNC,  /* waiting for a segment that starts with a SIP start line */
  STREAM_NON_SIP, /* not SIP: ignored until a new SYN */
  STREAM_CLOSED,  /* FIN or RST seen */
} StreamState;

/* The frame that carried the buffered bytes up to (not including) stream position end. */
typedef struct
{
  guint64 end;
  guint32 frame;
} FrameSpan;

typedef struct
{
  guint32 seq;
  guint32 frame;
  GBytes *bytes;
} HeldSegment;

typedef struct
{
  StreamKey key;
  StreamState state;
  gboolean have_seq;
  guint32 next_seq; /* sequence number of the next in-order byte */
  gboolean syn_seen;
  guint32 isn;
  gboolean clean_start; /* followed from its SYN, so its first bytes are a message start */
  gboolean had_message;
  guint resync_segments;
  GByteArray *buffer; /* in-order bytes not framed yet; NULL when empty */
  guint64 buffer_pos; /* stream position of buffer[0] */
  /* Framing progress on the message at the buffer's start, so each byte is scanned once. */
  gsize header_scan_from;  /* where the search for the empty line resumes */
  guint64 pending_msg_len; /* length of that message once its headers are complete, else 0 */
  GArray *spans;           /* FrameSpan, covering the buffer */
  GList *held;             /* HeldSegment*, sorted by sequence number */
  guint held_count;
  gsize held_bytes;
  GList lru_link; /* in CsTcpReassembler.lru, least recently used first */
} Stream;

struct _CsTcpReassembler
{
  gsize max_bytes_per_stream;
  guint max_streams;
  GHashTable *streams; /* StreamKey* -> Stream* (owned) */
  GQueue lru;
  guint64 evicted;
};

/* What one cs_tcp_reassembler_add call hands to delivered messages. */
typedef struct
{
  const CsPacket *packet;
  gint64 ts_ns;
  CsTcpMessageFunc func;
  gpointer user_data;
} Delivery;

static guint
stream_key_hash (gconstpointer p)
{
  const StreamKey *k = p;

  return cs_endpoint_hash (&k->src) ^ (cs_endpoint_hash (&k->dst) * 31u);
}

static gboolean
stream_key_equal (gconstpointer a, gconstpointer b)
{
  const StreamKey *ka = a, *kb = b;

  return cs_endpoint_equal (&ka->src, &kb->src) && cs_endpoint_equal (&ka->dst, &kb->dst);
}

static void
held_segment_free (gpointer p)
{
  HeldSegment *h = p;

  g_bytes_unref (h->bytes);
  g_free (h);
}

static gboolean
stream_holds_bytes (const Stream *s)
{
  return (s->buffer != NULL && s->buffer->len > 0) || s->held != NULL;
}

static void
stream_clear_buffer (Stream *s)
{
  if (s->buffer != NULL)
    {
      s->buffer_pos += s->buffer->len;
      g_byte_array_unref (s->buffer);
      s->buffer = NULL;
    }
  g_clear_pointer (&s->spans, g_array_unref);
  s->header_scan_from = 0;
  s->pending_msg_len = 0;
}

static void
stream_clear_held (Stream *s)
{
  g_list_free_full (s->held, held_segment_free);
  s->held = NULL;
  s->held_count = 0;
  s->held_bytes = 0;
}

static void
stream_free (gpointer p)
{
  Stream *s = p;

  stream_clear_buffer (s);
  stream_clear_held (s);
  g_free (s);
}

CsTcpReassembler *
cs_tcp_reassembler_new (gsize max_bytes_per_stream, guint max_streams)
{
  CsTcpReassembler *r = g_new0 (CsTcpReassembler, 1);

  r->max_bytes_per_stream
      = max_bytes_per_stream != 0 ? max_bytes_per_stream : DEFAULT_MAX_BYTES_PER_STREAM;
  r->max_streams = max_streams != 0 ? max_streams : DEFAULT_MAX_STREAMS;
  r->streams = g_hash_table_new_full (stream_key_hash, stream_key_equal, NULL, stream_free);
  g_queue_init (&r->lru);
  return r;
}

void
cs_tcp_reassembler_free (CsTcpReassembler *r)
{
  if (r == NULL)
    return;
  g_hash_table_destroy (r->streams);
  g_free (r);
}

guint64
cs_tcp_reassembler_get_evicted (CsTcpReassembler *r)
{
  return r->evicted;
}

guint
cs_tcp_reassembler_get_stream_count (CsTcpReassembler *r)
{
  return g_hash_table_size (r->streams);
}

/* ---- SIP start line and framing ---- */

static gboolean
is_token_char (guint8 ch)
{
  return g_ascii_isalnum (ch) || strchr ("-.!%*_+`'~", ch) != NULL;
}

int
cs_tcp_sip_start_line_check (const guint8 *data, gsize len)
{
  static const char version[] = "SIP/2.0";
  gsize i = 0;

  while (i < len && (data[i] == '\r' || data[i] == '\n'))
    i++;
  if (i == len)
    return -1;

  const guint8 *line = data + i;
  gsize avail = MIN (len - i, (gsize) MAX_START_LINE);
  gsize n;

  /* Status line: SIP/2.0 SP 3DIGIT SP */
  for (n = 0; n < avail && n < 4; n++)
    if (g_ascii_toupper (line[n]) != version[n])
      break;
  if (n == 4)
    {
      for (; n < avail && n < 7; n++)
        if (line[n] != version[n])
          return 0;
      if (n < avail && line[n] != ' ')
        return 0;
      for (n = 8; n < avail && n < 11; n++)
        if (!g_ascii_isdigit (line[n]))
          return 0;
      if (n < avail && n == 11)
        return line[n] == ' ' || line[n] == '\r' ? 1 : 0;
      return avail < MAX_START_LINE ? -1 : 0;
    }

  /* Request line: token SP Request-URI SP SIP/2.0 CRLF */
  n = 0;
  while (n < avail && is_token_char (line[n]))
    n++;
  if (n == avail)
    return avail < MAX_START_LINE ? -1 : 0;
  if (n == 0 || line[n] != ' ')
    return 0;
  n++;
  gsize uri_start = n;
  while (n < avail && line[n] > ' ' && line[n] != 0x7f)
    n++;
  if (n == avail)
    return avail < MAX_START_LINE ? -1 : 0;
  if (n == uri_start || line[n] != ' ')
    return 0;
  n++;
  for (gsize v = 0; v < sizeof version - 1; v++, n++)
    {
      if (n == avail)
        return avail < MAX_START_LINE ? -1 : 0;
      if (g_ascii_toupper (line[n]) != version[v])
        return 0;
    }
  if (n < avail && line[n] == '\r')
    n++;
  if (n == avail)
    return avail < MAX_START_LINE ? -1 : 0;
  return line[n] == '\n' ? 1 : 0;
}

/* Length of the start line and headers including the empty line, or 0 if not all there yet;
 * *scan_from remembers how far the search got. */
static gsize
find_header_end (const guint8 *data, gsize len, gsize *scan_from)
{
  for (gsize i = *scan_from; i < len; i++)
    {
      if (data[i] != '\n')
        continue;
      if (i + 1 < len && data[i + 1] == '\n')
        return i + 2;
      if (i + 2 < len && data[i + 1] == '\r' && data[i + 2] == '\n')
        return i + 3;
    }
  /* A terminator may begin in the last two bytes. */
  *scan_from = len > 2 ? len - 2 : 0;
  return 0;
}

static gboolean
header_name_is (const guint8 *name, gsize name_len, const char *wanted)
{
  return strlen (wanted) == name_len
         && g_ascii_strncasecmp ((const char *) name, wanted, name_len) == 0;
}

/* Content-Length (or compact l) of the header block, 0 when absent or unreadable. */
static guint64
parse_content_length (const guint8 *headers, gsize len)
{
  gsize pos = 0;

  /* Skip the start line. */
  while (pos < len && headers[pos] != '\n')
    pos++;
  while (pos < len)
    {
      gsize line_start = ++pos;
      while (pos < len && headers[pos] != '\n')
        pos++;
      const guint8 *line = headers + line_start;
      gsize line_len = pos - line_start;

      if (line_len == 0 || line[0] == ' ' || line[0] == '\t')
        continue; /* empty line or folded continuation */
      const guint8 *colon = memchr (line, ':', line_len);
      if (colon == NULL)
        continue;
      gsize name_len = (gsize) (colon - line);
      while (name_len > 0 && (line[name_len - 1] == ' ' || line[name_len - 1] == '\t'))
        name_len--;
      if (!header_name_is (line, name_len, "Content-Length")
          && !header_name_is (line, name_len, "l"))
        continue;

      gsize v = (gsize) (colon - line) + 1;
      while (v < line_len && (line[v] == ' ' || line[v] == '\t'))
        v++;
      guint64 value = 0;
      gboolean digits = FALSE;
      for (; v < line_len && g_ascii_isdigit (line[v]); v++)
        {
          digits = TRUE;
          if (value < G_MAXUINT32)
            value = value * 10 + (guint64) (line[v] - '0');
        }
      return digits ? value : 0;
    }
  return 0;
}

static guint32
stream_frame_at (const Stream *s, guint64 pos)
{
  guint lo = 0, hi = s->spans->len;

  /* First span ending after pos (spans are sorted by end). */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (g_array_index (s->spans, FrameSpan, mid).end <= pos)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < s->spans->len ? g_array_index (s->spans, FrameSpan, lo).frame : 0;
}

static void
stream_consume (Stream *s, gsize n)
{
  g_byte_array_remove_range (s->buffer, 0, (guint) n);
  s->buffer_pos += n;
  guint drop = 0;
  while (drop < s->spans->len && g_array_index (s->spans, FrameSpan, drop).end <= s->buffer_pos)
    drop++;
  if (drop > 0)
    g_array_remove_range (s->spans, 0, drop);
}

/* Bytes that cannot be SIP where a message should start. */
static void
stream_lose_sync (Stream *s)
{
  stream_clear_buffer (s);
  if (s->clean_start && !s->had_message)
    {
      /* A connection followed from its SYN whose first line is not SIP: not a SIP stream. */
      s->state = STREAM_NON_SIP;
      stream_clear_held (s);
    }
  else
    {
      s->state = STREAM_RESYNC;
      s->resync_segments = 0;
    }
}

static void
stream_frame_messages (CsTcpReassembler *r, Stream *s, const Delivery *delivery)
{
  gsize head = 0; /* bytes at the buffer's start framed in this pass, removed once at the end */

  while (s->state == STREAM_SYNCED)
    {
      const guint8 *data = s->buffer->data + head;
      gsize avail = s->buffer->len - head;

      if (s->pending_msg_len == 0)
        {
          gsize skip = 0;
          while (skip < avail && (data[skip] == '\r' || data[skip] == '\n'))
            skip++;
          /* CRLF keep-alives between messages */
          head += skip;
          data += skip;
          avail -= skip;
          if (avail == 0)
            break;
          int start = cs_tcp_sip_start_line_check (data, avail);
          if (start == 0)
            {
              stream_lose_sync (s);
              return;
            }
          if (start < 0)
            break;
          gsize header_len = find_header_end (data, avail, &s->header_scan_from);
          if (header_len == 0)
            break;
          s->pending_msg_len = header_len + parse_content_length (data, header_len);
        }
      guint64 msg_len = s->pending_msg_len;
      if (msg_len > avail)
        break;

      guint64 msg_pos = s->buffer_pos + head;
      guint32 first_frame = stream_frame_at (s, msg_pos);
      guint32 last_frame = stream_frame_at (s, msg_pos + msg_len - 1);
      s->had_message = TRUE;
      if (delivery->func != NULL)
        delivery->func (data, (gsize) msg_len, delivery->packet, first_frame, last_frame,
                        delivery->ts_ns, delivery->user_data);
      head += (gsize) msg_len;
      s->pending_msg_len = 0;
      s->header_scan_from = 0;
    }
  if (head > 0)
    stream_consume (s, head);
  if (s->buffer->len > r->max_bytes_per_stream)
    {
      /* A message that never ends (or a Content-Length that lies): give it up. */
      r->evicted++;
      stream_clear_buffer (s);
      s->state = STREAM_RESYNC;
      s->resync_segments = 0;
    }
  else if (s->buffer->len == 0)
    stream_clear_buffer (s);
}

/* Hands bytes that continue the stream exactly at next_seq to the framer. */
static void
stream_deliver (CsTcpReassembler *r, Stream *s, const guint8 *data, gsize len, guint32 frame,
                const Delivery *delivery)
{
  s->next_seq += (guint32) len;
  if (s->state == STREAM_NON_SIP || s->state == STREAM_CLOSED)
    return;
  if (s->state == STREAM_RESYNC)
    {
      if (cs_tcp_sip_start_line_check (data, len) == 0)
        {
          s->buffer_pos += len;
          if (++s->resync_segments >= MAX_RESYNC_SEGMENTS && !s->had_message)
            {
              s->state = STREAM_NON_SIP;
              stream_clear_held (s);
            }
          return;
        }
      s->state = STREAM_SYNCED;
      s->resync_segments = 0;
    }
  if (s->buffer == NULL)
    {
      s->buffer = g_byte_array_new ();
      s->spans = g_array_new (FALSE, FALSE, sizeof (FrameSpan));
    }
  g_byte_array_append (s->buffer, data, (guint) len);
  FrameSpan span = { s->buffer_pos + s->buffer->len, frame };
  g_array_append_val (s->spans, span);
  stream_frame_messages (r, s, delivery);
}

/* Delivers held segments that now continue the stream; drops those entirely behind it. */
static void
stream_drain_held (CsTcpReassembler *r, Stream *s, const Delivery *delivery)
{
  while (s->held != NULL)
    {
      HeldSegment *h = s->held->data;
      gsize len;
      const guint8 *data = g_bytes_get_data (h->bytes, &len);
      gint32 ahead = (gint32) (h->seq - s->next_seq);

      if (ahead > 0)
        break;
      s->held = g_list_delete_link (s->held, s->held);
      s->held_count--;
      s->held_bytes -= len;
      if ((gint64) len > -(gint64) ahead)
        stream_deliver (r, s, data + (gsize) (-(gint64) ahead), len - (gsize) (-(gint64) ahead),
                        h->frame, delivery);
      held_segment_free (h);
    }
}

/* The missing bytes are not coming (the capture lost them): restart at the first held segment. */
static void
stream_abandon_gap (CsTcpReassembler *r, Stream *s, const Delivery *delivery)
{
  HeldSegment *first = s->held->data;

  r->evicted++;
  stream_clear_buffer (s);
  if (s->state == STREAM_SYNCED)
    {
      s->state = STREAM_RESYNC;
      s->resync_segments = 0;
    }
  s->next_seq = first->seq;
  stream_drain_held (r, s, delivery);
}

static void
stream_hold (Stream *s, const guint8 *data, gsize len, guint32 seq, guint32 frame)
{
  GList *l;

  for (l = s->held; l != NULL; l = l->next)
    {
      HeldSegment *h = l->data;
      guint32 h_ahead = h->seq - s->next_seq;
      guint32 ahead = seq - s->next_seq;

      if (h_ahead == ahead && g_bytes_get_size (h->bytes) >= len)
        return; /* a retransmission of a segment already held */
      if (h_ahead > ahead)
        break;
    }
  HeldSegment *h = g_new (HeldSegment, 1);
  h->seq = seq;
  h->frame = frame;
  h->bytes = g_bytes_new (data, len);
  s->held = g_list_insert_before (s->held, l, h);
  s->held_count++;
  s->held_bytes += len;
}

static Stream *
stream_lookup_or_create (CsTcpReassembler *r, const CsPacket *packet)
{
  StreamKey key;

  memset (&key, 0, sizeof key);
  key.src = packet->src;
  key.dst = packet->dst;
  Stream *s = g_hash_table_lookup (r->streams, &key);
  if (s != NULL)
    {
      g_queue_unlink (&r->lru, &s->lru_link);
      g_queue_push_tail_link (&r->lru, &s->lru_link);
      return s;
    }
  while (g_hash_table_size (r->streams) >= r->max_streams && r->lru.head != NULL)
    {
      Stream *oldest = r->lru.head->data;

      if (stream_holds_bytes (oldest))
        r->evicted++;
      g_queue_unlink (&r->lru, &oldest->lru_link);
      g_hash_table_remove (r->streams, &oldest->key);
    }
  s = g_new0 (Stream, 1);
  s->key = key;
  s->state = STREAM_RESYNC;
  s->lru_link.data = s;
  g_queue_push_tail_link (&r->lru, &s->lru_link);
  g_hash_table_insert (r->streams, &s->key, s);
  return s;
}

static void
stream_close (Stream *s)
{
  stream_clear_buffer (s);
  stream_clear_held (s);
  s->state = STREAM_CLOSED;
}

void
cs_tcp_reassembler_add (CsTcpReassembler *r, const CsPacket *packet, guint32 frame, gint64 ts_ns,
                        CsTcpMessageFunc func, gpointer user_data)
{
  Delivery delivery = { packet, ts_ns, func, user_data };

  g_return_if_fail (r != NULL && packet != NULL);
  Stream *s = stream_lookup_or_create (r, packet);
  guint8 flags = packet->tcp_flags;
  guint32 seq = packet->tcp_seq;
  const guint8 *data = packet->payload;
  gsize len = packet->payload != NULL ? packet->payload_len : 0;

  if (flags & CS_TCP_RST)
    {
      stream_close (s);
      return;
    }
  if (flags & CS_TCP_SYN)
    {
      /* A new connection (unless this is its SYN again): start over from a message boundary. */
      if (!(s->syn_seen && s->isn == seq))
        {
          stream_clear_buffer (s);
          stream_clear_held (s);
          s->state = STREAM_SYNCED;
          s->syn_seen = TRUE;
          s->isn = seq;
          s->clean_start = TRUE;
          s->had_message = FALSE;
          s->resync_segments = 0;
          s->have_seq = TRUE;
          s->next_seq = seq + 1;
        }
      seq++; /* data on a SYN (TCP Fast Open) follows the SYN's sequence number */
    }
  if (s->state == STREAM_NON_SIP)
    return;
  if (s->state == STREAM_CLOSED)
    {
      gint32 behind = (gint32) (s->next_seq - seq);
      if (s->have_seq && behind > 0)
        return; /* a retransmission from before the close */
      /* Data after the close: a connection whose SYN we missed reused the ports. */
      s->state = STREAM_RESYNC;
      s->have_seq = FALSE;
      s->clean_start = FALSE;
      s->had_message = FALSE;
      s->resync_segments = 0;
    }
  if (!s->have_seq)
    {
      /* Picked up mid-way: the first segment may start inside a message. */
      s->have_seq = TRUE;
      s->next_seq = seq;
      s->state = STREAM_RESYNC;
    }

  if (len > 0)
    {
      gint32 ahead = (gint32) (seq - s->next_seq);

      if (ahead < 0)
        {
          if ((gint64) len <= -(gint64) ahead)
            return; /* retransmission of bytes already seen (a FIN on it is a retransmission too) */
          data += (gsize) (-(gint64) ahead);
          len -= (gsize) (-(gint64) ahead);
          seq = s->next_seq;
          ahead = 0;
        }
      if (ahead > 0)
        {
          while (s->held != NULL
                 && (s->held_count >= MAX_HELD_SEGMENTS
                     || s->held_bytes + len > r->max_bytes_per_stream))
            stream_abandon_gap (r, s, &delivery);
          if (s->state == STREAM_NON_SIP || s->state == STREAM_CLOSED)
            return;
          ahead = (gint32) (seq - s->next_seq);
          if (ahead > 0 && len <= r->max_bytes_per_stream)
            {
              stream_hold (s, data, len, seq, frame);
              return;
            }
          if (ahead > 0)
            {
              /* A segment larger than the cap after a gap: skip the gap. */
              r->evicted++;
              stream_clear_buffer (s);
              s->state = STREAM_RESYNC;
              s->next_seq = seq;
              ahead = 0;
            }
          else if ((gint64) len <= -(gint64) ahead)
            return;
          else
            {
              data += (gsize) (-(gint64) ahead);
              len -= (gsize) (-(gint64) ahead);
              seq = s->next_seq;
            }
        }
      stream_deliver (r, s, data, len, frame, &delivery);
      stream_drain_held (r, s, &delivery);
    }

  if ((flags & CS_TCP_FIN) && s->next_seq == seq + (guint32) len)
    {
      s->next_seq++;
      stream_close (s);
    }
}
