/* cs-sip-clean-head.c — the head of a lean SIP message read in place: its bytes are copied
 * to the scratch 64 at a time while their line ends are found as bits, and every string
 * (method, Request-URI, reason, header values) is NUL-terminated where it ends. A head the
 * general readers would treat in any other way (folding, odd bytes, a bad line…) is left
 * to them, so what both give is the same. */
#include "cs-sip-header-read.h"

#include "cs-sip-method.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* The message's bytes, read 64 at a time into the scratch. */
typedef struct
{
  const guint8 *data;
  gsize len;
  char *copy; /* where data[0] goes in the scratch */
  gsize next; /* offset of the next 64 bytes to read */
  guint8 odd; /* scalar reads: a NUL or a byte >= 0x80 was read */
#ifdef __SSE2__
  __m128i plain_v; /* all bits set in the bytes that were neither NUL nor >= 0x80 */
#endif
} Window;

/* Copies the next 64 bytes (the rest of the data padded with spaces, which neither end a
 * line nor are odd) and returns the bits of their '\n'. */
static inline guint64
window_read (Window *w)
{
  const guint8 *src = w->data + w->next;
  char *dst = w->copy + w->next;
  guint8 pad[64];
  guint64 bits = 0;

  if (w->len - w->next < sizeof pad)
    {
      memset (pad, ' ', sizeof pad);
      memcpy (pad, src, w->len - w->next);
      src = pad;
    }
  w->next += sizeof pad;
#ifdef __SSE2__
  const __m128i nl = _mm_set1_epi8 ('\n'), zero = _mm_setzero_si128 ();
  for (guint k = 0; k < 4; k++)
    {
      __m128i v = _mm_loadu_si128 ((const __m128i *) (src + 16 * k));
      _mm_storeu_si128 ((__m128i *) (dst + 16 * k), v);
      /* plain bytes are 1 to 0x7f: greater than zero as signed bytes */
      w->plain_v = _mm_and_si128 (w->plain_v, _mm_cmpgt_epi8 (v, zero));
      bits |= (guint64) (guint) _mm_movemask_epi8 (_mm_cmpeq_epi8 (v, nl)) << (16 * k);
    }
#else
  memcpy (dst, src, sizeof pad);
  for (guint k = 0; k < sizeof pad; k++)
    {
      bits |= (guint64) (src[k] == '\n') << k;
      w->odd |= src[k] == 0 || src[k] >= 0x80;
    }
#endif
  return bits;
}

static gboolean
window_read_odd (const Window *w)
{
#ifdef __SSE2__
  return _mm_movemask_epi8 (w->plain_v) != 0xffff;
#else
  return w->odd != 0;
#endif
}

/* g_ascii_isspace without its table: space, \t \n \f or \r (GLib's leaves out \v) */
static inline gboolean
is_ascii_space (char c)
{
  guint8 b = (guint8) c;

  return b <= '\r' ? (0x3600u >> b) & 1 : b == ' ';
}

/* What the start line sets in the message. */
typedef struct
{
  gboolean is_request;
  guint status_code;
  CsSipMethod method;
} StartFields;

/* The strict start line (n bytes, without its line end) as parse_start_line reads it:
 * the method's and the reason's end become NUL in place. checked: the caller already
 * knows the line is strict (cs_sip_looks_like on the same bytes). */
static gboolean
read_start_line (StartFields *msg, char *text, char *line, gsize n, gboolean checked,
                 CsSipStartLine *start)
{
  const guint8 *bytes = (const guint8 *) line;

  /* the length guard keeps the reads and the stores below inside the line even so */
  if (checked ? n < 11 : !cs_sip_is_strict_start_line (bytes, n))
    return FALSE;
  if (cs_sip_is_version (bytes) && line[7] == ' ')
    {
      /* "SIP/2.0 DDD" then the end or a space: three digits */
      guint code
          = (guint) (line[8] - '0') * 100 + (guint) (line[9] - '0') * 10 + (guint) (line[10] - '0');
      if (code < 100 || code > 699)
        return FALSE;
      char *a = line + 11, *b = line + n;
      while (b > a && is_ascii_space (b[-1]))
        b--;
      while (a < b && is_ascii_space (*a))
        a++;
      *b = '\0'; /* a space, or the line end */
      msg->is_request = FALSE;
      msg->status_code = code;
      start->reason = (gsize) (a - text);
      return TRUE;
    }
  /* TOKEN SP URI SP SIP/2.0 where the URI holds no byte <= ' ' */
  gsize method_end = 0;
  while (cs_sip_is_token_char (bytes[method_end]))
    method_end++;
  msg->is_request = TRUE;
  msg->method = cs_sip_method_from_string (line, method_end);
  if (msg->method == CS_SIP_METHOD_UNKNOWN)
    {
      line[method_end] = '\0';
      start->method_name = (gsize) (line - text);
    }
  line[n - SIP_VERSION_LEN - 1] = '\0';
  start->request_uri = (gsize) (line + method_end + 1 - text);
  return TRUE;
}

