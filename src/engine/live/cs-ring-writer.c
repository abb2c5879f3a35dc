/* cs-ring-writer.c — pcapng files that rotate by size and keep the newest N */
#include "cs-ring-writer.h"

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "export/cs-pcapng-writer.h"

#define CS_RING_MAX_LINKTYPES 8
#define CS_EPB_OVERHEAD 32u /* block header, interface, timestamps, lengths, trailer */
#define CS_FILE_OVERHEAD 128u

typedef struct
{
  char *path;
  guint64 packets;
} CsRingFile;

struct _CsRingWriter
{
  char *path;
  char *stem;
  gboolean single;
  guint64 file_bytes;
  guint max_files;
  guint next_index;

  CsPcapngWriter *writer; /* the current file, NULL before the first packet and after close */
  guint64 current_bytes;
  guint16 linktypes[CS_RING_MAX_LINKTYPES]; /* interface i of the current file has linktypes[i] */
  guint n_linktypes;
  gboolean closed;

  GQueue files; /* CsRingFile*, oldest first */
  guint64 packets, bytes, packets_dropped;
  guint files_dropped;
};

static void
cs_ring_file_free (CsRingFile *file)
{
  g_free (file->path);
  g_free (file);
}

static char *
cs_ring_stem (const char *path)
{
  if (g_str_has_suffix (path, ".pcapng"))
    return g_strndup (path, strlen (path) - strlen (".pcapng"));
  if (g_str_has_suffix (path, ".pcap"))
    return g_strndup (path, strlen (path) - strlen (".pcap"));
  return g_strdup (path);
}

static gboolean
cs_ring_open_next (CsRingWriter *ring, GError **error)
{
  CsRingFile *file = g_new0 (CsRingFile, 1);

  file->path = ring->single ? g_strdup (ring->path)
                            : g_strdup_printf ("%s_%05u.pcapng", ring->stem, ++ring->next_index);
  ring->writer = cs_pcapng_writer_new_file (file->path, CS_CAPTURE_FILE_PCAPNG, TRUE, FALSE, error);
  if (ring->writer == NULL)
    {
      cs_ring_file_free (file);
      return FALSE;
    }
  ring->n_linktypes = 0;
  ring->current_bytes = CS_FILE_OVERHEAD;
  g_queue_push_tail (&ring->files, file);
  /* The oldest files make room for the new one. */
  while (ring->max_files > 0 && g_queue_get_length (&ring->files) > ring->max_files)
    {
      CsRingFile *old = g_queue_pop_head (&ring->files);

      g_unlink (old->path);
      ring->files_dropped++;
      ring->packets_dropped += old->packets;
      cs_ring_file_free (old);
    }
  return TRUE;
}

CsRingWriter *
cs_ring_writer_new (const char *path, guint64 file_bytes, guint max_files, GError **error)
{
  CsRingWriter *ring = g_new0 (CsRingWriter, 1);

  ring->path = g_strdup (path);
  ring->stem = cs_ring_stem (path);
  ring->single = file_bytes == 0 && max_files <= 1;
  ring->file_bytes = file_bytes;
  ring->max_files = max_files;
  g_queue_init (&ring->files);
  /* Open the first file now so that an unwritable path is reported at start. */
  if (!cs_ring_open_next (ring, error))
    {
      cs_ring_writer_free (ring);
      return NULL;
    }
  return ring;
}

static gboolean
cs_ring_close_current (CsRingWriter *ring, GError **error)
{
  gboolean ok = TRUE;

  if (ring->writer != NULL)
    {
      ok = cs_pcapng_writer_close (ring->writer, error);
      g_clear_pointer (&ring->writer, cs_pcapng_writer_free);
    }
  return ok;
}

static gint
cs_ring_interface (CsRingWriter *ring, guint16 linktype, GError **error)
{
  gint id;

  for (guint i = 0; i < ring->n_linktypes; i++)
    if (ring->linktypes[i] == linktype)
      return (gint) i;
  if (ring->n_linktypes == CS_RING_MAX_LINKTYPES)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "Too many link types in one capture");
      return -1;
    }
  id = cs_pcapng_writer_add_interface (ring->writer, linktype, NULL, error);
  if (id >= 0)
    ring->linktypes[ring->n_linktypes++] = linktype;
  return id;
}

gboolean
cs_ring_writer_write (CsRingWriter *ring, guint16 linktype, gint64 ts_ns, const guint8 *data,
                      gsize caplen, gsize origlen, GError **error)
{
  guint64 size = CS_EPB_OVERHEAD + ((caplen + 3) & ~(gsize) 3);
  gint id;

  if (ring->closed)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CLOSED, "The capture file is closed");
      return FALSE;
    }
  if (!ring->single && ring->file_bytes > 0 && ring->current_bytes > CS_FILE_OVERHEAD
      && ring->current_bytes + size > ring->file_bytes)
    {
      if (!cs_ring_close_current (ring, error) || !cs_ring_open_next (ring, error))
        return FALSE;
    }
  id = cs_ring_interface (ring, linktype, error);
  if (id < 0)
    return FALSE;
  if (!cs_pcapng_writer_write_packet (ring->writer, (guint) id, ts_ns, data, caplen, origlen, NULL,
                                      error))
    return FALSE;
  ring->current_bytes += size;
  ring->bytes += size;
  ring->packets++;
  ((CsRingFile *) g_queue_peek_tail (&ring->files))->packets++;
  return TRUE;
}

gboolean
cs_ring_writer_close (CsRingWriter *ring, GError **error)
{
  if (ring->closed)
    return TRUE;
  ring->closed = TRUE;
  return cs_ring_close_current (ring, error);
}

void
cs_ring_writer_free (CsRingWriter *ring)
{
  if (ring == NULL)
    return;
  cs_ring_close_current (ring, NULL);
  g_queue_clear_full (&ring->files, (GDestroyNotify) cs_ring_file_free);
  g_free (ring->path);
  g_free (ring->stem);
  g_free (ring);
}

char **
cs_ring_writer_dup_paths (CsRingWriter *ring)
{
  GStrvBuilder *builder = g_strv_builder_new ();
  char **paths;

  for (GList *l = ring->files.head; l != NULL; l = l->next)
    g_strv_builder_add (builder, ((CsRingFile *) l->data)->path);
  paths = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return paths;
}

guint64
cs_ring_writer_get_packets (CsRingWriter *ring)
{
  return ring->packets;
}

guint64
cs_ring_writer_get_bytes (CsRingWriter *ring)
{
  return ring->bytes;
}

guint
cs_ring_writer_get_files_dropped (CsRingWriter *ring)
{
  return ring->files_dropped;
}

guint64
cs_ring_writer_get_packets_dropped (CsRingWriter *ring)
{
  return ring->packets_dropped;
}
