/* cs-sip-message.c — one parsed SIP message (RFC 3261), parsed leniently */
#include "cs-sip-message.h"

#include "cs-cursor.h"
#include "cs-error.h"
#include "cs-sdp.h"
#include "cs-sip-headers.h"
#include "cs-sip-message-private.h"
#include "cs-sip-multipart.h"

#include <string.h>

/* A message is one allocation: the CsSipMessage, then its strings, then its body.
 * Parsing writes the strings into a per-thread scratch buffer and copies it once at the
 * end. The headers are kept packed ("name NUL value NUL", a common name as the byte 0x01
 * and its index) and the decoded fields point into them where they can (Call-ID, From,
 * a tag written last…); the GPtrArray view of the headers is only built on request. */
typedef struct
{
  char *data;
  gsize size;
  gsize used;
} Scratch;

/* a thread keeps at most this much scratch between messages */
#define SCRATCH_KEEP (256 * 1024)

static void
scratch_free (gpointer data)
{
  Scratch *s = data;

  g_free (s->data);
  g_free (s);
}

static GPrivate scratch_key = G_PRIVATE_INIT (scratch_free);

static Scratch *
scratch_get (void)
{
  Scratch *s = g_private_get (&scratch_key);

  if (s == NULL)
    {
      s = g_new0 (Scratch, 1);
      s->size = 4096;
      s->data = g_malloc (s->size);
      g_private_set (&scratch_key, s);
    }
  s->used = 0;
  return s;
}

/* Only while no pointer into the scratch is held (offsets are fine). */
static void
scratch_reserve (Scratch *s, gsize n)
{
  if (s->size - s->used >= n)
    return;
  while (s->size - s->used < n)
    s->size *= 2;
  s->data = g_realloc (s->data, s->size);
}

/* Appends n bytes; the room must have been reserved. Returns the offset. */
static gsize
scratch_put (Scratch *s, const char *text, gsize n)
{
  gsize at = s->used;

  g_assert (s->size - s->used >= n);
  memcpy (s->data + at, text, n);
  s->used += n;
  return at;
}

/* A NUL-terminated copy in reserved room. */
static char *
scratch_strndup (Scratch *s, const char *text, gsize n)
{
  gsize at = scratch_put (s, text, n);

  s->data[s->used++] = '\0';
  return s->data + at;
}

#define NO_OFFSET G_MAXSIZE

/* Appends n bytes of packet text as cs_sip_dup_text would (NUL bytes as spaces, invalid
 * UTF-8 replaced), without terminating it; `plain` when they hold neither. */
static void
scratch_put_text (Scratch *s, const char *text, gsize n, gboolean plain)
{
  if (plain)
    {
      scratch_reserve (s, n + 1);
      scratch_put (s, text, n);
      return;
    }
  g_autofree char *valid = cs_sip_dup_text (text, n);
  gsize m = strlen (valid);
  scratch_reserve (s, m + 1);
  scratch_put (s, valid, m);
}

/* TRUE when the n bytes hold no NUL and no byte >= 0x80: eight at a time. */
static gboolean
text_is_plain (const char *p, gsize n)
{
  guint64 high = 0, zero = 0;
  gsize i = 0;

  for (; i + 8 <= n; i += 8)
    {
      guint64 w;
      memcpy (&w, p + i, 8);
      high |= w;
      zero |= (w - G_GUINT64_CONSTANT (0x0101010101010101)) & ~w;
    }
  if (i < n && n >= 8)
    {
      /* the last 8 bytes, overlapping what was read */
      guint64 w;
      memcpy (&w, p + n - 8, 8);
      high |= w;
      zero |= (w - G_GUINT64_CONSTANT (0x0101010101010101)) & ~w;
    }
  else
    for (; i < n; i++)
      {
        guint8 c = (guint8) p[i];
        high |= c;
        zero |= c == 0 ? 0x80 : 0;
      }
  return ((high | zero) & G_GUINT64_CONSTANT (0x8080808080808080)) == 0;
}

