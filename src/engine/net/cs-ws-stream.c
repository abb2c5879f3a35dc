/* cs-ws-stream.c — WebSocket connections followed in order: the HTTP Upgrade read, then
 * frames (RFC 6455 §5) joined into messages, permessage-deflate inflated with zlib */
#include "cs-ws-stream.h"

#include "cs-tcp-in-order.h"

#include <string.h>
#include <zlib.h>

#define MAX_HEAD 8192 /* an Upgrade request or response longer than this is not one */
#define MAX_FRAME_HEADER 14
#define MAX_SESSIONS 100000

enum
{
  OP_CONTINUATION = 0,
  OP_TEXT = 1,
  OP_BINARY = 2,
  OP_CLOSE = 8,
  OP_PONG = 10,
};

typedef struct
{
  CsTcpInOrder order;
  gboolean closed, lost;
  gboolean framing;        /* past the HTTP head: frames follow */
  GByteArray *buf;         /* bytes not yet a whole head or frame */
  guint32 buf_first_frame; /* the segment that carried buf's first byte */
  guint64 skip;            /* payload bytes of an oversized frame still to pass over */
  GByteArray *msg;         /* the fragments of the message being joined */
  gboolean in_message, compressed, discarding;
  guint32 msg_first_frame;
  z_stream *z;          /* this direction's inflater (context carried across messages) */
  gboolean no_takeover; /* the sender resets its compressor after each message */
  gboolean z_broken;    /* a compressed message was lost: the shared window is unknown */
} Dir;

typedef struct
{
  CsEndpoint client, server; /* the key: first two fields */
  Dir dir[2];                /* 0: client → server */
  gboolean deflate;
  guint32 first_frame;
  guint session; /* G_MAXUINT until the server's 101 */
} Conn;

struct _CsWsTracker
{
  GHashTable *conns; /* Conn* (its endpoints as key) → Conn* */
  GArray *sessions;  /* CsWsSessionInfo */
  guint max_connections;
  gsize max_message;
  guint8 *out;             /* one inflated message */
  CsWsSessionInfo pending; /* counts of connections not upgraded yet */
};

static guint
conn_hash (gconstpointer p)
{
  const Conn *c = p;

  return cs_endpoint_hash (&c->client) * 31u + cs_endpoint_hash (&c->server);
}

static gboolean
conn_equal (gconstpointer a, gconstpointer b)
{
  const Conn *x = a, *y = b;

  return cs_endpoint_equal (&x->client, &y->client) && cs_endpoint_equal (&x->server, &y->server);
}

static void
dir_clear (Dir *d)
{
  g_clear_pointer (&d->buf, g_byte_array_unref);
  g_clear_pointer (&d->msg, g_byte_array_unref);
  if (d->z != NULL)
    {
      inflateEnd (d->z);
      g_clear_pointer (&d->z, g_free);
    }
}

static void
conn_free (gpointer p)
{
  Conn *c = p;

  dir_clear (&c->dir[0]);
  dir_clear (&c->dir[1]);
  g_free (c);
}

CsWsTracker *
cs_ws_tracker_new (guint max_connections, gsize max_message)
{
  CsWsTracker *t = g_new0 (CsWsTracker, 1);

  t->conns = g_hash_table_new_full (conn_hash, conn_equal, NULL, conn_free);
  t->sessions = g_array_new (FALSE, TRUE, sizeof (CsWsSessionInfo));
  t->max_connections = max_connections != 0 ? max_connections : 4096;
  t->max_message = max_message != 0 ? max_message : 256 * 1024;
  t->out = g_malloc (t->max_message);
  return t;
}

void
cs_ws_tracker_free (CsWsTracker *t)
{
  if (t == NULL)
    return;
  g_hash_table_unref (t->conns);
  g_array_unref (t->sessions);
  g_free (t->out);
  g_free (t);
}

const GArray *
cs_ws_tracker_get_sessions (CsWsTracker *t)
{
  return t->sessions;
}

static CsWsSessionInfo *
session_of (CsWsTracker *t, Conn *c)
{
  return c->session < t->sessions->len ? &g_array_index (t->sessions, CsWsSessionInfo, c->session)
                                       : &t->pending;
}

static void
note_bad (CsWsSessionInfo *info, guint32 *counter, guint32 frame)
{
  if (info->bad_frames + info->oversized + info->inflate_failed == 0)
    info->first_bad_frame = frame;
  (*counter)++;
}

