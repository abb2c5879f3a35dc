/* cs-tls-stream.c — TLS connections followed record by record: the clear handshake read,
 * keys set up from the key log at the ServerHello, records decrypted in order */
#include "cs-tls-stream.h"

#include "cs-tcp-in-order.h"
#include "cs-tls-crypto.h"

#include <string.h>

/* TLSCiphertext may be 2^14 + 2048 bytes; anything longer is not TLS. */
#define MAX_RECORD (16384 + 2048)
#define MAX_HANDSHAKE (64 * 1024)
#define MAX_SESSIONS 100000

enum
{
  TYPE_CCS = 20,
  TYPE_ALERT = 21,
  TYPE_HANDSHAKE = 22,
  TYPE_APPLICATION = 23,
  TYPE_HEARTBEAT = 24,
};

typedef struct
{
  gboolean closed, lost;
  CsTcpInOrder order;
  guint64 plain_offset;
  GByteArray *buf;    /* record bytes not yet whole */
  GByteArray *hs;     /* handshake bytes not yet a whole message */
  CsTlsKeys *keys;    /* protecting this direction's records now */
  CsTlsKeys *pending; /* TLS 1.2: after ChangeCipherSpec; TLS 1.3: after Finished */
} Dir;

typedef struct
{
  CsEndpoint client, server; /* the key: first two fields */
  Dir dir[2];                /* 0: client → server */
  guint8 client_random[32];
  guint8 master[48]; /* TLS 1.2: what resumed sessions may reuse */
  gboolean have_master;
  guint8 session_id[32]; /* the ClientHello's */
  guint session_id_length;
  GBytes *ticket; /* the ClientHello's SessionTicket (RFC 5077), or NULL */
  guint session;
  gboolean have_client_hello, have_server_hello, tls13;
} Conn;

/* TLS 1.2 sessions a later connection may resume: master secrets by session id and ticket. */
#define MAX_RESUMABLE 4096

struct _CsTlsTracker
{
  CsTlsKeylog *keylog;
  GHashTable *resumable; /* GBytes (session id or ticket, prefixed 'i' or 't') → 48 bytes */
  GHashTable *conns;     /* Conn* (its endpoints as key) → Conn* */
  GArray *sessions;      /* CsTlsSessionInfo */
  guint max_connections, dropped;
  guint8 out[MAX_RECORD];
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
  g_clear_pointer (&d->hs, g_byte_array_unref);
  g_clear_pointer (&d->keys, cs_tls_keys_free);
  g_clear_pointer (&d->pending, cs_tls_keys_free);
}

static void
conn_free (gpointer p)
{
  Conn *c = p;

  dir_clear (&c->dir[0]);
  dir_clear (&c->dir[1]);
  memset (c->client_random, 0, sizeof c->client_random);
  memset (c->master, 0, sizeof c->master);
  g_clear_pointer (&c->ticket, g_bytes_unref);
  g_free (c);
}

static void
secret_free (gpointer p)
{
  memset (p, 0, 48);
  g_free (p);
}

/* The resumption key of a session id or ticket. */
static GBytes *
resumable_key (char kind, const guint8 *data, gsize len)
{
  guint8 *key = g_malloc (len + 1);

  key[0] = (guint8) kind;
  memcpy (key + 1, data, len);
  return g_bytes_new_take (key, len + 1);
}

static void
remember_master (CsTlsTracker *t, char kind, const guint8 *data, gsize len, const guint8 *master)
{
  if (len == 0 || g_hash_table_size (t->resumable) >= MAX_RESUMABLE)
    return;
  g_hash_table_replace (t->resumable, resumable_key (kind, data, len), g_memdup2 (master, 48));
}

static const guint8 *
recall_master (CsTlsTracker *t, char kind, const guint8 *data, gsize len)
{
  g_autoptr (GBytes) key = NULL;

  if (len == 0)
    return NULL;
  key = resumable_key (kind, data, len);
  return g_hash_table_lookup (t->resumable, key);
}

