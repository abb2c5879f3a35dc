/* cs-sdp-private.h — shared by the SDP files: the per-thread parse scratch a description
 * is read into, the parser's state, and the helpers that read a line where it lies */
#pragma once

#include "cs-sdp.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

G_BEGIN_DECLS

/* Parsing collects the media blocks, formats and strings in a per-thread scratch (no
 * allocation once warm); sdp_freeze then copies them into one allocation. */
typedef struct
{
  CsSdpMedia media[CS_SDP_MAX_MEDIA];
  guint first_format[CS_SDP_MAX_MEDIA];
  guint n_formats[CS_SDP_MAX_MEDIA];
  guint n_media;
  CsSdpFormat *formats; /* every block's formats, block after block */
  guint formats_len, formats_size;
  char *strings;
  gsize strings_used, strings_size;
  const char *text_end; /* of the text being read: 16-byte reads stop there */
} SdpScratch;

/* This thread's scratch, emptied, with room for strings_room bytes of strings */
SdpScratch *cs_sdp_scratch_get (gsize strings_room);
/* The size cs_sdp_freeze_to needs for what this thread's scratch holds */
gsize cs_sdp_scratch_frozen_size (void);

/* A copy of the n bytes at text (no NUL among them) in the scratch */
static inline char *
scratch_strndup (SdpScratch *s, const char *text, gsize n)
{
  char *copy = s->strings + s->strings_used;

  g_assert (s->strings_size - s->strings_used >= n + 1 + 16);
#ifdef __SSE2__
  /* a short string in one 16-byte move when the text has 16 bytes there */
  if (n < 16 && s->text_end - text >= 16)
    _mm_storeu_si128 ((__m128i *) (void *) copy,
                      _mm_loadu_si128 ((const __m128i *) (const void *) text));
  else
#endif
    memcpy (copy, text, n);
  copy[n] = '\0';
  s->strings_used += n + 1;
  return copy;
}

static inline CsSdpFormat *
scratch_add_format (SdpScratch *s)
{
  if (s->formats_len == s->formats_size)
    {
      s->formats_size = MAX (16, s->formats_size * 2);
      s->formats = g_renew (CsSdpFormat, s->formats, s->formats_size);
    }
  return &s->formats[s->formats_len++];
}

typedef struct
{
  CsSdp *sdp;
  SdpScratch *s;
  CsSdpMedia *media;   /* current m= block, NULL at session level */
  gboolean skip_media; /* past CS_SDP_MAX_MEDIA: attributes of dropped blocks are ignored */
  gboolean audio;      /* the current block's media is "audio" */
  /* the last dotted quad read: o= and c= usually name the same address */
  const char *quad_text;
  gsize quad_len;
  guint8 quad[4];
} SdpParser;

/* A piece of a line: the bytes [b, e) */
typedef struct
{
  const char *b, *e;
} SdpSpan;

/* memcmp (p, lit, n) == 0 for a literal of 1 to 16 bytes, as two overlapping word
 * compares folded to constants (gcc calls memcmp for some sizes) */
static inline gboolean
equal_bytes (const char *p, const char *lit, gsize n)
{
  if (n >= 8)
    {
      guint64 a, b, c, d;
      memcpy (&a, p, 8);
      memcpy (&b, lit, 8);
      memcpy (&c, p + n - 8, 8);
      memcpy (&d, lit + n - 8, 8);
      return a == b && c == d;
    }
  if (n >= 4)
    {
      guint32 a, b, c, d;
      memcpy (&a, p, 4);
      memcpy (&b, lit, 4);
      memcpy (&c, p + n - 4, 4);
      memcpy (&d, lit + n - 4, 4);
      return a == b && c == d;
    }
  for (gsize i = 0; i < n; i++)
    if (p[i] != lit[i])
      return FALSE;
  return TRUE;
}
#define EQUAL_LITERAL(p, lit) equal_bytes (p, lit, sizeof (lit) - 1)