/* A bounded view of one header line's value. */
typedef struct
{
  const char *p;
  gsize len;
} Span;

static gboolean
span_has_token (Span v, const char *token, char separator)
{
  gsize n = strlen (token);
  gsize i = 0;

  while (i < v.len)
    {
      gsize start, end;

      while (i < v.len && (v.p[i] == ' ' || v.p[i] == '\t' || v.p[i] == separator))
        i++;
      start = i;
      while (i < v.len && v.p[i] != separator)
        i++;
      end = i;
      while (end > start && (v.p[end - 1] == ' ' || v.p[end - 1] == '\t'))
        end--;
      if (end - start == n && g_ascii_strncasecmp (v.p + start, token, n) == 0)
        return TRUE;
    }
  return FALSE;
}

/* Calls func on each "Name: value" line of an HTTP head (start line skipped). */
typedef void (*HeaderFunc) (Span name, Span value, gpointer user_data);

static void
for_each_header (const char *head, gsize len, HeaderFunc func, gpointer user_data)
{
  const char *p = head, *e = head + len;

  p = memchr (p, '\n', (gsize) (e - p));
  while (p != NULL && ++p < e)
    {
      const char *eol = memchr (p, '\n', (gsize) (e - p));
      const char *line_end = eol != NULL ? eol : e;
      const char *colon = memchr (p, ':', (gsize) (line_end - p));

      if (line_end > p && line_end[-1] == '\r')
        line_end--;
      if (colon != NULL && colon < line_end)
        {
          Span name = { p, (gsize) (colon - p) }, value = { colon + 1, 0 };

          while (value.p < line_end && (*value.p == ' ' || *value.p == '\t'))
            value.p++;
          value.len = (gsize) (line_end - value.p);
          func (name, value, user_data);
        }
      p = eol;
    }
}

static gboolean
span_is (Span s, const char *name)
{
  return s.len == strlen (name) && g_ascii_strncasecmp (s.p, name, s.len) == 0;
}

typedef struct
{
  gboolean websocket, sip;
} Request;

static void
read_request_header (Span name, Span value, gpointer user_data)
{
  Request *r = user_data;

  if (span_is (name, "Upgrade") && span_has_token (value, "websocket", ','))
    r->websocket = TRUE;
  else if (span_is (name, "Sec-WebSocket-Protocol") && span_has_token (value, "sip", ','))
    r->sip = TRUE;
}

typedef struct
{
  gboolean deflate, client_no_takeover, server_no_takeover;
} Response;

static void
read_response_header (Span name, Span value, gpointer user_data)
{
  Response *r = user_data;
  gsize i = 0;

  if (!span_is (name, "Sec-WebSocket-Extensions"))
    return;
  /* the extensions the server accepted, comma separated, each with ';' parameters */
  while (i < value.len)
    {
      gsize start = i;
      Span ext;

      while (i < value.len && value.p[i] != ',')
        i++;
      ext.p = value.p + start;
      ext.len = i - start;
      i++;
      while (ext.len > 0 && (*ext.p == ' ' || *ext.p == '\t'))
        ext.p++, ext.len--;
      if (ext.len >= 18 && g_ascii_strncasecmp (ext.p, "permessage-deflate", 18) == 0
          && (ext.len == 18 || ext.p[18] == ';' || ext.p[18] == ' '))
        {
          r->deflate = TRUE;
          r->client_no_takeover = span_has_token (ext, "client_no_context_takeover", ';');
          r->server_no_takeover = span_has_token (ext, "server_no_context_takeover", ';');
        }
    }
}

static gssize
head_length (const GByteArray *buf)
{
  const guint8 *end;

  if (buf->len < 4)
    return -1;
  end = memmem (buf->data, buf->len, "\r\n\r\n", 4);
  return end != NULL ? (gssize) (end - buf->data) + 4 : -1;
}

/* Drops a message being joined; under context takeover its loss leaves the window unknown. */
static void
drop_message (Dir *dir, gboolean fin)
{
  if (dir->in_message && dir->compressed && !dir->no_takeover)
    dir->z_broken = TRUE;
  dir->in_message = FALSE;
  dir->discarding = !fin;
  if (dir->msg != NULL)
    g_byte_array_set_size (dir->msg, 0);
}

