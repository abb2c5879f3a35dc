/* cs-sdp-attributes.c — SDP a= lines in any spelling: the name up to the first ':',
 * trimmed, and what the attributes we keep say (the usual spellings are read in cs-sdp.c) */
#include "cs-sdp-private.h"

/* The current block's format for a payload type written as [b, e), or NULL. */
static CsSdpFormat *
find_format (SdpParser *p, const char *b, const char *e)
{
  guint64 pt;

  if (p->media == NULL || !parse_uint (b, e, 127, &pt))
    return NULL;
  return block_format (p, (guint) pt);
}

/* The rtpmap value [b, e) in any spelling (the current block is set) */
void
cs_sdp_read_rtpmap (SdpParser *p, const char *b, const char *e)
{
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
  set_rtpmap_format (p, format, name, slash, rate, channels);
}

/* An a= line's value [b, e) in any spelling */
void
cs_sdp_read_attribute (SdpParser *p, const char *b, const char *e)
{
  const char *name = b, *name_end = b;

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
  cs_sdp_apply_attribute (p, attribute_of (name, (gsize) (name_end - name)), value, e);
}

void
cs_sdp_apply_attribute (SdpParser *p, SdpAttribute attribute, const char *value, const char *e)
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
    cs_sdp_read_rtpmap (p, value, e);
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
  else if (attribute == ATTR_CRYPTO)
    {
      const char *v = skip_spaces (value, e);
      guint i = 0;

      while (i < CS_SDP_MAX_CRYPTO && p->media->crypto[i] != NULL)
        i++;
      if (i < CS_SDP_MAX_CRYPTO && v < e)
        p->media->crypto[i] = scratch_strndup (p->s, v, (gsize) (trim_spaces_end (v, e) - v));
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
