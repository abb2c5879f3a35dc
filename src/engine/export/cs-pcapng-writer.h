/* cs-pcapng-writer.h — writes pcapng (SHB, IDB, EPB) or classic pcap files */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  CS_CAPTURE_FILE_PCAPNG,
  CS_CAPTURE_FILE_PCAP,
} CsCaptureFileFormat;

/* Link types used by the project (LINKTYPE_* values). */
#define CS_LINKTYPE_NULL 0
#define CS_LINKTYPE_ETHERNET 1
#define CS_LINKTYPE_RAW 101
#define CS_LINKTYPE_LINUX_SLL 113
#define CS_LINKTYPE_LINUX_SLL2 276

typedef struct _CsPcapngWriter CsPcapngWriter;

/* A writer that streams to path. nanosecond selects if_tsresol=9 (pcapng) or
 * the nanosecond magic (pcap); otherwise microseconds. big_endian chooses the
 * byte order of every header field. */
CsPcapngWriter *cs_pcapng_writer_new_file (const char *path, CsCaptureFileFormat format,
                                           gboolean nanosecond, gboolean big_endian,
                                           GError **error);
/* The same, kept in memory; take the bytes with cs_pcapng_writer_steal_bytes. */
CsPcapngWriter *cs_pcapng_writer_new_memory (CsCaptureFileFormat format, gboolean nanosecond,
                                             gboolean big_endian);

/* Returns the new interface id (0, 1, ...) or -1. A classic pcap file holds a
 * single link type, so a second interface is refused there. */
gint cs_pcapng_writer_add_interface (CsPcapngWriter *writer, guint16 link_type, const char *name,
                                     GError **error);

/* time_ns is nanoseconds since the Unix epoch; comment may be NULL (pcapng
 * only: an opt_comment on the EPB). original_length < captured_length is
 * raised to captured_length. */
gboolean cs_pcapng_writer_write_packet (CsPcapngWriter *writer, guint interface_id, gint64 time_ns,
                                        const guint8 *data, gsize captured_length,
                                        gsize original_length, const char *comment, GError **error);

guint64 cs_pcapng_writer_get_packet_count (CsPcapngWriter *writer);

/* Flushes and closes the file (file mode); no-op flush in memory mode. */
gboolean cs_pcapng_writer_close (CsPcapngWriter *writer, GError **error);
/* Memory mode: everything written so far; the writer keeps working. */
GBytes *cs_pcapng_writer_steal_bytes (CsPcapngWriter *writer);
void cs_pcapng_writer_free (CsPcapngWriter *writer);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsPcapngWriter, cs_pcapng_writer_free)

G_END_DECLS
