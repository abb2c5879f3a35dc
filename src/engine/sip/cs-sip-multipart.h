/* cs-sip-multipart.h — finding a body part (the SDP) in a multipart MIME body */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Finds the first part whose media type is `media_type` (lowercase, e.g.
 * "application/sdp") in a multipart body with the given boundary, looking into nested
 * multipart parts too. On success points *part and *part_len into body (no copy). A part
 * without Content-Type is text/plain (RFC 2046); an unterminated last part runs to the
 * end of the body. */
gboolean cs_sip_multipart_find_part (const char *body, gsize body_len, const char *boundary,
                                     const char *media_type, const char **part, gsize *part_len);

G_END_DECLS