static gboolean
text_has_nul (const char *p, gsize n)
{
  return memchr (p, '\0', n) != NULL;
}

/* The headers the parser decodes, found by name (long or compact, any case). */
typedef enum
{
  HID_OTHER,
  HID_CALL_ID,
  HID_FROM,
  HID_TO,
  HID_CSEQ,
  HID_VIA,
  HID_CONTACT,
  HID_CONTENT_LENGTH,
  HID_CONTENT_TYPE,
  HID_USER_AGENT,
  HID_SERVER,
} HeaderId;

static HeaderId
header_id_slow (const char *name, gsize len)
{
  static const char *const names[]
      = { NULL,      "Call-ID",        "From",         "To",         "CSeq",  "Via",
          "Contact", "Content-Length", "Content-Type", "User-Agent", "Server" };
  char buf[16];

  if (len == 0 || len >= sizeof buf)
    return HID_OTHER;
  memcpy (buf, name, len);
  buf[len] = '\0';
  const char *long_name = cs_sip_header_long_name (buf);
  for (gsize i = 1; i < G_N_ELEMENTS (names); i++)
    if (g_ascii_strcasecmp (long_name, names[i]) == 0)
      return (HeaderId) i;
  return HID_OTHER;
}

#define KNOWN_SLOTS 128
static guint8 known_ids[KNOWN_SLOTS];

static void
known_ids_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      cs_sip_header_names_init ();
      for (int i = 0; i < KNOWN_SLOTS; i++)
        {
          const char *name = cs_sip_header_known_by_index (i);
          known_ids[i] = name != NULL ? (guint8) header_id_slow (name, strlen (name)) : HID_OTHER;
        }
      g_once_init_leave (&done, 1);
    }
}

/* What the header scan records per kept header. */
typedef struct
{
  gsize value; /* offset of the NUL-terminated value in the scratch */
  guint32 len; /* value length */
  guint8 id;   /* HeaderId */
} ScannedHeader;

typedef enum
{
  HEADER_NONE,    /* no header open: continuation lines are errors */
  HEADER_OPEN,    /* value collects continuation lines */
  HEADER_DROPPED, /* over CS_SIP_MAX_HEADERS: continuation lines are skipped */
} HeaderState;

typedef struct
{
  CsSipMessage *msg;
  Scratch *s;
  ScannedHeader *headers; /* CS_SIP_MAX_HEADERS */
  guint n_headers;
  HeaderState state;
  /* the open header: name and value point into the packet until a continuation line
   * makes the value a copy in `folded` */
  const char *name;
  gsize name_len;
  const char *value;
  gsize value_len;
  gboolean value_plain;
  int known;       /* cs_sip_header_known_index of the name */
  GString *folded; /* the value once folded (value == NULL) */
} HeaderReader;

/* Literal reasons are kept as they are; they outlive every message. */
static void
note_malformed (CsSipMessage *msg, const char *reason)
{
  if (msg->malformed == NULL)
    msg->malformed = (char *) reason;
}

static void
append_value (HeaderReader *r, const char *text, gsize n)
{
  gsize room = CS_SIP_MAX_HEADER_VALUE - r->folded->len;

  if (n > room)
    {
      note_malformed (r->msg, "header value too long");
      n = room;
    }
  g_string_append_len (r->folded, text, (gssize) n);
}

