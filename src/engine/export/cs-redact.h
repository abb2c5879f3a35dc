/* cs-redact.h — scrubs addresses, host names, phone numbers, user and display names, tags,
 * Call-ID hosts, digest parameters, SDP keys and HEP credentials out of captured frames,
 * with one consistent mapping per export.
 *
 * Two passes over the same frames: observe every frame first (so that no replacement can
 * equal an original seen anywhere, and TCP streams and IP datagrams can be rewritten whole),
 * seal (the address replacements are fixed), then rewrite them. Replacement addresses come
 * from the documentation ranges only (private → 192.0.2.0/24, public → 203.0.113.0/24 then
 * 198.51.100.0/24, one original /24 → one replacement /24; IPv6 → 2001:db8::/32 keeping
 * /48 and /64 relations); words keep their length and their letters and digits; where an
 * address's text changes length, Content-Length, IP, UDP and HEP lengths, TCP sequence
 * numbers and fragment offsets follow, and checksums are recomputed. */
#pragma once

#include <glib.h>

#include "base/cs-addr.h"

G_BEGIN_DECLS

typedef struct _CsRedactor CsRedactor;

CsRedactor *cs_redactor_new (void);
void cs_redactor_free (CsRedactor *r);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CsRedactor, cs_redactor_free)

/* Pass 1: remembers the addresses, names and words in a frame (nothing is changed). Frame
 * numbers identify the frames again in pass 2. */
void cs_redactor_observe_frame (CsRedactor *r, guint32 number, guint linktype, const guint8 *data,
                                gsize caplen);
/* Between the passes. FALSE (G_IO_ERROR_NO_SPACE) when the documentation ranges cannot hold
 * one replacement per IPv4 address (762 of them). */
gboolean cs_redactor_seal (CsRedactor *r, GError **error);
/* Pass 2: the frame rewritten (a new buffer, possibly of another length; *origlen is
 * updated by the same amount). A frame that does not decode down to IP is returned with
 * every letter and digit blanked. */
GByteArray *cs_redactor_rewrite_frame (CsRedactor *r, guint32 number, guint linktype,
                                       const guint8 *data, gsize caplen, gsize *origlen);

/* SIP text (one message or several in a row) rewritten, for tests and for text that is not
 * in a frame. Observing (before the seal), it learns and returns a copy. */
GByteArray *cs_redactor_rewrite_sip (CsRedactor *r, const char *text, gsize len);
/* Observes text as pass 1 would (tests). */
void cs_redactor_observe_sip (CsRedactor *r, const char *text, gsize len);

/* The consistent replacements (after the seal). Loopback, unspecified, broadcast and
 * multicast addresses are kept: they name nobody. */
void cs_redactor_map_addr (CsRedactor *r, const CsAddr *original, CsAddr *out);
/* A word of the same length: digits stay digits, letters letters (same case), bytes above
 * 0x7f become letters, punctuation is kept; every letter and digit differs from the
 * original's, and two originals never share a replacement. */
const char *cs_redactor_map_word (CsRedactor *r, const char *original, gsize len);

/* How many distinct addresses, words and host names were replaced, and how many frames
 * could only be blanked (a fragment whose datagram was not whole, …). */
guint cs_redactor_get_n_addresses (CsRedactor *r);
guint cs_redactor_get_n_words (CsRedactor *r);
guint cs_redactor_get_n_hosts (CsRedactor *r);
guint64 cs_redactor_get_n_blanked (CsRedactor *r);

G_END_DECLS