/* "audio" as keep_string gives it: a block's media is audio when it is this pointer */
extern const char cs_sdp_audio[];
/* "PCMU", "PCMA", "telephone-event" as keep_string gives them: the interned strings, so
 * that whoever interns an encoding (the stream binder) compares it as a pointer. Set
 * before a thread's first scratch is handed out. */
extern const char *cs_sdp_interned_encodings[3];

/* The n bytes at b as a string of the description: the usual values are literals (they
 * outlive every description and take no room in it), anything else a copy. The result is
 * never written to. */
static inline char *
keep_string (SdpScratch *s, const char *b, gsize n)
{
  switch (n)
    {
    case 1:
      if (b[0] == '-')
        return (char *) "-";
      break;
    case 4:
      if (EQUAL_LITERAL (b, "PCMU"))
        return (char *) cs_sdp_interned_encodings[0];
      if (EQUAL_LITERAL (b, "PCMA"))
        return (char *) cs_sdp_interned_encodings[1];
      break;
    case 5:
      if (EQUAL_LITERAL (b, "audio"))
        return (char *) cs_sdp_audio;
      break;
    case 7:
      if (EQUAL_LITERAL (b, "RTP/AVP"))
        return (char *) "RTP/AVP";
      break;
    case 15:
      if (EQUAL_LITERAL (b, "telephone-event"))
        return (char *) cs_sdp_interned_encodings[2];
      break;
    default:
      break;
    }
  return scratch_strndup (s, b, n);
}

/* Reasons are literals: they outlive every description. */
static inline void
note_malformed (CsSdp *sdp, const char *reason)
{
  if (sdp->malformed == NULL)
    sdp->malformed = (char *) reason;
}

static inline gboolean
is_digit (char c)
{
  return (guint8) (c - '0') < 10;
}

/* where a field ends (as fields are split): space and tab */
static inline gboolean
is_blank (char c)
{
  return c == ' ' || c == '\t';
}

/* g_ascii_isspace: space, \t, \n, \f, \r (not \v) */
static inline gboolean
is_space (char c)
{
  const guint64 spaces
      = (G_GUINT64_CONSTANT (1) << ' ') | (1u << '\t') | (1u << '\n') | (1u << '\f') | (1u << '\r');

  return (guint8) c <= ' ' && ((spaces >> (guint8) c) & 1) != 0;
}

static inline const char *
skip_blanks (const char *p, const char *e)
{
  while (p < e && is_blank (*p))
    p++;
  return p;
}

/* the end of the field starting at p: the next space or tab, or e */
static inline const char *
field_stop (const char *p, const char *e)
{
  while (p < e && !is_blank (*p))
    p++;
  return p;
}

static inline const char *
skip_spaces (const char *p, const char *e)
{
  while (p < e && is_space (*p))
    p++;
  return p;
}

static inline const char *
trim_spaces_end (const char *b, const char *e)
{
  while (e > b && is_space (e[-1]))
    e--;
  return e;
}

/* Decimal digits only (at least one), no sign, no overflow past max. */
static inline gboolean
parse_uint (const char *b, const char *e, guint64 max, guint64 *out)
{
  guint64 v = 0;

  if (b == e)
    return FALSE;
  for (; b < e; b++)
    {
      guint d = (guint8) (*b - '0');
      /* v * 10 + d <= max, without a division per digit */
      if (d > 9 || v > max / 10 || (v == max / 10 && d > max % 10))
        return FALSE;
      v = v * 10 + d;
    }
  *out = v;
  return TRUE;
}

/* Leading integer of [b, e) ("20", "20.5" → 20), FALSE when it does not start with a
 * digit or passes max. */
static inline gboolean
parse_uint_prefix (const char *b, const char *e, guint max, guint *out)
{
  guint64 v = 0;

  if (b == e || !is_digit (*b))
    return FALSE;
  for (; b < e && is_digit (*b); b++)
    {
      v = v * 10 + (guint) (*b - '0');
      if (v > max)
        return FALSE;
    }
  *out = (guint) v;
  return TRUE;
}

/* Splits [p, e) on runs of spaces and tabs into at most max fields; the last field keeps
 * the rest of the line. */
