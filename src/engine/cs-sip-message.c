/* cs-sip-message.c — one parsed SIP message (RFC 3261), parsed leniently */
#include "cs-sip-message.h"

#include "cs-cursor.h"
#include "cs-error.h"
#include "cs-sdp.h"
#include "cs-sip-headers.h"
#include "cs-sip-message-private.h"
#include "cs-sip-multipart.h"

#include <string.h>

/* Every string of a message is bump-allocated: parsing fills a per-thread scratch
 * block, then the message and its strings are copied into one exact-size allocation
 * (see message_finish). Parsing makes a handful of allocations instead of ~50 and
 * unref frees one block (plus overflow blocks of very large messages). */
typedef struct _CsSipBlock CsSipBlock;
struct _CsSipBlock
{
  CsSipBlock *next;
  gsize size;
  gsize used;
  char data[];
};

#define CS_SIP_SCRATCH_SIZE (64 * 1024)

static void
scratch_free (gpointer data)
{
  g_free (data);
}

static GPrivate scratch_key = G_PRIVATE_INIT (scratch_free);

static void
scratch_headers_free (gpointer data)
{
  g_ptr_array_unref (data);
}

/* headers collect here while parsing; message_finish copies them into the message */
static GPrivate scratch_headers_key = G_PRIVATE_INIT (scratch_headers_free);

static GPtrArray *
scratch_headers_get (void)
{
  GPtrArray *headers = g_private_get (&scratch_headers_key);

  if (headers == NULL)
    {
      headers = g_ptr_array_sized_new (32);
      g_private_set (&scratch_headers_key, headers);
    }
  g_ptr_array_set_size (headers, 0);
  return headers;
}

static CsSipBlock *
scratch_get (void)
{
  CsSipBlock *scratch = g_private_get (&scratch_key);

  if (scratch == NULL)
    {
      scratch = g_malloc (sizeof (CsSipBlock) + CS_SIP_SCRATCH_SIZE);
      scratch->size = CS_SIP_SCRATCH_SIZE;
      g_private_set (&scratch_key, scratch);
    }
  scratch->next = NULL;
  scratch->used = 0;
  return scratch;
}

static char *
relocate (char *p, const CsSipBlock *from, char *to)
{
  if (p != NULL && p >= from->data && p < from->data + from->used)
    return to + (p - from->data);
  return p;
}

/* Copies a message parsed into the scratch block into its own allocation: the message,
 * then the read-only header array (GPtrArray's public part, pdata right behind it), then
 * the strings. Strings are not padded, so the array goes first to stay aligned. */
static CsSipMessage *
message_finish (const CsSipMessage *parsed, CsSipBlock *scratch)
{
  guint n_headers = parsed->headers->len;
  gsize array_size = sizeof (GPtrArray) + n_headers * sizeof (gpointer);
  CsSipMessage *msg
      = g_malloc (sizeof (CsSipMessage) + array_size + sizeof (CsSipBlock) + scratch->used);
  GPtrArray *headers = (GPtrArray *) (msg + 1);
  CsSipBlock *own = (CsSipBlock *) ((char *) headers + array_size);
  char *to = own->data;
  char **fields[] = {
    &msg->method_name,      &msg->request_uri,  &msg->reason,
    &msg->call_id,          &msg->from,         &msg->from_tag,
    &msg->from_user,        &msg->from_display, &msg->to,
    &msg->to_tag,           &msg->to_user,      &msg->to_display,
    &msg->cseq_method_name, &msg->via_branch,   &msg->user_agent,
    &msg->contact,          &msg->content_type, &msg->body,
    &msg->malformed,
  };

  G_STATIC_ASSERT (sizeof (CsSipMessage) % sizeof (gpointer) == 0);
  G_STATIC_ASSERT (sizeof (GPtrArray) % sizeof (gpointer) == 0);
  G_STATIC_ASSERT (sizeof (CsSipBlock) % sizeof (gpointer) == 0);
  *msg = *parsed;
  memcpy (to, scratch->data, scratch->used);
  own->size = own->used = scratch->used;
  own->next = NULL;
  /* overflow blocks stay; the scratch at the end of their chain becomes `own` */
  if (msg->storage == scratch)
    msg->storage = own;
  for (CsSipBlock *b = msg->storage; b != own; b = b->next)
    if (b->next == scratch)
      b->next = own;
  for (gsize i = 0; i < G_N_ELEMENTS (fields); i++)
    *fields[i] = relocate (*fields[i], scratch, to);
  headers->pdata = (gpointer *) (headers + 1);
  headers->len = n_headers;
  for (guint i = 0; i < n_headers; i++)
    {
      CsSipHeader *h = (CsSipHeader *) relocate (parsed->headers->pdata[i], scratch, to);

      h->name = relocate (h->name, scratch, to);
      h->value = relocate (h->value, scratch, to);
      headers->pdata[i] = h;
    }
  msg->headers = headers;
  return msg;
}

