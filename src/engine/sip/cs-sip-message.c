/* cs-sip-message.c — one parsed SIP message (RFC 3261), parsed leniently */
#include "cs-sip-message.h"

#include "base/cs-cursor.h"
#include "base/cs-error.h"
#include "cs-sdp.h"
#include "cs-sip-header-read.h"
#include "cs-sip-headers.h"
#include "cs-sip-message-private.h"
#include "cs-sip-multipart.h"
#include "base/cs-slab.h"

#include <string.h>

/* A message is one allocation: the CsSipMessage, then its strings, then its body.
 * Parsing writes the strings into a per-thread scratch buffer and copies it once at the
 * end. The headers are kept packed ("name NUL value NUL", a common name as the byte 0x01
 * and its index) and the decoded fields point into them where they can (Call-ID, From,
 * a tag written last…); the GPtrArray view of the headers is only built on request
 * (cs-sip-message-access.c). The header lines are read by cs-sip-header-read.c, the
 * decoded fields come from cs-sip-decode.c. */

static void
scratch_free (gpointer data)
{
  CsSipScratch *s = data;

  g_free (s->data);
  g_free (s);
}

static GPrivate scratch_key = G_PRIVATE_INIT (scratch_free);
/* the same pointer without g_private_get's call on every message; the GPrivate frees
 * the scratch when the thread ends */
static _Thread_local CsSipScratch *thread_scratch;

static CsSipScratch *
scratch_get (void)
{
  CsSipScratch *s = thread_scratch;

  if (G_UNLIKELY (s == NULL))
    {
      s = g_new0 (CsSipScratch, 1);
      s->size = 4096;
      s->data = g_malloc (s->size);
      g_private_set (&scratch_key, s);
      thread_scratch = s;
    }
  s->used = 0;
  return s;
}

#define NO_OFFSET G_MAXSIZE

/* Writes text as cs_sip_dup_text + g_strstrip would; returns its offset. */
static gsize
put_stripped (CsSipScratch *s, const char *text, gsize n)
{
  gsize at;

  if (G_LIKELY (cs_sip_text_is_plain (text, n)))
    {
      /* plain text is copied as is: strip the packet bytes, then copy */
      while (n > 0 && g_ascii_isspace (text[n - 1]))
        n--;
      while (n > 0 && g_ascii_isspace (*text))
        {
          text++;
          n--;
        }
      cs_sip_scratch_reserve (s, n + 1);
      return cs_sip_scratch_strndup (s, text, n) - s->data;
    }
  at = s->used;
  cs_sip_scratch_put_text (s, text, n);
  while (s->used > at && g_ascii_isspace (s->data[s->used - 1]))
    s->used--;
  s->data[s->used++] = '\0';
  while (g_ascii_isspace (s->data[at]))
    at++;
  return at;
}

static void
parse_start_line (CsSipParsed *msg, CsSipScratch *s, CsSipStartLine *out, const guint8 *line,
                  gsize n, gboolean strict)
{
  if (!strict)
    cs_sip_note_malformed (msg, "bad start line");

  if (n >= 8 && cs_sip_is_version (line) && line[7] == ' ')
    {
      gsize i = 8;
      guint code = 0, digits = 0;

      msg->is_request = FALSE;
      while (i < n && line[i] == ' ')
        i++;
      while (i < n && g_ascii_isdigit (line[i]) && digits < 4)
        {
          code = code * 10 + (guint) (line[i++] - '0');
          digits++;
        }
      if (digits == 3)
        msg->status_code = code;
      if (digits == 3 && (code < 100 || code > 699))
        cs_sip_note_malformed (msg, "bad status code");
      out->reason = put_stripped (s, (const char *) line + i, n - i);
      return;
    }

  /* METHOD SP Request-URI SP SIP/2.0, read leniently about spacing */
  gsize method_end = 0;
  msg->is_request = TRUE;
  while (method_end < n && cs_sip_is_token_char (line[method_end]))
    method_end++;
  msg->method = cs_sip_method_from_string ((const char *) line, method_end);
  if (msg->method != CS_SIP_METHOD_UNKNOWN)
    msg->method_name = (char *) cs_sip_method_to_string (msg->method); /* same spelling */
  else
    {
      cs_sip_scratch_reserve (s, method_end + 1);
      out->method_name = cs_sip_scratch_put (s, (const char *) line, method_end);
      s->data[s->used++] = '\0';
    }
  gsize uri_end = n >= SIP_VERSION_LEN ? n - SIP_VERSION_LEN : n;
  if (uri_end < method_end)
    uri_end = method_end;
  out->request_uri = put_stripped (s, (const char *) line + method_end, uri_end - method_end);
}

