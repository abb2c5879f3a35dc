/* cs-sip-message-private.h — start-line checks shared by detection and parsing */
#pragma once

#include "cs-sip-message.h"

G_BEGIN_DECLS

#define SIP_VERSION "SIP/2.0"
#define SIP_VERSION_LEN 7

gboolean cs_sip_is_token_char (guint8 c);
gboolean cs_sip_is_version (const guint8 *p);
/* "SIP/2.0 NNN …" or "TOKEN SP URI SP SIP/2.0" exactly */
gboolean cs_sip_is_strict_start_line (const guint8 *line, gsize n);
/* Length of the first line without its line end; *has_eol tells whether one was found. */
gsize cs_sip_first_line_length (const guint8 *data, gsize len, gboolean *has_eol);
/* Looser than cs_sip_looks_like: what deserves a message with ->malformed rather than
 * NULL (a bad status code, odd spacing, a start line cut by the end of data). */
gboolean cs_sip_starts_like_sip (const guint8 *line, gsize n);

G_END_DECLS
