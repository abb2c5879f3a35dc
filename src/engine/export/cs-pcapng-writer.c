/* cs-pcapng-writer.c — writes pcapng (SHB, IDB, EPB) or classic pcap files */
#include "cs-pcapng-writer.h"

#include "base/cs-error.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define PCAPNG_BLOCK_SHB 0x0A0D0D0Au
#define PCAPNG_BLOCK_IDB 0x00000001u
#define PCAPNG_BLOCK_EPB 0x00000006u
#define PCAPNG_BYTE_ORDER_MAGIC 0x1A2B3C4Du
#define PCAP_MAGIC_USEC 0xA1B2C3D4u
#define PCAP_MAGIC_NSEC 0xA1B23C4Du
#define OPT_END 0
#define OPT_COMMENT 1
#define SHB_USERAPPL 4
#define IF_NAME 2
#define IF_TSRESOL 9
#define SNAPLEN 262144
/* Flush to disk in pieces this big so a large export stays in bounded memory. */
#define FLUSH_THRESHOLD (256 * 1024)

struct _CsPcapngWriter
{
  CsCaptureFileFormat format;
  gboolean nanosecond;
  gboolean big_endian;
  FILE *file; /* NULL in memory mode */
  char *path;
  GByteArray *buf;
  guint n_interfaces;
  guint64 n_packets;
};

static void
put_u16 (CsPcapngWriter *w, guint16 v)
{
  guint8 b[2];

  if (w->big_endian)
    {
      b[0] = v >> 8;
      b[1] = v & 0xff;
    }
  else
    {
      b[0] = v & 0xff;
      b[1] = v >> 8;
    }
  g_byte_array_append (w->buf, b, 2);
}

static void
put_u32 (CsPcapngWriter *w, guint32 v)
{
  guint8 b[4];

  for (int i = 0; i < 4; i++)
    {
      int shift = w->big_endian ? 24 - 8 * i : 8 * i;
      b[i] = (v >> shift) & 0xff;
    }
  g_byte_array_append (w->buf, b, 4);
}

static void
put_padding (CsPcapngWriter *w, gsize len)
{
  static const guint8 zeros[4] = { 0 };

  if (len % 4 != 0)
    g_byte_array_append (w->buf, zeros, 4 - len % 4);
}

static void
put_option (CsPcapngWriter *w, guint16 code, const void *value, gsize len)
{
  put_u16 (w, code);
  put_u16 (w, (guint16) len);
  g_byte_array_append (w->buf, value, len);
  put_padding (w, len);
}

static gsize
option_size (gsize len)
{
  return 4 + ((len + 3) & ~(gsize) 3);
}

/* Overwrites a 32-bit field written earlier at offset (block lengths). */
static void
patch_u32 (CsPcapngWriter *w, gsize offset, guint32 v)
{
  for (int i = 0; i < 4; i++)
    {
      int shift = w->big_endian ? 24 - 8 * i : 8 * i;
      w->buf->data[offset + i] = (v >> shift) & 0xff;
    }
}

static gboolean
flush_if_needed (CsPcapngWriter *w, gboolean force, GError **error)
{
  if (w->file == NULL || w->buf->len == 0)
    return TRUE;
  if (!force && w->buf->len < FLUSH_THRESHOLD)
    return TRUE;
  if (fwrite (w->buf->data, 1, w->buf->len, w->file) != w->buf->len)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "Cannot write %s: %s",
                   w->path, g_strerror (saved));
      return FALSE;
    }
  g_byte_array_set_size (w->buf, 0);
  return TRUE;
}

static void
write_section_header (CsPcapngWriter *w)
{
  static const char appl[] = "callscope";
  gsize start = w->buf->len;
  guint32 total = 28 + option_size (strlen (appl)) + 4;

  put_u32 (w, PCAPNG_BLOCK_SHB);
  put_u32 (w, total);
  put_u32 (w, PCAPNG_BYTE_ORDER_MAGIC);
  put_u16 (w, 1); /* major */
  put_u16 (w, 0); /* minor */
  /* section length unknown: -1 */
  put_u32 (w, 0xffffffffu);
  put_u32 (w, 0xffffffffu);
  put_option (w, SHB_USERAPPL, appl, strlen (appl));
  put_u32 (w, OPT_END);
  put_u32 (w, total);
  g_assert (w->buf->len - start == total);
}

static CsPcapngWriter *
writer_new (CsCaptureFileFormat format, gboolean nanosecond, gboolean big_endian)
{
  CsPcapngWriter *w = g_new0 (CsPcapngWriter, 1);

  w->format = format;
  w->nanosecond = nanosecond;
  w->big_endian = big_endian;
  w->buf = g_byte_array_new ();
  /* classic pcap: the file header waits for the link type (add_interface) */
  if (format == CS_CAPTURE_FILE_PCAPNG)
    write_section_header (w);
  return w;
}

CsPcapngWriter *
cs_pcapng_writer_new_memory (CsCaptureFileFormat format, gboolean nanosecond, gboolean big_endian)
{
  return writer_new (format, nanosecond, big_endian);
}

CsPcapngWriter *
cs_pcapng_writer_new_file (const char *path, CsCaptureFileFormat format, gboolean nanosecond,
                           gboolean big_endian, GError **error)
{
  FILE *file = fopen (path, "wb");
  CsPcapngWriter *w;

  if (file == NULL)
    {
      int saved = errno;
      g_set_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_OPEN, "Cannot create %s: %s", path,
                   g_strerror (saved));
      return NULL;
    }
  w = writer_new (format, nanosecond, big_endian);
  w->file = file;
  w->path = g_strdup (path);
  return w;
}