/* Strings are packed without padding; aligned asks for a pointer-aligned CsSipHeader
 * (blocks start aligned, so aligning the offset is enough). */
static char *
storage_alloc_full (CsSipMessage *msg, gsize n, gboolean aligned)
{
  CsSipBlock *block = msg->storage;
  char *p;

  if (aligned)
    block->used = MIN ((block->used + 7) & ~(gsize) 7, block->size);
  if (block->size - block->used < n)
    {
      gsize size = MAX ((n + 7) & ~(gsize) 7, 256);

      block = g_malloc (sizeof (CsSipBlock) + size); /* overflow: kept as is */
      block->next = msg->storage;
      block->size = size;
      block->used = 0;
      msg->storage = block;
    }
  p = block->data + block->used;
  block->used += n;
  return p;
}

static char *
storage_alloc (CsSipMessage *msg, gsize n)
{
  return storage_alloc_full (msg, n, FALSE);
}

static char *
storage_strndup (CsSipMessage *msg, const char *text, gsize n)
{
  char *copy = storage_alloc (msg, n + 1);

  memcpy (copy, text, n);
  copy[n] = '\0';
  return copy;
}

static char *
storage_strdup (CsSipMessage *msg, const char *text)
{
  return text != NULL ? storage_strndup (msg, text, strlen (text)) : NULL;
}

/* Moves a g_malloc'd string into the message's storage. */
static char *
storage_take (CsSipMessage *msg, char *text)
{
  char *copy = storage_strdup (msg, text);

  g_free (text);
  return copy;
}

/* Like storage_take, but when text is the end of `within` (a string in the message's
 * storage: a tag or branch written last, the CSeq method) it points there instead of
 * copying. */
static char *
storage_take_suffix (CsSipMessage *msg, char *text, const char *within)
{
  gsize n, m;

  if (text == NULL)
    return NULL;
  n = strlen (text);
  m = strlen (within);
  if (n <= m && memcmp (within + m - n, text, n) == 0)
    {
      g_free (text);
      return (char *) within + m - n;
    }
  return storage_take (msg, text);
}

/* cs_sip_dup_text into the message's storage. */
static char *
storage_dup_text (CsSipMessage *msg, const char *text, gsize n)
{
  for (gsize i = 0; i < n; i++)
    if ((guchar) text[i] == 0 || (guchar) text[i] >= 0x80)
      return storage_take (msg, cs_sip_dup_text (text, n));
  return storage_strndup (msg, text, n);
}

static void
note_malformed (CsSipMessage *msg, const char *reason)
{
  if (msg->malformed == NULL)
    msg->malformed = storage_strdup (msg, reason);
}

static void
parse_start_line (CsSipMessage *msg, const guint8 *line, gsize n)
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
      msg->reason = g_strstrip (storage_dup_text (msg, (const char *) line + i, n - i));
      return;
    }

  /* METHOD SP Request-URI SP SIP/2.0, read leniently about spacing */
  gsize method_end = 0;
  msg->is_request = TRUE;
  while (method_end < n && cs_sip_is_token_char (line[method_end]))
    method_end++;
  msg->method_name = storage_strndup (msg, (const char *) line, method_end);
  msg->method = cs_sip_method_from_string (msg->method_name, method_end);
  gsize uri_end = n >= SIP_VERSION_LEN ? n - SIP_VERSION_LEN : n;
  if (uri_end < method_end)
    uri_end = method_end;
  msg->request_uri
      = g_strstrip (storage_dup_text (msg, (const char *) line + method_end, uri_end - method_end));
}

typedef enum
{
  HEADER_NONE,    /* no header open: continuation lines are errors */
  HEADER_OPEN,    /* value collects continuation lines */
  HEADER_DROPPED, /* over CS_SIP_MAX_HEADERS: continuation lines are skipped */
} HeaderState;

/* The open header's name and value point into the packet; a value is copied into
 * `folded` only when a continuation line has to be joined to it. */
typedef struct
{
  CsSipMessage *msg;
  HeaderState state;
  const char *name;
  gsize name_len;
  const char *value;
  gsize value_len;
  GString *folded; /* NULL while the value is one span of the packet */
} HeaderReader;

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
      CsSipHeader *header = (CsSipHeader *) storage_alloc_full (r->msg, sizeof (CsSipHeader), TRUE);
      const char *known = cs_sip_header_known_name (r->name, r->name_len);

      /* the name was checked to be token characters */
      header->name
          = known != NULL ? (char *) known : storage_strndup (r->msg, r->name, r->name_len);
      if (r->value != NULL)
        header->value = storage_dup_text (r->msg, r->value, r->value_len);
      else
        header->value = storage_dup_text (r->msg, r->folded->str, r->folded->len);
      g_strchomp (header->value);
      g_ptr_array_add (r->msg->headers, header);
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