CsTlsTracker *
cs_tls_tracker_new (CsTlsKeylog *keylog, guint max_connections)
{
  CsTlsTracker *t = g_new0 (CsTlsTracker, 1);

  t->keylog = keylog != NULL ? cs_tls_keylog_ref (keylog) : NULL;
  t->conns = g_hash_table_new_full (conn_hash, conn_equal, NULL, conn_free);
  t->resumable = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref,
                                        secret_free);
  t->sessions = g_array_new (FALSE, TRUE, sizeof (CsTlsSessionInfo));
  t->max_connections = max_connections != 0 ? max_connections : 4096;
  return t;
}

void
cs_tls_tracker_free (CsTlsTracker *t)
{
  if (t == NULL)
    return;
  g_hash_table_unref (t->conns);
  g_hash_table_unref (t->resumable);
  g_array_unref (t->sessions);
  cs_tls_keylog_unref (t->keylog);
  memset (t->out, 0, sizeof t->out);
  g_free (t);
}

const GArray *
cs_tls_tracker_get_sessions (CsTlsTracker *t)
{
  return t->sessions;
}

guint
cs_tls_tracker_get_dropped (CsTlsTracker *t)
{
  return t->dropped;
}

const char *
cs_tls_version_to_string (guint16 version)
{
  return version == 0x0304 ? "TLS 1.3" : version == 0x0303 ? "TLS 1.2" : "TLS";
}

static CsTlsSessionInfo *
session_of (CsTlsTracker *t, Conn *c)
{
  return c->session < t->sessions->len ? &g_array_index (t->sessions, CsTlsSessionInfo, c->session)
                                       : NULL;
}

/* A bounds-checked walk over handshake bytes. */
typedef struct
{
  const guint8 *p, *e;
  gboolean bad;
} Walk;

static guint
take (Walk *w, guint n)
{
  guint v = 0;

  if (w->bad || (gsize) (w->e - w->p) < n)
    {
      w->bad = TRUE;
      return 0;
    }
  for (guint i = 0; i < n; i++)
    v = v << 8 | *w->p++;
  return v;
}

static const guint8 *
skip (Walk *w, gsize n)
{
  const guint8 *at = w->p;

  if (w->bad || (gsize) (w->e - w->p) < n)
    {
      w->bad = TRUE;
      return NULL;
    }
  w->p += n;
  return at;
}

static void
read_client_hello (CsTlsTracker *t, Conn *c, const guint8 *body, gsize len)
{
  Walk w = { body, body + len, FALSE };
  const guint8 *random;
  CsTlsSessionInfo *info = session_of (t, c);
  Walk ext;

  take (&w, 2);
  random = skip (&w, 32);
  {
    guint n = take (&w, 1);
    const guint8 *id = skip (&w, n);

    if (id != NULL && n <= sizeof c->session_id)
      {
        memcpy (c->session_id, id, n);
        c->session_id_length = n;
      }
  }
  skip (&w, take (&w, 2)); /* cipher suites */
  skip (&w, take (&w, 1)); /* compression */
  if (random == NULL)
    return;
  memcpy (c->client_random, random, 32);
  c->have_client_hello = TRUE;
  {
    gsize n = take (&w, 2);

    ext.p = w.p;
    ext.e = w.p + MIN (n, (gsize) (w.e - w.p));
    ext.bad = w.bad;
  }
  while (!ext.bad && ext.p < ext.e)
    {
      guint type = take (&ext, 2), n = take (&ext, 2);
      const guint8 *data = skip (&ext, n);

      if (type == 35 && data != NULL && n > 0 && c->ticket == NULL)
        c->ticket = g_bytes_new (data, n);
      if (type == 0 && data != NULL && info != NULL)
        {
          Walk sni = { data, data + n, FALSE };
          guint name_len;
          const guint8 *name;

          take (&sni, 2);
          if (take (&sni, 1) != 0)
            continue;
          name_len = take (&sni, 2);
          name = skip (&sni, name_len);
          if (name != NULL)
            for (guint i = 0; i < MIN (name_len, sizeof info->sni - 1); i++)
              info->sni[i] = g_ascii_isprint (name[i]) ? (char) name[i] : '?';
        }
    }
}

