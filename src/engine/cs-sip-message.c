/* cs-sip-message.c — one parsed SIP message (RFC 3261), parsed leniently */
#include "cs-sip-message.h"

#include "cs-cursor.h"
#include "cs-error.h"
#include "cs-sdp.h"
#include "cs-sip-headers.h"
#include "cs-sip-message-private.h"
#include "cs-sip-multipart.h"
#include "cs-slab.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* A message is one allocation: the CsSipMessage, then its strings, then its body.
 * Parsing writes the strings into a per-thread scratch buffer and copies it once at the
 * end. The headers are kept packed ("name NUL value NUL", a common name as the byte 0x01
 * and its index) and the decoded fields point into them where they can (Call-ID, From,
 * a tag written last…); the GPtrArray view of the headers is only built on request
 * (cs-sip-message-access.c). The decoded fields come from cs-sip-decode.c. */

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

/* Appends n bytes of packet text as cs_sip_dup_text would (NUL bytes as spaces, invalid
 * UTF-8 replaced), without terminating it; `plain` when they hold neither. */
static void
scratch_put_text (CsSipScratch *s, const char *text, gsize n, gboolean plain)
{
  if (plain)
    {
      cs_sip_scratch_reserve (s, n + 1);
      cs_sip_scratch_put (s, text, n);
      return;
    }
  g_autofree char *valid = cs_sip_dup_text (text, n);
  gsize m = strlen (valid);
  cs_sip_scratch_reserve (s, m + 1);
  cs_sip_scratch_put (s, valid, m);
}

/* One line at p (avail bytes readable): where its '\n' is (avail when none), its first
 * ':' before that (NULL when none), and whether it holds no NUL and no byte >= 0x80.
 * One pass, 16 bytes at a time with SSE2. */
typedef struct
{
  gsize eol;
  const char *colon;
  gboolean plain;
} LineScan;

static inline void
scan_line (const char *p, gsize avail, LineScan *out)
{
  gsize i = 0;
  guint bad = 0;
  const char *colon = NULL;

#ifdef __SSE2__
  const __m128i nl = _mm_set1_epi8 ('\n'), co = _mm_set1_epi8 (':'), zero = _mm_setzero_si128 ();
  /* two loops: the colon is looked for only until it is found (usually in the first
   * block), the rest of the line needs only the line end and the byte check */
  for (; colon == NULL && i + 16 <= avail; i += 16)
    {
      __m128i v = _mm_loadu_si128 ((const __m128i *) (p + i));
      guint m_nl = (guint) _mm_movemask_epi8 (_mm_cmpeq_epi8 (v, nl));
      guint m_bad = (guint) (_mm_movemask_epi8 (v) | _mm_movemask_epi8 (_mm_cmpeq_epi8 (v, zero)));
      guint m_colon = (guint) _mm_movemask_epi8 (_mm_cmpeq_epi8 (v, co));

      if (m_nl != 0)
        {
          guint before = (1u << __builtin_ctz (m_nl)) - 1;
          m_bad &= before;
          m_colon &= before;
        }
      bad |= m_bad;
      if (m_colon != 0)
        colon = p + i + __builtin_ctz (m_colon);
      if (m_nl != 0)
        {
          out->eol = i + (gsize) __builtin_ctz (m_nl);
          out->colon = colon;
          out->plain = bad == 0;
          return;
        }
    }
  for (; i + 16 <= avail; i += 16)
    {
      __m128i v = _mm_loadu_si128 ((const __m128i *) (p + i));
      guint m_nl = (guint) _mm_movemask_epi8 (_mm_cmpeq_epi8 (v, nl));
      guint m_bad = (guint) (_mm_movemask_epi8 (v) | _mm_movemask_epi8 (_mm_cmpeq_epi8 (v, zero)));

      if (m_nl != 0)
        {
          bad |= m_bad & ((1u << __builtin_ctz (m_nl)) - 1);
          out->eol = i + (gsize) __builtin_ctz (m_nl);
          out->colon = colon;
          out->plain = bad == 0;
          return;
        }
      bad |= m_bad;
    }
#endif
  for (; i < avail; i++)
    {
      guint8 c = (guint8) p[i];
      if (c == '\n')
        break;
      if (c == 0 || c >= 0x80)
        bad = 1;
      if (c == ':' && colon == NULL)
        colon = p + i;
    }
  out->eol = i;
  out->colon = colon;
  out->plain = bad == 0;
}

