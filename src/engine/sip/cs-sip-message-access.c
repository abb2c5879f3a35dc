/* cs-sip-message-access.c — a parsed SIP message's lifetime and accessors (their names in
 * parentheses: cs-sip-message-layout.h also has them as macros): references,
 * the headers view built on request, the body, header lookup, labels, and framing on
 * stream transports */
#include "cs-sdp.h"
#include "cs-sip-headers.h"
#include "cs-sip-message-private.h"
#include "base/cs-slab.h"

#include <string.h>

CsSipMessage *
cs_sip_message_ref (CsSipMessage *msg)
{
  g_return_val_if_fail (msg != NULL, NULL);
  g_atomic_ref_count_inc (&msg->ref_count);
  return msg;
}

void
cs_sip_message_unref (CsSipMessage *msg)
{
  if (msg == NULL || !g_atomic_ref_count_dec (&msg->ref_count))
    return;
  if (cs_sip_message_is_lean (msg))
    {
      CsSipMessage *donor = cs_sip_lean_donor (msg);
      cs_sip_message_unref (msg->priv_headers_view);
      if (donor != NULL)
        cs_sip_message_unref (donor); /* a message without a donor of its own */
      else
        cs_mapped_bytes_unref (cs_sip_lean_bytes (msg));
    }
  else
    g_free (msg->priv_headers_view);
  cs_slab_free (msg); /* the SDP description lives in the same allocation */
}

const char *(cs_sip_message_get_string) (const CsSipMessage *msg, CsSipField field)
{
  return cs_sip_message_string_at (msg, field);
}

guint32 (cs_sip_message_get_frame) (const CsSipMessage *msg)
{
  return msg->frame;
}

guint32 (cs_sip_message_get_first_frame) (const CsSipMessage *msg)
{
  return msg->first_frame;
}

gint64 (cs_sip_message_get_ts_ns) (const CsSipMessage *msg)
{
  return msg->ts_ns;
}

const CsEndpoint *(cs_sip_message_get_src) (const CsSipMessage *msg)
{
  return &msg->src;
}

const CsEndpoint *(cs_sip_message_get_dst) (const CsSipMessage *msg)
{
  return &msg->dst;
}

CsSipTransport (cs_sip_message_get_transport) (const CsSipMessage *msg)
{
  return (CsSipTransport) msg->transport;
}

guint64 (cs_sip_message_get_offset) (const CsSipMessage *msg)
{
  return msg->offset;
}

gboolean (cs_sip_message_is_request) (const CsSipMessage *msg)
{
  return msg->is_request;
}

CsSipMethod (cs_sip_message_get_method) (const CsSipMessage *msg)
{
  return (CsSipMethod) msg->method;
}

guint (cs_sip_message_get_status_code) (const CsSipMessage *msg)
{
  return msg->status_code;
}

guint32 (cs_sip_message_get_cseq) (const CsSipMessage *msg)
{
  return msg->cseq;
}

CsSipMethod (cs_sip_message_get_cseq_method) (const CsSipMessage *msg)
{
  return (CsSipMethod) msg->cseq_method;
}

CsSipMethod (cs_sip_message_get_transaction_method) (const CsSipMessage *msg)
{
  return cs_sip_message_transaction_method_at (msg);
}

gint64 (cs_sip_message_get_content_length) (const CsSipMessage *msg)
{
  return msg->content_length;
}

CsSdp *(cs_sip_message_get_sdp) (const CsSipMessage *msg)
{
  return msg->sdp;
}

gboolean
cs_sip_message_is_provisional (const CsSipMessage *msg)
{
  return !msg->is_request && msg->status_code >= 100 && msg->status_code < 200;
}

gboolean
cs_sip_message_is_final (const CsSipMessage *msg)
{
  return !msg->is_request && msg->status_code >= 200;
}

CsSipMessage *
cs_sip_message_stamp (CsSipMessage *msg, const CsEndpoint *src, const CsEndpoint *dst,
                      CsSipTransport transport, guint32 frame, gint64 ts_ns)
{
  if (msg == NULL)
    return NULL;
  msg->frame = frame;
  msg->first_frame = frame;
  msg->ts_ns = ts_ns;
  msg->src = *src;
  msg->dst = *dst;
  msg->transport = (guint8) transport;
  return msg;
}

void
cs_sip_message_set_frame (CsSipMessage *msg, guint32 frame)
{
  msg->frame = frame;
}

void
cs_sip_message_set_first_frame (CsSipMessage *msg, guint32 first_frame)
{
  msg->first_frame = first_frame;
}

void
cs_sip_message_set_ts_ns (CsSipMessage *msg, gint64 ts_ns)
{
  msg->ts_ns = ts_ns;
}

