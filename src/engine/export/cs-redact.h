/* cs-redact.h — scrubs phone numbers, user names, IP addresses, digest responses and
 * SDP keys out of captured frames, keeping every length (so Content-Length, IP and UDP
 * lengths stay right) and one consistent mapping per export.
 *
 * Two passes over the same frames: observe every frame first, so that no generated
 * replacement can equal an original seen anywhere; then rewrite them. */
#pragma once

#include <glib.h>

#include "base/cs-addr.h"

G_BEGIN_DECLS

typedef struct _CsRedactor CsRedactor;

CsRedactor *cs_redactor_new (void);
void cs_redactor_free (CsRedactor *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsRedactor, cs_redactor_free)

/* Pass 1: remembers the addresses and user names in a frame (nothing is changed). */
void cs_redactor_observe_frame (CsRedactor *r, guint linktype, const guint8 *data, gsize caplen);
/* Pass 2: rewrites a frame in place: IP header addresses, SIP/SDP text in UDP and TCP
 * payloads, RTCP SDES items; then the IPv4 header checksum and the UDP/TCP checksum
 * (recomputed when the segment is whole in the frame, else zeroed for UDP over IPv4).
 * FALSE when the frame could not be decoded down to IP (it is left as it was). */
gboolean cs_redactor_rewrite_frame (CsRedactor *r, guint linktype, guint8 *data, gsize caplen);

/* Rewrites SIP/SDP text in place, same length (used by rewrite_frame; exposed for tests). */
void cs_redactor_rewrite_text (CsRedactor *r, guint8 *text, gsize len);

/* The consistent replacements (pass 2). Loopback, unspecified, broadcast and multicast
 * addresses are kept: they name nobody. The replacement's text form has the same length
 * as the original's. */
void cs_redactor_map_addr (CsRedactor *r, const CsAddr *original, CsAddr *out);
/* A replacement of the same length: digits stay digits, letters letters (same case),
 * other characters kept; every letter and digit differs from the original's. */
const char *cs_redactor_map_user (CsRedactor *r, const char *original, gsize len);

/* How many distinct addresses and user names were replaced. */
guint cs_redactor_get_n_addresses (CsRedactor *r);
guint cs_redactor_get_n_users (CsRedactor *r);

G_END_DECLS