/* Keys for both directions once the ServerHello names the version and suite. */
static void
set_up_keys (CsTlsTracker *t, Conn *c, const guint8 *server_random, gboolean etm,
             const guint8 *sh_session_id, guint sh_session_id_length)
{
  CsTlsSessionInfo *info = session_of (t, c);
  const CsTlsSuite *suite = cs_tls_suite_lookup (info->cipher);
  const CsTlsSecrets *s
      = c->have_client_hello ? cs_tls_keylog_lookup (t->keylog, c->client_random) : NULL;

  info->cipher_name = suite != NULL ? suite->name : NULL;
  if (suite == NULL || suite->tls13 != c->tls13 || (c->tls13 && s == NULL))
    return;
  if (c->tls13)
    {
      if (s->length[CS_TLS_SECRET_CLIENT_HANDSHAKE] == 0
          || s->length[CS_TLS_SECRET_SERVER_HANDSHAKE] == 0)
        return;
      c->dir[0].keys = cs_tls_keys_new13 (suite, s->secret[CS_TLS_SECRET_CLIENT_HANDSHAKE],
                                          s->length[CS_TLS_SECRET_CLIENT_HANDSHAKE]);
      c->dir[1].keys = cs_tls_keys_new13 (suite, s->secret[CS_TLS_SECRET_SERVER_HANDSHAKE],
                                          s->length[CS_TLS_SECRET_SERVER_HANDSHAKE]);
      if (s->length[CS_TLS_SECRET_CLIENT_TRAFFIC] > 0)
        c->dir[0].pending = cs_tls_keys_new13 (suite, s->secret[CS_TLS_SECRET_CLIENT_TRAFFIC],
                                               s->length[CS_TLS_SECRET_CLIENT_TRAFFIC]);
      if (s->length[CS_TLS_SECRET_SERVER_TRAFFIC] > 0)
        c->dir[1].pending = cs_tls_keys_new13 (suite, s->secret[CS_TLS_SECRET_SERVER_TRAFFIC],
                                               s->length[CS_TLS_SECRET_SERVER_TRAFFIC]);
      info->keys_found = c->dir[0].keys != NULL && c->dir[1].keys != NULL;
      return;
    }
  if (s != NULL && s->length[CS_TLS_SECRET_MASTER] == 48)
    {
      memcpy (c->master, s->secret[CS_TLS_SECRET_MASTER], 48);
      c->have_master = TRUE;
    }
  else
    {
      /* a resumed session: the master secret of the session it resumes */
      const guint8 *m = NULL;
      gsize ticket_len = 0;
      const guint8 *ticket = c->ticket != NULL ? g_bytes_get_data (c->ticket, &ticket_len) : NULL;

      if (ticket != NULL)
        m = recall_master (t, 't', ticket, ticket_len);
      if (m == NULL && sh_session_id_length > 0 && sh_session_id_length == c->session_id_length
          && memcmp (sh_session_id, c->session_id, sh_session_id_length) == 0)
        m = recall_master (t, 'i', sh_session_id, sh_session_id_length);
      if (m == NULL)
        return;
      memcpy (c->master, m, 48);
      c->have_master = TRUE;
    }
  remember_master (t, 'i', sh_session_id, sh_session_id_length, c->master);
  info->keys_found = cs_tls_keys_new12 (suite, c->master, c->client_random, server_random, etm,
                                        &c->dir[0].pending, &c->dir[1].pending);
}

static void
read_server_hello (CsTlsTracker *t, Conn *c, const guint8 *body, gsize len)
{
  Walk w = { body, body + len, FALSE }, ext;
  CsTlsSessionInfo *info = session_of (t, c);
  guint16 version = (guint16) take (&w, 2);
  const guint8 *random = skip (&w, 32);
  gboolean etm = FALSE;
  guint id_length = take (&w, 1);
  const guint8 *id = skip (&w, id_length);

  info->cipher = (guint16) take (&w, 2);
  take (&w, 1);
  if (w.bad || c->have_server_hello)
    return;
  c->have_server_hello = TRUE;
  {
    gsize n = take (&w, 2);

    ext.p = w.p;
    ext.e = w.p + MIN (n, (gsize) (w.e - w.p));
    ext.bad = w.bad;
  }
  while (!ext.bad && ext.p < ext.e)
    {
      guint type = take (&ext, 2), n = take (&ext, 2);
      Walk data = { ext.p, ext.p + n, FALSE };

      if (skip (&ext, n) == NULL)
        break;
      if (type == 43 && n == 2) /* supported_versions: the one chosen */
        version = (guint16) take (&data, 2);
      else if (type == 22) /* encrypt_then_mac */
        etm = TRUE;
    }
  info->version = version;
  c->tls13 = version == 0x0304;
  set_up_keys (t, c, random, etm, id, id != NULL ? id_length : 0);
}