guint
cs_sip_message_get_point (const CsSipMessage *msg)
{
  return msg->point;
}

void
cs_sip_message_set_point (CsSipMessage *msg, guint point)
{
  msg->point = (guint16) MIN (point, G_MAXUINT16);
}

void
cs_sip_message_set_endpoints (CsSipMessage *msg, const CsEndpoint *src, const CsEndpoint *dst)
{
  msg->src = *src;
  msg->dst = *dst;
}

/* Steps over one packed header; returns the next one. */
static const char *
packed_next (const char *p, const char **name, const char **value)
{
  if (p[0] == '\x01')
    {
      *name = cs_sip_header_known_by_index ((guint8) p[1] - 1);
      p += 2;
    }
  else
    {
      *name = p;
      p += strlen (p) + 1;
    }
  *value = p;
  return p + strlen (p) + 1;
}

static gboolean
same_decoded (const CsSipMessage *a, const CsSipMessage *b)
{
  return a->is_request == b->is_request && a->status_code == b->status_code && a->cseq == b->cseq
         && a->content_length == b->content_length
         && g_strcmp0 (cs_sip_message_get_call_id (a), cs_sip_message_get_call_id (b)) == 0
         && g_strcmp0 (cs_sip_message_get_from (a), cs_sip_message_get_from (b)) == 0
         && g_strcmp0 (cs_sip_message_get_to (a), cs_sip_message_get_to (b)) == 0
         && g_strcmp0 (cs_sip_message_get_via_branch (a), cs_sip_message_get_via_branch (b)) == 0;
}

/* A lean message's full parse, read again from its bytes on first request (thread-safe:
 * the first one published wins). Bytes that no longer parse to the same message (the
 * file changed under its mapping) give one without headers or body. */
static const CsSipMessage *
lean_full (const CsSipMessage *msg)
{
  gpointer *slot = (gpointer *) &((CsSipMessage *) msg)->priv_headers_view;
  CsSipMessage *full = g_atomic_pointer_get (slot);

  if (full != NULL)
    return full;
  full = cs_sip_message_parse (cs_mapped_bytes_get_data (cs_sip_lean_bytes (msg)) + msg->offset,
                               msg->priv_header_offset, NULL);
  if (full == NULL || !same_decoded (msg, full))
    {
      static const char empty[] = "X x SIP/2.0\r\n\r\n";
      g_clear_pointer (&full, cs_sip_message_unref);
      full = cs_sip_message_parse ((const guint8 *) empty, sizeof empty - 1, NULL);
    }
  if (!g_atomic_pointer_compare_and_exchange (slot, NULL, full))
    {
      cs_sip_message_unref (full);
      full = g_atomic_pointer_get (slot);
    }
  return full;
}

/* The Content-Type of SDP bodies and the reasons of the usual responses. */
const char *const cs_sip_common_strings[CS_SIP_N_COMMON_STRINGS] = {
  "application/sdp",
  "OK",
  "Trying",
  "Ringing",
};
G_STATIC_ASSERT (CS_SIP_STRING_COMMON + CS_SIP_N_COMMON_STRINGS - 1 <= CS_SIP_STRING_SPECIAL);

const char *
cs_sip_message_string_special (const CsSipMessage *msg, CsSipField field)
{
  switch (msg->priv_strings[field])
    {
    case CS_SIP_STRING_METHOD:
      return cs_sip_method_to_string (msg->method);
    case CS_SIP_STRING_CSEQ_METHOD:
      return cs_sip_method_to_string (msg->cseq_method);
    case CS_SIP_STRING_REREAD:
      return cs_sip_message_string_at (lean_full (msg), field);
    case CS_SIP_STRING_FAR:
      return (const char *) msg + cs_sip_message_far_table (msg)[field];
    default:
      {
        guint common = msg->priv_strings[field] - CS_SIP_STRING_COMMON;
        g_return_val_if_fail (common < CS_SIP_N_COMMON_STRINGS, NULL);
        return cs_sip_common_strings[common];
      }
    }
}

