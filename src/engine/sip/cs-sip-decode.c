/* cs-sip-decode.c — the decoded fields of a SIP message (Call-ID, From, To, CSeq, Via
 * branch, Content-Type…) from its scanned headers, without allocating */
#include "cs-sip-header-read.h"
#include "cs-sip-headers.h"
#include "cs-sip-message-private.h"

#include <string.h>

static CsSipHeaderId
header_id_slow (const char *name, gsize len)
{
  static const char *const names[]
      = { NULL,      "Call-ID",        "From",         "To",         "CSeq",  "Via",
          "Contact", "Content-Length", "Content-Type", "User-Agent", "Server" };
  char buf[16];

  if (len == 0 || len >= sizeof buf)
    return CS_SIP_HID_OTHER;
  memcpy (buf, name, len);
  buf[len] = '\0';
  const char *long_name = cs_sip_header_long_name (buf);
  for (gsize i = 1; i < G_N_ELEMENTS (names); i++)
    if (g_ascii_strcasecmp (long_name, names[i]) == 0)
      return (CsSipHeaderId) i;
  return CS_SIP_HID_OTHER;
}

guint8 cs_sip_known_header_ids[CS_SIP_KNOWN_SLOTS];

void
cs_sip_header_ids_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      cs_sip_header_names_init ();
      for (int i = 0; i < CS_SIP_KNOWN_SLOTS; i++)
        {
          const char *name = cs_sip_header_known_by_index (i);
          cs_sip_known_header_ids[i]
              = name != NULL ? (guint8) header_id_slow (name, strlen (name)) : CS_SIP_HID_OTHER;
        }
      g_once_init_leave (&done, 1);
    }
}

guint8
cs_sip_header_id (const char *name, gsize len, int known)
{
  if (known >= 0)
    return known < CS_SIP_KNOWN_SLOTS ? cs_sip_known_header_ids[known] : CS_SIP_HID_OTHER;
  return (guint8) header_id_slow (name, len);
}

static gboolean
parse_cseq (CsSipParsed *msg, char *value)
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

gboolean
cs_sip_parse_content_length (const char *value, gint64 *out)
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
static inline __attribute__ ((always_inline)) char *
span_string (CsSipScratch *s, const CsSipSpan *span, gboolean may_share)
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
  if (span->len <= 16)
    {
      /* short (a user part, a tag): two word moves instead of a memcpy call. The span
       * lies in the scratch's text and decoding has 256 spare bytes past it (see
       * cs_sip_message_parse), so 16 bytes can be read and written; both words are
       * loaded before either is stored, the source may end past the destination. */
      char *out = s->data + s->used;
      guint64 a, b;
      memcpy (&a, span->start, 8);
      memcpy (&b, span->start + 8, 8);
      memcpy (out, &a, 8);
      memcpy (out + 8, &b, 8);
      out[span->len] = '\0';
      s->used += span->len + 1;
      return out;
    }
  return cs_sip_scratch_strndup (s, span->start, span->len);
}

/* From / To: whole value, display name, user part, tag. */
static gboolean
parse_address (CsSipScratch *s, char *value, char **whole, char **display, char **user, char **tag)
{
  CsSipAddrSpans a;
  CsSipSpan user_span;

  gboolean has_user;

  *whole = value;
  if (!cs_sip_addr_scan_user (value, &a, &user_span, &has_user))
    return FALSE;
  if (a.has_display)
    *display = span_string (s, &a.display, FALSE);
  if (a.has_tag)
    *tag = span_string (s, &a.tag, TRUE);
  if (has_user)
    *user = span_string (s, &user_span, FALSE);
  return TRUE;
}

static char *
via_branch (CsSipScratch *s, const char *via)
{
  CsSipSpan span;

  if (!cs_sip_via_branch_find (via, &span))
    return NULL;
  return span_string (s, &span, TRUE);
}

/* cs_sip_content_type_dup_media_type: the value itself when it is already a bare
 * lowercase media type. */
static char *
content_media_type (CsSipScratch *s, char *value)
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

/* The value of the first header of a kind, or NULL. */
static inline char *
first_value (CsSipScratch *s, const CsSipFirstHeaders *first, CsSipHeaderId id)
{
  return first->at[id] != 0 ? s->data + first->at[id] - 1 : NULL;
}

