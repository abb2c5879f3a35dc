/* cs-dissect-sip.c — SIP messages (start line, every header with folded values unfolded,
 * the body) and their SDP, named as Wireshark's sip.* and sdp.* fields */
#include "cs-dissect-private.h"

#include <string.h>

#include "sip/cs-sip-headers.h"
#include "sip/cs-sip-message.h"

/* The headers Wireshark has a sip.NAME field for, spelled as it spells them. */
static const char *const cs_sip_wireshark_headers[] = {
  "sip.Accept",
  "sip.Accept-Contact",
  "sip.Accept-Encoding",
  "sip.Accept-Language",
  "sip.Accept-Resource-Priority",
  "sip.Alert-Info",
  "sip.Allow",
  "sip.Allow-Events",
  "sip.Answer-Mode",
  "sip.Authentication-Info",
  "sip.Authorization",
  "sip.Call-ID",
  "sip.Call-Info",
  "sip.Contact",
  "sip.Content-Disposition",
  "sip.Content-Encoding",
  "sip.Content-Language",
  "sip.Content-Length",
  "sip.Content-Type",
  "sip.CSeq",
  "sip.Date",
  "sip.Error-Info",
  "sip.Event",
  "sip.Expires",
  "sip.Feature-Caps",
  "sip.From",
  "sip.Geolocation",
  "sip.History-Info",
  "sip.Identity",
  "sip.Info-Package",
  "sip.In-Reply-To",
  "sip.Join",
  "sip.Max-Breadth",
  "sip.Max-Forwards",
  "sip.MIME-Version",
  "sip.Min-Expires",
  "sip.Min-SE",
  "sip.Organization",
  "sip.P-Access-Network-Info",
  "sip.P-Asserted-Identity",
  "sip.P-Asserted-Service",
  "sip.P-Associated-URI",
  "sip.P-Called-Party-ID",
  "sip.P-Charging-Function-Addresses",
  "sip.P-Charging-Vector",
  "sip.P-Early-Media",
  "sip.P-Media-Authorization",
  "sip.P-Preferred-Identity",
  "sip.P-Preferred-Service",
  "sip.P-Visited-Network-ID",
  "sip.Path",
  "sip.Priority",
  "sip.Privacy",
  "sip.Proxy-Authenticate",
  "sip.Proxy-Authorization",
  "sip.Proxy-Require",
  "sip.RAck",
  "sip.Reason",
  "sip.Record-Route",
  "sip.Recv-Info",
  "sip.Refer-Sub",
  "sip.Refer-To",
  "sip.Referred-by",
  "sip.Reject-Contact",
  "sip.Replaces",
  "sip.Reply-To",
  "sip.Require",
  "sip.Resource-Priority",
  "sip.Retry-After",
  "sip.Route",
  "sip.RSeq",
  "sip.Security-Client",
  "sip.Security-Server",
  "sip.Security-Verify",
  "sip.Server",
  "sip.Service-Route",
  "sip.Session-Expires",
  "sip.Session-ID",
  "sip.ETag",
  "sip.Subject",
  "sip.Subscription-State",
  "sip.Supported",
  "sip.Target-Dialog",
  "sip.Timestamp",
  "sip.To",
  "sip.Unsupported",
  "sip.User-Agent",
  "sip.Via",
  "sip.Warning",
  "sip.WWW-Authenticate",
  "sip.Diversion",
};

/* The display-filter name of header name (len bytes): Wireshark's, else "sip.unknown_header". */
static const char *
cs_sip_header_field (const char *name, gsize len)
{
  char buf[64];
  const char *full;

  if (len == 0 || len >= sizeof buf)
    return "sip.unknown_header";
  memcpy (buf, name, len);
  buf[len] = '\0';
  full = cs_sip_header_long_name (buf);
  for (guint i = 0; i < G_N_ELEMENTS (cs_sip_wireshark_headers); i++)
    if (g_ascii_strcasecmp (cs_sip_wireshark_headers[i] + 4, full) == 0)
      return cs_sip_wireshark_headers[i];
  return "sip.unknown_header";
}

/* The end of the line starting at p (at its CR or LF, or at end). */
static const guint8 *
cs_sip_line_end (const guint8 *p, const guint8 *end)
{
  const guint8 *lf = memchr (p, '\n', (gsize) (end - p));

  if (lf == NULL)
    return end;
  return lf > p && lf[-1] == '\r' ? lf - 1 : lf;
}

