/* cs-sip-multipart.c — finding a body part in a multipart MIME body */
#include "cs-sip-multipart.h"

#include "cs-sip-headers.h"

#include <string.h>

#define MAX_MULTIPART_DEPTH 3

/* Content-Type of a part's headers (lowercased media type and the raw value), and where
 * the part's content starts. */
static void
read_part_headers (const char *part, gsize len, char **media_type, char **value,
                   gsize *content_start)
{
  gsize pos = 0;

  *media_type = NULL;
  *value = NULL;
  *content_start = len;
  while (pos < len)
    {
      const char *eol = memchr (part + pos, '\n', len - pos);
      gsize line_end = eol != NULL ? (gsize) (eol - part) : len;
      gsize next = eol != NULL ? line_end + 1 : len;
      gsize content_end = line_end;

      if (content_end > pos && part[content_end - 1] == '\r')
        content_end--;
      if (content_end == pos)
        {
          *content_start = next;
          return;
        }
      const char *colon = memchr (part + pos, ':', content_end - pos);
      if (colon != NULL && *value == NULL)
        {
          g_autofree char *name = g_strstrip (g_strndup (part + pos, (gsize) (colon - part) - pos));
          if (cs_sip_header_name_equal (name, "Content-Type"))
            {
              gsize vstart = (gsize) (colon - part) + 1;
              *value = g_strstrip (g_strndup (part + vstart, content_end - vstart));
              *media_type = cs_sip_content_type_dup_media_type (*value);
            }
        }
      pos = next;
    }
}

static gboolean
find_part (const char *body, gsize body_len, const char *boundary, const char *media_type,
           int depth, const char **part_out, gsize *part_len_out)
{
  g_autofree char *delim = NULL;
  gsize delim_len, pos;

  if (boundary == NULL || boundary[0] == '\0' || depth > MAX_MULTIPART_DEPTH)
    return FALSE;
  /* "\n--boundary": a delimiter always starts a line */
  delim = g_strconcat ("\n--", boundary, NULL);
  delim_len = strlen (delim);

  if (body_len >= delim_len - 1 && memcmp (body, delim + 1, delim_len - 1) == 0)
    pos = delim_len - 1;
  else
    {
      const char *first = memmem (body, body_len, delim, delim_len);
      if (first == NULL)
        return FALSE;
      pos = (gsize) (first - body) + delim_len;
    }

  for (;;)
    {
      /* pos is just after a delimiter */
      if (body_len - pos >= 2 && body[pos] == '-' && body[pos + 1] == '-')
        return FALSE;
      const char *eol = memchr (body + pos, '\n', body_len - pos);
      if (eol == NULL)
        return FALSE;
      gsize part_start = (gsize) (eol - body) + 1;
      const char *next = memmem (body + part_start, body_len - part_start, delim, delim_len);
      gsize part_end = next != NULL ? (gsize) (next - body) : body_len;
      if (next != NULL && part_end > part_start && body[part_end - 1] == '\r')
        part_end--;

      g_autofree char *type = NULL;
      g_autofree char *type_value = NULL;
      gsize content_start;
      const char *part = body + part_start;
      gsize part_len = part_end - part_start;

      read_part_headers (part, part_len, &type, &type_value, &content_start);
      if (type == NULL)
        type = g_strdup ("text/plain");
      if (g_str_equal (type, media_type))
        {
          *part_out = part + content_start;
          *part_len_out = part_len - content_start;
          return TRUE;
        }
      if (g_str_has_prefix (type, "multipart/"))
        {
          g_autofree char *inner = cs_sip_content_type_dup_param (type_value, "boundary");
          if (find_part (part + content_start, part_len - content_start, inner, media_type,
                         depth + 1, part_out, part_len_out))
            return TRUE;
        }
      if (next == NULL)
        return FALSE;
      pos = (gsize) (next - body) + delim_len;
    }
}

gboolean
cs_sip_multipart_find_part (const char *body, gsize body_len, const char *boundary,
                            const char *media_type, const char **part, gsize *part_len)
{
  if (body == NULL || media_type == NULL || part == NULL || part_len == NULL)
    return FALSE;
  return find_part (body, body_len, boundary, media_type, 0, part, part_len);
}