/* One header line without its line ending. */
static void
read_header_line (HeaderReader *r, const char *line, gsize n)
{
  const char *end = line + n;

  if (memchr (line, '\0', n) != NULL)
    note_malformed (r->msg, "NUL byte in headers");

  if (line[0] == ' ' || line[0] == '\t')
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
      return;
    }

  close_header (r);
  const char *colon = memchr (line, ':', n);
  const char *name_end = colon;
  while (name_end != NULL && name_end > line && (name_end[-1] == ' ' || name_end[-1] == '\t'))
    name_end--;
  gboolean name_ok = colon != NULL && name_end > line;
  for (const char *q = line; name_ok && q < name_end; q++)
    name_ok = cs_sip_is_token_char ((guint8) *q);
  if (!name_ok)
    {
      note_malformed (r->msg, "bad header line");
      return;
    }
  if (r->msg->headers->len >= CS_SIP_MAX_HEADERS)
    {
      note_malformed (r->msg, "too many headers");
      r->state = HEADER_DROPPED;
      return;
    }
  r->name = line;
  r->name_len = (gsize) (name_end - line);
  if (r->folded != NULL)
    g_string_truncate (r->folded, 0);
  const char *value = trim_start (colon + 1, end);
  r->value = value;
  r->value_len = (gsize) (end - value);
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
read_headers (CsSipMessage *msg, CsCursor *cur)
{
  HeaderReader r = { msg, HEADER_NONE, NULL, 0, NULL, 0, NULL };
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
          note_malformed (msg, "missing end of headers");
          /* a cut line is kept only if it still has its name */
          if (memchr (line, ':', n) != NULL || line[0] == ' ' || line[0] == '\t')
            read_header_line (&r, line, n);
          break;
        }
      if (n == 0)
        {
          complete = TRUE;
          break;
        }
      read_header_line (&r, line, n);
    }
  if (!complete && cs_cursor_remaining (cur) == 0)
    note_malformed (msg, "missing end of headers");
  close_header (&r);
  if (r.folded != NULL)
    g_string_free (r.folded, TRUE);
  return complete;
}

static gboolean
parse_cseq (CsSipMessage *msg, const char *value)
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
  msg->cseq_method_name = (char *) method; /* the end of the CSeq value, in storage */
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

/* From / To: whole value, display name, user part, tag. */
static gboolean
parse_address (CsSipMessage *msg, char *value, char **whole, char **display, char **user,
               char **tag)
{
  CsSipNameAddr na;

  *whole = (char *) value; /* the header's own string */
  if (!cs_sip_name_addr_parse (value, &na))
    return FALSE;
  *display = storage_take (msg, g_steal_pointer (&na.display));
  *tag = storage_take_suffix (msg, g_steal_pointer (&na.tag), value);
  *user = storage_take (msg, cs_sip_uri_dup_user (na.uri));
  cs_sip_name_addr_clear (&na);
  return TRUE;
}

/* Fills the decoded fields from the first header of each kind; returns the raw
 * Content-Type value (owned by msg->headers). */