static void
close_header (HeaderReader *r)
{
  if (r->state == HEADER_OPEN)
    {
      Scratch *s = r->s;
      int known = r->known;
      ScannedHeader *h = &r->headers[r->n_headers++];

      scratch_reserve (s, r->name_len + 3);
      if (known >= 0)
        {
          s->data[s->used++] = '\x01';
          s->data[s->used++] = (char) (known + 1);
          h->id = known < KNOWN_SLOTS ? known_ids[known] : HID_OTHER;
        }
      else
        {
          scratch_put (s, r->name, r->name_len);
          s->data[s->used++] = '\0';
          h->id = (guint8) header_id_slow (r->name, r->name_len);
        }
      h->value = s->used;
      if (r->value != NULL)
        scratch_put_text (s, r->value, r->value_len, r->value_plain);
      else
        scratch_put_text (s, r->folded->str, r->folded->len,
                          text_is_plain (r->folded->str, r->folded->len));
      /* trailing white space is dropped, as g_strchomp would */
      while (s->used > h->value && g_ascii_isspace (s->data[s->used - 1]))
        s->used--;
      h->len = (guint32) (s->used - h->value);
      s->data[s->used++] = '\0';
    }
  r->state = HEADER_NONE;
}

static const char *
trim_start (const char *p, const char *end)
{
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  return p;
}

static void
fold_line (HeaderReader *r, const char *line, const char *end)
{
  /* folding: the continuation joins the value with one space */
  const char *text = trim_start (line, end);

  if (r->state == HEADER_OPEN)
    {
      if (r->folded == NULL)
        r->folded = g_string_new (NULL);
      if (r->value != NULL)
        {
          g_string_assign (r->folded, "");
          g_string_append_len (r->folded, r->value, (gssize) r->value_len);
          r->value = NULL;
        }
      while (r->folded->len > 0 && g_ascii_isspace (r->folded->str[r->folded->len - 1]))
        g_string_truncate (r->folded, r->folded->len - 1);
      if (text < end)
        {
          if (r->folded->len > 0)
            append_value (r, " ", 1);
          append_value (r, text, (gsize) (end - text));
        }
    }
  else if (r->state == HEADER_NONE)
    note_malformed (r->msg, "bad header line");
}

/* One header line without its line ending. */
static void
read_header_line (HeaderReader *r, const char *line, gsize n)
{
  const char *end = line + n;
  gboolean plain = text_is_plain (line, n);

  if (!plain && text_has_nul (line, n))
    note_malformed (r->msg, "NUL byte in headers");

  if (line[0] == ' ' || line[0] == '\t')
    {
      fold_line (r, line, end);
      return;
    }

  close_header (r);
  /* name: the text before the first ':' without trailing white space, all tokens */
  const char *colon = memchr (line, ':', n);
  const char *name_end = colon;
  while (name_end != NULL && name_end > line && (name_end[-1] == ' ' || name_end[-1] == '\t'))
    name_end--;
  int known = name_end != NULL ? cs_sip_header_known_index (line, (gsize) (name_end - line)) : -1;
  gboolean name_ok = known >= 0 || (colon != NULL && name_end > line);
  for (const char *q = line; known < 0 && name_ok && q < name_end; q++)
    name_ok = cs_sip_is_token_char ((guint8) *q);
  if (!name_ok)
    {
      note_malformed (r->msg, "bad header line");
      return;
    }
  if (r->n_headers >= CS_SIP_MAX_HEADERS)
    {
      note_malformed (r->msg, "too many headers");
      r->state = HEADER_DROPPED;
      return;
    }
  r->name = line;
  r->name_len = (gsize) (name_end - line);
  r->known = known;
  const char *value = trim_start (colon + 1, end);
  r->value = value;
  r->value_len = (gsize) (end - value);
  r->value_plain = plain;
  if (r->value_len > CS_SIP_MAX_HEADER_VALUE)
    {
      note_malformed (r->msg, "header value too long");
      r->value_len = CS_SIP_MAX_HEADER_VALUE;
    }
  r->state = HEADER_OPEN;
}

/* Reads header lines from the cursor up to the empty line. FALSE when the data ends
 * before it (the message is cut). */