/* TRUE when the first n (<= 8) bytes of w are `lower` in any case: its letters compare
 * with the 0x20 bit set, its other bytes exactly (a constant `lower` folds to one mask,
 * one or and one compare). */
static inline __attribute__ ((always_inline)) gboolean
word_is (guint64 w, const char *lower, gsize n)
{
  guint64 want = 0, fold = 0, mask = 0;

  for (gsize i = 0; i < n; i++)
    {
      guint8 c = (guint8) lower[i];
      want |= (guint64) c << (8 * i);
      fold |= (guint64) (c >= 'a' && c <= 'z' ? 0x20 : 0) << (8 * i);
      mask |= (guint64) 0xff << (8 * i);
    }
  return ((w | fold) & mask) == want;
}

/* The CsSipHeaderId cs_sip_header_id gives a name the decoding reads (a long or compact
 * name in any case), by its length and first words; -1 for any other name. name has 16
 * bytes readable. */
static inline int
decoded_id (const char *name, gsize len)
{
  guint64 w0, w1;

  memcpy (&w0, name, 8);
  memcpy (&w1, name + 8, 8);
  switch (len)
    {
    case 1:
      /* compact forms: (c | 0x20) is a given letter only for that letter */
      switch ((guint8) name[0] | 0x20)
        {
        case 'i':
          return CS_SIP_HID_CALL_ID;
        case 'f':
          return CS_SIP_HID_FROM;
        case 't':
          return CS_SIP_HID_TO;
        case 'v':
          return CS_SIP_HID_VIA;
        case 'm':
          return CS_SIP_HID_CONTACT;
        case 'l':
          return CS_SIP_HID_CONTENT_LENGTH;
        case 'c':
          return CS_SIP_HID_CONTENT_TYPE;
        default:
          return -1;
        }
    case 2:
      return word_is (w0, "to", 2) ? CS_SIP_HID_TO : -1;
    case 3:
      return word_is (w0, "via", 3) ? CS_SIP_HID_VIA : -1;
    case 4:
      if (word_is (w0, "from", 4))
        return CS_SIP_HID_FROM;
      return word_is (w0, "cseq", 4) ? CS_SIP_HID_CSEQ : -1;
    case 6:
      return word_is (w0, "server", 6) ? CS_SIP_HID_SERVER : -1;
    case 7:
      if (word_is (w0, "call-id", 7))
        return CS_SIP_HID_CALL_ID;
      return word_is (w0, "contact", 7) ? CS_SIP_HID_CONTACT : -1;
    case 10:
      return word_is (w0, "user-age", 8) && word_is (w1, "nt", 2) ? CS_SIP_HID_USER_AGENT : -1;
    case 12:
      return word_is (w0, "content-", 8) && word_is (w1, "type", 4) ? CS_SIP_HID_CONTENT_TYPE : -1;
    case 14:
      return word_is (w0, "content-", 8) && word_is (w1, "length", 6) ? CS_SIP_HID_CONTENT_LENGTH
                                                                      : -1;
    default:
      return -1;
    }
}

/* TRUE when the n (1 to 16) bytes at name are RFC 3261 token characters; name has 16
 * bytes readable. */
static inline gboolean
name_is_token (const char *name, gsize n)
{
#ifdef __SSE2__
  /* letters (any case), digits, then the ten marks, each as a byte compare */
  const __m128i v = _mm_loadu_si128 ((const __m128i *) name);
  const __m128i lower = _mm_or_si128 (v, _mm_set1_epi8 (0x20));
  const __m128i letter_at = _mm_sub_epi8 (lower, _mm_set1_epi8 ('a'));
  const __m128i digit_at = _mm_sub_epi8 (v, _mm_set1_epi8 ('0'));
  __m128i ok
      = _mm_or_si128 (_mm_cmpeq_epi8 (_mm_min_epu8 (letter_at, _mm_set1_epi8 (25)), letter_at),
                      _mm_cmpeq_epi8 (_mm_min_epu8 (digit_at, _mm_set1_epi8 (9)), digit_at));
  static const char marks[] = "-.!%*_+`'~";
  for (gsize i = 0; i < sizeof marks - 1; i++)
    ok = _mm_or_si128 (ok, _mm_cmpeq_epi8 (v, _mm_set1_epi8 (marks[i])));
  guint want = n >= 16 ? 0xffffu : (1u << n) - 1;
  if (n <= 16)
    return ((guint) _mm_movemask_epi8 (ok) & want) == want;
#endif
  for (gsize k = 0; k < n; k++)
    if (!cs_sip_is_token_char ((guint8) name[k]))
      return FALSE;
  return TRUE;
}

