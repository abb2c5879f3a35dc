/* cs-sdp.c — SDP (RFC 4566) session descriptions, parsed leniently */
#include "cs-sdp.h"

#include "cs-error.h"
#include "cs-sip-headers.h"
#include "cs-sip-message-private.h"

#include <string.h>

#define MAX_FIELDS 8

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
} SdpScratch;

typedef struct
{
  CsSdp *sdp;
  SdpScratch *s;
  CsSdpMedia *media;   /* current m= block, NULL at session level */
  gboolean skip_media; /* past CS_SDP_MAX_MEDIA: attributes of dropped blocks are ignored */
} SdpParser;

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
 * text plus a NUL, so twice the text's length is enough and they never move. */
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

static char *
scratch_strdup (SdpScratch *s, const char *text)
{
  gsize n = strlen (text) + 1;
  char *copy = s->strings + s->strings_used;

  g_assert (s->strings_size - s->strings_used >= n);
  memcpy (copy, text, n);
  s->strings_used += n;
  return copy;
}

/* scratch_strdup of the n bytes at text (no NUL among them) */
static char *
scratch_strndup (SdpScratch *s, const char *text, gsize n)
{
  char *copy = s->strings + s->strings_used;

  g_assert (s->strings_size - s->strings_used >= n + 1);
  memcpy (copy, text, n);
  copy[n] = '\0';
  s->strings_used += n + 1;
  return copy;
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
static void
note_malformed (CsSdp *sdp, const char *reason)
{
  if (sdp->malformed == NULL)
    sdp->malformed = (char *) reason;
}

/* Decimal digits only, no sign, no overflow past max. */
static gboolean
parse_uint (const char *s, guint64 max, guint64 *out)
{
  guint64 v = 0;

  if (s == NULL || !g_ascii_isdigit (*s))
    return FALSE;
  for (; g_ascii_isdigit (*s); s++)
    {
      guint d = (guint) (*s - '0');
      /* v * 10 + d <= max, without a division per digit */
      if (v > max / 10 || (v == max / 10 && d > max % 10))
        return FALSE;
      v = v * 10 + d;
    }
  if (*s != '\0')
    return FALSE;
  *out = v;
  return TRUE;
}

/* Leading integer of s ("20", "20.5" → 20), FALSE when s does not start with a digit. */
static gboolean
parse_uint_prefix (const char *s, guint max, guint *out)
{
  guint64 v = 0;

  if (s == NULL || !g_ascii_isdigit (*s))
    return FALSE;
  for (; g_ascii_isdigit (*s); s++)
    {
      v = v * 10 + (guint) (*s - '0');
      if (v > max)
        return FALSE;
    }
  *out = (guint) v;
  return TRUE;
}

/* NUL, space and tab: where a field ends */
static const guint8 field_end[256] = { ['\0'] = 1, [' '] = 1, ['\t'] = 1 };

/* Splits s in place on spaces and tabs; the last field keeps the rest of the line. */
static int
split_fields (char *s, char **fields, int max)
{
  int n = 0;

  while (n < max)
    {
      while (*s == ' ' || *s == '\t')
        s++;
      if (*s == '\0')
        break;
      fields[n++] = s;
      if (n == max)
        break;
      while (!field_end[(guint8) *s])
        s++;
      if (*s == '\0')
        break;
      *s++ = '\0';
    }
  return n;
}

/* g_strstrip without moving the text: the stripped string starts at the result */
static char *
strip (char *s)
{
  char *end;

  while (g_ascii_isspace (*s))
    s++;
  end = s + strlen (s);
  while (end > s && g_ascii_isspace (end[-1]))
    end--;
  *end = '\0';
  return s;
}

void
cs_sdp_free (CsSdp *sdp)
{
  g_free (sdp); /* one allocation, see sdp_freeze */
}

/* cs_addr_parse with the usual dotted quad read by hand (inet_pton costs ~250
 * instructions); it accepts exactly what inet_pton (AF_INET) accepts: four decimal
 * octets <= 255 without leading zeros. Anything else goes to cs_addr_parse. */
static void
parse_address (CsAddr *into, const char *text)
{
  guint8 bytes[4];
  const char *p = text;

  for (int i = 0; i < 4; i++)
    {
      guint v = 0, digits = 0;
      while (g_ascii_isdigit (*p) && digits < 4)
        {
          v = v * 10 + (guint) (*p++ - '0');
          digits++;
        }
      if (digits == 0 || digits > 3 || v > 255 || (digits > 1 && p[-(int) digits] == '0')
          || *p != (i < 3 ? '.' : '\0'))
        {
          cs_addr_parse (into, text);
          return;
        }
      bytes[i] = (guint8) v;
      p++;
    }
  cs_addr_set_v4 (into, bytes);
}

/* The end of the field starting at s (split_fields' rule: NUL, space or tab). */
static inline const char *
field_stop (const char *s)
{
  while (!field_end[(guint8) *s])
    s++;
  return s;
}

/* A field that is 1 to 19 digits (no overflow) followed by one space: its value, *s moved
 * past the space; FALSE otherwise. */
static inline gboolean
digits_then_space (const char **s, guint64 *out)
{
  const char *q = *s;
  guint64 v = 0;

  while (g_ascii_isdigit (*q))
    {
      v = v * 10 + (guint) (*q++ - '0');
      if (q - *s > 19)
        return FALSE;
    }
  if (q == *s || *q != ' ')
    return FALSE;
  *out = v;
  *s = q + 1;
  return TRUE;
}

/* A token (no space, tab or NUL) and one space after it: *s moved past the space. */
static inline gboolean
token_then_space (const char **s)
{
  const char *q = field_stop (*s);

  if (q == *s || *q != ' ')
    return FALSE;
  *s = q + 1;
  return TRUE;
}

/* The usual o= line, "user id version nettype addrtype address" with single spaces and
 * numeric ids, without splitting a copy: what parse_origin makes of it. FALSE (nothing
 * done) for any other line. */
static gboolean
parse_origin_usual (SdpParser *p, const char *value)
{
  const char *q = value, *user = value;
  guint64 id, version;

  if (!token_then_space (&q))
    return FALSE;
  gsize user_len = (gsize) (q - 1 - user);
  if (!digits_then_space (&q, &id) || !digits_then_space (&q, &version) || !token_then_space (&q)
      || !token_then_space (&q))
    return FALSE;
  /* the address is the rest of the line, already without trailing white space */
  if (*q == '\0' || g_ascii_isspace (*q))
    return FALSE;
  p->sdp->origin_username = scratch_strndup (p->s, user, user_len);
  p->sdp->session_id = id;
  p->sdp->session_version = version;
  parse_address (&p->sdp->origin_address, q);
  return TRUE;
}

static void
parse_origin (SdpParser *p, char *value)
{
  CsSdp *sdp = p->sdp;

  if (sdp->origin_username != NULL || parse_origin_usual (p, value))
    return;

  char *f[MAX_FIELDS];
  int n = split_fields (value, f, 6);
  if (n < 6)
    {
      note_malformed (sdp, "bad o= line");
      if (n >= 1)
        sdp->origin_username = scratch_strdup (p->s, f[0]);
      return;
    }
  sdp->origin_username = scratch_strdup (p->s, f[0]);
  if (!parse_uint (f[1], G_MAXUINT64, &sdp->session_id)
      || !parse_uint (f[2], G_MAXUINT64, &sdp->session_version))
    note_malformed (sdp, "bad o= line");
  f[5] = strip (f[5]);
  parse_address (&sdp->origin_address, f[5]);
}

/* The usual c= line, "IN nettype address" with single spaces and no "/ttl": what
 * parse_connection makes of it, without splitting; FALSE (nothing done) otherwise. */
static gboolean
parse_connection_usual (CsAddr *into, const char *value)
{
  const char *q = value + 3;

  /* "IN" in any case: (c | 0x20) folds only 'I'/'i' to 'i' and 'N'/'n' to 'n' */
  if ((value[0] | 0x20) != 'i' || (value[1] | 0x20) != 'n' || value[2] != ' '
      || !token_then_space (&q) || *q == '\0' || g_ascii_isspace (*q))
    return FALSE;
  for (const char *r = q; *r != '\0'; r++)
    if (*r == '/')
      return FALSE;
  parse_address (into, q);
  return TRUE;
}

static void
parse_connection (CsSdp *sdp, CsAddr *into, char *value)
{
  if (parse_connection_usual (into, value))
    return;

  char *f[MAX_FIELDS];
  int n = split_fields (value, f, 3);

  /* "IN" in any case: (c | 0x20) folds only 'I'/'i' to 'i' and 'N'/'n' to 'n' */
  if (n < 3 || (f[0][0] | 0x20) != 'i' || (f[0][1] | 0x20) != 'n' || f[0][2] != '\0')
    {
      note_malformed (sdp, "bad c= line");
      return;
    }
  char *slash = strchr (f[2], '/');
  if (slash != NULL)
    *slash = '\0';
  f[2] = strip (f[2]);
  /* an FQDN is legal here; it simply leaves the family unset */
  parse_address (into, f[2]);
}

/* strstr (proto, "RTP") != NULL, without the call: protos are short */
static gboolean
contains_rtp (const char *proto)
{
  for (const char *q = proto; *q != '\0'; q++)
    if (q[0] == 'R' && q[1] == 'T' && q[2] == 'P')
      return TRUE;
  return FALSE;
}

static void
parse_media (SdpParser *p, char *value)
{
  CsSdp *sdp = p->sdp;
  char *f[MAX_FIELDS];
  guint64 port = 0, n_ports = 1;

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

  int n = split_fields (value, f, 3);
  if (n < 3)
    {
      note_malformed (sdp, "bad m= line");
      media->media = scratch_strdup (s, n >= 1 ? f[0] : "");
      return;
    }
  media->media = scratch_strdup (s, f[0]);
  char *slash = strchr (f[1], '/');
  if (slash != NULL)
    *slash = '\0';
  if (!parse_uint (f[1], G_MAXUINT16, &port)
      || (slash != NULL && !parse_uint (slash + 1, G_MAXUINT16, &n_ports)))
    note_malformed (sdp, "bad m= port");
  media->port = (guint16) port;
  media->n_ports = (guint) n_ports;

  /* f[2] is "proto fmt fmt …" */
  char *rest = f[2];
  while (*rest != '\0' && *rest != ' ' && *rest != '\t')
    rest++;
  if (*rest != '\0')
    *rest++ = '\0';
  media->proto = scratch_strdup (s, f[2]);
  gboolean is_rtp = contains_rtp (media->proto);

  /* the formats: tokens between runs of spaces and tabs (as strtok_r would split) */
  for (char *q = rest;;)
    {
      while (*q == ' ' || *q == '\t')
        q++;
      if (*q == '\0')
        break;
      char *fmt = q;
      while (*q != '\0' && *q != ' ' && *q != '\t')
        q++;
      if (*q != '\0')
        *q++ = '\0';
      guint64 pt;
      if (!parse_uint (fmt, 127, &pt))
        {
          /* udptl "t38" and friends are not payload types; only RTP needs numbers */
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

/* The current block's format for a payload type written as text, or NULL. */
static CsSdpFormat *
find_format (SdpParser *p, const char *pt_text)
{
  guint64 pt;

  if (p->media == NULL || !parse_uint (pt_text, 127, &pt))
    return NULL;
  guint index = (guint) (p->media - p->s->media);
  CsSdpFormat *formats = p->s->formats + p->s->first_format[index];
  for (guint i = 0; i < p->s->n_formats[index]; i++)
    if (formats[i].payload_type == pt)
      return &formats[i];
  return NULL;
}

static void
parse_rtpmap (SdpParser *p, char *value)
{
  char *f[MAX_FIELDS];
  int n = split_fields (value, f, 2);

  if (n < 2)
    {
      note_malformed (p->sdp, "bad rtpmap");
      return;
    }
  CsSdpFormat *format = find_format (p, f[0]);
  if (format == NULL)
    {
      if (p->media != NULL && !parse_uint (f[0], 127, &(guint64){ 0 }))
        note_malformed (p->sdp, "bad rtpmap");
      return;
    }
  f[1] = strip (f[1]);
  /* "encoding/rate[/channels…]": the third part keeps any further '/' */
  char *parts[3] = { f[1], NULL, NULL };
  char *slash = strchr (f[1], '/');
  if (slash != NULL)
    {
      *slash = '\0';
      parts[1] = slash + 1;
      slash = strchr (parts[1], '/');
      if (slash != NULL)
        {
          *slash = '\0';
          parts[2] = slash + 1;
        }
    }
  guint rate = 0, channels = 0;
  if (parts[0][0] == '\0' || parts[1] == NULL
      || !parse_uint_prefix (parts[1], G_MAXUINT32 / 10, &rate))
    note_malformed (p->sdp, "bad rtpmap");
  if (parts[1] != NULL && parts[2] != NULL && !parse_uint_prefix (parts[2], 255, &channels))
    note_malformed (p->sdp, "bad rtpmap");
  const char *m = p->media->media;
  /* g_strcmp0 (m, "audio") == 0, without the call */
  if (channels == 0 && m != NULL && m[0] == 'a' && m[1] == 'u' && m[2] == 'd' && m[3] == 'i'
      && m[4] == 'o' && m[5] == '\0')
    channels = 1;
  format->encoding = parts[1] != NULL
                         ? scratch_strndup (p->s, parts[0], (gsize) (parts[1] - 1 - parts[0]))
                         : scratch_strdup (p->s, parts[0]);
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

/* The attributes we read, by exact (case-sensitive) name: length first, then one compare. */
static SdpAttribute
attribute_of (const char *name, gsize len)
{
#define A(n, a)                                                                                    \
  {                                                                                                \
    n, sizeof (n) - 1, a                                                                           \
  }
  static const struct
  {
    const char *name;
    gsize len;
    SdpAttribute attribute;
  } attributes[] = {
    A ("sendrecv", ATTR_SENDRECV), A ("sendonly", ATTR_SENDONLY), A ("recvonly", ATTR_RECVONLY),
    A ("inactive", ATTR_INACTIVE), A ("rtcp-mux", ATTR_RTCP_MUX), A ("rtpmap", ATTR_RTPMAP),
    A ("fmtp", ATTR_FMTP),         A ("ptime", ATTR_PTIME),       A ("maxptime", ATTR_MAXPTIME),
    A ("rtcp", ATTR_RTCP),
  };
#undef A

  if (len < 4 || len > 8)
    return ATTR_OTHER;
  for (gsize i = 0; i < G_N_ELEMENTS (attributes); i++)
    if (attributes[i].len == len && attributes[i].name[0] == name[0]
        && memcmp (attributes[i].name, name, len) == 0)
      return attributes[i].attribute;
  return ATTR_OTHER;
}

static void
parse_attribute (SdpParser *p, char *value)
{
  CsSdpDirection *direction = p->media != NULL ? &p->media->direction : &p->sdp->direction;
  char *attr_value = NULL;
  char *name = value, *name_end = value;

  /* the name: up to the first ':', without surrounding white space; the usual one is
   * lowercase letters and '-' right up to the ':' or the end, with nothing to trim */
  while ((*name_end >= 'a' && *name_end <= 'z') || *name_end == '-')
    name_end++;
  if (*name_end != ':' && *name_end != '\0')
    name_end = strchrnul (name_end, ':');
  if (*name_end == ':')
    attr_value = name_end + 1;
  while (name < name_end && g_ascii_isspace (*name))
    name++;
  while (name_end > name && g_ascii_isspace (name_end[-1]))
    name_end--;
  SdpAttribute attribute = attribute_of (name, (gsize) (name_end - name));

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
  else if (attr_value == NULL)
    return;
  else if (attribute == ATTR_RTPMAP)
    parse_rtpmap (p, attr_value);
  else if (attribute == ATTR_FMTP)
    {
      char *f[MAX_FIELDS];
      if (split_fields (attr_value, f, 2) == 2)
        {
          CsSdpFormat *format = find_format (p, f[0]);
          if (format != NULL && format->fmtp == NULL)
            format->fmtp = scratch_strdup (p->s, strip (f[1]));
        }
    }
  else if (attribute == ATTR_PTIME)
    {
      if (!parse_uint_prefix (strip (attr_value), 100000, &p->media->ptime))
        note_malformed (p->sdp, "bad ptime");
    }
  else if (attribute == ATTR_MAXPTIME)
    {
      if (!parse_uint_prefix (strip (attr_value), 100000, &p->media->maxptime))
        note_malformed (p->sdp, "bad maxptime");
    }
  else if (attribute == ATTR_RTCP)
    {
      char *f[MAX_FIELDS];
      guint64 port;
      if (split_fields (attr_value, f, 2) >= 1 && parse_uint (f[0], G_MAXUINT16, &port))
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

/* g_strstrip for a string known to end without white space */
static char *
skip_space (char *s)
{
  while (g_ascii_isspace (*s))
    s++;
  return s;
}

/* Parses into the thread's scratch and *parsed; FALSE when there is no v= line. */
static gboolean
sdp_parse_pending (const char *text, gsize len, CsSdp *parsed)
{
  char stack[2048];
  g_autofree char *heap = NULL;
  char *copy, *line, *end;
  gboolean has_version = FALSE;
  SdpParser p = { 0 };

  if (text == NULL)
    len = 0;
  /* a private copy, split in place; plain text (the usual) needs no UTF-8 repair */
  if (len > 0 && cs_sip_text_is_plain (text, len))
    {
      copy = len < sizeof stack ? stack : (heap = g_malloc (len + 1));
      memcpy (copy, text, len);
      copy[len] = '\0';
    }
  else
    {
      copy = heap = cs_sip_dup_text (text != NULL ? text : "", len);
      len = strlen (copy);
    }
  end = copy + len;
  *parsed = (CsSdp){ 0 };
  p.sdp = parsed;
  p.sdp->direction = CS_SDP_SENDRECV;
  p.s = scratch_get (2 * len + 64);

  line = copy;
  while (line != NULL)
    {
      char *next = memchr (line, '\n', (gsize) (end - line));
      char *line_end = next != NULL ? next : end;
      if (next != NULL)
        next++;
      while (line_end > line && g_ascii_isspace (line_end[-1]))
        line_end--;
      *line_end = '\0';
      if (*line == '\0')
        {
          line = next;
          continue;
        }
      if (!g_ascii_isalpha (line[0]) || line[1] != '=')
        {
          note_malformed (p.sdp, "bad line");
          line = next;
          continue;
        }
      char type = line[0];
      char *value = line + 2;

      if (type == 'v')
        {
          if (strcmp (skip_space (value), "0") != 0)
            note_malformed (p.sdp, "bad v= line");
          else if (has_version)
            note_malformed (p.sdp, "repeated v= line");
          has_version = TRUE;
        }
      else if (!has_version)
        note_malformed (p.sdp, "v= is not the first line");

      if (type == 'm')
        parse_media (&p, value);
      else if (p.skip_media)
        ; /* lines of a dropped m= block */
      else if (type == 'o')
        parse_origin (&p, value);
      else if (type == 's' && p.media == NULL && p.sdp->session_name == NULL)
        p.sdp->session_name = scratch_strdup (p.s, skip_space (value));
      else if (type == 'c')
        parse_connection (p.sdp, p.media != NULL ? &p.media->connection : &p.sdp->connection,
                          value);
      else if (type == 'a')
        parse_attribute (&p, value);
      line = next;
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