static gboolean
read_headers (HeaderReader *r, CsCursor *cur)
{
  gboolean complete = FALSE;

  while (cs_cursor_remaining (cur) > 0)
    {
      const char *line = (const char *) cs_cursor_here (cur);
      gsize avail = cs_cursor_remaining (cur);
      const char *eol = memchr (line, '\n', avail);
      gsize n = eol != NULL ? (gsize) (eol - line) : avail;

      cs_cursor_skip (cur, eol != NULL ? n + 1 : n);
      if (n > 0 && line[n - 1] == '\r')
        n--;
      if (eol == NULL)
        {
          note_malformed (r->msg, "missing end of headers");
          /* a cut line is kept only if it still has its name */
          if (memchr (line, ':', n) != NULL || line[0] == ' ' || line[0] == '\t')
            read_header_line (r, line, n);
          break;
        }
      if (n == 0)
        {
          complete = TRUE;
          break;
        }
      read_header_line (r, line, n);
    }
  if (!complete && cs_cursor_remaining (cur) == 0)
    note_malformed (r->msg, "missing end of headers");
  close_header (r);
  if (r->folded != NULL)
    g_string_free (r->folded, TRUE);
  return complete;
}

/* Offsets of the start line's strings in the scratch (NO_OFFSET when absent). */
typedef struct
{
  gsize method_name, request_uri, reason;
} StartLine;

/* Writes text as cs_sip_dup_text + g_strstrip would; returns its offset. */
static gsize
put_stripped (Scratch *s, const char *text, gsize n)
{
  gsize at = s->used;

  scratch_put_text (s, text, n, text_is_plain (text, n));
  while (s->used > at && g_ascii_isspace (s->data[s->used - 1]))
    s->used--;
  s->data[s->used++] = '\0';
  while (g_ascii_isspace (s->data[at]))
    at++;
  return at;
}

static void
parse_start_line (CsSipMessage *msg, Scratch *s, StartLine *out, const guint8 *line, gsize n)
{
  if (!cs_sip_is_strict_start_line (line, n))
    note_malformed (msg, "bad start line");

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
        note_malformed (msg, "bad status code");
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
      scratch_reserve (s, method_end + 1);
      out->method_name = scratch_put (s, (const char *) line, method_end);
      s->data[s->used++] = '\0';
    }
  gsize uri_end = n >= SIP_VERSION_LEN ? n - SIP_VERSION_LEN : n;
  if (uri_end < method_end)
    uri_end = method_end;
  out->request_uri = put_stripped (s, (const char *) line + method_end, uri_end - method_end);
}

static gboolean
parse_cseq (CsSipMessage *msg, char *value)
{
  const char *p = value;
  guint64 number = 0;

  if (!g_ascii_isdigit (*p))
    return FALSE;
  for (; g_ascii_isdigit (*p); p++)
    {
      number = number * 10 + (guint64) (*p - '0');
      if (number > G_MAXUINT32)
        return FALSE;
    }
  if (*p != ' ' && *p != '\t')
    return FALSE;
  while (*p == ' ' || *p == '\t')
    p++;
  const char *method = p;
  while (cs_sip_is_token_char ((guint8) *p))
    p++;
  if (p == method || *p != '\0')
    return FALSE;
  msg->cseq = (guint32) number;
  msg->cseq_method_name = (char *) method; /* the end of the CSeq value */
  msg->cseq_method = cs_sip_method_from_string (method, (gsize) (p - method));
  return TRUE;
}

static gboolean
parse_content_length (const char *value, gint64 *out)
{
  gint64 v = 0;

  if (!g_ascii_isdigit (*value))
    return FALSE;
  for (; g_ascii_isdigit (*value); value++)
    {
      if (v > (G_MAXINT64 - 9) / 10)
        return FALSE;
      v = v * 10 + (*value - '0');
    }
  if (*value != '\0')
    return FALSE;
  *out = v;
  return TRUE;
}

/* A span of a header value as a string: the value's own end when the span ends it (a
 * tag or branch written last), else a copy in the scratch. */