/* The body's bytes in the packet and its length. */
static const char *
read_body (CsSipParsed *msg, CsSipScratch *s, CsCursor *cur, gboolean headers_complete, gsize *len)
{
  gsize avail = headers_complete ? cs_cursor_remaining (cur) : 0;
  gsize body_len = avail;
  const guint8 *body = NULL;

  if (msg->content_length >= 0 && headers_complete)
    {
      if ((guint64) msg->content_length > avail)
        {
          if (msg->malformed == NULL)
            {
              char reason[96];
              g_snprintf (reason, sizeof reason,
                          "Content-Length %" G_GINT64_FORMAT " exceeds body (%" G_GSIZE_FORMAT
                          " bytes)",
                          msg->content_length, avail);
              msg->malformed = cs_sip_scratch_strndup (s, reason, strlen (reason));
            }
        }
      else
        body_len = (gsize) msg->content_length;
    }
  if (body_len == 0 || !cs_cursor_bytes (cur, body_len, &body))
    body_len = 0;
  *len = body_len;
  return (const char *) body;
}

/* Parses the SDP body (application/sdp, or the first such part of a multipart) into
 * the SDP scratch; returns the size it needs in the message's allocation, 0 for none. */
static gsize
parse_sdp_body (CsSipParsed *msg, const char *content_type_value, const char *body, gsize body_len,
                CsSdp *sdp)
{
  const char *sdp_text = NULL;
  gsize sdp_len = 0;

  if (msg->content_type == NULL || body_len == 0)
    return 0;
  if (strcmp (msg->content_type, "application/sdp") == 0)
    {
      sdp_text = body;
      sdp_len = body_len;
    }
  else if (g_str_has_prefix (msg->content_type, "multipart/"))
    {
      g_autofree char *boundary = cs_sip_content_type_dup_param (content_type_value, "boundary");
      if (boundary == NULL)
        {
          cs_sip_note_malformed (msg, "multipart body without boundary");
          return 0;
        }
      if (!cs_sip_multipart_find_part (body, body_len, boundary, "application/sdp", &sdp_text,
                                       &sdp_len))
        return 0;
    }
  else
    return 0;

  gsize size = cs_sdp_parse_pending (sdp_text, sdp_len, sdp);
  if (size == 0)
    cs_sip_note_malformed (msg, "SDP body without v= line");
  return size;
}

/* The message, its strings (the scratch, then any constant that is not a known method),
 * then its body, in one allocation; the strings keep their offsets from the struct. */