static gboolean
text_has_nul (const char *p, gsize n)
{
  return memchr (p, '\0', n) != NULL;
}

typedef enum
{
  HEADER_NONE,    /* no header open: continuation lines are errors */
  HEADER_OPEN,    /* value collects continuation lines */
  HEADER_DROPPED, /* over CS_SIP_MAX_HEADERS: continuation lines are skipped */
} HeaderState;

/* Each header is written to the scratch as soon as its line is read (headers are rarely
 * folded); a continuation line takes the open header's value back out of the scratch,
 * collects it in `folded`, and the folded value is written when the header closes. */
typedef struct
{
  CsSipParsed *msg;
  CsSipScratch *s;
  CsSipScannedHeader *headers; /* CS_SIP_MAX_HEADERS */
  const char *data_end;        /* the end of the message's bytes */
  guint n_headers;
  HeaderState state;
  /* the open header's raw value in the packet, NULL once folded */
  const char *value;
  gsize value_len;
  GString *folded; /* the open header's value once folded (value == NULL) */
} HeaderReader;

static void
append_value (HeaderReader *r, const char *text, gsize n)
{
  gsize room = CS_SIP_MAX_HEADER_VALUE - r->folded->len;

  if (n > room)
    {
      cs_sip_note_malformed (r->msg, "header value too long");
      n = room;
    }
  g_string_append_len (r->folded, text, (gssize) n);
}

/* Writes the value at the end of the scratch as header h's (reserved: n + 1 bytes for
 * plain text), without trailing white space (as g_strchomp would), NUL-terminated. */
static inline __attribute__ ((always_inline)) void
put_value (CsSipScratch *s, CsSipScannedHeader *h, const char *value, gsize n, gboolean plain)
{
  h->value = s->used;
  if (G_LIKELY (plain))
    {
      /* stripping the packet bytes first is the same: plain text is copied as is */
      while (n > 0 && g_ascii_isspace (value[n - 1]))
        n--;
      char *out = s->data + s->used;
      memcpy (out, value, n);
      out[n] = '\0';
      s->used += n + 1;
      h->len = (guint32) n;
      return;
    }
  scratch_put_text (s, value, n, FALSE);
  while (s->used > h->value && g_ascii_isspace (s->data[s->used - 1]))
    s->used--;
  h->len = (guint32) (s->used - h->value);
  s->data[s->used++] = '\0';
}

