/* cs-sdp.c — SDP (RFC 4566) session descriptions, parsed leniently
 *
 * One pass over the bytes: each line is read where it lies, as a span [b, e) with its
 * end known, so nothing is copied but the strings a description keeps. */
#include "cs-sdp.h"

#include "cs-error.h"
#include "cs-sip-headers.h"
#include "cs-sip-message-private.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

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

typedef struct
{
  CsSdp *sdp;
  SdpScratch *s;
  CsSdpMedia *media;   /* current m= block, NULL at session level */
  gboolean skip_media; /* past CS_SDP_MAX_MEDIA: attributes of dropped blocks are ignored */
  gboolean audio;      /* the current block's media is "audio" */
} SdpParser;

/* A piece of a line: the bytes [b, e) */
typedef struct
{
  const char *b, *e;
} SdpSpan;

static void
scratch_free (gpointer data)
{
  SdpScratch *s = data;

  g_free (s->formats);
  g_free (s->strings);
  g_free (s);
}

static GPrivate scratch_key = G_PRIVATE_INIT (scratch_free);
/* the same pointer without g_private_get's call; the GPrivate frees it at thread end */
static _Thread_local SdpScratch *thread_scratch;

/* a thread keeps at most this much string scratch between descriptions */
#define STRINGS_KEEP (64 * 1024)

/* Room for strings_room bytes of strings: every string is a piece of one line of the
 * text plus a NUL, at most two per line, so twice the text's length is enough and they
 * never move; 16 more for the 16-byte copies of short strings. */
static SdpScratch *
scratch_get (gsize strings_room)
{
  SdpScratch *s = thread_scratch;

  if (G_UNLIKELY (s == NULL))
    {
      s = g_new0 (SdpScratch, 1);
      g_private_set (&scratch_key, s);
      thread_scratch = s;
    }
  strings_room += 16;
  if (s->strings_size < strings_room || s->strings_size > MAX (STRINGS_KEEP, strings_room))
    {
      g_free (s->strings);
      s->strings_size = MAX (strings_room, 1024);
      s->strings = g_malloc (s->strings_size);
    }
  s->n_media = 0;
  s->formats_len = 0;
  s->strings_used = 0;
  return s;
}

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
static const char audio_literal[] = "audio";

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
        return (char *) "PCMU";
      if (EQUAL_LITERAL (b, "PCMA"))
        return (char *) "PCMA";
      break;
    case 5:
      if (EQUAL_LITERAL (b, "audio"))
        return (char *) audio_literal;
      break;
    case 7:
      if (EQUAL_LITERAL (b, "RTP/AVP"))
        return (char *) "RTP/AVP";
      break;
    case 15:
      if (EQUAL_LITERAL (b, "telephone-event"))
        return (char *) "telephone-event";
      break;
    default:
      break;
    }
  return scratch_strndup (s, b, n);
}