static char *
span_string (Scratch *s, const CsSipSpan *span, gboolean may_share)
{
  if (span->escaped)
    {
      char *out = s->data + s->used;
      s->used += cs_sip_unescape_quoted (span, out);
      s->data[s->used++] = '\0';
      return out;
    }
  if (may_share && span->start[span->len] == '\0')
    return (char *) span->start;
  return scratch_strndup (s, span->start, span->len);
}

/* From / To: whole value, display name, user part, tag. */
static gboolean
parse_address (Scratch *s, char *value, char **whole, char **display, char **user, char **tag)
{
  CsSipAddrSpans a;
  CsSipSpan user_span;

  *whole = value;
  if (!cs_sip_addr_scan (value, &a))
    return FALSE;
  if (a.has_display)
    *display = span_string (s, &a.display, FALSE);
  if (a.has_tag)
    *tag = span_string (s, &a.tag, TRUE);
  if (cs_sip_uri_user_span (a.uri.start, a.uri.len, &user_span))
    *user = span_string (s, &user_span, FALSE);
  return TRUE;
}

static char *
via_branch (Scratch *s, const char *via)
{
  const char *p = via;
  CsSipSpan span;

  p += strcspn (p, ";,");
  if (*p != ';' || !cs_sip_params_find (p, "branch", 6, &span))
    return NULL;
  return span_string (s, &span, TRUE);
}

/* cs_sip_content_type_dup_media_type: the value itself when it is already a bare
 * lowercase media type. */
static char *
content_media_type (Scratch *s, char *value)
{
  const char *end = strchr (value, ';');
  gboolean bare = end == NULL;
  const char *start = value;

  if (end == NULL)
    end = value + strlen (value);
  while (start < end && g_ascii_isspace (*start))
    start++;
  while (end > start && g_ascii_isspace (end[-1]))
    end--;
  if (start == end)
    return NULL;
  for (const char *q = start; bare && q < end; q++)
    bare = !g_ascii_isspace (*q) && !g_ascii_isupper (*q);
  if (bare && *end == '\0')
    return (char *) start;
  char *out = s->data + s->used;
  for (const char *q = start; q < end; q++)
    if (!g_ascii_isspace (*q))
      s->data[s->used++] = g_ascii_tolower (*q);
  s->data[s->used++] = '\0';
  return out;
}

/* Fills the decoded fields from the first header of each kind; returns the raw
 * Content-Type value. */
static const char *
decode_headers (CsSipMessage *msg, Scratch *s, const ScannedHeader *headers, guint n)
{
  const char *content_type = NULL, *via = NULL, *server = NULL;
  gboolean have_cseq = FALSE, have_from = FALSE, have_to = FALSE, have_length = FALSE;

  for (guint i = 0; i < n; i++)
    {
      char *value = s->data + headers[i].value;

      switch ((HeaderId) headers[i].id)
        {
        case HID_CALL_ID:
          if (msg->call_id == NULL)
            msg->call_id = value;
          break;
        case HID_FROM:
          if (!have_from)
            {
              have_from = TRUE;
              if (!parse_address (s, value, &msg->from, &msg->from_display, &msg->from_user,
                                  &msg->from_tag))
                note_malformed (msg, "bad From");
            }
          break;
        case HID_TO:
          if (!have_to)
            {
              have_to = TRUE;
              if (!parse_address (s, value, &msg->to, &msg->to_display, &msg->to_user,
                                  &msg->to_tag))
                note_malformed (msg, "bad To");
            }
          break;
        case HID_CSEQ:
          if (!have_cseq)
            {
              have_cseq = TRUE;
              if (!parse_cseq (msg, value))
                note_malformed (msg, "bad CSeq");
            }
          break;
        case HID_VIA:
          if (via == NULL)
            via = value;
          break;
        case HID_CONTACT:
          if (msg->contact == NULL)
            msg->contact = value;
          break;
        case HID_CONTENT_LENGTH:
          if (!have_length)
            {
              have_length = TRUE;
              if (!parse_content_length (value, &msg->content_length))
                note_malformed (msg, "bad Content-Length");
            }
          break;
        case HID_CONTENT_TYPE:
          if (content_type == NULL)
            content_type = value;
          break;
        case HID_USER_AGENT:
          if (msg->user_agent == NULL)
            msg->user_agent = value;
          break;
        case HID_SERVER:
          if (server == NULL)
            server = value;
          break;
        case HID_OTHER:
        default:
          break;
        }
    }

  if (msg->user_agent == NULL && server != NULL)
    msg->user_agent = (char *) server;
  if (via != NULL)
    msg->via_branch = via_branch (s, via);
  if (content_type != NULL)
    msg->content_type = content_media_type (s, (char *) content_type);

  if (msg->call_id == NULL || msg->call_id[0] == '\0')
    note_malformed (msg, "missing Call-ID");
  if (!have_cseq)
    note_malformed (msg, "missing CSeq");
  if (!have_from)
    note_malformed (msg, "missing From");
  if (!have_to)
    note_malformed (msg, "missing To");
  if (via == NULL)
    note_malformed (msg, "missing Via");
  if (msg->is_request && msg->cseq_method_name != NULL && msg->method_name != NULL
      && strcmp (msg->cseq_method_name, msg->method_name) != 0)
    note_malformed (msg, "CSeq method differs from request method");
  return content_type;
}