/* Past the line break at eol. */
static const guint8 *
cs_sip_next_line (const guint8 *eol, const guint8 *end)
{
  if (eol < end && *eol == '\r')
    eol++;
  if (eol < end && *eol == '\n')
    eol++;
  return eol;
}

static char *
cs_sip_text (const guint8 *p, gsize n)
{
  return cs_sip_dup_text ((const char *) p, n);
}

/* One header: its value unfolded (each line break with its leading white space becomes one
 * space). Returns where the next header starts. */
static const guint8 *
cs_dissect_sip_header (CsProtoTree *tree, const guint8 *frame, const guint8 *p, const guint8 *end,
                       GString *content_type, gint64 *content_length, char **cseq)
{
  const guint8 *eol = cs_sip_line_end (p, end);
  const guint8 *colon = memchr (p, ':', (gsize) (eol - p));
  const guint8 *name_end, *v, *next;
  GString *value = g_string_new (NULL);
  const char *field;

  if (colon == NULL)
    {
      g_autofree char *line = cs_sip_text (p, (gsize) (eol - p));

      cs_proto_tree_add (tree, "sip.malformed", (guint32) (p - frame), (guint32) (eol - p), line,
                         "Malformed header");
      g_string_free (value, TRUE);
      return cs_sip_next_line (eol, end);
    }
  for (name_end = colon; name_end > p && (name_end[-1] == ' ' || name_end[-1] == '\t');)
    name_end--;
  v = colon + 1;
  for (;;)
    {
      while (v < eol && (*v == ' ' || *v == '\t'))
        v++;
      if (value->len > 0 && v < eol)
        g_string_append_c (value, ' ');
      g_string_append_len (value, (const char *) v, eol - v);
      next = cs_sip_next_line (eol, end);
      if (next >= end || (*next != ' ' && *next != '\t'))
        break;
      v = next;
      eol = cs_sip_line_end (next, end);
    }
  while (value->len > 0
         && (value->str[value->len - 1] == ' ' || value->str[value->len - 1] == '\t'))
    g_string_truncate (value, value->len - 1);
  field = cs_sip_header_field ((const char *) p, (gsize) (name_end - p));
  if (g_str_equal (field, "sip.Content-Type"))
    g_string_assign (content_type, value->str);
  else if (g_str_equal (field, "sip.Content-Length"))
    *content_length = g_ascii_strtoll (value->str, NULL, 10);
  else if (g_str_equal (field, "sip.CSeq") && *cseq == NULL)
    *cseq = g_strdup (value->str);
  if (cs_proto_tree_wants_fields (tree))
    {
      g_autofree char *name = cs_sip_text (p, (gsize) (name_end - p));
      g_autofree char *text = cs_sip_dup_text (value->str, value->len);
      CsProtoNode *node;

      cs_proto_tree_add (tree, field, (guint32) (p - frame), (guint32) (eol - p), text, NULL);
      node = cs_proto_tree_last (tree);
      g_free (node->label);
      node->label = g_strdup_printf ("%s: %s", name, text);
    }
  g_string_free (value, TRUE);
  return next;
}

