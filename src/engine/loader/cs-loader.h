/* cs-loader.h — reads captures with a parallel map/merge and builds a CsAnalysis */
#pragma once

#include <gio/gio.h>

#include "cs-analysis.h"
#include "net/cs-tls-keylog.h"

G_BEGIN_DECLS

#define CS_TYPE_LOADER (cs_loader_get_type ())
G_DECLARE_FINAL_TYPE (CsLoader, cs_loader, CS, LOADER, GObject)

CsLoader *cs_loader_new (void);
/* Worker threads for the decode phase; 0 = one per processor. */
void cs_loader_set_threads (CsLoader *self, guint n_threads);
guint cs_loader_get_threads (CsLoader *self);
/* Frames per decode chunk; 0 (the default) = a small first chunk, then 32768. The
 * result does not depend on it (tests split a file into many chunks to check that). */
void cs_loader_set_chunk_frames (CsLoader *self, guint chunk_frames);
/* Caps on state kept per load (see cs-limits.h); starts from the defaults
 * plus $CALLSCOPE_LIMITS. */
void cs_loader_set_limits (CsLoader *self, const CsLimits *limits);
const CsLimits *cs_loader_get_limits (CsLoader *self);
/* Whether the index walk leaves the pages it passed mapped for the decode that follows
 * (pipelined loads). Keeping them saves faulting them in twice (A: 7.1k -> 5.1k minor
 * faults, 9% less CPU) but holds the chunks in flight resident: only on a capture of
 * at most 256 MiB. On bigger ones it cost more than it saved, whatever the number of
 * workers (B at 2 threads: +10 MiB peak; S at 1 thread: system time 0.2 -> 0.6 s). */
gboolean cs_loader_keeps_walked_pages (guint64 capture_bytes);
/* And whether it keeps them from here on, having passed walked_bytes in walked_frames
 * (checked as chunks are planned): not while the frames average over 1 KiB (a chunk of
 * 32768 frames would hold over 32 MiB). */
gboolean cs_loader_keeps_walked_pages_for (guint64 walked_bytes, guint64 walked_frames);
/* Optional BPF expression applied to every frame (NULL for none). */
void cs_loader_set_filter (CsLoader *self, const char *bpf);

/* SRTP keys for streams no visible SDP keyed (CsSrtpUserKey, copied; NULL for none). */
void cs_loader_set_srtp_keys (CsLoader *self, const GArray *keys);
const GArray *cs_loader_get_srtp_keys (CsLoader *self);
/* TLS secrets (an NSS key log) for SIP over TLS; NULL for none. The loader keeps a reference. */
void cs_loader_set_keylog (CsLoader *self, CsTlsKeylog *keylog);
/* Several files are capture points of one network (not parts of one capture): their clocks
 * are aligned from the SIP messages they share and a message seen at several points is one
 * message with several sightings (cs-point-clock.h). */
void cs_loader_set_points (CsLoader *self, gboolean points);
CsTlsKeylog *cs_loader_get_keylog (CsLoader *self);
/* Progress properties, notified on the main context that started the load
 * (load_async) at most ~10 times a second:
 *   "fraction" (double 0..1), "packets" (guint64 frames read so far),
 *   "packets-per-second" (double), "message" (string: what is happening). */
double cs_loader_get_fraction (CsLoader *self);
guint64 cs_loader_get_packets (CsLoader *self);
double cs_loader_get_packets_per_second (CsLoader *self);
const char *cs_loader_get_message (CsLoader *self);

/* Blocking load for the CLI and tests. Returns NULL with an error when nothing
 * could be analysed (unreadable, not a capture, cancelled). A damaged file
 * (truncated, corrupt records) still returns an analysis covering everything
 * before the damage; cs_analysis_get_damage() then describes it. */
CsAnalysis *cs_loader_load (CsLoader *self, const char *const *paths, GCancellable *cancellable,
                            GError **error);

/* Background load. The analysis is available from the start through
 * cs_loader_get_analysis() / the "analysis" property; load_finish publishes it at once, or
 * hands it to the publisher attached (cs-publisher.h), which also shows copies of the calls
 * while loading. */
void cs_loader_load_async (CsLoader *self, const char *const *paths, GCancellable *cancellable,
                           GAsyncReadyCallback callback, gpointer user_data);
CsAnalysis *cs_loader_load_finish (CsLoader *self, GAsyncResult *result, GError **error);
CsAnalysis *cs_loader_get_analysis (CsLoader *self);

G_END_DECLS