static inline int
split_fields (const char *p, const char *e, SdpSpan *fields, int max)
{
  int n = 0;

  while (n < max)
    {
      p = skip_blanks (p, e);
      if (p == e)
        break;
      fields[n].b = p;
      if (++n == max)
        {
          fields[n - 1].e = e;
          break;
        }
      p = field_stop (p, e);
      fields[n - 1].e = p;
      if (p == e)
        break;
      p++;
    }
  return n;
}

/* The current block's format for a payload type, or NULL (p->media is set). */
static inline CsSdpFormat *
block_format (SdpParser *p, guint pt)
{
  guint index = (guint) (p->media - p->s->media);
  CsSdpFormat *formats = p->s->formats + p->s->first_format[index];

  for (guint i = 0; i < p->s->n_formats[index]; i++)
    if (formats[i].payload_type == pt)
      return &formats[i];
  return NULL;
}

/* What an rtpmap gives its format: the encoding [name, slash), the rate and the channels
 * (0: one for audio, none given otherwise). */
static inline void
set_rtpmap_format (SdpParser *p, CsSdpFormat *format, const char *name, const char *slash,
                   guint rate, guint channels)
{
  if (channels == 0 && p->audio)
    channels = 1;
  format->encoding = keep_string (p->s, name, (gsize) (slash - name));
  format->clock_rate = rate;
  format->channels = channels;
}

/* The first c in [p, e), or e: for the short spans of a line (memchr is a call) */
static inline const char *
find_char (const char *p, const char *e, char c)
{
  while (p < e && *p != c)
    p++;
  return p;
}

typedef enum
{
  ATTR_OTHER,
  ATTR_SENDRECV,
  ATTR_SENDONLY,
  ATTR_RECVONLY,
  ATTR_INACTIVE,
  ATTR_RTCP_MUX,
  ATTR_RTPMAP,
  ATTR_FMTP,
  ATTR_PTIME,
  ATTR_MAXPTIME,
  ATTR_RTCP,
  ATTR_CRYPTO,
} SdpAttribute;

/* The attributes we read, by exact (case-sensitive) name: by length, then fixed-size
 * compares (len bytes are readable at name). */
static inline SdpAttribute
attribute_of (const char *name, gsize len)
{
#define IS(lit) EQUAL_LITERAL (name, lit)
  switch (len)
    {
    case 4:
      return IS ("fmtp") ? ATTR_FMTP : IS ("rtcp") ? ATTR_RTCP : ATTR_OTHER;
    case 5:
      return IS ("ptime") ? ATTR_PTIME : ATTR_OTHER;
    case 6:
      return IS ("rtpmap") ? ATTR_RTPMAP : IS ("crypto") ? ATTR_CRYPTO : ATTR_OTHER;
    case 8:
      {
        if (EQUAL_LITERAL (name, "sendrecv"))
          return ATTR_SENDRECV;
        if (EQUAL_LITERAL (name, "sendonly"))
          return ATTR_SENDONLY;
        if (EQUAL_LITERAL (name, "recvonly"))
          return ATTR_RECVONLY;
        if (EQUAL_LITERAL (name, "inactive"))
          return ATTR_INACTIVE;
        if (EQUAL_LITERAL (name, "rtcp-mux"))
          return ATTR_RTCP_MUX;
        if (EQUAL_LITERAL (name, "maxptime"))
          return ATTR_MAXPTIME;
        return ATTR_OTHER;
      }
    default:
      return ATTR_OTHER;
    }
#undef IS
}

/* Any other spelling (cs-sdp-attributes.c): an a= line, an rtpmap value, what an
 * attribute says given its value (NULL: the line has no ':') */
void cs_sdp_read_attribute (SdpParser *p, const char *b, const char *e);
void cs_sdp_read_rtpmap (SdpParser *p, const char *b, const char *e);
void cs_sdp_apply_attribute (SdpParser *p, SdpAttribute attribute, const char *value,
                             const char *e);

G_END_DECLS