/* One SIP message at p; returns where it ends (the next message of a TCP segment). */
static const guint8 *
cs_dissect_sip_message (CsProtoTree *tree, const guint8 *frame, const guint8 *p, const guint8 *end)
{
  const guint8 *start = p, *eol = cs_sip_line_end (p, end);
  g_autofree char *line = cs_sip_text (p, (gsize) (eol - p));
  g_autofree char *cseq = NULL;
  g_auto (GStrv) parts = g_strsplit (line, " ", 3);
  gboolean request = !g_str_has_prefix (line, "SIP/");
  g_autoptr (GString) content_type = g_string_new (NULL);
  gint64 content_length = -1;
  const guint8 *body;
  guint32 body_len;
  gboolean sdp;
  guint layer_index = cs_proto_tree_get_n_nodes (tree);

  cs_proto_tree_layer (tree, "sip", (guint32) (p - frame), (guint32) (end - p),
                       "Session Initiation Protocol");
  if (request)
    {
      cs_proto_tree_add (tree, "sip.Request-Line", (guint32) (p - frame), (guint32) (eol - p), line,
                         "Request-Line");
      cs_proto_tree_push (tree);
      if (parts[0] != NULL)
        cs_proto_tree_add (tree, "sip.Method", (guint32) (p - frame), (guint32) strlen (parts[0]),
                           parts[0], "Method");
      if (parts[0] != NULL && parts[1] != NULL)
        cs_proto_tree_add (tree, "sip.r-uri",
                           (guint32) (p - frame) + (guint32) strlen (parts[0]) + 1,
                           (guint32) strlen (parts[1]), parts[1], "Request-URI");
      cs_proto_tree_pop (tree);
    }
  else
    {
      cs_proto_tree_add (tree, "sip.Status-Line", (guint32) (p - frame), (guint32) (eol - p), line,
                         "Status-Line");
      cs_proto_tree_push (tree);
      if (parts[1] != NULL)
        cs_proto_tree_add (tree, "sip.Status-Code", (guint32) (p - frame) + 8,
                           (guint32) strlen (parts[1]), parts[1], "Status-Code");
      if (parts[1] != NULL && parts[2] != NULL)
        cs_proto_tree_add (tree, "sip.Reason-Phrase",
                           (guint32) (p - frame) + 9 + (guint32) strlen (parts[1]),
                           (guint32) strlen (parts[2]), parts[2], "Reason-Phrase");
      cs_proto_tree_pop (tree);
    }
  p = cs_sip_next_line (eol, end);
  cs_proto_tree_add_text (tree, "sip.msg_hdr", (guint32) (p - frame), 0, "Message Header");
  cs_proto_tree_push (tree);
  while (p < end)
    {
      eol = cs_sip_line_end (p, end);
      if (eol == p)
        {
          p = cs_sip_next_line (eol, end);
          break;
        }
      p = cs_dissect_sip_header (tree, frame, p, end, content_type, &content_length, &cseq);
    }
  cs_proto_tree_pop (tree);
  body = p;
  body_len = (guint32) (end - body);
  if (content_length >= 0 && content_length < (gint64) body_len)
    body_len = (guint32) content_length;
  sdp = body_len > 0 && g_ascii_strncasecmp (content_type->str, "application/sdp", 15) == 0;
  if (body_len > 0 && !sdp)
    cs_proto_tree_add_text (
        tree, "sip.msg_body", (guint32) (body - frame), body_len, "Message Body (%s, %u bytes)",
        content_type->len > 0 ? content_type->str : "no Content-Type", body_len);
  {
    g_autofree char *method
        = cseq != NULL && strchr (cseq, ' ') != NULL ? g_strdup (strrchr (cseq, ' ') + 1) : NULL;
    char *title;

    if (request)
      {
        title = g_strdup_printf ("Session Initiation Protocol (%s)", parts[0]);
        cs_proto_tree_set_info (tree, "Request: %s %s", parts[0], parts[1] != NULL ? parts[1] : "");
      }
    else
      {
        title = g_strdup_printf ("Session Initiation Protocol (%s)",
                                 parts[1] != NULL ? parts[1] : "?");
        cs_proto_tree_set_info (tree, "Status: %s %s%s%s%s", parts[1] != NULL ? parts[1] : "",
                                parts[1] != NULL && parts[2] != NULL ? parts[2] : "",
                                method != NULL ? " (" : "", method != NULL ? method : "",
                                method != NULL ? ")" : "");
      }
    if (layer_index < cs_proto_tree_get_n_nodes (tree))
      {
        CsProtoNode *layer = (CsProtoNode *) cs_proto_tree_get_node (tree, layer_index);

        g_free (layer->label);
        layer->label = title;
        layer->length = (guint32) (body + body_len - start);
      }
    else
      g_free (title);
  }
  cs_proto_tree_set_protocol (tree, sdp ? "SIP/SDP" : "SIP");
  if (sdp)
    cs_dissect_sdp (tree, frame, (guint32) (body - frame), body_len);
  return body + body_len;
}