static CsSipMessage *
message_finish (CsSipParsed *parsed, CsSipScratch *s, gsize header_text, const char *body,
                gsize body_len, const CsSdp *sdp, gsize sdp_size)
{
  gsize extra = 0;

  char *const *fields = parsed->strings;
  for (guint i = 0; i < CS_SIP_N_FIELDS; i++)
    {
      /* one unsigned compare: NULL and pointers outside the scratch give >= used */
      const char *p = fields[i];
      if ((guintptr) p - (guintptr) s->data >= s->used && p != NULL
          && i != CS_SIP_FIELD_METHOD_NAME)
        extra += strlen (p) + 1; /* a literal reason */
    }
  /* strings beyond 15 bits of offset need the far table */
  gboolean has_far = sizeof (CsSipMessage) + s->used + extra >= CS_SIP_STRING_DONOR;
  gsize strings_at = sizeof (CsSipMessage) + (has_far ? CS_SIP_FAR_TABLE_SIZE : 0);
  gsize body_at = strings_at + s->used + extra;
  /* the SDP description, when there is one, comes last at an 8-byte boundary */
  gsize end = body_at + body_len + 1;
  gsize sdp_at = (end + 7) & ~(gsize) 7;
  CsSipMessage *msg = cs_slab_alloc (sdp_size > 0 ? sdp_at + sdp_size : end);
  char *to = (char *) msg + strings_at, *more = to + s->used;

  cs_sip_message_init_from (msg, parsed);
  memcpy (to, s->data, s->used);
  for (guint i = 0; i < CS_SIP_N_FIELDS; i++)
    {
      const char *p = fields[i];
      guintptr at = (guintptr) p - (guintptr) s->data;
      if (p == NULL)
        continue;
      if (at < s->used)
        cs_sip_message_set_own_string (msg, i, strings_at + at, has_far);
      else if (i == CS_SIP_FIELD_METHOD_NAME)
        msg->priv_strings[i] = CS_SIP_STRING_METHOD; /* cs_sip_method_to_string (method) */
      else
        {
          gsize n = strlen (p) + 1;
          memcpy (more, p, n);
          cs_sip_message_set_own_string (msg, i, (gsize) (more - (char *) msg), has_far);
          more += n;
        }
    }
  char *body_copy = (char *) msg + body_at;
  if (body_len > 0)
    memcpy (body_copy, body, body_len);
  body_copy[body_len] = '\0';
  msg->priv_body_at = (guint32) body_at;
  msg->priv_body_len = (guint32) body_len;
  msg->priv_header_offset = (guint32) (strings_at + header_text);
  msg->sdp = sdp_size > 0 ? cs_sdp_freeze_to (sdp, (char *) msg + sdp_at) : NULL;
  cs_sip_scratch_trim (s);
  return msg;
}

/* The start line and the headers by the general readers; FALSE when data is not SIP. */
static gboolean
read_head (CsSipParsed *msg, CsSipScratch *s, CsCursor *cur, CsSipStartLine *start,
           CsSipScannedHeader *headers, guint *n_headers, gsize *header_text, gboolean *complete)
{
  const guint8 *data = cs_cursor_here (cur), *eol = NULL;
  gsize len = cs_cursor_remaining (cur), line_len = 0;

  if (len > 0)
    {
      eol = memchr (data, '\n', len);
      line_len = eol != NULL ? (gsize) (eol - data) : len;
      if (line_len > 0 && data[line_len - 1] == '\r')
        line_len--;
    }
  /* a strict start line is also one that starts like SIP: one check for the usual case */
  gboolean strict = len > 0 && cs_sip_is_strict_start_line (data, line_len);
  if (len == 0 || (!strict && !cs_sip_starts_like_sip (data, line_len)))
    return FALSE;

  cs_sip_header_ids_init (); /* the header names' table the general reader looks up */
  parse_start_line (msg, s, start, data, line_len, strict);
  if (eol == NULL)
    cs_sip_note_malformed (msg, "missing end of headers");
  cs_cursor_skip (cur, eol != NULL ? (gsize) (eol - data) + 1 : len);
  *header_text = s->used;
  *complete = cs_sip_read_headers (msg, s, cur, headers, n_headers);
  return TRUE;
}

