/* cs-ring-writer.h — a live capture saved as pcapng, optionally as a bounded ring of files */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _CsRingWriter CsRingWriter;

/* With file_bytes == 0 and max_files <= 1 everything goes to `path`. Otherwise the capture is
 * split into files of about file_bytes each (0: no size limit), named STEM_00001.pcapng,
 * STEM_00002.pcapng… (STEM = path without its .pcapng/.pcap extension), and only the newest
 * max_files are kept (0: all). Files are written with nanosecond timestamps. */
CsRingWriter *cs_ring_writer_new (const char *path, guint64 file_bytes, guint max_files,
                                  GError **error);
/* Appends one packet; opens the next file first when the current one is full. */
gboolean cs_ring_writer_write (CsRingWriter *ring, guint16 linktype, gint64 ts_ns,
                               const guint8 *data, gsize caplen, gsize origlen, GError **error);
/* Closes the current file; further writes fail. */
gboolean cs_ring_writer_close (CsRingWriter *ring, GError **error);
void cs_ring_writer_free (CsRingWriter *ring);

/* The files kept, oldest first (NULL-terminated, free with g_strfreev). */
char **cs_ring_writer_dup_paths (CsRingWriter *ring);
guint64 cs_ring_writer_get_packets (CsRingWriter *ring); /* written in total */
guint64 cs_ring_writer_get_bytes (CsRingWriter *ring);   /* file bytes written in total */
guint cs_ring_writer_get_files_dropped (CsRingWriter *ring);
/* Packets in the files that were dropped from the ring. */
guint64 cs_ring_writer_get_packets_dropped (CsRingWriter *ring);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsRingWriter, cs_ring_writer_free)

G_END_DECLS
