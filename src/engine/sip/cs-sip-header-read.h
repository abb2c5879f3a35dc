/* cs-sip-header-read.h — the header lines of a SIP message, read into the parse scratch */
#pragma once

#include "base/cs-cursor.h"
#include "cs-sip-message-private.h"

G_BEGIN_DECLS

/* Reads header lines from the cursor up to the empty line: each header goes to the
 * scratch packed ("name NUL value NUL", a common name as 0x01 and its index), and
 * headers[] (CS_SIP_MAX_HEADERS) records where its value is. Notes what is malformed on
 * msg. FALSE when the data ends before the empty line (the message is cut). */
gboolean cs_sip_read_headers (CsSipParsed *msg, CsSipScratch *s, CsCursor *cur,
                              CsSipScannedHeader *headers, guint *n_headers);
/* Offsets of the start line's strings in the scratch (G_MAXSIZE when absent). */
typedef struct
{
  gsize method_name, request_uri, reason;
} CsSipStartLine;

/* The first header of each decoded kind (CsSipHeaderId): its value's offset in the
 * scratch plus one, 0 when the message has none; all the decoding reads. */
typedef struct
{
  gsize at[CS_SIP_HID_SERVER + 1];
} CsSipFirstHeaders;

/* The head of a message (start line and headers) when it is clean: a strict start line
 * with a status code from 100 to 699, header lines "Name: value" of token names without
 * folding, at most CS_SIP_MAX_HEADERS of them, no NUL and no byte >= 0x80 before the
 * empty line that ends them. Then the scratch holds the head as it is, every string
 * NUL-terminated in place (cs-sip-clean-head.c), and msg, start, *n_headers and first
 * (the headers[] the general readers would give, reduced) are what they would give; *head_len is
 * the length up to the body. Only for a message that keeps no header text (a lean one). FALSE,
 * nothing changed but the scratch's free room, for any other head. start_checked: cs_sip_looks_like
 * (data, len) is known to hold, the start line need not be checked again. */
gboolean cs_sip_read_clean_head (CsSipParsed *msg, CsSipScratch *s, const guint8 *data, gsize len,
                                 gboolean start_checked, CsSipStartLine *start,
                                 CsSipFirstHeaders *first, guint *n_headers, gsize *head_len);

/* cs_sip_decode_headers from the first header of each kind. */
const char *cs_sip_decode_first_headers (CsSipParsed *msg, CsSipScratch *s,
                                         const CsSipFirstHeaders *first);

/* Appends n bytes of packet text as cs_sip_dup_text would (NUL bytes as spaces, invalid
 * UTF-8 replaced), without terminating it. */
void cs_sip_scratch_put_text (CsSipScratch *s, const char *text, gsize n);

G_END_DECLS