/* The body's bytes in the packet and its length. */
static const char *
read_body (CsSipMessage *msg, Scratch *s, CsCursor *cur, gboolean headers_complete, gsize *len)
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
              msg->malformed = scratch_strndup (s, reason, strlen (reason));
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

static void
parse_sdp_body (CsSipMessage *msg, const char *content_type_value, const char *body, gsize body_len)
{
  const char *sdp_text = NULL;
  gsize sdp_len = 0;

  if (msg->content_type == NULL || body_len == 0)
    return;
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
          note_malformed (msg, "multipart body without boundary");
          return;
        }
      if (!cs_sip_multipart_find_part (body, body_len, boundary, "application/sdp", &sdp_text,
                                       &sdp_len))
        return;
    }
  else
    return;

  msg->sdp = cs_sdp_parse (sdp_text, sdp_len, NULL);
  if (msg->sdp == NULL)
    note_malformed (msg, "SDP body without v= line");
}

static char *
relocate (char *p, const Scratch *s, char *to)
{
  if (p != NULL && p >= s->data && p < s->data + s->used)
    return to + (p - s->data);
  return p;
}

/* The message, its strings, then its body, in one allocation. */
static CsSipMessage *
message_finish (const CsSipMessage *parsed, Scratch *s, gsize header_text, const char *body,
                gsize body_len)
{
  CsSipMessage *msg = g_malloc (sizeof (CsSipMessage) + s->used + body_len + 1);
  char *to = (char *) (msg + 1);
  char *body_copy = to + s->used;
  char **fields[] = {
    &msg->method_name,      &msg->request_uri,  &msg->reason,
    &msg->call_id,          &msg->from,         &msg->from_tag,
    &msg->from_user,        &msg->from_display, &msg->to,
    &msg->to_tag,           &msg->to_user,      &msg->to_display,
    &msg->cseq_method_name, &msg->via_branch,   &msg->user_agent,
    &msg->contact,          &msg->content_type, &msg->malformed,
  };

  *msg = *parsed;
  memcpy (to, s->data, s->used);
  for (gsize i = 0; i < G_N_ELEMENTS (fields); i++)
    *fields[i] = relocate (*fields[i], s, to);
  if (body_len > 0)
    memcpy (body_copy, body, body_len);
  body_copy[body_len] = '\0';
  msg->priv_body = body_copy;
  msg->priv_body_len = (guint32) body_len;
  msg->priv_header_text = to + header_text;
  if (s->size > SCRATCH_KEEP)
    {
      s->size = SCRATCH_KEEP;
      s->data = g_realloc (s->data, s->size);
    }
  return msg;
}