gboolean
cs_dissect_sip (CsProtoTree *tree, const CsDissectPayload *payload)
{
  const guint8 *p = payload->frame + payload->offset;
  const guint8 *end = p + payload->length;
  guint n = 0;

  if (!cs_sip_looks_like (p, payload->length))
    return FALSE;
  /* a TCP segment may carry several messages back to back */
  while (p < end && n < 16 && cs_sip_looks_like (p, (gsize) (end - p)))
    {
      p = cs_dissect_sip_message (tree, payload->frame, p, end);
      n++;
    }
  if (p < end && n > 0 && !payload->udp)
    cs_proto_tree_add_text (tree, "tcp.segment_data", (guint32) (p - payload->frame),
                            (guint32) (end - p), "TCP segment data (%u bytes)",
                            (guint32) (end - p));
  return TRUE;
}

/* SDP lines: the name of a line type at session level and in a media block. */
static const char *
cs_sdp_field (char type, gboolean media)
{
  switch (type)
    {
    case 'v':
      return "sdp.version";
    case 'o':
      return "sdp.owner";
    case 's':
      return "sdp.session_name";
    case 'i':
      return media ? "sdp.media_title" : "sdp.session_info";
    case 'u':
      return "sdp.uri";
    case 'e':
      return "sdp.email";
    case 'p':
      return "sdp.phone";
    case 'c':
      return "sdp.connection_info";
    case 'b':
      return "sdp.bandwidth";
    case 't':
      return "sdp.time";
    case 'r':
      return "sdp.repeat_time";
    case 'z':
      return "sdp.timezone";
    case 'k':
      return "sdp.encryption_key";
    case 'a':
      return media ? "sdp.media_attr" : "sdp.session_attr";
    case 'm':
      return "sdp.media";
    default:
      return "sdp.unknown";
    }
}

void
cs_dissect_sdp (CsProtoTree *tree, const guint8 *frame, guint32 offset, guint32 length)
{
  const guint8 *p = frame + offset, *end = p + length;
  gboolean media = FALSE;

  cs_proto_tree_layer (tree, "sdp", offset, length, "Session Description Protocol");
  while (p < end)
    {
      const guint8 *eol = cs_sip_line_end (p, end);
      guint32 at = (guint32) (p - frame);

      if (eol - p >= 2 && p[1] == '=' && cs_proto_tree_wants_fields (tree))
        {
          g_autofree char *value = cs_sip_text (p + 2, (gsize) (eol - p - 2));
          const char *field;

          if (p[0] == 'm')
            {
              media = TRUE;
              cs_proto_tree_pop (tree);
            }
          field = cs_sdp_field ((char) p[0], media);
          cs_proto_tree_add (tree, field, at, (guint32) (eol - p), value, NULL);
          g_free (cs_proto_tree_last (tree)->label);
          cs_proto_tree_last (tree)->label = cs_sip_text (p, (gsize) (eol - p));
          if (p[0] == 'm')
            {
              static const char *const names[]
                  = { "sdp.media.media", "sdp.media.port", "sdp.media.proto", "sdp.media.format" };
              static const char *const labels[]
                  = { "Media Type", "Media Port", "Media Protocol", "Media Format" };
              g_auto (GStrv) words = g_strsplit (value, " ", 4);
              guint32 w = at + 2;

              cs_proto_tree_push (tree);
              for (guint i = 0; i < 4 && words[i] != NULL; i++)
                {
                  cs_proto_tree_add (tree, names[i], w, (guint32) strlen (words[i]), words[i],
                                     labels[i]);
                  w += (guint32) strlen (words[i]) + 1;
                }
            }
          else if (p[0] == 'a')
            {
              const char *colon = strchr (value, ':');
              g_autofree char *name
                  = colon != NULL ? g_strndup (value, (gsize) (colon - value)) : g_strdup (value);

              cs_proto_tree_push (tree);
              cs_proto_tree_add (tree,
                                 media ? "sdp.media_attribute.field" : "sdp.session_attr.field",
                                 at + 2, (guint32) strlen (name), name, "Attribute Name");
              if (colon != NULL)
                cs_proto_tree_add (tree,
                                   media ? "sdp.media_attribute.value" : "sdp.session_attr.value",
                                   at + 2 + (guint32) strlen (name) + 1,
                                   (guint32) strlen (colon + 1), colon + 1, "Attribute Value");
              cs_proto_tree_pop (tree);
            }
        }
      p = cs_sip_next_line (eol, end);
    }
}
