/* cs-hex-format.h — frame bytes as a hex dump, 16 per line */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "0010  45 00 01 2c 00 00 40 00  40 11 00 00 0a 00 00 0a  E..,..@.@......." per 16 bytes. */
char *cs_hex_format (const guint8 *data, gsize len);
/* Character offsets in a cs_hex_format line of the hex digits and the ASCII of byte i. */
void cs_hex_format_position (gsize byte, gsize *hex_offset, gsize *ascii_offset);

/* The byte (of len) whose hex digits or ASCII character sit at character offset in the text
 * cs_hex_format wrote, or -1 (the offset column, a space, past the end). */
gssize cs_hex_format_byte_at (gsize offset, gsize len);

G_END_DECLS