/* The inflated message in t->out (RFC 7692 §7.2.2: the sender removed 00 00 ff ff). */
static gssize
inflate_message (CsWsTracker *t, Dir *dir)
{
  static const guint8 tail[4] = { 0, 0, 0xff, 0xff };
  gssize n = -1;
  int rc;

  if (dir->z == NULL)
    {
      dir->z = g_new0 (z_stream, 1);
      if (inflateInit2 (dir->z, -15) != Z_OK)
        {
          g_clear_pointer (&dir->z, g_free);
          return -1;
        }
    }
  if (dir->z_broken && !dir->no_takeover)
    return -1;
  g_byte_array_append (dir->msg, tail, sizeof tail);
  dir->z->next_in = dir->msg->data;
  dir->z->avail_in = dir->msg->len;
  dir->z->next_out = t->out;
  dir->z->avail_out = (uInt) t->max_message;
  do
    rc = inflate (dir->z, Z_SYNC_FLUSH);
  while (rc == Z_OK && dir->z->avail_in > 0 && dir->z->avail_out > 0);
  if ((rc == Z_OK || rc == Z_STREAM_END || rc == Z_BUF_ERROR) && dir->z->avail_in == 0)
    n = (gssize) (t->max_message - dir->z->avail_out);
  else if (!dir->no_takeover)
    dir->z_broken = TRUE; /* too big (a bomb) or corrupt: what follows cannot be trusted */
  if (rc == Z_STREAM_END || dir->no_takeover || n < 0)
    inflateReset (dir->z);
  return n;
}

static void
finish_message (CsWsTracker *t, Conn *c, Dir *dir, const CsPacket *packet, guint32 frame,
                gint64 ts_ns, CsTcpMessageFunc func, gpointer user_data)
{
  CsWsSessionInfo *info = session_of (t, c);

  dir->in_message = FALSE;
  if (dir->compressed)
    {
      gssize n = inflate_message (t, dir);

      if (n < 0)
        note_bad (info, &info->inflate_failed, frame);
      else
        {
          info->messages++;
          func (t->out, (gsize) n, packet, dir->msg_first_frame, frame, ts_ns, user_data);
        }
    }
  else
    {
      info->messages++;
      func (dir->msg->data, dir->msg->len, packet, dir->msg_first_frame, frame, ts_ns, user_data);
    }
  g_byte_array_set_size (dir->msg, 0);
}

/* One whole frame: payload unmasked in place. */
static void
read_frame (CsWsTracker *t, Conn *c, Dir *dir, guint8 b0, guint8 *payload, gsize len,
            const CsPacket *packet, guint32 frame, gint64 ts_ns, CsTcpMessageFunc func,
            gpointer user_data)
{
  CsWsSessionInfo *info = session_of (t, c);
  gboolean fin = (b0 & 0x80) != 0;
  guint opcode = b0 & 0x0f;

  if (opcode & 8)
    {
      /* control frames may come between a message's fragments (§5.5) */
      if (!fin || len > 125 || opcode > OP_PONG)
        note_bad (info, &info->bad_frames, frame);
      else
        info->control_frames++;
      if (opcode == OP_CLOSE)
        dir->closed = TRUE;
      return;
    }
  if (opcode == OP_TEXT || opcode == OP_BINARY)
    {
      if (dir->in_message)
        {
          note_bad (info, &info->bad_frames, frame); /* the last message never ended */
          drop_message (dir, TRUE);
        }
      dir->in_message = TRUE;
      dir->discarding = FALSE;
      dir->compressed = c->deflate && (b0 & 0x40) != 0;
      dir->msg_first_frame = dir->buf_first_frame;
      if (dir->msg == NULL)
        dir->msg = g_byte_array_new ();
    }
  else if (opcode != OP_CONTINUATION || !dir->in_message)
    {
      /* a reserved opcode, or the rest of a message already dropped */
      if (opcode != OP_CONTINUATION || !dir->discarding)
        note_bad (info, &info->bad_frames, frame);
      if (opcode == OP_CONTINUATION && fin)
        dir->discarding = FALSE;
      return;
    }
  if (dir->msg->len + len > t->max_message)
    {
      note_bad (info, &info->oversized, frame);
      drop_message (dir, fin);
      return;
    }
  g_byte_array_append (dir->msg, payload, (guint) len);
  if (fin)
    finish_message (t, c, dir, packet, frame, ts_ns, func, user_data);
}

