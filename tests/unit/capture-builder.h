/* capture-builder.h — byte builders for crafted pcap/pcapng files in unit tests */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

static inline void
put_u16 (GByteArray *b, gboolean be, guint16 v)
{
  guint8 x[2];

  if (be)
    x[0] = v >> 8, x[1] = v & 0xff;
  else
    x[0] = v & 0xff, x[1] = v >> 8;
  g_byte_array_append (b, x, 2);
}

static inline void
put_u32 (GByteArray *b, gboolean be, guint32 v)
{
  put_u16 (b, be, be ? v >> 16 : v & 0xffff);
  put_u16 (b, be, be ? v & 0xffff : v >> 16);
}

static inline void
put_bytes (GByteArray *b, const void *data, gsize len)
{
  g_byte_array_append (b, data, (guint) len);
}

static inline void
put_zeros (GByteArray *b, gsize len)
{
  static const guint8 zeros[64];

  while (len > 0)
    {
      gsize n = MIN (len, sizeof zeros);

      put_bytes (b, zeros, n);
      len -= n;
    }
}

static inline void
pcap_header (GByteArray *b, gboolean be, gboolean ns, guint32 snaplen, guint32 network)
{
  put_u32 (b, be, ns ? 0xa1b23c4d : 0xa1b2c3d4);
  put_u16 (b, be, 2);
  put_u16 (b, be, 4);
  put_u32 (b, be, 0);
  put_u32 (b, be, 0);
  put_u32 (b, be, snaplen);
  put_u32 (b, be, network);
}

/* Payload bytes are i, i+1, ... so that offsets can be checked through content. */
static inline void
pcap_record (GByteArray *b, gboolean be, guint32 sec, guint32 frac, guint32 caplen, guint32 origlen)
{
  put_u32 (b, be, sec);
  put_u32 (b, be, frac);
  put_u32 (b, be, caplen);
  put_u32 (b, be, origlen);
  for (guint32 i = 0; i < caplen; i++)
    {
      guint8 v = (guint8) (caplen + i);

      put_bytes (b, &v, 1);
    }
}

static inline void
pcap_record_data (GByteArray *b, gboolean be, guint32 sec, guint32 frac, const guint8 *data,
                  guint32 len)
{
  put_u32 (b, be, sec);
  put_u32 (b, be, frac);
  put_u32 (b, be, len);
  put_u32 (b, be, len);
  put_bytes (b, data, len);
}

/* pcapng block: type, length, body (padded to 4), length. */
static inline void
ng_block (GByteArray *b, gboolean be, guint32 type, GByteArray *body)
{
  guint32 pad = (4 - body->len % 4) % 4;
  guint32 len = 12 + body->len + pad;

  put_u32 (b, be, type);
  put_u32 (b, be, len);
  put_bytes (b, body->data, body->len);
  put_zeros (b, pad);
  put_u32 (b, be, len);
  g_byte_array_set_size (body, 0);
}

static inline void
ng_option (GByteArray *body, gboolean be, guint16 code, const void *value, guint16 len)
{
  put_u16 (body, be, code);
  put_u16 (body, be, len);
  put_bytes (body, value, len);
  put_zeros (body, (4 - len % 4) % 4);
}

static inline void
ng_end_options (GByteArray *body, gboolean be)
{
  put_u32 (body, be, 0);
}

static inline void
ng_shb (GByteArray *b, gboolean be, const char *comment)
{
  GByteArray *body = g_byte_array_new ();

  put_u32 (body, be, 0x1A2B3C4D);
  put_u16 (body, be, 1);
  put_u16 (body, be, 0);
  put_u32 (body, be, 0xffffffff);
  put_u32 (body, be, 0xffffffff);
  if (comment != NULL)
    {
      ng_option (body, be, 1, comment, (guint16) strlen (comment));
      ng_end_options (body, be);
    }
  ng_block (b, be, 0x0A0D0D0A, body);
  g_byte_array_unref (body);
}

/* tsresol < 0: no option; tsoffset != 0 adds if_tsoffset. */
static inline void
ng_idb (GByteArray *b, gboolean be, guint16 linktype, guint32 snaplen, int tsresol, gint64 tsoffset)
{
  GByteArray *body = g_byte_array_new ();

  put_u16 (body, be, linktype);
  put_u16 (body, be, 0);
  put_u32 (body, be, snaplen);
  if (tsresol >= 0)
    {
      guint8 r = (guint8) tsresol;

      ng_option (body, be, 9, &r, 1);
    }
  if (tsoffset != 0)
    {
      guint64 v = (guint64) tsoffset;

      put_u16 (body, be, 14);
      put_u16 (body, be, 8);
      put_u32 (body, be, be ? (guint32) (v >> 32) : (guint32) v);
      put_u32 (body, be, be ? (guint32) v : (guint32) (v >> 32));
    }
  if (tsresol >= 0 || tsoffset != 0)
    ng_end_options (body, be);
  ng_block (b, be, 1, body);
  g_byte_array_unref (body);
}

static inline void
ng_epb (GByteArray *b, gboolean be, guint32 iface, guint64 ts, guint32 caplen, guint32 origlen,
        const char *comment)
{
  GByteArray *body = g_byte_array_new ();

  put_u32 (body, be, iface);
  put_u32 (body, be, (guint32) (ts >> 32));
  put_u32 (body, be, (guint32) ts);
  put_u32 (body, be, caplen);
  put_u32 (body, be, origlen);
  for (guint32 i = 0; i < caplen; i++)
    {
      guint8 v = (guint8) (caplen + i);

      put_bytes (body, &v, 1);
    }
  put_zeros (body, (4 - caplen % 4) % 4);
  if (comment != NULL)
    {
      ng_option (body, be, 1, comment, (guint16) strlen (comment));
      ng_end_options (body, be);
    }
  ng_block (b, be, 6, body);
  g_byte_array_unref (body);
}

static inline char *
write_capture_file (const char *dir, const char *name, GByteArray *b)
{
  char *path = g_build_filename (dir, name, NULL);
  GError *error = NULL;

  g_file_set_contents (path, (const char *) b->data, b->len, &error);
  g_assert_no_error (error);
  return path;
}

static inline void
remove_tmp_dir (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      char *file = g_build_filename (path, name, NULL);

      g_unlink (file);
      g_free (file);
    }
  if (dir != NULL)
    g_dir_close (dir);
  g_rmdir (path);
}
