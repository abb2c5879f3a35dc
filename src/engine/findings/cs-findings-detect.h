/* cs-findings-detect.h — turning calls and streams into findings a person understands */
#pragma once

#include "calls/cs-call.h"
#include "capture/cs-capture-stats.h"
#include "cs-finding.h"
#include "calls/cs-stream.h"
#include "points/cs-point-clock.h"

G_BEGIN_DECLS

/* Thresholds (docs/findings.md explains each). */
typedef struct
{
  double slow_pdd_ms;        /* INVITE → first 18x (or 2xx) slower than this */
  double high_jitter_ms;     /* max RFC 3550 jitter above this */
  double delta_spike_ms;     /* an arrival gap longer than this */
  double short_call_s;       /* answered calls shorter than this */
  double late_media_ms;      /* first RTP later than this after the 2xx */
  double rtp_after_bye_ms;   /* RTP still flowing this long after BYE */
  guint one_way_min_packets; /* a direction with fewer packets counts as silent */
  double ptime_tolerance;    /* relative difference between SDP ptime and packetisation */
  guint max_frames;          /* frames listed per finding */
} CsFindingThresholds;

void cs_finding_thresholds_init (CsFindingThresholds *t);

/* Everything wrong with one call: signalling, and media through its streams
 * (CsStream* bound to it, any order). Appends CsFinding* to out. */
void cs_findings_detect_call (CsCall *call, GPtrArray *call_streams, const CsFindingThresholds *t,
                              GPtrArray *out);
/* Media problems of one stream, call or not. */
void cs_findings_detect_stream (CsStream *stream, const CsFindingThresholds *t, GPtrArray *out);
/* Capture-wide: damage, dropped state, malformed SIP outside any call. */
void cs_findings_detect_capture (const CsCaptureStats *stats, const GError *damage,
                                 GPtrArray *orphan_messages, GPtrArray *out);
/* All of the above on n_threads threads (0 = one per processor), sorted by
 * first frame (CsFinding*, transfer full). */
GPtrArray *cs_findings_detect_all (GPtrArray *calls, GPtrArray *streams,
                                   const CsCaptureStats *stats, const GError *damage,
                                   GPtrArray *orphan_messages, const CsFindingThresholds *t,
                                   guint n_threads);

/* One finding per TLS session (CsTlsSessionInfo) that was not opened, or not wholly: added
 * to findings, which stay sorted by first frame. */
void cs_findings_tls_sessions (const GArray *sessions, GPtrArray *findings);

/* One finding per SIP datagram that left a capture point and never reached the next point of
 * its hop (clock->losses, numbered): added to findings, which stay sorted by first frame. */
void cs_findings_point_losses (const CsPointClock *clock, CsCaptureSet *set, GPtrArray *calls,
                               GPtrArray *findings);

G_END_DECLS