/* A frame over the size cap: its message is lost. */
static void
pass_over_frame (CsWsTracker *t, Conn *c, Dir *dir, guint8 b0, guint32 frame)
{
  CsWsSessionInfo *info = session_of (t, c);
  gboolean fin = (b0 & 0x80) != 0;
  guint opcode = b0 & 0x0f;

  if (opcode == OP_TEXT || opcode == OP_BINARY)
    {
      if (dir->in_message)
        {
          note_bad (info, &info->bad_frames, frame);
          drop_message (dir, TRUE);
        }
      note_bad (info, &info->oversized, frame);
      dir->in_message = TRUE;
      dir->compressed = c->deflate && (b0 & 0x40) != 0;
      drop_message (dir, fin);
    }
  else if (opcode == OP_CONTINUATION && dir->in_message)
    {
      note_bad (info, &info->oversized, frame);
      drop_message (dir, fin);
    }
  else if (opcode == OP_CONTINUATION && dir->discarding)
    dir->discarding = !fin;
  else
    note_bad (info, &info->bad_frames, frame); /* control frames are never this long */
}

/* Whole frames out of direction d's bytes. */
static void
read_frames (CsWsTracker *t, Conn *c, Dir *dir, const CsPacket *packet, guint32 frame, gint64 ts_ns,
             CsTcpMessageFunc func, gpointer user_data)
{
  CsWsSessionInfo *info = session_of (t, c);

  while (!dir->closed && !dir->lost && dir->buf != NULL)
    {
      guint8 *f = dir->buf->data;
      gsize have = dir->buf->len, header = 2, len;
      guint64 len64;
      gboolean masked;

      if (dir->skip > 0)
        {
          gsize n = (gsize) MIN (dir->skip, (guint64) have);

          g_byte_array_remove_range (dir->buf, 0, (guint) n);
          dir->skip -= n;
          if (dir->skip > 0)
            return;
          continue;
        }
      if (have < 2)
        return;
      masked = (f[1] & 0x80) != 0;
      len64 = f[1] & 0x7f;
      header += (len64 == 126 ? 2 : len64 == 127 ? 8 : 0) + (masked ? 4 : 0);
      if (have < header)
        return;
      if (len64 == 126)
        len64 = (guint64) f[2] << 8 | f[3];
      else if (len64 == 127)
        {
          len64 = 0;
          for (guint i = 0; i < 8; i++)
            len64 = len64 << 8 | f[2 + i];
          if (len64 >> 63)
            {
              /* not a frame length: the rest of this direction cannot be followed */
              note_bad (info, &info->bad_frames, frame);
              dir->lost = info->lost_bytes = TRUE;
              return;
            }
        }
      if (len64 > t->max_message)
        {
          /* too big to hold: pass over its payload, the frames after it still count */
          pass_over_frame (t, c, dir, f[0], frame);
          dir->skip = len64;
          g_byte_array_remove_range (dir->buf, 0, (guint) header);
          continue;
        }
      len = (gsize) len64;
      if (have < header + len)
        return;
      if (masked)
        {
          const guint8 *key = f + header - 4;

          for (gsize i = 0; i < len; i++)
            f[header + i] ^= key[i & 3];
        }
      read_frame (t, c, dir, f[0], f + header, len, packet, frame, ts_ns, func, user_data);
      if (dir->buf != NULL)
        {
          g_byte_array_remove_range (dir->buf, 0, (guint) (header + len));
          /* what is left came with this segment unless it is longer than the segment */
          if (dir->buf->len <= packet->payload_len)
            dir->buf_first_frame = frame;
        }
    }
}

static Conn *
find_conn (CsWsTracker *t, const CsPacket *packet, guint *d)
{
  Conn key;
  Conn *c;

  key.client = packet->src;
  key.server = packet->dst;
  if ((c = g_hash_table_lookup (t->conns, &key)) != NULL)
    {
      *d = 0;
      return c;
    }
  key.client = packet->dst;
  key.server = packet->src;
  *d = 1;
  return g_hash_table_lookup (t->conns, &key);
}

static gboolean
starts_get (const CsPacket *packet)
{
  return packet->payload != NULL && packet->payload_len >= 4
         && memcmp (packet->payload, "GET ", 4) == 0;
}

static Conn *
open_conn (CsWsTracker *t, const CsPacket *packet, guint32 frame)
{
  Conn *c;

  if (g_hash_table_size (t->conns) >= t->max_connections)
    return NULL;
  c = g_new0 (Conn, 1);
  c->client = packet->src;
  c->server = packet->dst;
  c->first_frame = frame;
  c->session = G_MAXUINT;
  g_hash_table_insert (t->conns, c, c);
  return c;
}