/* A bad value's reason, kept when its header comes before the one kept so far: the
 * header loop this replaces noted the first in the message. */
static inline void
keep_first_bad (const CsSipFirstHeaders *first, CsSipHeaderId id, const char *reason, gsize *bad_at,
                const char **bad_reason)
{
  if (first->at[id] < *bad_at)
    {
      *bad_at = first->at[id];
      *bad_reason = reason;
    }
}

const char *
cs_sip_decode_headers (CsSipParsed *msg, CsSipScratch *s, const CsSipScannedHeader *headers,
                       guint n)
{
  CsSipFirstHeaders first = { { 0 } };

  for (guint i = 0; i < n; i++)
    if (first.at[headers[i].id] == 0)
      first.at[headers[i].id] = headers[i].value + 1;
  return cs_sip_decode_first_headers (msg, s, &first);
}

const char *
cs_sip_decode_first_headers (CsSipParsed *msg, CsSipScratch *s, const CsSipFirstHeaders *first)
{
  char *content_type = first_value (s, first, CS_SIP_HID_CONTENT_TYPE);
  char *via = first_value (s, first, CS_SIP_HID_VIA);
  char *server = first_value (s, first, CS_SIP_HID_SERVER);
  char *value;
  gboolean have_cseq = first->at[CS_SIP_HID_CSEQ] != 0;
  gboolean have_from = first->at[CS_SIP_HID_FROM] != 0;
  gboolean have_to = first->at[CS_SIP_HID_TO] != 0;
  gsize bad_at = G_MAXSIZE;
  const char *bad_reason = NULL;

  msg->call_id = first_value (s, first, CS_SIP_HID_CALL_ID);
  msg->contact = first_value (s, first, CS_SIP_HID_CONTACT);
  msg->user_agent = first_value (s, first, CS_SIP_HID_USER_AGENT);
  if (have_from
      && !parse_address (s, first_value (s, first, CS_SIP_HID_FROM), &msg->from, &msg->from_display,
                         &msg->from_user, &msg->from_tag))
    keep_first_bad (first, CS_SIP_HID_FROM, "bad From", &bad_at, &bad_reason);
  if (have_to
      && !parse_address (s, first_value (s, first, CS_SIP_HID_TO), &msg->to, &msg->to_display,
                         &msg->to_user, &msg->to_tag))
    keep_first_bad (first, CS_SIP_HID_TO, "bad To", &bad_at, &bad_reason);
  if (have_cseq && !parse_cseq (msg, first_value (s, first, CS_SIP_HID_CSEQ)))
    keep_first_bad (first, CS_SIP_HID_CSEQ, "bad CSeq", &bad_at, &bad_reason);
  value = first_value (s, first, CS_SIP_HID_CONTENT_LENGTH);
  if (value != NULL && !cs_sip_parse_content_length (value, &msg->content_length))
    keep_first_bad (first, CS_SIP_HID_CONTENT_LENGTH, "bad Content-Length", &bad_at, &bad_reason);
  if (bad_reason != NULL)
    cs_sip_note_malformed (msg, bad_reason);

  if (msg->user_agent == NULL && server != NULL)
    msg->user_agent = (char *) server;
  if (via != NULL)
    msg->via_branch = via_branch (s, via);
  if (content_type != NULL)
    msg->content_type = content_media_type (s, (char *) content_type);

  if (msg->call_id == NULL || msg->call_id[0] == '\0')
    cs_sip_note_malformed (msg, "missing Call-ID");
  if (!have_cseq)
    cs_sip_note_malformed (msg, "missing CSeq");
  if (!have_from)
    cs_sip_note_malformed (msg, "missing From");
  if (!have_to)
    cs_sip_note_malformed (msg, "missing To");
  if (via == NULL)
    cs_sip_note_malformed (msg, "missing Via");
  /* known methods are exact spellings: their values compare as the strings would */
  if (msg->is_request && msg->cseq_method_name != NULL && msg->method_name != NULL
      && (msg->method != CS_SIP_METHOD_UNKNOWN && msg->cseq_method != CS_SIP_METHOD_UNKNOWN
              ? msg->method != msg->cseq_method
              : strcmp (msg->cseq_method_name, msg->method_name) != 0))
    cs_sip_note_malformed (msg, "CSeq method differs from request method");
  return content_type;
}
