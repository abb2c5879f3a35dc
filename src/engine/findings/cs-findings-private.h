/* cs-findings-private.h — shared pieces of the finding detectors */
#pragma once

#include "cs-findings-detect.h"

G_BEGIN_DECLS

/* Appends a finding; frames (may be NULL) are sorted and copied. */
void cs_findings_add (GPtrArray *out, CsFindingKind kind, CsSeverity severity, guint call,
                      guint stream, GArray *frames, const char *format, ...) G_GNUC_PRINTF (7, 8);
/* The same with the frames cs_frames_new (first, second) would hold, without the array. */
void cs_findings_add_two (GPtrArray *out, CsFindingKind kind, CsSeverity severity, guint call,
                          guint stream, guint32 first, guint32 second, const char *format, ...)
    G_GNUC_PRINTF (8, 9);
int cs_frames_compare (gconstpointer a, gconstpointer b);
/* For g_ptr_array_sort of CsFinding*: by first frame (none first). */
gint cs_findings_compare_first_frame (gconstpointer a, gconstpointer b);
/* A frame list of one or two frames (0 = none). */
GArray *cs_frames_new (guint32 first, guint32 second);
/* Media findings of one call: one-way audio, no media, late media, RTP after
 * BYE, SSRC change, codec/ptime/NAT mismatch with the SDP. */
void cs_findings_call_media (CsCall *call, GPtrArray *call_streams, const CsFindingThresholds *t,
                             GPtrArray *out);
/* SRTP findings of one stream (cs-findings-srtp.c): no key, failing authentication, keys
 * used past their lifetime. */
void cs_findings_stream_srtp (CsStream *stream, const CsFindingThresholds *t, GPtrArray *out);

G_END_DECLS
