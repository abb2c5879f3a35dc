/* cs-sdp.c — SDP (RFC 4566) session descriptions, parsed leniently */
#include "cs-sdp.h"

#include "cs-error.h"
#include "cs-sip-headers.h"

#include <string.h>

#define MAX_FIELDS 8

typedef struct
{
  CsSdp *sdp;
  CsSdpMedia *media;   /* current m= block, NULL at session level */
  gboolean skip_media; /* past CS_SDP_MAX_MEDIA: attributes of dropped blocks are ignored */
} SdpParser;

static void
note_malformed (CsSdp *sdp, const char *reason)
{
  if (sdp->malformed == NULL)
    sdp->malformed = g_strdup (reason);
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
      if (v > (max - d) / 10)
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
      while (*s != '\0' && *s != ' ' && *s != '\t')
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

static void
clear_format (gpointer data)
{
  CsSdpFormat *format = data;

  g_free (format->encoding);
  g_free (format->fmtp);
}

static void
free_media (gpointer data)
{
  CsSdpMedia *media = data;

  g_free (media->media);
  g_free (media->proto);
  g_array_unref (media->formats);
  g_free (media);
}

void
cs_sdp_free (CsSdp *sdp)
{
  if (sdp == NULL)
    return;
  g_free (sdp->origin_username);
  g_free (sdp->session_name);
  g_ptr_array_unref (sdp->media);
  g_free (sdp->malformed);
  g_free (sdp);
}

static void
parse_origin (CsSdp *sdp, char *value)
{
  char *f[MAX_FIELDS];
  int n = split_fields (value, f, 6);

  if (sdp->origin_username != NULL)
    return;
  if (n < 6)
    {
      note_malformed (sdp, "bad o= line");
      if (n >= 1)
        sdp->origin_username = g_strdup (f[0]);
      return;
    }
  sdp->origin_username = g_strdup (f[0]);
  if (!parse_uint (f[1], G_MAXUINT64, &sdp->session_id)
      || !parse_uint (f[2], G_MAXUINT64, &sdp->session_version))
    note_malformed (sdp, "bad o= line");
  f[5] = strip (f[5]);
  cs_addr_parse (&sdp->origin_address, f[5]);
}

static void
parse_connection (CsSdp *sdp, CsAddr *into, char *value)
{
  char *f[MAX_FIELDS];
  int n = split_fields (value, f, 3);

  if (n < 3 || g_ascii_strcasecmp (f[0], "IN") != 0)
    {
      note_malformed (sdp, "bad c= line");
      return;
    }
  char *slash = strchr (f[2], '/');
  if (slash != NULL)
    *slash = '\0';
  f[2] = strip (f[2]);
  /* an FQDN is legal here; it simply leaves the family unset */
  cs_addr_parse (into, f[2]);
}

static void
parse_media (SdpParser *p, char *value)
{
  CsSdp *sdp = p->sdp;
  char *f[MAX_FIELDS];
  guint64 port = 0, n_ports = 1;

  if (sdp->media->len >= CS_SDP_MAX_MEDIA)
    {
      note_malformed (sdp, "too many m= lines");
      p->media = NULL;
      p->skip_media = TRUE;
      return;
    }
  p->skip_media = FALSE;

  CsSdpMedia *media = g_new0 (CsSdpMedia, 1);
  media->formats = g_array_new (FALSE, TRUE, sizeof (CsSdpFormat));
  g_array_set_clear_func (media->formats, clear_format);
  media->connection = sdp->connection;
  media->direction = sdp->direction;
  media->n_ports = 1;
  g_ptr_array_add (sdp->media, media);
  p->media = media;

  int n = split_fields (value, f, 3);
  if (n < 3)
    {
      note_malformed (sdp, "bad m= line");
      media->media = n >= 1 ? g_strdup (f[0]) : g_strdup ("");
      return;
    }
  media->media = g_strdup (f[0]);
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
  media->proto = g_strdup (f[2]);
  gboolean is_rtp = strstr (media->proto, "RTP") != NULL;

  char *saveptr = NULL;
  for (char *fmt = strtok_r (rest, " \t", &saveptr); fmt != NULL;
       fmt = strtok_r (NULL, " \t", &saveptr))
    {
      guint64 pt;
      if (!parse_uint (fmt, 127, &pt))
        {
          /* udptl "t38" and friends are not payload types; only RTP needs numbers */
          if (is_rtp)
            note_malformed (sdp, "bad format in m= line");
          continue;
        }
      if (media->formats->len >= CS_SDP_MAX_FORMATS)
        {
          note_malformed (sdp, "too many formats in m= line");
          break;
        }
      CsSdpFormat format = { .payload_type = (guint8) pt };
      g_array_append_val (media->formats, format);
    }
}

static CsSdpFormat *
find_format (CsSdpMedia *media, const char *pt_text)
{
  guint64 pt;

  if (media == NULL || !parse_uint (pt_text, 127, &pt))
    return NULL;
  return (CsSdpFormat *) cs_sdp_media_find_format (media, (guint8) pt);
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
  CsSdpFormat *format = find_format (p->media, f[0]);
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
  if (channels == 0 && g_strcmp0 (p->media->media, "audio") == 0)
    channels = 1;
  g_free (format->encoding);
  format->encoding = g_strdup (parts[0]);
  format->clock_rate = rate;
  format->channels = channels;
}

static void
parse_attribute (SdpParser *p, char *value)
{
  CsSdpDirection *direction = p->media != NULL ? &p->media->direction : &p->sdp->direction;
  char *colon = strchr (value, ':');
  char *attr_value = NULL;

  if (colon != NULL)
    {
      *colon = '\0';
      attr_value = colon + 1;
    }
  value = strip (value);

  if (strcmp (value, "sendrecv") == 0)
    *direction = CS_SDP_SENDRECV;
  else if (strcmp (value, "sendonly") == 0)
    *direction = CS_SDP_SENDONLY;
  else if (strcmp (value, "recvonly") == 0)
    *direction = CS_SDP_RECVONLY;
  else if (strcmp (value, "inactive") == 0)
    *direction = CS_SDP_INACTIVE;
  else if (p->media == NULL)
    return; /* other session-level attributes carry nothing we keep */
  else if (strcmp (value, "rtcp-mux") == 0)
    p->media->rtcp_mux = TRUE;
  else if (attr_value == NULL)
    return;
  else if (strcmp (value, "rtpmap") == 0)
    parse_rtpmap (p, attr_value);
  else if (strcmp (value, "fmtp") == 0)
    {
      char *f[MAX_FIELDS];
      if (split_fields (attr_value, f, 2) == 2)
        {
          CsSdpFormat *format = find_format (p->media, f[0]);
          if (format != NULL && format->fmtp == NULL)
            format->fmtp = g_strdup (strip (f[1]));
        }
    }
  else if (strcmp (value, "ptime") == 0)
    {
      if (!parse_uint_prefix (strip (attr_value), 100000, &p->media->ptime))
        note_malformed (p->sdp, "bad ptime");
    }
  else if (strcmp (value, "maxptime") == 0)
    {
      if (!parse_uint_prefix (strip (attr_value), 100000, &p->media->maxptime))
        note_malformed (p->sdp, "bad maxptime");
    }
  else if (strcmp (value, "rtcp") == 0)
    {
      char *f[MAX_FIELDS];
      guint64 port;
      if (split_fields (attr_value, f, 2) >= 1 && parse_uint (f[0], G_MAXUINT16, &port))
        p->media->rtcp_port = (guint16) port;
      else
        note_malformed (p->sdp, "bad rtcp attribute");
    }
}

/* TRUE when the n bytes hold no NUL and no byte >= 0x80 */
static gboolean
text_is_plain (const char *text, gsize n)
{
  guint8 any = 0;

  for (gsize i = 0; i < n; i++)
    any |= (guint8) text[i] == 0 ? 0x80 : (guint8) text[i];
  return (any & 0x80) == 0;
}

/* g_strstrip for a string known to end without white space */
static char *
skip_space (char *s)
{
  while (g_ascii_isspace (*s))
    s++;
  return s;
}

CsSdp *
cs_sdp_parse (const char *text, gsize len, GError **error)
{
  char stack[2048];
  g_autofree char *heap = NULL;
  char *copy, *line, *end;
  gboolean has_version = FALSE;
  SdpParser p = { 0 };

  if (text == NULL)
    len = 0;
  /* a private copy, split in place; plain text (the usual) needs no UTF-8 repair */
  if (len > 0 && text_is_plain (text, len))
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
  p.sdp = g_new0 (CsSdp, 1);
  p.sdp->media = g_ptr_array_new_with_free_func (free_media);
  p.sdp->direction = CS_SDP_SENDRECV;

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
        parse_origin (p.sdp, value);
      else if (type == 's' && p.media == NULL && p.sdp->session_name == NULL)
        p.sdp->session_name = g_strdup (skip_space (value));
      else if (type == 'c')
        parse_connection (p.sdp, p.media != NULL ? &p.media->connection : &p.sdp->connection,
                          value);
      else if (type == 'a')
        parse_attribute (&p, value);
      line = next;
    }

  if (!has_version)
    {
      cs_sdp_free (p.sdp);
      g_set_error_literal (error, CS_SDP_ERROR, CS_SDP_ERROR_MALFORMED, "not SDP: no v= line");
      return NULL;
    }
  return p.sdp;
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