/* Parses data; with bytes (which hold data), the message is a lean one. */
static CsSipMessage *
message_parse (const guint8 *data, gsize len, CsMappedBytes *bytes, CsSipShare *share,
               guint64 offset, gboolean start_checked, GError **error)
{
  CsSipParsed parsed = { 0 }, *msg = &parsed;
  CsSipScannedHeader headers[CS_SIP_MAX_HEADERS];
  CsSipFirstHeaders first;
  gboolean clean = FALSE;
  CsSipStartLine start = { NO_OFFSET, NO_OFFSET, NO_OFFSET };
  CsCursor cur;
  guint n_headers;
  gsize header_text = 0, head_len;
  gboolean complete = TRUE, lean = bytes != NULL && len <= G_MAXUINT32;

  if (data == NULL)
    len = 0;
  CsSipScratch *s = scratch_get ();
  cs_cursor_init (&cur, data, len);
  /* a lean message keeps no header text: a clean head is read in place (the usual case) */
  if (lean
      && cs_sip_read_clean_head (msg, s, data, len, start_checked, &start, &first, &n_headers,
                                 &head_len))
    {
      clean = TRUE;
      cs_cursor_skip (&cur, head_len);
    }
  else if (!read_head (msg, s, &cur, &start, headers, &n_headers, &header_text, &complete))
    {
      g_set_error_literal (error, CS_SIP_ERROR, CS_SIP_ERROR_NOT_SIP, "not a SIP message");
      return NULL;
    }
  msg->content_length = -1;
  G_STATIC_ASSERT (CS_SIP_MAX_HEADERS <= G_MAXUINT16);
  msg->priv_n_headers = (guint16) n_headers;

  /* from here on the scratch holds still: decoding keeps pointers into it, and what it
   * adds (parts of values, unescaped, and one reason) is smaller than this */
  cs_sip_scratch_reserve (s, 2 * (s->used - header_text) + 256);
  if (start.method_name != NO_OFFSET)
    msg->method_name = s->data + start.method_name;
  if (start.request_uri != NO_OFFSET)
    msg->request_uri = s->data + start.request_uri;
  if (start.reason != NO_OFFSET)
    msg->reason = s->data + start.reason;

  const char *content_type = clean ? cs_sip_decode_first_headers (msg, s, &first)
                                   : cs_sip_decode_headers (msg, s, headers, n_headers);
  gsize body_len;
  const char *body = read_body (msg, s, &cur, complete, &body_len);
  CsSdp sdp;
  gsize sdp_size = parse_sdp_body (msg, content_type, body, body_len, &sdp);
  if (lean)
    {
      CsSipLeanText text = { bytes, share, offset, (guint32) len, body, body_len };
      return cs_sip_message_finish_lean (msg, s, &text, &sdp, sdp_size);
    }
  return message_finish (msg, s, header_text, body, body_len, &sdp, sdp_size);
}

CsSipMessage *
cs_sip_message_parse (const guint8 *data, gsize len, GError **error)
{
  return message_parse (data, MIN (len, CS_SIP_MAX_MESSAGE), NULL, NULL, 0, FALSE, error);
}

static CsSipMessage *
parse_mapped (CsMappedBytes *bytes, CsSipShare *share, const guint8 *data, gsize len,
              gboolean start_checked)
{
  guint64 offset;

  /* a start line found within the whole data is found within its first
   * CS_SIP_MAX_MESSAGE bytes or not at all (then the clean head gives up) */
  len = MIN (len, CS_SIP_MAX_MESSAGE);
  if (bytes == NULL || len == 0 || !cs_mapped_bytes_contains (bytes, data, len, &offset))
    return message_parse (data, len, NULL, NULL, 0, FALSE, NULL);
  return message_parse (data, len, bytes, share, offset, start_checked, NULL);
}

CsSipMessage *
cs_sip_message_parse_mapped (CsMappedBytes *bytes, CsSipShare *share, const guint8 *data, gsize len)
{
  return parse_mapped (bytes, share, data, len, FALSE);
}

CsSipMessage *
cs_sip_message_parse_mapped_sip (CsMappedBytes *bytes, CsSipShare *share, const guint8 *data,
                                 gsize len)
{
  return parse_mapped (bytes, share, data, len, TRUE);
}