static CsSdpFormat *
scratch_add_format (SdpScratch *s)
{
  if (s->formats_len == s->formats_size)
    {
      s->formats_size = MAX (16, s->formats_size * 2);
      s->formats = g_renew (CsSdpFormat, s->formats, s->formats_size);
    }
  return &s->formats[s->formats_len++];
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
static gboolean
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
static gboolean
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
static int
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

void
cs_sdp_free (CsSdp *sdp)
{
  g_free (sdp); /* one allocation, see sdp_freeze */
}

/* A dotted quad filling [b, e) exactly as inet_pton (AF_INET) reads one: four decimal
 * octets <= 255 without leading zeros. FALSE for anything else. */
static inline gboolean
parse_quad (const char *b, const char *e, guint8 bytes[4])
{
  const char *p = b;

  for (int i = 0; i < 4; i++)
    {
      if (p == e || !is_digit (*p))
        return FALSE;
      guint v = (guint) (*p++ - '0');
      if (p < e && is_digit (*p))
        {
          if (v == 0)
            return FALSE; /* a leading zero */
          v = v * 10 + (guint) (*p++ - '0');
          if (p < e && is_digit (*p))
            {
              v = v * 10 + (guint) (*p++ - '0');
              if (v > 255)
                return FALSE;
            }
        }
      /* a fourth digit fails here too */
      if (i < 3 ? p == e || *p++ != '.' : p != e)
        return FALSE;
      bytes[i] = (guint8) v;
    }
  return TRUE;
}

/* cs_addr_parse of [b, e) with the usual dotted quad read by hand (inet_pton costs ~250
 * instructions); anything else goes to cs_addr_parse. */
static void
parse_address (CsAddr *into, const char *b, const char *e)
{
  guint8 bytes[4];

  if (G_LIKELY (parse_quad (b, e, bytes)))
    {
      /* cs_addr_set_v4 without the call */
      *into = (CsAddr){ .family = 4 };
      memcpy (into->bytes, bytes, 4);
      return;
    }

  gsize n = (gsize) (e - b);
  char text[64];

  if (n < sizeof text)
    {
      memcpy (text, b, n);
      text[n] = '\0';
      cs_addr_parse (into, text);
    }
  else
    {
      g_autofree char *copy = g_strndup (b, n);
      cs_addr_parse (into, copy);
    }
}

/* A field of 1 to 19 digits (no overflow) followed by one space: its value, *p moved past
 * the space; FALSE otherwise. */
static inline gboolean
digits_then_space (const char **p, const char *e, guint64 *out)
{
  const char *q = *p;
  guint64 v = 0;

  while (q < e && is_digit (*q))
    {
      v = v * 10 + (guint) (*q++ - '0');
      if (q - *p > 19)
        return FALSE;
    }
  if (q == *p || q == e || *q != ' ')
    return FALSE;
  *out = v;
  *p = q + 1;
  return TRUE;
}

/* A field (no space or tab) and one space after it: *p moved past the space. */
static inline gboolean
token_then_space (const char **p, const char *e)
{
  const char *q = field_stop (*p, e);

  if (q == *p || q == e || *q != ' ')
    return FALSE;
  *p = q + 1;
  return TRUE;
}

/* The usual o= line, "user id version nettype addrtype address" with single spaces and
 * numeric ids: what parse_origin makes of it. FALSE (nothing done) for any other line. */
static gboolean
parse_origin_usual (SdpParser *p, const char *b, const char *e)
{
  const char *q = b;
  guint64 id, version;

  if (!token_then_space (&q, e))
    return FALSE;
  gsize user_len = (gsize) (q - 1 - b);
  if (!digits_then_space (&q, e, &id) || !digits_then_space (&q, e, &version))
    return FALSE;
  if (e - q > 7 && EQUAL_LITERAL (q, "IN IP4 "))
    q += 7; /* the usual two fields */
  else if (!token_then_space (&q, e) || !token_then_space (&q, e))
    return FALSE;
  /* the address is the rest of the line, already without trailing white space */
  if (q == e || is_space (*q))
    return FALSE;
  p->sdp->origin_username = keep_string (p->s, b, user_len);
  p->sdp->session_id = id;
  p->sdp->session_version = version;
  guint8 bytes[4];
  if (parse_quad (q, e, bytes))
    {
      p->sdp->origin_address = (CsAddr){ .family = 4 };
      memcpy (p->sdp->origin_address.bytes, bytes, 4);
    }
  else
    parse_address (&p->sdp->origin_address, q, e);
  return TRUE;
}

static void
parse_origin (SdpParser *p, const char *b, const char *e)
{
  CsSdp *sdp = p->sdp;

  if (sdp->origin_username != NULL || parse_origin_usual (p, b, e))
    return;

  SdpSpan f[6];
  int n = split_fields (b, e, f, 6);
  if (n < 6)
    {
      note_malformed (sdp, "bad o= line");
      if (n >= 1)
        sdp->origin_username = keep_string (p->s, f[0].b, (gsize) (f[0].e - f[0].b));
      return;
    }
  sdp->origin_username = keep_string (p->s, f[0].b, (gsize) (f[0].e - f[0].b));
  if (!parse_uint (f[1].b, f[1].e, G_MAXUINT64, &sdp->session_id)
      || !parse_uint (f[2].b, f[2].e, G_MAXUINT64, &sdp->session_version))
    note_malformed (sdp, "bad o= line");
  const char *address = skip_spaces (f[5].b, f[5].e);
  parse_address (&sdp->origin_address, address, trim_spaces_end (address, f[5].e));
}

/* "IN" in any case: (c | 0x20) folds only 'I'/'i' to 'i' and 'N'/'n' to 'n' */
static inline gboolean
is_in (const char *b)
{
  return (b[0] | 0x20) == 'i' && (b[1] | 0x20) == 'n';
}

/* The usual c= line, "IN nettype address" with single spaces and no "/ttl": what
 * parse_connection makes of it; FALSE (nothing done) otherwise. */
static gboolean
parse_connection_usual (CsAddr *into, const char *b, const char *e)
{
  const char *q = b + 3;
  guint8 bytes[4];

  /* "IN IP4 " and a dotted quad (which has no '/') */
  if (e - b > 7 && EQUAL_LITERAL (b, "IN IP4 ") && parse_quad (b + 7, e, bytes))
    {
      *into = (CsAddr){ .family = 4 };
      memcpy (into->bytes, bytes, 4);
      return TRUE;
    }
  if (e - b < 3 || !is_in (b) || b[2] != ' ' || !token_then_space (&q, e) || q == e || is_space (*q)
      || memchr (q, '/', (gsize) (e - q)) != NULL)
    return FALSE;
  parse_address (into, q, e);
  return TRUE;
}

static void
parse_connection (CsSdp *sdp, CsAddr *into, const char *b, const char *e)
{
  if (parse_connection_usual (into, b, e))
    return;

  SdpSpan f[3];
  int n = split_fields (b, e, f, 3);

  if (n < 3 || f[0].e - f[0].b != 2 || !is_in (f[0].b))
    {
      note_malformed (sdp, "bad c= line");
      return;
    }
  const char *slash = memchr (f[2].b, '/', (gsize) (f[2].e - f[2].b));
  const char *address = skip_spaces (f[2].b, slash != NULL ? slash : f[2].e);
  /* an FQDN is legal here; it simply leaves the family unset */
  parse_address (into, address, trim_spaces_end (address, slash != NULL ? slash : f[2].e));
}

/* "RTP" inside [b, e): protos are short */
static gboolean
contains_rtp (const char *b, const char *e)
{
  for (const char *q = b; e - q >= 3; q++)
    if (q[0] == 'R' && q[1] == 'T' && q[2] == 'P')
      return TRUE;
  return FALSE;
}

/* The fields of an m= line before its formats, as split_fields reads them; the start of
 * the proto (the line's third field), NULL when there is none. */
static const char *
parse_media_fields (SdpParser *p, CsSdpMedia *media, const char *b, const char *e)
{
  SdpSpan f[3];
  guint64 port = 0, n_ports = 1;
  int n = split_fields (b, e, f, 3);

  media->media = n >= 1 ? keep_string (p->s, f[0].b, (gsize) (f[0].e - f[0].b)) : (char *) "";
  p->audio = media->media == audio_literal;
  if (n < 3)
    {
      note_malformed (p->sdp, "bad m= line");
      return NULL;
    }
  const char *slash = memchr (f[1].b, '/', (gsize) (f[1].e - f[1].b));
  if (!parse_uint (f[1].b, slash != NULL ? slash : f[1].e, G_MAXUINT16, &port)
      || (slash != NULL && !parse_uint (slash + 1, f[1].e, G_MAXUINT16, &n_ports)))
    note_malformed (p->sdp, "bad m= port");
  media->port = (guint16) port;
  media->n_ports = (guint) n_ports;
  return f[2].b;
}

/* The usual "audio PORT " (single spaces, a port without "/n"): parse_media_fields' result
 * without splitting; NULL (nothing done) otherwise. */
static inline const char *
parse_media_fields_usual (SdpParser *p, CsSdpMedia *media, const char *b, const char *e)
{
  const char *q = b + 6;
  guint port = 0;

  if (e - b < 8 || !EQUAL_LITERAL (b, "audio ") || !is_digit (*q))
    return NULL;
  for (; q < e && is_digit (*q); q++)
    {
      port = port * 10 + (guint) (*q - '0');
      if (port > G_MAXUINT16)
        return NULL;
    }
  if (e - q < 2 || *q != ' ' || is_blank (q[1]))
    return NULL;
  media->media = (char *) audio_literal;
  p->audio = TRUE;
  media->port = (guint16) port;
  return q + 1;
}

static void
parse_media (SdpParser *p, const char *b, const char *e)
{
  CsSdp *sdp = p->sdp;

  if (p->s->n_media >= CS_SDP_MAX_MEDIA)
    {
      note_malformed (sdp, "too many m= lines");
      p->media = NULL;
      p->skip_media = TRUE;
      return;
    }
  p->skip_media = FALSE;

  SdpScratch *s = p->s;
  guint index = s->n_media++;
  CsSdpMedia *media = &s->media[index];
  memset (media, 0, sizeof *media);
  s->first_format[index] = s->formats_len;
  s->n_formats[index] = 0;
  media->connection = sdp->connection;
  media->direction = sdp->direction;
  media->n_ports = 1;
  p->media = media;

  const char *proto = parse_media_fields_usual (p, media, b, e);
  if (proto == NULL && (proto = parse_media_fields (p, media, b, e)) == NULL)
    return;

  /* proto is "proto fmt fmt …" */
  const char *proto_end;
  gboolean is_rtp;
  if (e - proto >= 7 && EQUAL_LITERAL (proto, "RTP/AVP") && (e - proto == 7 || is_blank (proto[7])))
    {
      proto_end = proto + 7;
      media->proto = (char *) "RTP/AVP";
      is_rtp = TRUE;
    }
  else
    {
      proto_end = field_stop (proto, e);
      media->proto = keep_string (s, proto, (gsize) (proto_end - proto));
      is_rtp = contains_rtp (proto, proto_end);
    }

  /* the formats: fields between runs of spaces and tabs, payload types when they are
   * digits only up to 127 */
  for (const char *q = proto_end;;)
    {
      q = skip_blanks (q, e);
      if (q == e)
        break;
      guint pt = 0;
      while (q < e && is_digit (*q) && pt <= 127)
        pt = pt * 10 + (guint) (*q++ - '0');
      if (pt > 127 || (q < e && !is_blank (*q)))
        {
          /* udptl "t38" and friends are not payload types; only RTP needs numbers */
          q = field_stop (q, e);
          if (is_rtp)
            note_malformed (sdp, "bad format in m= line");
          continue;
        }
      if (s->n_formats[index] >= CS_SDP_MAX_FORMATS)
        {
          note_malformed (sdp, "too many formats in m= line");
          break;
        }
      CsSdpFormat *format = scratch_add_format (s);
      *format = (CsSdpFormat){ .payload_type = (guint8) pt };
      s->n_formats[index]++;
    }
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

/* The current block's format for a payload type written as [b, e), or NULL. */
static CsSdpFormat *
find_format (SdpParser *p, const char *b, const char *e)
{
  guint64 pt;

  if (p->media == NULL || !parse_uint (b, e, 127, &pt))
    return NULL;
  return block_format (p, (guint) pt);
}

/* The first c in [p, e), or e: for the short spans of a line (memchr is a call) */
static inline const char *
find_char (const char *p, const char *e, char c)
{
  while (p < e && *p != c)
    p++;
  return p;
}

/* find_char for '/', 16 bytes at a time where the text has them */
static inline const char *
find_slash (const char *p, const char *e, const char *text_end)
{
#ifdef __SSE2__
  while (text_end - p >= 16 && p < e)
    {
      __m128i v = _mm_loadu_si128 ((const __m128i *) (const void *) p);
      guint mask = (guint) _mm_movemask_epi8 (_mm_cmpeq_epi8 (v, _mm_set1_epi8 ('/')));
      if (e - p < 16)
        mask &= (1u << (e - p)) - 1;
      if (mask != 0)
        return p + __builtin_ctz (mask);
      if (e - p <= 16)
        return e;
      p += 16;
    }
#else
  (void) text_end;
#endif
  return find_char (p, e, '/');
}

/* The usual rtpmap value, "PT ENC/RATE" or "PT ENC/RATE/CHANNELS" with single spaces, a
 * payload type of at most 3 digits and a rate that fits: what parse_rtpmap makes of it.
 * FALSE (nothing done) otherwise. */
static inline gboolean
parse_rtpmap_usual (SdpParser *p, const char *b, const char *e)
{
  const char *q = b;
  guint pt = 0, rate = 0, channels = 0;

  while (q < e && is_digit (*q) && q - b < 3)
    pt = pt * 10 + (guint) (*q++ - '0');
  if (q == b || pt > 127 || e - q < 2 || *q != ' ' || is_space (q[1]))
    return FALSE;
  CsSdpFormat *format = block_format (p, pt);
  if (format == NULL)
    return TRUE; /* a payload type the block does not list */
  const char *name = q + 1;
  const char *slash = find_slash (name, e, p->s->text_end);
  if (slash == e || slash == name)
    return FALSE;
  for (q = slash + 1; q < e && is_digit (*q); q++)
    {
      rate = rate * 10 + (guint) (*q - '0');
      if (rate > G_MAXUINT32 / 10)
        return FALSE;
    }
  if (q == slash + 1 || (q < e && *q != '/'))
    return FALSE;
  if (q < e && !parse_uint_prefix (q + 1, e, 255, &channels))
    note_malformed (p->sdp, "bad rtpmap");
  if (channels == 0 && p->audio)
    channels = 1;
  format->encoding = keep_string (p->s, name, (gsize) (slash - name));
  format->clock_rate = rate;
  format->channels = channels;
  return TRUE;
}

static void
parse_rtpmap (SdpParser *p, const char *b, const char *e)
{
  if (parse_rtpmap_usual (p, b, e))
    return;

  /* split_fields (b, e, f, 2) without the array: the payload type and the rest */
  const char *pt_text = skip_blanks (b, e);
  const char *pt_end = field_stop (pt_text, e);
  const char *rest = pt_end < e ? skip_blanks (pt_end + 1, e) : e;

  if (pt_text == e || rest == e)
    {
      note_malformed (p->sdp, "bad rtpmap");
      return;
    }
  CsSdpFormat *format = find_format (p, pt_text, pt_end);
  if (format == NULL)
    {
      if (p->media != NULL && !parse_uint (pt_text, pt_end, 127, &(guint64){ 0 }))
        note_malformed (p->sdp, "bad rtpmap");
      return;
    }
  /* "encoding/rate[/channels…]": the third part keeps any further '/' */
  const char *name = skip_spaces (rest, e);
  const char *slash = find_char (name, e, '/');
  guint rate = 0, channels = 0;
  if (slash == e || slash == name)
    note_malformed (p->sdp, "bad rtpmap");
  if (slash < e)
    {
      /* the rate's digits stop at a second '/' */
      if (slash != name && !parse_uint_prefix (slash + 1, e, G_MAXUINT32 / 10, &rate))
        note_malformed (p->sdp, "bad rtpmap");
      const char *slash2 = find_char (slash + 1, e, '/');
      if (slash2 < e && !parse_uint_prefix (slash2 + 1, e, 255, &channels))
        note_malformed (p->sdp, "bad rtpmap");
    }
  if (channels == 0 && p->audio)
    channels = 1;
  format->encoding = keep_string (p->s, name, (gsize) (slash - name));
  format->clock_rate = rate;
  format->channels = channels;
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
      return IS ("rtpmap") ? ATTR_RTPMAP : ATTR_OTHER;
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

/* What an attribute line says, given its value (NULL: the line has no ':') */
static void apply_attribute (SdpParser *p, SdpAttribute attribute, const char *value,
                             const char *e);

static void
parse_attribute (SdpParser *p, const char *b, const char *e)
{
  const char *name = b, *name_end = b;
  gsize n = (gsize) (e - b);

  /* the usual names, right up to the ':' or the end: no trimming to do */
  if (n >= 7 && EQUAL_LITERAL (b, "rtpmap:"))
    {
      if (p->media != NULL)
        parse_rtpmap (p, b + 7, e);
      return;
    }
  if (n >= 8 && (n == 8 || b[8] == ':'))
    {
      SdpAttribute attribute = attribute_of (b, 8);
      if (attribute != ATTR_OTHER)
        {
          apply_attribute (p, attribute, n > 8 ? b + 9 : NULL, e);
          return;
        }
    }
  if (n >= 6 && EQUAL_LITERAL (b, "ptime:"))
    {
      apply_attribute (p, ATTR_PTIME, b + 6, e);
      return;
    }

  /* the name: up to the first ':', without surrounding white space; the usual one is
   * lowercase letters and '-' right up to the ':' or the end, with nothing to trim */
  while (name_end < e && ((*name_end >= 'a' && *name_end <= 'z') || *name_end == '-'))
    name_end++;
  if (name_end < e && *name_end != ':')
    {
      const char *colon = memchr (name_end, ':', (gsize) (e - name_end));
      name_end = colon != NULL ? colon : e;
    }
  const char *value = name_end < e ? name_end + 1 : NULL;
  name = skip_spaces (name, name_end);
  name_end = trim_spaces_end (name, name_end);
  apply_attribute (p, attribute_of (name, (gsize) (name_end - name)), value, e);
}

static void
apply_attribute (SdpParser *p, SdpAttribute attribute, const char *value, const char *e)
{
  CsSdpDirection *direction = p->media != NULL ? &p->media->direction : &p->sdp->direction;

  if (attribute == ATTR_SENDRECV)
    *direction = CS_SDP_SENDRECV;
  else if (attribute == ATTR_SENDONLY)
    *direction = CS_SDP_SENDONLY;
  else if (attribute == ATTR_RECVONLY)
    *direction = CS_SDP_RECVONLY;
  else if (attribute == ATTR_INACTIVE)
    *direction = CS_SDP_INACTIVE;
  else if (p->media == NULL)
    return; /* other session-level attributes carry nothing we keep */
  else if (attribute == ATTR_RTCP_MUX)
    p->media->rtcp_mux = TRUE;
  else if (value == NULL)
    return;
  else if (attribute == ATTR_RTPMAP)
    parse_rtpmap (p, value, e);
  else if (attribute == ATTR_FMTP)
    {
      SdpSpan f[2];
      if (split_fields (value, e, f, 2) == 2)
        {
          CsSdpFormat *format = find_format (p, f[0].b, f[0].e);
          if (format != NULL && format->fmtp == NULL)
            {
              const char *fmtp = skip_spaces (f[1].b, e);
              format->fmtp = scratch_strndup (p->s, fmtp, (gsize) (e - fmtp));
            }
        }
    }
  else if (attribute == ATTR_PTIME)
    {
      if (!parse_uint_prefix (skip_spaces (value, e), e, 100000, &p->media->ptime))
        note_malformed (p->sdp, "bad ptime");
    }
  else if (attribute == ATTR_MAXPTIME)
    {
      if (!parse_uint_prefix (skip_spaces (value, e), e, 100000, &p->media->maxptime))
        note_malformed (p->sdp, "bad maxptime");
    }
  else if (attribute == ATTR_RTCP)
    {
      SdpSpan f[2];
      guint64 port;
      if (split_fields (value, e, f, 2) >= 1 && parse_uint (f[0].b, f[0].e, G_MAXUINT16, &port))
        p->media->rtcp_port = (guint16) port;
      else
        note_malformed (p->sdp, "bad rtcp attribute");
    }
}

static char *
relocate (char *p, const SdpScratch *s, char *to)
{
  if (p != NULL && p >= s->strings && p < s->strings + s->strings_used)
    return to + (p - s->strings);
  return p;
}

/* One block: the CsSdp, the media view (GPtrArray's public part, then pdata), the
 * blocks, their format views (GArray's public part), the formats, then the strings. */
static gsize
sdp_frozen_size (const SdpScratch *s)
{
  guint n = s->n_media;

  return sizeof (CsSdp) + sizeof (GPtrArray) + n * sizeof (gpointer)
         + n * (sizeof (CsSdpMedia) + sizeof (GArray)) + s->formats_len * sizeof (CsSdpFormat)
         + s->strings_used;
}

static CsSdp *
sdp_freeze (const CsSdp *parsed, const SdpScratch *s, void *block)
{
  guint n = s->n_media, n_formats = s->formats_len;
  CsSdp *sdp = block;
  GPtrArray *media_view = (GPtrArray *) (sdp + 1);
  CsSdpMedia *media = (CsSdpMedia *) ((gpointer *) (media_view + 1) + n);
  GArray *format_views = (GArray *) (media + n);
  CsSdpFormat *formats = (CsSdpFormat *) (format_views + n);
  char *strings = (char *) (formats + n_formats);

  G_STATIC_ASSERT (sizeof (CsSdp) % 8 == 0 && sizeof (CsSdpMedia) % 8 == 0);
  G_STATIC_ASSERT (sizeof (CsSdpFormat) % 8 == 0 && sizeof (GArray) % 8 == 0);
  G_STATIC_ASSERT (sizeof (GPtrArray) % 8 == 0);
  *sdp = *parsed;
  memcpy (strings, s->strings, s->strings_used);
  sdp->origin_username = relocate (sdp->origin_username, s, strings);
  sdp->session_name = relocate (sdp->session_name, s, strings);
  sdp->media = media_view;
  media_view->pdata = (gpointer *) (media_view + 1);
  media_view->len = n;
  for (guint i = 0; i < n_formats; i++)
    {
      formats[i] = s->formats[i];
      formats[i].encoding = relocate (formats[i].encoding, s, strings);
      formats[i].fmtp = relocate (formats[i].fmtp, s, strings);
    }
  for (guint i = 0; i < n; i++)
    {
      media[i] = s->media[i];
      media[i].media = relocate (media[i].media, s, strings);
      media[i].proto = relocate (media[i].proto, s, strings);
      format_views[i].data = (gchar *) (formats + s->first_format[i]);
      format_views[i].len = s->n_formats[i];
      media[i].formats = &format_views[i];
      media_view->pdata[i] = &media[i];
    }
  return sdp;
}

/* Where the lines end: '\n' found 64 bytes at a time as a bitmap, every byte read also
 * checked for being plain (no NUL, nothing >= 0x80). All reads stay inside the text,
 * which is at least LINES_MIN bytes long. */
#ifdef __SSE2__
#define LINES_MIN 64
typedef struct
{
  const char *window; /* the 64 bytes the bitmap covers */
  const char *end;
  guint64 newlines; /* '\n' not yet taken in the window, bit i for window[i] */
  __m128i seen;     /* ORed bytes, a NUL as 0xff: a sign bit set means not plain */
} SdpLines;

static inline guint64
newline_bits (SdpLines *l, const char *at)
{
  const __m128i newline = _mm_set1_epi8 ('\n'), nul = _mm_setzero_si128 ();
  guint64 bits = 0;

  for (int i = 0; i < 4; i++)
    {
      __m128i v = _mm_loadu_si128 ((const __m128i *) (const void *) (at + 16 * i));
      l->seen = _mm_or_si128 (l->seen, _mm_or_si128 (v, _mm_cmpeq_epi8 (v, nul)));
      bits |= (guint64) (guint) _mm_movemask_epi8 (_mm_cmpeq_epi8 (v, newline)) << (16 * i);
    }
  return bits;
}

/* The bitmap of the window at l->window: its last one ends at the text's end (the text's
 * last 64 bytes, shifted) */
static inline void
lines_load (SdpLines *l)
{
  gsize left = (gsize) (l->end - l->window);

  l->newlines
      = left >= 64 ? newline_bits (l, l->window) : newline_bits (l, l->end - 64) >> (64 - left);
}

static inline void
lines_init (SdpLines *l, const char *text, const char *end)
{
  l->window = text;
  l->end = end;
  l->seen = _mm_setzero_si128 ();
  lines_load (l);
}

/* The next '\n' after the last one taken, or end */
static inline const char *
lines_next (SdpLines *l)
{
  while (l->newlines == 0)
    {
      if (l->end - l->window <= 64)
        return l->end;
      l->window += 64;
      lines_load (l);
    }
  const char *newline = l->window + __builtin_ctzll (l->newlines);
  l->newlines &= l->newlines - 1;
  return newline;
}

static inline gboolean
lines_plain (const SdpLines *l)
{
  return _mm_movemask_epi8 (l->seen) == 0;
}
#else
#define LINES_MIN 0
typedef struct
{
  const char *next, *end;
} SdpLines;

static inline void
lines_init (SdpLines *l, const char *text, const char *end)
{
  l->next = text;
  l->end = end;
}

static inline const char *
lines_next (SdpLines *l)
{
  const char *newline = memchr (l->next, '\n', (gsize) (l->end - l->next));

  newline = newline != NULL ? newline : l->end;
  l->next = newline + 1;
  return newline;
}

static inline gboolean
lines_plain (const SdpLines *l)
{
  (void) l; /* checked before the lines are read */
  return TRUE;
}
#endif

/* Reads the lines of [text, end) into p; FALSE when plain is unknown (check_plain) and a
 * NUL or a byte >= 0x80 turned up: the text then needs the repaired copy. */
static gboolean
parse_lines (SdpParser *p, const char *text, const char *end, gboolean check_plain,
             gboolean *has_version)
{
  gboolean seen_version = FALSE; /* a local: no store per line */
  SdpLines lines;

#ifndef __SSE2__
  if (check_plain && !cs_sip_text_is_plain (text, (gsize) (end - text)))
    return FALSE;
#endif
  lines_init (&lines, text, end);
  for (const char *line = text; line < end;)
    {
      const char *newline = lines_next (&lines);
      const char *next = newline < end ? newline + 1 : end;
      const char *e = newline;

      /* without its trailing white space: the usual is one '\r' */
      if (e > line && e[-1] == '\r')
        e--;
      if (G_UNLIKELY (e > line && is_space (e[-1])))
        e = trim_spaces_end (line, e);
      /* a letter and '=', or an empty line */
      if (G_UNLIKELY (e - line < 2 || line[1] != '=' || (guint8) ((line[0] | 0x20) - 'a') >= 26))
        {
          if (e != line)
            note_malformed (p->sdp, "bad line");
          line = next;
          continue;
        }
      char type = line[0];
      const char *value = line + 2;

      if (G_UNLIKELY (!seen_version) && type != 'v')
        note_malformed (p->sdp, "v= is not the first line");
      /* the lines of a dropped m= block are skipped, up to the next m= */
      if (G_UNLIKELY (p->skip_media) && type != 'm' && type != 'v')
        {
          line = next;
          continue;
        }
      switch (type)
        {
        case 'v':
          {
            const char *version = skip_spaces (value, e);
            if (e - version != 1 || *version != '0')
              note_malformed (p->sdp, "bad v= line");
            else if (seen_version)
              note_malformed (p->sdp, "repeated v= line");
            seen_version = TRUE;
          }
          break;
        case 'a':
          parse_attribute (p, value, e);
          break;
        case 'm':
          parse_media (p, value, e);
          break;
        case 'o':
          parse_origin (p, value, e);
          break;
        case 's':
          if (p->media == NULL && p->sdp->session_name == NULL)
            {
              const char *name = skip_spaces (value, e);
              p->sdp->session_name = keep_string (p->s, name, (gsize) (e - name));
            }
          break;
        case 'c':
          parse_connection (p->sdp, p->media != NULL ? &p->media->connection : &p->sdp->connection,
                            value, e);
          break;
        default:
          break;
        }
      line = next;
    }
  *has_version = seen_version;
  return !check_plain || lines_plain (&lines);
}

/* Parses [text, text + len) (no NUL in it when !check_plain) into the thread's scratch
 * and *parsed; FALSE as parse_lines. */
static gboolean
parse_text (const char *text, gsize len, gboolean check_plain, CsSdp *parsed, gboolean *has_version)
{
  SdpParser p = { 0 };
  char padded[LINES_MIN + 1];

  *parsed = (CsSdp){ 0 };
  p.sdp = parsed;
  p.sdp->direction = CS_SDP_SENDRECV;
  p.s = scratch_get (2 * len + 64);
  /* the line scanner reads whole windows: a short text goes at the end of one */
  if (len < LINES_MIN)
    {
      memset (padded, 'x', LINES_MIN - len);
      text = memcpy (padded + LINES_MIN - len, text, len);
    }
  p.s->text_end = text + len;
  return parse_lines (&p, text, text + len, check_plain, has_version);
}

/* Parses into the thread's scratch and *parsed; FALSE when there is no v= line. */
static gboolean
sdp_parse_pending (const char *text, gsize len, CsSdp *parsed)
{
  gboolean has_version = FALSE;

  if (text == NULL || len == 0)
    {
      *parsed = (CsSdp){ 0 };
      parsed->direction = CS_SDP_SENDRECV;
      return FALSE;
    }
  /* plain text (the usual) is read where it lies; otherwise a copy without NULs and with
   * valid UTF-8 */
  if (!parse_text (text, len, TRUE, parsed, &has_version))
    {
      g_autofree char *copy = cs_sip_dup_text (text, len);

      parse_text (copy, strlen (copy), FALSE, parsed, &has_version);
    }
  return has_version;
}

gsize
cs_sdp_parse_pending (const char *text, gsize len, CsSdp *parsed)
{
  if (!sdp_parse_pending (text, len, parsed))
    return 0;
  return sdp_frozen_size (thread_scratch);
}

CsSdp *
cs_sdp_freeze_to (const CsSdp *parsed, void *block)
{
  return sdp_freeze (parsed, thread_scratch, block);
}

CsSdp *
cs_sdp_parse (const char *text, gsize len, GError **error)
{
  CsSdp parsed;
  gsize size = cs_sdp_parse_pending (text, len, &parsed);

  if (size == 0)
    {
      g_set_error_literal (error, CS_SDP_ERROR, CS_SDP_ERROR_MALFORMED, "not SDP: no v= line");
      return NULL;
    }
  return cs_sdp_freeze_to (&parsed, g_malloc (size));
}

const char *
cs_sdp_direction_to_string (CsSdpDirection dir)
{
  switch (dir)
    {
    case CS_SDP_SENDRECV:
      return "sendrecv";
    case CS_SDP_SENDONLY:
      return "sendonly";
    case CS_SDP_RECVONLY:
      return "recvonly";
    case CS_SDP_INACTIVE:
      return "inactive";
    default:
      return "unknown";
    }
}

const CsSdpFormat *
cs_sdp_media_find_format (const CsSdpMedia *media, guint8 payload_type)
{
  if (media == NULL || media->formats == NULL)
    return NULL;
  for (guint i = 0; i < media->formats->len; i++)
    {
      const CsSdpFormat *format = &g_array_index (media->formats, CsSdpFormat, i);
      if (format->payload_type == payload_type)
        return format;
    }
  return NULL;
}

gboolean
cs_sdp_media_is_hold (const CsSdpMedia *media)
{
  static const guint8 zeros[16] = { 0 };

  if (media == NULL)
    return FALSE;
  if (media->direction == CS_SDP_SENDONLY || media->direction == CS_SDP_INACTIVE)
    return TRUE;
  return media->connection.family != 0
         && memcmp (media->connection.bytes, zeros, sizeof zeros) == 0;
}