/* Upgraded: listed from now on. */
static void
list_session (CsWsTracker *t, Conn *c, gboolean deflate)
{
  CsWsSessionInfo info = { 0 };

  if (t->sessions->len >= MAX_SESSIONS)
    return;
  info.client = c->client;
  info.server = c->server;
  info.first_frame = c->first_frame;
  info.deflate = deflate;
  c->session = t->sessions->len;
  g_array_append_val (t->sessions, info);
}

/* The heads: the client's Upgrade request, then the server's 101. FALSE when the connection
 * was released. */
static gboolean
read_heads (CsWsTracker *t, Conn *c, guint d)
{
  Dir *dir = &c->dir[d];
  gssize n = head_length (dir->buf);

  if (n < 0)
    {
      if (dir->buf->len <= MAX_HEAD)
        return TRUE;
      g_hash_table_remove (t->conns, c);
      return FALSE;
    }
  if (d == 0)
    {
      Request r = { FALSE, FALSE };

      for_each_header ((const char *) dir->buf->data, (gsize) n, read_request_header, &r);
      if (!r.websocket || !r.sip)
        {
          g_hash_table_remove (t->conns, c);
          return FALSE;
        }
    }
  else
    {
      Response r = { FALSE, FALSE, FALSE };

      if (n < 12 || memcmp (dir->buf->data, "HTTP/1.", 7) != 0
          || memcmp (dir->buf->data + 8, " 101", 4) != 0)
        {
          g_hash_table_remove (t->conns, c);
          return FALSE;
        }
      for_each_header ((const char *) dir->buf->data, (gsize) n, read_response_header, &r);
      c->deflate = r.deflate;
      c->dir[0].no_takeover = r.client_no_takeover;
      c->dir[1].no_takeover = r.server_no_takeover;
      list_session (t, c, r.deflate);
    }
  g_byte_array_remove_range (dir->buf, 0, (guint) n);
  dir->framing = TRUE;
  return TRUE;
}

gboolean
cs_ws_tracker_add (CsWsTracker *t, const CsPacket *packet, guint32 frame, gint64 ts_ns,
                   CsTcpMessageFunc func, gpointer user_data)
{
  guint d = 0;
  Conn *c = find_conn (t, packet, &d);
  Dir *dir;
  const guint8 *data;
  gsize len;

  if (c == NULL)
    {
      /* a new connection only from its Upgrade request (any port) */
      if (!starts_get (packet) || (c = open_conn (t, packet, frame)) == NULL)
        return FALSE;
      d = 0;
    }
  dir = &c->dir[d];
  if (!dir->lost && !dir->closed)
    switch (cs_tcp_in_order_take (&dir->order, packet, &data, &len))
      {
      case CS_TCP_IN_ORDER_NEW:
        if (dir->buf == NULL)
          dir->buf = g_byte_array_new ();
        if (dir->buf->len == 0)
          dir->buf_first_frame = frame;
        if (dir->buf->len + len > t->max_message + MAX_FRAME_HEADER + MAX_HEAD)
          {
            dir->lost = session_of (t, c)->lost_bytes = TRUE;
            g_clear_pointer (&dir->buf, g_byte_array_unref);
            break;
          }
        g_byte_array_append (dir->buf, data, (guint) len);
        if (!dir->framing && !read_heads (t, c, d))
          return TRUE;
        if (!c->dir[1].framing)
          break; /* client frames wait for the server's answer (the extensions it took) */
        read_frames (t, c, dir, packet, frame, ts_ns, func, user_data);
        if (d == 1 && c->dir[0].framing && c->dir[0].buf != NULL && c->dir[0].buf->len > 0)
          {
            CsPacket client = *packet;

            client.src = packet->dst;
            client.dst = packet->src;
            client.payload_len = 0;
            read_frames (t, c, &c->dir[0], &client, frame, ts_ns, func, user_data);
          }
        break;
      case CS_TCP_IN_ORDER_GAP:
        dir->lost = session_of (t, c)->lost_bytes = TRUE;
        g_clear_pointer (&dir->buf, g_byte_array_unref);
        break;
      case CS_TCP_IN_ORDER_OLD:
        break;
      }
  if (packet->tcp_flags & (CS_TCP_FIN | CS_TCP_RST))
    {
      dir->closed = TRUE;
      g_clear_pointer (&dir->buf, g_byte_array_unref);
      if ((packet->tcp_flags & CS_TCP_RST) || (c->dir[0].closed && c->dir[1].closed))
        g_hash_table_remove (t->conns, c);
    }
  return TRUE;
}