CsSipMessage *
cs_sip_message_parse (const guint8 *data, gsize len, GError **error)
{
  CsSipMessage parsed = { 0 }, *msg = &parsed;
  ScannedHeader headers[CS_SIP_MAX_HEADERS];
  StartLine start = { NO_OFFSET, NO_OFFSET, NO_OFFSET };
  CsCursor cur;
  gboolean has_eol;
  gsize line_len;

  if (data == NULL)
    len = 0;
  line_len = len > 0 ? cs_sip_first_line_length (data, len, &has_eol) : 0;
  if (len == 0 || !cs_sip_starts_like_sip (data, line_len))
    {
      g_set_error_literal (error, CS_SIP_ERROR, CS_SIP_ERROR_NOT_SIP, "not a SIP message");
      return NULL;
    }
  known_ids_init ();

  Scratch *s = scratch_get ();
  g_atomic_ref_count_init (&msg->ref_count);
  msg->content_length = -1;

  cs_cursor_init (&cur, data, len);
  parse_start_line (msg, s, &start, data, line_len);
  if (!has_eol)
    note_malformed (msg, "missing end of headers");
  cs_cursor_skip (&cur,
                  has_eol ? (gsize) ((const guint8 *) memchr (data, '\n', len) - data) + 1 : len);

  gsize header_text = s->used;
  HeaderReader r = { .msg = msg, .s = s, .headers = headers };
  gboolean complete = read_headers (&r, &cur);
  msg->priv_n_headers = r.n_headers;

  /* from here on the scratch holds still: decoding keeps pointers into it, and what it
   * adds (parts of values, unescaped, and one reason) is smaller than this */
  scratch_reserve (s, 2 * (s->used - header_text) + 256);
  if (start.method_name != NO_OFFSET)
    msg->method_name = s->data + start.method_name;
  if (start.request_uri != NO_OFFSET)
    msg->request_uri = s->data + start.request_uri;
  if (start.reason != NO_OFFSET)
    msg->reason = s->data + start.reason;

  const char *content_type = decode_headers (msg, s, headers, r.n_headers);
  gsize body_len;
  const char *body = read_body (msg, s, &cur, complete, &body_len);
  parse_sdp_body (msg, content_type, body, body_len);
  return message_finish (msg, s, header_text, body, body_len);
}

CsSipMessage *
cs_sip_message_ref (CsSipMessage *msg)
{
  g_return_val_if_fail (msg != NULL, NULL);
  g_atomic_ref_count_inc (&msg->ref_count);
  return msg;
}

void
cs_sip_message_unref (CsSipMessage *msg)
{
  if (msg == NULL || !g_atomic_ref_count_dec (&msg->ref_count))
    return;
  g_free (msg->priv_headers_view);
  cs_sdp_free (msg->sdp);
  g_free (msg);
}

/* Steps over one packed header; returns the next one. */
static const char *
packed_next (const char *p, const char **name, const char **value)
{
  if (p[0] == '\x01')
    {
      *name = cs_sip_header_known_by_index ((guint8) p[1] - 1);
      p += 2;
    }
  else
    {
      *name = p;
      p += strlen (p) + 1;
    }
  *value = p;
  return p + strlen (p) + 1;
}

const GPtrArray *
cs_sip_message_get_headers (const CsSipMessage *msg)
{
  /* logically const: the view is a cache of the packed headers */
  gpointer *slot = (gpointer *) &((CsSipMessage *) msg)->priv_headers_view;
  GPtrArray *view = g_atomic_pointer_get (slot);
  guint n = msg->priv_n_headers;

  if (view != NULL)
    return view;
  /* GPtrArray's public part, its pdata, then the headers: read-only */
  view = g_malloc (sizeof (GPtrArray) + n * (sizeof (gpointer) + sizeof (CsSipHeader)));
  CsSipHeader *h = (CsSipHeader *) ((gpointer *) (view + 1) + n);
  const char *p = msg->priv_header_text;
  view->pdata = (gpointer *) (view + 1);
  view->len = n;
  for (guint i = 0; i < n; i++)
    {
      const char *name, *value;
      p = packed_next (p, &name, &value);
      h[i].name = (char *) name;
      h[i].value = (char *) value;
      view->pdata[i] = &h[i];
    }
  /* the GUI and a report may ask at once: the first view published wins */
  if (!g_atomic_pointer_compare_and_exchange (slot, NULL, view))
    {
      g_free (view);
      view = g_atomic_pointer_get (slot);
    }
  return view;
}

