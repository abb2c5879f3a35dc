/* cs-sdp.c — SDP (RFC 4566) session descriptions, parsed leniently
 *
 * One pass over the bytes: each line is read where it lies, as a span [b, e) with its
 * end known, so nothing is copied but the strings a description keeps. */
#include "cs-sdp-private.h"

#include "cs-sip-headers.h"
#include "cs-sip-message-private.h"

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

/* parse_quad, through the last quad p read when the text is the same (7 to 15 bytes:
 * compared as two overlapping words) */
static inline gboolean
read_quad (SdpParser *p, const char *b, const char *e, guint8 bytes[4])
{
  gsize n = (gsize) (e - b);

  if (n == p->quad_len)
    {
      const char *q = p->quad_text;
      gboolean same;
      if (n >= 8)
        {
          guint64 x, y, z, w;
          memcpy (&x, b, 8);
          memcpy (&y, q, 8);
          memcpy (&z, e - 8, 8);
          memcpy (&w, q + n - 8, 8);
          same = x == y && z == w;
        }
      else
        {
          guint32 x, y, z, w;
          memcpy (&x, b, 4);
          memcpy (&y, q, 4);
          memcpy (&z, e - 4, 4);
          memcpy (&w, q + n - 4, 4);
          same = x == y && z == w;
        }
      if (same)
        {
          memcpy (bytes, p->quad, 4);
          return TRUE;
        }
    }
  if (!parse_quad (b, e, bytes))
    return FALSE;
  p->quad_text = b;
  p->quad_len = n; /* 7 to 15 */
  memcpy (p->quad, bytes, 4);
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
  if (read_quad (p, q, e, bytes))
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
parse_connection_usual (SdpParser *p, CsAddr *into, const char *b, const char *e)
{
  const char *q = b + 3;
  guint8 bytes[4];

  /* "IN IP4 " and a dotted quad (which has no '/') */
  if (e - b > 7 && EQUAL_LITERAL (b, "IN IP4 ") && read_quad (p, b + 7, e, bytes))
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
parse_connection (SdpParser *p, CsAddr *into, const char *b, const char *e)
{
  CsSdp *sdp = p->sdp;

  if (parse_connection_usual (p, into, b, e))
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
  p->audio = media->media == cs_sdp_audio;
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
  media->media = (char *) cs_sdp_audio;
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
  set_rtpmap_format (p, format, name, slash, rate, channels);
  return TRUE;
}

static void
parse_rtpmap (SdpParser *p, const char *b, const char *e)
{
  if (!parse_rtpmap_usual (p, b, e))
    cs_sdp_read_rtpmap (p, b, e);
}

/* An a= line: the usual names right up to the ':' or the end here, any other spelling in
 * cs_sdp_read_attribute */
static void
parse_attribute (SdpParser *p, const char *b, const char *e)
{
  gsize n = (gsize) (e - b);

  if (n >= 7 && EQUAL_LITERAL (b, "rtpmap:"))
    {
      if (p->media != NULL)
        parse_rtpmap (p, b + 7, e);
      return;
    }
  if (n >= 6 && EQUAL_LITERAL (b, "ptime:"))
    {
      if (p->media != NULL
          && !parse_uint_prefix (skip_spaces (b + 6, e), e, 100000, &p->media->ptime))
        note_malformed (p->sdp, "bad ptime");
      return;
    }
  if (n >= 8 && (n == 8 || b[8] == ':'))
    {
      SdpAttribute attribute = attribute_of (b, 8);
      CsSdpDirection *direction = p->media != NULL ? &p->media->direction : &p->sdp->direction;

      switch (attribute)
        {
        case ATTR_SENDRECV:
          *direction = CS_SDP_SENDRECV;
          return;
        case ATTR_SENDONLY:
          *direction = CS_SDP_SENDONLY;
          return;
        case ATTR_RECVONLY:
          *direction = CS_SDP_RECVONLY;
          return;
        case ATTR_INACTIVE:
          *direction = CS_SDP_INACTIVE;
          return;
        case ATTR_OTHER:
          break;
        default:
          cs_sdp_apply_attribute (p, attribute, n > 8 ? b + 9 : NULL, e);
          return;
        }
    }
  cs_sdp_read_attribute (p, b, e);
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
      if (G_UNLIKELY (e > line && (guint8) e[-1] <= ' ' && is_space (e[-1])))
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

      if (G_UNLIKELY (!seen_version || p->skip_media))
        {
          if (!seen_version && type != 'v')
            note_malformed (p->sdp, "v= is not the first line");
          /* the lines of a dropped m= block are skipped, up to the next m= */
          if (p->skip_media && type != 'm' && type != 'v')
            {
              line = next;
              continue;
            }
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
          parse_connection (p, p->media != NULL ? &p->media->connection : &p->sdp->connection,
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
  p.s = cs_sdp_scratch_get (2 * len + 64);
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
  return cs_sdp_scratch_frozen_size ();
}