/* Whole handshake messages of direction d; TLS 1.3: Finished and KeyUpdate change keys
 * after the record that carried them (*switch_keys). */
static void
read_handshake (CsTlsTracker *t, Conn *c, guint d, const guint8 *data, gsize len,
                gboolean *switch_keys, gboolean *update_keys)
{
  Dir *dir = &c->dir[d];

  if (dir->hs == NULL)
    dir->hs = g_byte_array_new ();
  if (dir->hs->len + len > MAX_HANDSHAKE)
    {
      g_byte_array_set_size (dir->hs, 0);
      return;
    }
  g_byte_array_append (dir->hs, data, (guint) len);
  while (dir->hs->len >= 4)
    {
      const guint8 *m = dir->hs->data;
      gsize body = (gsize) m[1] << 16 | (gsize) m[2] << 8 | m[3];

      if (body > MAX_HANDSHAKE)
        {
          g_byte_array_set_size (dir->hs, 0);
          return;
        }
      if (dir->hs->len < 4 + body)
        return;
      if (m[0] == 1 && d == 0 && !c->have_client_hello)
        read_client_hello (t, c, m + 4, body);
      else if (m[0] == 2 && d == 1)
        read_server_hello (t, c, m + 4, body);
      else if (m[0] == 4 && d == 1 && !c->tls13 && c->have_master && body > 6)
        {
          /* RFC 5077: lifetime (4), ticket length (2), ticket */
          gsize n = (gsize) m[8] << 8 | m[9];

          if (n > 0 && 6 + n <= body)
            remember_master (t, 't', m + 10, n, c->master);
        }
      else if (m[0] == 20 && c->tls13)
        *switch_keys = TRUE;
      else if (m[0] == 24 && c->tls13)
        *update_keys = TRUE;
      g_byte_array_remove_range (dir->hs, 0, (guint) (4 + body));
    }
}

static void
read_record (CsTlsTracker *t, Conn *c, guint d, guint8 type, guint16 version, const guint8 *frag,
             gsize len, const CsPacket *packet, guint32 frame, gint64 ts_ns, CsTlsPlainFunc func,
             gpointer user_data)
{
  Dir *dir = &c->dir[d];
  CsTlsSessionInfo *info = session_of (t, c);
  gboolean switch_keys = FALSE, update_keys = FALSE;
  gsize plain_len = 0;
  guint8 inner;

  if (type == TYPE_CCS)
    {
      if (!c->tls13 && dir->pending != NULL)
        {
          g_clear_pointer (&dir->keys, cs_tls_keys_free);
          dir->keys = g_steal_pointer (&dir->pending);
        }
      return;
    }
  if (dir->keys == NULL || (c->tls13 && type != TYPE_APPLICATION))
    {
      if (type == TYPE_HANDSHAKE && dir->keys == NULL)
        read_handshake (t, c, d, frag, len, &switch_keys, &update_keys);
      return;
    }
  if (!cs_tls_keys_decrypt (dir->keys, type, version, frag, len, t->out, &plain_len, &inner))
    {
      if (info->records_failed++ == 0)
        info->first_failed_frame = frame;
      return;
    }
  info->records_decrypted++;
  if (inner == TYPE_HANDSHAKE)
    read_handshake (t, c, d, t->out, plain_len, &switch_keys, &update_keys);
  else if (inner == TYPE_APPLICATION && plain_len > 0)
    {
      CsPacket plain = *packet;

      plain.payload = t->out;
      plain.payload_len = plain_len;
      plain.tcp_seq = dir->order.first_seq + (guint32) dir->plain_offset;
      plain.tcp_flags = CS_TCP_ACK;
      dir->plain_offset += plain_len;
      func (&plain, t->out, plain_len, frame, ts_ns, user_data);
    }
  if (switch_keys && dir->pending != NULL)
    {
      g_clear_pointer (&dir->keys, cs_tls_keys_free);
      dir->keys = g_steal_pointer (&dir->pending);
    }
  else if (update_keys && !cs_tls_keys_update13 (dir->keys))
    g_clear_pointer (&dir->keys, cs_tls_keys_free);
}