const char *
cs_sip_message_get_body (const CsSipMessage *msg, gsize *len)
{
  if (len != NULL)
    *len = msg->priv_body_len;
  return msg->priv_body;
}

const char *
cs_sip_message_get_header (const CsSipMessage *msg, const char *name)
{
  const char *wanted, *p;

  if (msg == NULL || name == NULL)
    return NULL;
  wanted = cs_sip_header_long_name (name);
  p = msg->priv_header_text;
  for (guint i = 0; i < msg->priv_n_headers; i++)
    {
      const char *h_name, *h_value;
      p = packed_next (p, &h_name, &h_value);
      if (g_ascii_strcasecmp (cs_sip_header_long_name (h_name), wanted) == 0)
        return h_value;
    }
  return NULL;
}

char *
cs_sip_message_dup_label (const CsSipMessage *msg)
{
  if (msg->is_request)
    return g_strdup (msg->method_name != NULL && msg->method_name[0] != '\0' ? msg->method_name
                                                                             : "?");
  if (msg->reason != NULL && msg->reason[0] != '\0')
    return g_strdup_printf ("%u %s", msg->status_code, msg->reason);
  return g_strdup_printf ("%u", msg->status_code);
}

CsSipFraming
cs_sip_message_frame_length (const guint8 *data, gsize len, gsize *message_len)
{
  gsize pos = 0;
  gint64 content_length = 0;
  gboolean first = TRUE;

  while (pos < len)
    {
      const guint8 *eol = memchr (data + pos, '\n', len - pos);
      if (eol == NULL)
        break;
      gsize line_end = (gsize) (eol - data);
      gsize n = line_end - pos;
      if (n > 0 && data[line_end - 1] == '\r')
        n--;
      if (first)
        {
          if (!cs_sip_is_strict_start_line (data, n))
            return CS_SIP_FRAMING_INVALID;
          first = FALSE;
        }
      else if (n == 0)
        {
          gsize header_len = line_end + 1;
          if ((guint64) content_length > len - header_len)
            return CS_SIP_FRAMING_INCOMPLETE;
          *message_len = header_len + (gsize) content_length;
          return CS_SIP_FRAMING_COMPLETE;
        }
      else
        {
          const char *line = (const char *) data + pos;
          const char *colon = memchr (line, ':', n);
          if (colon != NULL)
            {
              g_autofree char *name = g_strstrip (g_strndup (line, (gsize) (colon - line)));
              if (cs_sip_header_name_equal (name, "Content-Length"))
                {
                  g_autofree char *value
                      = g_strstrip (g_strndup (colon + 1, n - (gsize) (colon - line) - 1));
                  if (!parse_content_length (value, &content_length)
                      || content_length > CS_SIP_MAX_FRAMED_BODY)
                    return CS_SIP_FRAMING_INVALID;
                }
            }
        }
      pos = line_end + 1;
      if (pos > CS_SIP_MAX_FRAMED_HEADERS)
        return CS_SIP_FRAMING_INVALID;
    }
  /* a start line still being received is judged by its first byte only */
  if (first && len > 0 && !cs_sip_is_token_char (data[0]))
    return CS_SIP_FRAMING_INVALID;
  return len > CS_SIP_MAX_FRAMED_HEADERS ? CS_SIP_FRAMING_INVALID : CS_SIP_FRAMING_INCOMPLETE;
}