const GPtrArray *
cs_sip_message_get_headers (const CsSipMessage *msg)
{
  /* logically const: the view is a cache of the packed headers */
  gpointer *slot = (gpointer *) &((CsSipMessage *) msg)->priv_headers_view;
  GPtrArray *view = g_atomic_pointer_get (slot);
  guint n = msg->priv_n_headers;

  if (cs_sip_message_is_lean (msg))
    return cs_sip_message_get_headers (lean_full (msg));
  if (view != NULL)
    return view;
  /* GPtrArray's public part, its pdata, then the headers: read-only */
  view = g_malloc (sizeof (GPtrArray) + n * (sizeof (gpointer) + sizeof (CsSipHeader)));
  CsSipHeader *h = (CsSipHeader *) ((gpointer *) (view + 1) + n);
  const char *p = (const char *) msg + msg->priv_header_offset;
  view->pdata = (gpointer *) (view + 1);
  view->len = n;
  for (guint i = 0; i < n; i++)
    {
      const char *name, *value;
      p = packed_next (p, &name, &value);
      h[i].name = (char *) name;
      h[i].value = (char *) value;
      view->pdata[i] = &h[i];
    }
  /* the GUI and a report may ask at once: the first view published wins */
  if (!g_atomic_pointer_compare_and_exchange (slot, NULL, view))
    {
      g_free (view);
      view = g_atomic_pointer_get (slot);
    }
  return view;
}

const char *
cs_sip_message_get_body (const CsSipMessage *msg, gsize *len)
{
  if (cs_sip_message_is_lean (msg))
    {
      if (msg->priv_body_len == CS_SIP_BODY_ELSEWHERE)
        return cs_sip_message_get_body (lean_full (msg), len);
    }
  if (len != NULL)
    *len = msg->priv_body_len;
  return (const char *) msg + msg->priv_body_at;
}

const char *
cs_sip_message_get_header (const CsSipMessage *msg, const char *name)
{
  const char *wanted, *p;

  if (msg == NULL || name == NULL)
    return NULL;
  if (cs_sip_message_is_lean (msg))
    return cs_sip_message_get_header (lean_full (msg), name);
  wanted = cs_sip_header_long_name (name);
  p = (const char *) msg + msg->priv_header_offset;
  for (guint i = 0; i < msg->priv_n_headers; i++)
    {
      const char *h_name, *h_value;
      p = packed_next (p, &h_name, &h_value);
      if (g_ascii_strcasecmp (cs_sip_header_long_name (h_name), wanted) == 0)
        return h_value;
    }
  return NULL;
}

char *
cs_sip_message_dup_label (const CsSipMessage *msg)
{
  const char *method_name = cs_sip_message_get_method_name (msg);
  const char *reason = cs_sip_message_get_reason (msg);

  if (msg->is_request)
    return g_strdup (method_name != NULL && method_name[0] != '\0' ? method_name : "?");
  if (reason != NULL && reason[0] != '\0')
    return g_strdup_printf ("%u %s", msg->status_code, reason);
  return g_strdup_printf ("%u", msg->status_code);
}

CsSipFraming
cs_sip_message_frame_length (const guint8 *data, gsize len, gsize *message_len)
{
  gsize pos = 0;
  gint64 content_length = 0;
  gboolean first = TRUE;

  while (pos < len)
    {
      const guint8 *eol = memchr (data + pos, '\n', len - pos);
      if (eol == NULL)
        break;
      gsize line_end = (gsize) (eol - data);
      gsize n = line_end - pos;
      if (n > 0 && data[line_end - 1] == '\r')
        n--;
      if (first)
        {
          if (!cs_sip_is_strict_start_line (data, n))
            return CS_SIP_FRAMING_INVALID;
          first = FALSE;
        }
      else if (n == 0)
        {
          gsize header_len = line_end + 1;
          if ((guint64) content_length > len - header_len)
            return CS_SIP_FRAMING_INCOMPLETE;
          *message_len = header_len + (gsize) content_length;
          return CS_SIP_FRAMING_COMPLETE;
        }
      else
        {
          const char *line = (const char *) data + pos;
          const char *colon = memchr (line, ':', n);
          if (colon != NULL)
            {
              g_autofree char *name = g_strstrip (g_strndup (line, (gsize) (colon - line)));
              if (cs_sip_header_name_equal (name, "Content-Length"))
                {
                  g_autofree char *value
                      = g_strstrip (g_strndup (colon + 1, n - (gsize) (colon - line) - 1));
                  if (!cs_sip_parse_content_length (value, &content_length)
                      || content_length > CS_SIP_MAX_FRAMED_BODY)
                    return CS_SIP_FRAMING_INVALID;
                }
            }
        }
      pos = line_end + 1;
      if (pos > CS_SIP_MAX_FRAMED_HEADERS)
        return CS_SIP_FRAMING_INVALID;
    }
  /* a start line still being received is judged by its first byte only */
  if (first && len > 0 && !cs_sip_is_token_char (data[0]))
    return CS_SIP_FRAMING_INVALID;
  return len > CS_SIP_MAX_FRAMED_HEADERS ? CS_SIP_FRAMING_INVALID : CS_SIP_FRAMING_INCOMPLETE;
}
