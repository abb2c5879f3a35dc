/* cs-text-inert.c — one rule for every text output: nothing a capture says can move a
 * terminal's cursor, set its title, reorder what a reader sees, or break a document */
#include "cs-text-inert.h"

#include <string.h>

static gboolean
cs_is_invisible (gunichar c)
{
  return c == 0x061c || (c >= 0x200b && c <= 0x200f) || (c >= 0x2028 && c <= 0x202e)
         || (c >= 0x2060 && c <= 0x2069) || c == 0xfeff;
}

static gboolean
cs_needs_escape (const char *text)
{
  for (const guchar *p = (const guchar *) text; *p != '\0'; p++)
    if (*p < 0x20 || *p >= 0x7f)
      goto slow; /* most text is printable ASCII: one pass and no allocation */
  return FALSE;
slow:
  if (!g_utf8_validate (text, -1, NULL))
    return TRUE;
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || cs_is_invisible (c))
        return TRUE;
    }
  return FALSE;
}

char *
cs_text_inert_dup (const char *text)
{
  g_autofree char *valid = NULL;
  GString *out;

  if (text == NULL)
    return NULL;
  if (!cs_needs_escape (text))
    return g_strdup (text);
  valid = g_utf8_make_valid (text, -1);
  out = g_string_sized_new (strlen (valid) + 16);
  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c < 0x20 || (c >= 0x7f && c <= 0x9f))
        g_string_append_printf (out, "\\x%02X", c);
      else if (cs_is_invisible (c))
        g_string_append_printf (out, "\\u{%04X}", c);
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
    }
  return g_string_free (out, FALSE);
}

const char *
cs_text_inert (const char *text, char **owned)
{
  *owned = NULL;
  if (text == NULL || !cs_needs_escape (text))
    return text;
  *owned = cs_text_inert_dup (text);
  return *owned;
}