gint
cs_pcapng_writer_add_interface (CsPcapngWriter *w, guint16 link_type, const char *name,
                                GError **error)
{
  if (w->format == CS_CAPTURE_FILE_PCAP)
    {
      if (w->n_interfaces > 0)
        {
          g_set_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_FORMAT,
                       "A classic pcap file holds one link type only");
          return -1;
        }
      put_u32 (w, w->nanosecond ? PCAP_MAGIC_NSEC : PCAP_MAGIC_USEC);
      put_u16 (w, 2);
      put_u16 (w, 4);
      put_u32 (w, 0); /* thiszone */
      put_u32 (w, 0); /* sigfigs */
      put_u32 (w, SNAPLEN);
      put_u32 (w, link_type);
    }
  else
    {
      gsize start = w->buf->len;
      guint8 tsresol = w->nanosecond ? 9 : 6;

      put_u32 (w, PCAPNG_BLOCK_IDB);
      put_u32 (w, 0); /* patched below */
      put_u16 (w, link_type);
      put_u16 (w, 0); /* reserved */
      put_u32 (w, SNAPLEN);
      if (name != NULL)
        put_option (w, IF_NAME, name, strlen (name));
      put_option (w, IF_TSRESOL, &tsresol, 1);
      put_u32 (w, OPT_END);
      put_u32 (w, 0);
      patch_u32 (w, start + 4, w->buf->len - start);
      patch_u32 (w, w->buf->len - 4, w->buf->len - start);
    }
  if (!flush_if_needed (w, FALSE, error))
    return -1;
  return (gint) w->n_interfaces++;
}

gboolean
cs_pcapng_writer_write_packet (CsPcapngWriter *w, guint interface_id, gint64 time_ns,
                               const guint8 *data, gsize captured_length, gsize original_length,
                               const char *comment, GError **error)
{
  guint64 ticks;

  if (interface_id >= w->n_interfaces)
    {
      g_set_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_FORMAT, "Unknown interface %u",
                   interface_id);
      return FALSE;
    }
  if (captured_length > SNAPLEN)
    {
      g_set_error (error, CS_CAPTURE_ERROR, CS_CAPTURE_ERROR_FORMAT,
                   "Packet of %" G_GSIZE_FORMAT " bytes is over the snap length", captured_length);
      return FALSE;
    }
  if (original_length < captured_length)
    original_length = captured_length;
  if (time_ns < 0)
    time_ns = 0;
  ticks = w->nanosecond ? (guint64) time_ns : (guint64) time_ns / 1000;

  if (w->format == CS_CAPTURE_FILE_PCAP)
    {
      guint64 sec = (guint64) time_ns / G_GINT64_CONSTANT (1000000000);
      guint64 frac = (guint64) time_ns % G_GINT64_CONSTANT (1000000000);

      put_u32 (w, (guint32) sec);
      put_u32 (w, (guint32) (w->nanosecond ? frac : frac / 1000));
      put_u32 (w, (guint32) captured_length);
      put_u32 (w, (guint32) original_length);
      g_byte_array_append (w->buf, data, captured_length);
    }
  else
    {
      gsize start = w->buf->len;

      put_u32 (w, PCAPNG_BLOCK_EPB);
      put_u32 (w, 0); /* patched below */
      put_u32 (w, interface_id);
      put_u32 (w, (guint32) (ticks >> 32));
      put_u32 (w, (guint32) (ticks & 0xffffffffu));
      put_u32 (w, (guint32) captured_length);
      put_u32 (w, (guint32) original_length);
      g_byte_array_append (w->buf, data, captured_length);
      put_padding (w, captured_length);
      if (comment != NULL)
        {
          gsize len = MIN (strlen (comment), 65535);
          put_option (w, OPT_COMMENT, comment, len);
          put_u32 (w, OPT_END);
        }
      put_u32 (w, 0);
      patch_u32 (w, start + 4, w->buf->len - start);
      patch_u32 (w, w->buf->len - 4, w->buf->len - start);
    }
  w->n_packets++;
  return flush_if_needed (w, FALSE, error);
}

guint64
cs_pcapng_writer_get_packet_count (CsPcapngWriter *w)
{
  return w->n_packets;
}

gboolean
cs_pcapng_writer_close (CsPcapngWriter *w, GError **error)
{
  gboolean ok;

  if (w->file == NULL)
    return TRUE;
  ok = flush_if_needed (w, TRUE, error);
  if (fclose (w->file) != 0 && ok)
    {
      int saved = errno;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "Cannot write %s: %s",
                   w->path, g_strerror (saved));
      ok = FALSE;
    }
  w->file = NULL;
  return ok;
}

GBytes *
cs_pcapng_writer_steal_bytes (CsPcapngWriter *w)
{
  GBytes *bytes = g_bytes_new (w->buf->data, w->buf->len);

  g_byte_array_set_size (w->buf, 0);
  return bytes;
}

void
cs_pcapng_writer_free (CsPcapngWriter *w)
{
  if (w == NULL)
    return;
  if (w->file != NULL)
    fclose (w->file);
  g_byte_array_unref (w->buf);
  g_free (w->path);
  g_free (w);
}
