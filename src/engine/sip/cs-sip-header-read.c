/* cs-sip-header-read.c — the header lines of a SIP message, read in one pass into the
 * parse scratch, packed, whatever they hold (folded, odd bytes, cut) */
#include "cs-sip-header-read.h"

#include "cs-sip-headers.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

void
cs_sip_scratch_put_text (CsSipScratch *s, const char *text, gsize n)
{
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
  cs_sip_scratch_put_text (s, value, n);
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

gboolean
cs_sip_read_headers (CsSipParsed *msg, CsSipScratch *s, CsCursor *cur, CsSipScannedHeader *headers,
                     guint *n_headers)
{
  HeaderReader r = { .msg = msg,
                     .s = s,
                     .headers = headers,
                     .data_end = (const char *) cs_cursor_here (cur) + cs_cursor_remaining (cur) };
  gboolean complete = read_headers (&r, cur);

  *n_headers = r.n_headers;
  return complete;
}
