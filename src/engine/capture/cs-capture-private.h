/* cs-capture-private.h — what the pcap and pcapng readers share with cs-capture.c */
#pragma once

#include "cs-capture.h"
#include "base/cs-cursor.h"
#include "base/cs-error.h"
#include "base/cs-mapped-bytes.h"

G_BEGIN_DECLS

typedef enum
{
  CS_CAPTURE_FORMAT_PCAP,
  CS_CAPTURE_FORMAT_PCAP_NS,
  CS_CAPTURE_FORMAT_PCAPNG,
} CsCaptureFormat;

/* Cap on stored packet comments so a hostile file cannot make us keep millions. */
#define CS_CAPTURE_MAX_FRAME_COMMENTS 100000

/* A pcapng interface (IDB): what its packets' link type and timestamps need. */
typedef struct
{
  guint16 linktype;
  guint32 snaplen;
  gboolean tsresol_binary; /* units are 2^-exp s, else 10^-exp s */
  guint8 tsresol_exp;
  gint64 tsoffset_s;
} CsPcapngInterface;

/* A pcapng section as the anchors index saw it: its byte order and interfaces (the
 * section's are interfaces[first_interface ..] up to the next section's first). */
typedef struct
{
  gboolean big_endian;
  guint32 first_interface;
} CsPcapngSection;

struct _CsCapture
{
  char *path;
  const guint8 *data;   /* MAP_PRIVATE, PROT_READ */
  CsMappedBytes *bytes; /* owns the mapping: parsed messages may hold it longer */
  guint64 size;
  CsCaptureFormat format;

  /* classic pcap header */
  gboolean big_endian;
  guint32 snaplen;
  guint16 linktype;

  char *comment;              /* first section's comment */
  GHashTable *frame_comments; /* frame offset (guint64 *) -> char * */

  /* pcapng, kept by the anchors index for walks from an anchor */
  GArray *sections;   /* CsPcapngSection, in file order */
  GArray *interfaces; /* CsPcapngInterface of every section */
  GRWLock walk_lock;  /* guards both: the index appends while decode workers read */

  gboolean keep_walked_pages; /* the index walk leaves its pages to the decoders */

  /* A file that is not pcap/pcapng itself: what it was ("gzip", "zstd", or the wiretap
   * format's name), its own size, and the damage found while converting it (reported by
   * the index after the frames before it). The mapping then holds the converted bytes. */
  char *source;
  guint64 source_size;
  char *source_damage;
};

/* Where a capture is opened from, with progress while it is decompressed or converted. */
typedef struct
{
  CsCaptureProgressFunc progress;
  gpointer user_data;
  GCancellable *cancellable;
} CsCaptureOpenRun;

/* An unlinked temporary file (in the temporary directory), or -1 with the error set. */
int cs_capture_temp_fd (CsCapture *capture, GError **error);
/* Maps the first size bytes of fd in place of the capture's mapping (fd stays open). */
gboolean cs_capture_map_fd (CsCapture *capture, int fd, guint64 size, GError **error);

/* The most bytes a compressed capture may grow to when decompressed. */
#define CS_CAPTURE_MAX_DECOMPRESSED (G_GUINT64_CONSTANT (64) << 30)

/* TRUE when the mapping starts like a gzip or zstd stream. */
gboolean cs_capture_is_compressed (CsCapture *capture);
/* Decompresses the mapped gzip/zstd stream into a temporary file and maps that instead. */
gboolean cs_capture_decompress (CsCapture *capture, const CsCaptureOpenRun *run, GError **error);
/* Reads the file with libwiretap and maps a pcapng copy of its packets (same order: the
 * frame numbers are Wireshark's). FALSE with CS_CAPTURE_ERROR_FORMAT when wiretap does not
 * know the format either, or when this build has no libwiretap. */
gboolean cs_capture_read_with_wiretap (CsCapture *capture, const CsCaptureOpenRun *run,
                                       GError **error);

/* Counts records, reports progress every ~64k and checks cancellation every 4k. */
typedef struct
{
  CsCapture *capture;
  GCancellable *cancellable;
  CsCaptureProgressFunc progress;
  gpointer user_data;
  guint64 records;
  guint64 released; /* bytes before this offset were dropped from memory (or kept) */
} CsIndexRun;

#define CS_INDEX_PROGRESS_EVERY_RECORDS 8192 /* also how often the loader plans chunks */
#define CS_INDEX_CANCEL_CHECK_EVERY_RECORDS 4096
#define CS_INDEX_RELEASE_EVERY_BYTES (2u * 1024 * 1024)

/* The rare part of cs_index_run_tick: cancellation, page release, progress. */
gboolean cs_index_run_tick_slow (CsIndexRun *run, guint64 bytes_done, GError **error);

/* Call once per record; FALSE (with the error set) when cancelled. Inline: it runs per
 * record and almost always has nothing to do. */
static inline gboolean
cs_index_run_tick (CsIndexRun *run, guint64 bytes_done, GError **error)
{
  run->records++;
  if (G_LIKELY (run->records % CS_INDEX_CANCEL_CHECK_EVERY_RECORDS != 0
                && bytes_done < run->released + CS_INDEX_RELEASE_EVERY_BYTES))
    return TRUE;
  return cs_index_run_tick_slow (run, bytes_done, error);
}

/* Sets a "PATH: MESSAGE at byte offset N (...)" style error. */
void cs_capture_set_error (CsCapture *capture, GError **error, CsCaptureError code,
                           const char *format, ...) G_GNUC_PRINTF (4, 5);

/* The truncation error of a header (what: "record", "block") that needs `needs` bytes at
 * offset, where the file has fewer left. */
void cs_capture_set_truncated (CsCapture *capture, GError **error, const char *what, guint64 offset,
                               guint needs);

/* Adds a packet comment for the frame starting at offset (capped). */
void cs_capture_add_frame_comment (CsCapture *capture, guint64 offset, const guint8 *text,
                                   gsize len);

gboolean cs_capture_pcap_read_header (CsCapture *capture, GError **error);
/* Appends CsFrames to frames or, when frames is NULL, fills the anchors index. */
gboolean cs_capture_pcap_index (CsCapture *capture, guint16 file_index, GArray *frames,
                                CsFrameAnchors *index, CsIndexRun *run, GError **error);

gboolean cs_capture_pcapng_read_header (CsCapture *capture, GError **error);
/* Appends CsFrames to frames or, when frames is NULL, fills the anchors index (and the
 * capture's sections and interfaces). */
gboolean cs_capture_pcapng_index (CsCapture *capture, guint16 file_index, GArray *frames,
                                  CsFrameAnchors *index, CsIndexRun *run, GError **error);

/* Counts a frame into the anchors index; position is where its record starts. */
static inline void
cs_frame_anchors_add (CsFrameAnchors *index, const CsFramePosition *position, gint64 ts_ns)
{
  if (index->n_frames % CS_FRAME_ANCHOR_EVERY == 0)
    g_array_append_val (index->anchors, *position);
  if (index->n_frames == 0 || ts_ns < index->first_ns)
    index->first_ns = ts_ns;
  if (index->n_frames == 0 || ts_ns > index->last_ns)
    index->last_ns = ts_ns;
  index->n_frames++;
}

G_END_DECLS