/* Whole records out of direction d's bytes. */
static void
read_records (CsTlsTracker *t, Conn *c, guint d, const CsPacket *packet, guint32 frame,
              gint64 ts_ns, CsTlsPlainFunc func, gpointer user_data)
{
  Dir *dir = &c->dir[d];
  CsTlsSessionInfo *info = session_of (t, c);

  while (dir->buf->len >= 5)
    {
      const guint8 *r = dir->buf->data;
      gsize len = (gsize) r[3] << 8 | r[4];

      if (r[0] < TYPE_CCS || r[0] > TYPE_HEARTBEAT || r[1] != 3 || len > MAX_RECORD)
        {
          /* not a record boundary: the rest of this direction cannot be followed */
          dir->lost = TRUE;
          info->lost_bytes = TRUE;
          g_byte_array_set_size (dir->buf, 0);
          return;
        }
      if (dir->buf->len < 5 + len)
        return;
      info->bytes[d] += 5 + len;
      read_record (t, c, d, r[0], (guint16) (r[1] << 8 | r[2]), r + 5, len, packet, frame, ts_ns,
                   func, user_data);
      g_byte_array_remove_range (dir->buf, 0, (guint) (5 + len));
    }
}

static gboolean
starts_client_hello (const CsPacket *packet)
{
  const guint8 *p = packet->payload;

  return packet->payload_len >= 6 && p[0] == TYPE_HANDSHAKE && p[1] == 3 && p[5] == 1;
}

static Conn *
find_conn (CsTlsTracker *t, const CsPacket *packet, guint *d)
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

static Conn *
open_conn (CsTlsTracker *t, const CsPacket *packet, guint32 frame)
{
  Conn *c;
  CsTlsSessionInfo info = { 0 };

  if (g_hash_table_size (t->conns) >= t->max_connections || t->sessions->len >= MAX_SESSIONS)
    {
      t->dropped++;
      return NULL;
    }
  c = g_new0 (Conn, 1);
  c->client = packet->src;
  c->server = packet->dst;
  c->session = t->sessions->len;
  info.client = packet->src;
  info.server = packet->dst;
  info.first_frame = frame;
  g_array_append_val (t->sessions, info);
  g_hash_table_insert (t->conns, c, c);
  return c;
}

gboolean
cs_tls_tracker_add (CsTlsTracker *t, const CsPacket *packet, guint32 frame, gint64 ts_ns,
                    CsTlsPlainFunc func, gpointer user_data)
{
  guint d = 0;
  Conn *c = find_conn (t, packet, &d);
  Dir *dir;
  const guint8 *data;
  gsize len;

  if (c == NULL)
    {
      /* a new connection only from its ClientHello (any port) */
      if (packet->payload == NULL || !starts_client_hello (packet)
          || (c = open_conn (t, packet, frame)) == NULL)
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
        if (dir->buf->len + len > 2 * MAX_RECORD)
          {
            dir->lost = TRUE;
            session_of (t, c)->lost_bytes = TRUE;
            g_byte_array_set_size (dir->buf, 0);
          }
        else
          {
            g_byte_array_append (dir->buf, data, (guint) len);
            read_records (t, c, d, packet, frame, ts_ns, func, user_data);
          }
        break;
      case CS_TCP_IN_ORDER_GAP:
        /* a gap: the records after it cannot be told apart */
        dir->lost = TRUE;
        session_of (t, c)->lost_bytes = TRUE;
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
