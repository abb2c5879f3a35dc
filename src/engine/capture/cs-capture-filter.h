/* cs-capture-filter.h — a BPF expression compiled for the link types of a capture */
#pragma once

#include "cs-capture.h"

G_BEGIN_DECLS

typedef struct _CsCaptureFilter CsCaptureFilter;

/* Compiles bpf once per link type with libpcap. With no link types the
 * expression is checked against Ethernet. A link type the expression cannot
 * apply to (e.g. "ether host" on raw IP) matches nothing; if it applies to
 * none, returns NULL with CS_CAPTURE_ERROR_FILTER and pcap's message. */
CsCaptureFilter *cs_capture_filter_new (const char *bpf, const guint16 *linktypes,
                                        guint n_linktypes, GError **error);
void cs_capture_filter_free (CsCaptureFilter *filter);

/* Whether the frame (its caplen bytes at data) matches. Read-only: safe to call
 * from several threads at once. */
gboolean cs_capture_filter_matches (const CsCaptureFilter *filter, const CsFrame *frame,
                                    const guint8 *data);

G_END_DECLS