/* One header line (n bytes, without its line end) as read_usual_line reads it, its value
 * NUL-terminated in place and recorded in first when it is the first of its kind; FALSE
 * when it is not so usual. line has 16 bytes readable. */
static inline gboolean
read_header (char *text, char *line, gsize n, CsSipFirstHeaders *first)
{
  gsize name_len;

  /* folding (a line starting with a blank) needs no test of its own: a blank is in no
   * decoded name and is no token character */
#ifdef __SSE2__
  guint colons = (guint) _mm_movemask_epi8 (
      _mm_cmpeq_epi8 (_mm_loadu_si128 ((const __m128i *) line), _mm_set1_epi8 (':')));
  if (n < 16)
    colons &= (1u << n) - 1;
  if (colons != 0)
    name_len = (gsize) __builtin_ctz (colons);
  else
#endif
    {
      const char *colon = memchr (line, ':', n);
      if (colon == NULL)
        return FALSE;
      name_len = (gsize) (colon - line);
    }
  /* a decoded name is letters and '-' (no blank before the colon); any other name only
   * has to be a token, which rules out an empty one and a blank too */
  int id = decoded_id (line, name_len);
  if (id < 0)
    {
      if (name_len == 0 || !name_is_token (line, name_len))
        return FALSE;
      id = CS_SIP_HID_OTHER;
    }

  /* the line's end in the copy is '\r' or '\n': the blanks' skip stops there */
  char *value = line + name_len + 1, *end = line + n;
  if (*value == ' ')
    value++;
  while (G_UNLIKELY (*value == ' ' || *value == '\t'))
    value++;
  gsize value_len = (gsize) (end - value);
  if (value_len > CS_SIP_MAX_HEADER_VALUE)
    return FALSE;
  if (G_UNLIKELY (value_len > 0 && (guint8) value[value_len - 1] <= ' '))
    while (value_len > 0 && is_ascii_space (value[value_len - 1]))
      value_len--;
  value[value_len] = '\0';
  if (first->at[id] == 0)
    first->at[id] = (gsize) (value - text) + 1;
  return TRUE;
}

gboolean
cs_sip_read_clean_head (CsSipParsed *msg, CsSipScratch *s, const guint8 *data, gsize len,
                        gboolean start_checked, CsSipStartLine *start, CsSipFirstHeaders *first,
                        guint *n_headers, gsize *head_len)
{
  StartFields parsed = { 0 };
  CsSipStartLine start_line = *start;

  if (data == NULL || len == 0)
    return FALSE;
  /* the whole windows read, and 16 bytes past any line start for its loads */
  cs_sip_scratch_reserve (s, len + 64 + 16);
  Window w = { .data = data, .len = len, .copy = s->data + s->used };
#ifdef __SSE2__
  w.plain_v = _mm_set1_epi8 (-1);
#endif
  guint64 bits = window_read (&w);
  gsize base = 0, pos = 0;
  /* held in locals: the NUL stores into the copy could alias the scratch's fields */
  char *text = s->data;
  CsSipFirstHeaders found = { { 0 } };
  guint n = 0;
  for (;;)
    {
      while (bits == 0)
        {
          if (w.next >= len)
            return FALSE; /* cut: no line end */
          base = w.next;
          bits = window_read (&w);
        }
      gsize eol = base + (gsize) __builtin_ctzll (bits);
      bits &= bits - 1;
      char *line = w.copy + pos;
      gsize line_len = eol - pos;
      if (line_len > 0 && line[line_len - 1] == '\r')
        line_len--;
      if (G_UNLIKELY (pos == 0))
        {
          if (!read_start_line (&parsed, text, line, line_len, start_checked, &start_line))
            return FALSE;
        }
      else if (line_len == 0)
        {
          *head_len = eol + 1;
          break;
        }
      else if (n++ == CS_SIP_MAX_HEADERS || !read_header (text, line, line_len, &found))
        return FALSE;
      pos = eol + 1;
    }
  /* the windows also read past the head: only the head must be plain */
  if (window_read_odd (&w) && !cs_sip_text_is_plain ((const char *) data, *head_len))
    return FALSE;
  s->used += *head_len;
  msg->is_request = parsed.is_request;
  msg->status_code = parsed.status_code;
  msg->method = parsed.method;
  if (parsed.method != CS_SIP_METHOD_UNKNOWN)
    msg->method_name = (char *) cs_sip_method_to_string (parsed.method); /* same spelling */
  *start = start_line;
  *first = found;
  *n_headers = n;
  return TRUE;
}