static const char *
decode_headers (CsSipMessage *msg)
{
  const char *content_type = NULL, *via = NULL, *server = NULL;
  gboolean have_cseq = FALSE, have_from = FALSE, have_to = FALSE, have_length = FALSE;

  for (guint i = 0; i < msg->headers->len; i++)
    {
      CsSipHeader *h = g_ptr_array_index (msg->headers, i);
      const char *name = cs_sip_header_long_name (h->name);
      /* the first letter rules out most names before a full compare */
      char first = g_ascii_tolower (name[0]);

#define IS(n) (first == g_ascii_tolower (n[0]) && g_ascii_strcasecmp (name, n) == 0)
      if (IS ("Call-ID") && msg->call_id == NULL)
        msg->call_id = h->value; /* same storage, same lifetime */
      else if (IS ("From") && !have_from)
        {
          have_from = TRUE;
          if (!parse_address (msg, h->value, &msg->from, &msg->from_display, &msg->from_user,
                              &msg->from_tag))
            note_malformed (msg, "bad From");
        }
      else if (IS ("To") && !have_to)
        {
          have_to = TRUE;
          if (!parse_address (msg, h->value, &msg->to, &msg->to_display, &msg->to_user,
                              &msg->to_tag))
            note_malformed (msg, "bad To");
        }
      else if (IS ("CSeq") && !have_cseq)
        {
          have_cseq = TRUE;
          if (!parse_cseq (msg, h->value))
            note_malformed (msg, "bad CSeq");
        }
      else if (IS ("Via") && via == NULL)
        via = h->value;
      else if (IS ("Contact") && msg->contact == NULL)
        msg->contact = h->value;
      else if (IS ("Content-Length") && !have_length)
        {
          have_length = TRUE;
          if (!parse_content_length (h->value, &msg->content_length))
            note_malformed (msg, "bad Content-Length");
        }
      else if (IS ("Content-Type") && content_type == NULL)
        content_type = h->value;
      else if (IS ("User-Agent") && msg->user_agent == NULL)
        msg->user_agent = h->value;
      else if (IS ("Server") && server == NULL)
        server = h->value;
#undef IS
    }

  if (msg->user_agent == NULL && server != NULL)
    msg->user_agent = (char *) server;
  if (via != NULL)
    msg->via_branch = storage_take_suffix (msg, cs_sip_via_dup_branch (via), via);
  if (content_type != NULL)
    msg->content_type = storage_take_suffix (msg, cs_sip_content_type_dup_media_type (content_type),
                                             content_type);

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

static void
read_body (CsSipMessage *msg, CsCursor *cur, gboolean headers_complete)
{
  gsize avail = headers_complete ? cs_cursor_remaining (cur) : 0;
  gsize body_len = avail;
  const guint8 *body = NULL;

  if (msg->content_length >= 0 && headers_complete)
    {
      if ((guint64) msg->content_length > avail)
        {
          char *reason = g_strdup_printf ("Content-Length %" G_GINT64_FORMAT
                                          " exceeds body (%" G_GSIZE_FORMAT " bytes)",
                                          msg->content_length, avail);
          note_malformed (msg, reason);
          g_free (reason);
        }
      else
        body_len = (gsize) msg->content_length;
    }
  msg->body = storage_alloc (msg, body_len + 1);
  if (body_len > 0 && cs_cursor_bytes (cur, body_len, &body))
    memcpy (msg->body, body, body_len);
  else
    body_len = 0;
  msg->body[body_len] = '\0';
  msg->body_len = body_len;
}

static void
parse_sdp_body (CsSipMessage *msg, const char *content_type_value)
{
  const char *sdp_text = NULL;
  gsize sdp_len = 0;

  if (msg->content_type == NULL || msg->body_len == 0)
    return;
  if (strcmp (msg->content_type, "application/sdp") == 0)
    {
      sdp_text = msg->body;
      sdp_len = msg->body_len;
    }
  else if (g_str_has_prefix (msg->content_type, "multipart/"))
    {
      g_autofree char *boundary = cs_sip_content_type_dup_param (content_type_value, "boundary");
      if (boundary == NULL)
        {
          note_malformed (msg, "multipart body without boundary");
          return;
        }
      if (!cs_sip_multipart_find_part (msg->body, msg->body_len, boundary, "application/sdp",
                                       &sdp_text, &sdp_len))
        return;
    }
  else
    return;

  msg->sdp = cs_sdp_parse (sdp_text, sdp_len, NULL);
  if (msg->sdp == NULL)
    note_malformed (msg, "SDP body without v= line");
}

CsSipMessage *
cs_sip_message_parse (const guint8 *data, gsize len, GError **error)
{
  CsSipMessage *msg;
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

  CsSipMessage parsed = { 0 };
  CsSipBlock *scratch = scratch_get ();

  msg = &parsed;
  msg->storage = scratch;
  g_atomic_ref_count_init (&msg->ref_count);
  msg->content_length = -1;
  msg->headers = scratch_headers_get ();

  cs_cursor_init (&cur, data, len);
  parse_start_line (msg, data, line_len);
  if (!has_eol)
    note_malformed (msg, "missing end of headers");
  cs_cursor_skip (&cur,
                  has_eol ? (gsize) ((const guint8 *) memchr (data, '\n', len) - data) + 1 : len);

  gboolean complete = read_headers (msg, &cur);
  const char *content_type = decode_headers (msg);
  read_body (msg, &cur, complete);
  parse_sdp_body (msg, content_type);
  return message_finish (msg, scratch);
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
  /* the block allocated with the message, behind its header array */
  const CsSipBlock *own = (const CsSipBlock *) (msg->headers->pdata + msg->headers->len);
  for (CsSipBlock *block = msg->storage, *next; block != NULL; block = next)
    {
      next = block->next;
      if (block != own)
        g_free (block);
    }
  cs_sdp_free (msg->sdp);
  g_free (msg);
}

const char *
cs_sip_message_get_header (const CsSipMessage *msg, const char *name)
{
  const char *wanted;

  if (msg == NULL || name == NULL)
    return NULL;
  wanted = cs_sip_header_long_name (name);
  for (guint i = 0; i < msg->headers->len; i++)
    {
      const CsSipHeader *h = g_ptr_array_index (msg->headers, i);
      if (g_ascii_strcasecmp (cs_sip_header_long_name (h->name), wanted) == 0)
        return h->value;
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