/* Writes a folded value; only a folded header is still to be written when it closes. */
static inline void
close_header (HeaderReader *r)
{
  if (G_UNLIKELY (r->state == HEADER_OPEN && r->value == NULL))
    {
      CsSipScratch *s = r->s;
      GString *folded = r->folded;

      cs_sip_scratch_reserve (s, folded->len + 1);
      put_value (s, &r->headers[r->n_headers - 1], folded->str, folded->len,
                 cs_sip_text_is_plain (folded->str, folded->len));
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
          /* the value written with the header line comes back out of the scratch (the
           * header is the scratch's last) */
          r->s->used = r->headers[r->n_headers - 1].value;
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
    cs_sip_note_malformed (r->msg, "bad header line");
}

/* One header line without its line ending, any kind (the usual ones take
 * read_usual_line; kept out of the loop so that its registers hold the usual path). */
static __attribute__ ((noinline)) void
read_header_line (HeaderReader *r, const char *line, gsize n, const char *colon, gboolean plain)
{
  const char *end = line + n;

  if (!plain && text_has_nul (line, n))
    cs_sip_note_malformed (r->msg, "NUL byte in headers");

  if (line[0] == ' ' || line[0] == '\t')
    {
      fold_line (r, line, end);
      return;
    }

  close_header (r);
  /* name: the text before the first ':' without trailing white space, all tokens */
  if (G_UNLIKELY (colon == NULL))
    {
      cs_sip_note_malformed (r->msg, "bad header line");
      return;
    }
  const char *name_end = colon;
  while (name_end > line && (name_end[-1] == ' ' || name_end[-1] == '\t'))
    name_end--;
  gsize name_len = (gsize) (name_end - line);
  int known = cs_sip_header_known_index_at (line, name_len, (gsize) (r->data_end - line));
  if (known < 0)
    {
      gboolean name_ok = name_len > 0;
      for (const char *q = line; name_ok && q < name_end; q++)
        name_ok = cs_sip_is_token_char ((guint8) *q);
      if (!name_ok)
        {
          cs_sip_note_malformed (r->msg, "bad header line");
          return;
        }
    }
  if (G_UNLIKELY (r->n_headers >= CS_SIP_MAX_HEADERS))
    {
      cs_sip_note_malformed (r->msg, "too many headers");
      r->state = HEADER_DROPPED;
      return;
    }
  const char *value = trim_start (colon + 1, end);
  gsize value_len = (gsize) (end - value);
  if (G_UNLIKELY (value_len > CS_SIP_MAX_HEADER_VALUE))
    {
      cs_sip_note_malformed (r->msg, "header value too long");
      value_len = CS_SIP_MAX_HEADER_VALUE;
    }

  /* the name (a common one as 0x01 and its index), NUL, the value, NUL */
  CsSipScratch *s = r->s;
  CsSipScannedHeader *h = &r->headers[r->n_headers++];
  cs_sip_scratch_reserve (s, name_len + value_len + 3);
  char *out = s->data + s->used;
  if (known >= 0)
    {
      out[0] = '\x01';
      out[1] = (char) (known + 1);
      s->used += 2;
      h->id = cs_sip_known_header_ids[known];
    }
  else
    {
      memcpy (out, line, name_len);
      out[name_len] = '\0';
      s->used += name_len + 1;
      h->id = cs_sip_header_id (line, name_len, -1);
    }
  put_value (s, h, value, value_len, plain);
  r->value = value;
  r->value_len = value_len;
  r->state = HEADER_OPEN;
}

/* g_ascii_isspace without its table: space, \t \n \f or \r (GLib's table leaves out
 * \v) */
static inline gboolean
is_ascii_space (char c)
{
  guint8 b = (guint8) c;

  return b <= '\r' ? (0x3600u >> b) & 1 : b == ' ';
}

/* memcpy (out, value, n) for a header value without the call (it made the loop spill
 * its registers): 16-byte blocks, the last one overlapping or, for a short value, read
 * whole while it lies within the message (data_end) and written whole (out has 16
 * spare bytes). */
static inline void
copy_short (char *out, const char *value, gsize n, const char *data_end)
{
#ifdef __SSE2__
  if (n >= 16)
    {
      gsize i = 0;
      for (; i + 16 <= n; i += 16)
        _mm_storeu_si128 ((__m128i *) (out + i), _mm_loadu_si128 ((const __m128i *) (value + i)));
      if (i < n)
        _mm_storeu_si128 ((__m128i *) (out + n - 16),
                          _mm_loadu_si128 ((const __m128i *) (value + n - 16)));
      return;
    }
  if (data_end - value >= 16)
    {
      _mm_storeu_si128 ((__m128i *) out, _mm_loadu_si128 ((const __m128i *) value));
      return;
    }
#endif
  memcpy (out, value, n);
}

/* The usual header line, written straight to the scratch: plain text, a name of token
 * characters before its colon, not a continuation, room for one more header. FALSE
 * (nothing done) for any other line, which read_header_line then takes. */
static inline __attribute__ ((always_inline)) gboolean
read_usual_line (HeaderReader *r, const char *line, gsize n, const char *colon)
{
  const char *end = line + n, *name_end = colon;

  if (line[0] == ' ' || line[0] == '\t' || r->n_headers >= CS_SIP_MAX_HEADERS)
    return FALSE;
  while (G_UNLIKELY (name_end > line && (name_end[-1] == ' ' || name_end[-1] == '\t')))
    name_end--;
  gsize name_len = (gsize) (name_end - line);
  int known = cs_sip_header_known_index_at (line, name_len, (gsize) (r->data_end - line));
  if (known < 0)
    {
      if (name_len == 0)
        return FALSE;
      for (const char *q = line; q < name_end; q++)
        if (!cs_sip_is_token_char ((guint8) *q))
          return FALSE;
    }
  /* the value: without the white space around it (as trim_start and g_strchomp) */
  const char *value = colon + 1;
  if (value < end && *value == ' ')
    value++;
  if (G_UNLIKELY (value < end && (*value == ' ' || *value == '\t')))
    value = trim_start (value, end);
  gsize raw_len = (gsize) (end - value);
  if (G_UNLIKELY (raw_len > CS_SIP_MAX_HEADER_VALUE))
    return FALSE;
  gsize value_len = raw_len;
  while (value_len > 0 && is_ascii_space (value[value_len - 1]))
    value_len--;

  close_header (r);
  CsSipScratch *s = r->s;
  CsSipScannedHeader *h = &r->headers[r->n_headers++];
  /* 16 spare bytes for copy_short's whole-block stores */
  if (G_UNLIKELY (s->size - s->used < name_len + value_len + 3 + 16))
    cs_sip_scratch_reserve (s, name_len + value_len + 3 + 16);
  char *out = s->data + s->used;
  if (known >= 0)
    {
      out[0] = '\x01';
      out[1] = (char) (known + 1);
      out += 2;
      h->id = cs_sip_known_header_ids[known];
    }
  else
    {
      memcpy (out, line, name_len);
      out[name_len] = '\0';
      out += name_len + 1;
      h->id = cs_sip_header_id (line, name_len, -1);
    }
  copy_short (out, value, value_len, r->data_end);
  out[value_len] = '\0';
  gsize at = (gsize) (out - s->data);
  h->value = at;
  h->len = (guint32) value_len;
  s->used = at + value_len + 1;
  r->value = value;
  r->value_len = raw_len;
  r->state = HEADER_OPEN;
  return TRUE;
}

/* Reads header lines from the cursor up to the empty line. FALSE when the data ends
 * before it (the message is cut). */
static gboolean
read_headers (HeaderReader *r, CsCursor *cur)
{
  const char *start = (const char *) cs_cursor_here (cur), *p = start;
  const char *end = start + cs_cursor_remaining (cur);
  gboolean complete = FALSE;

  while (p < end)
    {
      const char *line = p;
      gsize avail = (gsize) (end - p);
      LineScan scan;

      scan_line (line, avail, &scan);
      gsize n = scan.eol;
      if (G_UNLIKELY (n == avail))
        {
          p = end;
          if (n > 0 && line[n - 1] == '\r')
            n--;
          cs_sip_note_malformed (r->msg, "missing end of headers");
          /* a cut line is kept only if it still has its name */
          if (scan.colon != NULL || line[0] == ' ' || line[0] == '\t')
            read_header_line (r, line, n, scan.colon, scan.plain);
          break;
        }
      p = line + n + 1;
      if (n > 0 && line[n - 1] == '\r')
        n--;
      if (n == 0)
        {
          complete = TRUE;
          break;
        }
      if (G_LIKELY (scan.plain && scan.colon != NULL) && read_usual_line (r, line, n, scan.colon))
        continue;
      read_header_line (r, line, n, scan.colon, scan.plain);
    }
  cs_cursor_skip (cur, (gsize) (p - start));
  if (!complete && cs_cursor_remaining (cur) == 0)
    cs_sip_note_malformed (r->msg, "missing end of headers");
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
  scratch_put_text (s, text, n, FALSE);
  while (s->used > at && g_ascii_isspace (s->data[s->used - 1]))
    s->used--;
  s->data[s->used++] = '\0';
  while (g_ascii_isspace (s->data[at]))
    at++;
  return at;
}

static void
parse_start_line (CsSipParsed *msg, CsSipScratch *s, StartLine *out, const guint8 *line, gsize n,
                  gboolean strict)
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

/* Parses data; with bytes (which hold data), the message is a lean one. */
static CsSipMessage *
message_parse (const guint8 *data, gsize len, CsMappedBytes *bytes, CsSipShare *share,
               guint64 offset, GError **error)
{
  CsSipParsed parsed = { 0 }, *msg = &parsed;
  CsSipScannedHeader headers[CS_SIP_MAX_HEADERS];
  StartLine start = { NO_OFFSET, NO_OFFSET, NO_OFFSET };
  CsCursor cur;
  const guint8 *eol = NULL;
  gsize line_len = 0;

  if (data == NULL)
    len = 0;
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
    {
      g_set_error_literal (error, CS_SIP_ERROR, CS_SIP_ERROR_NOT_SIP, "not a SIP message");
      return NULL;
    }
  cs_sip_header_ids_init ();

  CsSipScratch *s = scratch_get ();
  msg->content_length = -1;

  cs_cursor_init (&cur, data, len);
  parse_start_line (msg, s, &start, data, line_len, strict);
  if (eol == NULL)
    cs_sip_note_malformed (msg, "missing end of headers");
  cs_cursor_skip (&cur, eol != NULL ? (gsize) (eol - data) + 1 : len);

  gsize header_text = s->used;
  HeaderReader r
      = { .msg = msg, .s = s, .headers = headers, .data_end = (const char *) data + len };
  gboolean complete = read_headers (&r, &cur);
  G_STATIC_ASSERT (CS_SIP_MAX_HEADERS <= G_MAXUINT16);
  msg->priv_n_headers = (guint16) r.n_headers;

  /* from here on the scratch holds still: decoding keeps pointers into it, and what it
   * adds (parts of values, unescaped, and one reason) is smaller than this */
  cs_sip_scratch_reserve (s, 2 * (s->used - header_text) + 256);
  if (start.method_name != NO_OFFSET)
    msg->method_name = s->data + start.method_name;
  if (start.request_uri != NO_OFFSET)
    msg->request_uri = s->data + start.request_uri;
  if (start.reason != NO_OFFSET)
    msg->reason = s->data + start.reason;

  const char *content_type = cs_sip_decode_headers (msg, s, headers, r.n_headers);
  gsize body_len;
  const char *body = read_body (msg, s, &cur, complete, &body_len);
  CsSdp sdp;
  gsize sdp_size = parse_sdp_body (msg, content_type, body, body_len, &sdp);
  if (bytes != NULL)
    {
      CsSipLeanText text = { bytes, share, offset, (guint32) len, body, body_len };
      return cs_sip_message_finish_lean (msg, s, &text, &sdp, sdp_size);
    }
  return message_finish (msg, s, header_text, body, body_len, &sdp, sdp_size);
}

CsSipMessage *
cs_sip_message_parse (const guint8 *data, gsize len, GError **error)
{
  return message_parse (data, MIN (len, CS_SIP_MAX_MESSAGE), NULL, NULL, 0, error);
}

CsSipMessage *
cs_sip_message_parse_mapped (CsMappedBytes *bytes, CsSipShare *share, const guint8 *data, gsize len)
{
  guint64 offset;

  len = MIN (len, CS_SIP_MAX_MESSAGE);
  if (bytes == NULL || len == 0 || !cs_mapped_bytes_contains (bytes, data, len, &offset))
    return message_parse (data, len, NULL, NULL, 0, NULL);
  return message_parse (data, len, bytes, share, offset, NULL);
}
