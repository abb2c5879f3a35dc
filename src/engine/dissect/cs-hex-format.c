/* cs-hex-format.c — frame bytes as a hex dump, 16 per line: the CLI's `frame` and the
 * window's bytes panes print the same lines */
#include "cs-hex-format.h"

#define BYTES_PER_LINE 16
/* "0000  " + 16 × "xx " + one extra space in the middle + " " + 16 ASCII + "\n" */
#define OFFSET_WIDTH 6
#define HEX_WIDTH (BYTES_PER_LINE * 3 + 1)
#define LINE_WIDTH (OFFSET_WIDTH + HEX_WIDTH + 1 + BYTES_PER_LINE + 1)

void
cs_hex_format_position (gsize byte, gsize *hex_offset, gsize *ascii_offset)
{
  gsize line = byte / BYTES_PER_LINE, column = byte % BYTES_PER_LINE;

  *hex_offset = line * LINE_WIDTH + OFFSET_WIDTH + column * 3 + (column >= 8 ? 1 : 0);
  *ascii_offset = line * LINE_WIDTH + OFFSET_WIDTH + HEX_WIDTH + 1 + column;
}

char *
cs_hex_format (const guint8 *data, gsize len)
{
  GString *out = g_string_sized_new ((len / BYTES_PER_LINE + 1) * LINE_WIDTH);

  for (gsize line = 0; line * BYTES_PER_LINE < len; line++)
    {
      gsize start = line * BYTES_PER_LINE;

      g_string_append_printf (out, "%04" G_GSIZE_MODIFIER "x  ", start);
      for (gsize i = 0; i < BYTES_PER_LINE; i++)
        {
          if (i == 8)
            g_string_append_c (out, ' ');
          if (start + i < len)
            g_string_append_printf (out, "%02x ", data[start + i]);
          else
            g_string_append (out, "   ");
        }
      g_string_append_c (out, ' ');
      for (gsize i = 0; i < BYTES_PER_LINE; i++)
        {
          guint8 c = start + i < len ? data[start + i] : ' ';
          /* Only printable ASCII: the line keeps one character per byte. */
          g_string_append_c (out, c >= 0x20 && c < 0x7f ? (char) c : '.');
        }
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

gssize
cs_hex_format_byte_at (gsize offset, gsize len)
{
  gsize line = offset / LINE_WIDTH, column = offset % LINE_WIDTH;
  gssize in_line = -1;

  if (column >= OFFSET_WIDTH && column < OFFSET_WIDTH + HEX_WIDTH)
    {
      gsize hex = column - OFFSET_WIDTH;

      /* the second half starts one space later */
      if (hex >= 8 * 3)
        hex = hex == 8 * 3 ? G_MAXSIZE : hex - 1;
      if (hex != G_MAXSIZE && hex % 3 != 2)
        in_line = (gssize) (hex / 3);
    }
  else if (column > OFFSET_WIDTH + HEX_WIDTH && column <= OFFSET_WIDTH + HEX_WIDTH + BYTES_PER_LINE)
    in_line = (gssize) (column - OFFSET_WIDTH - HEX_WIDTH - 1);
  if (in_line < 0 || line * BYTES_PER_LINE + (gsize) in_line >= len)
    return -1;
  return (gssize) (line * BYTES_PER_LINE + (gsize) in_line);
}
